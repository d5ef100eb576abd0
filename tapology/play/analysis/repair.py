"""Repairs: where a property fails, the smallest change from a documented family that makes it hold.

The family (each change is one edit of the rule file):

=================  ==================================================================  ===================
change             edit                                                                for
=================  ==================================================================  ===================
``end-at N``       an end rule ``kind = "plies"``, ``value = N``, ``result`` draw (or   termination, weak
                   win / loss for the player to move at N: a survival goal)             winnability
``no-turns``       an end rule ``kind = "no-turns"`` at the end, ``result`` loss or     playability
                   draw
``drop-check``     remove a goal rule's ``check`` condition (the goal ends the game     goal monotonicity
                   the moment it holds)
``safe``           add a move's landing cell to its ``safe`` cells (rule sets with      goal monotonicity
                   royal states: the piece may not land where it could be taken)
``tape``           forbid some tape moves: ``flip = "no"`` or ``"only"``, or no tapes   goal uniqueness,
                                                                                        termination
=================  ==================================================================  ===================

N is the least number of turns that keeps every position of the game reachable: one more
than the depth of the breadth-first search (or, where that search did not finish, the
least number that changes no play it saw), and the next one, so that either player can be
the one to move at N.  Each candidate is re-verified with :func:`check_properties`; a
candidate repairs a failure when the property is then *proved*.  Candidates are ranked by
what still fails after them (refuted, then unknown), then by the size of the change.  The
combined repair applies the best candidate for each failure in turn, re-verifying after each.
"""

from __future__ import annotations

import builtins
import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tapology.game import Game
from tapology.games.kinrow import kinrow_of_rules
from tapology.games.registry import LoadedGame, notation_of
from tapology.play.analysis.properties import PROVED, REFUTED, UNKNOWN, PropertiesResult, check_properties
from tapology.play.solving.statespace import Progress
from tapology.rules.engine import RuleGame
from tapology.rules.model import COPY, EndRule, RuleSet, TapeRule


def loaded_from_rules(rules: RuleSet, board: str) -> LoadedGame:
    """A rule set (changed in memory) on a board, ready for the properties (as the registry loads a game)."""
    generic = RuleGame(rules, board, notation=notation_of(rules))
    kr = kinrow_of_rules(rules, generic.initial().board)
    game: Game = generic
    if kr is not None:
        game = kr
    return LoadedGame(game, rules.name, generic.board_name, generic, rules)


@dataclass
class Change:
    """One edit of a rule set: what it is, as TOML to add or as an instruction, and the rule set after it."""

    kind: str
    description: str
    toml: str
    rules: RuleSet = field(repr=False)
    size: int = 1

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {"kind": self.kind, "description": self.description, "toml": self.toml}


@dataclass
class Candidate:
    """A change and the properties after it."""

    change: Change
    after: PropertiesResult
    fixes: bool
    still_failing: list[str]
    regressions: list[str]

    def rank(self) -> tuple:
        """Sort key: fixes first, then fewest failures and unknowns left, then the smallest change."""
        refuted = sum(1 for v in self.after.verdicts if v.verdict == REFUTED)
        unknown = sum(1 for v in self.after.verdicts if v.verdict == UNKNOWN)
        return (not self.fixes, len(self.regressions), refuted, unknown, self.change.size)

    def to_json(self) -> dict[str, Any]:
        """The change and what it does."""
        return {"change": self.change.to_json(), "fixes": self.fixes, "still_failing": self.still_failing,
                "regressions": self.regressions}


@dataclass
class Failure:
    """A failing property and the candidates tried for it, best first."""

    property: str
    player: str | None
    candidates: list[Candidate]

    @builtins.property  # the field above shadows the name in the class body
    def best(self) -> Candidate | None:
        """The best candidate that repairs it."""
        return next((c for c in self.candidates if c.fixes), None)

    def to_json(self) -> dict[str, Any]:
        """As JSON: the best repair and the others tried."""
        out: dict[str, Any] = {"property": self.property}
        if self.player is not None:
            out["player"] = self.player
        best = self.best
        out["repair"] = best.to_json() if best is not None else None
        out["tried"] = [c.to_json() for c in self.candidates]
        return out


