"""Placement mechanics of the rule language: line captures (reversi), passing when stuck, and score ends — their
meaning on the plane and across seams, the native engine against the Python chain walk, and the CSP backend."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tapology.errors import RuleError
from tapology.games import open_game
from tapology.games.registry import load_rules
from tapology.rules import native
from tapology.rules.cspenum import csp_chains
from tapology.rules.engine import PASS, RuleGame
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves


def _at(g: RuleGame, layout: str, to_move: int = 0):
    """A position from a layout of state names ('.' empty), board order."""
    toks = layout.split()
    states = [0 if t == "." else g.rules.state_index[t].value for t in toks]
    return g.make_position(g.board, states, [0] * len(states), to_move, 0)


def _changed(g: RuleGame, pos, label: str) -> dict[int, int]:
    new = g.parse_turn(pos, label).result
    return {t: s for t, (s, old) in enumerate(zip(new.board.states, pos.board.states, strict=True)) if s != old}


# ---- line captures -----------------------------------------------------------------------------------------

ROW = """
. w w w
. . . .
. . . .
. . . .
"""


def test_a_line_that_wraps_round_a_torus_is_closed_by_the_placed_disc() -> None:
    """On torus:4x4 the row . w w w comes back to the tile black places on: both ways round, the placed disc
    closes the run, and the three white discs turn (each once).  On the plane nothing closes it: no placement."""
    torus = open_game("reversi:4x4", "torus:4x4")
    pos = _at(torus, ROW)
    labels = [t.label for t in torus.turns(pos)]
    assert labels == ["1"]
    assert _changed(torus, pos, "1") == {0: 1, 1: 1, 2: 1, 3: 1}
    plane = open_game("reversi:4x4", "plane:4x4")
    assert [t.label for t in plane.turns(_at(plane, ROW))] != ["1"]


def test_every_direction_reads_the_position_before_any_run_turns() -> None:
    """On torus:4x4 the two diagonals from tile 1 meet again at tile 11.  Down-right, w w b, takes 6 and 11;
    down-left, w w ., closes nothing on the position before the turn — read after the first run had turned 11 it
    would take 8.  All runs are read on one position, so the order of the directions does not matter."""
    g = open_game("reversi:4x4", "torus:4x4")
    pos = _at(g, """
    . . . .
    . w . w
    . . w .
    . . . b
    """)
    assert _changed(g, pos, "1") == {0: 1, 5: 1, 10: 1}


def test_removing_the_line_capture_changes_the_counts() -> None:
    """Without its line capture reversi is a different game: the perft counts move (the mechanic is load-bearing)."""
    rules = load_rules("reversi")
    g = open_game("reversi")
    bare = dataclasses.replace(rules, moves=tuple(dataclasses.replace(m, lines=None) for m in rules.moves))
    h = RuleGame(bare)
    assert [g.perft(g.initial(), d) for d in (1, 2)] == [4, 12]
    assert h.perft(h.initial(), 1) == 60


def test_line_capture_errors_name_the_entry() -> None:
    base = """
