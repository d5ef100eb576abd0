"""The shipped rule sets, loadable by name: ``tictactoe`` (also ``tictactoe:M,N,K``), ``checkers``,
``chinese-checkers`` and ``tictactopology``.  Their files live in ``tapology/games/data/``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from tapology.rules.engine import RuleGame
from tapology.rules.model import RuleError, RuleSet
from tapology.rules.parse import load_rules

DATA = Path(__file__).resolve().parent / "data"
BUILTIN = ("tictactoe", "checkers", "chinese-checkers", "tictactopology", "chess")
_TTT = re.compile(r"^tictactoe:(\d+),(\d+),(\d+)$")


def builtin_path(name: str) -> Path | None:
    """The data file of a built-in rule set, or None."""
    return DATA / f"{name}.toml" if name in BUILTIN else None


def load_game_rules(spec: str) -> RuleSet:
    """A rule set by built-in name (``tictactoe:M,N,K`` sets the board plane:MxN and K in a row) or file path."""
    text = spec.strip()
    m = _TTT.match(text)
    if m:
        rows, cols, k = (int(v) for v in m.groups())
        if min(rows, cols) < 1 or k < 2:
            raise RuleError(f"game {spec!r}: M and N must be at least 1 and K at least 2")
        base = load_rules(DATA / "tictactoe.toml")
        ends = tuple(dataclasses.replace(e, k=k) if e.kind == "line" else e for e in base.ends)
        board = f"plane:{rows}x{cols}"
        return dataclasses.replace(base, name=text, board=board, boards=(board,), ends=ends)
    path = builtin_path(text)
    if path is not None:
        return load_rules(path)
    if not Path(text).exists():
        raise RuleError(f"{spec}: no such rule file or built-in game (built-in: {', '.join(BUILTIN)}, tictactoe:M,N,K)")
    return load_rules(text)


def open_game(spec: str, board: str | None = None) -> RuleGame:
    """The game ``spec`` on ``board`` (default: the rule set's own board)."""
    return RuleGame(load_game_rules(spec), board)
