"""What one rewrite does to the counts of tile states: ranking functions and induction over rewrites.

A turn of a rule set is a chain of placed moves (an entry move, then follow-ups through links)
and the turn's clean-ups, or a taping.  Each placed move or clean-up (a compiled application
on the board, :class:`tapology.rules.compiled.App`) reads some tiles and writes some; over the
states its tiles may hold before, it changes the count of each state by one of a few **delta
vectors**.  Two proofs read only these vectors, so they hold on every position, reachable or
not, without a search:

* **ranking** (termination): non-negative integer weights ``w`` on the states (and on open
  sides, when players may tape) such that every entry move lowers ``Σ w·count`` by at least
  one and no follow-up or clean-up raises it; a taping closes at least two open sides.  Then
  every turn lowers the measure, which never goes below 0, so every play ends within
  ``measure(start)`` turns.  z3's Optimize finds the weights giving the least such bound.
* **induction over rewrites** (invariants): a predicate over state counts that holds at the
  start and is kept by every single rewrite holds after every turn; a relation between a
  position and the one before it (``prev``) that every rewrite satisfies and that is
  transitive holds across every turn.  z3 decides each step over all counts.

Placements are read under every orientation of the grid (a superset of the orientations the
engine uses), so the proofs are conservative.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import PredicateError, TapologyError
from tapology.game import Position
from tapology.play.analysis.predicate import Node, term_names, to_z3
from tapology.rules.compiled import App, Compiled
from tapology.rules.engine import RuleGame

ENTRY, FOLLOW, CLEANUP = "entry", "follow-up", "clean-up"


@dataclass(frozen=True)
class Effect:
    """One way a rewrite can change the state counts: ``need[s]`` tiles in state s before (at least), ``delta[s]``
    the change of the count of state s; ``kind`` entry, follow-up or clean-up; ``name`` the move."""

    kind: str
    name: str
    need: tuple[int, ...]
    delta: tuple[int, ...]


@dataclass
class Effects:
    """Every distinct effect of the rule set's rewrites on one board, and whether players may tape."""

    states: tuple[int, ...]  # state values, the index of the vectors
    names: tuple[str, ...]
    effects: list[Effect] = field(default_factory=list)
    tapes: bool = False
    apps: int = 0

    def to_json(self) -> dict[str, Any]:
        """How many rewrites were read."""
        return {"placements": self.apps, "effects": len(self.effects), "tapes": self.tapes}


