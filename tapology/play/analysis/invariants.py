"""Invariants: a predicate of the ``--reach`` language that holds at every reachable position (``verify --invariant``).

A predicate with ``prev(...)`` relates each position to the one before it, and must hold
across every turn (``pieces <= prev(pieces)``: the number of pieces never grows).

Methods (``auto`` runs every one that applies and says which agree):

* **exhaustive** — every reachable position (every turn, for ``prev``) is checked
  (k-in-a-row games one per symmetry class; every term is invariant under the game's
  symmetries); a violation gives the shortest counterexample.  ``depth`` bounds the search to
  that many turns: a bounded model check, *unknown* beyond it.
* **k-induction** (z3; k-in-a-row games) — bounded model checking from the start for the base
  case, and for the step: no run of k legal claims from *any* position whose first k
  positions satisfy the predicate ends in one that does not.  The positions are strengthened
  by the lemma "no tile holds both marks, and X has as many marks as O or one more" (itself
  1-inductive, checked too).  A failed base case is a counterexample (the shortest).
* **rewrite induction** (z3; any rule set, predicates over state counts: ``count``,
  ``empty``, ``pieces``) — every placed move and clean-up keeps the predicate
  (:mod:`tapology.play.analysis.rewrites`): a proof for all positions, reachable or not.
* **boards** (predicates over the board only: ``consistent``, ``closed``, ``manifold``,
  ``orientable``, ``open``, ``euler``) — the boards reachable by tape turns from the start
  board, each closed and classified; a violation is replayed as tape turns from the start.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import OptionError, ReachError
from tapology.game import ClaimGame, Game, Position
from tapology.games.kinrow import PLAYERS
from tapology.games.registry import LoadedGame
from tapology.play.analysis.predicate import BOARD_TERMS, Node, evaluate, parse_predicate, term_names, to_z3, uses_prev
from tapology.play.analysis.reach import GameTerms, KinrowTerms, Z3Terms, check_terms, player_index, state_value
from tapology.play.analysis.rewrites import count_only, rewrite_induction
from tapology.play.playing.transcript import state_names
from tapology.play.solving.statespace import Graph, Progress, Witness, explore, replay, replay_labels, space_of
from tapology.rules.engine import RuleGame
from tapology.rules.tapeturns import tape_turns

METHODS = ("auto", "exhaustive", "z3", "boards")
PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"


@dataclass
class Check:
    """One method's answer."""

    method: str
    verdict: str
    detail: str
    seconds: float
    witness: Witness | None = None
    bound: dict[str, Any] | None = None

    def to_json(self, game: Game) -> dict[str, Any]:
        """As JSON."""
        out: dict[str, Any] = {"method": self.method, "verdict": self.verdict, "detail": self.detail,
                               "seconds": round(self.seconds, 3)}
        if self.witness is not None:
            out["witness"] = self.witness.to_json(game)
        if self.bound is not None:
            out["bound"] = self.bound
        return out


@dataclass
class InvariantResult:
    """The answer for one invariant: the verdict of the methods together, and each method's own."""

    predicate: str
    game: str
    board: str
    verdict: str
    method: str
    detail: str
    checks: list[Check] = field(default_factory=list)
    witness: Witness | None = None
    complete: bool = True  # False when the time ran out or Ctrl-C stopped a method (answers so far)
    interrupted: bool = False
    subject: Game | None = field(default=None, repr=False)

    @property
    def agree(self) -> bool:
        """No method proved what another refuted."""
        got = {c.verdict for c in self.checks}
        return not (PROVED in got and REFUTED in got)

    def to_json(self) -> dict[str, Any]:
        """``{"invariant", "verdict", "method", "checks": [...], "witness"}``."""
        assert self.subject is not None
        out: dict[str, Any] = {"game": self.game, "board": self.board, "invariant": self.predicate,
                               "verdict": self.verdict, "method": self.method, "detail": self.detail,
                               "agree": self.agree, "checks": [c.to_json(self.subject) for c in self.checks]}
        if self.witness is not None:
            out["witness"] = self.witness.to_json(self.subject)
        out["complete"] = self.complete
        out["interrupted"] = self.interrupted
        return out


# ---- terms ---------------------------------------------------------------------------------
def _line_k(rg: RuleGame) -> int | None:
    return next((e.k for e in rg.ends.ends if e.kind == "line"), None)


