"""Tests of the reference chess move generator (tests/chess_reference.py).

On the plane it is checked against python-chess (known perft counts, random games compared
move by move); on the other surfaces by properties that follow from the gluing and from
docs/chess.md, and by the perft counts recorded in tests/data/perft/chess-reference.txt.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import chess
import pytest

from tapology.model.group import SQUARE_D4
from tests.chess_reference import (
    BLACK_PAWN_FRAME,
    DIAGONAL,
    DIRECTIONS,
    ORTHOGONAL,
    START_FEN,
    Move,
    Position,
    arena,
    canonical_frame,
    from_fen,
    in_check,
    legal_moves,
    perft,
    pseudo_legal_moves,
    standard,
)

DATA = Path(__file__).parent / "data" / "perft" / "chess-reference.txt"
SURFACES = ("cylinder:8x8", "mobius:8x8", "torus:12x8", "klein:12x8")
FLIP_Y = 6  # (x, y) -> (x, -y)

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
# chessprogramming wiki, "Perft Results", positions 3 to 6
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
PLANE_PERFT = {
    START_FEN: (20, 400, 8902, 197281),
    KIWIPETE: (48, 2039, 97862),
    POSITION_3: (14, 191, 2812),
    POSITION_4: (6, 264, 9467),
    POSITION_5: (44, 1486, 62379),
    POSITION_6: (46, 2079, 89890),
}
DEFAULT_DEPTH = {START_FEN: 3}  # deeper counts are slow; the others run to depth 2 by default


def _plane_cases() -> list:
    cases = []
    for fen, counts in PLANE_PERFT.items():
        for depth, count in enumerate(counts, 1):
            marks = [pytest.mark.slow] if depth > DEFAULT_DEPTH.get(fen, 2) else []
            cases.append(pytest.param(fen, depth, count, marks=marks, id=f"{fen.split()[0][:12]}-{depth}"))
    return cases


def by_uci(pos: Position) -> dict[str, Move]:
    """The legal moves keyed by UCI text (which must be unique on the plane)."""
    moves = legal_moves(pos)
    out = {m.uci(): m for m in moves}
    assert len(out) == len(moves), f"two moves with one UCI text in {pos}"
    return out


def castling_mask(pos: Position) -> int:
    """python-chess's castling rights (a mask of rook squares) implied by the unmoved flags."""
    a = pos.arena
    mask = 0
    for king, rooks in (("e1", ("a1", "h1")), ("e8", ("a8", "h8"))):
        if a.tile(king) in pos.unmoved:
            for rook in rooks:
                if a.tile(rook) in pos.unmoved:
                    mask |= chess.BB_SQUARES[chess.parse_square(rook)]
    return mask


def ep_square(pos: Position) -> int | None:
    """python-chess's en-passant square implied by the passer: the square it crossed."""
    if pos.passer is None:
        return None
    file, rank = pos.arena.file_rank(pos.passer)
    crossed = rank - 1 if pos.pieces[pos.passer] == "P" else rank + 1
    return chess.square(file, crossed - 1)


def assert_same_state(pos: Position, board: chess.Board) -> None:
    """Placement, side to move, castling rights and passer agree with python-chess."""
    assert pos.placement() == board.board_fen()
    assert pos.white_to_move == (board.turn == chess.WHITE)
    assert castling_mask(pos) == board.castling_rights, board.fen()
    assert ep_square(pos) == board.ep_square, board.fen()
    assert {pos.arena.square(t) for t in pos.unmoved} <= {"a1", "e1", "h1", "a8", "e8", "h8"}


def destinations(pos: Position, square: str) -> Counter[str]:
    """How many legal moves take the piece on ``square`` to each square."""
    a = pos.arena
    return Counter(a.square(m.to) for m in legal_moves(pos) if m.frm == a.tile(square))


def only(pos: Position, uci: str) -> Move:
    """The single legal move with this UCI text."""
    found = [m for m in legal_moves(pos) if m.uci() == uci]
    assert len(found) == 1, f"{uci}: {len(found)} moves in {pos}"
    return found[0]


# --------------------------------------------------------------------------- the plane, against python-chess


@pytest.mark.parametrize(("fen", "depth", "count"), _plane_cases())
def test_plane_perft_suite(fen: str, depth: int, count: int) -> None:
    assert perft(from_fen(fen), depth) == count


