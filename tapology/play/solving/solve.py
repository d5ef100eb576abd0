"""Exact game values and game-tree counts.

Two solvers give the same :class:`SolveResult`:

* :func:`solve_kinrow` — the fast path for k-in-a-row claim games: positions are bitmask
  keys ``x | o << n`` kept in numpy arrays one layer (number of marks) at a time, reduced
  to one representative per orbit of the game's symmetry group (the minimum key over the
  group, computed with per-byte lookup tables), then a backward pass gives the values.
  Path counts need no orbit sizes: the paths into a whole orbit are the sum, over the
  edges leaving representatives, of the paths into the parents' whole orbits.
* :func:`solve_game` — the reference for any :class:`tapology.game.Game`: memoised
  depth-first search over positions, no symmetry.

Values are read from the first player's side; ``plies`` is the length of optimal play
(the winner hurries, the loser delays; a drawn k-in-a-row game fills the board).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from math import comb, prod
from typing import Any

import numpy as np

from tapology.errors import SolveError
from tapology.game import ClaimGame, Game, Position
from tapology.parallel import SERIAL, Executor, cached, run_tasks, shutdown
from tapology.play.solving.symmetry import Perm, game_symmetries, preserves_lines

WIN = 1000  # score of a win in 0 plies; a win in d plies scores WIN - d
VALUES = {1: "first player wins", 0: "draw", -1: "second player wins"}

Progress = Callable[[str, int, int], None]



@dataclass
class SolveResult:
    """What a solve found; ``complete`` is False when it was interrupted (counts so far, no value)."""

    game: str
    board: str
    value: int | None
    plies: int | None
    positions: int
    terminal_positions: int
    games: int
    wins: dict[str, int]
    draws: int
    classes: int | None = None
    symmetries: int = 1
    group: str = "none"
    decided_draws: int | None = None
    seconds: float = 0.0
    method: str = ""
    complete: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    table: KinrowTable | None = field(default=None, repr=False)

    @property
    def n_layers(self) -> int | None:
        """The layers a k-in-a-row solve has (one per number of marks, from 0), when this is one."""
        return self.extra.get("tiles", -1) + 1 if "tiles" in self.extra else None

    def to_json(self) -> dict[str, Any]:
        """The issue's JSON shape, plus how the answer was found."""
        out: dict[str, Any] = {
            "game": self.game,
            "board": self.board,
            "value": VALUES[self.value] if self.value is not None else None,
            "plies": self.plies,
            "positions": self.positions,
            "terminal_positions": self.terminal_positions,
            "games": self.games,
            "wins": dict(self.wins),
            "draws": self.draws,
        }
        if self.decided_draws is not None:
            out["decided_draws"] = self.decided_draws
        out["symmetry"] = {"group": self.group, "order": self.symmetries, "classes": self.classes}
        out["method"] = self.method
        out["seconds"] = round(self.seconds, 3)
        out["complete"] = self.complete
        out.update(self.extra)
        return out


def score_plies(score: int, draw_plies: int) -> tuple[int, int]:
    """(value −1/0/1, plies) of a first-player score (WIN − d for a win in d plies)."""
    if score == 0:
        return 0, draw_plies
    return (1 if score > 0 else -1), WIN - abs(score)


# ---- bitmask tools (numpy) ------------------------------------------------------------
def key_luts(perms: list[Perm], n: int) -> np.ndarray:
    """Lookup tables ``lut[g, c, byte]``: the image under perm g of the key bits 8c..8c+7 set as in ``byte``."""
    nbits = 2 * n
    chunks = (nbits + 7) // 8
    lut = np.zeros((len(perms), chunks, 256), dtype=np.int64)
    byte = np.arange(256, dtype=np.int64)
    for g, p in enumerate(perms):
        img = [p[b] if b < n else n + p[b - n] for b in range(nbits)]
        for c in range(chunks):
            acc = np.zeros(256, dtype=np.int64)
            for j in range(8):
                b = 8 * c + j
                if b < nbits:
                    acc |= ((byte >> j) & 1) << img[b]
            lut[g, c] = acc
    return lut