def terms_factory(lg: LoadedGame) -> Callable[[Position, Position | None], Any]:
    """Terms for a position (and the one before it) of the loaded game."""
    kr = lg.kinrow
    if kr is not None:
        def kin(pos: Position, before: Position | None) -> KinrowTerms:
            prev = KinrowTerms(kr, *kr.masks_of(before)) if before is not None else None
            return KinrowTerms(kr, *kr.masks_of(pos), before=prev)

        return kin
    rg = lg.generic
    k = _line_k(rg)
    ps = []
    for p in range(len(rg.players)):
        owned = [s.value for s in rg.rules.states if s.owner == p]
        ps.append(owned[0] if owned else -1)

    def lines_for(pos: Position) -> tuple[tuple[int, ...], ...]:
        return tuple(rg.compiled(pos.board).lines(k)) if k else ()

    def gen(pos: Position, before: Position | None) -> GameTerms:
        prev = GameTerms(lg.game, before, player_states=tuple(ps), lines_for=lines_for) if before is not None else None
        return GameTerms(lg.game, pos, player_states=tuple(ps), lines_for=lines_for, before=prev)

    return gen


def _names(lg: LoadedGame) -> tuple[tuple[str, ...], dict[int, str]]:
    if lg.kinrow is not None:
        return PLAYERS, {0: "empty", 1: "X", 2: "O"}
    return tuple(lg.game.players), state_names(lg.game)


# ---- exhaustive -------------------------------------------------------------------------------
def exhaustive_invariant(lg: LoadedGame, node: Node, *, depth: int | None = None, max_positions: int = 200_000,
                         deadline: float | None = None, progress: Progress | None = None) -> Check:
    """Check every reachable position (every turn, for ``prev``) up to the bounds."""
    t0 = time.monotonic()
    space = space_of(lg.game)
    terms = terms_factory(lg)
    step = uses_prev(node)

    checked: set[int] = set()

    def visit(g: Graph, i: int | None, j: int) -> bool:
        if step:
            return i is not None and not evaluate(node, terms(g.nodes[j], g.nodes[i]))
        if j in checked:
            return False
        checked.add(j)
        return not evaluate(node, terms(g.nodes[j], None))

    g = explore(space, max_positions=max_positions, deadline=deadline, max_depth=depth, progress=progress, visit=visit)
    bad = g.found
    method = "exhaustive" + (f" ({space.symmetry})" if space.symmetry != "none" else "")
    if bad is not None:
        i, j = bad
        path = [*g.path(i), j] if i is not None and step else g.path(j)
        w = replay(space, g, path)
        w.note = "the predicate fails at the last position" + (" (compared with the one before)" if step else "")
        n = len(path) - 1
        return Check(method, REFUTED, f"fails after {n} turn{'' if n == 1 else 's'} (shortest)", time.monotonic() - t0, w,
                     g.bound())
    if g.complete:
        what = "turns between" if step else ""
        return Check(method, PROVED, f"holds at every one of the {len(g.nodes):,} reachable positions"
                     + (f" and {what} them" if step else ""), time.monotonic() - t0, bound=g.bound())
    return Check(method, UNKNOWN, f"holds at the {len(g.nodes):,} positions within {max(g.depth, default=0)} turns "
                 f"searched (stopped: {g.stopped})", time.monotonic() - t0, bound=g.bound())


