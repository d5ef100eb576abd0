"""Solving: exact values and game-tree counts, the symmetry reduction, and the groups it uses."""

from __future__ import annotations

import itertools
import json

import pytest

from tapology.cli import main
from tapology.games.kinrow import KInARow
from tapology.model.atlas import Atlas
from tapology.model.builtins import builtin_board
from tapology.model.lines import board_lines
from tapology.play.solving.solve import WIN, solve_game, solve_kinrow
from tapology.play.solving.symmetry import (
    board_automorphisms,
    board_maps,
    closure,
    compose,
    game_symmetries,
    line_automorphisms,
    preserves_lines,
)
from tests.helpers import reachable

SURFACES = ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"]
FIELDS = ("value", "plies", "positions", "terminal_positions", "games", "wins", "draws")


def facts(r):
    return {f: getattr(r, f) for f in FIELDS}


def test_tictactoe_acceptance():
    g = KInARow(builtin_board("plane:3x3"), 3)
    r = solve_kinrow(g, symmetry=True)
    assert r.value == 0 and r.plies == 9
    assert r.positions == 5478 and r.terminal_positions == 958
    assert r.games == 255168 and r.wins == {"X": 131184, "O": 77904} and r.draws == 46080
    assert r.symmetries == 8 and r.classes == 765 and r.complete