BLOCK = 1 << 16  # keys per block in canon and stabilisers: the work arrays stay in cache, memory stays bounded


def _images(keys: np.ndarray, lut: np.ndarray) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """For each block of keys and each group element g ≥ 1: (block start, the block, its images under g) — the
    image array is reused.  Cost |G|·chunks table look-ups per key."""
    nch = lut.shape[1]
    for a in range(0, len(keys), BLOCK):
        k = keys[a:a + BLOCK]
        chunks = [((k >> (8 * c)) & 255).astype(np.intp) for c in range(nch)]
        img = np.empty_like(k)
        tmp = np.empty_like(k)
        for g in range(1, lut.shape[0]):
            np.take(lut[g, 0], chunks[0], out=img)
            for c in range(1, nch):
                np.take(lut[g, c], chunks[c], out=tmp)
                img |= tmp
            yield a, k, img


def canon(keys: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """The least image of each key under the group.  Cost |G|·chunks per key."""
    best = keys.copy()
    for a, k, img in _images(keys, lut):
        np.minimum(best[a:a + len(k)], img, out=best[a:a + len(k)])
    return best


def canon_one(key: int, lut: list, chunks: int) -> int:
    """The least image of one key under the group, in plain Python (``lut`` as nested lists).  Cost |G|·chunks."""
    parts = [(key >> (8 * c)) & 255 for c in range(chunks)]
    best = key
    for tab in lut:
        img = 0
        for c, b in enumerate(parts):
            img |= tab[c][b]
        if img < best:
            best = img
    return best


def stabilisers(keys: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """How many group elements fix each key (the orbit has |G| / that many members)."""
    count = np.ones(len(keys), dtype=np.int64)
    for a, k, img in _images(keys, lut):
        count[a:a + len(k)] += img == k
    return count


def _any_line(masks: np.ndarray, lines: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(len(masks), dtype=bool)
    for m in lines:
        out |= (masks & m) == m
    return out


def _decided_draws(game: ClaimGame, x: np.ndarray, o: np.ndarray, to_move: int) -> np.ndarray:
    """Vectorised :meth:`KInARow.dead_draw` for positions that are not over.  Each mask is tested only on the
    positions no earlier mask has kept alive (most are settled by the first few)."""
    empties = game.n - np.bitwise_count(x | o).astype(np.int64)
    claims_x = (empties + 1) // 2 if to_move == 0 else empties // 2
    claims_o = empties - claims_x
    dead = np.ones(len(x), dtype=bool)
    rest = np.arange(len(x))
    tests = [(m, 0) for m in game.masks] + [(m, 1) for m in game.masks_o]  # O's own win masks in a connection game
    for m, who in tests:
        if not len(rest):
            break
        xs, os_ = x[rest], o[rest]
        if who == 0:
            alive = ((os_ & m) == 0) & (np.bitwise_count(m & ~xs).astype(np.int64) <= claims_x[rest])
        else:
            alive = ((xs & m) == 0) & (np.bitwise_count(m & ~os_).astype(np.int64) <= claims_o[rest])
        dead[rest[alive]] = False
        rest = rest[~alive]
    return dead


class KinrowTable:
    """Exact scores of every reachable position of a solved k-in-a-row game, looked up by bitmasks.

    ``score(x, o)`` is from the side to move (WIN − d: wins in d plies; −(WIN − d): loses
    in d plies; 0: draw).  Lookups canonicalise in plain Python: cost |G|·chunks.
    """

    def __init__(self, game: ClaimGame, lut: np.ndarray, layers: list[np.ndarray], scores: list[np.ndarray]) -> None:
        self.game = game
        self.n = game.n
        self.lut = lut.tolist()
        self.chunks = lut.shape[1]
        self.scores: dict[int, int] = {}
        for keys, sc in zip(layers, scores, strict=True):
            self.scores.update(zip(keys.tolist(), sc.tolist(), strict=True))

    def canon(self, key: int) -> int:
        """The orbit representative of a key."""
        return canon_one(key, self.lut, self.chunks)

    def score(self, x: int, o: int) -> int:
        """Score of a reachable position from the side to move; KeyError if it cannot be reached."""
        return self.scores[self.canon(x | o << self.n)]


def expand(keys: np.ndarray, n: int, shift: int, lut: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The children of live positions (the mover's bit at ``shift``): (index of each edge's parent in ``keys``,
    the sorted distinct orbit representatives, each edge's child as an index into them).  Cost |G| per edge."""
    x, o = keys & ((1 << n) - 1), keys >> n
    parents, children = [], []
    for t in range(n):
        idx = np.nonzero(((x | o) >> t & 1) == 0)[0]
        parents.append(idx)
        children.append(keys[idx] | np.int64(1) << (t + shift))
    par = np.concatenate(parents)
    uniq, inv = np.unique(canon(np.concatenate(children), lut), return_inverse=True)
    return par, uniq, inv


# ---- layers split into position ranges (tasks on an executor) --------------------------------------
SPLIT_MIN = 20_000  # layers with fewer live positions are expanded here
RANGES_PER_WORKER = 4


def _lut_of(perms: tuple[Perm, ...], n: int) -> np.ndarray:
    return cached(("solve-lut", n, perms), lambda: key_luts(list(perms), n))


def _layer_task(ctx: tuple[int, tuple[Perm, ...]], task: tuple[str, np.ndarray, int]) -> tuple[np.ndarray, ...]:
    """One range of a layer: ("expand", keys, shift) -> :func:`expand`; ("stab", keys, 0) -> stabiliser counts."""
    n, perms = ctx
    kind, keys, shift = task
    lut = _lut_of(perms, n)
    if kind == "stab":
        return (stabilisers(keys, lut).astype(np.int32),)
    par, uniq, inv = expand(keys, n, shift, lut)
    return par.astype(np.int32), uniq, inv.astype(np.int32)  # half the bytes to send back (ranges hold < 2³¹)


def _ranges(total: int, ex: Executor) -> list[tuple[int, int]]:
    k = max(1, min(total // (SPLIT_MIN // 4), RANGES_PER_WORKER * ex.size))
    bounds = np.linspace(0, total, k + 1).astype(np.int64)
    return [(int(a), int(b)) for a, b in pairwise(bounds.tolist()) if b > a]


def _sorted_distinct(a: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (a sort and a comparison: faster here than np.unique's hashing)."""
    a.sort()
    if len(a) == 0:
        return a
    keep = np.empty(len(a), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _expand_split(keys: np.ndarray, live: np.ndarray, n: int, shift: int, perms: list[Perm],
                  ex: Executor) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`expand` over ranges of the live positions as tasks, merged; None when interrupted."""
    ranges = _ranges(len(live), ex)
    tasks = [("expand", keys[live[a:b]], shift) for a, b in ranges]
    out = run_tasks(_layer_task, tasks, (n, tuple(perms)), ex=ex)
    if not out.complete:
        return None
    uniq = _sorted_distinct(np.concatenate([r[1] for r in out.results]))  # type: ignore[index]
    pars, invs = [], []
    for (a, b), r in zip(ranges, out.results, strict=True):
        lpar, luniq, linv = r  # type: ignore[misc]
        pars.append(live[a:b][lpar])
        invs.append(np.searchsorted(uniq, luniq)[linv])
    return np.concatenate(pars), uniq, np.concatenate(invs)


def _stabilisers_split(keys: np.ndarray, perms: list[Perm], ex: Executor) -> np.ndarray | None:
    """:func:`stabilisers` over ranges of a layer as tasks; None when interrupted."""
    n = len(perms[0])
    ranges = _ranges(len(keys), ex)
    out = run_tasks(_layer_task, [("stab", keys[a:b], 0) for a, b in ranges], (n, tuple(perms)), ex=ex)
    if not out.complete:
        return None
    return np.concatenate([r[0] for r in out.results])  # type: ignore[index]


def _layer_counts(game: ClaimGame, keys: np.ndarray, p: int, orbit: np.ndarray, term: np.ndarray, w: np.ndarray,
                  paths: np.ndarray) -> tuple[int, int, int, int, int, int, int, int]:
    """One layer's (classes, positions, terminal positions, games ending here, X wins, O wins, draws, decided
    draws)."""
    n = game.n
    pt, wt = paths[term], w[term]
    live = ~term
    decided = 0
    if live.any():
        x, o = keys[live] & ((1 << n) - 1), keys[live] >> n
        decided = int(orbit[live][_decided_draws(game, x, o, p % 2)].sum())
    return (len(keys), int(orbit.sum()), int(orbit[term].sum()), int(pt.sum()), int(pt[wt == 0].sum()),
            int(pt[wt == 1].sum()), int(pt[wt == -1].sum()), decided)


AUTO_SYMMETRY = 200_000  # reduce by symmetry when 3**n exceeds this (below it the group costs more than it saves)


def _ends(keys: np.ndarray, n: int, lines: tuple[int, ...], stop_at_line: bool, p: int,
          lines_o: tuple[int, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Which positions of layer ``p`` are over, and their winner (-1 none, 0 X, 1 O; the last mover's line where both
    have one).  ``lines_o``: O's win masks where they are not X's (a connection game)."""
    low = (1 << n) - 1
    x, o = keys & low, keys >> n
    xw, ow = _any_line(x, lines), _any_line(o, lines if lines_o is None else lines_o)
    full = (x | o) == low
    term = xw | ow | full if stop_at_line else full
    w = np.full(len(keys), -1, dtype=np.int8)
    w[term & xw & ~ow] = 0
    w[term & ow & ~xw] = 1
    if stop_at_line:
        w[term & xw & ow] = int(p % 2 == 0)  # the last mover's line
    return term, w


def _children(keys: np.ndarray, live: np.ndarray, n: int, p: int, perms: list[Perm], lut: np.ndarray,
              ex: Executor | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(parent index, next layer, index of each child in it) of the live positions of layer ``p``; split into tasks on
    ``ex`` for a big layer; KeyboardInterrupt when a task run was stopped."""
    shift = 0 if p % 2 == 0 else n
    if ex is not None and len(live) >= SPLIT_MIN:
        got = _expand_split(keys, live, n, shift, perms, ex)
        if got is None:
            raise KeyboardInterrupt
        return got
    lpar, uniq, inv = expand(keys[live], n, shift, lut)
    return live[lpar], uniq, inv


def solve_kinrow(game: ClaimGame, *, symmetry: bool | None = None, progress: Progress | None = None,
                 board_name: str = "", keep_table: bool = False, ex: Executor = SERIAL,
                 low_memory: bool = False) -> SolveResult:
    """Solve a k-in-a-row game exactly, with game-tree counts.  Cost ~ (positions / |G|)·(n + |G|) numpy element steps.

    ``symmetry``: reduce by the game's symmetry group (True), not (False), or only on boards
    big enough for it to pay (None: when 3**n > :data:`AUTO_SYMMETRY`).  With a parallel
    executor ``ex``, layers of at least :data:`SPLIT_MIN` positions are expanded (children,
    orbit representatives) and their orbit sizes counted in position ranges as tasks; the
    merge and the backward pass run here.  Same figures on every executor.
    """
    import time

    t0 = time.perf_counter()
    n = game.n
    if symmetry is None:
        symmetry = 3 ** n > AUTO_SYMMETRY
    if 2 * n > 62:
        raise SolveError(f"{game.name}: {n} tiles is too many for the layered solver (at most 31)")
    if symmetry:
        perms, group = game_symmetries(game.board, game.lines)
        if game.masks_o != game.masks:  # a connection game: the maps that keep each player's sets
            perms = [q for q in perms if preserves_lines(q, game.lines_o)]
    else:
        perms, group = [tuple(range(n))], "none"
    lut = key_luts(perms, n)
    order = len(perms)
    split = ex.kind != "serial"
    dtype: Any = np.int64 if n <= 20 else object
    lines = game.masks
    layers: list[np.ndarray] = [np.zeros(1, dtype=np.int64)]
    paths: list[np.ndarray] = [np.ones(1, dtype=dtype)]
    terminal: list[np.ndarray] = []
    winner: list[np.ndarray] = []  # -1 none, 0 X, 1 O (only on terminal entries)
    edges: list[tuple[np.ndarray, np.ndarray]] = []
    rows: list[tuple[int, int, int, int, int, int, int, int]] = []  # per layer counted: see _layer_counts
    complete = True
    try:
        for p in range(n + 1):
            keys = layers[p]
            term, w = _ends(keys, n, lines, game.stop_at_line, p, game.masks_o)
            # this layer's orbit sizes and counts, so that a stop keeps every layer counted so far
            stab = _stabilisers_split(keys, perms, ex) if split and len(keys) >= SPLIT_MIN else stabilisers(keys, lut)
            if stab is None:
                raise KeyboardInterrupt
            row = _layer_counts(game, keys, p, order // stab, term, w, paths[p])
            terminal.append(term)
            winner.append(w)
            rows.append(row)
            if progress:
                progress(f"layers: {p} marks, {row[0]:,} classes", p + 1, n + 1)
            if p == n:
                break
            par, uniq, inv = _children(keys, np.nonzero(~term)[0], n, p, perms, lut, ex if split else None)
            nxt = np.zeros(len(uniq), dtype=dtype)
            np.add.at(nxt, inv, paths[p][par])
            if not low_memory:
                edges.append((par, inv))
            layers.append(uniq)
            paths.append(nxt)
    except KeyboardInterrupt:
        complete = False
        if split:
            shutdown()  # wherever the stop came, no worker is left waiting for the next layer
    del layers[len(rows):]  # a layer found but not counted when the stop came
    classes, positions, terminal_positions, games, wx, wo, draws, decided = (sum(r[i] for r in rows) for i in range(8))
    wins = dict(zip(game.players, (wx, wo), strict=True))
    per_layer = [{"marks": p, "classes": r[0], "positions": r[1]} for p, r in enumerate(rows)]
    value = plies = None
    table = None
    if complete:
        # backward pass: negamax scores from the side to move
        score: list[np.ndarray | None] = [None] * len(layers)
        try:
            for p in range(len(layers) - 1, -1, -1):
                s = np.zeros(len(layers[p]), dtype=np.int32)
                term = terminal[p]
                w = winner[p]
                mover = p % 2
                s[term & (w == mover)] = WIN
                s[term & (w == 1 - mover)] = -WIN
                if p < len(layers) - 1:
                    if low_memory:  # the edges again: the children of the live positions are exactly layer p + 1
                        par, _uniq, inv = _children(layers[p], np.nonzero(~term)[0], n, p, perms, lut,
                                                    ex if split else None)
                    else:
                        par, inv = edges[p]
                    best = np.full(len(s), -2 * WIN, dtype=np.int32)
                    np.maximum.at(best, par, -score[p + 1][inv])  # type: ignore[index]
                    nt = ~term
                    b = best[nt]
                    s[nt] = np.where(b > 0, b - 1, np.where(b < 0, b + 1, 0))
                score[p] = s
                if progress:
                    progress("values", len(layers) - p, len(layers))
        except KeyboardInterrupt:
            complete = False
            if split:
                shutdown()
    if complete:
        root = int(score[0][0])  # type: ignore[index]
        value, plies = score_plies(root, n)
        if keep_table:
            table = KinrowTable(game, lut, layers, score)  # type: ignore[arg-type]
    return SolveResult(game.name, board_name, value, plies, positions, terminal_positions, games, wins, draws,
                       classes=classes, symmetries=order, group=group, decided_draws=decided,
                       seconds=time.perf_counter() - t0,
                       method="layered bitmasks" + (" + symmetry" if symmetry else "") + (", low memory" if low_memory else ""),
                       complete=complete, table=table,
                       extra={} if complete else {"tiles": n, "layers_done": len(rows), "layers": per_layer})


# ---- what a solve would take, said before it starts ---------------------------------------------------
KINROW_REACH = 10**9  # classes the layered solver can hold (about 180 bytes each with the edges kept)
GENERIC_REACH = 10**8  # positions the memoised search can hold (a Python dict entry per position)


def kinrow_layer_bounds(n: int) -> list[int]:
    """An upper bound on the positions with p marks, p = 0..n: X holds ⌈p/2⌉ tiles and O ⌊p/2⌋ (lines ignored)."""
    return [comb(n, (p + 1) // 2) * comb(n - (p + 1) // 2, p // 2) for p in range(n + 1)]


@dataclass
class SolvePlan:
    """The estimate of a solve's work, before it starts: a bound on the positions (per layer for k-in-a-row games),
    the symmetry group that divides it, and why the solve is beyond reach when it is."""

    game: str
    board: str
    method: str
    bound: int
    how: str
    order: int = 1
    layers: list[int] = field(default_factory=list)
    beyond: str | None = None

    @property
    def classes(self) -> int:
        """About how many classes the bound makes under the group (at least bound / order)."""
        return -(-self.bound // self.order)

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON-ready data."""
        return {"method": self.method, "position_bound": self.bound, "bound_from": self.how,
                "group_order": self.order, "class_estimate": self.classes,
                "layer_bounds": self.layers, "beyond_reach": self.beyond}

    def text(self) -> str:
        """One line for people."""
        head = f"solve {self.game} on {self.board}: at most {self.bound:.3g} positions ({self.how})"
        if self.order > 1:
            head += f", about {self.classes:.3g} classes under a group of order {self.order}"
        if self.layers:
            head += f"; {len(self.layers)} layers, the largest ≤ {max(self.layers):.3g} positions"
        return head + f"; {self.method}"


def kinrow_plan(game: ClaimGame, symmetry: bool | None = None, board_name: str = "") -> SolvePlan:
    """The layered solver's work on a k-in-a-row game: the positions per number of marks (lines ignored), divided
    by the symmetry group it will use; beyond reach past :data:`KINROW_REACH` classes or 31 tiles."""
    n = game.n
    layers = kinrow_layer_bounds(n)
    use = 3 ** n > AUTO_SYMMETRY if symmetry is None else symmetry
    order = len(game_symmetries(game.board, game.lines)[0]) if use and 2 * n <= 62 else 1
    plan = SolvePlan(game.name, board_name, "layered bitmasks" + (" + symmetry" if use else ""), sum(layers),
                     f"X and O marks on {n} tiles", order, layers)
    if 2 * n > 62:
        plan.beyond = f"{n} tiles: the layered solver keeps a position in 62 bits (at most 31 tiles)"
    elif plan.classes > KINROW_REACH:
        plan.beyond = (f"about {plan.classes:.2g} classes to keep, more than the {KINROW_REACH:.0e} the layered solver "
                       f"can hold (~180 bytes each)")
    return plan


def game_plan(game: Game, states: int, tiles: int, tape_sides: int = 0, orientations: int = 1,
              board_name: str = "") -> SolvePlan:
    """The memoised search's work on a rule game: ``states`` per tile on ``tiles`` tiles (and, for games with tape
    turns, the ways to tape ``tape_sides`` open sides in pairs, each pair in ``orientations`` ways); beyond reach
    past :data:`GENERIC_REACH` positions."""
    bound = states ** tiles
    how = f"{states} states on each of {tiles} tiles"
    if tape_sides:
        tapings = sum(comb(tape_sides, 2 * k) * prod(range(1, 2 * k, 2)) * orientations ** k
                      for k in range(tape_sides // 2 + 1))
        bound *= tapings
        how += f", times {tapings:.3g} ways to tape {tape_sides} open sides"
    plan = SolvePlan(game.name, board_name, "memoised search", bound, how)
    if bound > GENERIC_REACH:
        plan.beyond = (f"up to {bound:.2g} positions ({how}); the memoised search keeps every position it meets "
                       f"and can hold about {GENERIC_REACH:.0e}")
    return plan


# ---- the reference: memoised search over any Game ----------------------------------
def solve_game(game: Game, *, progress: Progress | None = None, board_name: str = "",
               draw_plies: Callable[[Position], int] | None = None, deadline: float | None = None,
               max_positions: int | None = None) -> SolveResult:
    """Solve any finite two-player game through its ``turns``/``outcome``: memoised search, no symmetry.

    Scores are from the first player's side, a win in d plies scoring WIN − d; in a draw
    the longest drawn line of play is the game's length.  Cost: one ``turns`` call per
    reachable position.  Past ``deadline`` (a ``time.monotonic()`` value) or ``max_positions`` it stops as
    Ctrl-C does: the counts so far, ``complete`` False.
    """
    import time

    t0 = time.perf_counter()
    players = tuple(game.players)
    if len(players) != 2:
        raise SolveError(f"{game.name}: solve handles two-player games, this one has {len(players)} players")
    first = players[0]
    # per position: (score, draw length, games, wins first, wins second, draws)
    # positions as the game tells them apart (a rule game drops the ply where no end rule reads it: a play that
    # comes back to a position is then a cycle, refused, instead of a search that never ends)
    key: Callable[[Position], Hashable] = getattr(game, "search_key", lambda p: p)
    memo: dict[Hashable, tuple[int, int, int, int, int, int]] = {}
    terminal = 0
    complete = True
    start = game.initial()
    stack: list[tuple[Position, list[Position] | None]] = [(start, None)]
    on_path: set[Hashable] = set()
    try:
        while stack:
            if (deadline is not None and len(memo) % 256 == 0 and time.monotonic() > deadline) or \
                    (max_positions is not None and len(memo) > max_positions):
                raise KeyboardInterrupt
            pos, kids = stack[-1]
            pk = key(pos)
            if kids is None and pk in memo:
                stack.pop()
                continue
            if kids is None:
                out = game.outcome(pos)
                if out is not None:
                    terminal += 1
                    r = out.get(first, 0)
                    memo[pk] = (WIN * r, 0, 1, int(r > 0), int(r < 0), int(r == 0))
                    stack.pop()
                    if progress and len(memo) % 1000 == 0:
                        progress("positions", len(memo), 0)
                    continue
                kids = [t.result for t in game.turns(pos)]
                if not kids:
                    raise SolveError(f"{game.name}: a position with no legal turn has no outcome (ply {pos.ply})")
                stack[-1] = (pos, kids)
                on_path.add(pk)
                for c in kids:
                    if key(c) in on_path:
                        raise SolveError(f"{game.name}: the game can repeat a position (ply {c.ply}); solve needs a finite game")
                    if key(c) not in memo:
                        stack.append((c, None))
                continue
            stack.pop()
            on_path.discard(pk)
            vals = [memo[key(c)] for c in kids]
            scores = [v[0] for v in vals]
            b = max(scores) if players[pos.to_move] == first else min(scores)
            s = b - 1 if b > 0 else b + 1 if b < 0 else 0
            dl = 1 + max((v[1] for v in vals if v[0] == 0), default=-1)
            memo[pk] = (s, dl, sum(v[2] for v in vals), sum(v[3] for v in vals), sum(v[4] for v in vals),
                         sum(v[5] for v in vals))
            if progress and len(memo) % 1000 == 0:
                progress("positions", len(memo), 0)
    except KeyboardInterrupt:
        complete = False
    if not complete or key(start) not in memo:
        return SolveResult(game.name, board_name, None, None, len(memo), terminal, 0, {players[0]: 0, players[1]: 0}, 0,
                           seconds=time.perf_counter() - t0, method="memoised search", complete=False)
    s, dl, g, w1, w2, d = memo[key(start)]
    value, plies = score_plies(s, dl)
    return SolveResult(game.name, board_name, value, plies, len(memo), terminal, g, {players[0]: w1, players[1]: w2}, d,
                       classes=len(memo), seconds=time.perf_counter() - t0, method="memoised search")
