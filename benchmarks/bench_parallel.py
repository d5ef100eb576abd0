"""Speed-up per worker count on perft, census and solve, and the same figures on Ray, all in one run.

    python benchmarks/bench_parallel.py                    # every section (about 15 minutes on 2 cores)
    python benchmarks/bench_parallel.py --only perft --perft-depth 8

Sections (each prints a Markdown table for benchmarks/RESULTS.md):

* perft: checkers perft N (default 10) on 1 worker (in this process), a pool of 2, and Ray;
* census: closed boards for n = 1..12 on each executor, with the boards compared;
* solve: 4 in a row on torus:4x5 (5.3·10⁸ positions) on 1 and 2 workers (and Ray);
* match: mcts:1000 against random on tic-tac-toe (plane:3x3 alternating seats; torus:3x3 first).

Ratios compare runs of the same question in the same run.  On a shared machine other jobs take
cores away from the workers (Linux shares the CPU between sessions first), so each comparison
reports the cores other processes used while it ran and is repeated (``--attempts``) until one
ran with the machine otherwise quiet.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import threading
import time

from tapology.adapters.match import run_match
from tapology.games.perft import run_perft
from tapology.games.registry import load_game
from tapology.parallel import SERIAL, executor, ray_available, shutdown
from tapology.play.solving.solve import solve_kinrow
from tapology.solver.synthesis import census


def load() -> str:
    """The load average (1, 5, 15 minutes)."""
    return " / ".join(f"{v:.2f}" for v in os.getloadavg())


def _cpu_ticks_of_others() -> int:
    """CPU ticks used so far by processes outside this process's tree (Linux /proc), niced background groups aside."""
    me = os.getpid()
    parent: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/autogroup") as f:
                niced = f.read().split()[-1] == "19"
        except (OSError, IndexError):
            continue
        pid = int(name)
        parent[pid] = int(parts[1])
        if not niced:
            ticks[pid] = int(parts[11]) + int(parts[12])

    def mine(pid: int) -> bool:
        for _ in range(64):
            if pid == me:
                return True
            if pid <= 1:
                return False
            pid = parent.get(pid, 0)
        return False

    return sum(t for pid, t in ticks.items() if not mine(pid))


class OtherLoad:
    """How many cores other processes used while a measurement ran (sampled each second from /proc)."""

    def __enter__(self) -> OtherLoad:
        self.stop = threading.Event()
        self.total = 0
        self.t0 = time.perf_counter()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        last = _cpu_ticks_of_others()
        while not self.stop.wait(1.0):
            now = _cpu_ticks_of_others()
            self.total += max(0, now - last)  # processes that ended drop out: a lower bound
            last = now

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.cores = self.total / os.sysconf("SC_CLK_TCK") / max(1e-9, time.perf_counter() - self.t0)


QUIET = 0.2  # other processes used fewer cores than this during a measurement


def executors(with_ray: bool) -> list:
    out = [("1 worker", SERIAL), ("2 workers", executor(2))]
    if with_ray:
        out.append(("Ray (local, 2 CPUs)", executor(ray=True)))
    return out


