"""The properties a game description must have, decided where the state space allows.

General game playing names them (Genesereth and Love); tapology reads them so, for the
player to move and the end rules of :mod:`tapology.rules.ends`:

* **termination** — every play ends;
* **playability** — a player whose turn it is has a legal turn, or an end rule says how the
  game ends (the engine's fallback draw for a position no rule scores does not count);
* **weak winnability** — each player wins some play (the others helping);
* **strong winnability** — a player can force a win, whatever the others do;
* **goal uniqueness** — where the game ends, the goal rules (``line``, ``count``, ``chain``)
  that hold give one result: no two of them, nor one of them for two players, disagree, so
  the file order never breaks a tie (``no-turns``, ``plies``, ``counter`` and ``repetition``
  are length rules, read in file order after the goals);
* **goal monotonicity** — a goal, once it holds, is not undone: every goal rule that holds at
  a position where play goes on (one masked by a ``check`` condition) still holds after every
  turn from there.

Each answer is *proved*, *refuted* (with a counterexample: the shortest replayable play where
there is one), or *unknown within the bound*, and says how it was reached (``method``) and
which other methods agree (``also``).  Methods, cheapest first:

* **static** proofs from the rule set: a ranking function over state counts and open sides
  found by z3 (:mod:`tapology.play.analysis.rewrites`), a ``plies`` rule bounding every play, a
  ``no-turns`` rule covering every position without turns, goal rules without ``check``;
* **exhaustive** search of the reachable positions (:mod:`tapology.play.solving.statespace`;
  k-in-a-row games one per symmetry class): cycles, unscored positions, shortest wins, goal
  conflicts, undone goals, and the positions each player can force a win from;
* **solve** (k-in-a-row: the layered solver) for strong winnability, cross-checked against
  the retrograde analysis of the exhaustive graph;
* **search** where the space is too large: a cooperative search for a play that a given player
  wins (both sides helping) proves weak winnability with a witness that need not be shortest.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import OptionError
from tapology.game import ClaimGame, Game, Position
from tapology.games.registry import LoadedGame
from tapology.model.atlas import Atlas
from tapology.model.lines import board_lines
from tapology.play.analysis.rewrites import find_ranking
from tapology.play.solving.solve import solve_kinrow
from tapology.play.solving.statespace import (
    Graph,
    Progress,
    Space,
    Witness,
    attractors,
    defence_line,
    explore,
    first_node,
    forcing_line,
    longest_path_nodes,
    replay,
    shortest_lasso,
    space_of,
)
from tapology.rules.chains import conditions_hold, count_tiles
from tapology.rules.ends import has_line, score
from tapology.rules.engine import RuleGame
from tapology.rules.model import EndRule

PROPERTIES = ("termination", "playability", "weak-winnability", "strong-winnability", "goal-uniqueness",
              "goal-monotonicity")
GOAL_KINDS = ("line", "count", "chain")
PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"


@dataclass
class Verdict:
    """One property's answer, how it was reached, and its witness or bound."""

    property: str
    verdict: str
    method: str
    detail: str = ""
    player: str | None = None
    witness: Witness | None = None
    bound: dict[str, Any] | None = None
    also: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self, game: Game) -> dict[str, Any]:
        """As JSON (the witness with its transcript)."""
        out: dict[str, Any] = {"property": self.property}
        if self.player is not None:
            out["player"] = self.player
        out.update({"verdict": self.verdict, "method": self.method, "detail": self.detail})
        if self.also:
            out["also"] = list(self.also)
        if self.witness is not None:
            out["witness"] = self.witness.to_json(game)
        if self.bound is not None:
            out["bound"] = self.bound
        out["seconds"] = round(self.seconds, 3)
        return out

    def text(self) -> str:
        """One line (and the witness's turns)."""
        who = f" ({self.player})" if self.player else ""
        line = f"{self.property}{who}: {self.verdict} — {self.detail} [{self.method}]"
        if self.witness is not None:
            w = self.witness
            turns = " ".join(w.turns) or "(the start position)"
            line += f"\n    {'counterexample' if self.verdict == REFUTED else 'witness'}: {turns}"
            if w.loop is not None:
                line += f"  (back to the position after turn {w.loop}: the play repeats for ever)"
        return line


