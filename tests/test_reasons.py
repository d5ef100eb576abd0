"""Illegal moves get the engine's reason: no piece, not yours, square taken, not a move of that piece, pinned,
king in check, castling through check, in check and not ended — for chess (SAN and UCI) and other rule sets."""

from __future__ import annotations

import pytest

from tapology.games.chess import position_from_fen
from tapology.games.registry import load_game
from tapology.play.playing.reasons import why_illegal
from tapology.play.playing.referee import apply_turn


@pytest.fixture(scope="module")
def chess():
    return load_game("chess", None).game


CASES = [
    (None, "Ke3", "the king on e1 cannot move to e3"),
    (None, "e2e5", "the pawn on e2 cannot move to e5"),
    (None, "e7e5", "the pawn on e7 is black's, and it is white's turn"),
    (None, "e3e4", "there is no piece on e3"),
    (None, "Nd2", "d2 is taken by white's own pawn"),
    (None, "Bc4", "no white bishop can move to c4 (bishops on c1, f1)"),
    (None, "O-O", "that rook has moved or a piece stands between it and the king"),
    ("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "the knight on e2 is pinned: moving it would leave the king in check"),
    ("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", "the knight on e2 is pinned"),
    ("4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1", "a3", "white is in check, and pawn a2-a3 does not end it"),
    ("4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1", "Ke2", "the king would be in check on e2"),
    ("5rk1/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "the king would pass through or land on an attacked square"),
    ("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "castling out of check is not allowed"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O", "white cannot castle: the king has moved"),
]


@pytest.mark.parametrize(("fen", "move", "reason"), CASES)
def test_chess_reasons(chess, fen, move, reason):
    pos = position_from_fen(chess, fen) if fen else chess.initial()
    got = why_illegal(chess, pos, move)
    assert got is not None and reason in got
    turn, why = apply_turn(chess, pos, move)  # what play and the referee say
    assert turn is None and reason in why


def test_legal_moves_have_no_reason(chess):
    pos = chess.initial()
    for t in chess.turns(pos):
        assert why_illegal(chess, pos, t.label) is None
    assert why_illegal(chess, pos, "Nf3") is None
    assert why_illegal(chess, pos, "hello") is None  # not a move: the caller says so in its own words


def test_other_rule_sets():
    g = load_game("checkers", None).game
    pos = g.initial()
    assert "cannot move to 26" in (why_illegal(g, pos, "18-26") or "")
    assert "there is no piece on 1" in (why_illegal(g, pos, "1-5") or "")
    assert "is white's, and it is black's turn" in (why_illegal(g, pos, "57-50") or "")


def test_tape_turn_reasons():
    g = load_game("tictactopology").generic
    pos = g.initial()
    turn, _ = apply_turn(g, pos, "tape 1.up=7.down")
    assert turn is not None
    after = turn.result
    # the taping propagated: 2.up is glued to 8.down too, so it is no open side
    assert why_illegal(g, after, "tape 2.up=8.down") == ("2.up is already taped (to tile 8): a tape turn joins two "
                                                          "open sides")
    assert "unknown tile '99'" in (why_illegal(g, after, "tape 1.left=99.down") or "")
    assert why_illegal(g, pos, "tape 1.up=7.down") is None  # legal
    chess = load_game("chess").game
    assert why_illegal(chess, chess.initial(), "tape 1.up=2.down") == "white may not tape in chess"
