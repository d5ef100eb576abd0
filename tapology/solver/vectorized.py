"""Whole-board closure over the gluing table with numpy: walk the charts, then verify the fixpoint.

Charts are developed from the gluing table by walking inside the domain (every parent
of a cell is tried, so holes are walked round).  The result is a set of derivable facts;
it is the closure exactly when it is closed under every transition map, which is then
checked pair by pair of domain cells.  Cost O(n·|D|²) vectorised array operations.
"""

from __future__ import annotations

from enum import Enum

import numpy as np

from tapology.model.board import Board
from tapology.model.domain import ChartDomain


class Walk(Enum):
    """Outcome of the vectorised closure."""

    CLOSED = "closed"  # the walked charts are the closure, no conflict
    CONFLICT = "conflict"  # two derivable facts disagree somewhere
    OPEN = "open"  # the walked charts are not yet closed (the worklist must finish)


def _tables(domain: ChartDomain) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    grid = domain.grid
    grp = grid.group
    mul = np.array(grp.mul, dtype=np.int64)
    inv = np.array(grp.inv, dtype=np.int64)
    dperm = np.array(grid.dir_perm, dtype=np.int64)
    trans = np.array(domain.trans, dtype=np.int64)  # [ci, o, pj]
    pairs = []
    for ci in range(1, len(domain)):
        for pj in range(len(domain)):
            if pj != ci and (trans[ci, :, pj] >= 0).any():
                pairs.append((ci, pj))
    return mul, inv, dperm, trans, pairs


def walk_charts(board: Board) -> np.ndarray:
    """Charts developed from the gluing table: array (n, |D|) of codes, -1 where nothing is known."""
    dom = board.domain
    h = board.order
    n = len(board.tiles)
    mul, inv, dperm, _, _ = _tables(dom)
    glue = np.array(board.glue, dtype=np.int64).reshape(n, len(board.grid.directions))
    chart = np.full((n, len(dom)), -1, dtype=np.int64)
    chart[:, 0] = np.arange(n, dtype=np.int64) * h
    parents: dict[int, list[tuple[int, int]]] = {}
    order: list[int] = []
    for q, _p, _d in dom.walk:
        order.append(q)
    depth = {0: 0}
    for q, p, _d in dom.walk:
        depth[q] = depth[p] + 1
    for p in range(len(dom)):
        for d, q in enumerate(dom.step[p]):
            if q > 0 and p in depth and depth.get(q, -1) == depth[p] + 1:
                parents.setdefault(q, []).append((p, d))
    for q in order:
        col = chart[:, q]
        for p, d in parents[q]:
            src = chart[:, p]
            todo = (col < 0) & (src >= 0)
            if not todo.any():
                continue
            rows = np.nonzero(todo)[0]
            code = src[rows]
            u, o = np.divmod(code, h)
            e = dperm[inv[o], d]
            g = glue[u, e]
            ok = g >= 0
            rows, g, o = rows[ok], g[ok], o[ok]
            v, r = np.divmod(g, h)
            col[rows] = v * h + mul[r, o]
        chart[:, q] = col
    return chart


def verify_closure(board: Board, chart: np.ndarray) -> Walk:
    """Whether ``chart`` (derivable facts) is closed under all transition maps, in conflict, or open."""
    dom = board.domain
    h = board.order
    mul, inv, _, trans, pairs = _tables(dom)
    open_ = False
    for ci, pj in pairs:
        a = chart[:, ci]
        b = chart[:, pj]
        rows = np.nonzero((a >= 0) & (b >= 0))[0]
        if rows.size == 0:
            continue
        u, o = np.divmod(a[rows], h)
        q = trans[ci, o, pj]
        ok = q >= 0
        if not ok.all():
            rows, u, o, q = rows[ok], u[ok], o[ok], q[ok]
        bv = b[rows]
        expected = (bv // h) * h + mul[bv % h, inv[o]]
        actual = chart[u, q]
        if (actual != expected).any():
            if ((actual >= 0) & (actual != expected)).any():
                return Walk.CONFLICT
            open_ = True
    return Walk.OPEN if open_ else Walk.CLOSED