@dataclass
class PropertiesResult:
    """Every property asked for, on one game and board."""

    game: str
    board: str
    verdicts: list[Verdict]
    explored: dict[str, Any]
    complete: bool = True  # False when the time ran out or Ctrl-C stopped the work (answers so far)
    interrupted: bool = False
    seconds: float = 0.0
    subject: Game | None = field(default=None, repr=False)

    def get(self, prop: str, player: str | None = None) -> Verdict:
        """The verdict on one property (for one player)."""
        for v in self.verdicts:
            if v.property == prop and (player is None or v.player == player):
                return v
        raise KeyError((prop, player))

    def to_json(self) -> dict[str, Any]:
        """``{"game", "board", "properties": [...], "explored", "complete"}``."""
        assert self.subject is not None
        return {"game": self.game, "board": self.board,
                "properties": [v.to_json(self.subject) for v in self.verdicts],
                "explored": self.explored, "complete": self.complete, "interrupted": self.interrupted,
                "seconds": round(self.seconds, 3)}


# ---- goals ---------------------------------------------------------------------------------
def goal_rules(rg: RuleGame) -> list[tuple[int, EndRule]]:
    """The goal rules the game applies (line, count, chain), with their index in file order."""
    return [(i, e) for i, e in enumerate(rg.ends.ends) if e.kind in GOAL_KINDS]


def goals_holding(rg: RuleGame, pos: Position, *, mind_check: bool = True) -> list[tuple[int, int, tuple]]:
    """(rule index, player, score as a sorted tuple) for each goal rule whose condition holds for a player at
    ``pos`` (``mind_check=False``: whatever the rule's ``check`` condition says)."""
    goals = goal_rules(rg)
    if not goals:
        return []
    ch = rg.chains(pos.board)
    comp = ch.comp
    codes = rg.codes(pos)
    players = rg.players
    out: list[tuple[int, int, tuple]] = []
    in_check: bool | None = None
    for i, e in goals:
        if mind_check and e.check is not None:
            if in_check is None:
                in_check = rg.in_check(pos)
            if in_check != e.check:
                continue
        who = range(len(players)) if e.kind == "line" or e.player is None else [e.player]
        for p in who:
            if e.kind == "line":
                ok = has_line(comp, codes, e, p)
            elif e.kind == "count":
                ok = conditions_hold(comp, codes, e.conditions, p)
            else:
                ok = ch.longest(codes, e.move, p) >= e.value
            if ok:
                out.append((i, p, tuple(sorted(score(players, p, e.result).items()))))
    return out


def _kinrow_goals(kr: ClaimGame, pos: Position) -> list[tuple[int, int, tuple]]:
    x, o = kr.masks_of(pos)
    out = []
    for p, m in enumerate((x, o)):
        if kr.won(m):
            out.append((0, p, tuple(sorted({kr.players[p]: 1, kr.players[1 - p]: -1}.items()))))
    return out


# ---- static proofs ---------------------------------------------------------------------------
def plies_bound(rg: RuleGame) -> EndRule | None:
    """A ``plies`` rule the game applies without a ``check`` condition: it ends every play by its value."""
    rules = [e for e in rg.ends.ends if e.kind == "plies" and e.check is None]
    if not rules:
        return None
    return min(rules, key=lambda e: e.value)


def no_turns_cover(rg: RuleGame) -> list[EndRule] | None:
    """The ``no-turns`` rules that together score every position without turns (one without ``check``, or one for
    each of ``check = true`` and ``check = false``); None when they do not."""
    nts = [e for e in rg.ends.ends if e.kind == "no-turns"]
    checks = {e.check for e in nts}
    if None in checks:
        return [e for e in nts if e.check is None][:1]
    if {True, False} <= checks:
        return nts
    return None