@dataclass
class RepairResult:
    """Failures before, a repair for each, and the combined repair re-verified."""

    game: str
    board: str
    before: PropertiesResult
    failures: list[Failure]
    changes: list[Change]
    after: PropertiesResult | None
    seconds: float = 0.0
    complete: bool = True
    interrupted: bool = False

    @property
    def passes(self) -> bool:
        """Every property that failed before holds after the combined repair."""
        if self.after is None:
            return False
        return all(self.after.get(f.property, f.player).verdict == PROVED for f in self.failures)

    def to_json(self) -> dict[str, Any]:
        """``{"failures": [...], "combined": {"changes", "properties"}, "passes"}``."""
        return {"game": self.game, "board": self.board,
                "failures": [f.to_json() for f in self.failures],
                "combined": {"changes": [c.to_json() for c in self.changes],
                             "properties": self.after.to_json()["properties"] if self.after is not None else None},
                "passes": self.passes, "seconds": round(self.seconds, 3), "complete": self.complete}


def _failed(res: PropertiesResult) -> list[tuple[str, str | None]]:
    return [(v.property, v.player) for v in res.verdicts if v.verdict == REFUTED and v.property != "strong-winnability"]


def _end_toml(e: EndRule) -> str:
    lines = ["[[end]]", f'kind = "{e.kind}"']
    if e.kind == "plies":
        lines.append(f"value = {e.value}")
    lines.append(f'result = "{e.result}"')
    return "\n".join(lines)


def candidates(lg: LoadedGame, prop: str, before: PropertiesResult) -> list[Change]:
    """The changes of the family that could repair a failure of ``prop`` (see the module docstring)."""
    rules = lg.rules
    rg = lg.generic
    out: list[Change] = []
    np_ = len(rules.players)
    start = rg.initial()
    if prop in ("termination", "weak-winnability"):
        depth = int(before.explored.get("depth", 0))
        base = depth + 1
        for n in range(base, base + np_):
            mover = rules.players[(start.to_move + n) % np_]
            for result in ("draw", "win", "loss"):
                if prop == "weak-winnability" and result == "draw":
                    continue
                e = EndRule("plies", value=n, result=result)
                what = "a draw" if result == "draw" else f"a {result} for {mover} (to move then)"
                out.append(Change("end-at", f"end the game after {n} turns: {what}", _end_toml(e),
                                  dataclasses.replace(rules, ends=(*rules.ends, e)), 1 if result == "draw" else 2))
    if prop == "playability":
        for result in ("loss", "draw"):
            e = EndRule("no-turns", result=result)
            out.append(Change("no-turns", f"a player without a turn {'loses' if result == 'loss' else 'draws'}",
                              _end_toml(e), dataclasses.replace(rules, ends=(*rules.ends, e))))
    if prop == "goal-monotonicity":
        for i, e in enumerate(rules.ends):
            if e.kind in ("line", "count", "chain") and e.check is not None:
                ends = tuple(dataclasses.replace(x, check=None) if j == i else x for j, x in enumerate(rules.ends))
                out.append(Change("drop-check", f"the goal at line {e.line} counts whether or not the player to move "
                                                "is in check",
                                  f"remove `check = {str(e.check).lower()}` from the [[end]] at line {e.line}",
                                  dataclasses.replace(rules, ends=ends)))
        royal_owners = {rules.state_index[r].owner for r in rules.royal}
        for mi, m in enumerate(rules.moves):
            if not set(m.players) <= royal_owners:
                continue
            for pc in m.cells:
                if pc.after == COPY and pc.cell not in m.safe:
                    mv = dataclasses.replace(m, safe=(*m.safe, pc.cell))
                    moves = tuple(mv if j == mi else x for j, x in enumerate(rules.moves))
                    out.append(Change("safe", f"move {m.name} may not land on a tile the other side attacks",
                                      f"add safe = [[{pc.cell[0]}, {pc.cell[1]}]] to the [[move]] {m.name!r} "
                                      f"(line {m.line})", dataclasses.replace(rules, moves=moves), 2))
    if prop in ("goal-uniqueness", "termination") and rules.tape is not None:
        for flips, what in (((False,), "no"), ((True,), "only")):
            if tuple(rules.tape.flips) != flips:
                out.append(Change("tape", f"tapings {'without' if what == 'no' else 'only with'} a flip",
                                  f'[tape]\nflip = "{what}"',
                                  dataclasses.replace(rules, tape=TapeRule(rules.tape.players, flips))))
        out.append(Change("tape", "no tape moves", "remove the [tape] table", dataclasses.replace(rules, tape=None), 3))
    return out


