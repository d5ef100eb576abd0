"""One game registry: every way of naming a game works in every command that takes a game, with the same meaning
(the rule set, its board, its K) — shipped names, tictactoe:K, tictactoe:M,N,K, its other names, rule files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapology.cli import main
from tapology.games import SHIPPED, load_game, load_rules, open_game

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "breakthrough.toml")
NAMES = [*SHIPPED, "tictactoe:4", "tictactoe:3,4,3", "tic-tac-toe", "mnk:3", EXAMPLE]


def _json(capsys, argv: list[str]) -> tuple[int, dict]:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.mark.parametrize("name", NAMES)
def test_every_name_opens_the_same_game_everywhere(name: str) -> None:
    rules = load_rules(name)
    game = open_game(name)
    loaded = load_game(name)
    assert game.rules == rules and loaded.rules == rules
    assert loaded.board_name == game.board_name == rules.board
    assert {t.label for t in loaded.game.turns(loaded.game.initial())} == {t.label for t in game.turns(game.initial())}


@pytest.mark.parametrize("name", NAMES)
def test_every_command_that_takes_a_game_accepts_every_name(name: str, capsys) -> None:
    code, moves = _json(capsys, ["moves", name])
    assert code == 0 and moves["count"] > 0
    code, perft = _json(capsys, ["perft", name, "--depth", "1"])
    assert code == 0 and perft["nodes"] == moves["count"]
    code, rules = _json(capsys, ["rules", name])
    assert code == 0 and rules["name"] == load_rules(name).name
    code, verify = _json(capsys, ["verify", name])
    assert code in (0, 1) and "findings" in verify


def test_k_in_a_row_names_mean_the_same_everywhere(capsys) -> None:
    # tictactoe:4 is four in a row on the rule set's own board: no line fits on 3x3, the game is a draw
    code, solved = _json(capsys, ["solve", "tictactoe:4"])
    assert code == 0 and solved["value"] == "draw"
    code, moves = _json(capsys, ["moves", "tictactoe:4", "--board", "torus:4x4"])
    assert code == 0 and moves["count"] == 16 and moves["board"] == "torus:4x4"


def test_a_shipped_rule_set_is_read_once_per_limits() -> None:
    """The registry reads a shipped file once (rule sets are frozen), and again where the limits differ: a lowered
    limit still refuses it."""
    from tapology.errors import TapologyError
    from tapology.limits import raised

    first = load_rules("chess")
    assert load_rules("chess") is first
    with raised(coordinate=9):
        again = load_rules("chess")
        assert again is not first and again == first and load_rules("chess") is again
    with raised(file_bytes=100), pytest.raises(TapologyError, match="file_bytes=100"):
        load_rules("chess")