# ---- cooperative search ------------------------------------------------------------------------
def _owned(rg: RuleGame) -> list[frozenset[int]]:
    return [frozenset(s.value for s in rg.rules.states if s.owner == p) for p in range(len(rg.players))]


def progress_measure(rg: RuleGame, player: int) -> Callable[[Position], float]:
    """How far ``player`` is from a win (lower is nearer): marks missing from the best open line of each line goal,
    the gap of each count goal, and the other players' pieces for goals that make a player without turns lose."""
    owned = _owned(rg)
    others = frozenset().union(*(owned[q] for q in range(len(owned)) if q != player))
    goals = [e for _i, e in goal_rules(rg) if e.result == "win" and (e.player is None or e.player == player)]
    loss_goals = any(e.kind == "no-turns" and e.result == "loss" for e in rg.ends.ends)
    lines: dict[tuple, list[tuple[int, ...]]] = {}  # by board (tape moves change it) and k

    def measure(pos: Position) -> float:
        st = pos.states
        comp = rg.compiled(rg.initial().board)  # state names do not depend on the board
        total = 0.0
        for e in goals:
            if e.kind == "line":
                mine = comp.state_values(e.states, player)
                best = e.k + 1
                key = (pos.board.glue, pos.board.extra, e.k)
                if key not in lines:
                    lines[key] = board_lines(Atlas.of(pos.board), e.k)
                for ln in lines[key]:
                    if any(st[t] in others for t in ln):
                        continue
                    best = min(best, sum(1 for t in ln if st[t] not in mine))
                total += best
            elif e.kind == "count":
                codes = rg.codes(pos)
                comp = rg.compiled(pos.board)
                for c in e.conditions:
                    n = count_tiles(comp, codes, c, player)
                    if n is None:
                        total += 100
                    elif c.op in (">=", ">"):
                        total += max(0, c.value + (c.op == ">") - n)
                    elif c.op in ("<=", "<"):
                        total += max(0, n - c.value + (c.op == "<"))
                    else:
                        total += abs(n - c.value)
        if loss_goals or not goals:
            total += 0.5 * sum(1 for v in st if v in others) - 0.1 * sum(1 for v in st if v in owned[player])
        return total

    return measure


def cooperative_search(game: Game, value: Callable[[Position], float], *, deadline: float,
                       ahead: Callable[[Position], bool] = lambda _p: False, floor: int = 0, max_plies: int = 1000,
                       seed: int = 0, grace: float = 2.0) -> tuple[Witness | None, int]:
    """Plays that end where ``value`` is −∞ (a success), every turn chosen to lower ``value`` (+∞: a dead end), with
    a two-ply look-ahead where ``ahead`` says, random choices among equals and now and then at random, restarts
    until the deadline; after a first success, ``grace`` more seconds look for a shorter one, unless it is no longer
    than ``floor`` turns (no shorter one exists).  Returns the shortest success found (or None) and the number of
    plays tried.  Cost: ~turns per ply, ~turns² with the look-ahead."""
    rng = random.Random(seed)
    best: Witness | None = None
    tries = 0
    end = deadline
    inf = float("inf")
    try:
        while time.monotonic() < end:
            tries += 1
            pos = game.initial()
            labels: list[str] = []
            positions = [pos]
            eps = 0.05 + 0.25 * rng.random()
            done = False
            while len(labels) < max_plies and time.monotonic() < end:
                if best is not None and len(labels) >= len(best.turns) - 1:
                    break
                turns = game.turns(pos)
                if not turns:
                    break
                if rng.random() < eps:
                    pick = rng.choice(turns)
                else:
                    scored = []
                    look = ahead(pos) and len(turns) <= 16
                    for t in turns:
                        v = value(t.result)
                        if look and v not in (inf, -inf):
                            replies = game.turns(t.result)
                            if replies and len(replies) <= 24:
                                v = min(value(r.result) for r in replies)
                        scored.append((v, rng.random(), t))
                    scored.sort(key=lambda s: (s[0], s[1]))
                    pick = scored[0][2]
                labels.append(pick.label)
                pos = pick.result
                positions.append(pos)
                if value(pos) == -inf:
                    done = True
                    break
            if done and (best is None or len(labels) < len(best.turns)):
                best = Witness(labels, positions)
                if len(labels) <= floor:
                    break
                end = min(deadline, time.monotonic() + grace)
    except KeyboardInterrupt:
        pass
    return best, tries


