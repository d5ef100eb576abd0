"""Synthesis and census of boards with required properties (DESIGN.md §3, §5).

A request (:class:`Request`) fixes the tile count, grid, chart domain, closed or a number of
boundary circles, (non-)orientability, Euler characteristic, manifold, or a board to complete.
Answers are connected boards whose gluing table is closed (it is the unit part of its own
closure) and consistent, each new up to isomorphism (:mod:`tapology.model.isomorphism`).

Two engines:

- ``enumerate`` — orderly generation: sides are decided in breadth-first order (tile, side);
  an open side is glued to a new tile (always in standard orientation: re-orienting a tile is
  an isomorphism), to an open side of a tile already met (each orientation), or left open;
  after each decision the propagator closes the atlas, which both prunes (conflict) and tapes
  forced sides.  Every board is reached from its breadth-first normal form; duplicates are
  removed by signature.  This is what the census uses.
- ``z3`` — the SMT encoding of :mod:`tapology.solver.z3backend` over unknown gluing tables,
  with symmetry breaking: tiles numbered in order of first appearance in the (tile, side)
  scan, each met first through a side glued with the identity (the breadth-first normal
  form), and every normal form of each answer's isomorphism class blocked once found.

Both stop on a deadline or Ctrl-C and return what they found (``interrupted``/``timed_out``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from tapology.errors import SynthesisError
from tapology.model.atlas import Atlas
from tapology.model.board import Board, Fact, Taping
from tapology.model.domain import ChartDomain, domain_from_spec
from tapology.model.grid import ReferenceGrid, get_grid
from tapology.model.isomorphism import _Walker, canonical, components
from tapology.model.tape import board_tapings
from tapology.model.topology import Topology, classify
from tapology.solver.z3backend import Z3Board, bare_board


@dataclass(frozen=True)
class Request:
    """What boards to find.  ``boundary`` None with ``closed`` False means any number of boundary circles."""

    tiles: int
    grid: ReferenceGrid
    domain: ChartDomain
    closed: bool = False
    boundary: int | None = None
    orientable: bool | None = None
    euler: int | None = None
    manifold: bool = False
    base: Board | None = None

    @classmethod
    def make(cls, tiles: int | None = None, grid: str = "square", domain: str | ChartDomain | None = None,
             closed: bool = False, boundary: int | None = None, orientable: bool | None = None,
             euler: int | None = None, manifold: bool = False, base: Board | None = None) -> Request:
        """A request from CLI-style inputs; :class:`SynthesisError` names a bad one."""
        if base is not None:
            g = base.grid
            dom = base.domain if domain is None else (domain if isinstance(domain, ChartDomain) else domain_from_spec(g, domain))
            if tiles is not None and tiles != len(base.tiles):
                raise SynthesisError(f"--tiles {tiles}: the board given with --from has {len(base.tiles)} tiles")
            n = len(base.tiles)
        else:
            if tiles is None:
                raise SynthesisError("synthesize: give --tiles N (or --from BOARD)")
            g = get_grid(grid)
            dom = domain if isinstance(domain, ChartDomain) else domain_from_spec(g, domain)
            n = tiles
        if n < 1 or n > 64:
            raise SynthesisError(f"--tiles {n}: give 1..64 tiles")
        if closed and boundary not in (None, 0):
            raise SynthesisError(f"--closed and --boundary {boundary} contradict each other")
        if boundary is not None and boundary < 0:
            raise SynthesisError(f"--boundary {boundary}: must be ≥ 0")
        if closed:
            boundary = 0
        return cls(n, g, dom, boundary == 0, boundary, orientable, euler, manifold, base)

    def accepts(self, topo: Topology) -> bool:
        """Whether a found board's topology meets the request."""
        if len(topo.components) != 1:
            return False
        if self.boundary is not None and topo.boundary_components != self.boundary:
            return False
        if self.orientable is not None and topo.orientable != self.orientable:
            return False
        if self.euler is not None and topo.euler_characteristic != self.euler:
            return False
        return not (self.manifold and not topo.manifold)


@dataclass(frozen=True)
class Found:
    """One answer: the board, its signature and its topology."""

    board: Board
    signature: str
    topology: Topology


