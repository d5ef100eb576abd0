"""The census of closed connected boards up to isomorphism, by tile count, on a chosen executor.

    python benchmarks/bench_census.py --from 1 --to 16                   # square tiles, all cores
    python benchmarks/bench_census.py --grid hex --to 4 --workers 2
    python benchmarks/bench_census.py --to 11 --workers 1 --cpu         # CPU seconds, for a loaded machine

Prints a Markdown table (boards by surface, search nodes, time per count) for docs/topology.md and
benchmarks/RESULTS.md; ``--check-tori`` compares the torus column with the number of sublattices
of Z² of index n up to the square's symmetries (square grid only).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from tapology.parallel import executor, shutdown
from tapology.solver.synthesis import census


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="lo", type=int, default=1)
    ap.add_argument("--to", dest="hi", type=int, default=12)
    ap.add_argument("--grid", default="square")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--ray", action="store_true")
    ap.add_argument("--cpu", action="store_true", help="CPU seconds of this process (with --workers 1: a loaded "
                                                       "machine disturbs them least) rather than wall seconds")
    args = ap.parse_args()
    ex = executor(args.workers, True if args.ray else None)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{args.grid} grid, {ex.describe()}; load average at start: {os.getloadavg()[0]:.2f}")
    print("\n| tiles | closed boards | tori | Klein bottles | orbifolds | other | search nodes | time |")
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    total = 0.0
    t0 = time.perf_counter()
    for n in range(args.lo, args.hi + 1):
        c0 = time.process_time()
        (row,) = census([n], args.grid, ex=ex)
        seconds = time.process_time() - c0 if args.cpu else row.seconds
        total += seconds
        s = dict(row.surfaces)
        tori, klein, orb = s.pop("torus", 0), s.pop("klein bottle", 0), s.pop("orbifold", 0)
        other = ", ".join(f"{k} {v}" for k, v in sorted(s.items())) or "—"
        mark = "" if row.complete else " (interrupted)"
        print(f"| {n} | {row.boards} | {tori} | {klein} | {orb} | {other} | {row.nodes:,} | {seconds:.2f} s{mark} |",
              flush=True)
        if not row.complete:
            break
    print(f"\ntotal: {total:.2f} {'CPU ' if args.cpu else ''}s ({time.perf_counter() - t0:.1f} s wall); load average "
          f"at the end: {os.getloadavg()[0]:.2f}")
    shutdown()


if __name__ == "__main__":
    main()
