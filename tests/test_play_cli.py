"""Playing at the terminal, driven through its input: scripted games, illegal input, undo, save and load, computers."""

from __future__ import annotations

import io
import json

import pytest

from tapology.cli import main
from tapology.errors import RecordError
from tapology.games.registry import load_game
from tapology.play.playing.ai import PERFECT, KinrowAgent, make_agent, parse_strength
from tapology.play.playing.session import GameRecord, PlaySession, replay, rowcol_tiles

ALL_TILES = "".join(f"{i}\n" for i in range(1, 10))


def session(board: str, script: str, *, x=None, o="ai", strength=PERFECT, seed=1, early_draw=True):
    lg = load_game("tictactoe", board)
    seats = [None if x is None else make_agent(lg.game, strength, seed),
             None if o is None else make_agent(lg.game, strength, seed + 1)]
    out = io.StringIO()
    s = PlaySession(lg.game, seats, io.StringIO(script), out, game_name="tictactoe", board_name=board,
                    early_draw=early_draw)
    return s, s.run(), out.getvalue()


@pytest.mark.parametrize("board", ["torus:3x3", "klein:3x3"])
def test_scripted_game_against_the_computer(board):
    # the human tries tiles 1..9 in order; taken ones are refused with the reason and the next line is read
    _s, res, text = session(board, ALL_TILES)
    assert res["finished"] and res["result"] is not None
    assert "game over after" in text
    # the computer plays perfectly and X cannot hold these first-player wins with this script: O wins or draws
    assert res["result"]["O"] >= 0
    assert "illegal: tile" in text or len(res["turns"]) <= 6
    # the record replays to the same final position
    lg = load_game("tictactoe", board)
    assert replay(lg.game, res["turns"])[-1].states == tuple(res["final"]["states"])


@pytest.mark.parametrize("board", ["torus:3x3", "klein:3x3"])
def test_cli_play_scripted(board, monkeypatch, capsys, tmp_path):
    rec = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(ALL_TILES))
    code = main(["play", "tictactoe", "--board", board, "--x", "human", "--o", "ai", "--seed", "3",
                 "--save", str(rec), "--no-color"])
    out = capsys.readouterr().out
    assert code == 0 and "game over after" in out and "o-------o" in out
    data = json.loads(rec.read_text())
    assert data["format"] == "tapology-game/1" and data["board"] == board and data["result"] is not None


def test_illegal_input_is_rejected_with_the_reason():
    _s, res, text = session("plane:3x3", "10\n0,9\n#12\nfoo\n5\n5\n" + ALL_TILES)
    assert "illegal: there is no turn 10 (choose from 1–9" in text
    assert "illegal: no tile at row 0, column 9 (the board is drawn 3 rows by 3 columns)" in text
    assert "illegal: '12' is not a tile of the board" in text
    assert "illegal: 'foo' is not a tile of the board" in text
    assert "illegal: tile 5 is already taken by X" in text
    assert res["turns"][0] == "5"


def test_coordinates_and_tile_ids():
    _s, res, _ = session("plane:3x3", "2,2\n", o=None)
    assert res["turns"] == ["5"] and not res["finished"]
    _s, res, _ = session("plane:3x3", "3 1\n#9\n", o=None)
    assert res["turns"] == ["7", "9"]
    assert rowcol_tiles(load_game("tictactoe", "plane:3x3").game.board)[(1, 3)] == 2


def test_undo_takes_back_the_computer_reply_too():
    _s, res, text = session("plane:3x3", "5\nundo\n1\nq\n")
    assert "took back 5, " in text
    assert res["turns"][0] == "1" and len(res["turns"]) == 2 and not res["finished"]
    _s, res, text = session("plane:3x3", "undo\nq\n")
    assert "nothing to undo" in text
    # human vs human: one turn back
    _s, res, text = session("plane:3x3", "5\n1\nu\n9\nq\n", o=None)
    assert res["turns"] == ["5", "9"]


def test_save_and_load(tmp_path):
    path = tmp_path / "rec.json"
    _s, res, text = session("plane:3x3", f"5\n1\nsave {path}\nq\n", o=None)
    assert f"saved {path}" in text
    rec = GameRecord.load(path)
    assert rec.turns == ["5", "1"] and rec.board == "plane:3x3" and rec.players == {"X": "human", "O": "human"}
    # load in a fresh session, then play on
    _s, res, text = session("plane:3x3", f"load {path}\n9\nq\n", o=None)
    assert res["turns"] == ["5", "1", "9"]
    # --load on the command line
    lg = load_game("tictactoe", "plane:3x3")
    s = PlaySession(lg.game, [None, None], io.StringIO("q\n"), io.StringIO(), game_name="tictactoe",
                    board_name="plane:3x3", record=rec)
    assert s.run()["turns"] == ["5", "1"]
    # a record of another board is refused, and the session goes on
    other = tmp_path / "other.json"
    GameRecord("tictactoe", "torus:3x3", ["1"]).save(other)
    _s, res, text = session("plane:3x3", f"load {other}\nload {tmp_path / 'none.json'}\nq\n", o=None)
    assert "cannot load" in text and "not tictactoe on plane:3x3" in text and "no such game record" in text


def test_bad_records():
    lg = load_game("tictactoe", "plane:3x3")
    with pytest.raises(RecordError, match="turn 2 \\('5'\\): tile 5 is already taken"):
        replay(lg.game, ["5", "5"])


