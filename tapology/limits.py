"""Limits on what an input may ask for, all in one place (documented in docs/limits.md).

Every board, rule set, file, predicate and option is measured when it is read; an input beyond a limit is refused
with a :class:`~tapology.errors.LimitError` naming the input, the measure and the limit, before any memory is
spent on it.  Where a bigger input is legitimate, raise a limit explicitly: on the command line with
``tapology --limit NAME=VALUE ...`` (repeatable), in the environment with ``TAPOLOGY_LIMITS="NAME=VALUE,..."``, or
in a library call inside ``with raised(NAME=VALUE): ...``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tapology.errors import LimitError, OptionError, TapologyError

ENV = "TAPOLOGY_LIMITS"


@dataclass(frozen=True)
class Limit:
    """A named limit: its default value and what it bounds."""

    name: str
    default: int
    what: str
    most: int | None = None  # a bound no setting may pass (code that recurses once per level stays within Python's stack)


LIMITS: dict[str, Limit] = {lim.name: lim for lim in (
    Limit("file_bytes", 16_000_000, "bytes in one input file (board, rule, position, transcript, record)"),
    Limit("nesting", 32, "nesting depth of arrays and tables in a TOML or JSON input"),
    Limit("size_digits", 7, "digits in one size of a built-in board name (torus:MxN)"),
    Limit("tiles", 250_000, "tiles of a board (torus:500x500 has 250,000)"),
    Limit("coordinate", 8, "|x| or |y| of a rule set's cell: pattern extent, link anchor, safe and domain cells"),
    Limit("domain_cells", 289, "cells of a chart domain (box:8 has 17 x 17 = 289)"),
    Limit("domain_table", 4_000_000, "cells x orientations x cells of a chart domain's transition table (box:8 has "
          "289 x 8 x 289 = 668,168; it is built in about 1 s a million)"),
    Limit("chart_entries", 10_000_000, "tiles x chart-domain cells of a board (the atlas's size)"),
    Limit("canonical_tiles", 10_000, "tiles of a board whose canonical form signature and same compute (the walk is "
          "quadratic on boards with few symmetries)"),
    Limit("predicate_depth", 64, "nesting depth of a --reach or --invariant predicate (parentheses, not, and, or)",
          most=256),
    Limit("predicate_length", 10_000, "characters in one predicate"),
    Limit("turn_tiles", 40_000_000, "turns listed at once x tiles of the board (each turn holds the position it "
          "leads to: tictactoe:60,60,5 has 3,600 x 3,600)"),
    Limit("depth", 10_000, "turns of a --depth when the game does not bound it itself, and an alphabeta:D player's D"),
    Limit("playouts", 1_000_000, "playouts of an mcts:N player's move"),
)}

_raised: dict[str, int] = {}


_read: tuple[str, dict[str, int]] = ("", {})  # the environment's text last read, and its settings


def _env() -> dict[str, int]:
    """The limits the environment sets (parsed again only when its text changed: limits are read in hot paths)."""
    global _read
    text = os.environ.get(ENV, "").strip()
    if text != _read[0]:
        _read = (text, dict(parse_setting(part, ENV) for part in text.split(",") if part.strip()) if text else {})
    return _read[1]


def parse_setting(text: str, where: str = "--limit") -> tuple[str, int]:
    """``NAME=VALUE`` as (name, value); :class:`OptionError` naming ``where`` and the text otherwise."""
    name, eq, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not eq or name not in LIMITS:
        raise OptionError(f"{where} {text!r}: write NAME=VALUE with NAME one of {', '.join(LIMITS)}")
    v = value.strip()
    if not v.isdigit() or len(v) > 18 or int(v) < 1:
        raise OptionError(f"{where} {text!r}: the value must be a whole number from 1 to 10**18")
    _check_most(name, int(v), f"{where} {text!r}")
    return name, int(v)


def _check_most(name: str, value: int, where: str) -> None:
    most = LIMITS[name].most
    if most is not None and value > most:
        raise OptionError(f"{where}: {name} is at most {most} (the code that reads it goes one call deeper per level, "
                          "and Python's stack is bounded)")


def limit(name: str) -> int:
    """The value of limit ``name``: raised in this process, else from the environment, else the default."""
    if name in _raised:
        return _raised[name]
    return _env().get(name, LIMITS[name].default)


def set_limits(settings: dict[str, int]) -> None:
    """Raise (or lower) limits for the rest of this process (the command line's ``--limit``)."""
    for name in settings:
        if name not in LIMITS:
            raise OptionError(f"--limit {name!r}: unknown limit (known: {', '.join(LIMITS)})")
        _check_most(name, settings[name], f"--limit {name}={settings[name]}")
    _raised.update(settings)


def reset_limits() -> None:
    """Back to the environment's and the default values."""
    _raised.clear()


@contextmanager
def raised(**settings: int) -> Iterator[None]:
    """Limits raised (or lowered) inside the ``with`` block only."""
    before = dict(_raised)
    set_limits(settings)
    try:
        yield
    finally:
        _raised.clear()
        _raised.update(before)


def check(name: str, value: int, what: str, error: type[TapologyError] = LimitError) -> None:
    """``error`` (a :class:`LimitError` by default) saying ``what: VALUE is more than the limit`` when ``value``
    exceeds limit ``name``."""
    bound = limit(name)
    if value > bound:
        raise error(f"{what}: {value} is more than the limit {name}={bound} ({LIMITS[name].what}; "
                         f"raise it with --limit {name}=N)")


def nesting_depth(text: str, json_like: bool = False) -> int:
    """The deepest nesting of ``[``/``{`` in a TOML (or JSON) text, skipping strings and comments; linear."""
    depth = best = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "#" and not json_like:
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) and not json_like else ch
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if ch == '"' and text[j] == "\\":
                    j += 1
                elif len(quote) == 1 and text[j] == "\n" and not json_like:
                    break
                j += 1
            i = j + len(quote)
            continue
        i += 1
    return best