@dataclass
class Result:
    """The answers found, and how the search ended."""

    boards: list[Found] = field(default_factory=list)
    complete: bool = False
    interrupted: bool = False
    timed_out: bool = False
    nodes: int = 0

    def to_json(self) -> dict[str, object]:
        """``{"count": n, "boards": [{"signature", "surface"}...]}`` plus how the search ended."""
        return {
            "count": len(self.boards),
            "boards": [{"signature": f.signature, "surface": f.topology.surface,
                        "euler_characteristic": f.topology.euler_characteristic,
                        "orientable": f.topology.orientable, "manifold": f.topology.manifold} for f in self.boards],
            "complete": self.complete,
            "interrupted": self.interrupted,
            "timed_out": self.timed_out,
        }


Progress = Callable[[int, int], None]  # (nodes explored, boards found)


def _tile_ids(req: Request) -> tuple[str, ...]:
    return req.base.tiles if req.base is not None else tuple(str(i + 1) for i in range(req.tiles))


def _start_board(req: Request) -> Board:
    if req.base is not None:
        b = req.base
        return Board(b.grid, req.domain, b.tiles, b.states, b.glue, b.extra)
    m = len(req.grid.directions)
    n = req.tiles
    return Board(req.grid, req.domain, _tile_ids(req), (0,) * n, tuple(tuple([-1] * m) for _ in range(n)))


class _Stop(Exception):
    pass


def _finish(req: Request, at: Atlas, seen: set[str], res: Result) -> Found | None:
    """The board an atlas holds, if it meets the request and is new."""
    b = at.board()
    b = Board(b.grid, b.domain, b.tiles, b.states, b.glue, b.extra)
    if len(components(b)) != 1:
        return None
    topo = classify(b)
    if not req.accepts(topo):
        return None
    sig = canonical(b).signature
    if sig in seen:
        return None
    seen.add(sig)
    f = Found(b, sig, topo)
    res.boards.append(f)
    return f


def enumerate_boards(req: Request, limit: int | None = None, deadline: float | None = None,
                     progress: Progress | None = None) -> Result:
    """All boards meeting ``req`` up to isomorphism, by orderly generation with the propagator (see module doc)."""
    res = Result()
    seen: set[str] = set()
    grid = req.grid
    grp = grid.group
    h = grp.order
    m = len(grid.directions)
    n = req.tiles
    unit = req.domain.unit_cells
    start = _start_board(req)
    at0 = Atlas.of(start)
    if at0.conflict is not None:
        raise SynthesisError("--from: the board is inconsistent")
    allow_open = not req.closed
    used0 = n if req.base is not None else 1

    def side_open(at: Atlas, t: int, d: int) -> bool:
        return at.chart[t, unit[d]] < 0

    def rec(at: Atlas, used: int, left_open: frozenset[tuple[int, int]]) -> None:
        res.nodes += 1
        if res.nodes % 256 == 0:
            if progress is not None:
                progress(res.nodes, len(res.boards))
            if deadline is not None and time.monotonic() > deadline:
                res.timed_out = True
                raise _Stop
        nxt = None
        for t in range(used):
            for d in range(m):
                if (t, d) not in left_open and side_open(at, t, d):
                    nxt = (t, d)
                    break
            if nxt:
                break
        if nxt is None:
            if used == n and _finish(req, at, seen, res) is not None:
                if progress is not None:
                    progress(res.nodes, len(res.boards))
                if limit is not None and len(res.boards) >= limit:
                    raise _Stop
            return
        t, d = nxt
        cell = grid.directions[d]
        options: list[Fact] = []
        if used < n:
            options.append(Fact(t, cell, used, 0))
        for u in range(used):
            for o in range(h):
                e = grid.dir_perm[grp.inv[o]][grid.opposite[d]]
                if (u, e) in left_open or not side_open(at, u, e):
                    continue
                options.append(Fact(t, cell, u, o))
        for f in options:
            a2 = at.copy()
            if a2.tape([Taping(f, "")]) is None:
                rec(a2, max(used, f.other + 1), left_open)
        if allow_open:
            rec(at, used, left_open | {(t, d)})

    try:
        rec(at0, used0, frozenset())
        res.complete = not res.timed_out
    except _Stop:
        res.complete = False
    except KeyboardInterrupt:
        res.interrupted = True
    return res


# ---- z3 ------------------------------------------------------------------------------
def _normal_forms(board: Board) -> list[list[int]]:
    """Every breadth-first normal form (one per start tile and frame) of a connected board, as gluing codes."""
    w = _Walker(board)
    out = []
    m = len(board.grid.directions)
    for t0 in range(len(board.tiles)):
        for g0 in range(board.order):
            walk = w.walk(t0, g0, None)
            assert walk is not None
            seq = walk[0]
            out.append(seq[: m * len(board.tiles)] if not board.extra else seq)
    return out