# ---- k-induction for k-in-a-row -----------------------------------------------------------------
class _Frames:
    """Boolean claims per frame and the transition relation of a k-in-a-row game, for z3."""

    def __init__(self, game: ClaimGame, frames: int, tag: str) -> None:
        import z3  # the caller loaded it

        self.z3 = z3
        self.g = game
        n = game.n
        self.xs = [[z3.Bool(f"{tag}x_{s}_{t}") for t in range(n)] for s in range(frames)]
        self.os = [[z3.Bool(f"{tag}o_{s}_{t}") for t in range(n)] for s in range(frames)]

    def count(self, vals: list[Any]) -> Any:
        return self.z3.Sum([self.z3.If(v, 1, 0) for v in vals])

    def ply(self, s: int) -> Any:
        return self.count(self.xs[s]) + self.count(self.os[s])

    def terms(self, s: int, before: bool = True) -> Z3Terms:
        prev = self.terms(s - 1, False) if before and s > 0 else None
        return Z3Terms(self.g, self.xs[s], self.os[s], self.ply(s), prev)

    def lemma(self, s: int) -> Any:
        z3 = self.z3
        d = self.count(self.xs[s]) - self.count(self.os[s])
        return z3.And([z3.Not(z3.And(a, b)) for a, b in zip(self.xs[s], self.os[s], strict=True)] + [z3.Or(d == 0, d == 1)])

    def initial(self) -> Any:
        return self.z3.And([self.z3.Not(v) for v in self.xs[0] + self.os[0]])

    def step(self, s: int) -> Any:
        """A legal claim from frame s to frame s+1."""
        z3 = self.z3
        n = self.g.n
        x, o, x2, o2 = self.xs[s], self.os[s], self.xs[s + 1], self.os[s + 1]
        x_moves = self.count(x) == self.count(o)
        opts = []
        for t in range(n):
            for mover in (0, 1):
                mine, other, mine2, other2 = (x, o, x2, o2) if mover == 0 else (o, x, o2, x2)
                opts.append(z3.And([x_moves if mover == 0 else z3.Not(x_moves), z3.Not(x[t]), z3.Not(o[t]), mine2[t]]
                                   + [mine2[u] == mine[u] for u in range(n) if u != t]
                                   + [other2[u] == other[u] for u in range(n)]))
        return z3.And(z3.Not(self.terms(s, False).over()), z3.Or(opts))


def kinduction(kr: ClaimGame, node: Node, *, max_k: int = 6, timeout_ms: int = 20_000) -> Check:
    """Prove or refute an invariant of a k-in-a-row game by k-induction with z3 (see the module docstring)."""
    import z3  # z3 loads only when a proof is asked for (start-up time)

    t0 = time.monotonic()
    step_pred = uses_prev(node)
    first = 1 if step_pred else 0  # the first frame the predicate is read at
    # the lemma is 1-inductive and holds at the start
    lf = _Frames(kr, 2, "lemma")
    sol = z3.Solver()
    sol.set("timeout", timeout_ms)
    sol.add(lf.lemma(0), lf.step(0), z3.Not(lf.lemma(1)))
    if sol.check() != z3.unsat:  # pragma: no cover - the lemma is a fact about claims
        return Check("k-induction (z3)", UNKNOWN, "the strengthening lemma is not inductive", time.monotonic() - t0)
    checked = -1  # base cases are checked for 0..checked turns
    for k in range(1, max_k + 1):
        # base: no violation reachable from the start within k turns (the shortest found first)
        for j in range(max(first, checked + 1), k + 1):
            checked = j
            f = _Frames(kr, j + 1, f"b{j}_")
            sol = z3.Solver()
            sol.set("timeout", timeout_ms)
            sol.add(f.initial(), *[f.step(s) for s in range(j)], z3.Not(to_z3(node, f.terms(j))))
            got = sol.check()
            if got == z3.sat:
                m = sol.model()
                labels = []
                prevx = prevo = 0
                for s in range(1, j + 1):
                    xv = sum(1 << t for t in range(kr.n) if z3.is_true(m.eval(f.xs[s][t], model_completion=True)))
                    ov = sum(1 << t for t in range(kr.n) if z3.is_true(m.eval(f.os[s][t], model_completion=True)))
                    t = ((xv | ov) & ~(prevx | prevo)).bit_length() - 1
                    labels.append(kr.label(t))
                    prevx, prevo = xv, ov
                w = replay_labels(kr, labels)
                w.note = "bounded model checking from the start: the predicate fails at the last position"
                return Check("k-induction (z3)", REFUTED, f"fails after {j} turn{'' if j == 1 else 's'} (base case, shortest)",
                             time.monotonic() - t0, w)
            if got == z3.unknown:
                return Check("k-induction (z3)", UNKNOWN, f"z3 gave up on the base case at {j} turns",
                             time.monotonic() - t0, bound={"k": k})
        # step: k frames satisfying it, then one more, from any position satisfying the lemma
        f = _Frames(kr, k + 1, f"s{k}_")
        sol = z3.Solver()
        sol.set("timeout", timeout_ms)
        sol.add(*[f.lemma(s) for s in range(k + 1)], *[f.step(s) for s in range(k)])
        sol.add(*[to_z3(node, f.terms(s)) for s in range(max(first, 0), k)])
        sol.add(z3.Not(to_z3(node, f.terms(k))))
        got = sol.check()
        if got == z3.unsat:
            return Check("k-induction (z3)", PROVED, f"{k}-inductive (strengthened by the claim-count lemma); no "
                         f"violation within {k} turn{'s' if k > 1 else ''} of the start", time.monotonic() - t0, bound={"k": k})
        if got == z3.unknown:
            return Check("k-induction (z3)", UNKNOWN, f"z3 gave up on the step case at k = {k}", time.monotonic() - t0,
                         bound={"k": k})
    return Check("k-induction (z3)", UNKNOWN, f"not k-inductive for k ≤ {max_k}; no violation within {max_k} turns of "
                 "the start", time.monotonic() - t0, bound={"k": max_k})


