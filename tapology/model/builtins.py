"""Built-in boards: ``plane:MxN``, ``strip:N``, ``cylinder:MxN``, ``mobius:MxN``, ``torus:MxN``,
``klein:MxN``, and on hexes ``hex-plane:MxN``, ``hex-cylinder:MxN``, ``hex-mobius:MxN``,
``hex-torus:MxN``, ``hex-rhombus:MxN``.

``hex-rhombus:MxN`` is the board of the game of Hex: M rows of N hexes, each row half a cell to
the left of the row above (a parallelogram whose sides run east and north-east), not glued.

M rows of N tiles labelled 1, 2, … row by row from the top left, all in standard
orientation.  A cylinder tapes each row's right end to its left end; a Möbius strip does
so with a flip (row r meets row M+1−r); a torus also tapes the top row to the bottom row
plainly; a Klein bottle is a Möbius strip plus that top-to-bottom taping.

Hex boards are drawn in offset rows (odd rows half a cell to the right, as in a board
file's layout); a hex torus needs an even number of rows, a hex Möbius strip an odd one.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from tapology.errors import BuiltinError
from tapology.limits import LIMITS, check, limit
from tapology.model.board import Board
from tapology.model.domain import ChartDomain, domain_from_spec
from tapology.model.grid import HEX, SQUARE, ReferenceGrid
from tapology.model.group import Cell

KINDS = ("plane", "strip", "cylinder", "mobius", "torus", "klein")
HEX_KINDS = ("hex-plane", "hex-strip", "hex-cylinder", "hex-mobius", "hex-torus", "hex-rhombus")
_NAME = re.compile(r"^([a-z\-]+):(\d+)(?:x(\d+))?$")
PLACED_TILES = 100_000  # larger built-ins carry no drawing placement (pictures develop them instead)


def is_builtin(name: str) -> bool:
    """True when ``name`` looks like a built-in board (``kind:MxN``) rather than a path."""
    m = _NAME.match(name)
    return m is not None and m.group(1) in KINDS + HEX_KINDS


def parse_builtin(name: str) -> tuple[str, int, int]:
    """(kind, rows, columns) of a built-in name; :class:`BuiltinError` naming it otherwise."""
    m = _NAME.match(name.strip())
    if not m or m.group(1) not in KINDS + HEX_KINDS:
        raise BuiltinError(
            f"unknown built-in board {name!r} (use {', '.join(k + ':MxN' for k in KINDS if k != 'strip')}, "
            f"strip:N, or hex-plane/hex-cylinder/hex-mobius/hex-torus:MxN)"
        )
    kind = m.group(1)
    digits = max(len(m.group(2)), len(m.group(3) or ""))
    if digits > limit("size_digits"):
        raise BuiltinError(f"built-in board {name[:40]!r}{'…' if len(name) > 40 else ''}: a size of {digits} digits is "
                           f"more than the limit size_digits={limit('size_digits')} ({LIMITS['size_digits'].what})")
    if kind.endswith("strip"):
        if m.group(3) is not None:
            raise BuiltinError(f"built-in board {name!r}: a strip takes one size, e.g. strip:7")
        rows, cols = 1, int(m.group(2))
    else:
        if m.group(3) is None:
            raise BuiltinError(f"built-in board {name!r}: give rows x columns, e.g. {kind}:3x3")
        rows, cols = int(m.group(2)), int(m.group(3))
    if rows < 1 or cols < 1:
        raise BuiltinError(f"built-in board {name!r}: sizes must be at least 1")
    if rows * cols > limit("tiles"):
        raise BuiltinError(f"built-in board {name!r}: {rows * cols} tiles is more than the limit tiles={limit('tiles')} "
                           "(raise it with --limit tiles=N)")
    return kind, rows, cols


def builtin_board(name: str, domain: ChartDomain | str | None = None) -> Board:
    """The built-in board ``name`` (see the module docstring).  Cost O(M·N)."""
    kind, rows, cols = parse_builtin(name)
    grid = HEX if kind in HEX_KINDS else SQUARE
    base = kind.removeprefix("hex-")
    dom = domain if isinstance(domain, ChartDomain) else domain_from_spec(grid, domain)
    check("chart_entries", rows * cols * len(dom.cells),  # before building anything of that size
          f"built-in board {name!r} with a chart domain of {len(dom.cells)} cells: chart entries", BuiltinError)
    if grid.is_hex and base == "torus" and rows % 2:
        raise BuiltinError(f"built-in board {name!r}: a hex torus needs an even number of rows")
    if grid.is_hex and base == "mobius" and rows % 2 == 0:
        raise BuiltinError(f"built-in board {name!r}: a hex Möbius strip needs an odd number of rows")
    if base == "rhombus":
        return _rhombus(grid, dom, rows, cols)
    wrap_rows = base in ("cylinder", "mobius", "torus", "klein")
    flip_rows = base in ("mobius", "klein")
    wrap_cols = base in ("torus", "klein")
    return _glued(grid, dom, rows, cols, wrap_rows, flip_rows, wrap_cols)


def _rhombus(grid: ReferenceGrid, dom: ChartDomain, rows: int, cols: int) -> Board:
    """M rows of N hexes, row k (from the top) at axial r = −k, its tiles at q = 0 … N−1: a parallelogram.  O(M·N)."""
    h = grid.group.order
    n = rows * cols
    glue = []
    for t in range(n):
        k, j = divmod(t, cols)
        row = []
        for dq, dr in grid.directions:
            q, r = j + dq, -k + dr
            row.append((-r * cols + q) * h if 0 <= q < cols and 0 <= -r < rows else -1)
        glue.append(tuple(row))
    placement = None
    if n <= PLACED_TILES:
        placement = tuple(((t % cols, -(t // cols)), 0) for t in range(n))
    return Board(grid, dom, tuple(map(str, range(1, n + 1))), (0,) * n, tuple(glue), placement=placement)


Affine = tuple[int, Cell]  # x -> L_g(x) + shift


def _compose(grid: ReferenceGrid, a: Affine, b: Affine) -> Affine:
    """b after a."""
    g1, s1 = a
    g2, s2 = b
    t = grid.group.act(g2, s1)
    return (grid.group.mul[g1][g2], (t[0] + s2[0], t[1] + s2[1]))


def _inverse(grid: ReferenceGrid, a: Affine) -> Affine:
    g, s = a
    gi = grid.group.inv[g]
    t = grid.group.act(gi, s)
    return (gi, (-t[0], -t[1]))


def _glued(grid: ReferenceGrid, dom: ChartDomain, rows: int, cols: int, wrap_rows: bool, flip_rows: bool,
           wrap_cols: bool) -> Board:
    """Glue an M×N block of the plane by the deck transformations of the surface asked for.

    A neighbour cell P off the block is found as Φ(Q) for a tile Q on the block and a
    deck transformation Φ (a generator, its inverse, or a product of two); the neighbour is
    Q's tile seen with Φ's linear part as orientation.  Vectorised over tiles: O(M·N·|S|).
    """
    h = grid.group.order
    pos = grid.layout_cell
    width = pos(0, cols)[0] - pos(0, 0)[0]
    gens: list[Affine] = []
    if wrap_rows and not flip_rows:
        gens.append((0, (width, 0)))
    if flip_rows:
        # the reflection fixing the row direction, about the middle row, then one period along
        east = grid.directions[grid.side("right")]
        f = next(g for g in sorted(grid.group.reflections) if grid.group.act(g, east) == east)
        mid = pos(0, 0)[1] + pos(rows - 1, 0)[1]  # twice the middle row's y (or r)
        line: Cell = (-mid // 2, mid) if grid.is_hex else (0, mid)
        gens.append((f, (line[0] + width, line[1])))
    if wrap_cols:
        gens.append((0, (pos(rows, 0)[0] - pos(0, 0)[0], pos(rows, 0)[1] - pos(0, 0)[1])))
    maps: list[Affine] = []
    for gen in gens:
        maps += [gen, _inverse(grid, gen)]
    maps += [_compose(grid, a, b) for a in list(maps) for b in list(maps)]
    n = rows * cols
    rr, cc = np.divmod(np.arange(n, dtype=np.int64), cols)
    arrays: Any = grid  # the grid's conversions, typed for one cell, work on whole arrays too
    xs, ys = arrays.layout_cell(rr, cc)

    def tile_at(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        r, c = arrays.layout_row_col((x, y))
        inside = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
        return np.where(inside, r * cols + c, -1)

    def matrix(g: int) -> tuple[int, int, int, int]:
        (a, c), (b, d) = grid.group.act(g, (1, 0)), grid.group.act(g, (0, 1))
        return a, b, c, d

    back = [(_inverse(grid, m), m[0]) for m in maps]
    glue = np.full((n, len(grid.directions)), -1, dtype=np.int64)
    for d, (dx, dy) in enumerate(grid.directions):
        tx, ty = xs + dx, ys + dy
        u = tile_at(tx, ty)
        code = np.where(u >= 0, u * h, -1)
        for (gi, (sx, sy)), g in back:
            todo = code < 0
            if not todo.any():
                break
            a, b, c, e = matrix(gi)
            q = tile_at(a * tx + b * ty + sx, c * tx + e * ty + sy)
            hit = todo & (q >= 0)
            code[hit] = q[hit] * h + g
        glue[:, d] = code
    placement = None
    if n <= PLACED_TILES:
        placement = tuple(((int(x), int(y)), 0) for x, y in zip(xs.tolist(), ys.tolist(), strict=True))
    return Board(grid, dom, tuple(map(str, range(1, n + 1))), (0,) * n, tuple(map(tuple, glue.tolist())),
                 placement=placement)
