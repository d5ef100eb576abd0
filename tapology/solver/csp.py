"""python-constraint backend: taping consistency as a finite-domain CSP, for small boards (docs/conventions.md §5).

One variable per (tile t, cell i ≠ 0), named ``t@x,y``, with values −1 (nothing there) or a
code ``u·|H| + o``.  For every tile t, cells i, j with j − i in the domain, and every possible
entry (u, o) at i, a ternary constraint over (χ_t(i), χ_t(j), χ_u(q)) with q = trans[i][o][j]:
if χ_t(i) = (u, o) and χ_t(j) = (v, r) then χ_u(q) = (v, r → o⁻¹).  Facts restrict domains to
one value.  As for the SMT encoding, the CSP is solvable iff the closure is consistent.
Constraints O(n²·|D|²·|H|): meant for boards of a few tiles (cross-checks).
"""

from __future__ import annotations

from collections.abc import Sequence

import constraint

from tapology.errors import BoardError
from tapology.model.board import Board, Taping
from tapology.model.tape import board_tapings

MAX_TILES = 6


def csp_consistent(board: Board, tapings: Sequence[Taping] = (), include_board: bool = True) -> bool:
    """Whether the facts (the board's, if ``include_board``, plus ``tapings``) hold together, by python-constraint."""
    n = len(board.tiles)
    if n > MAX_TILES:
        raise BoardError(f"--backend csp: {n} tiles is more than the CSP backend takes ({MAX_TILES})")
    dom = board.domain
    grp = board.grid.group
    h = grp.order
    nc = len(dom)
    facts = [tp.fact for tp in ([*board_tapings(board), *tapings] if include_board else list(tapings))]
    fixed: dict[tuple[int, int], int] = {(t, 0): t * h for t in range(n)}
    for f in facts:
        key = (f.tile, dom.index[f.cell])
        code = f.other * h + f.orientation
        if fixed.get(key, code) != code:
            return False
        fixed[key] = code
    full = [-1, *range(n * h)]
    prob = constraint.Problem()

    def name(t: int, i: int) -> str:
        return f"{board.tiles[t]}@{','.join(map(str, dom.cells[i]))}"

    for t in range(n):
        for i in range(nc):
            prob.addVariable(name(t, i), [fixed[(t, i)]] if (t, i) in fixed else full)
    trans = dom.trans
    mul, inv = grp.mul, grp.inv
    for t in range(n):
        for i in range(1, nc):
            for j in range(nc):
                if j == i or trans[i][0][j] < 0:
                    continue
                for u in range(n):
                    for o in range(h):
                        q = trans[i][o][j]
                        code_i = u * h + o
                        a, b, c = (t, i), (t, j), (u, q)
                        if c == a or c == b:  # the target is one of the premises
                            idx = 0 if c == a else 1

                            def f2(x: int, y: int, ci: int = code_i, o_: int = o, idx: int = idx) -> bool:
                                if x != ci or y < 0:
                                    return True
                                want = (y // h) * h + mul[y % h][inv[o_]]
                                return (x, y)[idx] == want

                            prob.addConstraint(f2, [name(*a), name(*b)])
                            continue

                        def f3(x: int, y: int, z: int, ci: int = code_i, o_: int = o) -> bool:
                            if x != ci or y < 0:
                                return True
                            return z == (y // h) * h + mul[y % h][inv[o_]]

                        prob.addConstraint(f3, [name(*a), name(*b), name(*c)])
    return prob.getSolution() is not None