# ---- boards --------------------------------------------------------------------------------------
def board_only(node: Node) -> bool:
    """True when every term reads only the board (its gluing)."""
    return all(name in BOARD_TERMS or name in ("true", "false") for name, _ in term_names(node))


def boards_invariant(lg: LoadedGame, node: Node, *, max_boards: int = 20_000, deadline: float | None = None) -> Check:
    """Check a board predicate on every board reachable by tape turns from the start board (breadth first)."""
    t0 = time.monotonic()
    game = lg.game
    start = game.initial()
    rules = lg.rules
    terms = terms_factory(lg)
    if uses_prev(node):
        raise OptionError("--method boards: prev(...) is not read on boards; use --method exhaustive")
    if not evaluate(node, terms(start, None)):
        return Check("boards", REFUTED, "fails at the start", time.monotonic() - t0, Witness([], [start]))
    if rules.tape is None:
        return Check("boards", PROVED, "holds on the start board, and no turn changes the board (no tape moves)",
                     time.monotonic() - t0, bound={"boards": 1})
    seen = {(start.board.glue, start.board.extra): None}
    parent: dict[tuple, tuple[tuple, str] | None] = {}
    queue = deque([start])
    stopped = ""
    k0 = (start.board.glue, start.board.extra)
    parent[k0] = None
    try:
        while queue:
            if deadline is not None and time.monotonic() > deadline:
                stopped = "deadline"
                break
            if len(seen) > max_boards:
                stopped = "boards"
                break
            pos = queue.popleft()
            key = (pos.board.glue, pos.board.extra)
            for t in tape_turns(rules.tape, pos, pos.to_move):
                b = t.result
                kb = (b.board.glue, b.board.extra)
                if kb in seen:
                    continue
                seen[kb] = None
                parent[kb] = (key, t.label)
                if not evaluate(node, terms(b, None)):
                    labels = []
                    cur: tuple | None = kb
                    while parent[cur] is not None:  # type: ignore[index]
                        cur, lab = parent[cur]  # type: ignore[index, misc]
                        labels.append(lab)
                    labels.reverse()
                    try:
                        w = replay_labels(game, labels)
                    except ReachError:
                        return Check("boards", UNKNOWN, f"fails on a board {len(labels)} tapings away, which the game's "
                                     "play does not reach that way", time.monotonic() - t0, bound={"boards": len(seen)})
                    w.note = "tape turns from the start: the predicate fails on the last board"
                    many = "" if len(labels) == 1 else "s"
                    return Check("boards", REFUTED, f"fails after {len(labels)} tape turn{many} (fewest)", time.monotonic() - t0,
                                 w, {"boards": len(seen)})
                queue.append(b)
    except KeyboardInterrupt:
        stopped = "interrupted"
    if stopped:
        return Check("boards", UNKNOWN, f"holds on the {len(seen):,} boards reached by tapings so far (stopped: "
                     f"{stopped})", time.monotonic() - t0, bound={"boards": len(seen), "stopped": stopped})
    return Check("boards", PROVED, f"holds on every one of the {len(seen):,} boards tape turns can reach (moves do not "
                 "change the board)", time.monotonic() - t0, bound={"boards": len(seen)})