@pytest.mark.parametrize("fen", list(PLANE_PERFT))
def test_plane_divide_matches_python_chess(fen: str) -> None:
    pos, board = from_fen(fen), chess.Board(fen)
    moves = by_uci(pos)
    assert set(moves) == {m.uci() for m in board.legal_moves}
    for uci, move in moves.items():
        board.push_uci(uci)
        assert_same_state(move.after, board)
        assert {m.uci() for m in legal_moves(move.after)} == {m.uci() for m in board.legal_moves}, (fen, uci)
        board.pop()


def _special(board: chess.Board, move: chess.Move) -> bool:
    """Castling, en passant, promotion or a double step."""
    return (board.is_castling(move) or board.is_en_passant(move) or move.promotion is not None
            or (board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16))


GAME_STARTS = (START_FEN, START_FEN, START_FEN, START_FEN, KIWIPETE, POSITION_3, POSITION_4, POSITION_5)


@pytest.mark.parametrize("seed", range(len(GAME_STARTS)))
def test_plane_random_games_match_python_chess(seed: int) -> None:
    """Random games (special moves preferred when there are some): every move of every position agrees."""
    rng = random.Random(seed)
    start = GAME_STARTS[seed]
    pos, board = from_fen(start), chess.Board(start)
    for _ in range(80):
        pos.check()
        moves = by_uci(pos)
        assert set(moves) == {m.uci() for m in board.legal_moves}, board.fen()
        assert in_check(pos) == board.is_check()
        for uci, move in moves.items():
            board.push_uci(uci)
            assert_same_state(move.after, board)
            board.pop()
        if not moves:
            break
        special = [m.uci() for m in board.legal_moves if _special(board, m)]
        uci = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(sorted(moves))
        pos = moves[uci].after
        board.push_uci(uci)


def test_from_fen_reads_passer_and_castling() -> None:
    pos = from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3")
    a = pos.arena
    assert pos.passer == a.tile("e4")
    assert {a.square(t) for t in pos.unmoved} == {"e1", "h1", "e8", "a8"}
    assert not pos.white_to_move
    assert "d4e3" in by_uci(pos)


# --------------------------------------------------------------------------- geometry


ALL_BOARDS = ("plane:8x8", *SURFACES, "torus:8x8", "klein:8x8", "cylinder:8x2", "klein:5x3")


@pytest.mark.parametrize("name", ALL_BOARDS)
def test_diagonal_walks_do_not_depend_on_order(name: str) -> None:
    """Every vertex is flat: horizontal-then-vertical equals vertical-then-horizontal, from every tile and frame."""
    a = arena(name)
    for t in range(a.size):
        for frame in range(SQUARE_D4.order):
            for x, y in DIAGONAL:
                across = a.walk((t, frame), (x, y))
                first = a.walk((t, frame), (0, y))
                along = None if first is None else a.walk(first, (x, 0))
                assert across == along, (name, t, frame, (x, y))


@pytest.mark.parametrize("name", ALL_BOARDS)
def test_steps_are_reversible(name: str) -> None:
    """Stepping by v then by -v (in the carried frame) comes back to the same tile and frame."""
    a = arena(name)
    for t in range(a.size):
        for frame in range(SQUARE_D4.order):
            for x, y in DIRECTIONS:
                there = a.walk((t, frame), (x, y))
                if there is not None:
                    assert a.walk(there, (-x, -y)) == (t, frame)


@pytest.mark.parametrize("name", ALL_BOARDS)
def test_rays_never_repeat_a_tile(name: str) -> None:
    a = arena(name)
    for t in range(a.size):
        for v in ORTHOGONAL + DIAGONAL:
            ray = a.ray(t, v)
            assert t not in ray and len(set(ray)) == len(ray)


def test_ray_lengths_on_the_torus() -> None:
    """On a 12×8 torus a rook goes round its rank (7 tiles) and file (11); a bishop's diagonal closes after 24 steps."""
    a = arena("torus:12x8")
    d4 = a.tile("d4")
    assert [len(a.ray(d4, v)) for v in ORTHOGONAL] == [11, 7, 11, 7]
    assert [len(a.ray(d4, v)) for v in DIAGONAL] == [23, 23, 23, 23]