def check_nesting(text: str, what: str, json_like: bool = False) -> None:
    """:class:`LimitError` naming ``what`` when the text nests deeper than the ``nesting`` limit."""
    bound = limit("nesting")
    depth = nesting_depth(text, json_like)
    if depth > bound:
        raise LimitError(f"{what}: nested {depth} deep, more than the limit nesting={bound} "
                         f"({LIMITS['nesting'].what}; raise it with --limit nesting=N)")


def data_depth(obj: object) -> int:
    """The nesting depth of parsed TOML or JSON data (dicts and lists), without recursion."""
    if not isinstance(obj, (dict, list)):
        return 0
    best = 0
    stack: list[tuple[dict | list, int]] = [(obj, 0)]
    while stack:
        item, d = stack.pop()
        best = max(best, d + 1)  # only containers are pushed
        values: Iterable[object] = item.values() if isinstance(item, dict) else item
        stack.extend((v, d + 1) for v in values if isinstance(v, (dict, list)))
    return best


def check_data_depth(obj: object, what: str) -> None:
    """:class:`LimitError` naming ``what`` when parsed data nests deeper than the ``nesting`` limit."""
    bound = limit("nesting")
    depth = data_depth(obj)
    if depth > bound:
        raise LimitError(f"{what}: nested {depth} deep, more than the limit nesting={bound} "
                         f"({LIMITS['nesting'].what}; raise it with --limit nesting=N)")


def raised_limits() -> dict[str, int]:
    """The limits now above their defaults (by ``--limit``, the environment or :func:`raised`)."""
    try:
        return {name: limit(name) for name, lim in LIMITS.items() if limit(name) > lim.default}
    except TapologyError:  # a malformed environment: nothing to name
        return {}


RECURSIVE = ("nesting", "predicate_depth", "depth")  # the limits that bound how deep Python's stack goes


def exhausted(resource: str, deep: bool = False) -> str:
    """One line saying that ``resource`` ran out (memory, Python's stack) and which raised limits to lower to stay
    within it; ``deep``: only the limits on depth can be the cause."""
    up = {k: v for k, v in raised_limits().items() if not deep or k in RECURSIVE}
    if up:
        names = ", ".join(f"{k}={v}" for k, v in up.items())
        return (f"{resource} ran out: the raised limit{'s' if len(up) > 1 else ''} {names} let in more than this "
                f"machine holds; lower {'them' if len(up) > 1 else 'it'} (--limit NAME=N; defaults in docs/limits.md)")
    return f"{resource} ran out: this input asks for more than this machine holds; give a smaller one"
