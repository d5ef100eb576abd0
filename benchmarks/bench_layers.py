"""Forward layers of a k-in-a-row solve without keeping edges: classes and positions per layer, to size a solve.

    python benchmarks/bench_layers.py tictactoe:4 torus:5x5 [--max-layer 12] [--workers 2]

Each layer is the set of orbit representatives with that many marks (play stops at a line);
the solve itself also keeps every layer's edges for the backward pass, about (live
representatives × empty tiles) pairs of int64 per layer.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

from tapology.games.registry import load_game
from tapology.parallel import SERIAL, executor, shutdown
from tapology.play.solving.solve import _any_line, _expand_split, expand, key_luts, stabilisers
from tapology.play.solving.symmetry import game_symmetries


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("board")
    ap.add_argument("--max-layer", type=int, default=99)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    ex = SERIAL if args.workers == 1 else executor(args.workers)
    g = load_game(args.game, args.board).kinrow
    n = g.n
    t0 = time.perf_counter()
    perms, group = game_symmetries(g.board, g.lines)
    lut = key_luts(perms, n)
    order = len(perms)
    print(f"{args.game} on {args.board}: {n} tiles, {len(g.lines)} lines, {group} group of order {order}, "
          f"{ex.describe()}; load {os.getloadavg()[0]:.2f}")
    print("\n| marks | classes | positions | live classes | edges | seconds (cumulative) | peak RSS |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    low = (1 << n) - 1
    keys = np.zeros(1, dtype=np.int64)
    for p in range(min(n, args.max_layer) + 1):
        x, o = keys & low, keys >> n
        term = _any_line(x, g.masks) | _any_line(o, g.masks) | ((x | o) == low)
        live = np.nonzero(~term)[0]
        positions = int((order // stabilisers(keys, lut)).sum())
        edges = len(live) * (n - p)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"| {p} | {len(keys):,} | {positions:,} | {len(live):,} | {edges:,} | {time.perf_counter() - t0:.1f} | "
              f"{rss:,.0f} MB |", flush=True)
        if p == min(n, args.max_layer) or not len(live):
            break
        shift = 0 if p % 2 == 0 else n
        if ex.kind != "serial" and len(live) >= 20_000:
            _par, keys, _inv = _expand_split(keys, live, n, shift, perms, ex)
        else:
            _par, keys, _inv = expand(keys[live], n, shift, lut)
    shutdown()


if __name__ == "__main__":
    main()
