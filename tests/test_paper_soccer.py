"""Paper soccer as RBG's paperSoccer: points and edges as tiles of one square board, bounces as forced links that
may not end a turn (final = false), goals and the player who cannot move."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.registry import DATA, shipped_name
from tapology.rules import RuleGame, native
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import run_playouts
from tapology.rules.position import position_from_table, read_position_file

PERFT = Path(__file__).parent / "data" / "perft"
SOURCE = (DATA / "paper-soccer.toml").read_text()
W = 31


def _midgame(g: RuleGame):
    path = str(PERFT / "paper-soccer-midgame.toml")
    return position_from_table(g, read_position_file(path), path)


def _state(g: RuleGame, pos, tile: str) -> str:
    return {s.value: s.name for s in g.rules.states}[g.codes(pos)[int(tile) - 1] // g.h]


def _ends_on_fresh_points(g: RuleGame) -> tuple[bool, bool]:
    """(every turn of the midgame position and of its children ends on a fresh point or a goal, some bounces)."""
    fresh, bounces = True, False
    for pos in [_midgame(g), *(t.result for t in g.turns(_midgame(g)))]:
        turns = g.turns(pos)
        fresh = fresh and all(_state(g, pos, t.label.split("-")[-1]) in ("o", "W", "K") for t in turns)
        bounces = bounces or any(t.label.count("-") > 1 for t in turns)
    return fresh, bounces


def test_rbg_name_and_the_first_kicks() -> None:
    assert shipped_name("paperSoccer") == "paper-soccer"
    g = open_game("paperSoccer")
    assert len(g.board.tiles) == 37 * 31
    assert sorted(t.label for t in g.turns(g.initial())) == sorted(
        f"574-{574 + dy * 3 * W + dx * 3}" for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)


def test_a_turn_goes_on_from_a_visited_point_and_ends_on_a_fresh_one() -> None:
    fresh, bounces = _ends_on_fresh_points(open_game("paper-soccer"))
    assert fresh and bounces
    # a visited point above the ball with every other edge drawn: kicking there is a dead end, no turn; without
    # `final = false` the turn would stop on the visited point
    loose = RuleGame(parse_rules(SOURCE.replace("final = false\n", ""), str(DATA / "paper-soccer.toml")))
    for game, has in ((open_game("paper-soccer"), False), (loose, True)):
        start = game.initial()
        codes = list(game.codes(start))
        u, t = (game.rules.state_index[n].value * game.h for n in ("u", "t"))
        p = 15 * W + 15
        codes[p] = t
        for dy, dx in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 1)):
            codes[p + dy * W + dx] = u
        pos = game.position_from_codes(start.board, codes, 0, 0, (), ())
        assert (f"574-{p + 1}" in {t.label for t in game.turns(pos)}) == has


def test_the_ball_in_a_goal_wins_and_a_stuck_player_loses() -> None:
    g = open_game("paper-soccer")
    start = g.initial()
    codes = list(g.codes(start))
    centre, front = 18 * W + 15, 33 * W + 15  # the ball moved in front of Black's goal
    codes[centre], codes[front] = codes[front], codes[centre]
    pos = g.position_from_codes(start.board, codes, 0, 0, (), ())
    goal = g.parse_turn(pos, f"{front + 1}-{36 * W + 15 + 1}").result
    assert g.outcome(goal) == {"white": 1, "black": -1}
    # every edge drawn: the player to move has no turn and loses
    drawn = [g.rules.state_index["u"].value * g.h if c // g.h == g.rules.state_index["e"].value else c
             for c in g.codes(start)]
    stuck = g.position_from_codes(start.board, drawn, 0, 0, (), ())
    assert g.turns(stuck) == [] and g.outcome(stuck) == {"white": -1, "black": 1}
    assert dataclasses.replace(stuck).to_move == 0


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_never_ends_a_turn_on_a_bounce() -> None:
    """A kick onto a touched point (final = false) must go on: native turns, perft and playouts against the chain
    walk on the midgame position, where bounces happen."""
    g = open_game("paper-soccer")
    pos = _midgame(g)
    chains = g.chains(pos.board)
    eng = native.engine(chains)
    assert eng is not None and native.engine_used(chains, perft=True) == ("native", "")
    for p in [pos, *(t.result for t in g.turns(pos))]:
        codes = g.codes(p)
        assert set(eng.turns(chains, codes, p.to_move) or ()) == set(chains.turns(codes, p.to_move))
    assert count_leaves(g, pos, 3) == count_leaves(g, pos, 3, native=False) == 3197
    assert native.perft_ways(chains, g.codes(pos), pos.to_move, pos.ply, 3) == 5985  # RBG's: a bounce per order
    assert run_playouts(g, pos, count=5, seed=1).engine == "native"