def cooperative_win(game: Game, rg: RuleGame, player: int, *, deadline: float, floor: int = 0, max_plies: int = 1000,
                    seed: int = 0) -> tuple[Witness | None, int]:
    """A play that ``player`` wins, both sides choosing turns that bring that win nearer (the others look two plies
    ahead, for turns that let ``player`` progress): :func:`cooperative_search` with :func:`progress_measure`."""
    name = game.players[player]
    measure = progress_measure(rg, player)

    def value(pos: Position) -> float:
        out = game.outcome(pos)
        if out is not None:
            return float("-inf") if out.get(name, 0) > 0 else float("inf")
        return measure(pos)

    return cooperative_search(game, value, deadline=deadline, ahead=lambda p: p.to_move != player, floor=floor,
                              max_plies=max_plies, seed=seed)


def conflict_search(game: Game, rg: RuleGame, *, deadline: float, floor: int = 0, seed: int = 0
                    ) -> tuple[Witness | None, int]:
    """A play ending where two goals disagree (goal uniqueness fails), both sides bringing every player's goal
    nearer at once: :func:`cooperative_search` with the sum of the players' :func:`progress_measure`."""
    measures = [progress_measure(rg, p) for p in range(len(game.players))]

    def value(pos: Position) -> float:
        if game.outcome(pos) is not None:
            held = goals_holding(rg, pos)
            return float("-inf") if len({sc for _r, _p, sc in held}) > 1 else float("inf")
        return sum(m(pos) for m in measures)

    return cooperative_search(game, value, deadline=deadline, floor=floor, seed=seed)


# ---- the checks ----------------------------------------------------------------------------------
def _witness(space: Space, g: Graph, nodes: Sequence[int], note: str = "") -> Witness:
    w = replay(space, g, nodes)
    w.note = note
    return w


def check_properties(lg: LoadedGame, *, properties: Sequence[str] | None = None, max_positions: int = 200_000,
                     timeout: float = 60.0, symmetry: bool = True, seed: int = 0,
                     progress: Progress | None = None) -> PropertiesResult:
    """Decide the properties of a loaded game on its board (all of :data:`PROPERTIES` unless ``properties``).

    Static proofs first, then an exhaustive search of up to ``max_positions`` positions within half of
    ``timeout`` seconds, then the solver and cooperative searches with what is left.  Ctrl-C stops with the
    answers so far (``complete`` False).
    """
    t0 = time.monotonic()
    deadline = t0 + timeout
    wanted = tuple(properties or PROPERTIES)
    bad = [p for p in wanted if p not in PROPERTIES]
    if bad:
        raise OptionError(f"unknown property {bad[0]!r} (known: {', '.join(PROPERTIES)})")
    game = lg.game
    rg = lg.generic
    kr = lg.kinrow
    players = tuple(game.players)
    verdicts: list[Verdict] = []
    res = PropertiesResult(lg.name, lg.board_name, verdicts, {}, subject=game)
    space = space_of(game, symmetry)

    def stage(name: str, i: int) -> None:
        if progress:
            progress(name, i, len(wanted))

    try:
        stage("exhaustive search", 0)
        g = explore(space, max_positions=max_positions, deadline=t0 + 0.35 * timeout, progress=progress)
        res.explored = g.bound()
        res.explored["seconds"] = round(g.seconds, 3)
        if g.stopped == "interrupted":
            raise KeyboardInterrupt
        if g.stopped == "deadline":
            res.complete = False
        vals = attractors(g) if ("strong-winnability" in wanted) else None
        for k, prop in enumerate(wanted):
            stage(prop, k)
            t1 = time.monotonic()
            had = len(verdicts)
            if prop == "termination":
                verdicts.append(_termination(space, g, rg))
            elif prop == "playability":
                verdicts.append(_playability(space, g, rg))
            elif prop == "weak-winnability":
                for p in range(len(players)):
                    left = max(0.0, deadline - time.monotonic())
                    share = min(0.15 * timeout, left / max(1, 2 * (len(players) - p)))
                    verdicts.append(_weak(space, g, rg, p, time.monotonic() + share, seed))
            elif prop == "strong-winnability":
                assert vals is not None
                sol = solve_kinrow(kr, board_name=lg.board_name) if kr is not None else None
                for p in range(len(players)):
                    verdicts.append(_strong(space, g, vals, p, sol))
            elif prop == "goal-uniqueness":
                left = max(0.0, deadline - time.monotonic())
                verdicts.append(_uniqueness(space, g, rg, kr, time.monotonic() + min(0.3 * timeout, left), seed))
            elif prop == "goal-monotonicity":
                verdicts.append(_monotonicity(space, g, rg, kr))
            new = verdicts[had:]
            for v in new:
                v.seconds = (time.monotonic() - t1) / len(new)
    except KeyboardInterrupt:
        res.complete = False
        res.interrupted = True
    res.seconds = time.monotonic() - t0
    return res


