"""Solve times: tic-tac-toe on the five built-in 3×3 surfaces and 4-in-a-row on torus:4x4.

Run ``python benchmarks/bench_solve.py`` (add ``--naive-4x4`` to also run the plain-Python
reference on torus:4x4, which takes minutes and a few GB; ``--cpu`` times CPU seconds, for a
loaded machine).  Each line compares the fast path (layered bitmasks in numpy, one
representative per symmetry class) with references measured in the same run: the same layered
solver without symmetry, a plain-Python memoised search over bitmask pairs (no numpy, no
symmetry), and — on the 3×3 surfaces — the rule engine's generic memoised search.  Every
reference must give the same counts; the script checks.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tapology.games.kinrow import KInARow
from tapology.model.builtins import builtin_board
from tapology.play.solving.solve import WIN, solve_game, solve_kinrow


def naive(game: KInARow) -> dict:
    """Plain-Python memoised negamax with counts over (x, o) pairs: the reference a careful first version would be."""
    sys.setrecursionlimit(10_000)
    memo: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}
    terminal = 0

    def rec(x: int, o: int) -> tuple[int, int, int, int, int]:
        nonlocal terminal
        key = (x, o)
        got = memo.get(key)
        if got is not None:
            return got
        st = game.status(x, o)
        if st.over:
            terminal += 1
            mover = st.to_move
            s = 0 if st.winner is None else (WIN if st.winner == mover else -WIN)
            res = (s, 1, int(st.winner == 0), int(st.winner == 1), int(st.winner is None))
        else:
            best = -2 * WIN
            g = wx = wo = d = 0
            for _t, cx, co in game.children(x, o):
                cs, cg, cwx, cwo, cd = rec(cx, co)
                v = -cs
                v = v - 1 if v > 0 else v + 1 if v < 0 else 0
                best = max(best, v)
                g += cg
                wx += cwx
                wo += cwo
                d += cd
            res = (best, g, wx, wo, d)
        memo[key] = res
        return res

    s, g, wx, wo, d = rec(0, 0)
    return {"value": 0 if s == 0 else (1 if s > 0 else -1), "positions": len(memo), "terminal_positions": terminal,
            "games": g, "wins": {"X": wx, "O": wo}, "draws": d}


def facts(r) -> dict:
    return {"value": r.value, "positions": r.positions, "terminal_positions": r.terminal_positions, "games": r.games,
            "wins": r.wins, "draws": r.draws}


def fmt(t: float | None) -> str:
    return "—" if t is None else f"{t:.3f} s"


CLOCK = [time.perf_counter]  # time.process_time with --cpu


def timed(fn):
    t = CLOCK[0]()
    out = fn()
    return out, CLOCK[0]() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--naive-4x4", action="store_true", help="also run the plain-Python reference on torus:4x4")
    ap.add_argument("--cpu", action="store_true", help="CPU seconds of this process (a loaded machine disturbs them "
                                                       "least) rather than wall seconds")
    args = ap.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}"
          f"{'; CPU seconds' if args.cpu else ''}")
    print()
    print("| game | board | value | positions | classes (group order) | `solve` (auto) | with symmetry | "
          "without symmetry | plain Python | rule engine | plain Python / `solve` |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    cases = [(f"{s}:3x3", 3) for s in ("plane", "cylinder", "mobius", "torus", "klein")] + [("torus:4x4", 4)]
    for board, k in cases:
        g = KInARow(builtin_board(board), k)
        auto, t_auto = timed(lambda g=g: solve_kinrow(g))
        sym, t_sym = timed(lambda g=g: solve_kinrow(g, symmetry=True))
        flat, t_flat = timed(lambda g=g: solve_kinrow(g, symmetry=False))
        assert facts(auto) == facts(sym) == facts(flat), board
        t_naive = t_rule = None
        if k == 3 or args.naive_4x4:
            ref, t_naive = timed(lambda g=g: naive(g))
            assert ref == facts(sym), (board, ref, facts(sym))
        if k == 3:
            try:
                from tapology.games.registry import load_game

                rg = load_game("tictactoe", board, fast=False).game
                if not isinstance(rg, KInARow):
                    gen, t_rule = timed(lambda rg=rg: solve_game(rg))
                    assert facts(gen) == facts(sym), board
            except ImportError:
                pass
        value = {1: "first player wins", 0: "draw", -1: "second player wins"}[sym.value]
        name = "tic-tac-toe" if k == 3 else "4 in a row"
        ratio = f"{t_naive / t_auto:.0f}×" if t_naive else "—"
        print(f"| {name} | {board} | {value} | {sym.positions:,} | {sym.classes:,} ({sym.symmetries}) | {t_auto:.3f} s | "
              f"{t_sym:.3f} s | {t_flat:.3f} s | {fmt(t_naive)} | {fmt(t_rule)} | {ratio} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
