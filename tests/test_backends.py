"""Backends agree: propagator, z3 (Datalog closure and SMT encoding) and python-constraint; explanations are minimal."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapology.cli import main
from tapology.model.atlas import Atlas
from tapology.model.board import Board, Fact, Taping
from tapology.model.builtins import builtin_board
from tapology.model.domain import domain_from_spec
from tapology.model.grid import SQUARE
from tapology.model.tape import board_tapings, format_fact, parse_tape
from tapology.solver import explain as explain_module
from tapology.solver.csp import csp_consistent
from tapology.solver.explain import explain, propagator_check
from tapology.solver.z3backend import Z3Board, Z3Closure, bare_board, z3_consistent
from tests.helpers import examples

from .strategies import boards, random_glue_boards
from .strategies import tapings as tapings_of

CORNERS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


@st.composite
def cases(draw: st.DrawFn, max_tiles: int = 4, max_facts: int = 7) -> tuple[Board, list[Taping]]:
    """A few loose tiles and random facts: side tapings with any orientation, sometimes a corner fact."""
    n = draw(st.integers(1, max_tiles))
    dom = domain_from_spec(SQUARE, draw(st.sampled_from(["box", "box", "plus"])))
    board = Board.empty([str(k + 1) for k in range(n)], SQUARE, dom)
    k = draw(st.integers(1, max_facts))
    tapings = []
    for _ in range(k):
        t, u = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        o = draw(st.integers(0, 7))
        if dom.is_box and draw(st.integers(0, 6)) == 0:
            cell = draw(st.sampled_from(CORNERS))
        else:
            cell = SQUARE.directions[draw(st.integers(0, 3))]
        f = Fact(t, cell, u, o)
        tapings.append(Taping(f, format_fact(board, f)))
    return board, tapings


def propagate(board: Board, tapings: list[Taping]) -> bool:
    return Atlas.of(board).tape(tapings) is None


def datalog(board: Board, tapings: list[Taping]) -> bool:
    c = Z3Closure(board)
    c.add_facts([tp.fact for tp in tapings])
    return c.consistent()


def worklist(board: Board, tapings: list[Taping]) -> bool:
    at = Atlas.of(board, method="worklist")
    return at.tape(tapings) is None


def _four_backends_agree(case: tuple[Board, list[Taping]]) -> None:
    board, tapings = case
    verdict = propagate(board, tapings)
    assert datalog(board, tapings) == verdict
    assert worklist(board, tapings) == verdict
    if len(board.tiles) <= 2:
        assert csp_consistent(board, tapings) == verdict


@settings(max_examples=examples(1), suppress_health_check=[HealthCheck.too_slow])  # ten times as many with -m slow
@given(cases())
def test_propagator_and_z3_agree(case: tuple[Board, list[Taping]]) -> None:
    _four_backends_agree(case)


@pytest.mark.slow
@settings(max_examples=examples(10), suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_propagator_and_z3_agree_many(case: tuple[Board, list[Taping]]) -> None:
    _four_backends_agree(case)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_tiles=3, max_facts=6))
def test_smt_encoding_agrees(case: tuple[Board, list[Taping]]) -> None:
    board, tapings = case
    assert z3_consistent(board, tapings, method="smt") == propagate(board, tapings)


@pytest.mark.slow
@settings(max_examples=examples(20), suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_tiles=3, max_facts=6))
def test_smt_encoding_agrees_many(case: tuple[Board, list[Taping]]) -> None:
    board, tapings = case
    assert z3_consistent(board, tapings, method="smt") == propagate(board, tapings)


@settings(max_examples=examples(0.4), suppress_health_check=[HealthCheck.too_slow])  # each explained three ways
@given(cases(max_tiles=3, max_facts=8))
def test_explanations_are_minimal(case: tuple[Board, list[Taping]]) -> None:
    _explanations_are_minimal(case)


@pytest.mark.slow
@settings(max_examples=examples(4), suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_tiles=3, max_facts=8))
def test_explanations_are_minimal_many(case: tuple[Board, list[Taping]]) -> None:
    _explanations_are_minimal(case)


def _explanations_are_minimal(case: tuple[Board, list[Taping]]) -> None:
    """Each backend's explanation of a conflict is a minimal set of the tapings: without any one of them, no conflict."""
    board, tapings = case
    check = propagator_check(board, tapings)
    for backend in ("propagate", "z3", "z3-quickxplain"):
        if backend == "z3-quickxplain":  # no SMT core: divide and conquer over the Datalog closure
            saved, explain_module.SMT_TILES = explain_module.SMT_TILES, 0
            try:
                ex = explain(board, tapings, "z3")
            finally:
                explain_module.SMT_TILES = saved
        else:
            ex = explain(board, tapings, backend)
        if propagate(board, tapings):
            assert ex is None
            continue
        assert ex is not None
        idx = list(ex.indices)
        assert not check(idx)
        for k in idx:
            assert check([x for x in idx if x != k]), (backend, ex.labels, k)


