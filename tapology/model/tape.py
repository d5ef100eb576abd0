"""The TAPE syntax: ``T.SIDE=U.SIDE`` (trailing ``~`` for a flipped taping) or ``T@x,y=U/o``."""

from __future__ import annotations

import re

from tapology.errors import BoardError, TapeSyntaxError
from tapology.model.board import Board, Fact, Taping
from tapology.model.grid import ReferenceGrid

_SIDE = re.compile(r"^\s*([A-Za-z0-9_\-]+)\.([A-Za-z\-]+)\s*=\s*([A-Za-z0-9_\-]+)\.([A-Za-z\-]+)\s*(~?)\s*$")
_CELL = re.compile(r"^\s*([A-Za-z0-9_\-]+)@(-?\d+(?:\s*,\s*-?\d+)*)\s*=\s*([A-Za-z0-9_\-]+)/(\d+)\s*$")


def side_orientation(grid: ReferenceGrid, d: int, e: int, flip: bool) -> int:
    """The orientation o with o(e) = −d: the rotation (flip False) or the reflection (flip True)."""
    grp = grid.group
    target = grid.opposite[d]
    cands = [o for o in range(grp.order) if grid.dir_perm[o][e] == target and grp.is_reflection(o) == flip]
    if len(cands) != 1:
        kind = "reflection" if flip else "rotation"
        raise BoardError(
            f"no single {kind} of the {grid.name} grid takes side {grid.direction_names[e]!r} "
            f"to face side {grid.direction_names[d]!r}"
        )
    return cands[0]


def side_fact(board: Board, t: int, d: int, u: int, e: int, flip: bool) -> Fact:
    """The fact for taping side d of tile t to side e of tile u."""
    return Fact(t, board.grid.directions[d], u, side_orientation(board.grid, d, e, flip))


def parse_tape(text: str, board: Board, where: str = "tape") -> Taping:
    """Parse one TAPE string against a board; errors name the string and ``where``."""
    grid = board.grid
    m = _SIDE.match(text)
    if m:
        t = board.tile(m.group(1), f"{where} {text!r}")
        u = board.tile(m.group(3), f"{where} {text!r}")
        try:
            d = grid.side(m.group(2))
            e = grid.side(m.group(4))
        except Exception as exc:
            raise TapeSyntaxError(f"{where} {text!r}: {exc}") from None
        try:
            fact = side_fact(board, t, d, u, e, bool(m.group(5)))
        except BoardError as exc:
            raise BoardError(f"{where} {text!r}: {exc}") from None
        return Taping(fact, format_fact(board, fact))
    m = _CELL.match(text)
    if m:
        t = board.tile(m.group(1), f"{where} {text!r}")
        u = board.tile(m.group(3), f"{where} {text!r}")
        if any(len(v.strip().lstrip("+-")) > 18 for v in (*m.group(2).split(","), m.group(4))):
            raise BoardError(f"{where} {text!r}: a number of more than 18 digits is outside the chart domain")
        cell = tuple(int(v) for v in m.group(2).split(","))
        o = int(m.group(4))
        if len(cell) != len(grid.origin):
            raise TapeSyntaxError(f"{where} {text!r}: cell needs {len(grid.origin)} coordinates")
        if o >= grid.group.order:
            raise BoardError(f"{where} {text!r}: orientation {o} out of range 0..{grid.group.order - 1}")
        if cell not in board.domain.index:
            raise BoardError(f"{where} {text!r}: cell {cell} is outside the chart domain")
        if cell == grid.origin:
            raise BoardError(f"{where} {text!r}: the origin of a chart always holds its own tile")
        fact = Fact(t, cell, u, o)
        return Taping(fact, format_fact(board, fact))
    raise TapeSyntaxError(
        f"{where} {text!r}: expected T.SIDE=U.SIDE (with ~ to flip) or T@x,y=U/o, e.g. 3.up=4.down or 1@1,1=5/0"
    )


def format_fact(board: Board, f: Fact) -> str:
    """A fact in TAPE syntax: side form where the cell is a unit direction, cell form otherwise."""
    grid = board.grid
    d = grid.direction_index.get(f.cell)
    t, u = board.tiles[f.tile], board.tiles[f.other]
    if d is not None and grid.group.signs:
        e = grid.dir_perm[grid.group.inv[f.orientation]][grid.opposite[d]]
        flip = grid.group.is_reflection(f.orientation)
        names = grid.direction_names
        return f"{t}.{names[d]}={u}.{names[e]}{'~' if flip else ''}"
    return f"{t}@{','.join(str(v) for v in f.cell)}={u}/{f.orientation}"


def board_tapings(board: Board) -> list[Taping]:
    """A board's facts as tapings, each glued side pair once, labelled in TAPE syntax."""
    out = []
    seen: set[tuple[int, int]] = set()
    h = board.order
    grid = board.grid
    for t, row in enumerate(board.glue):
        for d, code in enumerate(row):
            if code < 0 or (t, d) in seen:
                continue
            u, o = divmod(code, h)
            oi = grid.group.inv[o]
            e = grid.dir_perm[oi][grid.opposite[d]]
            seen.add((t, d))
            if board.glue[u][e] == t * h + oi:
                seen.add((u, e))  # the same gluing seen from the other side
            f = Fact(t, grid.directions[d], u, o)
            out.append(Taping(f, format_fact(board, f)))
    out.extend(Taping(f, format_fact(board, f)) for f in board.extra)
    return out