def test_cli_solve_json(capsys):
    code = main(["solve", "tictactoe", "--board", "plane:3x3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["value"] == "draw" and data["positions"] == 5478 and data["terminal_positions"] == 958
    assert data["games"] == 255168 and data["wins"] == {"X": 131184, "O": 77904} and data["draws"] == 46080
    assert data["plies"] == 9


def test_cli_solve_text_and_bad_board(capsys):
    assert main(["solve", "tictactoe", "--board", "torus:3x3"]) == 0
    assert "first player wins in 7 plies" in capsys.readouterr().out
    assert main(["solve", "tictactoe", "--board", "nowhere:3x3"]) == 2
    assert "nowhere:3x3" in capsys.readouterr().err


@pytest.mark.parametrize("board", SURFACES)
def test_three_solvers_agree(board):
    """Layered with symmetry = layered without = memoised search over the Game contract."""
    g = KInARow(builtin_board(board), 3)
    a = solve_kinrow(g, symmetry=True)
    b = solve_kinrow(g, symmetry=False)
    c = solve_game(g)
    assert facts(a) == facts(b) == facts(c)
    assert b.classes == b.positions  # no reduction without symmetry
    assert a.classes < a.positions


def test_known_values():
    # on the torus the first player wins; 4x4 with 3 in a row is a first-player win; 4x4 with 4 a draw
    assert solve_kinrow(KInARow(builtin_board("torus:3x3"), 3)).value == 1
    assert solve_kinrow(KInARow(builtin_board("plane:4x4"), 3)).value == 1
    assert solve_kinrow(KInARow(builtin_board("plane:4x4"), 4)).value == 0


@pytest.mark.parametrize(("board", "k"), [("plane:3x4", 3), ("cylinder:3x4", 3), ("mobius:2x5", 3), ("torus:2x4", 2)])
def test_symmetry_reduction_is_exact_on_larger_boards(board, k):
    g = KInARow(builtin_board(board), k)
    assert facts(solve_kinrow(g, symmetry=True)) == facts(solve_kinrow(g, symmetry=False))


def test_stop_at_line_variant_counts():
    """Play to a full board: no game ends before ply 9, so every game is 9 turns: 9! of them."""
    g = KInARow(builtin_board("plane:3x3"), 3, stop_at_line=False)
    r = solve_kinrow(g, symmetry=True)
    assert r.games == 362880 and r.terminal_positions == 126  # C(9,5) full boards
    assert facts(r) == facts(solve_kinrow(g, symmetry=False))


def test_table_scores_match_root():
    g = KInARow(builtin_board("torus:3x3"), 3)
    r = solve_kinrow(g, keep_table=True, symmetry=True)
    assert r.table is not None
    assert r.table.score(0, 0) == WIN - r.plies
    # after X's first claim O loses (in 6 more plies)
    for _, x, o in g.children(0, 0):
        assert r.table.score(x, o) == -(WIN - 6)


def test_interrupted_solve_reports_what_it_has():
    g = KInARow(builtin_board("plane:3x3"), 3)

    def stop(stage, done, total):
        if stage.startswith("layers") and done == 4:
            raise KeyboardInterrupt

    r = solve_kinrow(g, progress=stop, symmetry=True)
    assert not r.complete and r.value is None and 0 < r.positions < 5478
    assert r.to_json()["complete"] is False


# ---- symmetry groups -------------------------------------------------------------------
def _lines(board: str, k: int):
    b = builtin_board(board)
    return b, board_lines(Atlas.of(b), k)


@pytest.mark.parametrize(("board", "k", "lines_order", "board_order"), [
    ("plane:3x3", 3, 8, 8), ("torus:3x3", 3, 432, 72), ("klein:3x3", 3, 12, 12), ("mobius:3x3", 3, 12, 12),
    ("torus:4x4", 4, 128, 128), ("plane:4x4", 4, 32, 8),
])
def test_group_orders(board, k, lines_order, board_order):
    b, lines = _lines(board, k)
    group = line_automorphisms(len(b.tiles), lines)
    assert group is not None and len(group) == lines_order
    maps = board_automorphisms(b)
    assert len(maps) == board_order
    assert all(preserves_lines(p, lines) for p, _ in maps)
    assert {p for p, _ in maps} <= set(group)
    # a group: closed under composition
    gs = set(group)
    assert all(compose(a, c) in gs for a in group[:20] for c in group[:20])
    assert len(closure(group[:6], len(b.tiles)) or []) <= lines_order


def test_line_group_against_brute_force():
    for board, k in [("cylinder:2x3", 2), ("plane:2x3", 2), ("mobius:2x3", 2)]:
        b, lines = _lines(board, k)
        brute = sorted(p for p in itertools.permutations(range(len(b.tiles))) if preserves_lines(p, lines))
        assert sorted(line_automorphisms(len(b.tiles), lines)) == brute


@pytest.mark.parametrize("board", [*SURFACES, "torus:4x4", "mobius:2x5", "klein:4x6", "cylinder:3x5"])
def test_board_automorphisms_agree_with_isomorphism_module(board):
    b = builtin_board(board)
    mine = set(board_automorphisms(b))
    assert mine == set(board_maps(b))
    for perm, turn in list(mine)[:10]:
        again = b.relabel(perm, turn)
        assert again.glue == b.glue


def test_symmetries_fall_back_to_board_group_when_lines_allow_everything():
    # k = 4 on a 3x3 board: no lines at all, every permutation is a symmetry of the lines
    b = builtin_board("plane:3x3")
    perms, group = game_symmetries(b, [], cap=1000)
    assert group == "board" and len(perms) == 8


def test_solve_through_the_rule_engine(capsys):
    """The generic path (memoised search over the rule engine's turns) gives the same acceptance figures."""
    code = main(["solve", "tictactoe", "--board", "plane:3x3", "--generic", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["method"] == "memoised search"
    assert (data["value"], data["positions"], data["terminal_positions"], data["games"], data["draws"]) == \
        ("draw", 5478, 958, 255168, 46080)
    assert data["wins"] == {"X": 131184, "O": 77904}


def test_turned_tiles_change_nothing(capsys):
    """Seed 000's tic-tac-toe board with turned tiles is the plane board: same lines, same figures."""
    from pathlib import Path

    board = Path(__file__).parent.parent / "examples" / "boards" / "tictactoe-turned.toml"
    code = main(["solve", "tictactoe", "--board", str(board), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and (data["positions"], data["games"], data["draws"]) == (5478, 255168, 46080)


@pytest.mark.parametrize("board", SURFACES)
def test_decided_draws_match_early_draw_detection(board):
    """The vectorised count of early draws equals KInARow.dead_draw summed over every reachable position."""
    g = KInARow(builtin_board(board), 3)
    seen = reachable(g)
    expect = sum(g.dead_draw(x, o) for x, o in seen)
    assert solve_kinrow(g, symmetry=True).decided_draws == expect == solve_kinrow(g, symmetry=False).decided_draws


@pytest.mark.parametrize("name", ["plane:3x3", "torus:3x3", "plane:4x4"])
def test_orbit_representatives_in_python_and_numpy_agree(name) -> None:
    """``canon_one`` (one key, plain Python, for play and reach) against ``canon`` (whole layers, numpy)."""
    import numpy as np

    from tapology.play.solving.solve import canon, canon_one, key_luts

    g = KInARow(builtin_board(name), 3)
    perms, _group = game_symmetries(g.board, g.lines)
    lut = key_luts(perms, g.n)
    rng = np.random.default_rng(7)
    xs = rng.integers(0, 1 << g.n, 400)
    os_ = rng.integers(0, 1 << g.n, 400) & ~xs
    keys = (xs | os_ << g.n).astype(np.int64)
    fast = canon(keys, lut)
    table = lut.tolist()  # canon_one's table, made once (not once per key)
    assert [canon_one(int(k), table, lut.shape[1]) for k in keys] == fast.tolist()
    assert all(int(f) <= int(k) for f, k in zip(fast, keys, strict=True))
