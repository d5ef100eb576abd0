"""Terminal play fit for players: chess in 80×24 with files and ranks, last move and check marked, colours only on a
terminal, SAN echoed, resign and draw offers, quit saying where the game is saved, --resume keeping the record's
players, PGN export, and the referee counting moves as PGN does.  The interactive ones run in a pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pytest

from tapology.cli import main
from tapology.games.chess import read_pgn
from tapology.games.registry import load_game
from tapology.play.playing.session import PlaySession

pexpect = pytest.importorskip("pexpect")
ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _spawn(args: list[str], tmp_path: Path, **env: str):
    e = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    e.update(PYTHONPATH=str(ROOT), TAPOLOGY_AUTOSAVE=str(tmp_path / "autosave.json"), COLUMNS="80", LINES="24", **env)
    return pexpect.spawn(sys.executable, ["-m", "tapology", *args], cwd=str(tmp_path), env=e, encoding="utf-8",
                         dimensions=(24, 80), timeout=60)


def _screen(text: str) -> list[str]:
    return ANSI.sub("", text).replace("\r", "").split("\n")


def test_chess_fits_80x24_with_files_ranks_colours_and_check(tmp_path):
    """Each screen (board, menu, prompt) is at most 24 lines of at most 80 columns; files a–h and ranks 1–8; the
    pieces coloured on a terminal; the last move marked; check said; SAN echoed as typed."""
    child = _spawn(["play", "chess", "--x", "human", "--o", "human"], tmp_path)
    screens = []
    for move in ("e4", "f5", "Qh5+"):
        child.expect("to move> ")
        screens.append(child.before + child.after)
        child.sendline(move)
    child.expect("to move> ")
    screens.append(child.before + child.after)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    for raw in screens[1:]:  # each screen after a move: what the player sees before typing
        lines = _screen(raw)
        lines = lines[next(i for i, line in enumerate(lines) if "a  b  c" in line):]
        assert len(lines) <= 24, "\n".join(lines)
        assert max(len(line) for line in lines) <= 80
    first = screens[0]
    assert "\x1b[" in first  # colours on a terminal
    plain = _screen(screens[-1])
    assert any(line.split() == list("abcdefgh") for line in plain)
    assert any(line.startswith(" 8 ") and line.rstrip().endswith(" 8") for line in plain)
    assert "white (human) plays Qh5+" in "\n".join(plain)  # SAN echoed as typed, check included
    assert "black is in check" in "\n".join(plain)
    # the checked king's square and the last move's squares carry their own colours
    assert "\x1b[48;5;167m" in screens[-1] and "\x1b[48;5;186m" in screens[-1] + screens[-2]


def test_no_colour_when_no_color_is_set(tmp_path):
    child = _spawn(["play", "chess", "--x", "human", "--o", "human"], tmp_path, NO_COLOR="1")
    child.expect("to move> ")
    assert "\x1b[48;5" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_plain_marks_without_colour():
    """Off a terminal: the last move in brackets, a checked king between stars."""
    lg = load_game("chess")
    out = io.StringIO()
    PlaySession(lg.game, [None, None], io.StringIO("e4\nf5\nQh5+\nquit\n"), out).run()
    text = out.getvalue()
    assert "\x1b[" not in text
    assert " 5  .  .  .  .  .  p  . [Q] 5" in text
    assert " 8  r  n  b  q *k* b  n  r  8" in text
    assert " 1  R  N  B [.] K  B  N  R  1" in text


def test_resign_and_quit_print_the_saved_path(tmp_path):
    child = _spawn(["play", "chess", "--x", "human", "--o", "human"], tmp_path)
    child.expect("to move> ")
    child.sendline("e4")
    child.expect("to move> ")
    child.sendline("resign")
    child.expect(pexpect.EOF)
    text = _screen(child.before)
    assert any("game over after 1 move (1 ply): black resigns: white wins" in line for line in text)
    rec = json.loads((tmp_path / "autosave.json").read_text())
    assert rec["end"] == "black resigns" and rec["result"] == {"white": 1, "black": -1}
    child = _spawn(["play", "chess", "--x", "human", "--o", "human"], tmp_path)
    child.expect("to move> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert f"the game is saved in {tmp_path / 'autosave.json'}" in child.before.replace("\r\n", "")


def test_draw_offer_accept_and_decline(tmp_path):
    child = _spawn(["play", "chess", "--x", "human", "--o", "human"], tmp_path)
    child.expect("white \\(human\\) to move> ")
    child.sendline("draw")
    child.expect("offers a draw")
    child.sendline("e4")
    child.expect("white offers a draw: type accept or decline")
    child.expect("black \\(human\\) to move> ")
    child.sendline("decline")
    child.expect("black declines the draw")
    child.sendline("e5")
    child.expect("white \\(human\\) to move> ")
    child.sendline("offer")
    child.expect("offers a draw")
    child.sendline("Nf3")
    child.expect("black \\(human\\) to move> ")
    child.sendline("accept")
    child.expect(pexpect.EOF)
    assert "drawn by agreement: the game is a draw" in child.before
    rec = json.loads((tmp_path / "autosave.json").read_text())
    assert rec["end"] == "drawn by agreement" and rec["result"] == {"white": 0, "black": 0}


def test_draw_offer_to_the_computer_and_claims():
    lg = load_game("chess")
    from tapology.play.playing.ai import make_agent

    out = io.StringIO()
    PlaySession(lg.game, [None, make_agent(lg.game, 1, 1)], io.StringIO("draw\nclaim\naccept\nquit\n"), out).run()
    text = out.getvalue()
    assert "black (computer) declines the draw" in text
    assert "nothing to claim here" in text
    assert "there is no draw offer to accept" in text


def test_illegal_moves_get_reasons_at_the_terminal(tmp_path):
    child = _spawn(["play", "chess", "--x", "human", "--o", "human"], tmp_path)
    child.expect("to move> ")
    for move, why in (("Ke3", "the king on e1 cannot move to e3"), ("e7e5", "the pawn on e7 is black's"),
                      ("Nd2", "d2 is taken by white's own pawn"), ("e3e4", "there is no piece on e3")):
        child.sendline(move)
        child.expect("to move> ")
        assert why in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_resume_keeps_the_records_players(tmp_path, capsys, monkeypatch):
    rec = tmp_path / "g.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("e4\nquit\n"))
    assert main(["play", "chess", "--x", "human", "--o", "human", "--save", str(rec)]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "chess", "--resume", str(rec)]) == 0
    out = capsys.readouterr().out
    assert out.count("chess on plane:8x8: white (human) vs black (human)") == 2  # resumed as it was played
    assert "black (human) to move>" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "chess", "--resume", str(rec), "--o", "random", "--x", "human"]) == 0
    assert "black (computer)" in capsys.readouterr().out  # the command line wins


def test_pgn_export_replays_in_python_chess(tmp_path, capsys, monkeypatch):
    chess_pgn = pytest.importorskip("chess.pgn")
    pgn = tmp_path / "g.pgn"
    monkeypatch.setattr(sys, "stdin", io.StringIO("f3\ne5\ng4\nQh4#\n"))
    assert main(["play", "chess", "--x", "human", "--o", "human", "--no-autosave", "--pgn-out", str(pgn)]) == 0
    out = capsys.readouterr().out
    assert "game over after 2 moves (4 plies): black wins by checkmate" in out
    text = pgn.read_text()
    assert '[Result "0-1"]' in text and "1. f3 e5 2. g4 Qh4# 0-1" in text
    g = chess_pgn.read_game(io.StringIO(text))
    assert g.end().board().is_checkmate()
    (ours,) = read_pgn(text)
    assert ours.moves == ("f3", "e5", "g4", "Qh4#")
    # the in-game command writes the same
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"e4\npgn {tmp_path / 'h.pgn'}\nquit\n"))
    assert main(["play", "chess", "--x", "human", "--o", "human", "--no-autosave"]) == 0
    assert "1. e4 *" in (tmp_path / "h.pgn").read_text()
    assert main(["play", "tictactoe", "--no-autosave", "--pgn-out", str(tmp_path / "t.pgn")]) == 2


def test_referee_counts_moves_as_pgn_does(capsys):
    assert main(["referee", "chess", "--pgn", str(ROOT / "examples/games/opera.pgn")]) == 0
    assert capsys.readouterr().out.strip() == "game 1: valid: 17 moves (33 plies), checkmate"
    bad = ROOT / "tests/golden/inputs/fools-mate.pgn"
    assert main(["referee", "chess", "--pgn", str(bad)]) == 1
    text = capsys.readouterr().out
    assert "game 1: valid: 2 moves (4 plies), checkmate" in text
    assert "2. Ke3: the king on e1 cannot move to e3 (legal: a4, a3," in text


def test_referee_numbers_black_moves_and_says_stalemate(tmp_path, capsys):
    p = tmp_path / "g.pgn"
    p.write_text('[Event "x"]\n\n1. e4 e5 2. Nf3 Nf6 3. Nxe5 Nf6 *\n')
    assert main(["referee", "chess", "--pgn", str(p)]) == 1
    assert "3... Nf6: " in capsys.readouterr().out
    p.write_text('[Event "x"]\n[FEN "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"]\n\n1. Qf6 Kg8 2. Qe7 Kh8 3. Qf7 1/2-1/2\n')
    assert main(["referee", "chess", "--pgn", str(p)]) == 0
    assert "valid: 3 moves (5 plies), stalemate" in capsys.readouterr().out


def test_chinese_checkers_fits_120_columns():
    """The 121-hole star, drawn in seed-style boxes 157 columns wide, is drawn compactly: one line per row, the last
    turn's tiles starred."""
    lg = load_game("chinese-checkers")
    out = io.StringIO()
    PlaySession(lg.game, [None, None], io.StringIO("1\nquit\n"), out).run()
    text = out.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 120
    assert " 99.  100.  101.  102.  103s*" in text and "112.* 113s" in text
    assert "                                      1n" in lines  # the north apex, centred over the star
    small = io.StringIO()
    PlaySession(load_game("tictactoe").game, [None, None], io.StringIO("quit\n"), small).run()
    assert "o-------o" in small.getvalue()  # boards that fit keep the seed-style boxes


def test_the_autosave_of_a_chess_game_comes_with_its_pgn(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TAPOLOGY_AUTOSAVE", str(tmp_path / "autosave.json"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("e4\ne5\nquit\n"))
    assert main(["play", "chess", "--x", "human", "--o", "human"]) == 0
    out = capsys.readouterr().out
    assert f"the game as PGN: {tmp_path / 'autosave.pgn'}" in out
    assert "1. e4 e5 *" in (tmp_path / "autosave.pgn").read_text()
    monkeypatch.setenv("TAPOLOGY_AUTOSAVE", str(tmp_path / "t" / "autosave.json"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "tictactoe"]) == 0
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["autosave.json"]  # PGN only for chess


def test_a_resigned_game_stays_over_when_loaded(tmp_path):
    lg = load_game("chess")
    rec = tmp_path / "r.json"
    PlaySession(lg.game, [None, None], io.StringIO("e4\nresign\n"), io.StringIO(), autosave=str(rec)).run()
    out = io.StringIO()
    res = PlaySession(lg.game, [None, None], io.StringIO(f"load {rec}\n"), out).run()
    assert res["end"] == "black resigns" and res["result"] == {"white": 1, "black": -1}
    assert "black resigns: white wins" in out.getvalue()