def repair(lg: LoadedGame, *, before: PropertiesResult | None = None, timeout: float = 120.0,
           check_timeout: float = 10.0, max_positions: int = 50_000, progress: Progress | None = None) -> RepairResult:
    """Suggest repairs for every refuted property of a loaded game and re-verify the combined repair.

    Each candidate's properties are checked within ``check_timeout`` seconds; the whole search stops at
    ``timeout`` (and on Ctrl-C) with what it has (``complete`` False).
    """
    t0 = time.monotonic()
    deadline = t0 + timeout
    board = lg.board_name

    def verify(rules: RuleSet) -> PropertiesResult:
        return check_properties(loaded_from_rules(rules, board), timeout=check_timeout, max_positions=max_positions)

    before = before if before is not None else check_properties(lg, timeout=check_timeout, max_positions=max_positions)
    res = RepairResult(lg.name, board, before, [], [], None)
    proved_before = {(v.property, v.player) for v in before.verdicts if v.verdict == PROVED}

    def assess(ch: Change, prop: str, player: str | None, base_proved: set) -> Candidate:
        after = verify(ch.rules)
        fixed = after.get(prop, player).verdict == PROVED
        failing = [f"{v.property}" + (f" ({v.player})" if v.player else "") for v in after.verdicts
                   if v.verdict == REFUTED]
        now = {(v.property, v.player) for v in after.verdicts if v.verdict == PROVED}
        regress = [p + (f" ({w})" if w else "") for p, w in sorted(base_proved - now, key=str)]
        return Candidate(ch, after, fixed, failing, regress)

    try:
        for k, (prop, player) in enumerate(_failed(before)):
            if progress:
                progress("repairs", k, len(_failed(before)))
            tried = []
            for ch in candidates(lg, prop, before):
                if time.monotonic() > deadline:
                    res.complete = False
                    break
                tried.append(assess(ch, prop, player, proved_before))
            tried.sort(key=lambda c: c.rank())
            res.failures.append(Failure(prop, player, tried))
        # the combined repair: the best change for each failure still failing, in turn
        cur, cur_res = lg, before
        for f in res.failures:
            if time.monotonic() > deadline:
                res.complete = False
                break
            if cur_res.get(f.property, f.player).verdict == PROVED:
                continue
            base = {(v.property, v.player) for v in cur_res.verdicts if v.verdict == PROVED}
            options = sorted((assess(ch, f.property, f.player, base) for ch in candidates(cur, f.property, cur_res)),
                             key=lambda c: c.rank())
            best = next((c for c in options if c.fixes), None)
            if best is None:
                continue
            res.changes.append(best.change)
            cur = loaded_from_rules(best.change.rules, board)
            cur_res = best.after
        res.after = cur_res if res.changes else None
    except KeyboardInterrupt:
        res.complete = False
        res.interrupted = True
    res.seconds = time.monotonic() - t0
    return res


def changes_toml(changes: Sequence[Change]) -> str:
    """The combined repair as the edits to make, one block per change."""
    return "\n\n".join(f"# {c.description}\n{c.toml}" for c in changes)
