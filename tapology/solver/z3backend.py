"""z3 encodings of a board's facts and of the atlas consistency of its chart domain (docs/conventions.md §2, §5).

**SMT encoding** (:class:`Z3Board`, shares a solver, used by synthesis and for unsat cores).
Sorts: tiles, orientations and domain cells as z3 enumerations.  Variables, named after tiles
and cells (optionally with a prefix): ``t@x,y.known`` (Bool: does χ_t hold anything at
(x, y)), ``t@x,y.tile`` and ``t@x,y.turn``.  Uninterpreted functions ``chart-known``,
``chart-tile``, ``chart-turn`` map (tile, cell) to the same, so that "the chart of the tile
found at cell i" is a term, and ``recentre:i:j`` maps an orientation o to the cell
trans[i][o][j].  Constraints:

- χ_t(0) = (t, 0);
- for every tile t and cells i ≠ 0, j ≠ i with j − i in the domain:
  known(t,i) ∧ known(t,j) ⇒ χ_{tile(t,i)}(recentre:i:j(turn(t,i))) = (tile(t,j), turn(t,j) → turn(t,i)⁻¹), known;
- each fact, asserted under its own Boolean ``tape:LABEL`` so an unsat core names tapings.

Exactness: the closure F of the facts (the least fixpoint) is consistent iff the constraints
are satisfiable.  If F is functional, F itself (unknown elsewhere) is a model; every model is
closed under the transitions and contains the facts, hence contains F, so F is functional.
No minimality constraint is needed: a model may know more than F, which cannot turn a
consistent closure into an inconsistent one or back.  Size O(n·|D|²) implications.

**Datalog closure** (:class:`Z3Closure`): the same rules as Horn clauses, solved by z3's
Datalog engine bottom-up.  It decides the same question and scales like the closure; it is
what ``--backend z3`` uses for verdicts (the SMT encoding leaves z3 to search over the cells
the closure leaves empty, which is slow on boards with an edge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from tapology.errors import Undecided
from tapology.model.board import Board, Fact, Taping
from tapology.model.tape import board_tapings

_SORTS = 0


def _q(name: str) -> str:
    """An SMT-LIB quoted symbol."""
    return "|" + name.replace("|", "/").replace("\\", "/") + "|"


def cell_name(cell: tuple[int, ...]) -> str:
    """A cell as written in variable names: ``x,y``."""
    return ",".join(str(v) for v in cell)


@dataclass
class Z3Board:
    """The encoding of one board's atlas in a (possibly shared) z3 solver.

    Only the chart domain's consistency is encoded: facts are added with :meth:`add_tapings`
    (under assumption literals ``tape:LABEL``) or :meth:`fact_constraint`; synthesis leaves the
    unit cells free and constrains them itself.
    """

    board: Board
    solver: z3.Solver
    prefix: str = ""

    def __init__(self, board: Board, solver: z3.Solver | None = None, prefix: str = "") -> None:
        self.board = board
        self.solver = solver if solver is not None else z3.Solver()
        self.prefix = prefix
        self._labels: dict[str, z3.BoolRef] = {}
        global _SORTS
        _SORTS += 1
        self._k = k = f"#{_SORTS}"  # sorts and constants are global in z3's context: keep them apart
        p = prefix
        self.tile_sort, self.tile_consts = z3.EnumSort(f"{p}Tile{k}", [f"{p}tile:{t}{k}" for t in board.tiles])
        self.turn_sort, self.turn_consts = z3.EnumSort(f"{p}Turn{k}", [f"{p}turn:{o}{k}" for o in range(board.order)])
        self.cell_sort, self.cell_consts = z3.EnumSort(f"{p}Cell{k}", [f"{p}cell:{cell_name(c)}{k}" for c in board.domain.cells])
        sorts = {f"{p}Tile{k}": self.tile_sort, f"{p}Turn{k}": self.turn_sort, f"{p}Cell{k}": self.cell_sort}
        self.solver.add(z3.parse_smt2_string(self.smt_text(), sorts=sorts))

    # ---- names ----------------------------------------------------------------------
    def var_name(self, t: int, i: int, part: str) -> str:
        """Name of the variable for tile t's chart at cell index i (``part``: tile or turn)."""
        return f"{self.prefix}{self.board.tiles[t]}@{cell_name(self.board.domain.cells[i])}.{part}"

    def tile_var(self, t: int, i: int) -> z3.ExprRef:
        """χ_t(cell i)'s tile (meaningful where ``known_var`` holds)."""
        return z3.Const(self.var_name(t, i, "tile"), self.tile_sort)

    def turn_var(self, t: int, i: int) -> z3.ExprRef:
        """χ_t(cell i)'s orientation."""
        return z3.Const(self.var_name(t, i, "turn"), self.turn_sort)

    def known_var(self, t: int, i: int) -> z3.BoolRef:
        """Whether χ_t(cell i) holds a tile."""
        return z3.Bool(self.var_name(t, i, "known"))

    # ---- the encoding ---------------------------------------------------------------
    def smt_text(self) -> str:
        """Declarations and constraints as SMT-LIB 2 text.  Cost O(n·|D|² + |D|²·|H|)."""
        b = self.board
        dom = b.domain
        grp = b.grid.group
        h = grp.order
        n = len(b.tiles)
        nc = len(dom)
        p = self.prefix
        k = self._k
        tile_s, turn_s, cell_s = _q(f"{p}Tile{k}"), _q(f"{p}Turn{k}"), _q(f"{p}Cell{k}")
        tc = [_q(f"{p}tile:{t}{k}") for t in b.tiles]
        rc = [_q(f"{p}turn:{o}{k}") for o in range(h)]
        cc = [_q(f"{p}cell:{cell_name(c)}{k}") for c in dom.cells]
        lines: list[str] = []
        T = [[_q(self.var_name(t, i, "tile")) for i in range(nc)] for t in range(n)]
        R = [[_q(self.var_name(t, i, "turn")) for i in range(nc)] for t in range(n)]
        E = [[_q(self.var_name(t, i, "known")) for i in range(nc)] for t in range(n)]
        ft, fo = _q(f"{p}chart-tile"), _q(f"{p}chart-turn")
        mi = _q(f"{p}then-inverse-of")
        fe = _q(f"{p}chart-known")
        lines.append(f"(declare-fun {fe} ({tile_s} {cell_s}) Bool)")
        lines.append(f"(declare-fun {ft} ({tile_s} {cell_s}) {tile_s})")
        lines.append(f"(declare-fun {fo} ({tile_s} {cell_s}) {turn_s})")
        lines.append(f"(declare-fun {mi} ({turn_s} {turn_s}) {turn_s})")
        for r in range(h):
            for o in range(h):
                lines.append(f"(assert (= ({mi} {rc[r]} {rc[o]}) {rc[grp.mul[r][grp.inv[o]]]}))")
        trans = dom.trans
        pairs = [(i, j) for i in range(1, nc) for j in range(nc) if j != i and trans[i][0][j] >= 0]
        qf = {}
        for i, j in pairs:
            name = _q(f"{p}recentre:{cell_name(dom.cells[i])}:{cell_name(dom.cells[j])}")
            qf[(i, j)] = name
            lines.append(f"(declare-fun {name} ({turn_s}) {cell_s})")
            for o in range(h):
                lines.append(f"(assert (= ({name} {rc[o]}) {cc[trans[i][o][j]]}))")
        for t in range(n):
            for i in range(nc):
                lines.append(f"(declare-const {T[t][i]} {tile_s})")
                lines.append(f"(declare-const {R[t][i]} {turn_s})")
                lines.append(f"(declare-const {E[t][i]} Bool)")
                lines.append(f"(assert (and (= ({fe} {tc[t]} {cc[i]}) {E[t][i]})"
                             f" (= ({ft} {tc[t]} {cc[i]}) {T[t][i]}) (= ({fo} {tc[t]} {cc[i]}) {R[t][i]})))")
            lines.append(f"(assert (and {E[t][0]} (= {T[t][0]} {tc[t]}) (= {R[t][0]} {rc[0]})))")
        for t in range(n):
            for i, j in pairs:
                ti, oi, tj, oj, ei, ej = T[t][i], R[t][i], T[t][j], R[t][j], E[t][i], E[t][j]
                q = f"({qf[(i, j)]} {oi})"
                lines.append(f"(assert (=> (and {ei} {ej}) (and ({fe} {ti} {q}) (= ({ft} {ti} {q}) {tj})"
                             f" (= ({fo} {ti} {q}) ({mi} {oj} {oi})))))")
        return "\n".join(lines)

    def fact_constraint(self, f: Fact) -> z3.BoolRef:
        """The constraint χ_tile(cell) = (other, orientation)."""
        i = self.board.domain.index[f.cell]
        return z3.And(self.known_var(f.tile, i), self.tile_var(f.tile, i) == self.tile_consts[f.other],
                      self.turn_var(f.tile, i) == self.turn_consts[f.orientation])

    def literal(self, label: str) -> z3.BoolRef:
        """The Boolean standing for a taping (one per distinct label)."""
        lit = self._labels.get(label)
        if lit is None:
            lit = z3.Bool(f"{self.prefix}tape:{label}")
            self._labels[label] = lit
        return lit

    def add_tapings(self, tapings: Sequence[Taping]) -> list[z3.BoolRef]:
        """Assert each taping under its literal; the literals in order (equal labels share one)."""
        out = []
        for tp in tapings:
            lit = self.literal(tp.label)
            self.solver.add(z3.Implies(lit, self.fact_constraint(tp.fact)))
            out.append(lit)
        return out