def z3_boards(req: Request, limit: int | None = None, deadline: float | None = None,
              progress: Progress | None = None) -> Result:
    """Boards meeting ``req`` up to isomorphism, found by z3 with symmetry breaking (see module doc)."""
    res = Result()
    seen: set[str] = set()
    grid = req.grid
    h = grid.group.order
    m = len(grid.directions)
    n = req.tiles
    start = _start_board(req)
    enc = Z3Board(bare_board(start))
    s = enc.solver
    unit = req.domain.unit_cells
    K = [[enc.known_var(t, unit[d]) for d in range(m)] for t in range(n)]
    T = [[enc.tile_var(t, unit[d]) for d in range(m)] for t in range(n)]
    R = [[enc.turn_var(t, unit[d]) for d in range(m)] for t in range(n)]
    tc, rc = enc.tile_consts, enc.turn_consts
    if req.closed:
        for t in range(n):
            for d in range(m):
                s.add(K[t][d])
    if req.base is not None:
        for tp in board_tapings(req.base):
            s.add(enc.fact_constraint(tp.fact))
    else:
        # breadth-first normal form: tile u ≥ 1 first met from a lower tile, in increasing order, with the identity
        pos = [(t, d) for t in range(n) for d in range(m)]
        A = [[z3.And(K[t][d], T[t][d] == tc[u]) for u in range(n)] for (t, d) in pos]
        for u in range(1, n):
            s.add(z3.Or([A[k][u] for k, (t, _) in enumerate(pos) if t < u]))
            for k, (t, d) in enumerate(pos):
                if t >= u:
                    continue
                first = z3.And(A[k][u], z3.Not(z3.Or([A[k2][u] for k2 in range(k)] or [z3.BoolVal(False)])))
                s.add(z3.Implies(first, R[t][d] == rc[0]))
                if u >= 2:
                    s.add(z3.Implies(A[k][u], z3.Or([A[k2][u - 1] for k2 in range(k)] or [z3.BoolVal(False)])))
    try:
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    res.timed_out = True
                    break
                s.set("timeout", max(1, int(left * 1000)))
            r = s.check()
            res.nodes += 1
            if r == z3.unknown:
                res.timed_out = True
                break
            if r == z3.unsat:
                res.complete = True
                break
            mdl = s.model()
            glue = []
            for t in range(n):
                row = []
                for d in range(m):
                    if z3.is_true(mdl.eval(K[t][d], model_completion=True)):
                        u = tc.index(mdl.eval(T[t][d], model_completion=True))
                        o = rc.index(mdl.eval(R[t][d], model_completion=True))
                        row.append(u * h + o)
                    else:
                        row.append(-1)
                glue.append(tuple(row))
            b = Board(grid, req.domain, start.tiles, start.states, tuple(glue), start.extra)
            # block this table, and (without a base) every normal form of its isomorphism class
            tables = [[c for row in glue for c in row]]
            if req.base is None and len(components(b)) == 1:
                tables = _normal_forms(b)
            for tab in {tuple(x) for x in tables}:
                lits = []
                for k, code in enumerate(tab):
                    t, d = divmod(k, m)
                    if code < 0:
                        lits.append(K[t][d])
                    else:
                        u, o = divmod(code, h)
                        lits.append(z3.Not(z3.And(K[t][d], T[t][d] == tc[u], R[t][d] == rc[o])))
                s.add(z3.Or(lits))
            at = Atlas.of(b)
            if at.conflict is None and _finish(req, at, seen, res) is not None:
                if limit is not None and len(res.boards) >= limit:
                    break
            if progress is not None:
                progress(res.nodes, len(res.boards))
    except KeyboardInterrupt:
        res.interrupted = True
    return res


def synthesize(req: Request, engine: str = "auto", limit: int | None = None, timeout: float | None = None,
               progress: Progress | None = None) -> Result:
    """Boards meeting ``req``: ``engine`` ``enumerate``, ``z3`` or ``auto`` (enumerate)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    if engine in ("auto", "enumerate"):
        return enumerate_boards(req, limit, deadline, progress)
    if engine == "z3":
        return z3_boards(req, limit, deadline, progress)
    raise SynthesisError(f"--engine {engine!r}: use auto, enumerate or z3")