def test_cli_load_and_bad_options(tmp_path, monkeypatch, capsys):
    rec = tmp_path / "r.json"
    GameRecord("tictactoe", "torus:3x3", ["5", "1"]).save(rec)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "tictactoe", "--load", str(rec), "--o", "human", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"] == ["5", "1"]
    assert main(["play", "tictactoe", "--x", "robot"]) == 2
    assert "--x 'robot'" in capsys.readouterr().err
    assert main(["play", "tictactoe", "--strength", "strong"]) == 2
    assert "--strength" in capsys.readouterr().err


def test_computer_vs_computer():
    # perfect play: a draw on the plane, a first-player win on the torus
    _s, res, _text = session("plane:3x3", "", x="ai", o="ai", early_draw=False)
    assert res["result"] == {"X": 0, "O": 0} and len(res["turns"]) == 9
    _s, res, _text = session("torus:3x3", "", x="ai", o="ai")
    assert res["result"] == {"X": 1, "O": -1} and len(res["turns"]) == 7


def test_early_draw_ends_the_game():
    _s, res, text = session("plane:3x3", "", x="ai", o="ai", early_draw=True)
    assert res["result"] == {"X": 0, "O": 0} and len(res["turns"]) < 9
    assert "no line can still be completed" in text


@pytest.mark.parametrize("strength", ["random", "1", "2", "4"])
def test_strengths_play_legal_games(strength):
    _s, res, _ = session("torus:3x3", "", x="ai", o="ai", strength=parse_strength(strength))
    assert res["finished"]


def test_depth_search_finds_the_win_and_the_block():
    lg = load_game("tictactoe", "plane:3x3")
    g = lg.game
    # X on 1 and 2, O on 4 and 5, X to move: take 3
    pos = g.position(0b11, 0b11000)
    agent = KinrowAgent(g, 2, seed=0)
    turns = g.turns(pos)
    assert turns[agent.choose(pos, turns)].label == "3"
    # X on 1 and 2, O on 5; O to move must block 3
    pos = g.position(0b11, 0b10000)
    turns = g.turns(pos)
    assert turns[agent.choose(pos, turns)].label == "3"


def test_colour_output_marks():
    lg = load_game("tictactoe", "plane:3x3")
    out = io.StringIO()
    s = PlaySession(lg.game, [None, None], io.StringIO("5\nq\n"), out, color=True)
    s.run()
    assert "\x1b[" in out.getvalue()


TAPE_RULES_EXTRA = '\n[tape]\nflip = "both"\n'


def test_taping_during_play(tmp_path):
    """A rule set with tape moves: the human tapes, the board's new gluing is shown, undo restores it."""
    from pathlib import Path

    import tapology

    src = Path(tapology.__file__).parent / "games" / "data" / "tictactoe.toml"
    rules = tmp_path / "tapetoe.toml"
    rules.write_text(src.read_text().replace('name = "tictactoe"', 'name = "tapetoe"') + TAPE_RULES_EXTRA)
    lg = load_game(str(rules), "plane:3x3")
    assert lg.kinrow is None  # tapes: the rule engine plays it
    turns = lg.game.turns(lg.game.initial())
    tape = next(t.label for t in turns if t.label.startswith("tape "))
    out = io.StringIO()
    s = PlaySession(lg.game, [None, None], io.StringIO(f"{tape}\n5\nu\nq\n"), out, game_name="tapetoe",
                    board_name="plane:3x3")
    res = s.run()
    text = out.getvalue()
    assert res["turns"] == [tape] and "tapes played: " + tape[5:] in text and "sides glued since the start: " in text
    assert "took back 5" in text
    # the menu keeps tile numbers for claims and numbers the tapes after them
    menu = dict(s.menu(lg.game.turns(s.pos)))
    assert menu["5"].label == "5" and all(int(k) > 9 for k, t in menu.items() if t.label.startswith("tape"))


def test_tictactopology_against_the_computer():
    """The shipped tictactopology: a human who tapes and claims, against the computer, to the end."""
    lg = load_game("tictactopology")
    out = io.StringIO()
    script = "tape 1.up=7.down\n" + ALL_TILES
    s = PlaySession(lg.game, [None, make_agent(lg.game, 1, 3)], io.StringIO(script), out, game_name="tictactopology",
                    board_name=lg.board_name)
    res = s.run()
    assert res["finished"] and res["turns"][0] == "tape 1.up=7.down"
    assert "tapes played: 1.up=7.down" in out.getvalue()
    # the record replays, tapes included
    assert replay(lg.game, res["turns"])[-1] == s.pos


def test_chess_accepts_san_and_uci_at_the_terminal() -> None:
    # SAN (e4, Nf3), UCI (d7d5) and a menu number are all read; a SAN turn that is not legal is refused with why
    lg = load_game("chess")
    out = io.StringIO()
    s = PlaySession(lg.game, [None, None], io.StringIO("e4\nd7d5\nNf3\nNf6\nKe3\nquit\n"), out, game_name="chess",
                    board_name="plane:8x8")
    res = s.run()
    text = out.getvalue()
    assert res["turns"] == ["e2e4", "d7d5", "g1f3", "g8f6"]
    assert "illegal: Ke3: the king on e1 cannot move to e3" in text
    # echoed as typed: SAN when SAN was typed, UCI when UCI was
    assert "white (human) plays e4\n" in text and "black (human) plays d7d5\n" in text
    assert "white (human) plays Nf3\n" in text