name = "x"
players = ["a", "b"]
[states]
empty = 0
A = { value = 1, owner = "a", kind = "d" }
B = { value = 2, owner = "b", kind = "d" }
[[move]]
name = "place"
pattern = "*empty => *own:d"
"""
    with pytest.raises(RuleError, match=r"lines: unknown key 'ovr'"):
        parse_rules(base + 'lines = { ovr = "foe", until = "own", becomes = "own:d" }\n', "x.toml")
    with pytest.raises(RuleError, match=r"becomes must name one state"):
        parse_rules(base + 'lines = { over = "foe", until = "own", becomes = "@" }\n', "x.toml")
    with pytest.raises(RuleError, match=r"directions"):
        parse_rules(base + 'lines = { over = "foe", until = "own", becomes = "own:d", directions = "all" }\n', "x.toml")
    with pytest.raises(RuleError, match=r"pass 'sometimes'"):
        parse_rules('pass = "sometimes"\n' + base, "x.toml")


# ---- passing and score ends -------------------------------------------------------------------------------------


def test_a_player_without_a_placement_passes_and_the_game_goes_on() -> None:
    g = open_game("reversi:4x4")
    pos = _at(g, """
    b b b b
    b b b b
    b w . .
    . . . .
    """, to_move=1)
    # white flanks nothing anywhere: its only turn is the pass; black then moves
    assert [t.label for t in g.turns(pos)] == [PASS]
    after = g.parse_turn(pos, PASS).result
    assert after.to_move == 0 and after.board.states == pos.board.states
    assert g.turns(after)
    assert g.outcome(pos) is None


def test_when_nobody_can_place_the_majority_wins() -> None:
    g = open_game("reversi:4x4")
    pos = _at(g, """
    b b b b
    b b b b
    b b b b
    w w w .
    """)
    assert g.turns(pos) == []
    assert g.outcome(pos) == {"black": 1, "white": -1}
    even = _at(g, """
    b b b b
    b b b b
    w w w w
    w w w w
    """)
    assert g.outcome(even) == {"black": 0, "white": 0}


def test_perft_counts_the_pass_as_a_turn() -> None:
    """RBG counts reversi's pass as a turn; so does tapology: 4x4 perft 12 = 55112 (tests/data/perft/reversi.perft)
    needs passes.  Here the Python counter and the native one agree on a position whose player must pass."""
    g = open_game("reversi:4x4")
    pos = _at(g, """
    b b b b
    b b b b
    b w . .
    . . . .
    """, to_move=1)
    for d in (1, 2, 3):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want
    assert count_leaves(g, pos, 1) == 1


# ---- backends ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("board", ["plane:4x4", "torus:4x4", "klein:4x4", "mobius:4x4"])
def test_csp_and_native_turns_equal_the_chain_walk_on_sampled_positions(board: str) -> None:
    """Depth 1 (the turns) and depth 2 (the turns of each result) of sampled positions: python-constraint's
    solutions and the native engine's keys equal the chain walk's."""
    g = open_game("reversi:4x4", board)
    ch = g.chains(g.board)
    rng = random.Random(17)
    pos = g.initial()
    for _ply in range(10):
        turns = g.turns(pos)
        if not turns:
            break
        codes = g.codes(pos)
        want = set(ch.turns(codes, pos.to_move))
        assert set(csp_chains(ch, codes, pos.to_move)) == want
        assert set(native.turn_keys(ch, codes, pos.to_move)) == want
        for t in turns:
            c2 = g.codes(t.result)
            assert set(csp_chains(ch, c2, t.result.to_move)) == set(ch.turns(c2, t.result.to_move))
        pos = rng.choice(turns).result


@pytest.mark.parametrize("board", ["plane:4x4", "torus:4x4", pytest.param("klein:4x4", marks=pytest.mark.slow)])
def test_z3_turns_equal_the_chain_walk_along_a_game(board: str) -> None:
    """z3 models line captures (a run's length as constraints over the tiles of each direction): its turns equal
    the chain walk's along a whole random game, passes included."""
    g = open_game("reversi:4x4", board)
    rng = random.Random(board)
    pos = g.initial()
    while True:
        turns = g.turns(pos)
        assert [(t.label, t.result) for t in g.turns(pos, "z3")] == [(t.label, t.result) for t in turns]
        if not turns:
            break
        pos = rng.choice(turns).result


# ---- gravity -------------------------------------------------------------------------------------------------------

def test_a_disc_rests_on_the_bottom_row_or_on_another_disc() -> None:
    g = open_game("connect4")
    pos = g.initial()
    assert [t.label for t in g.turns(pos)] == [str(t) for t in range(36, 43)]
    after = g.parse_turn(pos, "39").result
    assert sorted(t.label for t in g.turns(after)) == sorted([*(str(t) for t in range(36, 43) if t != 39), "32"])


def test_without_gravity_connect4_is_another_game() -> None:
    rules = load_rules("connect4")
    free = dataclasses.replace(rules, moves=tuple(dataclasses.replace(m, fall=None) for m in rules.moves))
    h = RuleGame(free)
    assert h.perft(h.initial(), 1) == 42
    assert open_game("connect4").perft(open_game("connect4").initial(), 1) == 7


@pytest.mark.parametrize("board", ["torus:6x7", "klein:6x7"])
def test_boards_where_a_disc_would_fall_forever_are_refused(board: str) -> None:
    with pytest.raises(RuleError, match="fall forever from tile 1"):
        open_game("connect4", board)


def test_a_row_wraps_round_the_cylinder() -> None:
    """Four in a row across the cylinder's seam (columns 6, 7, 1, 2 of the bottom row) wins there, not on the
    plane; on the Möbius strip the bottom row's ends meet the top row's, mirrored."""
    layout = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    y y y . . . .
    r r . . . r r
    """
    for board, winner in (("plane:6x7", None), ("cylinder:6x7", {"red": 1, "yellow": -1}), ("mobius:6x7", None)):
        g = open_game("connect4", board)
        assert g.outcome(_at(g, layout, to_move=1)) == winner, board


def test_gravity_needs_an_origin_that_accepts_states() -> None:
    text = """
name = "x"
players = ["a", "b"]
[states]
empty = 0
A = { value = 1, owner = "a", kind = "d" }
[[move]]
name = "drop"
pattern = "*any => *own:d"
fall = [0, -1]
"""
    with pytest.raises(RuleError, match="fall needs an origin that accepts states"):
        parse_rules(text, "x.toml")


# ---- connection goals ----------------------------------------------------------------------------------------------

def test_a_chain_joining_the_two_sides_wins() -> None:
    """On hex-rhombus:3x3 each row sits half a cell left of the row above, so tile j touches tiles j and j + 1 of
    the row below.  Red joins the top and bottom rows with a chain down one column; a chain that looks straight
    in a drawing with upright rows but skips a neighbour does not join them."""
    g = open_game("hex:3x3")
    win = _at(g, """
    . r .
    . r .
    . r .
    """, to_move=1)
    assert g.outcome(win) == {"red": 1, "blue": -1}
    apart = _at(g, """
    . r .
    r . .
    r . .
    """, to_move=1)
    assert g.outcome(apart) is None
    blue = _at(g, """
    . . .
    b b b
    . . .
    """)
    assert g.outcome(blue) == {"red": -1, "blue": 1}


def test_sides_are_read_through_the_charts() -> None:
    """edge:SIDE is the tiles with no neighbour on that side: on the rhombus each is one row or column."""
    g = open_game("hex:4x4")
    named = {k: sorted(int(g.board.tiles[t]) for t in v) for k, v in g.regions.items()}
    assert named == {"from-red": [1, 2, 3, 4], "to-red": [13, 14, 15, 16], "from-blue": [1, 5, 9, 13],
                     "to-blue": [4, 8, 12, 16]}


@pytest.mark.parametrize("board", ["hex-cylinder:5x5", "hex-mobius:5x5", "hex-torus:6x6"])
def test_boards_where_a_side_is_taped_away_are_refused(board: str) -> None:
    with pytest.raises(RuleError, match="is empty there"):
        open_game("hex:5x5", board)


def test_without_the_connection_goal_hex_never_ends_early() -> None:
    rules = load_rules("hex:3x3")
    bare = dataclasses.replace(rules, ends=tuple(e for e in rules.ends if e.kind != "connect"))
    h = RuleGame(bare)
    g = open_game("hex:3x3")
    assert h.perft(h.initial(), 8) == 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2
    assert g.perft(g.initial(), 8) == 207360  # RBG's count: games end by connection


# ---- lines of exactly k ------------------------------------------------------------------------------------------

def test_a_ring_of_five_round_a_torus_is_no_line_of_exactly_five() -> None:
    """On torus:5x5 a full row is a ring: free style counts five in a row, standard wants the tiles beyond both
    ends not white — beyond each end is the ring's own other end."""
    ring = """
    w w w w w
    b b b b .
    . . . . .
    . . . . .
    . . . . .
    """
    for name, want in (("gomoku-free-style:5x5", {"white": 1, "black": -1}), ("gomoku-standard:5x5", None)):
        g = open_game(name, "torus:5x5")
        assert g.outcome(_at(g, ring, to_move=1)) == want, name
    plane = open_game("gomoku-standard:5x5")
    assert plane.outcome(_at(plane, ring, to_move=1)) == {"white": 1, "black": -1}


def test_an_overline_wins_free_style_only() -> None:
    six = """
    w w w w w w
    b b b b . .
    . . . . b .
    . . . . . .
    . . . . . .
    . . . . . .
    """
    free, std = open_game("gomoku-free-style:6x6"), open_game("gomoku-standard:6x6")
    assert free.outcome(_at(free, six, to_move=1)) == {"white": 1, "black": -1}
    assert std.outcome(_at(std, six, to_move=1)) is None


# ---- several placements in one turn ------------------------------------------------------------------------------

def test_two_stones_are_one_turn_in_either_order() -> None:
    """Connect6: black opens with one stone (the link to a second is followed only once a stone stands), then each
    turn is two stones anywhere, listed once as the pair."""
    g = open_game("connect6:5x5")
    first = g.turns(g.initial())
    assert len(first) == 25 and all("," not in t.label for t in first)
    pos = g.parse_turn(g.initial(), "13").result
    turns = g.turns(pos)
    assert len(turns) == 24 * 23 // 2
    assert "1,2" in {t.label for t in turns} and "2,1" not in {t.label for t in turns}
    both = g.parse_turn(pos, "1,2").result
    assert [both.board.states[t] for t in (0, 1, 12)] == [2, 2, 1]


def test_without_the_condition_the_opening_turn_would_have_two_stones() -> None:
    rules = load_rules("connect6:5x5")
    moves = tuple(dataclasses.replace(m, links=tuple(dataclasses.replace(lk, conditions=()) for lk in m.links))
                  for m in rules.moves)
    h = RuleGame(dataclasses.replace(rules, moves=moves))
    assert h.perft(h.initial(), 1) == 25 * 24 // 2
    g = open_game("connect6:5x5")
    assert g.perft(g.initial(), 2) == 6900


def test_csp_finds_the_same_pairs() -> None:
    g = open_game("connect6:4x4")
    pos = g.parse_turn(g.initial(), "6").result
    ch = g.chains(pos.board)
    assert set(csp_chains(ch, g.codes(pos), pos.to_move)) == set(ch.turns(g.codes(pos), pos.to_move))


def test_yavalath_three_in_a_row_loses_and_four_wins() -> None:
    g = open_game("yavalath")
    three = g.make_position(g.board, [1 if t in (27, 28, 29) else 2 if t in (0, 1) else 0 for t in range(61)],
                            [0] * 61, 1, 5)
    assert g.outcome(three) == {"white": -1, "black": 1}
    four = g.make_position(g.board, [1 if t in (27, 28, 29, 30) else 2 if t in (0, 1, 2) else 0 for t in range(61)],
                           [0] * 61, 1, 7)
    assert g.outcome(four) == {"white": 1, "black": -1}


# ---- captures by liberties ---------------------------------------------------------------------------------------

def test_a_group_without_liberties_is_captured_and_suicide_is_refused() -> None:
    g = open_game("go-nopass:3x3")
    pos = _at(g, """
    w b .
    b . .
    . . .
    """, to_move=1)
    # white at 2 would have no liberty and captures nothing: suicide, not a turn; black at 5 takes nothing yet
    assert "2" not in {t.label for t in g.turns(pos)}
    cap = _at(g, """
    . w b
    . b .
    . . .
    """)
    # black at 1 takes the white stone at 2 (its only liberty)
    assert _changed(g, cap, "1") == {0: 1, 1: 0}


def test_a_group_that_meets_itself_round_a_torus_is_one_group() -> None:
    """On torus:3x3 a full row of white is one group (it meets itself across the seam) whose neighbours are the
    rows above and below it — the bottom row is above it across the seam.  Black at 9 takes its last liberty and
    the whole ring."""
    g = open_game("go-nopass:3x3", "torus:3x3")
    pos = _at(g, """
    w w w
    b b b
    b b .
    """)
    assert _changed(g, pos, "9") == {0: 0, 1: 0, 2: 0, 8: 1}
    # on the plane the white row touches only the black rows: black at 9 captures nothing and has no liberty
    plane = open_game("go-nopass:3x3")
    assert "9" not in {t.label for t in plane.turns(_at(plane, """
    w w w
    b b b
    b b .
    """))}


def test_area_scoring_counts_stones_and_surrounded_points() -> None:
    g = open_game("go-nopass:3x3")
    pos = _at(g, """
    . b w
    b b w
    w w .
    """)
    from tapology.rules.ends import board_scores

    end = next(e for e in g.rules.ends if e.kind == "no-turns")
    assert board_scores(g.compiled(g.board), g.codes(pos), end, 2) == [4, 5]


def test_go_passes_at_any_time_and_two_passes_in_a_row_end_it() -> None:
    g = open_game("go:3x3")
    pos = g.initial()
    assert PASS in {t.label for t in g.turns(pos)} and len(g.turns(pos)) == 10
    once = g.parse_turn(pos, PASS).result
    assert g.outcome(once) is None
    twice = g.parse_turn(once, PASS).result
    assert g.turns(twice) == [] and g.outcome(twice) == {"black": 0, "white": 0}
    stone = g.parse_turn(g.parse_turn(pos, "5").result, PASS).result
    assert g.outcome(stone) is None  # a stone between the passes: not two in a row
    assert g.outcome(g.parse_turn(stone, PASS).result) == {"black": 1, "white": -1}  # black's area: the board


def test_csp_replays_captures_and_z3_says_it_does_not_model_them() -> None:
    g = open_game("go-nopass:3x3")
    pos = _at(g, """
    . w b
    . b .
    . . .
    """)
    ch = g.chains(pos.board)
    assert set(csp_chains(ch, g.codes(pos), 0)) == set(ch.turns(g.codes(pos), 0))
    with pytest.raises(RuleError, match="captures by liberties"):
        g.turns(pos, "z3")
