"""Symmetries of a board for solving: board automorphisms and automorphisms of its line hypergraph.

A **board automorphism** relabels the tiles and re-orients each one so that the gluing
table is unchanged (docs/conventions.md §3's isomorphism, from a board to itself).  It maps lines to
lines, so it is a symmetry of every k-in-a-row game on the board.

The k-in-a-row game only sees its lines, so any permutation of the tiles that maps the
set of lines onto itself is a symmetry of the game; that **line group** contains the board
automorphisms and may be larger (on ``torus:3x3`` the 12 lines of 3 form the affine plane
of order 3, whose 432 symmetries are six times the board's 72).

Permutations are tuples ``p`` with ``p[t]`` the image of tile t.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from tapology.model.board import Board
from tapology.model.isomorphism import automorphisms, components

Perm = tuple[int, ...]


def compose(p: Perm, q: Perm) -> Perm:
    """p then q."""
    return tuple(q[i] for i in p)


def closure(gens: Iterable[Perm], n: int, cap: int = 1_000_000) -> list[Perm] | None:
    """All elements of the group the permutations generate (identity first); None past ``cap`` elements."""
    ident = tuple(range(n))
    gens = [g for g in gens if g != ident]
    seen = {ident}
    out = [ident]
    queue = deque([ident])
    while queue:
        a = queue.popleft()
        for g in gens:
            b = compose(a, g)
            if b not in seen:
                seen.add(b)
                out.append(b)
                if len(out) > cap:
                    return None
                queue.append(b)
    return out


# ---- board automorphisms ------------------------------------------------------------
def board_automorphisms(board: Board) -> list[tuple[Perm, tuple[int, ...]]]:
    """Every (perm, turn) with ``board.relabel(perm, turn)`` having the board's own gluing facts.

    On a connected board the image of one tile, with its turn, fixes the rest (walk the
    gluing table), so each of the n·|H| choices is walked and checked by relabelling.  A
    board in several pieces reports the identity only (a subgroup; matching pieces would
    be exponential in their number).  Cost O(n²·|H|·|S|).
    """
    n = len(board.tiles)
    grp = board.grid.group
    h = grp.order
    comps = components(board)
    target = (board.glue, tuple(sorted(board.extra)))
    found: list[tuple[Perm, tuple[int, ...]]] = []
    if len(comps) != 1:
        # only automorphisms mapping each component to itself with a fixed choice elsewhere
        # are cheap to list; the identity is always one.
        return [(tuple(range(n)), (0,) * n)]
    root = comps[0][0]
    for u in range(n):
        for g in range(h):
            cand = _extend(board, root, u, g)
            if cand is None:
                continue
            perm, turn = cand
            b2 = board.relabel(perm, turn)
            if (b2.glue, tuple(sorted(b2.extra))) == target:
                found.append((perm, turn))
    found.sort(key=lambda pt: (pt[0] != tuple(range(n)), pt))
    return found


def _extend(board: Board, root: int, image: int, turn0: int) -> tuple[Perm, tuple[int, ...]] | None:
    """Walk the gluing table from ``root`` ↦ (image, turn0); None on a contradiction."""
    n = len(board.tiles)
    grid = board.grid
    grp = grid.group
    h = grp.order
    perm = [-1] * n
    turn = [0] * n
    used = [False] * n
    perm[root], turn[root], used[image] = image, turn0, True
    queue = deque([root])
    while queue:
        t = queue.popleft()
        gt = turn[t]
        for d, code in enumerate(board.glue[t]):
            # fact χ_t(c_d) = (v, o) must become χ_{π t}(g_t⁻¹ c_d) = (π v, g_v → o → g_t⁻¹)
            d2 = grid.dir_perm[grp.inv[gt]][d]
            code2 = board.glue[perm[t]][d2]
            if (code < 0) != (code2 < 0):
                return None
            if code < 0:
                continue
            v, o = divmod(code, h)
            w, o2 = divmod(code2, h)
            gv = grp.mul[grp.mul[o2][gt]][grp.inv[o]]
            if perm[v] == -1:
                if used[w]:
                    return None
                perm[v], turn[v], used[w] = w, gv, True
                queue.append(v)
            elif perm[v] != w or turn[v] != gv:
                return None
    if -1 in perm:
        return None
    return tuple(perm), tuple(turn)


# ---- line hypergraph automorphisms --------------------------------------------------
def line_automorphisms(n: int, lines: Sequence[Sequence[int]], cap: int = 50_000) -> list[Perm] | None:
    """Every permutation of range(n) mapping the set of lines onto itself; None when there are more than ``cap``.

    Backtracking over tiles in an order that keeps each next tile on a line with earlier
    ones, pruned by line degree and by the number of lines through each pair of tiles.
    """
    line_set = {frozenset(ln) for ln in lines}
    deg = [0] * n
    pair = [[0] * n for _ in range(n)]
    for ln in line_set:
        for a in ln:
            deg[a] += 1
            for b in ln:
                if a != b:
                    pair[a][b] += 1
    lines_at: list[list[frozenset[int]]] = [[] for _ in range(n)]
    for ln in line_set:
        for a in ln:
            lines_at[a].append(ln)
    order = _search_order(n, pair)
    pos_in_order = {v: i for i, v in enumerate(order)}
    # lines whose last tile in the search order is v: checked when v is placed
    closing: list[list[frozenset[int]]] = [[] for _ in range(n)]
    for ln in line_set:
        last = max(ln, key=lambda a: pos_in_order[a])
        closing[last].append(ln)
    perm = [-1] * n
    used = [False] * n
    out: list[Perm] = []

    def rec(i: int) -> bool:
        if i == n:
            out.append(tuple(perm))
            return len(out) <= cap
        v = order[i]
        for w in range(n):
            if used[w] or deg[w] != deg[v]:
                continue
            ok = True
            for j in range(i):
                u = order[j]
                if pair[u][v] != pair[perm[u]][w]:
                    ok = False
                    break
            if not ok:
                continue
            perm[v] = w
            used[w] = True
            if all(frozenset(perm[a] for a in ln) in line_set for ln in closing[v]):
                if not rec(i + 1):
                    return False
            used[w] = False
            perm[v] = -1
        return True

    if not rec(0):
        return None
    out.sort(key=lambda p: (p != tuple(range(n)), p))
    return out


def _search_order(n: int, pair: list[list[int]]) -> list[int]:
    order: list[int] = []
    left = set(range(n))
    while left:
        start = min(left)
        order.append(start)
        left.discard(start)
        while True:
            best = max(left, key=lambda v: (sum(1 for u in order if pair[u][v]), -v), default=None)
            if best is None or not any(pair[u][best] for u in order):
                break
            order.append(best)
            left.discard(best)
    return order


def preserves_lines(perm: Perm, lines: Sequence[Sequence[int]]) -> bool:
    """Does ``perm`` map the set of lines onto itself?"""
    s = {frozenset(ln) for ln in lines}
    return all(frozenset(perm[a] for a in ln) in s for ln in s)


def game_symmetries(board: Board, lines: Sequence[Sequence[int]], cap: int = 50_000) -> tuple[list[Perm], str]:
    """The tile permutations a k-in-a-row game on ``board`` may be reduced by, and which group they are.

    The line group when it has at most ``cap`` elements (``"lines"``), else the board's
    automorphisms (``"board"``), which always preserve lines.
    """
    n = len(board.tiles)
    group = line_automorphisms(n, lines, cap)
    if group is not None:
        return group, "lines"
    perms = sorted({p for p, _ in board_maps(board) if preserves_lines(p, lines)},
                   key=lambda p: (p != tuple(range(n)), p))
    return perms, "board"


def board_maps(board: Board, limit: int = 1_000_000) -> list[tuple[Perm, tuple[int, ...]]]:
    """The board's automorphisms (tile permutation, re-orientation) from :mod:`tapology.model.isomorphism`."""

    return [(tuple(p), tuple(t)) for p, t in automorphisms(board).elements(limit)]
