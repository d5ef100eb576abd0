"""Shots (docs/rules.md "Shots"): a repeated move that keeps its origin and writes a piece flies that piece on as
one slide; amazons' compound turn (a queen's slide, then a shot from where it landed) on the plane and across seams,
the native engine and the csp/z3 enumerations against the chain walk."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tapology.errors import RuleError
from tapology.games import open_game
from tapology.rules import RuleGame, native
from tapology.rules.cspenum import csp_chains
from tapology.rules.model import Initial
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end
from tests.helpers import native_pick_playout

SHOT = '''name = "shot"
players = ["a", "b"]
[states]
empty = 0
q = { value = 1, owner = "a", kind = "amazon" }
x = { value = 2, kind = "arrow" }
[initial]
layout = "q . . . ."
[[move]]
name = "arrow"
orientations = "rotations"
to = [1, 0]
cells = [[0, 0, "own:amazon"], [1, 0, "empty", "x"]]
repeat = "optional"
'''


def test_a_shot_flies_its_piece_on_as_one_slide() -> None:
    rules = parse_rules(SHOT)
    assert [m.name for m in rules.moves] == ["arrow", "arrow/flight"]
    assert rules.slide_groups == (0, 0)
    g = RuleGame(rules, "plane:1x5")
    turns = g.turns(g.initial())
    assert [t.label for t in turns] == ["1-2", "1-3", "1-4", "1-5"]  # labelled by where the arrow ends
    assert all(t.result.board.states.count(2) == 1 for t in turns)  # one arrow, the amazon stays
    # without the flight the arrow only reaches the next tile
    lone = dataclasses.replace(rules, moves=(dataclasses.replace(rules.moves[0], links=()),))
    assert [t.label for t in RuleGame(lone, "plane:1x5").turns(RuleGame(lone, "plane:1x5").initial())] == ["1-2"]


def test_a_flight_never_lands_on_a_tile_its_slide_passed() -> None:
    g = RuleGame(parse_rules(SHOT.replace('layout = "q . . . ."', 'layout = "q . . ."')), "torus:1x4")
    assert sorted(t.label for t in g.turns(g.initial())) == ["1-2", "1-3", "1-4"]  # both ways meet: 3 turns
    forced = RuleGame(parse_rules(SHOT.replace('"optional"', '"forced"')), "plane:1x5")
    assert [t.label for t in forced.turns(forced.initial())] == ["1-5"]  # a forced flight goes on while it can


def test_a_shot_is_checked() -> None:
    with pytest.raises(RuleError, match="'to' must accept one state"):
        parse_rules(SHOT.replace('[1, 0, "empty", "x"]', '[1, 0, "empty|q", "x"]'))
    with pytest.raises(RuleError, match="a shot takes no links"):
        parse_rules(SHOT + 'links = [{ moves = ["arrow"], at = [1, 0] }]\n')


def _small_amazons(layout: str, board: str) -> RuleGame:
    rules = open_game("amazons").rules
    return RuleGame(dataclasses.replace(rules, initial=Initial(layout=tuple(layout.split()))), board)


def test_amazons_turn_is_a_queen_move_then_an_arrow_from_its_landing_tile() -> None:
    g = open_game("amazons")
    pos = g.initial()
    turns = g.turns(pos)
    assert len(turns) == 2176  # RBG's count (tests/data/perft/amazons.perft)
    for t in turns[:200]:
        before, after = pos.board.states, t.result.board.states
        assert after.count(3) == 1 and after.count(1) == 4  # one arrow, the four amazons still there
        src, land, arrow = (int(s) - 1 for s in t.label.split("-"))
        assert before[src] == 1 and after[land] == 1 and after[arrow] == 3
    # the arrow may fly back over the tile the amazon left
    assert any(t.label.split("-")[0] in t.label.split("-")[2:] for t in turns)


@pytest.mark.parametrize("board", ["plane:4x4", "cylinder:4x4", "mobius:4x4", "torus:4x4", "klein:4x4"])
def test_amazons_native_and_python_agree_across_seams(board: str) -> None:
    g = _small_amazons("w . . . . . . b . x . . . x . .", board)
    pos = g.initial()
    ch = g.chains(pos.board)
    rng = random.Random(5)
    for k in range(6):
        codes = g.codes(pos)
        want = ch.turns(codes, pos.to_move)
        if native.available():
            assert set(native.turn_keys(ch, codes, pos.to_move)) == set(want)
        if k == 3:  # python-constraint on one sampled position (it takes seconds on the closed boards)
            assert set(csp_chains(ch, codes, pos.to_move)) == set(want)
        turns = g.turns(pos)
        if not turns:
            break
        pos = rng.choice(turns).result


def test_amazons_z3_agrees_on_a_small_board() -> None:
    pytest.importorskip("z3")
    g = _small_amazons("w . x b . . x .", "cylinder:2x4")
    pos = g.initial()
    assert set(g.turn_keys(pos, "z3")) == set(g.turn_keys(pos))


@pytest.mark.parametrize("board", ["plane:4x4", "torus:4x4"])
def test_amazons_turns_counted_without_keys_match_python(board: str) -> None:
    """The native engine counts a bulk count's last ply, and a playout's turns, by the hash of each chain's position
    (no keys): on the torus an amazon reaches a tile sliding either way round its row, two chains of one turn, so
    the engine must notice the hash seen twice and count that node with keys (else it counts chains, not turns)."""
    if not native.available():
        pytest.skip(f"native engine: {native.reason()}")
    g = _small_amazons("w . . . . . . b . x . . . x . .", board)
    pos = g.initial()
    ch = g.chains(pos.board)
    codes = g.codes(pos)
    chains: list[int] = []
    ch.walk(codes, pos.to_move, ch.entries(codes, pos.to_move), lambda *chain: chains.append(1) is not None)
    assert (len(chains) > len(ch.turns(codes, pos.to_move))) == board.startswith("torus")  # chains alike
    for i in range(3):  # playouts first: a node where chains are alike sends the engine's later ones to keys
        got = playout_end(g, pos, 3, i)
        assert (g.codes(got), got.to_move) == native_pick_playout(ch, codes, pos.to_move, 3, i)
    for depth in (1, 2):
        assert count_leaves(g, pos, depth) == count_leaves(g, pos, depth, native=False)
