"""Chess through the generic rule engine, cross-checked against python-chess (a test dependency only): legal turns
and FEN after each turn on positions reached by random play, perft of the standard suite, results of random games
played to the end, and the notation (UCI, SAN, FEN, PGN) with its errors."""

from __future__ import annotations

import random
import tomllib

import chess
import chess.pgn
import pytest

from tapology.cli import main
from tapology.errors import NotationError, RuleError, TurnError
from tapology.games import open_game
from tapology.games.chess import fen, position_from_fen, read_pgn, san
from tapology.reports.games import moves_report
from tapology.rules import parse_rules
from tapology.rules.position import dumps_position, position_from_table

SUITE = {
    "start": (chess.STARTING_FEN, (20, 400, 8902, 197281)),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", (48, 2039, 97862)),
    "position-3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    "position-4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264, 9467)),
    "position-5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486, 62379)),
    "position-6": ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", (46, 2079, 89890)),
}


@pytest.fixture(scope="module")
def game():
    return open_game("chess")


@pytest.mark.parametrize("name", sorted(SUITE))
def test_perft_suite_to_depth_2(game, name: str) -> None:
    text, counts = SUITE[name]
    pos = position_from_fen(game, text)
    for d, want in enumerate(counts[:2], 1):
        assert game.perft(pos, d) == want, (name, d)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SUITE))
def test_perft_suite_deeper(game, name: str) -> None:
    text, counts = SUITE[name]
    pos = position_from_fen(game, text)
    for d, want in enumerate(counts, 1):
        if d > 2:
            assert game.perft(pos, d) == want, (name, d)


def _walk(game, seed: int, plies: int):
    """(position, python-chess board) pairs along a random game from the start."""
    rng = random.Random(seed)
    pos = game.initial()
    board = chess.Board()
    for _ in range(plies):
        yield pos, board
        turns = game.turns(pos)
        if not turns:
            return
        t = rng.choice(turns)
        board.push_uci(t.label)
        pos = t.result


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_agree_with_python_chess(game, seed: int) -> None:
    seen = 0
    for pos, board in _walk(game, seed, 70):
        assert fen(game, pos) == board.fen()
        assert {t.label for t in game.turns(pos)} == {m.uci() for m in board.legal_moves}, board.fen()
        assert game.in_check(pos) == board.is_check()
        seen += 1
    assert seen > 10


def _python_chess_over(board: chess.Board) -> bool:
    """Over without a claim (python-chess's outcome(claim_draw=False)): mate, stalemate, insufficient material, the
    seventy-five-move rule, fivefold repetition."""
    return board.outcome(claim_draw=False) is not None


def _result(board: chess.Board) -> dict[str, int]:
    if board.is_checkmate():
        return {"white": -1, "black": 1} if board.turn == chess.WHITE else {"white": 1, "black": -1}
    return {"white": 0, "black": 0}


@pytest.mark.parametrize("seed", range(3))
def test_random_games_end_as_python_chess_says(game, seed: int) -> None:
    rng = random.Random(100 + seed)
    pos = game.initial()
    board = chess.Board()
    while True:
        turns = game.turns(pos)
        assert (not turns) == _python_chess_over(board), board.fen()
        if not turns:
            break
        claims = {c.name for c in game.claims(pos)}
        assert ("fifty-move rule" in claims) == board.is_fifty_moves(), board.fen()
        assert ("threefold repetition" in claims) == board.is_repetition(3), board.fen()
        t = rng.choice(turns)
        board.push_uci(t.label)
        pos = t.result
    assert game.outcome(pos) == _result(board)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30))
def test_many_random_games_end_as_python_chess_says(game, seed: int) -> None:
    test_random_games_end_as_python_chess_says(game, 1000 + seed)


def test_fen_round_trips_and_san_matches_python_chess(game) -> None:
    for text, _counts in SUITE.values():
        pos = position_from_fen(game, text)
        board = chess.Board(text)
        assert fen(game, pos) == board.fen()
        turns = game.turns(pos)
        for t in turns:
            move = chess.Move.from_uci(t.label)
            assert san(game, pos, t, turns) == board.san(move)
            assert game.parse_turn(pos, board.san(move)) == t
            assert game.parse_turn(pos, t.label.upper()) == t


def test_castling_rights_follow_the_unmoved_pieces(game) -> None:
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    after = game.parse_turn(pos, "Ra2").result  # the a-rook moves: white keeps only the short castle
    assert fen(game, after).split()[2] == "Kkq"
    after = game.parse_turn(after, "Ke7").result  # the black king moves: black loses both
    assert fen(game, after).split()[2] == "K"
    after = game.parse_turn(after, "O-O").result
    assert fen(game, after).split()[2] == "-"