def test_builtins_agree() -> None:
    for name in ("plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3", "torus:1x9", "strip:7",
                 "hex-torus:4x4"):
        b = builtin_board(name)
        assert z3_consistent(b) and Atlas.of(b).consistent
    for name in ("torus:1x2", "klein:1x2", "plane:1x3"):
        assert csp_consistent(builtin_board(name))


def test_seed_refusal_every_backend() -> None:
    from tapology.model.boardfile import load_board

    b = load_board("examples/boards/L.toml").board
    bad, good = parse_tape("1.up=3.right", b), parse_tape("1.up=3.down", b)
    for decide in (lambda t: z3_consistent(b, [t]), lambda t: z3_consistent(b, [t], method="smt"),
                   lambda t: csp_consistent(b, [t]), lambda t: Atlas.of(b).tape([t]) is None):
        assert decide(bad) is False and decide(good) is True


def test_shared_solver_and_names() -> None:
    import z3

    s = z3.Solver()
    a = Z3Board(bare_board(builtin_board("plane:1x2")), s, prefix="A:")
    b = Z3Board(bare_board(builtin_board("torus:1x1")), s, prefix="B:")
    assert str(a.tile_var(0, a.board.domain.index[(-1, 0)])) == "A:1@-1,0.tile" and str(b.known_var(0, 0)) == "B:1@0,0.known"
    s.add(a.fact_constraint(Fact(0, (1, 0), 1, 0)), b.fact_constraint(Fact(0, (1, 0), 0, 0)))
    assert s.check() == z3.sat
    s.push()
    s.add(a.fact_constraint(Fact(0, (0, 1), 1, 0)))  # tile 2 right of and above tile 1: a diagonal torus, fine
    assert s.check() == z3.sat
    s.pop()
    s.add(a.fact_constraint(Fact(1, (-1, 0), 0, 1)))  # tile 1 left of tile 2, but turned: a conflict
    assert s.check() == z3.unsat


@pytest.mark.parametrize("backend", ["propagate", "z3", "csp"])
def test_cli_backends_same_json(backend: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tape", "examples/boards/L.toml", "1.up=3.right", "--json", "--explain", "--backend", backend]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["allowed"] is False
    assert sorted(data["conflict"]["because"]) == ["1.down=3.up", "1.right=2.left", "1.up=3.right"]
    assert set(data["conflict"]) == {"tile", "cell", "claims", "because"}
    assert main(["check", "torus:3x3", "--json", "--backend", backend if backend != "csp" else "z3"]) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is True
    assert main(["check", "torus:3x3", "--backend", "nope"]) == 2


@pytest.mark.parametrize("backend", ["propagate", "z3"])
def test_check_explain_on_an_inconsistent_file(backend: str, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("layout = '''\n1 2 4\n3 . .\n'''\ntapes = [\"4.right=1.left\", \"1.up=3.right\"]\n", encoding="utf-8")
    assert main(["check", str(f), "--json", "--explain", "--backend", backend]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["consistent"] is False
    because = data["conflict"]["because"]
    assert sorted(because) == ["1.down=3.up", "1.right=2.left", "1.up=3.right"]  # the 4.right tape is not needed


def _shaped_boards_agree(data: st.DataObject) -> None:
    """The propagator and z3's closure agree on a drawn shaped board with random tapings."""
    board = data.draw(st.one_of(boards(), random_glue_boards()))
    tps = data.draw(tapings_of(board))
    facts = [*board_tapings(board), *tps]
    verdict = Atlas.of(bare_board(board)).tape(facts) is None
    c = Z3Closure(bare_board(board))
    c.add_facts([tp.fact for tp in facts])
    assert c.consistent() == verdict


# z3's fixed-point query takes a tenth of a second a board here: 0.3 of the profile's examples by default, ten
# times the profile's with -m slow
@settings(max_examples=examples(0.3), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_propagator_and_z3_agree_on_shaped_boards(data: st.DataObject) -> None:
    """Built-ins and plane cut-outs (square and hex, box, plus and ball:2 domains) with random tapings."""
    _shaped_boards_agree(data)


@pytest.mark.slow
@settings(max_examples=examples(10), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_propagator_and_z3_agree_on_shaped_boards_many(data: st.DataObject) -> None:
    _shaped_boards_agree(data)
