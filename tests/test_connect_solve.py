"""Hex solved on bitmasks: each player's minimal connecting sets as win masks in the layered solver, cross-checked
with the rule engine's memoised search; the dead-draw test against its one-position reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tapology.games import load_game, open_game
from tapology.games.kinrow import connect_claim
from tapology.play.solving.solve import _decided_draws, solve_game, solve_kinrow


def _figures(r) -> tuple:
    return r.value, r.plies, r.positions, r.terminal_positions, r.games, tuple(r.wins.values()), r.draws


@pytest.mark.parametrize(("spec", "board"), [("hex:2x2", None), ("hex:3x3", "hex-plane:3x3"),
                                             pytest.param("hex:3x3", None, marks=pytest.mark.slow)])
def test_layered_connection_solve_equals_the_memoised_search(spec: str, board: str | None) -> None:
    g = open_game(spec, board)
    claim = connect_claim(g)
    assert claim is not None and claim.players == ("red", "blue")
    fast = solve_kinrow(claim, symmetry=True)
    assert _figures(fast) == _figures(solve_game(g))
    assert fast.value is not None and fast.wins["red"] > 0


def test_minimal_connecting_sets_are_the_paths_between_the_sides() -> None:
    g = open_game("hex:4x4")
    claim = connect_claim(g)
    assert claim is not None
    assert len(claim.masks) == len(claim.masks_o) == 54
    rules = g.rules
    # each set connects (the rule engine's connect rule holds on it) and no tile of it can be spared
    for who, sets in ((0, claim.lines), (1, claim.lines_o)):
        for s in random.Random(who).sample(list(sets), 12):
            pos = g.initial()
            states = [0] * len(pos.board.tiles)
            for t in s:
                states[t] = who + 1
            assert g.outcome(g.position_from_codes(pos.board, [v * g.h for v in states], 0, 0, (), ())) is not None
            for t in s:
                states[t] = 0
                out = g.outcome(g.position_from_codes(pos.board, [v * g.h for v in states], 0, 0, (), ()))
                assert out is None, (rules.name, s, t)
                states[t] = who + 1


def test_other_games_are_no_connection_claim() -> None:
    assert connect_claim(open_game("tictactoe")) is None
    assert connect_claim(open_game("connect4")) is None
    assert load_game("hex:3x3").kinrow is None  # play, referee and verify keep the rule engine


def test_decided_draws_equal_the_one_position_test() -> None:
    g = load_game("tictactoe:4,4,4").kinrow
    assert g is not None
    rng = random.Random(3)
    for to_move in (0, 1):
        xs, os_ = [], []
        for _ in range(400):
            tiles = rng.sample(range(16), rng.randrange(4, 14))
            k = len(tiles)
            nx = (k + 1) // 2
            x, o = sum(1 << t for t in tiles[:nx]), sum(1 << t for t in tiles[nx:])
            if not g.status(x, o).over and g.to_move_of(x, o) == to_move:  # the test is for positions not over
                xs.append(x)
                os_.append(o)
        got = _decided_draws(g, np.array(xs, dtype=np.int64), np.array(os_, dtype=np.int64), to_move)
        want = [g.dead_draw(x, o) for x, o in zip(xs, os_, strict=True)]
        assert got.tolist() == want
        assert any(want) and not all(want)


@pytest.mark.slow
def test_hex_4x4_first_player_wins() -> None:
    claim = connect_claim(open_game("hex:4x4"))
    assert claim is not None
    r = solve_kinrow(claim)
    assert (r.value, r.plies, r.positions) == (1, 9, 9_386_235) and r.draws == 0
