"""The shipped games and the engine's rules: lines on topologies, oriented pieces, chains, tapes, royal pieces."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tapology.games import SHIPPED, load_rules, open_game
from tapology.model.atlas import Atlas
from tapology.model.lines import board_lines
from tapology.model.walk import step
from tapology.rules import RuleError, RuleGame, TurnError, parse_rules
from tapology.rules.ends import has_line


@pytest.mark.parametrize(("board", "count"), [("torus:3x3", 12), ("plane:3x3", 8)])
def test_lines_on_topologies(board: str, count: int) -> None:
    g = open_game("tictactoe", board)
    comp = g.compiled(g.board)
    assert len(comp.lines(3)) == count
    assert comp.lines(3) == board_lines(Atlas.of(g.board), 3)
    assert all(len(set(line)) == 3 for line in comp.lines(3))


def test_tictactoe_first_line_ends_the_game_and_full_board_draws() -> None:
    g = open_game("tictactoe")
    pos = g.initial()
    for label in ["1", "4", "2", "5", "3"]:
        pos = g.parse_turn(pos, label).result
    assert g.outcome(pos) == {"X": 1, "O": -1}
    assert g.turns(pos) == []
    pos = g.initial()
    for label in ["1", "2", "3", "5", "4", "6", "8", "7", "9"]:
        pos = g.parse_turn(pos, label).result
    assert g.outcome(pos) == {"X": 0, "O": 0}


def test_parse_turn_rejects_illegal_labels() -> None:
    g = open_game("checkers")
    pos = g.initial()
    assert g.parse_turn(pos, "18-25").label == "18-25"
    with pytest.raises(TurnError, match="'18-26'"):
        g.parse_turn(pos, "18-26")


def test_tictactoe_mnk_and_square_boards() -> None:
    r = load_rules("tictactoe:4,4,3")
    g = RuleGame(r)
    assert g.board_name == "plane:4x4" and len(g.initial().board.tiles) == 16
    assert g.perft(g.initial(), 2) == 16 * 15
    for board in ("klein:3x3", "mobius:3x3", "cylinder:4x4", "torus:4x4"):
        g = open_game("tictactoe", board)
        pos = g.initial()
        rng = random.Random(3)
        while g.turns(pos):
            pos = rng.choice(g.turns(pos)).result
        assert g.outcome(pos) is not None


def test_checkers_on_a_cylinder_runs_and_wraps() -> None:
    g = open_game("checkers", "cylinder:8x8")
    pos = g.initial()
    # on the cylinder the man on the left edge can also step across the seam
    labels = {t.label for t in g.turns(pos)}
    plane = {t.label for t in open_game("checkers").turns(open_game("checkers").initial())}
    assert plane < labels
    rng = random.Random(7)
    for _ in range(80):
        ts = g.turns(pos)
        if not ts:
            break
        pos = rng.choice(ts).result


def _checkers_without_layout(board: str) -> RuleGame:
    r = load_rules("checkers")
    return RuleGame(dataclasses.replace(r, initial=dataclasses.replace(r.initial, layout=())), board)


def test_checker_round_a_mobius_strip_comes_back_facing_the_other_way() -> None:
    rows, cols = 12, 4
    g = _checkers_without_layout(f"mobius:{rows}x{cols}")
    n = rows * cols
    states, frames = [0] * n, [0] * n
    man = 6 * cols  # row 6, column 0: a white man facing up
    states[man] = 2
    states[0 * cols + 3] = 3  # a black king far away, to keep the game going
    pos = g.make_position(g.board, states, frames, 1, 0)
    at = g.compiled(g.board).atlas
    t = man
    for _ in range(cols):
        col = t % cols
        ahead = [x for x in g.turns(pos) if x.label.startswith(f"{t + 1}-")
                 and (int(x.label.split("-")[1]) - 1) % cols == (col + 1) % cols]
        assert len(ahead) == 1
        t = int(ahead[0].label.split("-")[1]) - 1
        pos = g.turns(ahead[0].result)[0].result  # black's king moves somewhere
        assert pos.board.states[t] == 2
    assert t % cols == man % cols  # back in its column, gone once round
    frame = pos.extra[t]
    assert frame == 2  # its forward is reversed: "up" in its frame is down on the strip
    # stepping forward in its own frame goes down the rows now (the next row below, seen on the board)
    fwd = step(at, t, frame, (0, 1))
    assert fwd is not None and fwd[0] // cols == t // cols + 1
    dests = {int(x.label.split("-")[1]) - 1 for x in g.turns(pos) if x.label.startswith(f"{t + 1}-")}
    below = {at.at(t, (1, -1))[0], at.at(t, (-1, -1))[0]}  # down-right and down-left in the tile's chart
    assert dests == below


def test_checkers_rules_mandatory_capture_multijump_and_crowning() -> None:
    g = _checkers_without_layout("plane:8x8")
    n = 64

    def pos_of(cells: dict[tuple[int, int], int], to_move: int):
        states, frames = [0] * n, [0] * n
        for (r, c), s in cells.items():
            states[r * 8 + c] = s
            frames[r * 8 + c] = 2 if s == 1 else 0
        return g.make_position(g.board, states, frames, to_move, 0)

    # white man at (6,0); black men at (5,1) and (3,3): the double jump is the only turn
    pos = pos_of({(6, 0): 2, (5, 1): 1, (3, 3): 1, (0, 7): 1}, 1)
    assert [t.label for t in g.turns(pos)] == ["49x35x21"]
    # crowning ends the turn: a white man jumping into the far row stops even if a jump would follow for a king
    pos = pos_of({(2, 2): 2, (1, 3): 1, (1, 5): 1, (5, 5): 1}, 1)
    ts = {t.label: t for t in g.turns(pos)}
    assert list(ts) == ["19x5"]
    assert ts["19x5"].result.board.states[4] == 4  # a white king on tile 5, its turn over
    # no capture: plain steps for both men
    pos = pos_of({(6, 0): 2, (0, 7): 1}, 1)
    assert sorted(t.label for t in g.turns(pos)) == ["49-42"]


def test_chinese_checkers_start_turns_listed_each_once() -> None:
    g = open_game("chinese-checkers")
    assert len(g.board.tiles) == 121
    pos = g.initial()
    ts = g.turns(pos)
    labels = [t.label for t in ts]
    assert len(labels) == len(set(labels)) == 14
    assert len({t.result for t in ts}) == len(ts)
    assert sum(1 for t in ts if t.label.split("-")[0] in {"116", "117", "118"}) == 6  # jumps over the front row


def test_chinese_checkers_jump_chains_are_listed_once_whatever_the_path() -> None:
    g = open_game("chinese-checkers")
    pos = g.initial()
    rng = random.Random(5)
    for _ in range(14):
        pos = rng.choice(g.turns(pos)).result
    ts = g.turns(pos)
    assert len({t.label for t in ts}) == len(ts)
    assert len({t.result for t in ts}) == len(ts)
    assert any(t.label.count("-") >= 2 for t in ts)


LINE_COUNT_BOARDS = ["plane:3x3", "torus:3x3", "klein:3x3"]


@pytest.mark.parametrize("board", LINE_COUNT_BOARDS)
def test_seed_line_counting_agrees_with_lines_on_the_topology(board: str) -> None:
    from pathlib import Path

    ex = Path(__file__).resolve().parent.parent / "examples" / "games" / "line-counting.toml"
    counting = RuleGame(parse_rules(ex.read_text(), str(ex)), board)
    lines = open_game("tictactoe", board)
    rng = random.Random(board)
    chains = counting.chains(counting.board)
    for _ in range(150):
        states = [rng.choice((0, 1, 2)) for _ in counting.board.tiles]
        pa = counting.make_position(counting.board, states, [0] * len(states), 0, 0)
        pb = lines.make_position(lines.board, states, [0] * len(states), 0, 0)
        got = {p: chains.longest(counting.codes(pa), m, i) >= 2
               for i, p, m in ((0, "X", "count"), (1, "O", "count-o"))}
        got = {p: v or chains.longest(counting.codes(pa), m, i) >= 2
               for (p, v), (i, m) in zip(got.items(), ((0, "count-diagonal"), (1, "count-o-diagonal")), strict=True)}
        want = {p: has_line(lines.compiled(lines.board), lines.codes(pb), lines.rules.ends[0], i)
                for i, p in enumerate(("X", "O"))}
        assert got == want, states
        assert (counting.outcome(pa) is None) == (lines.outcome(pb) is None) or not any(want.values())


def test_seed_counting_chain_and_cleanup_as_written() -> None:
    from pathlib import Path

    ex = Path(__file__).resolve().parent.parent / "examples" / "games" / "line-counting.toml"
    g = RuleGame(parse_rules(ex.read_text(), str(ex)), "torus:3x3")
    chains = g.chains(g.board)
    # a full row of X on the 3-torus: the chain stops after two moves (the third tile would be counted twice)
    states = [1, 1, 1, 0, 2, 0, 2, 0, 0]
    codes = [s * g.h for s in states]
    assert chains.longest(codes, "count", 0) == 2
    # the clean-up turns every 3 back into 1, from anywhere, to a fixpoint
    work = [3 * g.h, 3 * g.h, 1 * g.h, 0, 4 * g.h, 0, 2 * g.h, 0, 0]
    chains.run_cleanups(work, 0, "turn")
    assert [c // g.h for c in work] == [1, 1, 1, 0, 2, 0, 2, 0, 0]


def test_tictactopology_tapes_only_while_consistent_and_reads_lines_on_the_new_board() -> None:
    from pathlib import Path

    from tapology.model.tape import parse_tape

    g = open_game("tictactopology")
    pos = g.initial()
    ts = g.turns(pos)
    tapes = [t for t in ts if t.label.startswith("tape ")]
    assert len(ts) - len(tapes) == 9 and tapes
    assert len({(t.result.board.glue, t.result.board.extra) for t in tapes}) == len(tapes)
    for t in tapes[:20]:
        at = Atlas.of(pos.board)
        assert at.tape([parse_tape(t.label[5:], pos.board)]) is None
        assert g.parse_turn(pos, t.label).result == t.result
    # the seed's L-shaped board: taping the top of 1 to the right of 3 is refused, so it is not a turn
    lboard = Path(__file__).resolve().parent.parent / "examples" / "boards" / "L.toml"
    gl = open_game("tictactopology", str(lboard))
    labels = {t.label for t in gl.turns(gl.initial())}
    assert "tape 1.up=3.right" not in labels and any(lab.startswith("tape ") for lab in labels)
    with pytest.raises(TurnError):
        gl.parse_turn(gl.initial(), "tape 1.up=3.right")
    # a taping can complete a line: X on 1 and 3, O elsewhere; after taping, some line through new neighbours wins
    pos = g.make_position(g.board, [1, 2, 1, 0, 0, 0, 2, 0, 0], [0] * 9, 0, 4)
    assert g.outcome(pos) is None
    winners = [t for t in g.turns(pos) if t.label.startswith("tape ") and g.outcome(t.result) == {"X": 1, "O": -1}]
    assert winners == []  # a taping adds no mark; X still needs three marks
    pos = g.make_position(g.board, [1, 0, 0, 2, 2, 0, 0, 1, 1], [0] * 9, 0, 5)
    wins = [t for t in g.turns(pos) if t.label.startswith("tape ") and g.outcome(t.result) is not None]
    assert wins, "taping 9's right to 7's left (a cylinder row) should give X the bottom line 7 8 9 plus a wrap"


ROYAL = """
name = "royal-test"
players = ["white", "black"]
board = "plane:3x3"
royal = ["K"]
[states]
empty = 0
K = { value = 1, owner = "white", kind = "king" }
R = { value = 2, owner = "black", kind = "rook" }
[[move]]
name = "king-step"
player = "white"
orientations = "all"
pattern = "*own:king empty|foe => *empty @"
[[move]]
name = "king-diagonal"
player = "white"
orientations = "all"
cells = [[0, 0, "own:king", "empty"], [1, 1, "empty|foe", "@"]]
[[move]]
name = "rook-slide"
player = "black"
orientations = "all"
repeat = true
pattern = "*own:rook empty|foe => *empty @"
[[end]]
kind = "no-turns"
result = "loss"
"""


def test_a_turn_may_not_leave_the_royal_piece_capturable() -> None:
    g = RuleGame(parse_rules(ROYAL, "royal.toml"))
    # white king on 7 (bottom left), black rook on 3 (top right): the king may not step into row 1 or column 3
    pos = g.make_position(g.board, [0, 0, 2, 0, 0, 0, 1, 0, 0], [0] * 9, 0, 0)
    labels = sorted(t.label for t in g.turns(pos))
    assert labels == ["7-4", "7-5", "7-8"]
    # the rook slides: one turn per reachable tile, listed once
    pos_b = g.make_position(g.board, [0, 0, 2, 0, 0, 0, 1, 0, 0], [0] * 9, 1, 0)
    assert sorted(t.label for t in g.turns(pos_b)) == ["3-1", "3-2", "3-6", "3-9"]


# the positions of each game whose turns are parsed back: the start and 5 more along a random game; connect6 lists
# 64,000 two-stone turns a position (seconds each), so the default run reads its first 3 positions, -m slow all 6
# connect6: the first turn places one stone, every later one two (tens of thousands of turns a ply on 19x19): the default
# run parses back both kinds (two positions), -m slow six positions
# run parses back both kinds (two positions), -m slow six positions; arimaa-fixed-position lists thousands of turns of
# play a position (seconds each in Python): the default run reads one position of each side, -m slow six
SHALLOW = {"connect6", "arimaa-fixed-position"}
PARSE_BACK = [pytest.param(name, 2 if name in SHALLOW else 6, id=name) for name in SHIPPED] + [
    pytest.param(name, 6, id=f"{name}-deep", marks=pytest.mark.slow) for name in sorted(SHALLOW)]


@pytest.mark.parametrize(("name", "positions"), PARSE_BACK)
def test_turn_labels_parse_back_for_every_game(name: str, positions: int) -> None:
    rng = random.Random(1)
    g = open_game(name)
    pos = g.initial()
    for _ in range(positions):
        ts = g.turns(pos)
        if not ts:
            break
        # every turn where there are few; a sample of 40 where there are thousands (connect6's two-stone turns)
        for t in ts if len(ts) <= 40 else rng.sample(ts, 40):
            assert g.parse_turn(pos, t.label) == t
        pos = rng.choice(ts).result


@pytest.mark.parametrize(("board", "col"), [("plane:8x8", 2), ("cylinder:8x8", 6)])
def test_two_paths_round_a_loop_are_one_turn(board: str, col: int) -> None:
    """A king that can take four men going round either way ends on its own tile: one turn, listed once
    (on the cylinder both paths wrap across the seam)."""
    g = _checkers_without_layout(board)
    states, frames = [0] * 64, [0] * 64

    def at(r: int, c: int) -> int:
        return r * 8 + c % 8

    states[at(4, col)] = 4  # white king
    for r, c in ((3, col + 1), (3, col + 3), (5, col + 3), (5, col + 1)):
        states[at(r, c)] = 1
        frames[at(r, c)] = 2
    states[at(0, col + 6)] = 1
    frames[at(0, col + 6)] = 2
    pos = g.make_position(g.board, states, frames, 1, 0)
    ts = g.turns(pos)
    assert len(ts) == 1
    start = str(at(4, col) + 1)
    label = ts[0].label
    assert label.startswith(start + "x") and label.endswith("x" + start) and label.count("x") == 4
    assert sum(ts[0].result.board.states[i] == 1 for i in range(64)) == 1
    assert sorted(t.label for t in g.turns(pos, "csp")) == [label]


CASTLE = ROYAL + """
[[move]]
name = "king-leap"
player = "white"
orientations = "identity"
safe = [[0, 0], [1, 0]]
pattern = "*own:king empty empty => *empty _ @"
"""


def test_safe_cells_forbid_passing_through_attack() -> None:
    g = RuleGame(parse_rules(CASTLE, "castle.toml"), "plane:4x4")
    # king on 13 (bottom left); the leap 13-15 passes 14
    free = g.make_position(g.board, [0, 0, 0, 2] + [0] * 8 + [1, 0, 0, 0], [0] * 16, 0, 0)  # rook on 4
    assert "13-15" in {t.label for t in g.turns(free)}
    # a rook on 2 looks down column 2 at tile 14: the leap would pass through attack
    through = g.make_position(g.board, [0, 2] + [0] * 10 + [1, 0, 0, 0], [0] * 16, 0, 0)
    labels = {t.label for t in g.turns(through)}
    assert "13-15" not in labels and "13-9" in labels


MOVE_CLEANUP = """
name = "flash"
players = ["A", "B"]
board = "plane:1x4"
[states]
empty = 0
a = { value = 1, owner = "A" }
b = { value = 2, owner = "B" }
spark = 3
[[move]]
name = "drop"
pattern = "*empty => *spark"
[[cleanup]]
name = "settle"
when = "move"
player = "A"
pattern = "*spark => *a"
[[cleanup]]
name = "settle-b"
when = "move"
player = "B"
pattern = "*spark => *b"
[[end]]
kind = "no-turns"
result = "draw"
"""


def test_move_cleanups_run_after_each_move_for_the_mover() -> None:
    g = RuleGame(parse_rules(MOVE_CLEANUP, "flash.toml"))
    pos = g.initial()
    ts = g.turns(pos)
    assert [t.label for t in ts] == ["1", "2", "3", "4"]
    assert ts[0].result.board.states == (1, 0, 0, 0)
    assert g.turns(ts[0].result)[0].result.board.states == (1, 2, 0, 0)
    assert [t.result for t in g.turns(pos, "csp")] == [t.result for t in ts]
    with pytest.raises(RuleError, match="when = \"move\""):
        g.turns(pos, "z3")
