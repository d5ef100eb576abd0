"""Value types hash their content once: equal values hash alike however they were made, the kept hash never
outlives a change of fields, and copies and pickled states leave it out (another process hashes strings
differently)."""

from __future__ import annotations

import copy

from tapology.game import Position
from tapology.games import load_rules
from tapology.model.board import Board
from tapology.rules import RuleGame
from tapology.rules.engine import _fast_with_states


def _board() -> Board:
    return RuleGame(load_rules("tictactoe"), "torus:3x3").initial().board


def test_equal_values_hash_alike_and_copies_leave_the_hash_out() -> None:
    b = _board()
    pos = Position(b, 0)
    hash(pos)  # keeps the hashes of the position, its board, domain, grid and group
    for value in (pos, b, b.domain, b.grid, b.grid.group):
        assert "_hash" in vars(value)
        assert "_hash" not in value.__getstate__()
        twin = copy.copy(value)
        assert "_hash" not in vars(twin) and twin == value and hash(twin) == hash(value)
    other = b.with_states((1, *b.states[1:]))
    assert other != b and {b: 0, other: 1}[b.with_states((1, *b.states[1:]))] == 1  # a fresh board: its own states
    assert hash(b.with_states(b.states)) == hash(b)


def test_a_board_copied_with_new_states_hashes_as_one_built_with_them() -> None:
    b = _board()
    hash(b)
    states = (2, *b.states[1:])
    fast = _fast_with_states(b, states)
    assert fast == b.with_states(states) and hash(fast) == hash(b.with_states(states))
    assert {fast: 1}.get(b.with_states(states)) == 1
