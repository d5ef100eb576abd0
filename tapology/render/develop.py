"""Laying a board's tiles out in the plane by walking its gluing table (each tile placed once)."""

from __future__ import annotations

from collections import deque

from tapology.model.board import Board
from tapology.model.group import Cell


def develop_board(board: Board, start: int = 0) -> list[tuple[Cell, int] | None]:
    """A placement (cell, orientation) per tile, found breadth-first from ``start`` and from every
    tile not yet reached; a tile whose place is taken, or that would be placed twice, is placed
    once at the first place found.  Components are laid out left to right.  Cost O(n·|S|)."""
    grid = board.grid
    grp = grid.group
    h = board.order
    pos: list[tuple[Cell, int] | None] = [None] * len(board.tiles)
    taken: set[Cell] = set()
    offset = 0
    order = [start] + [t for t in range(len(board.tiles)) if t != start]
    for root in order:
        if pos[root] is not None:
            continue
        origin = (offset, 0)
        pos[root] = (origin, 0)
        taken.add(origin)
        queue = deque([root])
        max_x = offset
        while queue:
            t = queue.popleft()
            cell, a = pos[t]  # type: ignore[misc]
            for d, code in enumerate(board.glue[t]):
                if code < 0:
                    continue
                u, o = divmod(code, h)
                if pos[u] is not None:
                    continue
                nc = grid.add(cell, grp.act(a, grid.directions[d]))
                if nc in taken:
                    continue
                pos[u] = (nc, grp.mul[o][a])
                taken.add(nc)
                max_x = max(max_x, nc[0])
                queue.append(u)
        offset = max_x + 2
    return pos
