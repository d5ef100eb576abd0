"""The propagate, z3 and csp enumerations of legal turns agree (differential, on random positions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapology.errors import PositionError
from tapology.games import open_game
from tapology.rules import RuleGame, parse_rules
from tests.helpers import examples


def _same(g: RuleGame, pos) -> None:
    want = sorted((t.label, t.result) for t in g.turns(pos))
    for backend in ("z3", "csp"):
        assert sorted((t.label, t.result) for t in g.turns(pos, backend)) == want, backend


@pytest.mark.parametrize(("game", "board", "plies", "every"), [
    ("tictactoe", "klein:3x3", 9, 1), ("checkers", "plane:8x8", 60, 12), ("checkers", "mobius:8x8", 40, 13),
    ("chinese-checkers", None, 13, 12),
])
def test_backends_agree_along_random_games(game: str, board: str | None, plies: int, every: int) -> None:
    g = open_game(game, board)
    pos = g.initial()
    rng = random.Random(game)
    for ply in range(plies):
        ts = g.turns(pos)
        if not ts:
            break
        if ply % every == 0:
            _same(g, pos)
        pos = rng.choice(ts).result


@settings(max_examples=examples(0.5))  # each example enumerates turns with z3 and the CSP
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=9, max_size=9), st.integers(0, 1),
       st.sampled_from(["plane:3x3", "torus:3x3"]))
def test_backends_agree_on_random_tictactoe_positions(states: list[int], to_move: int, board: str) -> None:
    g = open_game("tictactoe", board)
    _same(g, g.make_position(g.board, states, [0] * 9, to_move, 0))


def test_make_position_refuses_a_player_the_game_does_not_have() -> None:
    g = open_game("tictactoe")
    with pytest.raises(PositionError, match=r"to_move 2 .*X, O"):
        g.make_position(g.board, [0] * 9, [0] * 9, 2, 0)


KINGS = """
name = "kings"
players = ["white", "black"]
board = "plane:5x5"
mandatory = ["capture"]
[states]
empty = 0
w = { value = 1, owner = "white", kind = "king" }
b = { value = 2, owner = "black", kind = "king" }
[[move]]
name = "step"
orientations = "rotations"
cells = [[0, 0, "own", "empty"], [1, 1, "empty", "@"]]
[[move]]
name = "jump"
class = "capture"
orientations = "rotations"
cells = [[0, 0, "own", "empty"], [1, 1, "foe", "empty"], [2, 2, "empty", "@"]]
links = [{ moves = ["jump"], orientations = "rotations", forced = true }]
[[end]]
kind = "no-turns"
result = "loss"
"""


@settings(max_examples=examples(0.4))  # each example enumerates turns with z3 and the CSP
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=25, max_size=25), st.integers(0, 1),
       st.sampled_from(["plane:5x5", "torus:5x5"]))
def test_backends_agree_on_random_king_jump_positions(states: list[int], to_move: int, board: str) -> None:
    g = RuleGame(parse_rules(KINGS, "kings.toml"), board)
    _same(g, g.make_position(g.board, states, [0] * 25, to_move, 0))
