"""Six-player Chinese checkers as RBG's chineseCheckers6 has it: goal points kept, the pass counted per marble by
``perft --rbg``, the win and the 201-turn draw; and more than two players through play, referee and match."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from tapology.errors import OptionError, RuleError, StrengthError
from tapology.games import load_rules, open_game
from tapology.games.registry import DATA, shipped_name
from tapology.rules import RuleGame, native
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import run_playouts
from tapology.rules.position import position_from_table, read_position_file

PERFT = Path(__file__).parent / "data" / "perft"
SOURCE = (DATA / "chinese-checkers-6.toml").read_text()


def _at(g: RuleGame, name: str):
    path = str(PERFT / f"chinese-checkers-6-{name}.toml")
    return position_from_table(g, read_position_file(path), path)


def test_rbg_name_six_players_ten_marbles_each() -> None:
    assert shipped_name("chineseCheckers6") == "chinese-checkers-6"
    g = open_game("chineseCheckers6")
    assert g.players == ("north", "north-east", "south-east", "south", "south-west", "north-west")
    states = g.initial().board.states
    assert [states.count(v) for v in range(1, 7)] == [10] * 6


def _goal_turns(g: RuleGame) -> list[tuple[str, str]]:
    """(start, end) of north's turns from the goals position that start in north's goal point."""
    goal = {str(t) for t in range(112, 122)}
    out = []
    for t in g.turns(_at(g, "goals")):
        if t.label == "pass":
            continue
        parts = t.label.split("-")
        if parts[0] in goal:
            out.append((parts[0], parts[-1]))
    return out


def test_a_marble_in_its_goal_point_stays_there() -> None:
    goal = {str(t) for t in range(112, 122)}
    kept = _goal_turns(open_game("chinese-checkers-6"))
    assert kept and all(end in goal for _s, end in kept)
    # the same moves without the goal regions let the marbles at 112 and 116 leave the point
    free = SOURCE.replace(', not-in = "goal-{player}"', "").replace(', in = "goal-{player}"', "")
    loose = RuleGame(parse_rules(free, str(DATA / "chinese-checkers-6.toml")))
    assert any(end not in goal for _s, end in _goal_turns(loose))


def test_rbg_counts_the_pass_once_per_marble() -> None:
    g = open_game("chinese-checkers-6")
    pos = g.initial()
    assert g.perft(pos, 1) == 15 and g.perft(pos, 1, rbg=True) == 14 + 10  # 14 moves and the pass / 10 lift-backs
    once = RuleGame(parse_rules(SOURCE.replace('rbg-pass = "pieces"', 'rbg-pass = "once"'),
                                str(DATA / "chinese-checkers-6.toml")))
    assert once.perft(once.initial(), 2, rbg=True) == g.perft(pos, 2) == 228
    assert "pass" in [t.label for t in g.turns(pos)]


@pytest.mark.parametrize(("text", "match"), [('rbg-pass = "marbles"', "rbg-pass 'marbles'"),
                                             ('rbg-pass = "pieces"\npass = ""', "the rule set has no pass")])
def test_bad_rbg_pass_is_refused(text: str, match: str) -> None:
    src = SOURCE.replace('pass = "always"\nrbg-pass = "pieces"', text)
    with pytest.raises(RuleError, match=match):
        parse_rules(src, "cc6.toml")


def test_filling_the_goal_point_wins_and_the_others_lose() -> None:
    g = open_game("chinese-checkers-6")
    pos = _at(g, "win")
    win = g.parse_turn(pos, "103-112").result
    assert g.outcome(win) == {p: (1 if p == "north" else -1) for p in g.players}
    assert g.turns(win) == []


def test_the_game_is_drawn_after_201_turns() -> None:
    g = open_game("chinese-checkers-6")
    pos = dataclasses.replace(g.initial(), ply=200)
    assert g.outcome(pos) is None
    assert g.outcome(g.parse_turn(pos, "pass").result) == {p: 0 for p in g.players}


THREE = """
name = "three"
players = ["a", "b", "c"]
board = "plane:3x3"
[states]
empty = 0
A = { value = 1, owner = "a", kind = "mark" }
B = { value = 2, owner = "b", kind = "mark" }
C = { value = 3, owner = "c", kind = "mark" }
[[move]]
name = "place"
pattern = "*empty => *own:mark"
orientations = "identity"
[[end]]
kind = "line"
k = 3
"""


def test_play_seats_every_player_of_a_three_player_game(tmp_path) -> None:
    from tapology.reports.play import play_report

    rules = tmp_path / "three.toml"
    rules.write_text(THREE)
    rep = play_report(str(rules), None, "random", "ai", seed=2, stdin=io.StringIO(""), show=io.StringIO(),
                      autosave=False, seats=["c=2"])
    res = rep.to_json()
    assert res["finished"] and set(res["result"]) == {"a", "b", "c"}
    with pytest.raises(OptionError, match="has no player 'd'"):
        play_report(str(rules), None, "random", "random", stdin=io.StringIO(""), show=io.StringIO(), autosave=False,
                    seats=["d=random"])
    with pytest.raises(OptionError, match="already seated"):
        play_report(str(rules), None, "random", "random", stdin=io.StringIO(""), show=io.StringIO(), autosave=False,
                    seats=["a=random"])
    with pytest.raises(StrengthError, match="two-player games"):
        play_report(str(rules), None, "random", "random", stdin=io.StringIO(""), show=io.StringIO(), autosave=False,
                    seats=["c=alphabeta:2"])


def test_referee_and_match_with_six_players(tmp_path) -> None:
    from tapology.adapters.match import run_match
    from tapology.reports.play import referee_report

    tr = tmp_path / "t.jsonl"
    tr.write_text('"5-18"\n"34-32"\n"pass"\n"113-104"\n"101-78"\n')
    assert referee_report("chinese-checkers-6", str(tr)).exit_code == 0
    tr.write_text('"5-18"\n"34-32"\n"pass"\n"113-104"\n"5-6"\n')
    assert referee_report("chinese-checkers-6", str(tr)).exit_code == 1
    with pytest.raises(OptionError, match="A against B in two seats; the game has 6 players"):
        run_match("chinese-checkers-6", None, "random", "random", games=1)


def test_every_player_may_move_in_turn_order() -> None:
    g = open_game("chinese-checkers-6")
    pos = g.initial()
    for p in range(6):
        assert pos.to_move == p
        pos = next(t for t in g.turns(pos) if t.label != "pass").result
    assert pos.to_move == 0 and load_rules("chinese-checkers-6").passing == "always"


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_counts_and_plays_the_pass_at_any_time() -> None:
    """The pass is one more child of every unfinished node in native perft (bulk or not) and one more choice in
    native playouts; the chain walk's count is the reference, and ``--rbg`` stays RBG's (Python's)."""
    g = open_game("chinese-checkers-6")
    pos = _at(g, "goals")
    assert native.engine_used(g.chains(pos.board), perft=True) == ("native", "")
    for p in (g.initial(), pos):
        assert count_leaves(g, p, 2) == count_leaves(g, p, 2, bulk=False) == count_leaves(g, p, 2, native=False)
    assert count_leaves(g, pos, 2, rbg=True) == 1052
    start = g.initial()  # RBG's count natively: the pass once per marble of the mover
    assert native.perft_ways(g.chains(start.board), g.codes(start), start.to_move, 0, 3) == 13968
    run = run_playouts(g, g.initial(), count=4, seed=1, max_plies=60)
    assert run.engine == "native" and run.plies == 240  # the pass keeps every player moving
    ended = run_playouts(g, _at(g, "win"), count=50, seed=2, max_plies=6)
    assert ended.ended > 0  # north's first move may fill its goal point