def test_mobius_seam_flips_the_ranks() -> None:
    a = arena("mobius:8x8")
    assert a.walk((a.tile("a1"), 0), (-1, 0)) == (a.tile("h8"), FLIP_Y)
    assert a.walk((a.tile("h3"), 0), (1, 0)) == (a.tile("a6"), FLIP_Y)
    assert a.walk((a.tile("a3"), 0), (-1, 1)) == (a.tile("h5"), FLIP_Y)  # left then (flipped) up


def test_klein_seams() -> None:
    """klein:12x8: files wrap with a flip (rank r meets rank 13 - r), ranks wrap plainly."""
    a = arena("klein:12x8")
    assert a.walk((a.tile("a1"), 0), (-1, 0)) == (a.tile("h12"), FLIP_Y)
    assert a.walk((a.tile("e12"), 0), (0, 1)) == (a.tile("e1"), 0)


# --------------------------------------------------------------------------- pieces on surfaces


def test_cylinder_rook_goes_round_its_rank_once() -> None:
    pos = from_fen("8/8/8/8/8/8/8/R7 w - -", "cylinder:8x8")
    dest = destinations(pos, "a1")
    assert dest == Counter([f"{f}1" for f in "bcdefgh"] + [f"a{r}" for r in range(2, 9)])


def test_plane_rook_for_comparison() -> None:
    pos = from_fen("8/8/8/8/8/8/8/R7 w - -")
    assert sum(destinations(pos, "a1").values()) == 14


def test_torus_rook_on_an_empty_file() -> None:
    pos = from_fen("8/8/8/8/8/8/8/3R4/8/8/8/8 w - -", "torus:12x8")
    dest = destinations(pos, "d5")
    assert dest == Counter([f"d{r}" for r in range(1, 13) if r != 5] + [f"{f}5" for f in "abcefgh"])


def test_klein_rook_crosses_into_the_mirrored_rank() -> None:
    pos = from_fen("8/8/8/8/8/8/8/8/8/R7/8/8 w - -", "klein:12x8")
    dest = destinations(pos, "a3")
    expected = {f"a{r}" for r in range(1, 13)} | {f"{f}3" for f in "abcdefgh"} | {f"{f}10" for f in "abcdefgh"}
    assert dest == Counter(expected - {"a3"})


def test_two_routes_to_one_tile_are_one_move() -> None:
    """On a two-file cylinder the rook reaches b1 going left and going right: one move."""
    pos = from_fen("2/2/2/2/2/2/2/R1 w - -", "cylinder:8x2")
    assert len(pseudo_legal_moves(pos)) == 9
    assert destinations(pos, "a1") == Counter(["b1"] + [f"a{r}" for r in range(2, 9)])


def test_torus_bishop_diagonals_meet() -> None:
    """From c1 on the 12×8 torus both backward diagonals reach g9: one move there."""
    pos = standard("torus:12x8")
    assert destinations(pos, "c1")["g9"] == 1
    assert len(pseudo_legal_moves(pos)) == 76 and len(legal_moves(pos)) == 72


def test_mobius_bishop_changes_colour() -> None:
    pos = from_fen("8/8/8/8/8/8/8/2B5 w - -", "mobius:8x8")
    dest = destinations(pos, "c1")
    colours = {(ord(s[0]) - ord("a") + int(s[1:])) % 2 for s in dest}
    assert colours == {0, 1}
    assert {"h5", "g4", "f3", "e2", "d1"} <= set(dest)
    cylinder = from_fen("8/8/8/8/8/8/8/2B5 w - -", "cylinder:8x8")
    assert len({(ord(s[0]) - ord("a") + int(s[1:])) % 2 for s in destinations(cylinder, "c1")}) == 1


def test_mobius_knight_and_rook_capture_across_the_seam() -> None:
    """The four extra first moves on the Möbius strip: Rxh8, Rxa8, Nb1xh7, Ng1xa7."""
    plane = {m.uci() for m in legal_moves(standard("plane:8x8"))}
    mobius = {m.uci() for m in legal_moves(standard("mobius:8x8"))}
    assert mobius - plane == {"a1h8", "h1a8", "b1h7", "g1a7"}
    assert plane <= mobius


