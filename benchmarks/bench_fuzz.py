"""Fuzzing figures: N hostile inputs per generator through the CLI in-process, with the contract checked on each
(exit 0/1/2 only, no traceback, one-line error on exit 2, no file changed on refusal, a 10 s deadline per input),
then each input again with its Python allocations traced for the peak memory.  Prints inputs tried, tracebacks,
hangs, files changed on refusal, worst time and peak memory per command.

    PYTHONPATH=. python benchmarks/bench_fuzz.py [N_TOTAL] [SEED]
"""

from __future__ import annotations

import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzz import run, run_checked  # noqa: E402
from tests.fuzz.inputs import random_cases  # noqa: E402


def main(total: int = 600, seed: int = 0) -> int:
    """Run ``total`` cases; print the table and every problem; exit 1 if any input broke the contract."""
    stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    problems = []
    for case in random_cases(total, seed):
        with tempfile.TemporaryDirectory(prefix="tapology-fuzz-") as tmp:
            case.write(Path(tmp))
            res = run_checked(case.argv, Path(tmp))
        if res.code != -2:  # again with allocations traced (slower, so a longer deadline) for the peak
            with tempfile.TemporaryDirectory(prefix="tapology-fuzz-") as tmp:
                case.write(Path(tmp))
                res.peak = run(case.argv, Path(tmp), deadline=120.0, measure=True).peak
        cmd = next((a for a in case.argv if not a.startswith("-") and "=" not in a), case.argv[0])
        s = stats[cmd]
        s["tried"] += 1
        s["tracebacks"] += any(p.startswith("traceback") for p in res.problems)
        s["hangs"] += any(p.startswith("hang") for p in res.problems)
        s["changed"] += any(p.startswith("files changed") for p in res.problems)
        s["other"] += any(not p.startswith(("traceback", "hang", "files changed")) for p in res.problems)
        s[f"exit{res.code}"] += 1
        s["worst"] = max(s["worst"], res.seconds)
        s["peak"] = max(s["peak"], res.peak)
        if res.problems:
            problems.append((case, res))
    head = f"{'command':<12}{'tried':>7}{'exit 0/1/2':>14}{'tracebacks':>12}{'hangs':>7}{'changed':>9}{'other':>7}" \
           f"{'worst s':>9}{'peak MB':>9}"
    print(head)
    tot: dict[str, float] = defaultdict(float)
    for cmd in sorted(stats):
        s = stats[cmd]
        codes = f"{int(s['exit0'])}/{int(s['exit1'])}/{int(s['exit2'])}"
        print(f"{cmd:<12}{int(s['tried']):>7}{codes:>14}{int(s['tracebacks']):>12}{int(s['hangs']):>7}"
              f"{int(s['changed']):>9}{int(s['other']):>7}{s['worst']:>9.2f}{s['peak'] / 1e6:>9.1f}")
        for k in ("tried", "tracebacks", "hangs", "changed", "other"):
            tot[k] += s[k]
        tot["worst"] = max(tot["worst"], s["worst"])
        tot["peak"] = max(tot["peak"], s["peak"])
    print(f"{'all':<12}{int(tot['tried']):>7}{'':>14}{int(tot['tracebacks']):>12}{int(tot['hangs']):>7}"
          f"{int(tot['changed']):>9}{int(tot['other']):>7}{tot['worst']:>9.2f}{tot['peak'] / 1e6:>9.1f}")
    for case, res in problems:
        print(f"\n{case.kind}: {[a[:80] for a in case.argv]}\n  " + "\n  ".join(res.problems))
        for name, data in case.files.items():
            print(f"  file {name}: {data[:300]!r}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
