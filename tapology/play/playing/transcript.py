"""Positions and turns as JSON, one per line: the transcript format of ``referee`` and game records.

A line is a **turn** — a JSON string (the turn's label, e.g. ``"5"``) or ``{"turn": "5"}`` —
or a **position**, in one of these forms:

* ``{"states": [0, 1, 2, …], "to_move": "X", "ply": 3}`` — tile states in tile order
  (``to_move`` a player name or index; ``ply`` optional); ``"glue"`` (the gluing table as
  lists) and ``"extra"`` may follow when the board's shape or the game's extra state differ
  from the start;
* ``{"cells": "X.O/.X./..O"}`` — one character per tile in tile order (``.`` or ``0`` empty,
  ``X``/``1``, ``O``/``2``, other digits for other states); ``/`` and spaces are ignored;
* ``{"crosses": 0b100000000, "noughts": 16}`` — seed 002's bitmasks for a k-in-a-row game:
  tile i (0-based in tile order) is bit 2**(n−1−i).

Without ``to_move``, whose turn it is follows from the marks (k-in-a-row) or alternates
from the previous line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tapology.errors import TranscriptError
from tapology.files import parse_json
from tapology.game import ClaimGame, Game, Position
from tapology.games.kinrow import popcount
from tapology.model.atlas import Atlas
from tapology.model.board import Board, Fact

CELL_CHARS = {".": 0, "X": 1, "x": 1, "O": 2, "o": 2}



@dataclass(frozen=True)
class Entry:
    """One transcript line: a turn label, or a position (``to_move`` None when the line did not say)."""

    line: int
    turn: str | None = None
    position: Position | None = None
    to_move_given: bool = True


def state_names(game: Game) -> dict[int, str]:
    """Names of the tile states for pictures and messages (the game's own when it has them)."""
    known = game_states(game)
    if known is not None:
        return known
    names = getattr(game, "state_names", None)
    if isinstance(names, dict) and names:
        return {int(k): str(v) for k, v in names.items()}
    if isinstance(names, (list, tuple)) and names:
        return dict(enumerate(str(v) for v in names))
    return {0: "empty", 1: "X", 2: "O"}


def game_states(game: Game) -> dict[int, str] | None:
    """The tile states a game knows (value -> name), or None when it does not declare them."""
    rules = getattr(game, "rules", None)
    states = getattr(rules, "states", None)
    if states:
        return {int(sd.value): str(sd.symbol or sd.name) for sd in states}
    if isinstance(game, ClaimGame):
        return {0: "empty", 1: "X", 2: "O"}
    return None


def _check_glued(board: Board, where: str) -> None:
    """:class:`TranscriptError` naming ``where`` unless a position's own gluing (and extra facts) make a consistent board."""

    n, order = len(board.tiles), board.grid.group.order
    for k, f in enumerate(board.extra, start=1):
        if not (0 <= f.tile < n and 0 <= f.other < n):
            raise TranscriptError(f"{where}: 'extra_facts' entry {k}: tile out of range 0..{n - 1}")
        if not 0 <= f.orientation < order:
            raise TranscriptError(f"{where}: 'extra_facts' entry {k}: orientation {f.orientation} out of range 0..{order - 1}")
        if f.cell not in board.domain.index:
            raise TranscriptError(f"{where}: 'extra_facts' entry {k}: cell {f.cell} is outside the chart domain")
    at = Atlas.of(board)
    if at.conflict is not None:
        raise TranscriptError(f"{where}: the position's board is inconsistent: {at.conflict.describe(board).splitlines()[0]}")


def _extra_state(start: Position, raw: Any, board: Board, where: str) -> tuple:
    """A position's ``extra`` from JSON, checked against the shape of the start position's: none when the game
    keeps none, one frame (an orientation of the grid) per tile when its pieces carry frames."""
    if raw is None or raw == []:
        return ()
    base = start.extra
    if base == ():
        raise TranscriptError(f"{where}: 'extra' {json.dumps(raw)[:40]}: the game keeps no extra state")
    n = len(board.tiles)
    if len(base) == n and all(isinstance(f, int) for f in base):
        order = board.grid.group.order
        if not isinstance(raw, list) or len(raw) != n:
            raise TranscriptError(f"{where}: 'extra' must be a list of {n} frames (one per tile)")
        for t, f in enumerate(raw):
            if not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < order:
                raise TranscriptError(f"{where}: 'extra' entry {t + 1} (tile {board.tiles[t]!r}): frame {f!r} is not "
                                      f"an orientation 0..{order - 1}")
        return tuple(raw)
    return _tuplify(raw)


def _tuplify(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


def _listify(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_listify(x) for x in v]
    return v


def position_json(game: Game, pos: Position, start: Board | None = None) -> dict[str, Any]:
    """A position as a transcript line (``glue``/``extra`` only when they differ from the start)."""
    out: dict[str, Any] = {"states": list(pos.states), "to_move": game.players[pos.to_move], "ply": pos.ply}
    base = start if start is not None else game.initial().board
    if pos.board.glue != base.glue or pos.board.extra != base.extra:
        out["glue"] = [list(r) for r in pos.board.glue]
        if pos.board.extra:
            out["extra_facts"] = [[f.tile, list(f.cell), f.other, f.orientation] for f in pos.board.extra]
    if pos.extra:
        out["extra"] = _listify(pos.extra)
    return out


def _player(game: Game, v: Any, where: str) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(game.players):
        return v
    if isinstance(v, str) and v in game.players:
        return game.players.index(v)
    raise TranscriptError(f"{where}: to_move {v!r} is not a player ({', '.join(game.players)})")


def _position_states(obj: dict[str, Any], n: int, by_name: dict[str, int], where: str) -> tuple[int, ...]:
    """The tile states a position object gives: ``states``, ``cells`` or ``crosses``/``noughts``."""
    if "states" in obj:
        st = obj["states"]
        if not isinstance(st, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in st):
            raise TranscriptError(f"{where}: 'states' must be a list of integers")
        return tuple(st)
    if "cells" in obj:
        txt = obj["cells"]
        if not isinstance(txt, str):
            raise TranscriptError(f"{where}: 'cells' must be a string")
        vals = []
        for c in (c for c in txt if c not in "/ |\n"):
            if c in CELL_CHARS:
                vals.append(CELL_CHARS[c])
            elif c.isdigit():
                vals.append(int(c))
            elif c in by_name:
                vals.append(by_name[c])
            else:
                raise TranscriptError(f"{where}: cell character {c!r} is not '.', X, O or a state digit")
        return tuple(vals)
    if "crosses" in obj or "noughts" in obj:
        cr, no = obj.get("crosses", 0), obj.get("noughts", 0)
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (cr, no)):
            raise TranscriptError(f"{where}: 'crosses' and 'noughts' must be non-negative integers")
        if (cr | no) >> n:
            raise TranscriptError(f"{where}: a mark beyond the {n} tiles (crosses {cr}, noughts {no})")
        if cr & no:
            # keep both marks visible to the referee: a tile cannot hold both
            raise TranscriptError(f"{where}: crosses and noughts share a tile (mask {cr & no})")
        return tuple(1 if cr >> (n - 1 - i) & 1 else 2 if no >> (n - 1 - i) & 1 else 0 for i in range(n))
    raise TranscriptError(f"{where}: a position needs 'states', 'cells' or 'crosses'/'noughts'")


def parse_position(game: Game, obj: dict[str, Any], where: str, prev: Position | None) -> tuple[Position, bool]:
    """A position from a JSON object; (position, whether to_move was given)."""

    start = game.initial()
    n = len(start.states)
    names = state_names(game)
    states = _position_states(obj, n, {v: k for k, v in names.items()}, where)
    if len(states) != n:
        raise TranscriptError(f"{where}: {len(states)} tile states for a board of {n} tiles")
    known = game_states(game)
    if known is not None:
        for t, s in enumerate(states):
            if s not in known:
                raise TranscriptError(f"{where}: tile {start.board.tiles[t]!r} has state {s}, not a state of the game "
                                      f"({', '.join(f'{v} ({known[v]})' for v in sorted(known))})")
    board = start.board
    if "glue" in obj or "extra_facts" in obj:
        try:
            glue = tuple(tuple(int(c) for c in row) for row in obj["glue"]) if "glue" in obj else board.glue
        except (TypeError, ValueError) as exc:
            raise TranscriptError(f"{where}: bad 'glue': {exc}") from None
        try:
            extra = tuple(sorted(Fact(int(a), (int(c[0]), int(c[1])), int(u), int(o))
                                 for a, c, u, o in obj.get("extra_facts", [])))
        except (TypeError, ValueError, IndexError) as exc:
            raise TranscriptError(f"{where}: bad 'extra_facts' (a list of [tile, [x, y], other, orientation]): {exc}") from None
        try:
            board = Board(board.grid, board.domain, board.tiles, board.states, glue, extra, board.placement)
        except (TypeError, ValueError, IndexError) as exc:
            raise TranscriptError(f"{where}: bad 'glue': {exc}") from None
        _check_glued(board, where)
    board = board.with_states(states)
    given = "to_move" in obj
    if given:
        to_move = _player(game, obj["to_move"], where)
    elif isinstance(game, ClaimGame):
        to_move = 1 if popcount(sum(1 << i for i, s in enumerate(states) if s == 1)) > \
            popcount(sum(1 << i for i, s in enumerate(states) if s == 2)) else 0
    elif prev is not None:
        to_move = (prev.to_move + 1) % len(game.players)
    else:
        to_move = start.to_move
    if "ply" in obj:
        ply = obj["ply"]
        if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
            raise TranscriptError(f"{where}: 'ply' must be a non-negative integer")
    elif isinstance(game, ClaimGame):
        ply = sum(1 for s in states if s)
    else:
        ply = prev.ply + 1 if prev is not None else 0
    extra_state = _extra_state(start, obj.get("extra", []), board, where)
    return Position(board, to_move, extra_state, ply), given


def read_transcript(game: Game, text: str, where: str = "transcript") -> list[Entry]:
    """Parse JSON lines (blank lines and lines starting with # skipped)."""
    out: list[Entry] = []
    prev: Position | None = None
    for i, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        at = f"{where}:{i}"
        obj = parse_json(line, at, TranscriptError, line=False)
        if isinstance(obj, str):
            out.append(Entry(i, turn=obj))
            continue
        if isinstance(obj, int) and not isinstance(obj, bool):
            out.append(Entry(i, turn=str(obj)))
            continue
        if not isinstance(obj, dict):
            raise TranscriptError(f"{at}: a line must be a turn label or a position object")
        if "turn" in obj:
            turn = obj["turn"]
            if not isinstance(turn, (str, int)) or isinstance(turn, bool):
                raise TranscriptError(f"{at}: 'turn' must be a turn label (a string), got {json.dumps(turn)}")
            out.append(Entry(i, turn=str(turn)))
            continue
        pos, given = parse_position(game, obj, at, prev)
        prev = pos
        out.append(Entry(i, position=pos, to_move_given=given))
    return out


def write_transcript(game: Game, positions: Sequence[Position]) -> str:
    """Positions as JSON lines."""
    start = positions[0].board if positions else None
    return "".join(json.dumps(position_json(game, p, start)) + "\n" for p in positions)