def bench_perft(depth: int, with_ray: bool, attempts: int) -> None:
    print(f"\n### checkers perft {depth}\n")
    print("| attempt | executor | nodes | tasks | seconds | time / 1 worker | other processes (cores) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for k in range(1, attempts + 1):
        base = None
        quiet = True
        for name, ex in executors(with_ray):
            with OtherLoad() as other:
                r = run_perft("checkers", depth, ex=ex)
            base = base or r.seconds
            quiet &= other.cores < QUIET
            print(f"| {k} | {name} | {r.nodes:,} | {r.tasks} | {r.seconds:.1f} | {r.seconds / base:.2f} | "
                  f"{other.cores:.2f} |", flush=True)
        if quiet:
            break


def bench_census(n_max: int, with_ray: bool, attempts: int) -> None:
    print(f"\n### census of closed boards, n = 1..{n_max}\n")
    print("| attempt | executor | boards (n = 1..) | seconds | time / 1 worker | same boards as 1 worker | other processes "
          "(cores) |")
    print("|---|---|---|---:|---:|---|---:|")
    for k in range(1, attempts + 1):
        base = None
        ref = None
        quiet = True
        for name, ex in executors(with_ray):
            with OtherLoad() as other:
                t0 = time.perf_counter()
                rows = census(range(1, n_max + 1), ex=ex)
                dt = time.perf_counter() - t0
            facts = [(r.tiles, r.boards, r.nodes, r.signatures) for r in rows]
            ref = ref or facts
            base = base or dt
            quiet &= other.cores < QUIET
            counts = ", ".join(str(r.boards) for r in rows)
            print(f"| {k} | {name} | {counts} | {dt:.1f} | {dt / base:.2f} | {facts == ref} | {other.cores:.2f} |",
                  flush=True)
        if quiet:
            break


def bench_solve(board: str, with_ray: bool, attempts: int) -> None:
    print(f"\n### 4 in a row on {board}\n")
    print("| attempt | executor | value | positions | classes | seconds | time / 1 worker | other processes (cores) |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    g = load_game("tictactoe:4", board).kinrow
    ref = None
    times: list[float] = []
    rss0 = rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    classes = 0
    for k in range(1, attempts + 1):
        base = None
        times = []
        quiet = True
        for name, ex in executors(with_ray):
            with OtherLoad() as other:
                r = solve_kinrow(g, ex=ex, board_name=board)
            d = r.to_json()
            d.pop("seconds")
            ref = ref or d
            assert d == ref, "executors disagree"
            base = base or r.seconds
            times.append(r.seconds)
            classes = r.classes or 0
            quiet &= other.cores < QUIET
            print(f"| {k} | {name} | {d['value']} | {r.positions:,} | {r.classes:,} | {r.seconds:.1f} | "
                  f"{r.seconds / base:.2f} | {other.cores:.2f} |", flush=True)
            if k == 1 and len(times) == 1:
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if quiet:
            break
    f = ref or {}
    print(f"\n(figures: {f.get('value')} in {f.get('plies')} plies; positions {f.get('positions'):,}, terminal "
          f"{f.get('terminal_positions'):,}; games {f.get('games'):,}: X wins {f['wins']['X']:,}, O wins "
          f"{f['wins']['O']:,}, draws {f.get('draws'):,}; {f['symmetry']['group']} group of order "
          f"{f['symmetry']['order']})", flush=True)
    print(f"\n(1 worker: peak RSS of this process {rss / 1024:,.0f} MB, {rss0 / 1024:,.0f} MB before the solve: "
          f"{(rss - rss0) * 1024 / max(classes, 1):,.0f} bytes per class)", flush=True)
    if len(times) >= 2:
        serial_part = max(0.0, 2 * times[1] - times[0])
        print(f"\n(Amdahl from 1 and 2 workers: the part run in this process ≈ {serial_part:.1f} s of "
              f"{times[0]:.1f} s, {100 * serial_part / times[0]:.0f}%; per class {1e6 * times[0] / classes:.1f} µs "
              f"on 1 worker)", flush=True)


def bench_match(games: int) -> None:
    print(f"\n### mcts:1000 against random, {games} games, 2 workers\n")
    print("| board | seats | A wins | draws | A losses | seconds | MCTS |")
    print("|---|---|---:|---:|---:|---:|---|")
    for board, swap in (("plane:3x3", True), ("torus:3x3", False)):
        r = run_match("tictactoe", board, "mcts:1000", "random", games, swap=swap, ex=executor(2))
        seats = "alternating" if swap else "A first"
        print(f"| {board} | {seats} | {r.total.wins} | {r.total.draws} | {r.total.losses} | {r.seconds:.1f} | "
              f"{r.engine} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=["perft", "census", "solve", "match"], action="append")
    ap.add_argument("--perft-depth", type=int, default=10)
    ap.add_argument("--census-max", type=int, default=12)
    ap.add_argument("--solve-board", default="torus:4x5")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--attempts", type=int, default=3, help="repeat a comparison until other processes stayed quiet")
    args = ap.parse_args()
    with_ray = ray_available() and not args.no_ray
    if with_ray:
        import ray  # the optional extra

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average at start: {load()}")
    only = set(args.only or ["perft", "census", "solve", "match"])
    if "perft" in only:
        bench_perft(args.perft_depth, with_ray, args.attempts)
    if "census" in only:
        bench_census(args.census_max, with_ray, args.attempts)
    if "solve" in only:
        bench_solve(args.solve_board, with_ray, args.attempts)
    if "match" in only:
        bench_match(args.games)
    print(f"\nload average at the end: {load()}")
    shutdown()


if __name__ == "__main__":
    main()