def _termination(space: Space, g: Graph, rg: RuleGame) -> Verdict:
    ranking = find_ranking(rg)
    pl = plies_bound(rg)
    lasso = shortest_lasso(g)
    also: list[str] = []
    v: Verdict | None = None
    if ranking is not None:
        v = Verdict("termination", PROVED, "ranking function (z3 Optimize over the rewrites)",
                    f"every turn lowers {ranking.describe()} (at least 0), so every play ends within "
                    f"{ranking.bound} turns ({ranking.effects.apps} placed moves read)",
                    bound={"turns": ranking.bound, "measure": ranking.describe()})
    elif pl is not None:
        where = f"line {pl.line}" if pl.line else "added"
        v = Verdict("termination", PROVED, "ranking function (plies rule)",
                    f"every turn adds one to the ply and the plies rule ends the game at ply {pl.value} ({where}), so "
                    f"every play ends within {pl.value} turns", bound={"turns": pl.value})
    if lasso is not None:
        nodes, loop = lasso
        w = _witness(space, g, nodes, "the last position is the one after the turns before loop_from: play can go "
                                      "round for ever")
        w.loop = loop
        if v is not None:  # pragma: no cover - a ranking excludes cycles; keep both answers visible
            v.detail += f"; BUT the search found a cycle of {len(nodes) - 1 - loop} turns"
            v.verdict = UNKNOWN
            v.witness = w
            return v
        return Verdict("termination", REFUTED, "exhaustive (shortest cycle)",
                       f"a play can repeat a position for ever: {loop} turns to the position, {len(nodes) - 1 - loop} "
                       "round the loop", witness=w, bound=g.bound())
    if g.complete:
        longest = len(longest_path_nodes(g)) - 1
        what = (f"the {len(g.nodes):,} reachable positions"
                + (f" (one per class of the {space.symmetry})" if space.symmetry != "none" else "")
                + f" have no cycle; the longest play has {longest} turns")
        return _proved_exhaustively(v, "termination", what, g)
    if v is not None:
        return v
    return Verdict("termination", UNKNOWN, "exhaustive (partial)",
                   f"no cycle among {len(g.nodes):,} positions within {max(g.depth, default=0)} turns, and no ranking "
                   "function over state counts or plies rule", bound=g.bound(), also=also)


def _proved_exhaustively(v: Verdict | None, prop: str, what: str, g: Graph) -> Verdict:
    """A property the complete graph proves: the static verdict ``v`` (if any) with the search added, else a new one."""
    if v is not None:
        v.also.append("exhaustive")
        v.detail += f"; exhaustive: {what}"
        return v
    return Verdict(prop, PROVED, "exhaustive", what, bound=g.bound())


