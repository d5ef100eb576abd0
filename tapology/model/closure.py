"""Whole-board closure over the gluing table with numpy: walk the charts, then verify the fixpoint.

Charts are developed from the gluing table by walking inside the domain (every parent
of a cell is tried, so holes are walked round).  The result is a set of derivable facts;
it is the closure exactly when it is closed under every transition map, which is then
checked pair by pair of domain cells.  Cost O(n·|D|²) vectorised array operations.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

import numpy as np

from tapology.model.board import Board
from tapology.model.domain import ChartDomain

CODE = np.int32  # chart codes tile * |H| + orientation; boards up to 2**31 / |H| tiles


class Walk(Enum):
    """Outcome of the vectorised closure."""

    CLOSED = "closed"  # the walked charts are the closure, no conflict
    CONFLICT = "conflict"  # two derivable facts disagree somewhere
    OPEN = "open"  # the walked charts are not yet closed (the worklist must finish)


@lru_cache(maxsize=32)
def _tables(domain: ChartDomain) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[tuple[int, int, np.ndarray], ...],
                                          tuple[tuple[int, tuple[tuple[int, int], ...]], ...]]:
    """Flattened group tables, the cell pairs worth checking (with their per-orientation target cell),
    and each walked cell's parents (one BFS layer closer to the origin)."""
    grid = domain.grid
    grp = grid.group
    mul_flat = np.array(grp.mul, dtype=CODE).reshape(-1)  # mul[r][o] at r * h + o
    inv = np.array(grp.inv, dtype=CODE)
    dperm_flat = np.array(grid.dir_perm, dtype=CODE).reshape(-1)  # dir_perm[g][d] at g * |S| + d
    trans = np.array(domain.trans, dtype=CODE)  # [ci, o, pj]
    pairs = []
    for ci in range(1, len(domain)):
        for pj in range(len(domain)):
            if pj != ci and (trans[ci, :, pj] >= 0).any():
                pairs.append((ci, pj, trans[ci, :, pj].copy()))
    depth = {0: 0}
    for q, p, _d in domain.walk:
        depth[q] = depth[p] + 1
    parents: dict[int, list[tuple[int, int]]] = {}
    for p in range(len(domain)):
        for d, q in enumerate(domain.step[p]):
            if q > 0 and p in depth and depth.get(q, -1) == depth[p] + 1:
                parents.setdefault(q, []).append((p, d))
    order = tuple((q, tuple(parents[q])) for q, _p, _d in domain.walk)
    return mul_flat, inv, dperm_flat, tuple(pairs), order


def glue_array(board: Board) -> np.ndarray:
    """The gluing table as an (n, |S|) array of codes."""
    return np.array(board.glue, dtype=CODE).reshape(len(board.tiles), len(board.grid.directions))


def walk_charts(board: Board) -> np.ndarray:
    """Charts developed from the gluing table: array (n, |D|) of codes, -1 where nothing is known."""
    dom = board.domain
    h = board.order
    n = len(board.tiles)
    ns = len(board.grid.directions)
    mul_flat, inv, dperm_flat, _, order = _tables(dom)
    glue_flat = glue_array(board).reshape(-1)
    chart = np.full((n, len(dom)), -1, dtype=CODE)
    chart[:, 0] = np.arange(n, dtype=CODE) * h
    for q, parents in order:
        col = chart[:, q].copy()
        for p, d in parents:
            src = chart[:, p]
            todo = (col < 0) & (src >= 0)
            if todo.all():
                rows = None
                code = src
            else:
                rows = np.flatnonzero(todo)
                if rows.size == 0:
                    continue
                code = src[rows]
            u, o = np.divmod(code, h)
            e = dperm_flat[inv[o] * ns + d]
            g = glue_flat[u * ns + e]
            v, r = np.divmod(g, h)
            val = np.where(g >= 0, v * h + mul_flat[r * h + o], -1).astype(CODE)
            if rows is None:
                col = val
            else:
                col[rows] = val
        chart[:, q] = col
    return chart


def verify_closure(board: Board, chart: np.ndarray) -> Walk:
    """Whether ``chart`` (derivable facts) is closed under all transition maps, in conflict, or open."""
    dom = board.domain
    h = board.order
    nd = len(dom)
    mul_flat, inv, _, pairs, _ = _tables(dom)
    flat = chart.reshape(-1)
    full = bool((chart >= 0).all())
    split: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    open_ = False
    for ci, pj, target in pairs:
        if ci not in split:
            u, o = np.divmod(chart[:, ci], h)
            split[ci] = (u, o)
        u, o = split[ci]
        b = chart[:, pj]
        if full:
            rows = None
        else:
            rows = np.flatnonzero((chart[:, ci] >= 0) & (b >= 0))
            if rows.size == 0:
                continue
            u, o, b = u[rows], o[rows], b[rows]
        q = target[o]
        if not (q >= 0).all():
            keep = q >= 0
            u, o, b, q = u[keep], o[keep], b[keep], q[keep]
        bv, br = np.divmod(b, h)
        expected = bv * h + mul_flat[br * h + inv[o]]
        actual = flat[u * nd + q]
        bad = actual != expected
        if bad.any():
            if (actual[bad] >= 0).any():
                return Walk.CONFLICT
            open_ = True
    return Walk.OPEN if open_ else Walk.CLOSED
