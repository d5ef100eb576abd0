"""MCTS with the native playouts against its old self (playouts turn by turn through the game) at equal time per
move, and against alpha-beta, on chess and checkers.

    python benchmarks/bench_mcts.py                       # prints a Markdown section for RESULTS.md
    python benchmarks/bench_mcts.py --games 4 --seconds 0.2

Each pairing plays ``--games`` games, colours swapped every game, a draw after ``--max-plies``;
the score is the new player's (win 1, draw ½, loss 0) with a 95% Wilson interval, and the
simulations each side ran per move on average (the speed-up the playouts give).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=0.3, help="per move, for both players")
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--only", action="append", help="games by name (chess, checkers)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tapology.adapters.match import play_game, wilson
    from tapology.games.registry import open_game
    from tapology.play.playing.ai import AlphaBetaAgent, MCTSAgent

    rows = []
    t_start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    for name in ("checkers", "chess"):
        if args.only and name not in args.only:
            continue
        game = open_game(name)
        for opponent in ("MCTS, playouts turn by turn", "alpha-beta"):
            score = 0.0
            sims_new: list[float] = []
            sims_old: list[float] = []
            wins = draws = 0
            t0 = time.perf_counter()
            for i in range(args.games):
                new = MCTSAgent(game, simulations=10**9, seconds=args.seconds, seed=2 * i)
                old = (MCTSAgent(game, simulations=10**9, seconds=args.seconds, seed=2 * i + 1, fast_playouts=False)
                       if opponent.startswith("MCTS") else
                       AlphaBetaAgent(game, depth=64, seconds=args.seconds, seed=2 * i + 1))
                counted: dict[int, list[int]] = {id(new): [], id(old): []}

                def wrap(agent, counted: dict[int, list[int]] = counted):
                    inner = agent.choose

                    def choose(pos, turns):
                        got = inner(pos, turns)
                        counted[id(agent)].append(getattr(agent, "done", 0))
                        return got

                    agent.choose = choose
                    return agent

                wrap(new)
                wrap(old)
                first, second = (new, old) if i % 2 == 0 else (old, new)
                out, _plies = play_game(game, first, second, args.max_plies)
                me = game.players[0 if i % 2 == 0 else 1]
                s = out.get(me, 0)
                wins += s > 0
                draws += s == 0
                score += 1.0 if s > 0 else 0.5 if s == 0 else 0.0
                if counted[id(new)]:
                    sims_new.append(sum(counted[id(new)]) / len(counted[id(new)]))
                if counted[id(old)]:
                    sims_old.append(sum(counted[id(old)]) / len(counted[id(old)]))
                print(f"… {name} vs {opponent}: game {i + 1}: {s:+d}", file=sys.stderr, flush=True)
            lo, hi = wilson(int(2 * score), 2 * args.games)
            rows.append((name, opponent, args.games, wins, draws, args.games - wins - draws, score / args.games, lo, hi,
                         sum(sims_new) / max(len(sims_new), 1),
                         sum(sims_old) / max(len(sims_old), 1) if opponent.startswith("MCTS") else None,
                         time.perf_counter() - t0))
    print("## MCTS with native playouts\n")
    print(f"`python benchmarks/bench_mcts.py --games {args.games} --seconds {args.seconds} --max-plies "
          f"{args.max_plies}` ({t_start}; load average {load0} at the start: a shared machine, both sides equally "
          f"slowed).  MCTS (UCT, random playouts) at {args.seconds} s a move with the native engine's playouts "
          f"against the same MCTS with playouts turn by turn through the game, and against alpha-beta at the same "
          f"time; colours swapped every game; a draw after {args.max_plies} plies.\n")
    print("| game | opponent | games | W/D/L | score | 95% interval | simulations/move (new) | (old) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, opp, n, w, d, l_, sc, lo, hi, sn, so, _t in rows:
        old = f"{so:,.0f}" if so is not None else "–"
        print(f"| {name} | {opp} | {n} | {w}/{d}/{l_} | {sc:.2f} | {lo:.2f}–{hi:.2f} | {sn:,.0f} | {old} |")


if __name__ == "__main__":
    main()
