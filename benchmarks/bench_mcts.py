"""MCTS with the native playouts against its old self (playouts turn by turn through the game), against alpha-beta
and against OpenSpiel's MCTSBot (when installed), at equal time per move, on chess, checkers and a catalogue game.

    python benchmarks/bench_mcts.py                       # prints a Markdown section for RESULTS.md
    python benchmarks/bench_mcts.py --games 4 --seconds 0.1 --only breakthrough

The players are those of ``tapology match`` (:func:`tapology.adapters.match.make_player`): ``mcts:N@S`` (the native
playouts) against ``mcts-python:N@S``, ``alphabeta:64@S`` and OpenSpiel's ``mcts:N@S`` (``--engine openspiel``),
N large enough that the time S decides.  Each pairing plays ``--games`` games, colours swapped every game, a draw
after ``--max-plies``; the score is the new player's (win 1, draw ½, loss 0) with a 95% Wilson interval, the
simulations each side ran per move on average (the speed-up the playouts give) and the time each side took per
move.  The same pairing from the command line: ``tapology match checkers --a mcts:1000000@0.1 --b
mcts-python:1000000@0.1 --engine own --games 4 --max-plies 80``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("checkers", "chess", "breakthrough")
BUDGET = 10**6  # simulations or plies: the time per move decides
SPIEL_GAMES = ("checkers", "breakthrough")  # on chess a random rollout through the OpenSpiel adapter takes seconds


def _opponents(seconds: float, game: str) -> list[tuple[str, str, str]]:
    """(name in the table, player spec, MCTS engine) of each opponent; OpenSpiel's when it is installed, on
    :data:`SPIEL_GAMES`."""
    from tapology.adapters import openspiel

    out = [("MCTS, playouts turn by turn (`mcts-python`)", f"mcts-python:{BUDGET}@{seconds}", "own"),
           ("alpha-beta (`alphabeta`)", f"alphabeta:64@{seconds}", "own")]
    if openspiel.available() and game in SPIEL_GAMES:
        out.append(("OpenSpiel's MCTSBot (`mcts`, `--engine openspiel`)", f"mcts:{BUDGET}@{seconds}", "openspiel"))
    return out


class Timed:
    """A player whose moves are timed and whose simulations per move are counted."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seconds: list[float] = []
        self.sims: list[int] = []

    def choose(self, pos: Any, turns: Any) -> int:
        t = time.perf_counter()
        got = self.agent.choose(pos, turns)
        self.seconds.append(time.perf_counter() - t)
        if hasattr(self.agent, "done"):
            self.sims.append(self.agent.done)
        return int(got)


def _mean(xs: list[float] | list[int]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=0.1, help="per move, for both players")
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--only", action="append", help=f"games by name ({', '.join(GAMES)})")
    ap.add_argument("--opponent", action="append", help="opponents by spec kind (mcts-python, alphabeta, mcts)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tapology.adapters.match import make_player, play_game, wilson
    from tapology.games.registry import open_game

    rows = []
    t_start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    new_spec = f"mcts:{BUDGET}@{args.seconds}"
    for name in GAMES:
        if args.only and name not in args.only:
            continue
        game = open_game(name)
        for opponent, spec, engine in _opponents(args.seconds, name):
            if args.opponent and spec.split(":")[0] not in args.opponent:
                continue
            score = 0.0
            wins = draws = 0
            plies = 0
            t0 = time.perf_counter()
            new_all, old_all = Timed(None), Timed(None)
            for i in range(args.games):
                new = Timed(make_player(name, None, new_spec, 2 * i, engine="own", game=game))
                old = Timed(make_player(name, None, spec, 2 * i + 1, engine=engine, game=game))
                first, second = (new, old) if i % 2 == 0 else (old, new)
                out, n = play_game(game, first, second, args.max_plies)
                plies += n
                me = game.players[0 if i % 2 == 0 else 1]
                s = out.get(me, 0)
                wins += s > 0
                draws += s == 0
                score += 1.0 if s > 0 else 0.5 if s == 0 else 0.0
                for mine, acc in ((new, new_all), (old, old_all)):
                    acc.seconds += mine.seconds
                    acc.sims += mine.sims
                print(f"… {name} vs {opponent}: game {i + 1}: {s:+d} in {n} plies", file=sys.stderr, flush=True)
            lo, hi = wilson(int(2 * score), 2 * args.games)
            rows.append((name, opponent, args.games, wins, draws, args.games - wins - draws, score / args.games, lo, hi,
                         _mean(new_all.sims), _mean(old_all.sims), _mean(new_all.seconds), _mean(old_all.seconds),
                         plies / args.games, time.perf_counter() - t0))
    print("## MCTS with native playouts\n")
    picked = "".join(f" --only {g}" for g in args.only or []) + "".join(f" --opponent {o}" for o in args.opponent or [])
    print(f"`python benchmarks/bench_mcts.py --games {args.games} --seconds {args.seconds} --max-plies "
          f"{args.max_plies}{picked}` ({t_start}; load average {load0} at the start: a shared machine, both sides equally "
          f"slowed).  `{new_spec}` (UCT, the native engine's random playouts) against each opponent at the same "
          f"{args.seconds} s a move; colours swapped every game; a draw after {args.max_plies} plies.\n")
    print("| game | opponent | games | W/D/L | score | 95% interval | plies/game | simulations/move (new) | (opponent) "
          "| s/move (new) | (opponent) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, opp, n, w, d, l_, sc, lo, hi, sn, so, tn, to, pl, _t in rows:
        def num(x: float | None, fmt: str = ",.0f") -> str:
            return "–" if x is None else format(x, fmt)

        print(f"| {name} | {opp} | {n} | {w}/{d}/{l_} | {sc:.2f} | {lo:.2f}–{hi:.2f} | {pl:.0f} | {num(sn)} | "
              f"{num(so)} | {num(tn, '.3f')} | {num(to, '.3f')} |")
    print(f"\n{sum(r[-1] for r in rows):.0f} s in all.")


if __name__ == "__main__":
    main()
