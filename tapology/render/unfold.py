"""The unfolded view: the board developed into the plane around a walker (the universal cover it sees).

Screen cells are read in the walker's frame: the walker stands on the screen origin and
its ``up`` is the screen's up.  Each screen cell holds a position (tile, frame), frame
mapping screen vectors to the tile's own vectors; the tile is drawn turned by the
inverse of that frame.  The development is a breadth-first walk of the atlas (its charts,
so it works for any board file and for portals taped during play), out to ``radius`` —
a (2R+1)² box on squares, the hex ball of radius R on hexes — and only inside that window.
It stops at the board's edge: a cell no step reaches is left out.  On a torus the board
repeats; on a Klein bottle alternate copies are mirrored.

Where two paths inside the window reach a screen cell at different positions (a cone
point, or a map that is not flat there) the first in breadth-first order is drawn and the
cell is listed in ``branched``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from tapology.errors import ViewError
from tapology.model.board import Board
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.model.walker import Walker
from tapology.render import MAX_RADIUS
from tapology.render.ascii import Entry, box_width, draw_grid

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas




def window(grid: ReferenceGrid, radius: int) -> list[Cell]:
    """The screen cells of a view of ``radius``: a box on squares, the step ball otherwise, origin first."""
    if grid.directions == ((0, 1), (1, 0), (0, -1), (-1, 0)):
        cells: list[Cell] = [(x, y) for y in range(radius, -radius - 1, -1) for x in range(-radius, radius + 1)]
    else:
        cells = grid.ball(radius)
    cells.remove(grid.origin)
    return [grid.origin, *cells]


@dataclass(frozen=True)
class View:
    """A developed picture: screen cell -> (tile, frame) inside a window, plus the board's edges there.

    ``cells``, ``tiles`` and ``frames`` are parallel (breadth-first order, the walker's
    cell first); ``edges`` lists (screen cell, direction) sides where the board ends.
    """

    grid: ReferenceGrid
    centre: Walker
    radius: int
    cells: tuple[Cell, ...]
    tiles: tuple[int, ...]
    frames: tuple[int, ...]
    edges: tuple[tuple[Cell, int], ...] = ()
    branched: tuple[Cell, ...] = ()

    @cached_property
    def lookup(self) -> dict[Cell, tuple[int, int]]:
        """Screen cell -> (tile, frame)."""
        return {c: (t, f) for c, t, f in zip(self.cells, self.tiles, self.frames, strict=True)}

    def orientation(self, frame: int) -> int:
        """How a tile is drawn on screen when a walker there has ``frame``: the frame's inverse."""
        return self.grid.group.inv[frame]

    def drawn(self, cell: Cell) -> tuple[int, int] | None:
        """(tile, orientation as drawn) at a screen cell, or None where nothing is drawn."""
        v = self.lookup.get(cell)
        return None if v is None else (v[0], self.grid.group.inv[v[1]])

    def to_json(self, board: Board) -> dict[str, object]:
        """The view as JSON: every drawn cell with tile id, drawn orientation and state."""
        inv = self.grid.group.inv
        return {
            "tile": board.tiles[self.centre.tile],
            "frame": self.centre.frame,
            "radius": self.radius,
            "cells": [{"cell": list(c), "tile": board.tiles[t], "orientation": inv[f], "state": board.states[t]}
                      for c, t, f in zip(self.cells, self.tiles, self.frames, strict=True)],
            "edges": [{"cell": list(c), "side": self.grid.direction_names[d]} for c, d in self.edges],
            "branched": [list(c) for c in self.branched],
        }


def unfold(atlas: Atlas, walker: Walker, radius: int) -> View:
    """Develop the board around ``walker`` out to ``radius`` by walking the atlas.  Cost O(|window|·|S|)."""
    if not isinstance(radius, int) or not 0 <= radius <= MAX_RADIUS:
        raise ViewError(f"radius {radius!r}: must be a whole number 0..{MAX_RADIUS}")
    grid: ReferenceGrid = atlas.grid
    grp = grid.group
    mul, inv = grp.mul, grp.inv
    h = atlas.order
    dom = atlas.domain
    dirs = grid.directions
    add = grid.add
    # chart cell index of frame f applied to direction d
    step_cell = [[dom.act[f][dom.unit_cells[d]] for d in range(len(dirs))] for f in range(h)]
    inside = set(window(grid, radius))
    item = atlas.chart.item

    pos: dict[Cell, tuple[int, int]] = {grid.origin: (walker.tile, walker.frame)}
    order = [grid.origin]
    edges: list[tuple[Cell, int]] = []
    branched: set[Cell] = set()
    queue = deque(order)
    while queue:
        p = queue.popleft()
        t, f = pos[p]
        sc = step_cell[f]
        for d, dv in enumerate(dirs):
            code = item(t, sc[d])
            if code < 0:
                edges.append((p, d))
                continue
            q = add(p, dv)
            if q not in inside:
                continue
            u, o = divmod(code, h)
            nxt = (u, mul[f][inv[o]])
            have = pos.get(q)
            if have is None:
                pos[q] = nxt
                order.append(q)
                queue.append(q)
            elif have != nxt:
                branched.add(q)
    return View(grid, walker, radius, tuple(order), tuple(pos[c][0] for c in order), tuple(pos[c][1] for c in order),
                tuple(edges), tuple(sorted(branched, key=grid.order_key)))


def state_label(state: int, names: Mapping[int, str] | None) -> str:
    """A tile state as drawn: its name if given, else ``(n)``; state 0 unnamed is blank."""
    if names and state in names:
        return names[state]
    return f"({state})" if state else ""


def placed_boxes(board: Board, grid: ReferenceGrid, placed: Iterable[tuple[Cell, int, int]],
                 state_names: Mapping[int, str] | None) -> tuple[dict[tuple[int, int], Entry | None], dict[tuple[int, int], str]]:
    """Boxes for tiles drawn at plane cells, from (cell, tile, orientation drawn): (row, column) -> (tile id,
    orientation), and the state labels under them."""
    entries: dict[tuple[int, int], Entry | None] = {}
    states: dict[tuple[int, int], str] = {}
    for c, t, g in placed:
        rc = grid.layout_row_col(c)
        entries[rc] = (board.tiles[t], g)
        s = state_label(board.states[t], state_names)
        if s:
            states[rc] = s
    return entries, states


def draw_view(view: View, board: Board, state_names: Mapping[int, str] | None = None, header: bool = True) -> str:
    """The view in the seed's box style: tile ids with orientation arrows, states underneath,
    the walker's tile marked with ``*`` (as a chart's centre).  Cost O(|window|·cell size)."""
    grid = view.grid
    square = not grid.is_hex
    inv = grid.group.inv
    entries, states = placed_boxes(board, grid, zip(view.cells, view.tiles, (inv[f] for f in view.frames), strict=True),
                                   state_names)
    width = box_width(entries, square, states, 7)
    pic = draw_grid(entries, centre=grid.layout_row_col(grid.origin), square=square, width=width, states=states)
    if not header:
        return pic
    w = view.centre
    mirrored = " (mirrored)" if grid.group.is_reflection(w.frame) else ""
    head = f"view from tile {board.tiles[w.tile]}, frame {w.frame}{mirrored}, radius {view.radius}"
    if view.branched:
        head += f"; {len(view.branched)} cell(s) reached two ways (first drawn)"
    return head + "\n" + pic