def z3_consistent(board: Board, tapings: Sequence[Taping] = (), timeout_ms: int | None = None,
                  method: str = "datalog") -> bool:
    """Whether the board's facts plus ``tapings`` have a conflict-free closure, decided by z3.

    ``method``: ``datalog`` (:class:`Z3Closure`) or ``smt`` (:class:`Z3Board`).
    """
    if method == "datalog":
        c = Z3Closure(board)
        c.timeout_ms = timeout_ms
        c.add_facts([tp.fact for tp in [*board_tapings(board), *tapings]])
        return c.consistent()
    enc = Z3Board(bare_board(board))
    if timeout_ms:
        enc.solver.set("timeout", timeout_ms)
    lits = enc.add_tapings([*board_tapings(board), *tapings])
    res = enc.solver.check(*lits)
    if res == z3.unknown:
        raise Undecided(f"z3 gave up: {enc.solver.reason_unknown()}")
    return res == z3.sat


class Z3Checker:
    """One z3 encoding of a board's atlas with every given taping under a literal: check subsets incrementally."""

    def __init__(self, board: Board, tapings: Sequence[Taping], timeout_ms: int | None = None) -> None:
        self.enc = Z3Board(bare_board(board))
        if timeout_ms:
            self.enc.solver.set("timeout", timeout_ms)
        self.lits = self.enc.add_tapings(tapings)

    def consistent(self, subset: Sequence[int]) -> bool:
        """Whether the tapings with these indices hold together."""
        res = self.enc.solver.check(*[self.lits[k] for k in subset])
        if res == z3.unknown:
            raise Undecided(f"z3 gave up: {self.enc.solver.reason_unknown()}")
        return res == z3.sat

    def core(self, subset: Sequence[int]) -> list[int] | None:
        """None if consistent, else the indices (within ``subset``) of z3's unsat core."""
        lits = [self.lits[k] for k in subset]
        res = self.enc.solver.check(*lits)
        if res == z3.unknown:
            raise Undecided(f"z3 gave up: {self.enc.solver.reason_unknown()}")
        if res == z3.sat:
            return None
        core = {str(x) for x in self.enc.solver.unsat_core()}
        out, seen = [], set()
        for k in subset:
            s = str(self.lits[k])
            if s in core and s not in seen:
                seen.add(s)
                out.append(k)
        return out


