"""Computer players: choose a turn from the legal ones, at a given strength.

Strength is ``random`` (any legal turn), a search depth in plies, or ``perfect``.  On
k-in-a-row games a depth means negamax with alpha-beta, a heuristic counting open lines at
the horizon and early draw detection cutting dead branches; ``perfect`` plays from the solved
game when the board has at most :data:`TABLE_TILES` tiles (else it searches 6 plies).  On
other games a depth means memoised maximin over the game's turns (outcomes only, no
heuristic), and ``perfect`` searches :data:`GENERIC_PERFECT_DEPTH` plies.  Ties are broken at
random from a seeded generator, so a game is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from tapology.errors import StrengthError
from tapology.game import Game, Position, Turn
from tapology.games.kinrow import KInARow, popcount
from tapology.play.solve import WIN, KinrowTable, solve_kinrow

TABLE_TILES = 20
PERFECT = 99
GENERIC_PERFECT_DEPTH = 4  # "perfect" on a game without a solved table: this many plies



def parse_strength(text: str, where: str = "--strength") -> int:
    """0 for ``random``, :data:`PERFECT` for ``perfect``, else the depth."""
    t = text.strip().lower()
    if t == "random":
        return 0
    if t == "perfect":
        return PERFECT
    try:
        d = int(t)
    except ValueError:
        raise StrengthError(f"{where}: {text!r} is not random, perfect or a search depth") from None
    if d < 0:
        raise StrengthError(f"{where}: {text!r}: the depth must be 0 (random) or more")
    return d


class Agent(Protocol):
    """A computer player."""

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """Index of the chosen turn in ``turns``."""
        ...


class _SearchAgent:
    """What the computer players share: a strength (0: any turn), a seeded choice among equally good turns."""

    def __init__(self, game: Any, strength: int = PERFECT, seed: int | None = None) -> None:
        self.game = game
        self.strength = strength
        self.rng = random.Random(seed)

    def values(self, pos: Position, turns: Sequence[Turn]) -> list[int]:
        """The value of each turn for the mover (higher is better)."""
        raise NotImplementedError

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """A best turn (random among equals; any turn at strength 0)."""
        if not turns:
            raise StrengthError("no legal turn to choose from")
        if self.strength == 0:
            return self.rng.randrange(len(turns))
        vals = self.values(pos, turns)
        best = max(vals)
        return self.rng.choice([i for i, v in enumerate(vals) if v == best])


class KinrowAgent(_SearchAgent):
    """A computer player for a :class:`KInARow` game."""

    def __init__(self, game: KInARow, strength: int = PERFECT, seed: int | None = None) -> None:
        super().__init__(game, strength, seed)
        self._table: KinrowTable | None = None

    def table(self) -> KinrowTable | None:
        """The solved table (built on first use) when the board is small enough."""
        if self._table is None and self.game.n <= TABLE_TILES:
            self._table = solve_kinrow(self.game, keep_table=True).table
        return self._table

    def scores(self, x: int, o: int) -> dict[int, int]:
        """Score of each claim (tile -> score for the mover) at this agent's strength."""
        g = self.game
        kids = g.children(x, o)
        if self.strength >= PERFECT and (tab := self.table()) is not None:
            return {t: -tab.score(cx, co) for t, cx, co in kids}
        depth = self.strength if self.strength < PERFECT else 6
        return {t: -self._negamax(cx, co, depth - 1, -WIN - 1, WIN + 1) for t, cx, co in kids}

    def values(self, pos: Position, turns: Sequence[Turn]) -> list[int]:
        """Each turn's score from :meth:`scores`."""
        x, o = self.game.masks_of(pos)
        by_label = {self.game.label(t): s for t, s in self.scores(x, o).items()}
        return [by_label.get(tr.label, -2 * WIN) for tr in turns]

    # a score from the side to move; wins and losses are WIN − plies as in the solver
    def _negamax(self, x: int, o: int, depth: int, alpha: int, beta: int) -> int:
        g = self.game
        st = g.status(x, o)
        if st.over:
            if st.winner is None:
                return 0
            return WIN if st.winner == st.to_move else -WIN
        if g.dead_draw(x, o):
            return 0
        if depth <= 0:
            return self._heuristic(x, o)
        best = -2 * WIN
        for _t, cx, co in g.children(x, o):
            v = -self._negamax(cx, co, depth - 1, -beta, -alpha)
            v = v - 1 if v > 0 else v + 1 if v < 0 else 0
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def _heuristic(self, x: int, o: int) -> int:
        """Open lines weighted by how full they are, from the side to move; well inside ±WIN/2."""
        g = self.game
        mine, theirs = (x, o) if popcount(x) == popcount(o) else (o, x)
        s = 0
        for m in g.masks:
            a, b = m & mine, m & theirs
            if a and not b:
                s += 1 << (2 * popcount(a))
            elif b and not a:
                s -= 1 << (2 * popcount(b))
        return max(-WIN // 2, min(WIN // 2, s))


class GameAgent(_SearchAgent):
    """A computer player for any two-player :class:`Game`: depth-limited negamax over its turns."""

    def __init__(self, game: Game, strength: int = PERFECT, seed: int | None = None) -> None:
        super().__init__(game, strength, seed)
        self._memo: dict[tuple[Position, int], tuple[int, ...]] = {}

    def values(self, pos: Position, turns: Sequence[Turn]) -> list[int]:
        """Each turn's value by search to this agent's depth."""
        return [self._value(pos, t.result, self.strength - 1) for t in turns]

    def _value(self, parent: Position, pos: Position, depth: int) -> int:
        """Score of ``pos`` for the player who moved at ``parent``."""
        me = self.game.players[parent.to_move]
        return self._score(pos, depth)[me]

    def _score(self, pos: Position, depth: int) -> dict[str, int]:
        key = (pos, depth)
        hit = self._memo.get(key)
        if hit is not None:
            return dict(zip(self.game.players, hit, strict=True))
        out = self.game.outcome(pos)
        if out is not None:
            res = {p: WIN * out.get(p, 0) for p in self.game.players}
        elif depth <= 0:
            res = {p: 0 for p in self.game.players}
        else:
            mover = self.game.players[pos.to_move]
            best: dict[str, int] | None = None
            for t in self.game.turns(pos):
                s = self._score(t.result, depth - 1)
                if best is None or s[mover] > best[mover]:
                    best = s
            if best is None:  # no turn and no outcome: score it as a draw
                best = {p: 0 for p in self.game.players}
            res = {p: (v - 1 if v > 0 else v + 1 if v < 0 else 0) for p, v in best.items()}
        self._memo[key] = tuple(res[p] for p in self.game.players)
        return res


def make_agent(game: Game, strength: int, seed: int | None = None) -> Agent:
    """The right computer player for a game."""
    if isinstance(game, KInARow):
        return KinrowAgent(game, strength, seed)
    return GameAgent(game, strength if strength < PERFECT else GENERIC_PERFECT_DEPTH, seed)
