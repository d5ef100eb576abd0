"""The fuzzing harness: run a command line in-process and check the contract on it (see :func:`run_checked`);
generators of hostile inputs are in :mod:`tests.fuzz.inputs`."""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shlex
import signal
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

from tapology.cli import main

DEADLINE = 10.0  # CPU seconds one input may take
PEAK_BYTES = 400_000_000  # Python allocations one input may make (tracemalloc's peak, when measured)
RSS_BYTES = 1_500_000_000  # the resident high-water mark an input may raise the test process to


@dataclass
class Outcome:
    """What one command line did: exit code, stdout, stderr, seconds, peak bytes, and what broke the contract."""

    argv: list[str]
    code: int
    out: str
    err: str
    seconds: float
    peak: int
    rss_before: int = 0
    problems: list[str] = field(default_factory=list)


class _Hang(Exception):
    pass


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """(mode, size, bytes) of every file under ``folder``, to compare before and after a refusal."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p.relative_to(folder))] = (st.st_mode, st.st_size, p.read_bytes())
    return out


def run(argv: list[str], cwd: Path, deadline: float = DEADLINE, measure: bool = False) -> Outcome:
    """Run ``tapology ARGV`` in-process in ``cwd`` with a deadline in CPU seconds of this process (SIGPROF: a loaded
    machine does not make a case late), stdin empty; catches everything;
    ``measure``: trace Python allocations (several times slower) for the peak."""
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    code = -1

    def alarm(_sig: int, _frame: object) -> None:
        raise _Hang

    prev = signal.signal(signal.SIGPROF, alarm)
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    if measure:
        tracemalloc.start()
    t0 = time.process_time()
    try:
        os.chdir(cwd)
        signal.setitimer(signal.ITIMER_PROF, deadline)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except _Hang:
                code = -2
            except BaseException as exc:
                import traceback

                traceback.print_exc()
                code = -3
                err.write(f"\nTRACEBACK {type(exc).__name__}: {exc}\n")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, prev)
        secs = time.process_time() - t0
        peak = tracemalloc.get_traced_memory()[1] if measure else 0
        if measure:
            tracemalloc.stop()
        os.chdir(old)
        sys.stdin = stdin
    return Outcome(argv, code, out.getvalue(), err.getvalue(), secs, peak)


def run_checked(argv: list[str], cwd: Path, deadline: float = DEADLINE, measure: bool = False) -> Outcome:
    """Run and check the contract: exit 0/1/2 only, no traceback, within the deadline and memory bound, on exit 2
    one line on stderr that starts ``tapology: error:``, and no file under ``cwd`` created or changed."""
    before = snapshot(cwd)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    res = run(argv, cwd, deadline, measure)
    res.rss_before = rss_before
    if res.code == -2:
        res.problems.append(f"hang: more than {deadline} s")
    elif res.code == -3 or "Traceback" in res.err:
        res.problems.append("traceback: " + res.err.strip().splitlines()[-1][:300])
    elif res.code not in (0, 1, 2):
        res.problems.append(f"exit code {res.code}")
    if res.peak > PEAK_BYTES:
        res.problems.append(f"memory: {res.peak / 1e6:.0f} MB allocated")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if rss > RSS_BYTES and rss > res.rss_before:
        res.problems.append(f"memory: the process reached {rss / 1e6:.0f} MB resident")
    if res.code == 2:
        lines = [ln for ln in res.err.splitlines() if ln.strip()]
        if len(lines) != 1 or not lines[0].startswith("tapology: error: "):
            res.problems.append(f"error is not one line: {res.err[:300]!r}")
        after = snapshot(cwd)
        if after != before:
            changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            res.problems.append(f"files changed on refusal: {changed}")
    return res


def argv_of(line: str) -> list[str]:
    """A command line as argv (shell quoting)."""
    return shlex.split(line)
