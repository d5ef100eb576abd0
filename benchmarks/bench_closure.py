"""Closure and taping speed: vectorised whole-board closure vs the plain worklist, and incremental tapings.

Run: python benchmarks/bench_closure.py [--max-n 1000]
Prints a Markdown table; figures go to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import platform
import time

from tapology.limits import raised
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.builtins import builtin_board
from tapology.model.tape import parse_tape


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def with_loose_tile(board: Board) -> Board:
    """The board plus one untaped tile named 'x'."""
    return Board(board.grid, board.domain, (*board.tiles, "x"), (*board.states, 0),
                 (*board.glue, tuple([-1] * len(board.grid.directions))))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=1000)
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print("\n| board | tiles | build | vectorised closure | worklist closure | worklist / vectorised |")
    print("|---|---|---|---|---|---|")
    for n in (10, 100, 1000):
        if n > args.max_n:
            continue
        tb, board = timed(lambda n=n: builtin_board(f"torus:{n}x{n}"))
        tv, atlas = timed(lambda board=board: Atlas.of(board), repeat=3 if n < 1000 else 1)
        assert atlas.consistent
        if n <= 100:
            tw, work = timed(lambda board=board: Atlas.of(board, method="worklist"))
            assert (work.chart == atlas.chart).all()
            wl, ratio = f"{tw:.3f} s", f"{tw / tv:.0f}×"
        else:
            wl, ratio = "(not run)", "—"
        print(f"| torus:{n}x{n} | {n * n:,} | {tb:.3f} s | {tv:.4f} s | {wl} | {ratio} |")

    print("\n| incremental taping on a 100×100 board | charts changed | time | full re-closure | ratio |")
    print("|---|---|---|---|---|")
    base = with_loose_tile(builtin_board("plane:100x100"))
    atlas = Atlas.of(base)
    tp = parse_tape("1.up=x.down", base)

    def once():
        a = Atlas.of(base)
        t0 = time.perf_counter()
        c = a.tape([tp])
        dt = time.perf_counter() - t0
        assert c is None
        return dt, a

    dts = []
    for _ in range(20):
        dt, a = once()
        dts.append(dt)
    changed = int((a.chart != atlas.chart).any(axis=1).sum())
    tfull, _ = timed(lambda: Atlas.of(a.board()), repeat=3)
    inc = min(dts)
    print(f"| loose tile taped on top of tile 1 | {changed} | {inc * 1000:.2f} ms | {tfull * 1000:.1f} ms | "
          f"{tfull / inc:.0f}× |")
    plane = builtin_board("plane:100x100")
    rolls = [parse_tape("1.left=100.right", plane)]
    a = Atlas.of(plane)
    t0 = time.perf_counter()
    assert a.tape(rolls) is None
    troll = time.perf_counter() - t0
    changed = int((a.chart != Atlas.of(plane).chart).any(axis=1).sum())
    print(f"| rolling plane:100x100 into a cylinder (1.left=100.right) | {changed} | {troll * 1000:.1f} ms | — | — |")


if __name__ == "__main__":
    with raised(tiles=1_000_000):  # the 10⁶-tile torus is 4× the default limit on board size
        main()
