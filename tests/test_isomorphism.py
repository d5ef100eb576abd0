"""Canonical signatures, isomorphisms and automorphism groups of boards."""

from __future__ import annotations

import json
from math import factorial, prod

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tapology.cli import main
from tapology.model.board import Board, Fact
from tapology.model.builtins import builtin_board
from tapology.model.isomorphism import apply, automorphisms, compose, inverse, isomorphism, same, signature
from tests.strategies import boards

NAMES = ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3", "torus:1x9", "strip:7", "hex-torus:4x4",
         "torus:2x3", "klein:2x2"]


@st.composite
def relabelled(draw: st.DrawFn) -> tuple[Board, Board]:
    b = builtin_board(draw(st.sampled_from(NAMES)))
    n = len(b.tiles)
    perm = draw(st.permutations(range(n)))
    turn = draw(st.lists(st.integers(0, b.order - 1), min_size=n, max_size=n))
    return b, b.relabel(perm, turn)


@given(relabelled())
def test_signature_invariant_under_relabelling_and_turning(pair: tuple[Board, Board]) -> None:
    a, b = pair
    assert signature(a) == signature(b)
    f = isomorphism(a, b)
    assert f is not None and apply(a, f).glue == b.glue


def test_different_surfaces_have_different_signatures() -> None:
    sigs = {signature(builtin_board(x)) for x in ("torus:3x3", "klein:3x3", "torus:1x9")}
    assert len(sigs) == 3
    assert not same(builtin_board("torus:3x3"), builtin_board("torus:1x9"))
    # 3x3 and 9x1 tori are the same board turned a quarter
    assert same(builtin_board("torus:1x9"), builtin_board("torus:9x1"))


def test_one_changed_gluing_changes_the_signature() -> None:
    b = builtin_board("torus:2x3")
    glue = [list(r) for r in b.glue]
    glue[0][1] += 4  # tile 1's right side now meets its neighbour flipped (not even symmetric: still a table)
    b2 = Board(b.grid, b.domain, b.tiles, b.states, tuple(map(tuple, glue)))
    assert signature(b2) != signature(b)


def test_extra_facts_take_part() -> None:
    b = Board.empty(["a", "b"])
    f1 = Board(b.grid, b.domain, b.tiles, b.states, b.glue, (Fact(0, (1, 1), 1, 0),))
    f2 = Board(b.grid, b.domain, b.tiles, b.states, b.glue, (Fact(1, (-1, -1), 0, 0),))  # the same fact, seen from b
    f3 = Board(b.grid, b.domain, b.tiles, b.states, b.glue, (Fact(0, (1, 1), 1, 2),))  # b turned: isomorphic
    f4 = Board(b.grid, b.domain, b.tiles, b.states, b.glue, (Fact(0, (1, 1), 0, 0),))  # a sees itself
    assert signature(f1) == signature(f2) == signature(f3)
    assert len({signature(f1), signature(f4), signature(b)}) == 3


@pytest.mark.parametrize("name,order", [("torus:3x3", 72), ("torus:1x9", 36), ("plane:3x3", 8), ("klein:3x3", 12),
                                        ("strip:7", 4), ("torus:1x1", 8)])
def test_automorphism_groups(name: str, order: int) -> None:
    b = builtin_board(name)
    group = automorphisms(b)
    assert group.order == order
    elements = list(group.elements())
    assert len(elements) == order
    for f in elements:
        assert apply(b, f).glue == b.glue
    # checked against brute force over all (perm, turn) fixing tile 0's image on the small boards
    if len(b.tiles) == 1:
        brute = [((0,), (g,)) for g in range(b.order) if apply(b, ((0,), (g,))).glue == b.glue]
        assert len(brute) == order


def test_automorphisms_of_disconnected_boards() -> None:
    b = Board.empty(["a", "b", "c"])
    group = automorphisms(b)
    assert group.order == 6 * 8**3
    assert group.tile_orbits() == [[0, 1, 2]]


def test_compose_and_inverse_agree_with_relabel() -> None:
    b = builtin_board("klein:2x3")
    f = ((2, 0, 1, 5, 3, 4), (1, 5, 0, 2, 7, 3))
    g = ((1, 2, 3, 4, 5, 0), (4, 4, 1, 0, 6, 2))
    assert apply(apply(b, f), g).glue == apply(b, compose(b, f, g)).glue
    assert apply(apply(b, f), inverse(b, f)).glue == b.glue


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["same", "torus:1x9", "torus:9x1"]) == 0
    assert main(["same", "torus:3x3", "klein:3x3"]) == 1
    capsys.readouterr()
    assert main(["signature", "torus:3x3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["automorphisms"] == 72 and data["signature"].startswith("square/box/")


def _naive_forms(board: Board) -> list[tuple[tuple[int, ...], int]]:
    """Every start walked in full: the least sequence of each component and how many starts reach it."""
    from tapology.model.isomorphism import _Walker, components

    w = _Walker(board)
    out = []
    for comp in components(board):
        seqs = [tuple(w.walk(t, g, None)[0]) for t in comp for g in range(board.order)]
        least = min(seqs)
        out.append((least, seqs.count(least)))
    return sorted(out)


@given(boards())
def test_pruned_search_equals_walking_every_start(board: Board) -> None:
    from tapology.model.isomorphism import _component_form, _Walker, components

    w = _Walker(board)
    pruned = sorted((f.codes, f.order) for f in (_component_form(w, c) for c in components(board)))
    assert pruned == _naive_forms(board)
    group = automorphisms(board)
    assert group.order == prod(k for _, k in _naive_forms(board)) * _same_component_factor(board)
    for f in list(group.elements(200)):
        assert apply(board, f).glue == board.glue


def _same_component_factor(board: Board) -> int:
    from collections import Counter

    from tapology.model.isomorphism import _Walker, components

    w = _Walker(board)
    forms = Counter(min(tuple(w.walk(t, g, None)[0]) for t in c for g in range(board.order)) for c in components(board))
    return prod(factorial(k) for k in forms.values())


def test_large_symmetric_boards() -> None:
    group = automorphisms(builtin_board("torus:30x30"))
    assert group.order == 900 * 8 and len(group.generators) <= 10
    assert signature(builtin_board("torus:30x30")) != signature(builtin_board("klein:30x30"))