# ---- together ---------------------------------------------------------------------------------------
def prove_invariant(lg: LoadedGame, predicate: str, *, method: str = "auto", depth: int | None = None, max_k: int = 6,
                    max_positions: int = 200_000, timeout: float = 60.0, progress: Progress | None = None
                    ) -> InvariantResult:
    """Decide whether ``predicate`` holds at every reachable position (across every turn, with ``prev``)."""
    if method not in METHODS:
        raise OptionError(f"--method {method!r}: use {', '.join(METHODS)}")
    t0 = time.monotonic()
    deadline = t0 + timeout
    node = parse_predicate(predicate)
    players, names = _names(lg)
    check_terms(node, players, names, allow_prev=True)
    game = lg.game
    res = InvariantResult(predicate, lg.name, lg.board_name, UNKNOWN, "", "", subject=game)
    kr = lg.kinrow
    try:
        if method in ("auto", "boards") and board_only(node):
            res.checks.append(boards_invariant(lg, node, deadline=deadline))
        elif method == "boards":
            raise OptionError("--method boards: the predicate reads more than the board")
        if method in ("auto", "z3"):
            if kr is not None:
                res.checks.append(kinduction(kr, node, max_k=max_k))
            elif count_only(node):
                res.checks.append(_rewrite_check(lg, node))
            elif method == "z3":
                raise OptionError("--method z3: k-induction needs a k-in-a-row game, and rewrite induction a predicate "
                                  "over state counts (count, empty, pieces)")
        if method in ("auto", "exhaustive"):
            # a cross-check after another method's answer: a smaller share of the time
            end = deadline
            if method == "auto" and any(c.verdict != UNKNOWN for c in res.checks):
                end = min(deadline, time.monotonic() + max(2.0, timeout / 10))
            res.checks.append(exhaustive_invariant(lg, node, depth=depth, max_positions=max_positions, deadline=end,
                                                   progress=progress))
    except KeyboardInterrupt:
        res.complete, res.interrupted = False, True
    res.complete = res.complete is True and not any(
        (c.bound or {}).get("stopped") in ("deadline", "interrupted") for c in res.checks if c.verdict == UNKNOWN)
    if any((c.bound or {}).get("stopped") == "interrupted" for c in res.checks):
        res.interrupted = True
    refuted = [c for c in res.checks if c.verdict == REFUTED]
    proved = [c for c in res.checks if c.verdict == PROVED]
    if refuted and proved:  # pragma: no cover - the methods must agree; say so loudly if they do not
        res.verdict, res.method = UNKNOWN, "disagreement"
        res.detail = "methods disagree: " + "; ".join(f"{c.method}: {c.verdict}" for c in res.checks)
    elif refuted:
        best = min(refuted, key=lambda c: len(c.witness.turns) if c.witness else 0)
        res.verdict, res.method, res.detail, res.witness = REFUTED, best.method, best.detail, best.witness
    elif proved:
        res.verdict, res.method, res.detail = PROVED, proved[0].method, proved[0].detail
    elif res.checks:
        res.method = " + ".join(c.method for c in res.checks)
        res.detail = "; ".join(c.detail for c in res.checks)
    return res


def _rewrite_check(lg: LoadedGame, node: Node) -> Check:
    t0 = time.monotonic()
    rg = lg.generic
    players, names = _names(lg)
    terms = terms_factory(lg)
    step = uses_prev(node)
    at_start = True if step else bool(evaluate(node, terms(lg.game.initial(), None)))
    got = rewrite_induction(rg, node, at_start, uses_prev=step, state_arg=lambda a: state_value(a, names),
                            player_arg=lambda a: player_index(a, players, "pieces"))
    eff = got.effects
    n = eff.apps if eff is not None else 0
    if got.proved:
        what = ("every one of the rewrites (moves and clean-ups, " f"{n} placements) keeps the relation, and it composes"
                if step else f"holds at the start and every rewrite ({n} placements of moves and clean-ups) keeps it")
        return Check("rewrite induction (z3)", PROVED, what, time.monotonic() - t0, bound={"placements": n})
    if not step and not at_start:
        w = Witness([], [lg.game.initial()], note="the predicate fails at the start")
        return Check("rewrite induction (z3)", REFUTED, "fails at the start", time.monotonic() - t0, w)
    return Check("rewrite induction (z3)", UNKNOWN, f"not inductive over single rewrites: {got.reason}",
                 time.monotonic() - t0, bound={"placements": n})