def bare_board(board: Board) -> Board:
    """The board's tiles over its grid and domain with nothing taped."""
    n = len(board.tiles)
    m = len(board.grid.directions)
    return Board(board.grid, board.domain, board.tiles, board.states, tuple(tuple([-1] * m) for _ in range(n)))


class Z3Closure:
    """The closure as z3 Horn clauses (the Datalog engine computes the least fixpoint bottom-up).

    Relation ``chart(t, i, u, o)``: χ_t(cell i) = (u, o).  Facts: χ_t(0) = (t, 0), the
    recentring table ``recentre(i, o, j, q)`` (q = trans[i][o][j]), the product
    ``then_inverse(r, o, r → o⁻¹)`` and each taping.  Rule: chart(t,i,u,o) ∧ chart(t,j,v,r) ∧
    recentre(i,o,j,q) ∧ then_inverse(r,o,s) ⇒ chart(u,q,v,s).  ``conflict`` holds iff some cell
    must hold two values.  This is the least-fixpoint semantics itself, so it scales like the
    closure; the SMT encoding (:class:`Z3Board`) is what synthesis and unsat cores use.
    The clauses are written as SMT-LIB text and parsed by z3 (cost O(|D|²·|H| + n + facts)).
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        n = len(board.tiles)
        dom = board.domain
        grp = board.grid.group
        h = grp.order

        def bits(k: int) -> int:
            return max(1, (k - 1).bit_length())

        self.bt, self.bc, self.br = bits(n), bits(len(dom)), bits(h)
        T, C, R = (f"(_ BitVec {w})" for w in (self.bt, self.bc, self.br))
        lines = [
            f"(declare-rel chart ({T} {C} {T} {R}))",
            f"(declare-rel recentre ({C} {R} {C} {C}))",
            f"(declare-rel then_inverse ({R} {R} {R}))",
            "(declare-rel conflict ())",
        ]
        for name, sort in (("t", T), ("u", T), ("v", T), ("u2", T), ("i", C), ("j", C), ("q", C),
                           ("o", R), ("r", R), ("s", R), ("o2", R)):
            lines.append(f"(declare-var {name} {sort})")
        tr = dom.trans
        c_, r_ = self._c, self._r
        for ci in range(1, len(dom)):
            for cj in range(len(dom)):
                if cj == ci or tr[ci][0][cj] < 0:
                    continue
                for g in range(h):
                    lines.append(f"(rule (recentre {c_(ci)} {r_(g)} {c_(cj)} {c_(tr[ci][g][cj])}))")
        for a in range(h):
            for g in range(h):
                lines.append(f"(rule (then_inverse {r_(a)} {r_(g)} {r_(grp.mul[a][grp.inv[g]])}))")
        for k in range(n):
            lines.append(f"(rule (chart {self._t(k)} {c_(0)} {self._t(k)} {r_(0)}))")
        lines.append("(rule (=> (and (chart t i u o) (chart t j v r) (recentre i o j q) (then_inverse r o s)) (chart u q v s)))")
        lines.append("(rule (=> (and (chart t i u o) (chart t i u2 o2) (or (not (= u u2)) (not (= o o2)))) conflict))")
        self._text = lines
        self.timeout_ms: int | None = None

    def _t(self, k: int) -> str:
        return f"(_ bv{k} {self.bt})"

    def _c(self, k: int) -> str:
        return f"(_ bv{k} {self.bc})"

    def _r(self, k: int) -> str:
        return f"(_ bv{k} {self.br})"

    def add_facts(self, facts: Sequence[Fact]) -> None:
        """State facts (no retraction: build a new closure to drop facts)."""
        idx = self.board.domain.index
        for f in facts:
            t, c, u, o = self._t(f.tile), self._c(idx[f.cell]), self._t(f.other), self._r(f.orientation)
            self._text.append(f"(rule (chart {t} {c} {u} {o}))")

    def consistent(self) -> bool:
        """Whether the closure of the facts stated so far is conflict-free."""
        fp = z3.Fixedpoint()
        fp.set(engine="datalog")
        if self.timeout_ms:
            fp.set(timeout=self.timeout_ms)
        queries = fp.parse_string("\n".join([*self._text, "(query conflict)"]))
        res = fp.query(*queries)
        if res == z3.unknown:
            raise Undecided(f"z3 gave up: {fp.reason_unknown()}")
        return res == z3.unsat