def test_mobius_pawn_comes_back_facing_down_and_promotes_off_the_edge() -> None:
    pos = from_fen("4k3/8/P7/8/8/8/7r/4K3 w - -", "mobius:8x8")
    capture = only(pos, "a6h2")  # left across the seam, then "up" in the flipped frame
    a = pos.arena
    assert capture.after.pieces[a.tile("h2")] == "P"
    assert capture.after.frames[a.tile("h2")] == BLACK_PAWN_FRAME
    after = only(capture.after, "e8d8").after
    promotions = {m.uci() for m in legal_moves(after) if m.frm == a.tile("h2")}
    assert promotions == {"h2h1q", "h2h1r", "h2h1b", "h2h1n"}  # forward is off the board
    assert only(after, "h2h1r").after.unmoved == frozenset()  # a promoted rook cannot castle


def test_promotion_region_on_the_torus() -> None:
    """On the torus there is no far edge: white promotes on rank 8, black on rank 1."""
    pos = from_fen("8/8/8/8/8/P7/8/8/8/8/8/7p w - -", "torus:12x8")
    assert {m.uci() for m in legal_moves(pos)} == {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}
    pos = from_fen("8/8/8/8/8/8/8/8/8/8/7p/8 b - -", "torus:12x8")
    assert {m.uci() for m in legal_moves(pos)} == {"h2h1q", "h2h1r", "h2h1b", "h2h1n"}
    pos = from_fen("8/8/8/8/8/8/8/8/8/8/8/7p b - -", "torus:12x8")
    assert {m.uci() for m in legal_moves(pos)} == {"h1h12"}  # a black pawn past rank 1 goes on


def test_en_passant_across_the_cylinder_seam() -> None:
    pos = from_fen("4k3/7p/8/P7/8/8/8/4K3 b - -", "cylinder:8x8")
    pushed = only(pos, "h7h5").after
    assert pushed.passer == pushed.arena.tile("h5")
    ep = only(pushed, "a5h6")
    a = pos.arena
    assert ep.after.pieces[a.tile("h5")] is None and ep.after.pieces[a.tile("h6")] == "P"
    assert ep.after.passer is None
    plane = from_fen("4k3/7p/8/P7/8/8/8/4K3 b - -")
    assert "a5h6" not in {m.uci() for m in legal_moves(only(plane, "h7h5").after)}


def test_en_passant_across_the_mobius_seam_follows_the_capturer() -> None:
    """a4 is beside h5 on the Möbius strip; the capturer's forward-left is h4, not the passed square h6."""
    pos = from_fen("4k3/7p/8/8/P7/8/8/4K3 b - -", "mobius:8x8")
    pushed = only(pos, "h7h5").after
    ep = only(pushed, "a4h4")
    a = pos.arena
    assert ep.after.pieces[a.tile("h5")] is None
    assert ep.after.pieces[a.tile("h4")] == "P" and ep.after.frames[a.tile("h4")] == BLACK_PAWN_FRAME
    blocked = from_fen("4k3/7p/8/8/P6n/8/8/4K3 b - -", "mobius:8x8")
    capture = only(only(blocked, "h7h5").after, "a4h4")  # takes the knight; h4 is not empty, so no en passant
    assert capture.after.pieces[a.tile("h5")] == "p"
    waited = only(only(pushed, "e1d1").after, "e8d8").after
    assert "a4h4" not in {m.uci() for m in legal_moves(waited)}  # the right lapses after one turn


def test_castling_round_the_cylinder() -> None:
    """With only the a-rook, the cylinder adds a castling to g1 the long way round (rook at (4, 0))."""
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q -"
    cyl = from_fen(fen, "cylinder:8x8")
    a = cyl.arena
    castles = {m.uci(): m for m in legal_moves(cyl) if m.frm == a.tile("e1") and m.to in (a.tile("c1"), a.tile("g1"))}
    assert set(castles) == {"e1c1", "e1g1"}
    after = castles["e1g1"].after
    assert after.pieces[a.tile("f1")] == "R" and after.pieces[a.tile("a1")] is None
    assert after.unmoved == frozenset()
    assert "e1g1" not in {m.uci() for m in legal_moves(from_fen(fen))}
    # on the Möbius strip (4, 0) from e1 is a8: black's corner, so no castling that way
    assert "e1g1" not in {m.uci() for m in legal_moves(from_fen(fen, "mobius:8x8"))}


