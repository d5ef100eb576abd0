"""Random playouts: games of uniformly random turns from a position to their end, as Monte-Carlo players and
game-system benchmarks play them (optional end rules left out, as perft leaves them out).

A playout ends when a strict end rule ends the position, the player to move has no turn, or a ply
limit is reached.  Playout ``i`` of a run with seed ``s`` depends only on ``(s, i)``: a run is
reproducible, however it is split into calls.  The native engine plays them where it runs
(:func:`tapology.rules.native.playouts`); else the Python path plays them over
:meth:`RuleGame.perft_turns` (its own random stream: the same seed gives the same games on the same
path).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tapology.game import Position
from tapology.rules.native import engine_used
from tapology.rules.native import playouts as native_playouts

if TYPE_CHECKING:
    from tapology.rules.engine import RuleGame

MAX_PLIES = 1000  # a playout stops here when nothing has ended it (a random game may shuffle on for ever)
SPECIALISE_SECONDS = 2.0  # playouts this long (or this many) run on C generated for the board, compiled once
SPECIALISE_COUNT = 100_000
BATCH_SECONDS = 0.05  # the native engine plays batches this long between clock reads


@dataclass
class PlayoutRun:
    """What a run of random playouts played: how many, how long, how they ended, and where they ran."""

    playouts: int
    plies: int
    ended: int  # by an end rule or a player without a turn
    capped: int  # stopped at max_plies
    seconds: float
    seed: int
    max_plies: int
    engine: str  # "native-specialised", "native" or "python"

    @property
    def rate(self) -> float:
        """Playouts per second."""
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    @property
    def ply_rate(self) -> float:
        """Plies (turns made) per second."""
        return self.plies / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        """The run's figures, rates rounded."""
        return {"playouts": self.playouts, "plies": self.plies, "ended": self.ended, "capped": self.capped,
                "seconds": round(self.seconds, 3), "playouts_per_second": round(self.rate, 1),
                "plies_per_second": round(self.ply_rate, 1),
                "mean_length": round(self.plies / self.playouts, 2) if self.playouts else 0.0,
                "seed": self.seed, "max_plies": self.max_plies, "engine": self.engine}


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(seed * 1_000_003 + index)


def playout_end(game: RuleGame, pos: Position, seed: int, index: int = 0, max_plies: int = MAX_PLIES,
                native: bool = True) -> Position:
    """The last position of playout ``index`` of the stream ``seed`` from ``pos`` (its board, codes, player, ply and
    counters; the history is not kept).  Cost: the game's length times one turn generation."""
    if native:
        got = native_playouts(game.chains(pos.board), game.codes(pos), pos.to_move, pos.ply, max_plies, index, 1,
                              seed, counters=pos.counters)
        if got is not None and got[1] is not None:
            final = got[1]
            n = len(pos.board.tiles)
            counters = tuple(final[n + 2:])
            return game.position_from_codes(pos.board, final[:n], final[n], final[n + 1], counters)
    rng = _rng(seed, index)
    for _ in range(max_plies):
        turns = game.perft_turns(pos)
        if not turns:
            break
        pos = turns[rng.randrange(len(turns))].result
    return pos


def run_playouts(game: RuleGame, pos: Position, *, seconds: float | None = None, count: int | None = None,
                 seed: int = 0, max_plies: int = MAX_PLIES, native: bool = True) -> PlayoutRun:
    """Random playouts from ``pos`` for ``seconds`` (whole playouts: the last one started before the time is up
    finishes) or ``count`` playouts (one of the two), with seed ``seed``.  Cost: the playouts, in C where the
    native engine runs."""
    if (seconds is None) == (count is None):
        raise ValueError("run_playouts needs seconds or count, not both")
    use_native = native
    if use_native:  # the tables are built (once per board) before the clock starts
        chains, codes = game.chains(pos.board), game.codes(pos)
        big = (seconds or 0) >= SPECIALISE_SECONDS or (count or 0) >= SPECIALISE_COUNT  # a compile of its own pays
        use_native = native_playouts(chains, codes, pos.to_move, pos.ply, max_plies, 0, 0, seed,
                                     specialise=big or None, counters=pos.counters) is not None
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds
    done = plies = ended = capped = 0
    engine = "python"
    if use_native:
        batch = 1
        while count is None or done < count:
            want = batch if count is None else min(batch, count - done)
            t1 = time.perf_counter()
            got = native_playouts(chains, codes, pos.to_move, pos.ply, max_plies, done, want, seed, specialise=big or None,
                                  counters=pos.counters)
            if got is None:
                break
            engine = engine_used(chains)[0]
            stats = got[0]
            done += want
            plies += stats[0]
            ended += stats[1] + stats[2]
            capped += stats[3]
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            if now - t1 < BATCH_SECONDS / 2:
                batch *= 2
            if deadline is not None:  # no batch runs long past the time
                per = (now - t1) / want
                batch = max(1, min(batch, int((deadline - now) / per) + 1 if per > 0 else batch))
    if engine == "python":
        while (count is None or done < count) and (deadline is None or time.perf_counter() < deadline or done == 0):
            rng = _rng(seed, done)
            p = pos
            n = 0
            while n < max_plies:
                turns = game.perft_turns(p)
                if not turns:
                    break
                p = turns[rng.randrange(len(turns))].result
                n += 1
            done += 1
            plies += n
            if n < max_plies:
                ended += 1
            else:
                capped += 1
    return PlayoutRun(done, plies, ended, capped, time.perf_counter() - t0, seed, max_plies, engine)