@pytest.mark.parametrize("bad", [
    "4k3/8/8/8/8/8/8/3K2R1 w K - 0 1",  # the king is not on e1 (it castled d1f1 as O-O+ once)
    "4k3/8/8/8/8/8/8/4K3 w K - 0 1",  # no rook at all
    "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",  # a rook on that side, not on h1
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkB - 0 1",  # a rook file no rook starts on
    "r3k2r/8/8/8/8/8/8/R3K2R w KQ-- - 0 1",
])
def test_castling_rights_the_position_cannot_hold_are_refused(game, bad: str) -> None:
    try:  # python-chess calls them all invalid
        assert chess.Board(bad).status() & chess.STATUS_BAD_CASTLING_RIGHTS
    except ValueError:
        pass
    with pytest.raises(NotationError, match=r"field 3 \(castling\)") as exc:
        position_from_fen(game, bad)
    assert repr(bad) in str(exc.value) and "\n" not in str(exc.value)


def test_moves_refuses_a_castling_right_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    bad = "4k3/8/8/8/8/8/8/3K2R1 w K - 0 1"
    assert main(["moves", "chess", "--position", bad]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"tapology: error: FEN {bad!r}: field 3 (castling)")


def test_castling_rights_by_file_letter_and_on_twelve_ranks(game) -> None:
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w AHk - 0 1")  # Shredder letters for the same rights
    assert fen(game, pos) == chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1").fen()
    torus = open_game("chess", "torus:12x8")  # black's king and rooks start on rank 8
    pos = position_from_fen(torus, "8/8/8/8/r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert fen(torus, pos).split()[2] == "KQkq" and "e1g1" in {t.label for t in torus.turns(pos)}
    with pytest.raises(NotationError, match="e8"):
        position_from_fen(torus, "r3k2r/8/8/8/8/8/8/8/8/8/8/R3K2R w KQkq - 0 1")


@pytest.mark.parametrize(("board", "text"), [
    ("plane:8x8", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),  # a black passer on d5
    ("torus:12x8", "8/8/8/8/4k2r/1ppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQk - 0 1"),
])
def test_a_position_file_without_frames_takes_the_rule_sets(board: str, text: str) -> None:
    g = open_game("chess", board)
    pos = position_from_fen(g, text)
    written = dumps_position(g, pos)
    assert "frames = { p = 2 }" in written and "@" not in written
    bare = "\n".join(line for line in written.splitlines() if not line.startswith("frames"))
    assert position_from_table(g, tomllib.loads(bare), "bare.toml") == pos  # black pawns still face down
    turned = position_from_table(g, tomllib.loads(bare + "\nframes = { p = 0 }\n"), "turned.toml")
    assert turned != pos  # a file that says otherwise is obeyed


def test_knights_round_the_cylinder_as_docs_chess_md_says() -> None:
    g = open_game("chess", "cylinder:8x8")
    for square, reach in (("b1", {"a3", "c3", "d2", "h2"}), ("a1", {"b3", "h3", "c2", "g2"})):
        files = "abcdefgh".index(square[0])
        pos = position_from_fen(g, f"4k3/p7/8/8/8/8/8/{files or ''}N{3 - files}K3 w - - 0 1")
        assert {t.label[2:] for t in g.turns(pos) if t.label.startswith(square)} == reach


def test_black_castles_through_the_safe_tiles(game) -> None:
    # the bug this rule set had to fix: the safe probe must use the mover's own king
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    assert {"e8g8", "e8c8"} <= {t.label for t in game.turns(pos)}
    attacked = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3KR2 b Qkq - 0 1")  # f1 rook hits f8
    assert "e8g8" not in {t.label for t in game.turns(attacked)}


def test_stalemate_is_a_draw_and_mate_a_loss(game) -> None:
    stale = position_from_fen(game, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert game.turns(stale) == [] and game.outcome(stale) == {"white": 0, "black": 0}
    mate = position_from_fen(game, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert game.turns(mate) == [] and game.outcome(mate) == {"white": 1, "black": -1}


DRAW = {"white": 0, "black": 0}


def test_automatic_draws_end_the_game_and_perft_leaves_them_out(game) -> None:
    bare = position_from_fen(game, "8/8/4k3/8/8/3K4/8/8 w - - 0 1")  # king against king: a dead position
    assert game.outcome(bare) == DRAW and game.turns(bare) == []
    assert game.perft(bare, 1) == 8
    bishop = position_from_fen(game, "8/8/4k3/8/8/3K4/8/B7 w - - 0 1")
    assert game.outcome(bishop) == DRAW and game.turns(bishop) == []
    seventy_five = position_from_fen(game, "8/8/4k3/8/8/3K4/8/R7 w - - 150 80")
    assert game.outcome(seventy_five) == DRAW and game.turns(seventy_five) == []
    assert game.perft(seventy_five, 1) == 22
    strict = open_game("chess", optional_ends=False)
    assert strict.turns(position_from_fen(strict, "8/8/4k3/8/8/3K4/8/R7 w - - 150 80"))


def test_mate_on_the_seventy_fifth_move_counts() -> None:
    g = open_game("chess")
    mate = position_from_fen(g, "7k/6Q1/6K1/8/8/8/8/8 b - - 150 90")
    assert g.outcome(mate) == {"white": 1, "black": -1}


def test_the_fifty_move_rule_is_a_claim(game) -> None:
    pos = position_from_fen(game, "8/8/4k3/8/8/3K4/8/R7 w - - 99 80")
    assert game.claims(pos) == []
    pos = position_from_fen(game, "8/8/4k3/8/8/3K4/8/R7 w - - 100 80")
    assert game.outcome(pos) is None and len(game.turns(pos)) == 22  # the game goes on until a player claims
    assert [(c.name, c.score) for c in game.claims(pos)] == [("fifty-move rule", DRAW)]
    assert open_game("chess", optional_ends=False).claims(pos) == []
    report = moves_report("chess", position="8/8/4k3/8/8/3K4/8/R7 w - - 100 80")
    assert report.to_json()["claims"] == [{"name": "fifty-move rule", "score": DRAW}] and report.to_json()["count"] == 22
    assert "white may claim instead: fifty-move rule (a draw)" in report.text()


def test_threefold_is_a_claim_and_fivefold_ends_the_game(game) -> None:
    pos = game.initial()
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    for label in shuffle * 2:
        assert game.outcome(pos) is None
        pos = game.parse_turn(pos, label).result
    # the start position stands for the third time: White may claim, and the game goes on
    assert game.outcome(pos) is None and [c.name for c in game.claims(pos)] == ["threefold repetition"]
    assert game.claims(game.parse_turn(pos, "g1f3").result)  # Black's position stands for the third time too
    for label in shuffle * 2:
        assert game.outcome(pos) is None
        pos = game.parse_turn(pos, label).result
    assert game.outcome(pos) == DRAW and game.turns(pos) == [] and game.claims(pos) == []  # the fifth time


@pytest.mark.parametrize(("extra", "needle"), [
    ('kind = "no-turns"\nresult = "draw"\nclaim = true\n', "a no-turns rule cannot be a claim"),
    ('kind = "plies"\nvalue = 9\nresult = "draw"\nclaim = "yes"\n', "claim must be true or false"),
    ('kind = "plies"\nvalue = 9\nresult = "draw"\nname = 3\n', "name must be a string"),
])
def test_claim_and_name_are_checked_when_a_rule_file_is_read(extra: str, needle: str) -> None:
    base = ('name = "t"\nplayers = ["a", "b"]\nboard = "plane:3x3"\n[states]\nempty = 0\n'
            'X = { value = 1, owner = "a" }\n[[move]]\nname = "m"\npattern = "*empty => *X"\n[[end]]\n')
    with pytest.raises(RuleError, match=needle):
        parse_rules(base + extra, "t.toml")
    rules = parse_rules(base + 'kind = "plies"\nvalue = 9\nresult = "draw"\nclaim = true\nname = "nine"\n', "t.toml")
    assert rules.ends[0].claim and rules.ends[0].optional and rules.ends[0].name == "nine"


def test_the_referee_reads_a_claimed_draw(game) -> None:
    from tapology.play.playing.referee import referee_pgn

    text = '[Result "1/2-1/2"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n'
    (rep,) = referee_pgn(game, text)
    assert rep.valid and rep.outcome == DRAW  # the start position stands for the third time: a draw claimed
    (early,) = referee_pgn(game, text.replace("4. Ng1 Ng8 ", ""))  # nothing to claim yet (a draw agreed)
    assert early.valid and early.outcome is None


def test_a_player_claims_in_play(tmp_path) -> None:
    import io

    from tapology.play.playing.session import PlaySession

    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    out = io.StringIO()
    session = PlaySession(open_game("chess"), [None, None], io.StringIO("\n".join([*moves[:7], "claim", moves[7], "claim"])
                                                                        + "\n"), out, autosave=str(tmp_path / "a.json"))
    got = session.run()
    text = out.getvalue()
    assert "nothing to claim here" in text and "you may claim: threefold repetition" in text
    assert got["finished"] and got["result"] == DRAW and len(got["turns"]) == 8
    assert "threefold repetition claimed by " in text and ": the game is a draw" in text
    assert '"result"' in (tmp_path / "a.json").read_text()


@pytest.mark.parametrize(("bad", "field"), [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "field 2"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "field 1"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "field 1"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "field 4"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "fields 5-6"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "expected 6 fields"),
    ("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 3"),
])
def test_bad_fen_names_the_field(game, bad: str, field: str) -> None:
    with pytest.raises(NotationError, match=field):
        position_from_fen(game, bad)


def test_bad_turns_are_refused(game) -> None:
    pos = game.initial()
    for bad in ("e2e5", "Nf6", "e9e4", "Ke2", "O-O"):
        with pytest.raises(TurnError):
            game.parse_turn(pos, bad)


def test_pgn_games_replay(game) -> None:
    text = ('[Event "?"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 {a comment} Nc6 3. Qh5 Nf6?? (3... g6) 4. Qxf7# 1-0\n')
    (g,) = read_pgn(text)
    assert g.result == "1-0" and g.moves == ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6??", "Qxf7#")
    pos = game.initial()
    for m in g.moves:
        pos = game.parse_turn(pos, m).result
    assert game.outcome(pos) == {"white": 1, "black": -1}
    with pytest.raises(NotationError):
        read_pgn("[Event \"x\"\n1. e4")
