"""Golden files: the exact text and JSON every command prints on a few boards and games.

Each case below is one command line, run from the repository's root through ``tapology.cli.main``.
``NAME.txt`` holds what it prints, ``NAME.json`` what it prints with ``--json``, and ``exit-codes.json``
the exit code of each.  Timings (perft's and solve's seconds) are left out: while the cases run,
:attr:`tapology.reports.base.Report.timings` is off.  Input files the cases need are in ``inputs/``.

Compare (part of the normal test run)::

    python -m pytest tests/test_golden.py

Rewrite every file after a deliberate change of output::

    python -m tests.golden --update            # or: python -m pytest tests/test_golden.py --update-golden

Both print the diff of every file they changed and fail (exit 1, failed tests) when anything changed: read the
diff, and the next run without ``--update`` passes once the files are as intended.

``python -m tests.golden`` without ``--update`` lists the cases whose output differs.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CODES = HERE / "exit-codes.json"
TEXT, JSON = "text", "json"


@dataclass(frozen=True)
class Case:
    """One command line; ``modes`` says whether its text, its ``--json`` answer or both are kept."""

    name: str
    argv: tuple[str, ...]
    modes: tuple[str, ...] = (TEXT, JSON)

    def argv_for(self, mode: str) -> list[str]:
        return [*self.argv, "--json"] if mode == JSON else list(self.argv)

    def path(self, mode: str) -> Path:
        return HERE / f"{self.name}.{'json' if mode == JSON else 'txt'}"

    def key(self, mode: str) -> str:
        return f"{self.name}.{'json' if mode == JSON else 'txt'}"


def _c(name: str, *argv: str, modes: tuple[str, ...] = (TEXT, JSON)) -> Case:
    return Case(name, argv, modes)


INPUTS = "tests/golden/inputs"
CASES: list[Case] = [
    # boards: group, show, check, tape
    _c("group-square", "group", "square"),
    _c("group-hex-rotations", "group", "hex-rotations", modes=(TEXT,)),
    _c("show-klein", "show", "klein:3x3"),
    _c("show-turned-chart-5", "show", "examples/boards/tictactoe-turned.toml", "--chart", "5"),
    _c("show-hex-plane", "show", "hex-plane:2x3"),
    _c("show-inconsistent", "show", f"{INPUTS}/inconsistent.toml"),
    _c("check-L", "check", "examples/boards/L.toml"),
    _c("check-inconsistent", "check", f"{INPUTS}/inconsistent.toml"),
    _c("check-inconsistent-explain", "check", f"{INPUTS}/inconsistent.toml", "--explain"),
    _c("check-inconsistent-z3", "check", f"{INPUTS}/inconsistent.toml", "--backend", "z3"),
    _c("tape-strip7", "tape", "examples/boards/strip7.toml", "3.up=4.down", "--chart", "4"),
    _c("tape-L-refused", "tape", "examples/boards/L.toml", "1.up=3.right"),
    _c("tape-L-explain", "tape", "examples/boards/L.toml", "1.up=3.right", "--explain"),
    _c("tape-inconsistent", "tape", f"{INPUTS}/inconsistent.toml", "2.right=1.left"),
    # topology: classify, signature, same, synthesize
    _c("classify-cube", "classify", "examples/boards/cube.toml"),
    _c("classify-hemicube", "classify", "examples/boards/hemicube.toml"),
    _c("classify-orbifold", "classify", f"{INPUTS}/orbifold.toml"),
    _c("signature-torus", "signature", "torus:3x3"),
    _c("same-torus-klein", "same", "torus:3x3", "klein:3x3"),
    _c("same-klein-klein", "same", "klein:3x3", "klein:3x3"),
    _c("synthesize-2-closed", "synthesize", "--tiles", "2", "--closed"),
    _c("synthesize-count", "synthesize", "--from", "plane:3x3", "--closed", "--non-orientable", "--manifold",
       "--count"),
    # rule sets: moves, perft, rules, fen
    _c("moves-checkers", "moves", "checkers"),
    _c("moves-tictactoe-klein", "moves", "tictactoe", "--board", "klein:3x3", modes=(TEXT,)),
    _c("moves-chess", "moves", "chess"),
    _c("perft-checkers-4", "perft", "checkers", "--depth", "4"),
    _c("perft-checkers-divide", "perft", "checkers", "--depth", "2", "--divide"),
    _c("perft-checkers-no-bulk", "perft", "checkers", "--depth", "4", "--no-bulk"),
    _c("rules-tictactoe", "rules", "tictactoe"),
    _c("rules-checkers", "rules", "checkers", modes=(TEXT,)),
    _c("fen", "fen"),
    _c("fen-to-position", "fen", "--to-position", modes=(TEXT,)),
    # play: play, solve, referee, verify
    _c("play-ai", "play", "tictactoe", "--x", "ai", "--o", "ai", "--seed", "1"),
    _c("solve-torus", "solve", "tictactoe", "--board", "torus:3x3"),
    _c("solve-plane", "solve", "tictactoe"),
    _c("referee-valid", "referee", "tictactoe", f"{INPUTS}/tictactoe.jsonl"),
    _c("referee-invalid", "referee", "tictactoe", f"{INPUTS}/tictactoe-bad.jsonl"),
    _c("referee-pgn", "referee", "chess", "--pgn", f"{INPUTS}/fools-mate.pgn"),
    _c("verify-tictactoe", "verify", "tictactoe"),
    _c("verify-reach", "verify", "tictactoe", "--reach", "line(X) and line(O)", "--depth", "9", "--play-to-full"),
    _c("verify-checkers-reach", "verify", "checkers", "--reach", "true", "--depth", "2"),
    # walkers and pictures: walk, view, net
    _c("walk-klein", "walk", "klein:3x3", "--from", "1", "--steps", "right,right,right"),
    _c("walk-blocked", "walk", "plane:3x3", "--from", "1", "--steps", "right,left,left"),
    _c("view-klein", "view", "klein:3x3", "--from", "5", "--radius", "2"),
    _c("view-klein-svg", "view", "klein:3x3", "--from", "5", "--radius", "1", "--format", "svg", modes=(TEXT,)),
    _c("view-hex-torus", "view", "hex-torus:2x3", "--from", "1", "--radius", "2", modes=(TEXT,)),
    _c("view-village-fov", "view", "examples/roguelike/village.toml", "--from", "g44", "--radius", "3", "--opaque",
       "4"),
    _c("net-klein", "net", "klein:3x3"),
    _c("net-hex-torus", "net", "hex-torus:2x3", modes=(TEXT,)),
    _c("net-klein-svg", "net", "klein:3x3", "--format", "svg", modes=(TEXT,)),
]


@contextlib.contextmanager
def _golden_run() -> Iterator[None]:
    """From the repository's root, without timings, with an empty standard input."""
    from tapology.reports.base import Report

    cwd, stdin, timings = Path.cwd(), sys.stdin, Report.timings
    os.chdir(ROOT)
    sys.stdin = io.StringIO("")
    Report.timings = False
    try:
        yield
    finally:
        os.chdir(cwd)
        sys.stdin = stdin
        Report.timings = timings


