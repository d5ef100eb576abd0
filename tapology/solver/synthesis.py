"""Synthesis and census of boards with required properties (docs/conventions.md §3, §5).

A request (:class:`Request`) fixes the tile count, grid, chart domain, closed or a number of
boundary circles, (non-)orientability, Euler characteristic, manifold, or a board to complete.
Answers are connected boards whose gluing table is closed (it is the unit part of its own
closure) and consistent, each new up to isomorphism (:mod:`tapology.model.isomorphism`).

Two engines:

- ``enumerate`` — orderly generation (on one core, or cut at the tree's first branching choices
  into tasks for an executor, :mod:`tapology.parallel`): sides are decided in breadth-first
  order (tile, side); an open side is glued to a new tile (always in standard orientation: re-orienting a tile is
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import z3

from tapology.errors import SynthesisError, TapologyError
from tapology.model.atlas import Atlas
from tapology.model.board import Board, Fact, Taping
from tapology.model.domain import ChartDomain, domain_from_spec
from tapology.model.grid import ReferenceGrid, get_grid
from tapology.model.isomorphism import _Walker, canonical, components
from tapology.model.tape import board_tapings
from tapology.model.topology import Topology, classify
from tapology.parallel import SERIAL, Executor, cached, run_tasks
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


@dataclass
class _Node:
    """A node of the orderly generation: the closed atlas so far, tiles met, sides decided to stay open."""

    at: Atlas
    used: int
    left_open: frozenset[tuple[int, int]]


class _Tree:
    """The orderly generation's search tree (see the module doc): a node's children are its next open side taped to a
    new tile, to each open side of a tile met (each orientation), then left open; a child is None where the
    propagator refuses the taping.  Paths of child indices name nodes, so a worker can rebuild one from the root."""

    def __init__(self, req: Request) -> None:
        self.req = req
        grid = req.grid
        self.grid = grid
        self.grp = grid.group
        self.h = self.grp.order
        self.m = len(grid.directions)
        self.n = req.tiles
        self.unit = req.domain.unit_cells
        at0 = Atlas.of(_start_board(req))
        if at0.conflict is not None:
            raise SynthesisError("--from: the board is inconsistent")
        self.allow_open = not req.closed
        self.root = _Node(at0, self.n if req.base is not None else 1, frozenset())

    def side_open(self, at: Atlas, t: int, d: int) -> bool:
        """Whether side d of tile t is still open in the atlas."""
        return at.chart[t, self.unit[d]] < 0

    def next_side(self, node: _Node) -> tuple[int, int] | None:
        """The first open side (tile, side) in breadth-first order not decided open; None at a complete board."""
        for t in range(node.used):
            for d in range(self.m):
                if (t, d) not in node.left_open and self.side_open(node.at, t, d):
                    return t, d
        return None

    def options(self, node: _Node, side: tuple[int, int]) -> list[Fact]:
        """The tapings tried at a side, in order (a new tile first)."""
        t, d = side
        cell = self.grid.directions[d]
        options: list[Fact] = []
        if node.used < self.n:
            options.append(Fact(t, cell, node.used, 0))
        for u in range(node.used):
            for o in range(self.h):
                e = self.grid.dir_perm[self.grp.inv[o]][self.grid.opposite[d]]
                if (u, e) in node.left_open or not self.side_open(node.at, u, e):
                    continue
                options.append(Fact(t, cell, u, o))
        return options

    def arity(self, options: list[Fact]) -> int:
        """Children of a node with these options (leaving the side open is the last)."""
        return len(options) + (1 if self.allow_open else 0)

    def child(self, node: _Node, side: tuple[int, int], options: list[Fact], i: int) -> _Node | None:
        """The i-th child; None when the propagator refuses its taping."""
        if i == len(options):
            return _Node(node.at, node.used, node.left_open | {side})
        f = options[i]
        a2 = node.at.copy()
        if a2.tape([Taping(f, "")], explain=False) is not None:
            return None
        return _Node(a2, max(node.used, f.other + 1), node.left_open)

    def follow(self, path: tuple[int, ...]) -> _Node:
        """The node a path of child indices names."""
        node = self.root
        for i in path:
            side = self.next_side(node)
            assert side is not None
            got = self.child(node, side, self.options(node, side), i)
            assert got is not None, "a task path through a refused taping"
            node = got
        return node


def _search(tree: _Tree, node: _Node, res: Result, seen: set[str], limit: int | None, deadline: float | None,
            progress: Progress | None, clock: Callable[[], float] = time.monotonic) -> None:
    """Depth-first from ``node``, appending new boards to ``res``; raises :class:`_Stop` at the limit or deadline."""
    req = tree.req

    def rec(node: _Node) -> None:
        res.nodes += 1
        if res.nodes % 256 == 0:
            if progress is not None:
                progress(res.nodes, len(res.boards))
            if deadline is not None and clock() > deadline:
                res.timed_out = True
                raise _Stop
        side = tree.next_side(node)
        if side is None:
            if node.used == tree.n and _finish(req, node.at, seen, res) is not None:
                if progress is not None:
                    progress(res.nodes, len(res.boards))
                if limit is not None and len(res.boards) >= limit:
                    raise _Stop
            return
        options = tree.options(node, side)
        for i in range(tree.arity(options)):
            c = tree.child(node, side, options, i)
            if c is not None:
                rec(c)

    rec(node)


def enumerate_boards(req: Request, limit: int | None = None, deadline: float | None = None,
                     progress: Progress | None = None, *, ex: Executor = SERIAL,
                     task_progress: TaskProgress | None = None) -> Result:
    """All boards meeting ``req`` up to isomorphism, by orderly generation with the propagator (see module doc).

    With a parallel executor ``ex`` the tree is split at its first branching choices into paths
    (about :data:`TASKS_PER_WORKER` per worker), searched as tasks and merged in depth-first
    order: the same boards in the same order as the serial search, and the same node count.
    ``task_progress(done, total)`` hears after each task.
    """
    if ex.kind != "serial" and _parts(req) is not None:
        return _enumerate_split(req, limit, deadline, ex, task_progress)
    res = Result()
    seen: set[str] = set()
    tree = _Tree(req)
    try:
        _search(tree, tree.root, res, seen, limit, deadline, progress)
        res.complete = not res.timed_out
    except _Stop:
        res.complete = False
    except KeyboardInterrupt:
        res.interrupted = True
    return res


# ---- the same search split into tasks -------------------------------------------------------------------
TASKS_PER_WORKER = 16
MAX_SPLIT_DEPTH = 12
TaskProgress = Callable[[int, int], None]  # (tasks done, tasks)
_Parts = tuple  # a Request in picklable parts: grid name, domain spec, flags, base board's tables


def _parts(req: Request) -> _Parts | None:
    """A request as plain data a worker can rebuild it from; None for a grid that is not built in."""
    try:
        if get_grid(req.grid.name) != req.grid:
            return None
    except TapologyError:
        return None
    dom: str | list[list[int]] | tuple[tuple[int, ...], ...] = req.domain.spec()
    dom = dom if isinstance(dom, str) else tuple(tuple(c) for c in dom)
    base = None
    if req.base is not None:
        b = req.base
        base = (b.tiles, b.states, b.glue, b.extra)
    return (req.tiles, req.grid.name, dom, req.closed, req.boundary, req.orientable, req.euler, req.manifold, base)


def _request(parts: _Parts) -> Request:
    tiles, grid_name, dom, closed, boundary, orientable, euler, manifold, base = parts
    grid = get_grid(grid_name)
    domain = domain_from_spec(grid, dom if isinstance(dom, str) else [list(c) for c in dom])
    board = None
    if base is not None:
        board = Board(grid, domain, *base)
    return Request(tiles, grid, domain, closed, boundary, orientable, euler, manifold, board)


def _search_task(ctx: tuple[_Parts, float | None], path: tuple[int, ...]) -> tuple[list, int, bool]:
    """One task: the boards below a path (glue, extra, signature, topology; new within the task), nodes searched,
    and whether the deadline (wall clock) stopped it."""
    parts, deadline = ctx
    tree = cached(("synthesis-tree", parts), lambda: _Tree(_request(parts)))
    res = Result()
    try:
        _search(tree, tree.follow(path), res, set(), None, deadline, None, time.time)
    except _Stop:
        pass
    found = [(f.board.glue, f.board.extra, f.signature, f.topology) for f in res.boards]
    return found, res.nodes, res.timed_out


def _frontier(tree: _Tree, target: int, res: Result) -> list[tuple[str, object]]:
    """The tree's top, expanded level by level in depth-first order until there are ``target`` open paths:
    ("task", path) entries and ("found", node) for complete boards met on the way; expanded nodes are counted."""
    items: list[tuple[str, object]] = [("task", ((), tree.root))]
    for _level in range(MAX_SPLIT_DEPTH):
        tasks = sum(1 for kind, _ in items if kind == "task")
        if tasks == 0 or tasks >= target:
            break
        nxt: list[tuple[str, object]] = []
        for kind, item in items:
            if kind != "task":
                nxt.append((kind, item))
                continue
            path, node = cast("tuple[tuple[int, ...], _Node]", item)
            res.nodes += 1
            side = tree.next_side(node)
            if side is None:
                if node.used == tree.n:
                    nxt.append(("found", node))
                continue
            options = tree.options(node, side)
            for i in range(tree.arity(options)):
                c = tree.child(node, side, options, i)
                if c is not None:
                    nxt.append(("task", ((*path, i), c)))
        items = nxt
    return items


def _enumerate_split(req: Request, limit: int | None, deadline: float | None, ex: Executor,
                     task_progress: TaskProgress | None) -> Result:
    res = Result()
    seen: set[str] = set()
    tree = _Tree(req)
    items = _frontier(tree, TASKS_PER_WORKER * ex.size, res)
    paths = [item[0] for kind, item in items if kind == "task"]  # type: ignore[index]
    wall = None if deadline is None else time.time() + (deadline - time.monotonic())
    out = run_tasks(_search_task, paths, (_parts(req), wall), ex=ex, progress=task_progress)
    results = iter(out.results)
    stopped = False
    for kind, item in items:
        if limit is not None and len(res.boards) >= limit:
            stopped = True
            break
        if kind == "found":
            _finish(req, item.at, seen, res)  # type: ignore[attr-defined]
            continue
        got = next(results)
        if got is None:
            continue
        found, nodes, timed_out = got
        res.nodes += nodes
        res.timed_out |= timed_out
        for glue, extra, sig, topo in found:
            if sig in seen:
                continue
            seen.add(sig)
            res.boards.append(Found(Board(tree.grid, req.domain, _tile_ids(req), (0,) * req.tiles, glue, extra), sig,
                                    topo))
            if limit is not None and len(res.boards) >= limit:
                stopped = True
                break
    res.interrupted = not out.complete
    res.complete = out.complete and not res.timed_out and not stopped
    return res


@dataclass
class CensusRow:
    """The closed boards of one tile count: how many, by surface (orbifolds together), search nodes, time."""

    tiles: int
    boards: int
    surfaces: dict[str, int]
    nodes: int
    seconds: float
    complete: bool
    signatures: list[str] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, object]:
        """The row as JSON-ready data."""
        return {"tiles": self.tiles, "boards": self.boards, "surfaces": dict(self.surfaces), "nodes": self.nodes,
                "seconds": round(self.seconds, 3), "complete": self.complete}


def census(tiles: Iterable[int], grid: str = "square", domain: str | None = None, *, ex: Executor = SERIAL,
           task_progress: TaskProgress | None = None) -> list[CensusRow]:
    """The closed connected boards of each tile count, up to isomorphism, with their surfaces; stops at the first
    interrupted count (its row is marked incomplete).  Cost: the orderly generation per count."""
    rows = []
    for n in tiles:
        t0 = time.perf_counter()
        res = enumerate_boards(Request.make(tiles=n, grid=grid, domain=domain, closed=True), ex=ex,
                               task_progress=task_progress)
        surfaces: dict[str, int] = {}
        for f in res.boards:
            key = f.topology.surface if f.topology.manifold else "orbifold"
            surfaces[key] = surfaces.get(key, 0) + 1
        rows.append(CensusRow(n, len(res.boards), surfaces, res.nodes, time.perf_counter() - t0, res.complete,
                              [f.signature for f in res.boards]))
        if not res.complete:
            break
    return rows


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


def _glue_of(mdl: Any, K: list, T: list, R: list, tc: list, rc: list, h: int) -> list[tuple[int, ...]]:
    """The gluing table a z3 model gives (``K``: side glued, ``T``: to which tile, ``R``: with which turn)."""
    glue = []
    for kt, tt, rt in zip(K, T, R, strict=True):
        row = []
        for k, t, r in zip(kt, tt, rt, strict=True):
            if z3.is_true(mdl.eval(k, model_completion=True)):
                row.append(tc.index(mdl.eval(t, model_completion=True)) * h + rc.index(mdl.eval(r, model_completion=True)))
            else:
                row.append(-1)
        glue.append(tuple(row))
    return glue


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
            glue = _glue_of(s.model(), K, T, R, tc, rc, h)
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
               progress: Progress | None = None, *, ex: Executor = SERIAL,
               task_progress: TaskProgress | None = None) -> Result:
    """Boards meeting ``req``: ``engine`` ``enumerate``, ``z3`` or ``auto`` (enumerate); the enumeration runs as
    tasks on ``ex`` (``task_progress(done, total)``); z3 runs here."""
    deadline = None if timeout is None else time.monotonic() + timeout
    if engine in ("auto", "enumerate"):
        return enumerate_boards(req, limit, deadline, progress, ex=ex, task_progress=task_progress)
    if engine == "z3":
        return z3_boards(req, limit, deadline, progress)
    raise SynthesisError(f"--engine {engine!r}: use auto, enumerate or z3")

