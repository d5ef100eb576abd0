"""Computer players by name, and matches between two of them played as tasks on any executor.

A player spec (:func:`tapology.play.playing.ai.parse_player`) is ``random``, ``perfect``, a depth,
``alphabeta:D``, ``mcts:N`` or ``mcts-python:N``, with ``@SECONDS`` for a time limit per move.
``mcts`` is tapology's own :class:`~tapology.play.playing.ai.MCTSAgent` on a rule game whose
random playouts the native engine plays, else OpenSpiel's ``MCTSBot`` (UCT, random rollouts,
MCTS-Solver backups) on the game's OpenSpiel adapter when the extra ``tapology[openspiel]`` is
installed, else ours again; ``engine="own"`` and ``engine="openspiel"`` ask for one.

:func:`run_match` plays ``games`` games of A against B (A first in the even games unless
``swap`` is off), each a task seeded by its number, so the results are the same on every
executor (without time limits), and reports A's wins, draws and losses with 95% Wilson
intervals, per seat too.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tapology.adapters import openspiel
from tapology.errors import OptionError, StrengthError
from tapology.game import Game, Position, Turn
from tapology.games.registry import LoadedGame, load_game
from tapology.parallel import SERIAL, Executor, Progress, cached, run_tasks
from tapology.play.playing.ai import Agent, PlayerSpec, make_search_agent, native_playouts, parse_player

ENGINES = ("auto", "openspiel", "own")
Z95 = 1.959963984540054
MAX_SEED = 2**63 - 1  # a match seed: game i seeds its players from it (numpy takes those modulo 2**32)


class _TimedBot:
    """OpenSpiel's MCTSBot with a time limit: when the time is up the search stops after the simulation under way
    (once the root's turns are in the tree: however short the limit, the bot has a turn to choose)."""

    def __init__(self, bot_cls: Any, *args: Any, seconds: float | None = None, **kw: Any) -> None:
        outer = self

        class Timed(bot_cls):
            def _apply_tree_policy(self, root: Any, state: Any) -> Any:
                got = super()._apply_tree_policy(root, state)
                if (outer.deadline is not None and time.monotonic() > outer.deadline and root.outcome is None
                        and root.children):
                    root.outcome = [0.0] * len(state.returns())  # ends mcts_search's loop after this simulation
                return got

        self.bot = Timed(*args, **kw)
        self.seconds = seconds
        self.deadline: float | None = None

    def step(self, state: Any) -> int:
        """The bot's action (within the time limit)."""
        self.deadline = None if self.seconds is None else time.monotonic() + self.seconds
        try:
            return int(self.bot.step(state))
        finally:
            self.deadline = None


class SpielMCTSAgent:
    """OpenSpiel's MCTSBot as a tapology computer player: the position becomes an OpenSpiel state, the bot's
    action a turn."""

    def __init__(self, spec: str, board: str | None, simulations: int, seconds: float | None = None,
                 seed: int | None = None, uct_c: float = 2.0) -> None:
        from open_spiel.python.algorithms import mcts  # the optional extra tapology[openspiel]

        self.game = openspiel.load(spec, board)
        rs = np.random.RandomState(None if seed is None else seed % 2**32)  # numpy takes 32 bits
        self.bot = _TimedBot(mcts.MCTSBot, self.game, uct_c, simulations, mcts.RandomRolloutEvaluator(1, rs),
                             seconds=seconds, solve=True, random_state=rs)

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """The bot's turn."""
        if not turns:
            raise StrengthError("no legal turn to choose from")
        state = openspiel.state_at(self.game, pos)
        action = self.bot.step(state)
        label = state.action_to_string(state.current_player(), action)
        for i, t in enumerate(turns):
            if t.label == label:
                return i
        raise StrengthError(f"OpenSpiel's MCTS chose {label!r}, which is not a legal turn here")


def mcts_engine(engine: str = "auto", game: Game | None = None) -> str:
    """Which MCTS ``mcts:N`` means: ``own`` (asked for, or ``auto`` on a ``game`` whose random playouts the native
    engine plays: it beat OpenSpiel's MCTSBot, whose rollouts go through the Python adapter, in 7 of 8 games at
    equal time, benchmarks/RESULTS.md), else ``openspiel`` (the extra is installed, or asked for)."""
    if engine not in ENGINES:
        raise OptionError(f"--engine {engine!r}: use {', '.join(ENGINES)}")
    if engine == "own" or (engine == "auto" and game is not None and native_playouts(game)):
        return "own"
    if openspiel.available():
        return "openspiel"
    if engine == "openspiel":
        raise OptionError("--engine openspiel: OpenSpiel is not installed (pip install 'tapology[openspiel]')")
    return "own"


def make_player(spec: str, board: str | None, player: str, seed: int | None = None, *, engine: str = "auto",
                game: Game | None = None) -> Agent:
    """The computer player ``player`` names (``mcts:2000``, ``alphabeta:6@1``, ``random``, …) for GAME on BOARD;
    ``game`` is the game it will play (default: :func:`load_game`'s)."""
    ps: PlayerSpec = parse_player(player)
    if game is None:
        game = load_game(spec, board).game
    if ps.kind == "mcts" and mcts_engine(engine, game) == "openspiel":
        return SpielMCTSAgent(spec, board, ps.budget, ps.seconds, seed)
    return make_search_agent(game, ps, seed)


# ---- matches ----------------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (0..1 for n = 0)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (0.0 if k == 0 else max(0.0, mid - half)), (1.0 if k == n else min(1.0, mid + half))


@dataclass
class Tally:
    """A's wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    def add(self, score: int) -> None:
        """Count one game: 1, 0 or −1 for A."""
        if score > 0:
            self.wins += 1
        elif score < 0:
            self.losses += 1
        else:
            self.draws += 1

    def to_json(self) -> dict[str, Any]:
        """Counts, rates with 95% Wilson intervals, and the score (wins + draws / 2) per game."""
        n = self.games
        out: dict[str, Any] = {"games": n, "wins": self.wins, "draws": self.draws, "losses": self.losses}
        for name, k in (("win", self.wins), ("draw", self.draws), ("loss", self.losses)):
            lo, hi = wilson(k, n)
            out[f"{name}_rate"] = round(k / n, 4) if n else None
            out[f"{name}_ci95"] = [round(lo, 4), round(hi, 4)]
        out["score"] = round((self.wins + self.draws / 2) / n, 4) if n else None
        return out


@dataclass
class MatchResult:
    """A match of A against B: A's tally overall and by seat, where it ran, and whether it finished."""

    game: str
    board: str
    a: str
    b: str
    games: int
    total: Tally
    first: Tally
    second: Tally
    plies: int
    seconds: float
    executor: str
    engine: str
    complete: bool = True
    scores: list[int | None] = field(default_factory=list, repr=False)


def _context_game(spec: str, board: str | None) -> LoadedGame:
    return cached(("match-game", spec, board), lambda: load_game(spec, board))


def play_game(game: Game, first: Agent, second: Agent, max_plies: int | None = None) -> tuple[dict[str, int], int]:
    """One game between two computer players: the outcome (a draw at ``max_plies``) and its length."""
    pos = game.initial()
    seats = (first, second)
    plies = 0
    while True:
        out = game.outcome(pos)
        if out is not None:
            return out, plies
        if max_plies is not None and plies >= max_plies:
            return {p: 0 for p in game.players}, plies
        turns = game.turns(pos)
        if not turns:
            return {p: 0 for p in game.players}, plies
        pos = turns[seats[pos.to_move].choose(pos, turns)].result
        plies += 1


def _play(ctx: tuple[str, str | None, str, str, str, int, bool, int | None], i: int) -> tuple[int, bool, int]:
    """One game of the match: (A's score, A moved first, plies)."""
    spec, board, a, b, engine, seed, swap, max_plies = ctx
    lg = _context_game(spec, board)
    a_first = not (swap and i % 2)
    pa = make_player(spec, board, a, seed * 1_000_003 + 2 * i, engine=engine, game=lg.game)
    pb = make_player(spec, board, b, seed * 1_000_003 + 2 * i + 1, engine=engine, game=lg.game)
    out, plies = play_game(lg.game, pa, pb, max_plies) if a_first else play_game(lg.game, pb, pa, max_plies)
    me = lg.game.players[0 if a_first else 1]
    return out.get(me, 0), a_first, plies


def run_match(spec: str, board: str | None, a: str, b: str, games: int = 200, *, seed: int = 0, swap: bool = True,
              engine: str = "auto", max_plies: int | None = None, ex: Executor = SERIAL,
              progress: Progress | None = None) -> MatchResult:
    """Play ``games`` games of A against B (one task each) on ``ex``; Ctrl-C stops and keeps the finished games."""
    if games < 1:
        raise OptionError(f"--games {games}: must be at least 1")
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"--seed {seed}: give a whole number from 0 to {MAX_SEED}")
    for opt, p in (("--a", a), ("--b", b)):
        parse_player(p, opt)
    lg = _context_game(spec, board)
    if len(lg.game.players) != 2:
        raise OptionError(f"{spec}: a match plays A against B in two seats; the game has {len(lg.game.players)} players "
                          "(play it with a computer player in every seat: tapology play GAME --x ai --o ai --seat "
                          "PLAYER=ai ...)")
    used = mcts_engine(engine, lg.game) if any(parse_player(p).kind == "mcts" for p in (a, b)) else "none"
    t0 = time.perf_counter()
    out = run_tasks(_play, list(range(games)), (spec, board, a, b, engine, seed, swap, max_plies), ex=ex,
                    progress=progress)
    total, first, second = Tally(), Tally(), Tally()
    plies = 0
    scores: list[int | None] = []
    for r in out.results:
        if r is None:
            scores.append(None)
            continue
        score, a_first, n = r
        scores.append(score)
        total.add(score)
        (first if a_first else second).add(score)
        plies += n
    return MatchResult(lg.name, lg.board_name, a, b, games, total, first, second, plies, time.perf_counter() - t0,
                       out.executor, used, out.complete, scores)
