"""Legal move chains as all solutions of a finite-domain CSP (python-constraint; the ``csp`` backend).

Variables ``c_0 … c_{L-1}`` range over the placed moves that can be step i (see
:func:`tapology.rules.z3enum.candidates`) and −1 (stopped).  One constraint per prefix
replays it: every step fits, follows a link of the step before, repeats no slide's tile
(:func:`tapology.rules.chains.revisits`), and reaches a position as the chain walk allows (a stop not passed, or one
a slide only flew through; a slide may fly over a stop and go on); a chain stops only where no forced follow-up is
taken, and never where a slide flies over a stop.  The bound L grows until no chain can use
all of it.  Cost: the solver's backtracking over prefixes.
"""

from __future__ import annotations

from constraint import FunctionConstraint, Problem

from tapology.errors import RuleError
from tapology.rules.chains import Chains, conditions_hold, has_line_of, revisits
from tapology.rules.compiled import App, Compiled
from tapology.rules.z3enum import MAX_STEPS, candidates, record


def _still(comp: Compiled, app: App, work: list[int]) -> bool:
    """A block move that leaves its block as it was: taken all the same, and it ends the chain (chains.py)."""
    return app.move in comp.rules.block_moves and all(work[u] == v for u, v in comp.new_values(app, work))


class _Trail:
    """The positions a chain prefix passed, read as the chain walk reads them (chains.py ``visited``/``mid``): how
    often each was reached, those a slide only flew through (no stop yet: a move may land there), and whether the
    last was flown over (only the same slide may go on from there)."""

    __slots__ = ("fly", "key", "mid", "still", "visited")

    def __init__(self) -> None:
        self.visited: dict[frozenset, int] = {frozenset(): 1}
        self.mid: set[frozenset] = set()
        self.key: frozenset = frozenset()
        self.fly = False
        self.still = False  # the last move was a block move that changed nothing: the chain ends there

    def copy(self) -> _Trail:
        """A trail of its own with the same record (each follow-up tried goes on from one)."""
        out = _Trail()
        out.visited, out.mid = dict(self.visited), set(self.mid)
        out.key, out.fly, out.still = self.key, self.fly, self.still
        return out

    def enter(self, comp: Compiled, prev: int, a: int, key: frozenset) -> bool:
        """Move ``a`` (after ``prev``, -1 at the start) reaches the position ``key``: False where the walk refuses it
        (a position the chain stopped at, reached by a move that is not a slide, or a slide's position left by
        another move); else the trail records it."""
        groups = comp.rules.slide_groups
        on = prev >= 0 and _group(comp, prev) >= 0 and _group(comp, a) == _group(comp, prev)  # the slide flies on
        if self.fly and not on:
            return False
        if on and not self.fly:
            self.mid.add(self.key)  # the position the slide flew on from: no stop (yet)
        landed = key in self.mid
        fly = key in self.visited and not landed
        if fly and not (comp.apps[a].move >= 0 and groups[comp.apps[a].move] >= 0):
            return False
        self.visited[key] = self.visited.get(key, 0) + 1
        if landed:
            self.mid.discard(key)
        self.key, self.fly = key, fly
        return True


def _group(comp: Compiled, a: int) -> int:
    """The slide application ``a`` belongs to (-1: it does not slide)."""
    mi = comp.apps[a].move
    return comp.rules.slide_groups[mi] if mi >= 0 else -1


def _replay(comp: Compiled, codes: list[int], seq: tuple[int, ...],
            move_cleanups=None) -> tuple[list[int], _Trail] | None:
    """The codes after a prefix and the positions it passed (:class:`_Trail`); None if the prefix is not a chain
    prefix (its last position may still be one a slide flies over: a complete chain may not end there)."""
    work = list(codes)
    trail = _Trail()
    prev = -1
    if _spent(comp, seq) > comp.rules.steps > 0:
        return None  # the moves cost more steps than the turn's budget
    for k, a in enumerate(seq):
        if a < 0:
            break
        if trail.still:
            return None  # nothing follows a block move that changed nothing
        if prev >= 0 and a not in {j for _f, ids in _open_links(comp, prev, work) for j in ids}:
            return None
        app = comp.apps[a]
        if not comp.fits(app, work) or revisits(comp, seq[:k], app):
            return None
        if _still(comp, app, work):
            if trail.fly:
                return None  # a slide flown over a stop goes on with the same slide
            trail.still = True
            prev = a
            continue
        for u, v in comp.new_values(app, work):
            work[u] = v
        if move_cleanups is not None:
            move_cleanups(work)
        key = frozenset((u, work[u]) for u in range(len(work)) if work[u] != codes[u])
        if not trail.enter(comp, prev, a, key):
            return None
        prev = a
    return work, trail


def _spent(comp: Compiled, seq) -> int:
    """The steps a chain's moves spend (a rule set with a step budget)."""
    moves = comp.rules.moves
    return sum(moves[comp.apps[a].move].cost for a in seq if a >= 0)