def test_castling_not_through_check_across_the_seam() -> None:
    """On the cylinder a bishop on d6 sees g1 round the seam (c5, b4, a3, h2, g1); a pawn on g2 attacks f1,
    which only counts with a king put there for the test.  Either forbids castling to g1, not to c1."""
    fen = "4k3/8/{}/8/8/8/{}/R3K3 w Q -"
    free = from_fen(fen.format("8", "8"), "cylinder:8x8")
    assert {"e1c1", "e1g1"} <= {m.uci() for m in legal_moves(free)}
    for sixth, second in (("3b4", "8"), ("8", "6p1")):
        moves = {m.uci() for m in legal_moves(from_fen(fen.format(sixth, second), "cylinder:8x8"))}
        assert "e1g1" not in moves and "e1c1" in moves, (sixth, second)
    plane = from_fen(fen.format("3b4", "8"))
    assert not in_check(plane) and not in_check(from_fen(fen.format("3b4", "8"), "cylinder:8x8"))


@pytest.mark.parametrize("name", ["torus:8x8", "klein:8x8"])
def test_closed_8x8_boards_start_in_checkmate(name: str) -> None:
    """docs/chess.md: on closed 8×8 boards the back ranks touch and White is mated at once."""
    pos = standard(name)
    assert in_check(pos) and legal_moves(pos) == []


# --------------------------------------------------------------------------- colour symmetry


def _mirror_rank(a_rows: int, rank: int) -> int:
    """The rank that swaps ranks 1 and 8 (and 2 and 7, …), modulo the number of ranks."""
    return (8 - rank) % a_rows + 1


def mirror_is_symmetry(name: str) -> bool:
    """True when reflecting ranks (1 <-> 8) is an automorphism of the board's gluing table."""
    a = arena(name)
    image = [a.tile_at(f, _mirror_rank(a.rows, r)) for f, r in map(a.file_rank, range(a.size))]
    for t in range(a.size):
        for d, v in enumerate(DIRECTIONS):
            code = a.glue[t][d]
            md = DIRECTIONS.index(SQUARE_D4.act(FLIP_Y, v))
            if code < 0:
                want = -1
            else:
                u, o = divmod(code, SQUARE_D4.order)
                want = image[u] * SQUARE_D4.order + SQUARE_D4.mul[SQUARE_D4.mul[FLIP_Y][o]][FLIP_Y]
            if a.glue[image[t]][md] != want:
                return False
    return True


def mirrored(pos: Position) -> Position:
    """The position with ranks reflected (1 <-> 8) and colours swapped."""
    a = pos.arena
    image = [a.tile_at(f, _mirror_rank(a.rows, r)) for f, r in map(a.file_rank, range(a.size))]
    pieces: list[str | None] = [None] * a.size
    frames: list[int | None] = [None] * a.size
    for t, piece in enumerate(pos.pieces):
        if piece is not None:
            pieces[image[t]] = piece.swapcase()
            frame = pos.frames[t]
            frames[image[t]] = None if frame is None else canonical_frame(SQUARE_D4.mul[frame][FLIP_Y])
    return Position(a, tuple(pieces), tuple(frames), frozenset(image[t] for t in pos.unmoved),
                    None if pos.passer is None else image[pos.passer], not pos.white_to_move).check()


@pytest.mark.parametrize("name", ["plane:8x8", "cylinder:8x8", "mobius:8x8", "torus:12x8"])
def test_colour_mirror_symmetry(name: str) -> None:
    assert mirror_is_symmetry(name)
    pos = standard(name)
    flipped = mirrored(pos)
    for depth in (1, 2):
        assert perft(flipped, depth) == perft(pos, depth)
    moved = legal_moves(pos)[3].after
    assert perft(mirrored(moved), 2) == perft(moved, 2)


def test_klein_12x8_set_up_is_not_colour_symmetric() -> None:
    """The flipped seam pairs rank r with rank 13 - r: white's ranks 1-2 touch the empty ranks 11-12,
    black's ranks 7-8 touch ranks 5-6.  Reflecting 1 <-> 8 is no symmetry of this board."""
    assert not mirror_is_symmetry("klein:12x8")
    assert mirror_is_symmetry("klein:8x8")


# --------------------------------------------------------------------------- recorded perft counts


