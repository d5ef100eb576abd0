"""A compact drawing of a board for the terminal: one line per row of tiles, each tile as its id and a one-letter
state, hexagons offset by half a cell as on a Chinese checkers board.

The seed-style boxes (:mod:`tapology.render.ascii`) show each tile's orientation and sides, at 12 columns and
4 lines a tile; this drawing gives them up for size (6 columns, 1 line a tile), so that the 121-hole star fits
80 columns.  Only boards whose every tile is placed, unturned, are drawn this way.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from tapology.model.board import Board
from tapology.model.group import Cell

CELL = 6  # characters a tile takes


def compact_board(board: Board, positions: Sequence[tuple[Cell, int] | None], names: Mapping[int, str],
                  marked: Collection[int] = ()) -> str | None:
    """The board in one line per row: ``id`` and the state's first letter (``.`` for state 0), ``*`` after a tile in
    ``marked`` (the last turn's tiles); None when some tile is not placed or is turned.  Cost: O(tiles)."""
    if len(positions) != len(board.tiles) or any(p is None or p[1] != 0 for p in positions):
        return None
    hexes = board.grid.kind == "hex"
    where: dict[tuple[int, int], int] = {}
    for t, p in enumerate(positions):
        assert p is not None
        (x, y), _g = p
        # half-cell units across (a hex row is shifted by half a cell per row), rows from the top
        where[(-y, 2 * x + y if hexes else 2 * x)] = t
    if len(where) != len(positions):
        return None
    r0 = min(r for r, _ in where)
    c0 = min(c for _, c in where)
    width = max(len(i) for i in board.tiles)
    cell = max(CELL, width + 3)
    rows: dict[int, list[tuple[int, int]]] = {}
    for (r, c), t in where.items():
        rows.setdefault(r - r0, []).append((c - c0, t))
    lines = []
    for r in range(max(rows) + 1):
        line = ""
        for c, t in sorted(rows.get(r, [])):
            col = c * cell // 2
            s = board.states[t]
            ch = "." if s == 0 else (names.get(s) or str(s))[:1]
            text = f"{board.tiles[t]:>{width}}{ch}{'*' if t in marked else ''}"
            line = line.ljust(col) + text.ljust(cell)
        lines.append(line.rstrip())
    return "\n".join(lines)
