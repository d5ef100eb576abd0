"""Chess on surfaces, the second and third ways of counting: on positions at depth 1 and 2 from each set-up, the
z3 and python-constraint enumerations list exactly the turns the engine lists (the published perft tables in
docs/chess.md rest on this and on the reference generator of tests/chess_reference.py)."""

from __future__ import annotations

import functools
import random

import pytest

from tapology.games import open_game

BOARDS = ["plane:8x8", "cylinder:8x8", "mobius:8x8", "torus:12x8", "klein:12x8"]


@functools.cache
def _game(board: str):
    return open_game("chess", board)


def _sample(board: str, count: int):
    """The set-up, and ``count`` positions at depth 1 and 2 picked at random (seeded by the board)."""
    g = _game(board)
    rng = random.Random(board)
    start = g.initial()
    firsts = g.turns(start)
    out = [start]
    for t in rng.sample(firsts, min(count, len(firsts))):
        out.append(t.result)
        replies = g.turns(t.result)
        if replies:
            out.append(rng.choice(replies).result)
    return g, out[: 1 + count]


def _cases(slow: bool) -> list:
    out = []
    for board in BOARDS:
        big = board.endswith("12x8")
        if big == slow:
            out.append(pytest.param(board, 8 if slow else 3, marks=[pytest.mark.slow] if slow else []))
    return out


@pytest.mark.parametrize(("board", "count"), _cases(False) + _cases(True))
def test_z3_and_csp_list_the_engines_turns(board: str, count: int) -> None:
    g, positions = _sample(board, count)
    for pos in positions:
        want = set(g.turn_keys(pos))
        assert set(g.turn_keys(pos, "z3")) == want
        assert set(g.turn_keys(pos, "csp")) == want


def test_the_closed_set_ups_are_playable_and_the_8x8_torus_is_not() -> None:
    for board in ("torus:12x8", "klein:12x8"):
        g = _game(board)
        assert g.turns(g.initial())
    g = open_game("chess", "torus:8x8")
    pos = g.initial()
    assert g.turns(pos) == [] and g.in_check(pos) and g.outcome(pos) == {"white": -1, "black": 1}