def _playability(space: Space, g: Graph, rg: RuleGame) -> Verdict:
    cover = no_turns_cover(rg)
    bad = first_node(g, lambda i: g.succ[i] is not None and not g.succ[i] and space.unscored(g.nodes[i]))
    if bad is not None:
        w = _witness(space, g, g.path(bad), "the player to move has no turn and no end rule says how the game ends "
                                           "(the engine calls it a draw)")
        return Verdict("playability", REFUTED, "exhaustive (breadth first: shortest)",
                       f"after {g.depth[bad]} turns {space.players[g.nodes[bad].to_move]} has no legal turn and no end "
                       "rule scores the position", witness=w, bound=g.bound())
    v: Verdict | None = None
    if cover is not None:
        lines = ", ".join(f"line {e.line}" if e.line else "added" for e in cover)
        v = Verdict("playability", PROVED, "static (no-turns rule)",
                    f"the no-turns rule{'s' if len(cover) > 1 else ''} ({lines}) score{'' if len(cover) > 1 else 's'} "
                    "every position where the player to move has no turn")
    if g.complete:
        what = f"every one of the {len(g.nodes):,} reachable positions has a turn or is scored by an end rule"
        return _proved_exhaustively(v, "playability", what, g)
    if v is not None:
        return v
    return Verdict("playability", UNKNOWN, "exhaustive (partial)",
                   f"every one of {len(g.nodes):,} positions explored has a turn or a score", bound=g.bound())


def _weak(space: Space, g: Graph, rg: RuleGame, p: int, deadline: float, seed: int) -> Verdict:
    name = space.players[p]
    won = first_node(g, lambda i: g.succ[i] == [] and (g.outcome[i] or {}).get(name, 0) > 0)
    if won is not None:
        w: Witness | None = _witness(space, g, g.path(won), f"{name} wins")
        return Verdict("weak-winnability", PROVED, "exhaustive (breadth first: shortest)",
                       f"{name} wins in {g.depth[won]} turns", player=name, witness=w)
    if g.complete:
        return Verdict("weak-winnability", REFUTED, "exhaustive",
                       f"no end position among the {len(g.nodes):,} reachable ones gives {name} a win", player=name,
                       bound=g.bound())
    floor = g.full_depth() + 1
    w, tries = cooperative_win(space.game, rg, p, deadline=deadline, floor=floor, seed=seed + p)
    if w is not None:
        shortest = len(w.turns) <= floor
        w.note = f"{name} wins" + ("" if shortest else " (found by search; a shorter win may exist)")
        why = (f"shortest: the exhaustive search saw every play of up to {floor - 1} turns, none won by {name}"
               if shortest else f"shortest not proved: every play of up to {floor - 1} turns was searched")
        return Verdict("weak-winnability", PROVED, "cooperative search" + (" + exhaustive" if shortest else ""),
                       f"{name} wins in {len(w.turns)} turns ({why})", player=name, witness=w,
                       bound={"plays": tries, "searched_turns": floor - 1})
    b = g.bound()
    b["plays"] = tries
    return Verdict("weak-winnability", UNKNOWN, "exhaustive (partial) + cooperative search",
                   f"no win for {name} among {len(g.nodes):,} positions nor in {tries} cooperative plays", player=name,
                   bound=b)


def _refutation(space: Space, g: Graph, vals: Any, p: int) -> Witness:
    """A play showing that player p cannot force a win: another player's forced win where there is one, else the
    others keeping p out of every position p could force a win from."""
    name = space.players[p]
    for q in range(len(space.players)):
        if q != p and vals.win[q] and vals.win[q][0] is not None:
            return _witness(space, g, forcing_line(g, vals, q), f"{space.players[q]} forces a win; {name} delays")
    return _witness(space, g, defence_line(g, vals, p), f"the other side keeps {name} from any position it could "
                                                        "force a win from")


