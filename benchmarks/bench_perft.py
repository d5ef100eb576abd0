"""Perft speed of the rule engine, native (C) and Python, beside python-chess's perft measured in the same run.

    python benchmarks/bench_perft.py            # prints a Markdown section for benchmarks/RESULTS.md
    python benchmarks/bench_perft.py --growth 7 # chess perft's leaf rate at depths 4..7 (linear cost?)

Figures, all leaf turns counted with bulk counting at the last ply: chess perft 5 from the start
through the rule engine (``tapology/games/data/chess.toml``, native) against python-chess's
perft(5), and the Python path on perft 4; checkers perft 9, native and Python; chinese-checkers
perft 5 and the tic-tac-toe full tree (every turn of every depth, 1..9), native and Python; and
checkers perft 5 through the turn-by-turn Game API (positions built, no bulk counting) as the
slowest peer.  Table building (once per board) is timed apart.
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


def growth(high: int, budget: float) -> None:
    """Chess perft from the start at depths 4..``high`` on the native engine: leaf turns per CPU second at each
    depth (constant when the cost is linear in leaf turns); a depth whose predicted time passes ``budget`` seconds
    is left out and said so."""
    from tapology.games import open_game
    from tapology.rules.perft import count_leaves

    g = open_game("chess")
    p0 = g.initial()
    count_leaves(g, p0, 2)  # the tables, read or built
    print(f"`python benchmarks/bench_perft.py --growth {high}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())};"
          f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}): chess perft from the start, native, bulk "
          "counting, one process; CPU seconds (`time.process_time`) and wall seconds (a count under a second repeated "
          "and averaged).\n")
    print("| depth | leaf turns | CPU s | wall s | leaf turns / CPU s | rate / depth 4's |")
    print("|---:|---:|---:|---:|---:|---:|")
    first = None
    last: tuple[int, float] | None = None
    prev_n = None
    for d in range(4, high + 1):
        if last is not None and prev_n is not None:
            predicted = last[0] * (last[0] / prev_n) / (last[0] / last[1])
            if predicted > budget:
                print(f"\nDepth {d} left out: about {predicted:.0f} CPU s predicted (over {budget:.0f} s).")
                break
        c0, w0 = time.process_time(), time.perf_counter()
        n = count_leaves(g, p0, d)
        runs = 1
        while time.process_time() - c0 < 1.0:  # a short count repeated, so that the clock's grain does not matter
            count_leaves(g, p0, d)
            runs += 1
        cpu, wall = (time.process_time() - c0) / runs, (time.perf_counter() - w0) / runs
        rate = n / cpu
        first = first or rate
        print(f"| {d} | {n:,} | {cpu:.2f} | {wall:.2f} | {rate:,.0f} | {rate / first:.2f} |", flush=True)
        prev_n = last[0] if last is not None else count_leaves(g, p0, d - 1)
        last = (n, cpu)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--growth", type=int, metavar="D", help="only the leaf rate of chess perft at depths 4..D")
    ap.add_argument("--budget", type=float, default=180.0, help="with --growth: leave out a depth predicted to take "
                                                                "longer (CPU seconds)")
    a = ap.parse_args()
    if a.growth:
        growth(a.growth, a.budget)
        return
    import chess

    from tapology.games import open_game
    from tapology.rules import native
    from tapology.rules.perft import count_leaves

    if not native.available():
        raise SystemExit(f"the native engine does not run here: {native.reason()}")
    rows: list[tuple[str, int, float]] = []

    def run(name: str, fn) -> float:
        n, t = _timed(fn)
        rows.append((name, n, t))
        return n / t

    builds = []
    for spec in ("chess", "checkers", "chinese-checkers", "tictactoe"):
        g = open_game(spec)
        _, t = _timed(lambda g=g: count_leaves(g, g.initial(), 1))  # the board's tables, flattened and loaded
        builds.append((spec, t))

    ch = open_game("chess")
    p0 = ch.initial()
    count_leaves(ch, p0, 1)
    chess_native = run("chess perft 5, native", lambda: count_leaves(ch, p0, 5))
    pychess = run("python-chess perft 5", lambda: chess_perft(chess.Board(), 5))
    chess_py = run("chess perft 4, Python", lambda: count_leaves(ch, p0, 4, native=False))

    ck = open_game("checkers")
    c0 = ck.initial()
    count_leaves(ck, c0, 2, native=False)  # the Python kernels, built once
    ck_native = run("checkers perft 9, native", lambda: count_leaves(ck, c0, 9))
    ck_py = run("checkers perft 9, Python", lambda: count_leaves(ck, c0, 9, native=False))
    run("checkers perft 5, turn by turn (Game API)", lambda: naive_perft(open_game("checkers"),
                                                                         open_game("checkers").initial(), 5))

    cc = open_game("chinese-checkers")
    s0 = cc.initial()
    count_leaves(cc, s0, 2, native=False)
    cc_native = run("chinese-checkers perft 5, native", lambda: count_leaves(cc, s0, 5))
    cc_py = run("chinese-checkers perft 5, Python", lambda: count_leaves(cc, s0, 5, native=False))

    tt = open_game("tictactoe")
    t0 = tt.initial()
    count_leaves(tt, t0, 2, native=False)
    tt_native = run("tic-tac-toe full tree (depths 1-9), native", lambda: sum(count_leaves(tt, t0, d) for d in range(1, 10)))
    tt_py = run("tic-tac-toe full tree (depths 1-9), Python",
                lambda: sum(count_leaves(tt, t0, d, native=False) for d in range(1, 10)))

    print("## Rules and perft")
    print()
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores shared, Python {platform.python_version()}; "
          "`python benchmarks/bench_perft.py`, one run.")
    print()
    print("| count | leaf turns | seconds | leaf turns/s |")
    print("|---|---:|---:|---:|")
    for name, n, t in rows:
        print(f"| {name} | {n:,} | {t:.2f} | {n / t:,.0f} |")
    print()
    print(f"Chess through the rule engine, native: **{chess_native / pychess:.1f}×** python-chess's perft(5) "
          f"(leaf turns/s; target ≥ 1, aim ≥ 5: {'met' if chess_native >= 5 * pychess else 'NOT met'}); "
          f"{chess_native / chess_py:.0f}× the Python path.")
    print(f"Native over Python: checkers perft 9 {ck_native / ck_py:.0f}×, chinese-checkers perft 5 "
          f"{cc_native / cc_py:.0f}×, tic-tac-toe full tree {tt_native / tt_py:.0f}×.")
    print("Tables built on a board's first use (Python tables forced, flattened, loaded into C): "
          + ", ".join(f"{spec} {t:.2f} s" for spec, t in builds) + ".")


if __name__ == "__main__":
    main()
