"""Block moves (docs/rules.md, "Block moves"): a cell that gets what another cell of the pattern held before the move
— pentago's quarter turn of a quadrant, a block slid across a seam — against a naive pentago written here, on the
plane and across the seams of a torus, with the frames of oriented pieces carried."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tapology.errors import RuleError
from tapology.game import Position
from tapology.games.registry import open_game
from tapology.rules import native
from tapology.rules.engine import RuleGame
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves
from tapology.rules.position import position_from_table

CENTRES = ((1, 1), (1, 4), (4, 1), (4, 4))  # (row, column) of RBG's four quadrants, from the top left


def _lines5(board: list[int], who: int) -> bool:
    """Five of ``who`` in a row on the 6x6 plane (RBG's winGlobal)."""
    for r in range(6):
        for c in range(6):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= y < 6 and 0 <= x < 6 and board[6 * y + x] == who for y, x in cells):
                    return True
    return False


def _turned(board: list[int], centre: tuple[int, int], clockwise: bool) -> list[int]:
    out = list(board)
    r0, c0 = centre
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            # clockwise on the drawing: (dr, dc) -> (dc, -dr)
            nr, nc = (dc, -dr) if clockwise else (-dc, dr)
            out[6 * (r0 + nr) + c0 + nc] = board[6 * (r0 + dr) + c0 + dc]
    return out


def naive_pentago(board: list[int], who: int) -> tuple[set[tuple[int, ...]], int]:
    """(the distinct boards a turn of ``who`` gives, the number of ways RBG counts): place on an empty tile; unless
    that makes five, turn one of four quadrants either way."""
    results: set[tuple[int, ...]] = set()
    ways = 0
    for t in range(36):
        if board[t]:
            continue
        placed = list(board)
        placed[t] = who
        if _lines5(placed, who):
            results.add(tuple(placed))
            ways += 1
            continue
        for centre in CENTRES:
            for cw in (True, False):
                results.add(tuple(_turned(placed, centre, cw)))
                ways += 1
    return results, ways


