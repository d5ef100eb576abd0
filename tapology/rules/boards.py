"""Boards for a rule set: built-in names, board files, and boards shipped beside a rule file, re-domained to the game."""

from __future__ import annotations

from pathlib import Path

from tapology.errors import PositionError, TapologyError
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.boardfile import load_board
from tapology.model.builtins import builtin_board, is_builtin
from tapology.rules.cache import charted
from tapology.rules.model import RuleSet


def board_path(spec: str, rules: RuleSet) -> Path | None:
    """The file a board name refers to beside the rule file (``boards/NAME.toml``), if there is one."""
    if rules.source.startswith("<"):
        return None
    cand = Path(rules.source).parent / "boards" / f"{spec}.toml"
    return cand if cand.exists() else None


def open_game_board(spec: str, rules: RuleSet) -> tuple[Board, Atlas, tuple[tuple[str, tuple[int, ...]], ...]]:
    """The board ``spec`` over the game's chart domain, closed, and the regions its file names;
    :class:`PositionError` if it is inconsistent there."""
    dom = rules.domain
    if dom.grid != rules.grid:
        raise PositionError(f"board {spec!r}: the game is played on the {rules.grid.name} grid")
    try:
        if is_builtin(spec):
            board: Board = builtin_board(spec, dom)
            tapings: tuple = ()
            regions: tuple = ()
        else:
            local = board_path(spec, rules)
            src = load_board(str(local) if local else spec, [list(c) for c in dom.cells])  # type: ignore[arg-type]
            board, tapings, regions = src.board, src.tapings, src.regions
    except TapologyError as exc:
        raise PositionError(f"board {spec!r}: {exc}") from None
    if board.grid != rules.grid:
        raise PositionError(f"board {spec!r} is on the {board.grid.name} grid; game {rules.name!r} needs {rules.grid.name}")
    at = charted(board)  # read from the disk cache where this board was closed before
    if at.conflict is None and tapings:
        c = at.tape(tapings)
        if c is not None:
            at.conflict = c
    if at.conflict is not None:
        raise PositionError(f"board {spec!r} is not consistent over the chart domain of game {rules.name!r}: "
                            + at.conflict.describe(board).split("\n")[0])
    return at.board(), at, regions
