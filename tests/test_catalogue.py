"""The games of the Regular Boardgames catalogue shipped as rule sets: names, size variants, set-ups by region,
and ``perft --rbg`` (each turn once per way of playing it).  Their counts against RBG are in tests/data/perft."""

from __future__ import annotations

import pytest

from tapology.errors import OptionError, PositionError, RuleError
from tapology.games import SHIPPED, load_rules, open_game
from tapology.games.registry import shipped_name
from tapology.reports.games import perft_report
from tapology.rules.parse import parse_rules

CATALOGUE = {  # RBG's file name -> the shipped rule set
    "breakthrough": "breakthrough",
    "knightthrough": "knightthrough",
    "chess": "chess",
    "chess_kingCapture": "chess-king-capture",
    "chessGardner5x5_kingCapture": "chess-gardner-5x5-king-capture",
    "chessLosAlamos6x6_kingCapture": "chess-los-alamos-6x6-king-capture",
    "chessSilverman4x5_kingCapture": "chess-silverman-4x5-king-capture",
    "englishDraughts": "english-draughts",
}


@pytest.mark.parametrize(("rbg", "shipped"), sorted(CATALOGUE.items()))
def test_rbg_names_and_kebab_names_load_the_shipped_rule_set(rbg: str, shipped: str) -> None:
    assert shipped in SHIPPED
    assert shipped_name(rbg) == shipped
    assert shipped_name(rbg.lower()) == shipped
    assert load_rules(rbg).source == load_rules(shipped).source


def test_unknown_names_are_refused_in_one_line() -> None:
    with pytest.raises(RuleError, match="no such rule file or built-in game"):
        load_rules("breakthroughs")


@pytest.mark.parametrize(("spec", "board", "first"), [("breakthrough:5x5", "plane:5x5", 13),
                                                      ("breakthrough_10x10", "plane:10x10", 28),
                                                      ("knightthrough:6x6", "plane:6x6", 28)])
def test_size_variants_come_from_one_rule_set(spec: str, board: str, first: int) -> None:
    g = open_game(spec)
    assert g.board_name == board
    pos = g.initial()
    n = int(board.split(":")[1].split("x")[1])
    assert pos.board.states.count(1) == pos.board.states.count(2) == 2 * n  # two home rows each, filled by region
    assert g.perft(pos, 1) == first


def test_size_variants_need_a_start_set_up_by_regions() -> None:
    with pytest.raises(RuleError, match="fixed start position"):
        load_rules("chess:10x10")
    with pytest.raises(PositionError, match="meet on tile"):  # home rows overlap: refused, not overwritten
        open_game("breakthrough:3x3").initial()


def test_fill_names_states_and_regions() -> None:
    base = 'name = "x"\nplayers = ["a", "b"]\n[states]\nempty = 0\np = { value = 1, owner = "a" }\n'
    move = '[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n'
    with pytest.raises(RuleError, match="fill: unknown state 'q'"):
        parse_rules(base + '[initial]\nfill = { q = "home" }\n' + move)
    rules = parse_rules(base + '[regions]\nhome = "row:1"\n[initial]\nfill = { p = "home" }\n'
                        '[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n')
    assert rules.initial.fill == (("p", "home"),)
    from tapology.rules import RuleGame

    assert RuleGame(rules, "plane:2x3").initial().board.states == (1, 1, 1, 0, 0, 0)
    bad = parse_rules(base + '[initial]\nfill = { p = "nowhere" }\n[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n')
    with pytest.raises(PositionError, match="no such region"):
        RuleGame(bad, "plane:2x3").initial()


@pytest.mark.parametrize(("game", "depth"), [("breakthrough", 3), ("knightthrough", 2), ("chess-king-capture", 2),
                                             ("english-draughts", 4), ("chess", 2)])
def test_rbg_count_equals_tapology_count_where_each_turn_has_one_way(game: str, depth: int) -> None:
    g = open_game(game)
    pos = g.initial()
    assert g.perft(pos, depth, rbg=True) == g.perft(pos, depth)


def test_rbg_count_needs_no_divide() -> None:
    with pytest.raises(OptionError, match="--rbg with --divide"):
        perft_report("english-draughts", 2, by_first_turn=True, rbg=True)
    assert perft_report("english-draughts", 3, rbg=True).nodes == 302