def test_pentago_turns_equal_a_naive_pentago_along_random_games() -> None:
    g = open_game("pentago")
    rng = random.Random(17)
    checked = wins = 0
    for _game in range(2):
        pos = g.initial()
        while g.outcome(pos) is None:
            turns = g.turns(pos)
            if pos.ply % 3 == 2:
                codes = [c // g.h for c in g.codes(pos)]
                results, ways = naive_pentago(codes, pos.to_move + 1)
                assert {tuple(c // g.h for c in g.codes(t.result)) for t in turns} == results
                assert g.perft(pos, 1, rbg=True) == ways
                checked += 1
            pos = rng.choice(turns).result
        wins += g.outcome(pos)["white"] != 0
    assert checked > 5 and wins


def test_turning_an_empty_quadrant_is_a_turn_and_a_win_by_placement_has_no_turn() -> None:
    g = open_game("pentago")
    pos = g.initial()
    # 288 ways on the empty board (every quadrant turned either way, three of them empty), 36 distinct boards
    assert g.perft(pos, 1, rbg=True) == 288
    assert g.perft(pos, 1) == 36
    # four white marbles on the top row, black elsewhere: placing the fifth wins at once, with no turn after it
    layout = ["."] * 36
    for t in (0, 1, 2, 3):
        layout[t] = "w"
    for t in (14, 20, 26, 33):
        layout[t] = "b"
    pos = position_from_table(g, {"layout": " ".join(layout), "to_move": "white"}, "test")
    codes = [c // g.h for c in g.codes(pos)]
    results, ways = naive_pentago(codes, 1)
    placed = list(codes)
    placed[4] = 1
    fives = [t for t in g.turns(pos) if [c // g.h for c in g.codes(t.result)][:5] == [1] * 5]
    assert len(fives) == 1 and [c // g.h for c in g.codes(fives[0].result)] == placed  # no quadrant turned after it
    assert tuple(placed) in results and g.outcome(fives[0].result) == {"white": 1, "black": -1}
    assert g.perft(pos, 1, rbg=True) == ways == 27 * 8 + 1  # 28 empty tiles: 27 placements turned 8 ways, one that wins


def test_a_turn_giving_both_players_five_is_a_draw() -> None:
    g = open_game("pentago")
    # the top-left quadrant's left column is white, its right column black: a quarter turn clockwise makes its top
    # row white and its bottom row black, completing white's top row and black's third row at once
    rows = [
        "w . b w w .",
        "w . b . . .",
        "w . b b b .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    ]
    pos = position_from_table(g, {"layout": "\n".join(rows), "to_move": "white"}, "test")
    both = [t for t in g.turns(pos) if [c // g.h for c in g.codes(t.result)][:18:6] == [1, 0, 2]]
    assert both and all(g.outcome(t.result) == {"white": 0, "black": 0} for t in both)  # a draw, as RBG says


BLOCK = """
name = "block-slide"
grid = "square"
players = ["a", "b"]
board = "torus:4x4"
[states]
empty = 0
p = { value = 1, owner = "a", kind = "piece", symmetry = "fix:0,1" }
q = { value = 2, owner = "a", kind = "piece" }
[[move]]
name = "slide"
orientations = "identity"
to = [1, 0]
cells = [
  { at = [0, 0], before = "own", after = "empty" },
  { at = [1, 0], before = "any", from = [0, 0] },
  { at = [0, 1], before = "any", after = "empty" },
  { at = [1, 1], before = "any", from = [0, 1] },
]
"""


def test_a_block_slides_across_a_seam_with_its_frames() -> None:
    g = RuleGame(parse_rules(BLOCK, "block.toml"), "torus:4x4")
    # p on the right edge (tile 8), q above it (tile 4): the block slides right, across the seam, onto tiles 5 and 1
    layout = ["."] * 16
    layout[7], layout[3] = "p", "q"
    pos = position_from_table(g, {"layout": " ".join(layout), "to_move": "a"}, "test")
    turn = next(t for t in g.turns(pos) if t.label.startswith("8-"))
    after = [c // g.h for c in g.codes(turn.result)]
    assert after[4] == 1 and after[0] == 2 and after[7] == 0 and after[3] == 0
    # on a Klein bottle the same slide crosses a twisted seam: the oriented piece comes back mirrored
    gk = RuleGame(parse_rules(BLOCK.replace("torus", "klein"), "block.toml"), "klein:4x4")
    pk = position_from_table(gk, {"layout": " ".join(layout), "to_move": "a"}, "test")
    tk = next(t for t in gk.turns(pk) if t.label.startswith("8-"))
    codes = gk.codes(tk.result)
    moved = [c for c in codes if c // gk.h == 1]
    assert len(moved) == 1 and moved[0] % gk.h != 0  # the frame was carried across the flip


@pytest.mark.parametrize(("cell", "message"), [
    ('{ at = [1, 0], from = [5, 5] }', "not a cell of the pattern"),
    ('{ at = [1, 0], before = "any", after = "empty", from = [0, 0] }', "not both"),
])
def test_bad_block_cells_are_refused(cell: str, message: str) -> None:
    text = BLOCK.replace('{ at = [1, 0], before = "any", from = [0, 0] }', cell)
    with pytest.raises(RuleError, match=message):
        parse_rules(text, "block.toml")


@pytest.mark.skipif(not native.available(), reason="no native engine")
def test_the_native_engine_runs_block_moves_and_until_line_as_python_does() -> None:
    g = open_game("pentago")
    layout = ["."] * 36
    for t in (0, 1, 2, 3):
        layout[t] = "w"
    for t in (14, 20, 26, 33):
        layout[t] = "b"
    four = position_from_table(g, {"layout": " ".join(layout), "to_move": "white"}, "test")
    for pos in (g.initial(), four):
        chains = g.chains(g.board)
        assert native.why_not(chains, perft=True) == ""
        codes = g.codes(pos)
        assert set(native.turn_keys(chains, codes, pos.to_move)) == set(chains.turns(codes, pos.to_move))
        assert count_leaves(g, pos, 1) == count_leaves(g, pos, 1, native=False)
    # a block slid across the torus's seam, natively
    bg = RuleGame(parse_rules(BLOCK, "block.toml"), "torus:4x4")
    bl = ["."] * 16
    bl[7], bl[3], bl[12] = "p", "q", "p"
    bpos = position_from_table(bg, {"layout": " ".join(bl), "to_move": "a"}, "test")
    bchains = bg.chains(bg.board)
    assert native.why_not(bchains) == ""
    assert set(native.turn_keys(bchains, bg.codes(bpos), 0)) == set(bchains.turns(bg.codes(bpos), 0))


# ---- gess: a footprint's stones carried as a block ----------------------------------------------------------------

def naive_gess(board: list[int], who: int, n: int = 22) -> Counter:
    """The boards a turn of ``who`` (1 black, 2 white) gives, with multiplicity, as RBG's gess.rbg moves a piece: a
    3x3 footprint of empties and own stones whose stone in the direction moved lies inside (two tiles from the
    edge); up to 3 steps (any number with a stone in the centre), each step past the first over empty tiles only;
    the footprint lands capturing what lies under it; stones on the rim (two outer rows and columns) fall off."""
    def inside(r: int, c: int) -> bool:
        return 2 <= r < n - 2 and 2 <= c < n - 2

    out: Counter = Counter()
    around = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    for r in range(1, n - 1):
        for c in range(1, n - 1):
            if any(board[(r + i) * n + c + j] not in (0, who) for i, j in around):
                continue
            limit = 3 if board[r * n + c] == 0 else n
            for dr, dc in [(i, j) for i, j in around if i or j]:
                if not inside(r + dr, c + dc) or board[(r + dr) * n + c + dc] != who:
                    continue
                k, pr, pc = 1, r + dr, c + dc
                while True:
                    new = list(board)
                    for i, j in around:
                        new[(r + i) * n + c + j] = 0
                    for i, j in around:
                        new[(pr + i) * n + pc + j] = board[(r + i) * n + c + j]
                    for t in range(n * n):
                        if not inside(t // n, t % n):
                            new[t] = 0
                    out[tuple(new)] += 1
                    lead = [(pr + i, pc + j) for i, j in around if (dr and i == dr) or (dc and j == dc)]
                    if k == limit or any(board[a * n + b] for a, b in lead) or not inside(pr + dr, pc + dc):
                        break
                    k, pr, pc = k + 1, pr + dr, pc + dc
    return out


def test_gess_turns_carry_the_footprint_as_a_naive_gess_does() -> None:
    g = open_game("gess")
    rng = random.Random(3)
    pos = g.initial()
    for _ply in range(3):
        turns = g.turns(pos)
        got = Counter(tuple(c // g.h for c in g.codes(t.result)) for t in turns)
        assert got == naive_gess([c // g.h for c in g.codes(pos)], pos.to_move + 1)
        nxt = rng.choice(turns).result
        while g.outcome(nxt) is not None:  # a turn that breaks the mover's last ring ends the game
            nxt = rng.choice(turns).result
        pos = nxt
    assert len(g.turns(g.initial())) == 458  # RBG's perft 1


def _gess_ring_position() -> tuple[RuleGame, Position]:
    """Gess on its 22x22 board: black's and white's rings, and two black stones that can land on white's ring."""
    g = open_game("gess")
    n = 22

    def at(r: int, c: int) -> int:
        return r * n + c

    layout = ["."] * (n * n)
    for r, c in ((5, 5), (5, 6), (5, 7), (6, 5), (6, 7), (7, 5), (7, 6), (7, 7)):  # black's ring around (6, 6)
        layout[at(r, c)] = "b"
    for r, c in ((14, 14), (14, 15), (14, 16), (15, 14), (15, 16), (16, 14), (16, 15), (16, 16)):  # white's
        layout[at(r, c)] = "w"
    layout[at(10, 15)] = "b"  # a black stone that can land on white's ring
    layout[at(11, 15)] = "b"
    return g, position_from_table(g, {"layout": "\n".join(" ".join(layout[i * n:(i + 1) * n]) for i in range(n)),
                                      "to_move": "black"}, "test")


def test_gess_a_player_left_without_a_ring_loses_after_their_own_turn_only() -> None:
    g, pos = _gess_ring_position()
    turns = g.turns(pos)
    ends = {t.label: g.outcome(t.result) for t in turns}
    # black moving its own ring away from (6, 6) breaks it: black loses at once
    lost = [t for t in turns if ends[t.label] == {"black": -1, "white": 1}]
    assert lost
    # black's stones dropped on white's ring take it, and the game goes on (RBG reads only the mover's rings)
    took = [t for t in turns if [c // g.h for c in g.codes(t.result)][14 * 22 + 15] == 1]
    assert took and all(ends[t.label] is None for t in took)
    # the native engine reads the same rule (a chain end rule of a move that links nowhere) as Python does: no turn
    # below a lost position, and the same turns below a taken ring and a few other turns (all of them: -m slow)
    if native.available():
        assert native.why_not(g.chains(g.board), perft=True) == ""
        assert count_leaves(g, pos, 1) == len(turns)
        for t in lost[:3] + took[:3] + random.Random(5).sample(turns, 4):
            assert count_leaves(g, t.result, 1) == count_leaves(g, t.result, 1, native=False), t.label


@pytest.mark.slow
def test_gess_the_native_engine_counts_two_plies_below_the_rings_as_python() -> None:
    g, pos = _gess_ring_position()
    assert count_leaves(g, pos, 2) == count_leaves(g, pos, 2, native=False)
