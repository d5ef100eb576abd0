"""Board files and built-ins: parsing, errors naming the place, exact round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tapology.errors import BoardFileError, BuiltinError
from tapology.model.atlas import Atlas
from tapology.model.boardfile import dumps_board, load_board, parse_board
from tapology.model.builtins import builtin_board

from .strategies import BUILTINS, plane_cutouts

EXAMPLES = Path(__file__).parent.parent / "examples" / "boards"
ALL_BUILTINS = [*BUILTINS, "plane:2x5", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3", "strip:1",
                "hex-cylinder:2x3", "hex-torus:4x4", "hex-mobius:3x3"]


def closed(board):
    return Atlas.of(board).board()


@pytest.mark.parametrize("name", ALL_BUILTINS)
def test_builtins_round_trip_through_their_file_form(name):
    b = builtin_board(name)
    text = dumps_board(b)
    again = parse_board(text).atlas().board()
    assert again == closed(b)
    assert dumps_board(again) == text


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_example_boards_round_trip(path):
    src = load_board(str(path))
    at = src.atlas()
    assert at.consistent
    b = at.board()
    again = parse_board(dumps_board(b)).atlas().board()
    assert again == b


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(plane_cutouts())
def test_random_boards_round_trip(board):
    b = closed(board)
    assert parse_board(dumps_board(b)).atlas().board() == b


def test_builtin_shapes():
    b = builtin_board("mobius:3x4")
    # row r meets row M+1-r, flipped
    right_of_4 = b.neighbour(b.tile("4"), b.grid.side("right"))
    assert right_of_4 == (b.tile("9"), 6)
    t = builtin_board("torus:2x3")
    assert t.neighbour(t.tile("1"), t.grid.side("up")) == (t.tile("4"), 0)
    k = builtin_board("klein:3x3")
    assert k.neighbour(k.tile("1"), k.grid.side("up")) == (k.tile("7"), 0)
    assert k.neighbour(k.tile("1"), k.grid.side("left")) == (k.tile("9"), 6)


@pytest.mark.parametrize("name,msg", [
    ("donut:3x3", "unknown built-in board 'donut:3x3'"),
    ("torus:3", "give rows x columns"),
    ("strip:2x2", "a strip takes one size"),
    ("torus:0x3", "at least 1"),
    ("hex-torus:3x3", "even number of rows"),
])
def test_bad_builtin_names(name, msg):
    with pytest.raises(BuiltinError, match=msg):
        builtin_board(name)


@pytest.mark.parametrize("text,msg", [
    ("layout = '1 2'\ncolour = 3", "unknown key 'colour'"),
    ("layout = '1 2@9'", "orientation 9 out of range 0..7"),
    ("layout = '''\n1 2\n3 $\n'''", r"layout line 3: bad tile '\$'"),
    ("layout = '1 1'", "tile '1' is drawn twice"),
    ("layout = '1 2'\ntapes = ['1.up=7.down']", "unknown tile '7'"),
    ("layout = '1 2'\ntapes = ['1.top=2.sideways']", "unknown side 'sideways'"),
    ("layout = '1 2'\ntapes = ['1 to 2']", "expected T.SIDE=U.SIDE"),
    ("layout = '1 2'\ndomain = 'star'", "unknown domain 'star'"),
    ("layout = '1 2'\n[states]\n3 = 1", "states: unknown tile '3'"),
    ("layout = [1, 2", "not valid TOML"),
    ("grid = 'octagon'\nlayout = '1'", "unknown grid 'octagon'"),
    ("tiles = []", "no tiles"),
    ("name = 5\nlayout = '1'", "name must be a string"),
])
def test_bad_board_files_name_the_place(text, msg):
    with pytest.raises(BoardFileError, match=msg) as exc:
        parse_board(text, "b.toml")
    assert str(exc.value).startswith("b.toml")
    assert "\n" not in str(exc.value)


def test_missing_file():
    with pytest.raises(BoardFileError, match="no such board file"):
        load_board("no/such/board.toml")


def test_states_and_loose_tiles():
    src = parse_board("layout = '1 2'\ntiles = ['1', '2', 'x']\n[states]\n2 = 3\nx = 1\n")
    b = src.board
    assert b.tiles == ("1", "2", "x") and b.states == (0, 3, 1)
    assert b.neighbour(2, 0) is None
    again = parse_board(dumps_board(b)).board
    assert again == b
    with pytest.raises(BoardFileError, match="layout tile '2' is not listed"):
        parse_board("layout = '1 2'\ntiles = ['1']")


def test_hex_layout_offset_rows():
    src = parse_board("grid = 'hex'\nlayout = '''\n1 2\n 3 4\n'''")
    b = src.board
    se = b.grid.side("se")
    sw = b.grid.side("sw")
    assert b.neighbour(b.tile("1"), se) == (b.tile("3"), 0)
    assert b.neighbour(b.tile("2"), sw) == (b.tile("3"), 0)
    assert b.neighbour(b.tile("2"), se) == (b.tile("4"), 0)


def test_file_tapes_that_conflict_make_an_inconsistent_board():
    src = parse_board("layout = '''\n1 2\n3 .\n'''\ntapes = ['1.up=3.right']")
    at = src.atlas()
    assert not at.consistent
    assert at.conflict.because == ["1.up=3.right"]
