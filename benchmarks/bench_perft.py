"""Perft speed of the rule engine: leaf turns per second, beside python-chess's perft(4) measured in the same run.

    python benchmarks/bench_perft.py            # prints a Markdown section for benchmarks/RESULTS.md

Figures: checkers perft 7 from the start (bulk counting at the last ply), the tic-tac-toe full
tree on plane:3x3 (every turn of every depth, 1..9), the same checkers count through the
turn-by-turn Game API (positions built, no bulk counting) as the slower peer, and
python-chess's perft(4) from the chess start position with bulk counting.
"""

from __future__ import annotations

import os
import platform
import time


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def chess_perft(board, depth: int) -> int:
    """python-chess perft with bulk counting at the last ply."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for mv in board.legal_moves:
        board.push(mv)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def naive_perft(game, pos, depth: int) -> int:
    """Turn by turn through the Game contract (positions built at every node, no bulk counting)."""
    if depth == 0:
        return 1
    return sum(naive_perft(game, t.result, depth - 1) for t in game.turns(pos))


def main() -> None:
    import chess

    from tapology.games import open_game

    rows = []
    ck = open_game("checkers")
    start = ck.initial()
    ck.perft(start, 2)  # build the kernels once
    n7, t7 = _timed(lambda: ck.perft(start, 7))
    rows.append(("checkers perft 7 (bulk)", n7, t7))
    n5n, t5n = _timed(lambda: naive_perft(open_game("checkers"), open_game("checkers").initial(), 5))
    n5, t5 = _timed(lambda: ck.perft(start, 5))
    rows.append(("checkers perft 5 (bulk)", n5, t5))
    rows.append(("checkers perft 5 (turn by turn)", n5n, t5n))
    ttt = open_game("tictactoe")
    p0 = ttt.initial()
    ttt.perft(p0, 1)
    full, tf = _timed(lambda: sum(ttt.perft(p0, d) for d in range(1, 10)))
    rows.append(("tic-tac-toe full tree (depths 1-9)", full, tf))
    n9, t9 = _timed(lambda: ttt.perft(p0, 9))
    rows.append(("tic-tac-toe perft 9", n9, t9))
    c4, tc = _timed(lambda: chess_perft(chess.Board(), 4))
    rows.append(("python-chess perft 4 (bulk)", c4, tc))
    print("## Rules and perft")
    print()
    print(f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores shared, "
          f"Python {platform.python_version()}; `python benchmarks/bench_perft.py`, one run.")
    print()
    print("| count | leaf turns | seconds | leaf turns/s |")
    print("|---|---:|---:|---:|")
    for name, n, t in rows:
        print(f"| {name} | {n:,} | {t:.2f} | {n / t:,.0f} |")
    print()
    print(f"Checkers perft 7 runs at {n7 / t7 / (c4 / tc):.1f}× python-chess's perft(4) speed (leaf turns/s), "
          f"and the bulk-counting fast path is {(n5 / t5) / (n5n / t5n):.0f}× the turn-by-turn Game API on perft 5.")
    print(f"Target ≥ 100,000 leaf turns/s for checkers with bulk counting: "
          f"{'met' if n7 / t7 >= 100_000 else 'NOT met'} ({n7 / t7:,.0f}).")


if __name__ == "__main__":
    main()