def _strong(space: Space, g: Graph, vals: Any, p: int, sol: Any) -> Verdict:
    name = space.players[p]
    dist = vals.win[p][0] if vals.win[p] else None
    graph_says = None if not g.complete and dist is None else dist is not None
    retro = (f"retrograde analysis of the {len(g.nodes):,} reachable positions"
             + (f" ({space.symmetry})" if space.symmetry != "none" else ""))
    if sol is not None and sol.complete:
        first_wins = (sol.value == 1) if p == 0 else (sol.value == -1)
        also = ["exhaustive (retrograde)"] if graph_says is not None and graph_says == first_wins else []
        if graph_says is not None and graph_says != first_wins:  # pragma: no cover - the two solvers disagree
            return Verdict("strong-winnability", UNKNOWN, "solve vs exhaustive", "the solver and the retrograde analysis "
                           "disagree", player=name)
        if first_wins:
            w = _witness(space, g, forcing_line(g, vals, p), f"{name} forces the win; the other side delays")
            return Verdict("strong-winnability", PROVED, f"solve ({sol.method})",
                           f"{name} forces a win in {sol.plies} plies", player=name, witness=w, also=also)
        value = {1: "the first player wins", 0: "a draw", -1: "the second player wins"}[sol.value]
        w = _refutation(space, g, vals, p)
        return Verdict("strong-winnability", REFUTED, f"solve ({sol.method})",
                       f"{name} cannot force a win: under perfect play the game is {value} ({sol.plies} plies)",
                       player=name, witness=w, also=also)
    if dist is not None:
        w = _witness(space, g, forcing_line(g, vals, p), f"{name} forces the win; the other side delays")
        return Verdict("strong-winnability", PROVED, "exhaustive (retrograde)",
                       f"{name} forces a win within {dist} turns ({retro})", player=name, witness=w)
    if g.complete:
        w = _refutation(space, g, vals, p)
        return Verdict("strong-winnability", REFUTED, "exhaustive (retrograde)",
                       f"{name} cannot force a win ({retro})", player=name, witness=w)
    b = g.bound()
    b["searched_turns"] = g.full_depth()
    return Verdict("strong-winnability", UNKNOWN, "exhaustive (partial, retrograde)",
                   f"{name} cannot force a win within {g.full_depth()} turns (every play that long was searched: "
                   f"{len(g.nodes):,} positions); a longer forced win is not excluded", player=name, bound=b)


def _goals_at(rg: RuleGame, kr: ClaimGame | None, pos: Position, mind_check: bool = True) -> list[tuple[int, int, tuple]]:
    return _kinrow_goals(kr, pos) if kr is not None else goals_holding(rg, pos, mind_check=mind_check)


