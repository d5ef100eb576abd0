"""Hashes of frozen values computed once: boards, positions, grids and chart domains are dict keys hashed many
times a turn (memos, caches, repetition histories) and never change after construction."""

from __future__ import annotations

from typing import Any

_KEY = "_hash"


class HashedOnce:
    """Mixin for frozen value types with a ``__dict__``: ``__hash__`` is ``_hash_value()``, computed on the first
    call and kept; copies and pickles leave the kept hash out (a string's hash differs between processes).

    A class whose body defines ``__eq__``, or a dataclass with ``eq=True``, must also write ``__hash__ =
    HashedOnce.__hash__`` in its body: else Python sets its hash to None, or the dataclass decorator writes the
    hash of the fields."""

    __slots__ = ()

    def _hash_value(self) -> int:
        """The hash of the value's content (what ``__eq__`` compares)."""
        raise NotImplementedError

    def __hash__(self) -> int:
        d = self.__dict__
        h = d.get(_KEY)
        if h is None:
            h = d[_KEY] = self._hash_value()
        return h

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__
        return {k: v for k, v in d.items() if k != _KEY} if _KEY in d else d


def forget_hash(obj: HashedOnce) -> None:
    """Drop the kept hash of a value whose fields were just set in place (a copy being built)."""
    obj.__dict__.pop(_KEY, None)
