"""CPU time of whole ``tapology`` processes with their tables in the disk cache, against another checkout.

    python benchmarks/bench_cli.py                       # this checkout only
    python benchmarks/bench_cli.py --against /tmp/base   # and another checkout, interleaved (e.g. `git archive`)

Each command runs once first (its tables built and written to the cache), then ``--rounds`` times per checkout,
the checkouts alternating; the figure is the best user+sys CPU time of the child process (``getrusage``), which a
machine loaded by other work disturbs least.  Bytecode is written and read as an installed package has it
(``PYTHONDONTWRITEBYTECODE`` is cleared).  Prints a Markdown table for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [
    ["--version"],
    ["--help"],
    ["moves", "chess", "--board", "torus:12x8"],
    ["moves", "chess"],
    ["perft", "chess", "--board", "torus:12x8", "--depth", "2"],
    ["perft", "checkers", "--depth", "1"],
    ["perft", "checkers", "--depth", "6"],
    ["playouts", "chess", "--count", "3", "--max-plies", "100"],
]
HERE = Path(__file__).resolve().parent.parent


def cpu(checkout: Path, args: list[str]) -> float:
    """User+sys CPU seconds of one ``python -m tapology ARGS`` from ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "tapology", *args], env=env, check=True, stdout=subprocess.DEVNULL,
                   cwd=checkout)  # ``-m`` puts the working folder first on the path
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout (the code before a change)")
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    checkouts = ([a.against] if a.against else []) + [HERE]
    print(f"`python benchmarks/bench_cli.py{' --against ' + str(a.against) if a.against else ''} --rounds {a.rounds}`"
          f" ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}); best user+sys CPU seconds of the whole process, tables"
          " read from the disk cache; `python -c pass` for scale.\n")
    head = "| command | " + " | ".join(["before", "after", "after / before"] if a.against else ["CPU s"]) + " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for args in [["-c", "pass"], *COMMANDS]:
        bare = args[0] == "-c"
        for c in checkouts:
            if not bare:
                cpu(c, args)  # the tables built and cached
        best = {c: float("inf") for c in checkouts}
        for _ in range(a.rounds):
            for c in checkouts:
                if bare:
                    env = dict(os.environ)
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    subprocess.run([sys.executable, *args], env=env, check=True)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                else:
                    t = cpu(c, args)
                best[c] = min(best[c], t)
        name = "`python -c pass`" if bare else f"`tapology {' '.join(args)}`"
        cells = [f"{best[c]:.2f}" for c in checkouts]
        if a.against:
            cells.append(f"{best[HERE] / best[a.against]:.2f}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
