"""End rules: when a position ends the game and with what score, read in the rule file's order.

Each rule may be limited to positions where the player to move is (``check = true``) or is
not (``check = false``) in check; ``optional`` rules (house rules, automatic draws) are applied
in play and left out by perft; ``claim`` rules never end the game by themselves: the player to
move may claim them (:meth:`EndRules.claims`).  A ``no-turns`` rule needs the turns, so rules after it wait for
them.  Scores: 1 win, 0 draw, −1 loss per player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tapology.rules.chains import Chains, conditions_hold
from tapology.rules.compiled import Compiled
from tapology.rules.model import EndRule, RuleSet, compare

Score = dict[str, int]


@dataclass
class Situation:
    """What the end rules read of a position: its codes, who moves, plies played, counters, and callbacks for the
    facts that cost a search (whether a turn exists, how often the position has stood)."""

    codes: list[int]
    to_move: int
    ply: int
    counters: tuple[int, ...]
    any_turn: Callable[[], bool]
    repeats: Callable[[], int]


@dataclass(frozen=True)
class Claim:
    """A claim the player to move may make: what it is called and the score it ends the game with."""

    name: str
    score: Score


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def end_text(e: EndRule) -> str:
    """A few words saying what an end rule asks (its condition, not its result)."""
    if e.kind == "counter":
        return f"counter {e.counter} {e.op} {e.value}"
    if e.kind == "repetition":
        return f"the same position for the {ordinal(e.value)} time"
    if e.kind == "plies":
        return f"after {e.value} turns"
    if e.kind == "count":
        return " and ".join(f"count of {'|'.join(c.states)}{' in ' + c.region if c.region else ''} {c.op} {c.value}"
                            for c in e.conditions)
    if e.kind == "chain":
        return f"a chain of {e.value} {e.move!r} moves"
    if e.kind == "line":
        return f"{e.k} in a row"
    return "no legal turn"


def score(players: tuple[str, ...], player: int, result: str) -> Score:
    """The score when ``player`` gets ``result`` (win, loss or draw); with more than two players a loss is 0 for the
    others."""
    if result == "draw":
        return {p: 0 for p in players}
    sign = 1 if result == "win" else -1
    out = {}
    for i, p in enumerate(players):
        if i == player:
            out[p] = sign
        else:
            out[p] = -sign if len(players) == 2 or sign == 1 else 0
    return out


def board_scores(comp: Compiled, codes: list[int], e: EndRule, n_players: int) -> list[int]:
    """Each player's score on the board: ``pieces`` counts the tiles holding their states (``e.states`` read for
    the player, or every state they own); ``area`` adds each region of empty tiles whose neighbours (across the
    gluings) are all that player's pieces (go's area scoring)."""
    h = comp.h
    out = []
    owned = [comp.state_values(e.states, p) for p in range(n_players)]
    for vals in owned:
        out.append(sum(1 for c in codes if c // h in vals))
    if e.score == "area":
        # and each region of empty tiles (state 0) whose neighbours are all one player's pieces
        nb = comp.neighbours
        seen: set[int] = set()
        for t, c in enumerate(codes):
            if c // h != 0 or t in seen:
                continue
            region = [t]
            seen.add(t)
            touch: set[int] = set()
            i = 0
            while i < len(region):
                for v in nb[region[i]]:
                    s = codes[v] // h
                    if s == 0:
                        if v not in seen:
                            seen.add(v)
                            region.append(v)
                    else:
                        touch.update(p for p, vals in enumerate(owned) if s in vals)
                i += 1
            if len(touch) == 1:
                out[touch.pop()] += len(region)
    return out


def ranked(players: tuple[str, ...], scores: list[int]) -> Score:
    """Win for the highest score, draw when several share it (the others lose)."""
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s == best]
    if len(top) == 1:
        return score(players, top[0], "win") if len(players) == 2 else \
            {p: 1 if i == top[0] else -1 for i, p in enumerate(players)}
    return {p: 0 if i in top else -1 for i, p in enumerate(players)}


def connect_regions(comp: Compiled, e: EndRule, player: int) -> list[frozenset[int]] | None:
    """The regions a connect rule names for ``player`` (``{player}`` read), None if the board lacks one."""
    out = []
    for name in e.regions:
        region = comp.regions.get(name.replace("{player}", comp.rules.players[player]))
        if region is None:
            return None
        out.append(region)
    return out


def connects(comp: Compiled, codes: list[int], e: EndRule, player: int) -> bool:
    """True when one group of the player's pieces (``e.states`` or all they own), joined through the grid's unit
    directions across the gluings, touches every region of the rule.  Cost O(n·|S|)."""
    regions = connect_regions(comp, e, player)
    if not regions or any(not r for r in regions):
        return False
    h = comp.h
    vals = comp.state_values(e.states, player)
    glue = comp.board.glue
    seen: set[int] = set()
    for t in regions[0]:
        if t in seen or codes[t] // h not in vals:
            continue
        group = {t}
        todo = [t]
        while todo:
            u = todo.pop()
            for code in glue[u]:
                v = code // h
                if code >= 0 and v not in group and codes[v] // h in vals:
                    group.add(v)
                    todo.append(v)
        seen |= group
        if all(group & r for r in regions[1:]):
            return True
    return False


def has_line(comp: Compiled, codes: list[int], e: EndRule, player: int) -> bool:
    """True when some line of ``e.k`` distinct tiles holds the player's states (``e.states``, or all they own); with
    ``e.exact``, a line whose neighbours beyond both ends do not (off the board counts as not)."""
    h = comp.h
    vals = comp.state_values(e.states, player)
    if not vals:
        return False
    if e.exact:
        return any(all(codes[t] // h in vals for t in line) and (before < 0 or codes[before] // h not in vals)
                   and (after < 0 or codes[after] // h not in vals) for before, line, after in comp.exact_lines(e.k))
    return any(all(codes[t] // h in vals for t in line) for line in comp.lines(e.k))


class EndRules:
    """The end rules of a rule set (with or without the optional ones)."""

    def __init__(self, rules: RuleSet, optional: bool = True) -> None:
        self.rules = rules
        self.players = rules.players
        self.ends = tuple(e for e in rules.ends if not e.claim and (optional or not e.optional))
        self.claim_rules = tuple(e for e in rules.ends if e.claim and optional)
        self.counter_index = {c.name: i for i, c in enumerate(rules.counters)}

    @property
    def needs_turns_only(self) -> bool:
        """True when the only way to end is to have no turn (perft needs no end test then)."""
        return all(e.kind == "no-turns" for e in self.ends)

    def outcome(self, comp: Compiled, chains: Chains, sit: Situation, part: str = "all") -> Score | None:
        """The outcome of a position, or None while it goes on.  ``part``: ``all`` the rules; ``before`` those before
        the first ``no-turns`` rule (the caller has not listed the turns yet); ``after`` the first ``no-turns`` rule
        and those after it; ``moves`` every rule but the ``no-turns`` ones (perft: a position without turns has no
        children anyway)."""
        in_check: bool | None = None
        seen_no_turns = False
        for e in self.ends:
            if e.kind == "no-turns":
                if part == "before":
                    return None
                seen_no_turns = True
                if part == "moves" or sit.any_turn():
                    continue
            elif part == "after" and not seen_no_turns:
                continue
            if e.check is not None:
                if in_check is None:
                    in_check = chains.in_check(sit.codes, sit.to_move)
                if in_check != e.check:
                    continue
            if e.kind == "no-turns":
                return self._final(comp, sit, e, score(self.players, sit.to_move, e.result))
            got = self._rule(comp, chains, sit, e)
            if got is not None:
                return self._final(comp, sit, e, got)
        return None

    def claims(self, comp: Compiled, chains: Chains, sit: Situation) -> list[tuple[EndRule, Score]]:
        """The claim rules that hold for the position (the player to move may end the game by one), with the score
        each gives, in file order.  A claim is made on one's own turn, so the game must not be over already."""
        out = []
        in_check: bool | None = None
        for e in self.claim_rules:
            if e.check is not None:
                if in_check is None:
                    in_check = chains.in_check(sit.codes, sit.to_move)
                if in_check != e.check:
                    continue
            got = self._rule(comp, chains, sit, e)
            if got is not None:
                out.append((e, got))
        return out

    def _final(self, comp: Compiled, sit: Situation, e: EndRule, got: Score) -> Score:
        """The rule's score: as it says, or (``result = "score"``) read off the board."""
        if e.result != "score":
            return got
        return ranked(self.players, board_scores(comp, sit.codes, e, len(self.players)))

    def _rule(self, comp: Compiled, chains: Chains, sit: Situation, e: EndRule) -> Score | None:
        players = self.players
        if e.after_phases and (sit.ply == 0 or self.rules.phase_at(sit.ply - 1) >= 0):
            return None  # read only on positions reached by a turn of the regular play
        if e.kind == "plies":
            return score(players, sit.to_move, e.result) if sit.ply >= e.value else None
        if e.kind == "line":
            have = [p for p in range(len(players)) if has_line(comp, sit.codes, e, p)]
            if len(have) > 1 and e.both == "draw":
                return {p: 0 for p in players}
            if have:
                mover = self.rules.previous_player(sit.to_move, sit.ply)
                return score(players, mover if mover in have else have[0], e.result)
            return None
        if e.kind == "count":
            for p in ([e.player] if e.player is not None else range(len(players))):
                if conditions_hold(comp, sit.codes, e.conditions, p):
                    return score(players, p, e.result)
            return None
        if e.kind == "chain":
            mover = (sit.to_move - 1) % len(players)
            for p in ([mover] if e.mover else [e.player] if e.player is not None else range(len(players))):
                if compare(chains.longest(sit.codes, e.move, p), e.op, e.value):  # op "<", value 1: no such chain
                    return score(players, p, e.result)
            return None
        if e.kind == "counter":
            i = self.counter_index[e.counter]
            n = sit.counters[i] if i < len(sit.counters) else 0
            return score(players, sit.to_move, e.result) if compare(n, e.op, e.value) else None
        if e.kind == "connect":
            for p in ([e.player] if e.player is not None else range(len(players))):
                if connects(comp, sit.codes, e, p):
                    return score(players, p, e.result)
            return None
        if e.kind == "repetition":
            return score(players, sit.to_move, e.result) if sit.repeats() >= e.value else None
        raise AssertionError(e.kind)