def _open_links(comp: Compiled, a: int, work: list[int]) -> list[tuple[bool, tuple[int, ...]]]:
    """The links of application ``a`` whose count conditions hold on ``work`` (chains.py follows only those); an
    anywhere link's placements in the frame of the piece on each tile (:meth:`Compiled.link_table`)."""
    app = comp.apps[a]
    links = comp.links(a)
    conds = app.link_conds or ((),) * len(links)
    lines = app.link_lines or (0,) * len(links)
    out = []
    for li, (lk, cs, k) in enumerate(zip(links, conds, lines, strict=True)):
        if (not cs or conditions_hold(comp, work, cs, app.player, app.end)) \
                and (not k or not has_line_of(comp, work, k, app.player)):  # until-line: stops once the mover has a line
            table = comp.link_table(a, li)
            if table is not None:
                lk = (lk[0], tuple(j for t in range(comp.n) for j in table[t].get(work[t], ())))
            out.append(lk)
    return out


def _go_on(comp: Compiled, codes: list[int], work: list[int], trail: _Trail, seq: tuple[int, ...],
           forced_only: bool, move_cleanups=None) -> bool:
    """Some (forced) follow-up of the chain ``seq`` is taken as the chain walk takes it: it fits ``work``, repeats
    no slide's tile, and reaches a new position, one a slide only flew through, or (a slide) flies over a stop and
    some follow-up of the same slide is taken from there.  Cost: the follow-ups, and a flown-over slide's run."""
    if trail.still:
        return False  # a block move that changed nothing ended the chain
    budget = comp.rules.steps
    spent = _spent(comp, seq) if budget else 0
    for forced, ids in _open_links(comp, seq[-1], work):
        if forced_only and not forced and not trail.fly:
            continue
        for j in ids:
            b = comp.apps[j]
            if budget and spent + comp.rules.moves[b.move].cost > budget:
                continue  # no steps left for it
            if not comp.fits(b, work) or revisits(comp, seq, b):
                continue
            if _still(comp, b, work):
                if trail.fly:
                    continue
                return True
            new = list(work)
            for u, v in comp.new_values(b, work):
                new[u] = v
            if move_cleanups is not None:
                move_cleanups(new)
            after = trail.copy()
            if not after.enter(comp, seq[-1], j, frozenset((u, new[u]) for u in range(len(new)) if new[u] != codes[u])):
                continue
            if not after.fly or _go_on(comp, codes, new, after, (*seq, j), False, move_cleanups):
                return True
    return False


def _problem(comp: Compiled, codes: list[int], cands: list[list[int]], steps: int, mc=None) -> Problem:
    pb = Problem()
    names = [f"c{i}" for i in range(steps)]
    for i in range(steps):
        pb.addVariable(names[i], ([] if i == 0 else [-1]) + cands[i])

    def prefix_ok(*seq: int) -> bool:
        k = len(seq) - 1
        if k > 0 and seq[k - 1] < 0 and seq[k] >= 0:
            return False
        if seq[k] < 0:
            if k == 0 or seq[k - 1] < 0:
                return True
            got = _replay(comp, codes, seq[:k], mc)  # a chain ends on no position a slide flies over
            return got is not None and not got[1].fly and not _go_on(comp, codes, got[0], got[1], seq[:k], True, mc)
        return _replay(comp, codes, seq, mc) is not None

    for k in range(steps):
        pb.addConstraint(FunctionConstraint(prefix_ok), names[: k + 1])
    return pb


def csp_chains(chains: Chains, codes: list[int], player: int, phase: int = -1) -> dict:
    """The legal chains by key, found as all CSP solutions (see the module docstring); ``phase``: the index of the
    phase the turn is played in (-1: the regular play)."""
    mc = None
    comp = chains.comp
    if chains.has_move_cleanup:
        def mc(work: list[int]) -> None:
            chains.run_cleanups(work, player, "move")
    steps = 1
    while True:
        cands = candidates(comp, codes, player, steps, phase)
        if not cands[0]:
            return {}
        pb = _problem(comp, codes, cands, steps, mc)
        last = f"c{steps - 1}"

        def overflow(*seq: int) -> bool:
            if seq[-1] < 0:
                return False
            got = _replay(comp, codes, seq, mc)
            return got is not None and _go_on(comp, codes, got[0], got[1], seq, False, mc)

        pb.addConstraint(FunctionConstraint(overflow), [f"c{i}" for i in range(steps)])
        if pb.getSolution() is None:
            break
        steps += 1
        if steps > MAX_STEPS:
            raise RuleError(f"{chains.rules.source}: the csp backend stops at chains of {MAX_STEPS} moves; this "
                            "position has longer ones (use --backend propagate)")
    del last
    found: dict = {}
    for sol in _problem(comp, codes, cands, steps, mc).getSolutionIter():
        seq = [sol[f"c{i}"] for i in range(steps)]
        seq = seq[: seq.index(-1)] if -1 in seq else seq
        got = _replay(comp, codes, tuple(seq), mc)
        assert got is not None
        record(chains, codes, got[0], player, seq, found)
    return found
