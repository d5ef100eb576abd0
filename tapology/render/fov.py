"""Field of view from a walker, on the unfolded view.

Sight follows straight lines in the walker's unfolded plane.  The line from the walker's
cell centre to a target cell's centre crosses a fixed sequence of cells (exact integer
arithmetic on squares; where it passes exactly through a corner it goes diagonally, so two
walls touching at a corner do not block it).  A target is **visible** when it is on the board
and every cell strictly between is on the board and not opaque; an opaque cell itself can be
seen.  The board's edge blocks sight like a wall.  On hexes the line is the usual rounded
cube-coordinate interpolation, nudged both ways off the hex corners; the target is visible
if either nudged line is clear.

:func:`field_of_view` develops the view along each line of sight by walking the atlas
(through gluings and portals), so a screen cell shows what the walker sees in that
direction even where the map is not flat (a house bigger inside than outside, where the
breadth-first view of :mod:`tapology.render.unfold` has two candidates for a cell).
:func:`visible_in_view` applies the same rule to an already developed :class:`View`; on a
flat map the two agree (the tests check it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from itertools import pairwise
from typing import TYPE_CHECKING

from tapology.errors import ViewError
from tapology.model.board import Board
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.model.walker import Walker
from tapology.render.unfold import MAX_RADIUS, View, window

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas

Opaque = Callable[[int], bool]


def opaque_states(board: Board, states: Collection[int]) -> Opaque:
    """The predicate "this tile's state is one of ``states``" (walls)."""
    st = board.states
    chosen = frozenset(states)
    return lambda t: st[t] in chosen


def _is_square(grid: ReferenceGrid) -> bool:
    return grid.directions == ((0, 1), (1, 0), (0, -1), (-1, 0))


def square_line(target: Cell) -> list[Cell]:
    """The steps (unit or diagonal vectors) of the line from the origin's centre to ``target``'s centre."""
    tx, ty = target
    ax, ay = abs(tx), abs(ty)
    sx = 1 if tx > 0 else -1
    sy = 1 if ty > 0 else -1
    i = j = 0
    out: list[Cell] = []
    while i < ax or j < ay:
        if j >= ay:
            cmp = -1
        elif i >= ax:
            cmp = 1
        else:
            # crossing x = i + ½ at t = (2i+1)/(2ax), y = j + ½ at t = (2j+1)/(2ay)
            cmp = (2 * i + 1) * ay - (2 * j + 1) * ax
        if cmp < 0:
            out.append((sx, 0))
            i += 1
        elif cmp > 0:
            out.append((0, sy))
            j += 1
        else:
            out.append((sx, sy))
            i += 1
            j += 1
    return out


def _cube_round(q: float, r: float) -> Cell:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def hex_lines(target: Cell) -> list[list[Cell]]:
    """The two nudged hex lines from the origin to ``target``, as lists of unit steps."""
    q, r = target
    n = max(abs(q), abs(r), abs(q + r))
    out: list[list[Cell]] = []
    for eps in (1e-6, -1e-6):
        cells: list[Cell] = [(0, 0)]
        for k in range(1, n + 1):
            f = k / n
            cells.append(_cube_round(q * f + eps, r * f + 2 * eps))
        out.append([(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(cells)])
    return out


def sight_lines(grid: ReferenceGrid, target: Cell) -> list[list[Cell]]:
    """The candidate lines of sight to ``target`` (one on squares, two on hexes), as step vectors."""
    if target == grid.origin:
        return [[]]
    if _is_square(grid):
        return [square_line(target)]
    if grid.is_hex:
        return hex_lines(target)
    raise ViewError(f"field of view: the {grid.name} grid has no straight lines defined (squares and hexes only)")


def _step(atlas: Atlas, w: Walker, v: Cell, clear: Callable[[Walker], bool]) -> Walker | None:
    """One step of a sight line; a diagonal step the domain lacks goes round by either side that is clear."""
    if v in atlas.domain.index:
        return w.step(atlas, v)
    for a, b in (((v[0], 0), (0, v[1])), ((0, v[1]), (v[0], 0))):
        mid = w.step(atlas, a)
        if mid is not None and clear(mid):
            nxt = mid.step(atlas, b)
            if nxt is not None:
                return nxt
    return None


def field_of_view(atlas: Atlas, walker: Walker, radius: int, opaque: Opaque) -> View:
    """What the walker sees out to ``radius``, developed along lines of sight.  Cost O(|window|·radius)."""
    if not isinstance(radius, int) or not 0 <= radius <= MAX_RADIUS:
        raise ViewError(f"radius {radius!r}: must be a whole number 0..{MAX_RADIUS}")
    grid = atlas.grid

    def clear(w: Walker) -> bool:
        return not opaque(w.tile)

    cells: list[Cell] = []
    pos: list[Walker] = []
    for target in window(grid, radius):
        for line in sight_lines(grid, target):
            w: Walker | None = walker
            for k, v in enumerate(line):
                assert w is not None
                if k and not clear(w):
                    w = None
                    break
                w = _step(atlas, w, v, clear)
                if w is None:
                    break
            if w is not None:
                cells.append(target)
                pos.append(w)
                break
    edges = []
    dom = atlas.domain
    for c, w in zip(cells, pos, strict=True):
        row = atlas.chart[w.tile]
        for d in range(len(grid.directions)):
            if int(row[dom.act[w.frame][dom.unit_cells[d]]]) < 0:
                edges.append((c, d))
    return View(grid, walker, radius, tuple(cells), tuple(w.tile for w in pos), tuple(w.frame for w in pos), tuple(edges))


def visible_in_view(view: View, opaque: Opaque) -> set[Cell]:
    """The cells of an already developed view that the walker at its centre sees (same rule as above)."""
    grid = view.grid
    look = view.lookup
    out: set[Cell] = set()
    for target in look:
        for line in sight_lines(grid, target):
            p = grid.origin
            ok = True
            for k, v in enumerate(line):
                if k and opaque(look[p][0]):
                    ok = False
                    break
                q = grid.add(p, v)
                if q not in look:
                    ok = False
                    break
                p = q
            if ok:
                out.add(target)
                break
    return out


def draw_glyphs(view: View, board: Board, glyphs: Mapping[int, str], walker: str = "@", wall: str = "#",
                unseen: str = " ") -> str:
    """A roguelike picture: one character per screen cell (by tile state), ``@`` for the walker, ``#``
    where a seen cell's side is the board's edge, blank where nothing is seen."""
    grid = view.grid
    chars: dict[Cell, str] = {}
    for c, d in view.edges:
        chars[grid.add(c, grid.directions[d])] = wall
    for c, t in zip(view.cells, view.tiles, strict=True):
        chars[c] = glyphs.get(board.states[t], "?")
    chars[grid.origin] = walker
    return _glyph_rows(grid, chars, window(grid, view.radius), unseen)


def _glyph_rows(grid: ReferenceGrid, chars: Mapping[Cell, str], cells: Iterable[Cell], unseen: str) -> str:
    placed = {grid.layout_row_col(c): ch for c, ch in chars.items()}
    rcs = [grid.layout_row_col(c) for c in cells] + list(placed)
    r0, r1 = min(r for r, _ in rcs), max(r for r, _ in rcs)
    c0, c1 = min(c for _, c in rcs), max(c for _, c in rcs)
    lines = []
    for r in range(r0, r1 + 1):
        if grid.is_hex:
            line = (" " if r % 2 else "") + " ".join(placed.get((r, c), unseen) for c in range(c0, c1 + 1))
        else:
            line = "".join(placed.get((r, c), unseen) for c in range(c0, c1 + 1))
        lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