def run(case: Case, mode: str) -> tuple[int, str]:
    """(exit code, standard output) of one case in one mode."""
    from tapology.cli import main

    out = io.StringIO()
    with _golden_run(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(case.argv_for(mode))
    return code, out.getvalue()


def expected_codes() -> dict[str, int]:
    return json.loads(CODES.read_text()) if CODES.exists() else {}


def differences(cases: list[Case] | None = None) -> list[str]:
    """The files (``NAME.txt`` / ``NAME.json``) whose command prints something else today, or exits otherwise."""
    codes = expected_codes()
    bad = []
    for case in cases or CASES:
        for mode in case.modes:
            code, out = run(case, mode)
            p = case.path(mode)
            if not p.exists() or p.read_text() != out or codes.get(case.key(mode)) != code:
                bad.append(case.key(mode))
    return bad


def _diff(name: str, old: str, new: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"a/tests/golden/{name}", f"b/tests/golden/{name}"))


def update() -> dict[str, str]:
    """Rewrite every golden file and the exit codes; {file: unified diff} of what changed (a file no case names is
    removed, its diff shows the loss).  The caller shows the diffs and fails, so that a change is read before it is
    committed."""
    codes: dict[str, int] = {}
    changed: dict[str, str] = {}
    old = expected_codes()
    for case in CASES:
        for mode in case.modes:
            code, out = run(case, mode)
            p = case.path(mode)
            before = p.read_text() if p.exists() else ""
            key = case.key(mode)
            if before != out:
                changed[key] = _diff(p.name, before, out)
            if old.get(key) != code:
                changed[key] = changed.get(key, "") + f"exit code of {key}: {old.get(key)} -> {code}\n"
            p.write_text(out)
            codes[key] = code
    CODES.write_text(json.dumps(codes, indent=2, sort_keys=True) + "\n")
    known = {case.key(m) for case in CASES for m in case.modes}
    for stale in sorted(HERE.glob("*.*")):
        if stale.suffix in (".txt", ".json") and stale.name != CODES.name and stale.name not in known:
            changed[f"{stale.name} (removed)"] = _diff(stale.name, stale.read_text(), "")
            stale.unlink()
    return changed