def recorded() -> list[tuple[str, int, int]]:
    """(board, depth, count) from tests/data/perft/chess-reference.txt."""
    out: list[tuple[str, int, int]] = []
    board = None
    for line in DATA.read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "board":
            board = words[1]
        elif words[0] == "perft" and board is not None:
            out.append((board, int(words[1]), int(words[2])))
        else:
            raise ValueError(f"{DATA.name}: bad line {line!r}")
    return out


def _mark(count: int) -> list:
    """Default run up to 20,000 leaves; slow up to a million (seconds to a minute); beyond, hours (3 to 31 minutes
    each with this generator: the recorded counts' own comments give the times)."""
    if count > 1_000_000:
        return [pytest.mark.hours]
    return [pytest.mark.slow] if count > 20_000 else []


def _recorded_cases() -> list:
    return [pytest.param(b, d, n, marks=_mark(n), id=f"{b}-{d}") for b, d, n in recorded()]


def test_recorded_counts_cover_every_surface() -> None:
    rows = recorded()
    for name in SURFACES:
        assert {d for b, d, _ in rows if b == name} >= {1, 2, 3, 4}, name


@pytest.mark.parametrize(("name", "depth", "count"), _recorded_cases())
def test_recorded_perft(name: str, depth: int, count: int) -> None:
    assert perft(standard(name), depth) == count


# --------------------------------------------------------------------------- the reference against the engine


ENGINE_FILE = Path(__file__).parent / "data" / "perft" / "chess.perft"


def engine_recorded() -> dict[str, dict[int, int]]:
    """board -> {depth: count} of the chess entries of tests/data/perft/chess.perft that start from a set-up."""
    out: dict[str, dict[int, int]] = {}
    entry: dict[str, str] = {}
    counts: dict[int, int] = {}

    def close() -> None:
        if entry and "position" not in entry and "fen" not in entry:
            out[entry.get("board", "plane:8x8")] = dict(counts)

    for line in ENGINE_FILE.read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "id":
            close()
            entry, counts = {"id": words[1]}, {}
        elif words[0] == "perft":
            counts[int(words[1])] = int(words[2])
        else:
            entry[words[0]] = " ".join(words[1:])
    close()
    return out


def test_the_two_count_files_agree() -> None:
    """Every depth both files record for a surface's set-up has one count (the reference's file against the engine's)."""
    engine = engine_recorded()
    both = 0
    for board, depth, count in recorded():
        assert board in engine, f"chess.perft has no set-up entry for {board}"
        if depth in engine[board]:
            assert engine[board][depth] == count, (board, depth)
            both += 1
    assert both >= 4 * len(SURFACES)


def _engine_moves(g, pos) -> dict[str, object]:
    return {t.label: t for t in g.turns(pos)}


def _cross_cases() -> list:
    """Every surface: one short game by default (a few seconds each), three long ones with every divide in -m slow."""
    quick = [pytest.param(n, 1, 10, 4, id=f"{n}-quick") for n in ("plane:8x8", *SURFACES)]
    slow = [pytest.param(n, 3, 24, None, id=f"{n}-long", marks=[pytest.mark.slow]) for n in ("plane:8x8", *SURFACES)]
    return quick + slow


@pytest.mark.parametrize(("name", "games", "plies", "divided"), _cross_cases())
def test_engine_and_reference_list_the_same_moves_along_random_games(name: str, games: int, plies: int,
                                                                     divided: int | None) -> None:
    """Random games on every surface: at each position the engine's turns and the reference's legal moves are the
    same set (by UCI), and at some positions the divide one level down agrees move by move (``divided`` moves
    picked at random, or all)."""
    from tapology.games import open_game

    g = open_game("chess", name)
    rng = random.Random(f"cross-{name}")
    for game_no in range(games):
        pos, ref = g.initial(), standard(name)
        for ply in range(plies):
            mine = {t.label: t for t in g.turns(pos)}
            theirs = {m.uci(): m for m in legal_moves(ref)}
            assert set(mine) == set(theirs), (name, game_no, ply, sorted(set(mine) ^ set(theirs)))
            if not mine:
                break
            if ply % 8 == 5:  # divide: the replies below each move
                ucis = sorted(theirs) if divided is None else rng.sample(sorted(theirs), min(divided, len(theirs)))
                for uci in ucis:
                    assert len(g.turns(mine[uci].result)) == len(legal_moves(theirs[uci].after)), (name, ply, uci)
            uci = rng.choice(sorted(mine))
            pos, ref = mine[uci].result, theirs[uci].after