def _uniqueness(space: Space, g: Graph, rg: RuleGame, kr: ClaimGame | None, deadline: float, seed: int) -> Verdict:
    goals = goal_rules(rg)
    if not goals:
        return Verdict("goal-uniqueness", PROVED, "static", "the rule set has no goal rule: each length rule "
                       "(no-turns, plies, counter, repetition) gives one result, read in file order")
    players = space.players

    def conflict(i: int) -> bool:
        if g.succ[i] != []:
            return False
        held = _goals_at(rg, kr, g.nodes[i])
        return len({sc for _r, _p, sc in held}) > 1

    bad = first_node(g, conflict)
    if bad is not None:
        held = _goals_at(rg, kr, g.nodes[bad])
        desc = "; ".join(f"rule at line {goals[[i for i, _ in goals].index(r)][1].line}: {players[p]} "
                         f"{goals[[i for i, _ in goals].index(r)][1].result}s" for r, p, _ in held)
        w: Witness | None = _witness(space, g, g.path(bad), "two goals hold at the end; the end rules' order decides")
        return Verdict("goal-uniqueness", REFUTED, "exhaustive (breadth first: shortest)",
                       f"after {g.depth[bad]} turns the goals disagree ({desc}); the outcome is "
                       f"{g.outcome[bad]}", witness=w, bound=g.bound())
    single = len(goals) == 1 and goals[0][1].kind != "line" and goals[0][1].player is not None
    if single:
        return Verdict("goal-uniqueness", PROVED, "static", "one goal rule, for one player")
    if g.complete:
        return Verdict("goal-uniqueness", PROVED, "exhaustive",
                       f"at every one of the reachable end positions the goals that hold agree ({len(g.nodes):,} "
                       "positions)", bound=g.bound())
    floor = g.full_depth() + 1
    w, tries = conflict_search(space.game, rg, deadline=deadline, floor=floor, seed=seed)
    if w is not None:
        held = goals_holding(rg, w.positions[-1])
        desc = "; ".join(f"{players[p]} {dict(sc)[players[p]]:+d} by the rule at line {rg.ends.ends[r].line}"
                         for r, p, sc in held)
        shortest = len(w.turns) <= floor
        w.note = "two goals hold at the end; the end rules decide between them"
        return Verdict("goal-uniqueness", REFUTED, "cooperative search" + (" + exhaustive" if shortest else ""),
                       f"after {len(w.turns)} turns the goals disagree ({desc})"
                       + ("" if shortest else f"; shortest not proved (every play of up to {floor - 1} turns searched)"),
                       witness=w, bound={"plays": tries, "searched_turns": floor - 1})
    b = g.bound()
    b["plays"] = tries
    return Verdict("goal-uniqueness", UNKNOWN, "exhaustive (partial) + cooperative search",
                   f"no two goals disagree at the end positions among {len(g.nodes):,} searched nor in {tries} "
                   "cooperative plays", bound=b)


def _monotonicity(space: Space, g: Graph, rg: RuleGame, kr: ClaimGame | None) -> Verdict:
    goals = goal_rules(rg)
    masked = [e for _i, e in goals if e.check is not None]
    static = None
    if not masked:
        static = Verdict("goal-monotonicity", PROVED, "static",
                         "no goal rule has a check condition: every goal ends the game the moment it holds"
                         if goals else "the rule set has no goal rule")
    bad: tuple[int, int, str] | None = None
    for i in range(len(g.nodes)):
        kids = g.succ[i]
        if not kids:
            continue
        held = {(r, p) for r, p, _ in _goals_at(rg, kr, g.nodes[i], mind_check=False)}
        if not held:
            continue
        for j, lab in kids:
            now = {(r, p) for r, p, _ in _goals_at(rg, kr, g.nodes[j], mind_check=False)}
            if held - now:
                if bad is None or g.depth[i] < g.depth[bad[0]]:
                    bad = (i, j, lab)
                break
    if bad is not None:
        i, j, _lab = bad
        w = _witness(space, g, [*g.path(i), j], "the goal holds after the turns but one and is gone after the last")
        held = {(r, p) for r, p, _ in _goals_at(rg, kr, g.nodes[i], mind_check=False)}
        now = {(r, p) for r, p, _ in _goals_at(rg, kr, g.nodes[j], mind_check=False)}
        (r, p) = sorted(held - now)[0]
        e = rg.ends.ends[r]
        return Verdict("goal-monotonicity", REFUTED, "exhaustive (breadth first: shortest)",
                       f"{space.players[p]}'s goal (end rule at line {e.line}, masked by check = "
                       f"{str(e.check).lower()}) holds after {g.depth[i]} turns while play goes on, and the next turn "
                       "undoes it", witness=w, bound=g.bound())
    if static is not None:
        if g.complete:
            static.also.append("exhaustive")
        return static
    if g.complete:
        return Verdict("goal-monotonicity", PROVED, "exhaustive",
                       f"no goal that holds while play goes on is undone by a turn ({len(g.nodes):,} positions)",
                       bound=g.bound())
    return Verdict("goal-monotonicity", UNKNOWN, "exhaustive (partial)",
                   f"no goal undone among {len(g.nodes):,} positions searched", bound=g.bound())

