"""Stepping across a board: a position is (tile, frame), as in seed 004.

A piece with frame f on tile t reads its own vector v as the tile's vector f(v).  Stepping
by v goes to the chart cell c = f(v); if χ_t(c) = (u, o), the piece lands on u with frame
f → o⁻¹ (its frame composed with the orientation of the tile it lands on).  Steps use the
atlas, so a diagonal step is one chart cell (it needs that cell in the domain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapology.errors import WalkError
from tapology.model.group import Cell

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas


def step(atlas: Atlas, tile: int, frame: int, vector: Cell) -> tuple[int, int] | None:
    """(tile, frame) after one step by ``vector`` read in the frame, or None off the board."""
    grp = atlas.grid.group
    cell = grp.act(frame, vector)
    i = atlas.domain.index.get(cell)
    if i is None:
        raise WalkError(f"step {vector} in frame {frame} is chart cell {cell}, outside the chart domain "
                        f"{atlas.domain.name!r}")
    code = int(atlas.chart[tile, i])
    if code < 0:
        return None
    u, o = divmod(code, atlas.order)
    return u, grp.mul[frame][grp.inv[o]]


def ray(atlas: Atlas, tile: int, frame: int, vector: Cell, length: int) -> list[tuple[int, int]] | None:
    """The ``length`` positions starting at (tile, frame) and stepping by ``vector``; None if it leaves the board."""
    out = [(tile, frame)]
    for _ in range(length - 1):
        nxt = step(atlas, out[-1][0], out[-1][1], vector)
        if nxt is None:
            return None
        out.append(nxt)
    return out