def _app_effects(comp: Compiled, app: App, nst: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(need, delta) pairs of one application over the states its written and source tiles may hold."""
    h = comp.h
    checks = dict(app.checks)
    all_states = sorted({c // h for c in comp.valid_codes})

    def allowed(u: int) -> list[int]:
        m = checks.get(u)
        if m is None:
            return all_states
        return sorted({c // h for c in comp.valid_codes if (m >> c) & 1})

    tiles = sorted({u for u, _s, _m in app.writes} | {s for _u, s, _m in app.writes})
    choices = [allowed(u) for u in tiles]
    pos = {u: i for i, u in enumerate(tiles)}
    out: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for combo in itertools.product(*choices):
        need = [0] * nst
        for s in combo:
            need[s] += 1
        delta = [0] * nst
        for u, src, m in app.writes:
            old = combo[pos[u]]
            ss = combo[pos[src]]
            new = comp.maps[m][ss * h + comp.canon[ss][0]] // h
            delta[old] -= 1
            delta[new] += 1
        out.add((tuple(need), tuple(delta)))
    return out


def effects(game: RuleGame, pos: Position | None = None) -> Effects:
    """The effects of every move and clean-up placed on the board of ``pos`` (default: the start).  Cost
    O(moves · players · tiles · |H|) placements, each enumerating the states of its written tiles."""
    rules = game.rules
    pos = pos if pos is not None else game.initial()
    comp = game.compiled(pos.board)
    nst = rules.n_states
    out = Effects(tuple(range(nst)), tuple(rules.by_value[v].name if v in rules.by_value else str(v) for v in range(nst)),
                  tapes=rules.tape is not None)
    seen: set[tuple[str, str, tuple, tuple]] = set()
    done: set[int] = set()

    def add(app: App, kind: str, name: str) -> None:
        if app.ident in done:
            return
        done.add(app.ident)
        out.apps += 1
        for need, delta in _app_effects(comp, app, nst):
            k = (kind, name, need, delta)
            if k not in seen:
                seen.add(k)
                out.effects.append(Effect(kind, name, need, delta))

    for mi, m in enumerate(rules.moves):
        for p in m.players:
            for t in range(comp.n):
                for g in range(comp.h):
                    try:
                        ident = comp.place(mi, p, t, g)
                    except TapologyError:
                        continue  # an after-state naming no state: the static checks report it
                    if ident >= 0:
                        add(comp.apps[ident], ENTRY if m.start else FOLLOW, m.name)
    for p in range(len(rules.players)):
        for when in ("turn", "move"):
            try:
                apps = comp.cleanup_apps(p, when)
            except TapologyError:
                continue
            for a in apps:
                add(a, CLEANUP, rules.cleanups[-1 - a.move].move.name if -1 - a.move < len(rules.cleanups) else "clean-up")
    return out


def open_sides(pos: Position) -> int:
    """Sides of the board glued to nothing."""
    return sum(1 for row in pos.board.glue for c in row if c < 0)


@dataclass
class Ranking:
    """Weights proving termination: ``measure(pos) = Σ weights[s]·count(s) + open_weight·open sides``."""

    weights: dict[str, int]
    open_weight: int
    bound: int
    effects: Effects

    def describe(self) -> str:
        """The measure as a sum."""
        parts = [f"{w}·count({s})" if w != 1 else f"count({s})" for s, w in self.weights.items() if w]
        if self.open_weight:
            parts.append("open sides" if self.open_weight == 1 else f"{self.open_weight}·open sides")
        return " + ".join(parts) or "0"


def find_ranking(game: RuleGame, *, timeout_ms: int = 10_000) -> Ranking | None:
    """Weights on state counts (and open sides) that every turn lowers (see the module docstring), with the least
    bound at the start, found by z3 Optimize; None when there are none."""
    import z3  # z3 loads only when a proof is asked for (start-up time)

    eff = effects(game)
    start = game.initial()
    nst = len(eff.states)
    w = [z3.Int(f"w_{eff.names[s]}") for s in range(nst)]
    wo = z3.Int("w_open")
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(*[x >= 0 for x in w], wo >= 0)
    for e in eff.effects:
        lhs = z3.Sum([w[s] * d for s, d in enumerate(e.delta) if d]) if any(e.delta) else z3.IntVal(0)
        opt.add(lhs <= (-1 if e.kind == ENTRY else 0))
    if eff.tapes:
        opt.add(-2 * wo <= -1)
    counts = [0] * nst
    for s in start.states:
        counts[s] += 1
    measure = z3.Sum([w[s] * counts[s] for s in range(nst)] + [wo * open_sides(start)])
    opt.minimize(measure)
    if opt.check() != z3.sat:
        return None
    m = opt.model()
    weights = {eff.names[s]: m.eval(w[s], model_completion=True).as_long() for s in range(nst)}
    ow = m.eval(wo, model_completion=True).as_long() if eff.tapes else 0
    bound = sum(weights[eff.names[s]] * counts[s] for s in range(nst)) + ow * open_sides(start)
    return Ranking(weights, ow, bound, eff)


# ---- induction over rewrites ----------------------------------------------------------------
COUNT_TERMS = {"count", "empty", "pieces"}


def count_only(node: Node) -> bool:
    """True when every term of the predicate is a count of states (what rewrite induction can read)."""
    return all(name in COUNT_TERMS for name, _arg in term_names(node))


class CountTerms:
    """Count terms as z3 integers over a vector of state counts (``prev``: the vector before)."""

    def __init__(self, game: RuleGame, counts: list[Any], before: CountTerms | None = None,
                 state_arg: Callable[[str | None], int] | None = None, player_arg: Callable[[str | None], int] | None = None
                 ) -> None:
        self.game, self.c, self.before = game, counts, before
        self.state_arg, self.player_arg = state_arg, player_arg

    def previous(self) -> CountTerms:
        """The terms of the position before."""
        if self.before is None:
            raise PredicateError("prev(...) needs a turn: it is only for invariants")
        return self.before

    def term(self, name: str, arg: str | None) -> Any:
        import z3  # already loaded by the caller

        rules = self.game.rules
        if name == "count":
            assert self.state_arg is not None
            return self.c[self.state_arg(arg)]
        if name == "empty":
            return self.c[0]
        if name == "pieces":
            if arg is None:
                vals = [s.value for s in rules.states if s.value != 0]
            else:
                assert self.player_arg is not None
                p = self.player_arg(arg)
                vals = [s.value for s in rules.states if s.owner == p]
            return z3.Sum([self.c[v] for v in vals]) if vals else z3.IntVal(0)
        raise PredicateError(f"term {name!r} is not a count of states")


@dataclass
class InductionResult:
    """The answer of rewrite induction: ``proved``, or the effect (move) that breaks it."""

    proved: bool
    step: bool  # a relation with the position before (prev), rather than a property of positions
    failing: Effect | None = None
    reason: str = ""
    effects: Effects | None = None


def rewrite_induction(game: RuleGame, node: Node, holds_at_start: bool, *, uses_prev: bool,
                      state_arg: Callable[[str | None], int], player_arg: Callable[[str | None], int],
                      timeout_ms: int = 10_000) -> InductionResult:
    """Decide, with z3, whether every rewrite keeps a count predicate (see the module docstring)."""
    import z3  # z3 loads only when a proof is asked for (start-up time)

    eff = effects(game)
    nst = len(eff.states)
    n = len(game.initial().states)

    def vec(tag: str) -> list[Any]:
        return [z3.Int(f"{tag}_{eff.names[s]}") for s in range(nst)]

    def valid(c: list[Any]) -> list[Any]:
        return [x >= 0 for x in c] + [z3.Sum(c) == n]

    def terms(cur: list[Any], before: list[Any] | None) -> CountTerms:
        prev = CountTerms(game, before, None, state_arg, player_arg) if before is not None else None
        return CountTerms(game, cur, prev, state_arg, player_arg)

    res = InductionResult(False, uses_prev, effects=eff)
    if not uses_prev and not holds_at_start:
        res.reason = "it does not hold at the start"
        return res
    a = vec("a")
    for e in eff.effects:
        b = [a[s] + e.delta[s] for s in range(nst)]
        sol = z3.Solver()
        sol.set("timeout", timeout_ms)
        sol.add(*valid(a), *[a[s] >= e.need[s] for s in range(nst)])
        if uses_prev:
            sol.add(z3.Not(to_z3(node, terms(b, a))))
        else:
            sol.add(to_z3(node, terms(a, None)), z3.Not(to_z3(node, terms(b, None))))
        got = sol.check()
        if got != z3.unsat:
            res.failing = e
            res.reason = (f"{e.kind} {e.name!r} can break it" if got == z3.sat else f"z3 gave up on {e.kind} {e.name!r}")
            return res
    if uses_prev:
        # the relation must compose over the rewrites of one turn (transitive), and hold across a taping
        b, c = vec("b"), vec("c")
        sol = z3.Solver()
        sol.set("timeout", timeout_ms)
        sol.add(*valid(a), *valid(b), *valid(c), to_z3(node, terms(b, a)), to_z3(node, terms(c, b)),
                z3.Not(to_z3(node, terms(c, a))))
        if sol.check() != z3.unsat:
            res.reason = "the relation is not transitive, so single rewrites do not decide a whole turn"
            return res
        if eff.tapes:
            sol = z3.Solver()
            sol.add(*valid(a), z3.Not(to_z3(node, terms(a, a))))
            if sol.check() != z3.unsat:
                res.reason = "a taping changes no state, and the relation does not hold between equal counts"
                return res
    res.proved = True
    return res
