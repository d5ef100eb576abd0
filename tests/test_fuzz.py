"""Fuzzing: hostile inputs of every kind through the CLI in-process, with the contract checked on each — exit 0, 1
or 2 only, no traceback, on exit 2 one line ``tapology: error: ...`` on stderr and no file created or changed,
within a deadline and a memory bound (tests/fuzz/__init__.py).

The default run tries a few hundred inputs: Hypothesis strategies for TAPE strings, predicates, FEN positions,
transcripts, built-in names and whole command lines, seeded mutations of the shipped rule and board files, and
one scene of each hostile condition from outside the input (tests/fuzz/outside.py: raised limits, signals, a full
disk, symlink loops, an unreachable service, closed standard streams), each run as a process of its own.
``-m slow`` runs tens of thousands (``TAPOLOGY_FUZZ_N``, default 20,000).  Every input that once broke the
contract is a regression file under tests/data/fuzz/, replayed here.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz import run_checked
from tests.fuzz.inputs import (
    Case,
    board_case,
    builtins,
    command_case,
    command_lines,
    fen_case,
    fens,
    predicate_case,
    predicates,
    random_cases,
    rule_case,
    tape_case,
    tapes,
    transcript_case,
    transcripts,
)
from tests.fuzz.outside import Scene, lay_out, many_scenes, quick_scenes, run_scene
from tests.helpers import examples

REGRESSIONS = Path(__file__).resolve().parent / "data" / "fuzz"


def check(case: Case) -> None:
    """Run one case in a fresh folder and fail with the contract's problems, if any."""
    with tempfile.TemporaryDirectory(prefix="tapology-fuzz-") as tmp:
        case.write(Path(tmp))
        res = run_checked(case.argv, Path(tmp))
    assert not res.problems, (case.kind, [a[:200] for a in case.argv], res.problems)


@settings(max_examples=examples(1.2))
@given(tapes())
def test_fuzz_tapes(tape):
    check(tape_case(tape))


@settings(max_examples=examples(1.0))
@given(predicates())
def test_fuzz_predicates(pred):
    check(predicate_case(pred))


# each well-formed invariant is proved (z3 k-induction and the exhaustive search, most of a second): fewer examples;
# the slow set runs one predicate in four as an invariant
@settings(max_examples=examples(0.1))
@given(predicates())
def test_fuzz_invariants(pred):
    check(predicate_case(pred, invariant=True))


@settings(max_examples=examples(0.3))  # a well-formed one opens chess (a fifth of a second); thousands with -m slow
@given(fens())
def test_fuzz_fens(fen):
    check(fen_case(fen))


@settings(max_examples=examples(0.8))
@given(transcripts())
def test_fuzz_transcripts(text):
    check(transcript_case(text))


@settings(max_examples=examples(0.6))
@given(builtins(), st.sampled_from(["check", "classify", "signature", "show"]))
def test_fuzz_builtin_names(name, cmd):
    check(Case("builtin", [cmd, name, "--chart", "1"] if cmd == "show" else [cmd, name]))


@settings(max_examples=examples(1.2))
@given(command_lines())
def test_fuzz_command_lines(argv):
    check(command_case(argv))


@pytest.mark.parametrize("seed", range(6))
def test_fuzz_rule_file_mutations(seed):
    rnd = random.Random(seed)
    for _ in range(10):
        check(rule_case(rnd))


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_board_file_mutations(seed):
    rnd = random.Random(1000 + seed)
    for _ in range(10):
        check(board_case(rnd))


def _regressions() -> list[Path]:
    return sorted(REGRESSIONS.glob("*.json"))


@pytest.mark.parametrize("path", _regressions(), ids=lambda p: p.stem)
def test_fuzz_regressions(path):
    """Each input that once broke the contract: now within it, and answering as the file says."""
    data = json.loads(path.read_text(encoding="utf-8"))
    files = {k: v for k, v in data.get("files", {}).items()}
    for name, spec in data.get("generated", {}).items():  # big files written from a recipe: [text, times, tail]
        files[name] = spec[0] * spec[1] + spec[2]
    argv = [a if not isinstance(a, list) else a[0] * a[1] + a[2] for a in data["argv"]]
    with tempfile.TemporaryDirectory(prefix="tapology-fuzz-") as tmp:
        Case("regression", argv, files).write(Path(tmp))
        res = run_checked(argv, Path(tmp), deadline=data.get("deadline", 10.0))
    assert not res.problems, (path.name, res.problems)
    assert res.code == data["exit"], (path.name, res.code, res.err)
    if "error" in data:
        assert data["error"] in res.err, (path.name, res.err)


def _run_scene(sc: Scene) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="tapology-outside-") as tmp:
        lay_out(sc, Path(tmp))
        return run_scene(sc, Path(tmp)).problems


@pytest.mark.parametrize("sc", quick_scenes(), ids=lambda sc: f"{sc.kind}-{sc.argv[0] if sc.argv[0] != '--limit' else 'limit'}")
def test_fuzz_outside_conditions(sc):
    """Each class of hostile condition from outside the input (tests/fuzz/outside.py), once."""
    assert _run_scene(sc) == [], (sc.kind, [a[:80] for a in sc.argv])


@pytest.mark.slow
def test_fuzz_outside_conditions_all():
    """Every scene of every class: raised limits, signals, full disks, symlink loops, services, closed streams."""
    broken = [(sc.kind, [a[:60] for a in sc.argv], got) for sc in many_scenes() if (got := _run_scene(sc))]
    assert not broken, broken


def test_regression_corpus_is_there():
    assert len(_regressions()) >= 10


@pytest.mark.slow
def test_fuzz_many():
    """Tens of thousands of inputs from every generator (``TAPOLOGY_FUZZ_N``); fails listing every broken one."""
    n = int(os.environ.get("TAPOLOGY_FUZZ_N", "20000"))
    broken = []
    for case in random_cases(n, seed=int(os.environ.get("TAPOLOGY_FUZZ_SEED", "0"))):
        with tempfile.TemporaryDirectory(prefix="tapology-fuzz-") as tmp:
            case.write(Path(tmp))
            res = run_checked(case.argv, Path(tmp))
        if res.problems:
            broken.append(([a[:100] for a in case.argv], res.problems))
    assert not broken, broken[:20]
