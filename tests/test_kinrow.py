"""The compiled k-in-a-row engine: win masks from the board's lines, bitmask positions, early draw detection,
and agreement with the rule engine's tic-tac-toe."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tapology.errors import GameError, TapologyError
from tapology.game import Game
from tapology.games.kinrow import KInARow, bits, popcount
from tapology.model.builtins import builtin_board
from tests.helpers import reachable

SURFACES = ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"]


@cache
def game(board: str, k: int = 3) -> KInARow:
    return KInARow(builtin_board(board), k)


def test_seed002_masks():
    # seed 002 numbers tile i (0-based, row by row) as bit 2**(8-i)
    g = game("plane:3x3")
    seed = {448, 56, 7, 292, 146, 73, 273, 84}
    ours = {sum(1 << (8 - t) for t in bits(m)) for m in g.masks}
    assert ours == seed
    assert g.full == 511


def test_line_counts():
    assert len(game("plane:3x3").masks) == 8
    assert len(game("torus:3x3").masks) == 12
    assert len(game("torus:4x4", 4).masks) == 16
    # every line is k distinct tiles
    for b in SURFACES:
        assert all(popcount(m) == 3 for m in game(b).masks)


def test_game_contract():
    g = game("torus:3x3")
    assert isinstance(g, Game)
    start = g.initial()
    assert start.to_move == 0 and start.ply == 0 and set(start.states) == {0}
    turns = g.turns(start)
    assert [t.label for t in turns] == [str(i) for i in range(1, 10)]
    pos = turns[4].result
    assert pos.states[4] == 1 and pos.to_move == 1 and pos.ply == 1
    assert g.outcome(pos) is None


def test_status_and_outcome():
    g = game("plane:3x3")
    x = 0b000000111  # tiles 1, 2, 3
    o = 0b000011000
    assert g.status(x, o).over and g.status(x, o).winner == 0
    pos = g.position(x, o)
    assert g.outcome(pos) == {"X": 1, "O": -1}
    assert g.turns(pos) == []
    draw_x, draw_o = 0b110001101, 0b001110010  # a full board, no line
    assert not g.won(draw_x) and not g.won(draw_o)
    assert g.outcome(g.position(draw_x, draw_o)) == {"X": 0, "O": 0}


def test_masks_of_rejects_foreign_states():
    g = game("plane:3x3")
    bad = g.initial().board.with_states((0, 3, 0, 0, 0, 0, 0, 0, 0))
    from tapology.game import Position

    with pytest.raises(GameError, match="tile '2' has state 3"):
        g.masks_of(Position(bad, 0))
    with pytest.raises(GameError, match="alternating"):
        g.to_move_of(0b11, 0)
    with pytest.raises(GameError, match="shared tile"):
        g.to_move_of(1, 1)


def test_k_must_be_positive():
    with pytest.raises(GameError, match="k must be at least 1"):
        KInARow(builtin_board("plane:3x3"), 0)


def _someone_can_complete(g: KInARow, x: int, o: int, memo: dict) -> bool:
    """Brute force: does some continuation of play end with a line?"""
    key = (x, o)
    if key in memo:
        return memo[key]
    st = g.status(x, o)
    if st.over:
        res = st.winner is not None
    else:
        res = any(_someone_can_complete(g, cx, co, memo) for _, cx, co in g.children(x, o))
    memo[key] = res
    return res


@pytest.mark.parametrize("board", SURFACES)
def test_early_draw_is_exact(board):
    """dead_draw ⇔ the game is not over and no continuation completes any line (checked on every reachable position)."""
    g = game(board)
    memo: dict = {}
    decided = 0
    for x, o in reachable(g):
        if g.status(x, o).over:
            assert not g.dead_draw(x, o)
            continue
        assert g.dead_draw(x, o) == (not _someone_can_complete(g, x, o, memo))
        decided += g.dead_draw(x, o)
    if board == "plane:3x3":
        assert decided > 0


def test_early_draw_random_4x4():
    g = KInARow(builtin_board("plane:4x4"), 3)
    rng = random.Random(5)
    memo: dict = {}
    for _ in range(40):
        x = o = 0
        for _ in range(rng.randrange(6, 12)):
            kids = g.children(x, o)
            if not kids:
                break
            _, x, o = rng.choice(kids)
        if not g.status(x, o).over:
            assert g.dead_draw(x, o) == (not _someone_can_complete(g, x, o, memo))


@pytest.mark.parametrize(("rows", "dead"), [
    ("OOX/XXO/OXO", 8),  # seed 003's "definite unwinnable"
    ("OXO/.X./XOX", 7),  # "early unwinnable"
    ("OO./OXX/XOX", 5),  # "addressing 1": five dead ends
    ("XOX/O.O/XXO", 6),  # … and six
    ("O.X/X.O/O.X", 7),  # "addressing 2": seven dead ends, three spaces
    ("OOX/X.O/.OX", 6),  # "addressing 3": two spaces, six dead ends
    ("OXX/XOO/.OX", 8),  # "addressing 4": eight dead ends and a space
])
def test_seed003_dead_ends(rows, dead):
    g = game("plane:3x3")
    cells = rows.replace("/", "")
    x = sum(1 << i for i, c in enumerate(cells) if c == "X")
    o = sum(1 << i for i, c in enumerate(cells) if c == "O")
    assert g.dead_lines(x, o) == dead


def _rule_game(board: str):
    from tapology.games.registry import load_game
    from tapology.rules import RuleGame

    lg = load_game("tictactoe", board, fast=False)
    assert isinstance(lg.game, RuleGame)  # the cross-check needs the rule engine: an error here is a failure
    return lg.game


@pytest.mark.parametrize("board", SURFACES)
def test_agrees_with_rule_engine(board):
    """Random playouts: the same turns (labels and results) and outcomes as the rule engine."""
    rg = _rule_game(board)
    g = game(board)
    rng = random.Random(board)
    for _ in range(25):
        pos = rg.initial()
        while True:
            mine = g.turns(pos)
            theirs = rg.turns(pos)
            assert [(t.label, t.result.states, t.result.to_move) for t in mine] == \
                [(t.label, t.result.states, t.result.to_move) for t in theirs]
            assert g.outcome(pos) == rg.outcome(pos)
            if not theirs:
                break
            pos = rng.choice(theirs).result


def test_fast_path_is_chosen_for_tictactoe():
    from tapology.games.registry import load_game

    lg = load_game("tictactoe", "klein:3x3")
    assert isinstance(lg.game, KInARow) and lg.game.k == 3 and len(lg.game.masks) == 22
    lg = load_game("tictactoe:4,4,3")
    assert isinstance(lg.game, KInARow) and lg.game.k == 3 and lg.game.n == 16 and lg.board_name == "plane:4x4"


def test_lines_on_a_board_with_turned_tiles():
    """Seed 000's tic-tac-toe board with turned tiles has the plane's 8 lines (walked both ways along each axis)."""
    from pathlib import Path

    from tapology.model.boardfile import load_board

    src = load_board(str(Path(__file__).parent.parent / "examples" / "boards" / "tictactoe-turned.toml"))
    g = KInARow(src.atlas().board(), 3)
    assert g.lines == game("plane:3x3").lines


def test_both_engines_keep_the_game_contract() -> None:
    """KInARow and RuleGame offer every member of the Game protocol; only KInARow has the ClaimGame capability."""
    from tapology.game import ClaimGame
    from tapology.games.registry import load_game

    lg = load_game("tictactoe")
    assert isinstance(lg.game, Game) and isinstance(lg.generic, Game)
    assert isinstance(lg.game, ClaimGame) and not isinstance(lg.generic, ClaimGame)
    kr, rg = lg.game, lg.generic
    pos = kr.initial()
    for lab in ("1", "5", "3"):
        pos = kr.parse_turn(pos, lab).result
    with pytest.raises(TapologyError, match="tile 5 is already taken by O"):
        kr.parse_turn(pos, "5")
    assert rg.parse_turn(rg.initial(), "5").label == "5" and kr.tile_claims and not rg.tile_claims


def test_no_module_dispatches_on_the_kinrow_class() -> None:
    """Callers ask the Game protocol (or the ClaimGame capability), never ``isinstance(…, KInARow)``."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "tapology"
    hits = [f"{p.relative_to(root)}:{i}" for p in root.rglob("*.py") if p.name != "kinrow.py"
            for i, line in enumerate(p.read_text().splitlines(), 1) if re.search(r"isinstance\([^)]*KInARow", line)]
    assert not hits, hits
