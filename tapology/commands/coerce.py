"""Command-line values of plain types (text, whole and decimal numbers, flags, lists of text) read without pydantic.

typer ≥ 0.20 coerces every option value through a pydantic ``TypeAdapter``: importing pydantic and building the
adapters costs about 0.1 s CPU, a fifth of a small command such as ``tapology moves``.  :func:`install` gives every
parameter whose annotation is ``str``, ``int``, ``float``, ``bool`` or ``list[str]`` (no parser, range, choice,
path or file) a coercion that reads the common spellings directly (``12``, ``-3``, ``0.25``, ``1e-3``, any text,
and the defaults) and hands every other value to typer's own coercion, built only then: the answers, and the error
messages of bad values, are typer's.  Cost: one pass over the parameters, well under a millisecond.  On a typer
without that machinery (older versions coerce through click) it does nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

INT = re.compile(r"[+-]?[0-9]{1,18}")
FLOAT = re.compile(r"[+-]?(?:[0-9]{1,15}\.?[0-9]{0,15}|\.[0-9]{1,15})(?:[eE][+-]?[0-9]{1,3})?")

try:  # typer ≥ 0.20: coercion through pydantic, built lazily per parameter
    from typer._click import Context
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer.core import _TyperParameter
except ImportError:  # pragma: no cover - an older typer coerces through click, without pydantic
    RuntimeParam = None  # type: ignore[assignment,misc]


def read_plain(annotation: Any, value: Any) -> tuple[bool, Any]:
    """``(True, value)`` read as ``annotation`` when it is a common spelling of a plain type, else ``(False, None)``
    (typer's coercion decides)."""
    if annotation is str:
        return (True, value) if type(value) is str else (False, None)
    if annotation is bool:
        return (True, value) if type(value) is bool else (False, None)
    if annotation is int:
        if type(value) is int:  # a default
            return True, value
        return (True, int(value)) if type(value) is str and INT.fullmatch(value) else (False, None)
    if annotation is float:
        if type(value) is float or type(value) is int:  # a default
            return True, float(value)
        return (True, float(value)) if type(value) is str and FLOAT.fullmatch(value) else (False, None)
    if annotation == list[str]:
        if isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
            return True, list(value)
    return False, None


def plain(param: Any) -> bool:
    """Whether a typer parameter's values can be read by :func:`read_plain` (a plain type, nothing else asked)."""
    d = param.type_descriptor
    info = d.parameter_info
    if d.annotation not in (str, int, float, bool) and d.annotation != list[str]:
        return False
    return info.parser is None and not d.is_file and not d.is_path and not d.is_choice and not d.is_ranged


if RuntimeParam is not None:
    @dataclass(frozen=True)
    class PlainParam(RuntimeParam):
        """A parameter's coercion: :func:`read_plain`, else typer's own."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            ok, got = read_plain(self.annotation, value)
            if ok:
                return got
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)


def install(command: Any, parent: Any = None) -> int:
    """Give every plain parameter of a click command (and of its subcommands, ``--help`` included) the coercion of
    :func:`read_plain`; returns how many."""
    if RuntimeParam is None:  # pragma: no cover - older typer
        return 0
    done = 0
    ctx = Context(command, parent=parent, **(command.context_settings or {}))
    help_option = command.get_help_option(ctx)  # made once and kept by the command
    for p in [*command.params, *([help_option] if help_option is not None else [])]:
        if isinstance(p, _TyperParameter) and getattr(p, "_runtime_param", None) is None and plain(p):
            d = p.type_descriptor
            p._runtime_param = PlainParam(parameter_info=d.parameter_info, annotation=d.annotation)
            done += 1
    for sub in getattr(command, "commands", {}).values():
        done += install(sub, ctx)
    return done
