"""Backends and synthesis: propagator vs z3 on the same taping decisions; census of closed box-domain boards.

Run: ``python benchmarks/bench_backends.py [--census-max N] [--skip-smt]``.  Prints markdown tables
for benchmarks/RESULTS.md (section "Backends and synthesis").
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections import Counter

from tapology.model.atlas import Atlas
from tapology.model.board import Board, Taping
from tapology.model.builtins import builtin_board
from tapology.model.tape import board_tapings, format_fact, side_fact
from tapology.solver.synthesis import Request, synthesize
from tapology.solver.z3backend import Z3Closure, z3_consistent


def random_tapings(board: Board, k: int, seed: int) -> list[Taping]:
    """k random tapings of open sides (either flip), each a separate decision."""
    rng = random.Random(seed)
    open_sides = [(t, d) for t, row in enumerate(board.glue) for d, code in enumerate(row) if code < 0]
    out = []
    for _ in range(k):
        (t, d), (u, e) = rng.sample(open_sides, 2)
        f = side_fact(board, t, d, u, e, rng.random() < 0.5)
        out.append(Taping(f, format_fact(board, f)))
    return out


def bench_decisions(name: str, k: int) -> tuple[str, int, int, float, float, int]:
    """Time k taping decisions on a closed board by the propagator (incremental) and by z3 (Datalog)."""
    board = builtin_board(name)
    tapings = random_tapings(board, k, seed=len(board.tiles))
    at = Atlas.of(board)
    base_facts = [tp.fact for tp in board_tapings(board)]
    t0 = time.perf_counter()
    prop = [at.copy().tape([tp]) is None for tp in tapings]
    t1 = time.perf_counter()
    z3v = []
    for tp in tapings:
        c = Z3Closure(board)
        c.add_facts([*base_facts, tp.fact])
        z3v.append(c.consistent())
    t2 = time.perf_counter()
    assert prop == z3v, f"{name}: verdicts differ"
    return name, len(board.tiles), k, (t1 - t0) / k, (t2 - t1) / k, sum(prop)


def bench_smt(name: str) -> tuple[float, float]:
    """Whole-board consistency: propagator closure vs the SMT encoding."""
    board = builtin_board(name)
    t0 = time.perf_counter()
    ok = Atlas.of(board).consistent
    t1 = time.perf_counter()
    ok2 = z3_consistent(board, method="smt")
    t2 = time.perf_counter()
    assert ok == ok2
    return t1 - t0, t2 - t1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--census-max", type=int, default=12)
    ap.add_argument("--skip-smt", action="store_true")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {sys.platform}")
    print("\n| board | tiles | decisions | propagator / decision | z3 Datalog / decision | z3 / propagator | allowed |")
    print("|---|---|---|---|---|---|---|")
    for name, k in (("plane:3x3", 40), ("plane:10x10", 40), ("plane:25x40", 20)):
        nm, n, k, tp, tz, allowed = bench_decisions(name, k)
        print(f"| {nm} | {n:,} | {k} | {tp * 1e3:.3f} ms | {tz * 1e3:.1f} ms | {tz / tp:,.0f}× | {allowed}/{k} |")
    if not args.skip_smt:
        print("\n| board | tiles | propagator closure | z3 SMT encoding | ratio |")
        print("|---|---|---|---|---|")
        for name in ("torus:3x3", "plane:3x3", "torus:10x10"):
            a, b = bench_smt(name)
            print(f"| {name} | {len(builtin_board(name).tiles)} | {a * 1e3:.2f} ms | {b:.2f} s | {b / a:,.0f}× |")
    print("\n| tiles | closed boards | tori | Klein bottles | orbifolds | search nodes | time |")
    print("|---|---|---|---|---|---|---|")
    total = 0.0
    for n in range(1, args.census_max + 1):
        t0 = time.perf_counter()
        res = synthesize(Request.make(tiles=n, closed=True))
        dt = time.perf_counter() - t0
        total += dt
        c = Counter(f.topology.surface if f.topology.manifold else "orbifold" for f in res.boards)
        print(f"| {n} | {len(res.boards)} | {c['torus']} | {c['klein bottle']} | {c['orbifold']} | {res.nodes:,} | {dt:.2f} s |")
    print(f"\ncensus total, n = 1..{args.census_max}: {total:.1f} s")
    print("\n| tiles | z3 synthesis | enumeration | same boards |")
    print("|---|---|---|---|")
    for n in (1, 2, 3):
        req = Request.make(tiles=n, closed=True)
        t0 = time.perf_counter()
        a = synthesize(req, engine="z3")
        t1 = time.perf_counter()
        b = synthesize(req, engine="enumerate")
        t2 = time.perf_counter()
        same = sorted(f.signature for f in a.boards) == sorted(f.signature for f in b.boards)
        print(f"| {n} | {t1 - t0:.2f} s ({len(a.boards)}) | {t2 - t1:.3f} s ({len(b.boards)}) | {same} |")


if __name__ == "__main__":
    main()
