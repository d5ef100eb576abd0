"""The walk's one order of two moves (engine.c once_links): where an entry and its follow-up are single cells alike
(connect6's two stones), the chains that place the follow-up on an earlier tile are left out, the other order giving
their turns.  Each rule set here is counted natively and by the Python chain walk (the reference); those whose two
moves interact (the orders give different turns, or one order is not walked) must not take the shortcut.  And in a
rule set keyed by changes, a set-up whose moves are each one cell counts its placements without keys (engine.c
solo_by_changes), but for two moves placing alike.  Two slides linked anywhere (breakthru's) are walked in one order
where their tiles are apart (engine.c apart_slides)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.registry import open_position
from tapology.rules import native
from tapology.rules.engine import RuleGame
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end
from tests.helpers import native_pick_playout

PERFT = Path(__file__).parent / "data" / "perft"

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")

HEAD = """
name = "pair"
grid = "square"
players = ["X", "O"]
board = "plane:3x3"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "stone" }
O = { value = 2, owner = "O", kind = "stone" }
x = { value = 3, owner = "X", kind = "dot" }
o = { value = 4, owner = "O", kind = "dot" }

[regions]
bottom = "row:-1"

[[end]]
kind = "no-turns"
result = "draw"
"""

# connect6's turn: a stone, then (from the second stone on the board) another anywhere
PAIR = HEAD + """
[[move]]
name = "place"
orientations = "identity"
pattern = "*empty => *own:stone"
links = [{ moves = ["second"], anywhere = true, if = [{ states = ["X", "O"], op = ">=", value = 2 }] }]

[[move]]
name = "second"
start = false
orientations = "identity"
pattern = "*empty => *own:stone"
"""

# the second stone forced where one fits: with one empty tile left, a stone alone is the turn
FORCED = PAIR.replace("anywhere = true, if", "anywhere = true, forced = true, if").replace(
    '[regions]', '[initial]\nlayout = """\nX . .\n. O .\n. . .\n"""\n\n[regions]')

# the second move writes a dot: a stone on s and a dot on t is another turn than a stone on t and a dot on s
MARKS = PAIR.replace('name = "second"\nstart = false\norientations = "identity"\npattern = "*empty => *own:stone"',
                     'name = "second"\nstart = false\norientations = "identity"\npattern = "*empty => *own:dot"')

# the link's condition counts a region: after a stone on the bottom row it holds, after one elsewhere it may not
REGION = PAIR.replace('if = [{ states = ["X", "O"], op = ">=", value = 2 }]',
                      'if = [{ states = ["own"], region = "bottom", op = ">=", value = 1 }]')

# the second stone needs an own stone on its right: the first stone may be that one, in one order only
NEIGHBOUR = PAIR.replace('name = "second"\nstart = false\norientations = "identity"\npattern = "*empty => *own:stone"',
                         'name = "second"\nstart = false\norientations = "identity"\n'
                         'cells = [[0, 0, "empty", "own:stone"], [1, 0, "own:stone"]]')

# a set-up of two turns placing dots (two moves alike: one turn per tile), then the pairs
SETUP = PAIR + """
[[move]]
name = "claim"
orientations = "identity"
pattern = "*empty => *own:dot"

[[move]]
name = "claim-again"
orientations = "identity"
pattern = "*empty => *own:dot"

[[phase]]
name = "set-up"
plies = 2
moves = ["claim", "claim-again"]
"""

# the set-up holds a move placing a dot beside its own tile: a turn of claim's made from another tile
SETUP_MIXED = SETUP.replace('moves = ["claim", "claim-again"]', 'moves = ["claim", "dot-beside"]') + """
[[move]]
name = "dot-beside"
orientations = "identity"
cells = [[0, 0, "empty"], [1, 0, "empty", "own:dot"]]
"""


def _open(tmp_path: Path, text: str) -> RuleGame:
    path = tmp_path / "game.toml"
    path.write_text(text)
    return open_game(str(path))


def _once(g: RuleGame) -> int:
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    return eng.once_links()


@needs_native
@pytest.mark.parametrize(("text", "once", "depth"), [(PAIR, True, 3), (FORCED, True, 4), (MARKS, False, 3),
                                                      (REGION, False, 3), (NEIGHBOUR, False, 3)],
                         ids=["pair", "forced", "marks", "region", "neighbour"])
def test_one_order_of_two_moves_only_where_both_orders_give_the_turn(tmp_path: Path, text: str, once: bool,
                                                                     depth: int) -> None:
    g = _open(tmp_path, text)
    assert native.why_not(g.chains(g.board), perft=True) == ""
    assert (_once(g) > 0) == once
    pos = g.initial()
    for d in range(1, depth + 1):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    assert count_leaves(g, pos, 2, rbg=True) == count_leaves(g, pos, 2, native=False, rbg=True)


@needs_native
@pytest.mark.parametrize("text", [SETUP, SETUP_MIXED], ids=["twins", "beside"])
def test_a_set_up_of_single_cells_counts_each_placement_once(tmp_path: Path, text: str) -> None:
    g = _open(tmp_path, text)
    assert native.why_not(g.chains(g.board), perft=True) == ""
    pos = g.initial()
    for d in range(1, 4):
        assert count_leaves(g, pos, d) == count_leaves(g, pos, d, native=False), d
    assert count_leaves(g, pos, 2) == 9 * 8  # each placement once, though two moves make it


def test_the_variants_change_what_they_say() -> None:
    variants = {PAIR, FORCED, MARKS, REGION, NEIGHBOUR, SETUP, SETUP_MIXED, SETUP_TWO, SETUP_CAP}
    assert len(variants) == 9  # each replacement found its text


@needs_native
def test_connect6_walks_one_order_of_its_two_stones() -> None:
    g = open_game("connect6:5x5")
    assert _once(g) > 0
    pos = g.initial()
    assert [count_leaves(g, pos, d) for d in (1, 2)] == [count_leaves(g, pos, d, native=False) for d in (1, 2)]



# a set-up of one move placing a dot: each placement is its own turn of one change (engine.c solo_plain)
SETUP_ONE = SETUP.replace('moves = ["claim", "claim-again"]', 'moves = ["claim"]')

# a set-up of two moves placing a dot or a stone on one tile: two turns a tile, told apart by what they write (engine.c
# solo_plain's classes; a made count writes each leaf on the codes alone)
SETUP_TWO = SETUP.replace('moves = ["claim", "claim-again"]', 'moves = ["claim", "stake"]') + """
[[move]]
name = "stake"
orientations = "identity"
pattern = "*empty => *own:stone"
"""

# a longer set-up whose stone is placed only while the mover has none: its condition read at the inner nodes too,
# where the plain solos are keyed straight (engine.c plain_keys), not only at the last ply
SETUP_CAP = SETUP_TWO.replace("plies = 2", "plies = 4") + """if = [{ states = ["own:stone"], op = "<", value = 1 }]
"""

# the mill game's placement: a stone, and a removal of a foe's stone where it makes two in a row (engine.c
# solo_by_changes, SOLO_ALONE: a stone alone is counted where the link is closed)
MILL = HEAD + """
[[phase]]
name = "placement"
plies = 6
moves = ["place"]

[[move]]
name = "place"
orientations = "identity"
pattern = "*empty => *own:stone"
links = [{ moves = ["remove"], anywhere = true, if = [{ states = ["own"], line = 2, here = true, value = 1 }] }]

[[move]]
name = "remove"
start = false
orientations = "identity"
cells = [[0, 0, "foe", "empty"]]
"""

# a dot placed, or a stone whose follow-up may turn it into a dot: a dot on a tile is a turn of either chain, so
# neither is counted alone
MILL_DOT = MILL.replace('moves = ["place"]', 'moves = ["place", "dot"]').replace(
    'moves = ["remove"]', 'moves = ["remove", "convert"]') + """
[[move]]
name = "dot"
orientations = "identity"
pattern = "*empty => *own:dot"

[[move]]
name = "convert"
start = false
orientations = "identity"
cells = [[0, 0, "own:stone", "own:dot"]]
"""


@needs_native
@pytest.mark.parametrize(("text", "plain", "alone"), [(SETUP_ONE, True, True), (SETUP, False, True),
                                                      (SETUP_MIXED, True, True), (SETUP_TWO, True, True),
                                                      (SETUP_CAP, True, True), (MILL, False, True),
                                                      (MILL_DOT, False, False)],
                         ids=["one", "twins", "beside", "two-writes", "capped", "mill", "mill-dot"])
def test_a_turn_of_one_change_no_other_chain_makes_is_counted_without_a_hash(tmp_path: Path, text: str, plain: bool,
                                                                           alone: bool) -> None:
    """Plain solos (one cell, no royal rule, no clean-ups) are counted, or made, in the entry scan, and a single
    cell whose follow-ups each change another tile counted alone where its links are closed, without keys or hashes;
    only where no other chain makes the same turn (the pair's stone alone; the set-up's twins, two moves making one
    turn, are neither; after SETUP_MIXED's set-up, claim-again is the regular play's one move placing a dot)."""
    g = _open(tmp_path, text)
    pos = g.initial()
    for d in range(1, 5):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    assert (eng.solos(2) > 0) == plain
    assert (eng.solos(4) > 0) == alone


# the link (a removal, or a dot on an empty tile) followed where the stone is in no line of two (its count 0 holds:
# open away from the lines), and where the stone stands outside every line: neither is shut away from the lines
MILL_NONE = MILL.replace("line = 2, here = true, value = 1", 'line = 2, here = true, op = "==", value = 0').replace(
    'moves = ["remove"]', 'moves = ["remove", "mark"]') + """
[[move]]
name = "mark"
start = false
orientations = "identity"
cells = [[0, 0, "empty", "own:dot"]]
"""
MILL_OUTSIDE = MILL_NONE.replace('line = 2, here = true, op = "==", value = 0',
                                 "line = 2, here = true, outside = true, value = 1")


@needs_native
@pytest.mark.parametrize(("text", "shut"), [(MILL, True), (MILL_NONE, False), (MILL_OUTSIDE, False)],
                         ids=["mill", "none", "outside"])
def test_a_placement_whose_link_opens_only_on_a_line_is_counted_by_tile_sets(tmp_path: Path, text: str,
                                                                             shut: bool) -> None:
    """A count's last ply counts (or makes) the placements whose links open only where the stone completes a line
    (engine.c shut_cells) by tile sets, away from the tiles where a line lacks at most that one, and walks the rest:
    counted and made as the Python chain walk counts; a playout numbers them without a hash and makes the one it
    picks from its change (pick_turn), each ply one of the walk's turns.  A link that may open with no line (its count
    0 holds) is not shut, nor one counting stones outside the lines."""
    g = _open(tmp_path, text)
    pos = g.initial()
    for d in range(1, 5 if shut else 4):  # (a dot anywhere: some 10^5 leaves at depth 4, for the Python walk)
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    assert (eng.shut_sets() > 0) == shut
    for index in range(6 if shut else 2):  # each ply of a playout one of the turns the chain walk lists
        ends = [playout_end(g, pos, seed=2, index=index, max_plies=k) for k in range(7)]
        for a, b in itertools.pairwise(ends):
            if b.ply == a.ply:
                break
            assert (tuple(g.codes(b)), b.to_move) in {(tuple(g.codes(t.result)), t.result.to_move) for t in g.perft_turns(a)}


@needs_native
@pytest.mark.parametrize("name", ["flying", "moving"])
def test_a_follow_up_whose_links_are_closed_ends_its_chain_counted_by_hash(name: str) -> None:
    """A chain's last move with no open link (engine.c closed_count: a flight's landing, a removal after a mill) is
    counted by hash where it is written, without step's path level and finish; a landing that closes a mill walks on
    to the removals, and a man lifted and put back (the start again) is no turn.  Counted and made as the Python chain
    walk counts, and each ply of a playout is one of its turns."""
    g, pos = open_position("the-mill-game", None, str(PERFT / f"the-mill-game-{name}.toml"))
    for d in (1, 2, 3):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    for index in range(3):  # each ply of a playout one of the turns the chain walk lists
        ends = [playout_end(g, pos, seed=3, index=index, max_plies=k) for k in range(10)]
        for a, b in itertools.pairwise(ends):
            if b.ply == a.ply:
                break
            assert (tuple(g.codes(b)), b.to_move) in {(tuple(g.codes(t.result)), t.result.to_move) for t in g.perft_turns(a)}



# from two stones each, a stone steps to a free neighbour or a player puts two in a row; a line of two
# through the tile a move ends on (a step's `to`, the pair's first tile) removes a stone of the opponent in no such
# line, and a line of two free tiles through the tile freed puts a dot anywhere
MILL_STEPS = HEAD.replace('[regions]', '[initial]\nlayout = """\nX . O\n. X .\nO . .\n"""\n\n[regions]') + """
[[move]]
name = "step"
orientations = "rotations"
to = [0, 1]
cells = [[0, 0, "own:stone", "empty"], [0, 1, "empty", "own:stone"]]
links = [{ moves = ["remove"], anywhere = true, if = [{ states = ["own"], line = 2, here = true, value = 1 }] }]

[[move]]
name = "pair"
orientations = "identity"
cells = [[0, 0, "empty", "own:stone"], [0, 1, "empty", "own:stone"]]
links = [{ moves = ["remove"], anywhere = true, if = [{ states = ["own"], line = 2, here = true, value = 1 }] }]

[[move]]
name = "remove"
start = false
orientations = "identity"
cells = [[0, 0, "foe", "empty"]]
if = [{ states = ["foe"], line = 2, here = true, op = "==", value = 0 }]
links = [{ moves = ["mark"], anywhere = true, if = [{ states = ["empty"], line = 2, here = true, value = 1 }] }]

[[move]]
name = "mark"
start = false
orientations = "identity"
cells = [[0, 0, "empty", "own:dot"]]
"""


@needs_native
def test_a_step_or_follow_up_whose_links_are_shut_is_counted_by_hash_unwritten(tmp_path: Path) -> None:
    """A step of several writes whose links read lines through its `to` tile is counted by the hash of the position
    after it, unwritten, away from the tiles where a line lacks at most that one (engine.c shut_steps) and, beside
    them, where its links read on its codes alone stay shut; a pair whose
    other write puts a stone of the line is not (its line may be full away from those tiles); a later move whose
    links are shut (a removal, here with a link of its own) is counted unwritten too (closed_follow), its links read
    on its codes alone; the removal's condition on lines through its tile read from the loop's full lines
    (full_lines).  Counted and made as the Python chain walk counts, and each ply of a playout one of its
    turns."""
    g = _open(tmp_path, MILL_STEPS)
    pos = g.initial()
    for d in range(1, 4):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    for index in range(6):  # each ply of a playout one of the turns the chain walk lists
        ends = [playout_end(g, pos, seed=4, index=index, max_plies=k) for k in range(12)]
        for a, b in itertools.pairwise(ends):
            if b.ply == a.ply:
                break
            assert (tuple(g.codes(b)), b.to_move) in {(tuple(g.codes(t.result)), t.result.to_move) for t in g.perft_turns(a)}


# two slides a turn (breakthru's): a ship slides like a rook, then a ship (any tile: an anywhere link, forced) slides
SLIDES = """
name = "slides"
grid = "square"
players = ["X", "O"]
board = "plane:4x4"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "ship" }
O = { value = 2, owner = "O", kind = "ship" }
x = { value = 3, owner = "X", kind = "dot" }
o = { value = 4, owner = "O", kind = "dot" }

[initial]
layout = \"\"\"
X . . O
. X . .
. . O .
O . X .
\"\"\"

[[move]]
name = "slide"
orientations = "rotations"
cells = [[0, 0, "own:ship", "empty"], [0, 1, "empty", "@"]]
repeat = "optional"
links = [{ moves = ["second-slide"], anywhere = true, forced = true }]

[[move]]
name = "second-slide"
start = false
orientations = "rotations"
cells = [[0, 0, "own:ship", "empty"], [0, 1, "empty", "@"]]
repeat = "optional"

[[end]]
kind = "plies"
value = 12
result = "draw"

[[end]]
kind = "no-turns"
result = "draw"
"""

# placements on the ring round a centre, each while the mover has fewer than three stones (a count condition), and a
# clean-up after each move taking a stone beside poison (engine.c solo_plain's cell sets: each placement its own
# turn where the clean-ups stay idle, moves_idle)
POISON = """
name = "poison"
grid = "square"
players = ["X", "O"]
board = "plane:3x3"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "stone" }
O = { value = 2, owner = "O", kind = "stone" }
P = 3

[regions]
ring = ["1", "2", "3", "4", "6", "7", "8", "9"]

[[move]]
name = "place"
orientations = "identity"
cells = [{ at = [0, 0], before = "empty", after = "own:stone", in = "ring" }]
if = [{ states = ["own:stone"], op = "<", value = 3 }]

[[cleanup]]
name = "poisoned"
when = "move"
orientations = "rotations"
cells = [[0, 0, "own|foe", "empty"], [0, 1, "P"]]

[[end]]
kind = "no-turns"
result = "draw"
"""

# the second slide leaves dots behind it: a slide's order changes the turn (no twin moves)
SLIDES_DOTS = SLIDES.replace('start = false\norientations = "rotations"\ncells = [[0, 0, "own:ship", "empty"]',
                             'start = false\norientations = "rotations"\ncells = [[0, 0, "own:ship", "own:dot"]')

# the link followed only while a count holds: not proved (a link of the plain kind only)
SLIDES_IF = SLIDES.replace('anywhere = true, forced = true }', 'anywhere = true, forced = true, if = [{ states = ["own"], '
                           'op = ">=", value = 1 }] }')


@needs_native
@pytest.mark.parametrize(("text", "paired"), [(SLIDES, True), (SLIDES_DOTS, False), (SLIDES_IF, False)],
                         ids=["slides", "dots", "if"])
def test_two_slides_apart_are_walked_in_one_order(tmp_path: Path, text: str, paired: bool) -> None:
    """Two slides whose tiles are apart give one turn in either order (engine.c apart_slides): the chains whose second
    slide starts before the first and keeps off its tiles are left out, those that meet it (a ship slid out of the
    other's way, into its path, or the same ship twice) are walked.  Counted and made as the Python chain walk counts
    them, and each ply of a playout one of its turns; the proof refuses a second slide that is no twin of the first
    and a link with a condition."""
    assert len({SLIDES, SLIDES_DOTS, SLIDES_IF}) == 3  # each replacement found its text
    g = _open(tmp_path, text)
    assert native.why_not(g.chains(g.board), perft=True) == ""
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    assert (eng.apart_links() > 0) == paired
    pos = g.initial()
    for p in [pos, playout_end(g, pos, seed=5, index=0, max_plies=3)]:
        for d in (1, 2):
            want = count_leaves(g, p, d, native=False)
            assert count_leaves(g, p, d) == want, d
            assert count_leaves(g, p, d, bulk=False) == want, d
    for index in range(2):  # each ply of a playout one of the turns the chain walk lists
        ends = [playout_end(g, pos, seed=9, index=index, max_plies=k) for k in range(6)]
        for a, b in itertools.pairwise(ends):
            assert (tuple(g.codes(b)), b.to_move) in {(tuple(g.codes(t.result)), t.result.to_move) for t in g.perft_turns(a)}


@needs_native
@pytest.mark.parametrize("board", ["plane:4x4", "cylinder:4x4", "mobius:4x4"])
def test_second_slides_apart_are_counted_from_the_nodes_records(tmp_path: Path, board: str) -> None:
    """A second slide apart from the first reads and writes only tiles the first left as at the node: its chains are
    walked once per node and their ends counted from those records after each first slide (engine.c apart_second), in
    the walk's order.  The playouts draw the turns of the Python chain walk's order (the same rank each ply) and the counts
    are the walk's; on the cylinder a slide comes round its row to its start (refused), on the Möbius band a tile holds
    two steps alike of one slide."""
    text = SLIDES.replace('board = "plane:4x4"', f'board = "{board}"')
    assert text != SLIDES or board == "plane:4x4"
    g = _open(tmp_path, text)
    eng = native.engine(g.chains(g.board))
    assert eng is not None and eng.apart_links() > 0
    pos = g.initial()
    ch, codes = g.chains(pos.board), g.codes(pos)
    for index in range(3):  # plies before the end rule (12 plies)
        before = eng.apart_replays()
        got = playout_end(g, pos, 13, index, max_plies=8)
        assert (g.codes(got), got.to_move) == native_pick_playout(ch, codes, pos.to_move, 13, index, 8), index
        assert eng.apart_replays() > before, index  # not sent to keys: no two turns alike by hash that are not
    mid = playout_end(g, pos, 13, 1, max_plies=3)
    for d in (1, 2):
        want = count_leaves(g, mid, d, native=False)
        assert count_leaves(g, mid, d) == want, d
        assert count_leaves(g, mid, d, bulk=False) == want, d


@needs_native
def test_breakthru_walks_its_two_slides_apart_in_one_order() -> None:
    g, pos = open_position("breakthru", None, str(PERFT / "breakthru-ring.toml"))
    eng = native.engine(g.chains(pos.board))
    assert eng is not None and eng.apart_links() > 0
    assert count_leaves(g, pos, 1) == count_leaves(g, pos, 1, bulk=False) == 1788  # tests/test_openings.py's count


# poison in the centre: a stone placed beside it is taken at once (no change: no turn), the clean-up never idle there
POISONED = POISON.replace('[[move]]', '[initial]\nlayout = """\n. . .\n. P .\n. . .\n"""\n\n[[move]]', 1)


@needs_native
@pytest.mark.parametrize(("text", "corners"), [(POISON, False), (POISONED, True)], ids=["idle", "poisoned"])
def test_placements_with_count_conditions_are_counted_alone_where_the_clean_ups_stay_idle(
        tmp_path: Path, text: str, corners: bool) -> None:
    """A set of one-cell placements with count conditions, beside clean-ups after each move, is counted in the entry
    scan (or by popcounts) without keys, but where a clean-up might take what a placement wrote."""
    g = _open(tmp_path, text)
    pos = g.initial()
    assert count_leaves(g, pos, 1) == (4 if corners else 8)
    for d in range(1, 5):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    assert eng.solos(2) == 16  # 8 tiles, 2 players


@needs_native
def test_arimaa_set_up_is_counted_by_popcounts() -> None:
    """arimaa's set-up (one piece of the mover's choice a turn, while it has fewer than its number; traps cleaned
    after each move): each placement its own turn, counted without keys; as the Python chain walk counts."""
    g, pos = open_position("arimaa", None, None)
    for d in (1, 2):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    assert eng.solos(2) == 192


# the second stone by either of two moves alike: two chains, one turn (the pairs are not counted as they fit)
TWIN_SECOND = PAIR.replace('moves = ["second"]', 'moves = ["second", "second-again"]') + """
[[move]]
name = "second-again"
start = false
orientations = "identity"
pattern = "*empty => *own:stone"
"""

# the first stone by either of two moves alike, each with the link: two chains of each pair
TWIN_PLACE = PAIR + """
[[move]]
name = "place-again"
orientations = "identity"
pattern = "*empty => *own:stone"
links = [{ moves = ["second"], anywhere = true, if = [{ states = ["X", "O"], op = ">=", value = 2 }] }]
"""

# the second stone while the mover holds at most one stone on the bottom row: a follow-up with its own condition
SECOND_IF = PAIR.replace('name = "second"\nstart = false\norientations = "identity"\npattern = "*empty => *own:stone"',
                         'name = "second"\nstart = false\norientations = "identity"\npattern = "*empty => *own:stone"\n'
                         'if = [{ states = ["own"], region = "bottom", op = "<=", value = 1 }]')


@needs_native
@pytest.mark.parametrize(("text", "paired", "depth"), [(PAIR, True, 4), (FORCED, True, 4), (SECOND_IF, False, 3),
                                                       (MARKS, False, 3), (TWIN_SECOND, False, 3),
                                                       (TWIN_PLACE, False, 3)],
                         ids=["pair", "forced", "second-if", "marks", "twin-second", "twin-place"])
def test_the_last_ply_counts_the_follow_ups_of_a_pair_where_each_is_its_own_turn(tmp_path: Path, text: str,
                                                                                  paired: bool, depth: int) -> None:
    """A bulk count's last ply counts a two-stone turn's second stones where they fit, none made (engine.c
    paired_links: by popcounts where each is one cell reading one code): only where each chain is a turn no other
    chain makes; two moves alike as the second stone, or as the first, make one turn twice and are walked by hash, and
    a second stone with its own condition (no one order of the two) or writing another code is walked.  Bulk, made
    and the Python chain walk agree at every depth."""
    assert len({PAIR, TWIN_SECOND, TWIN_PLACE, SECOND_IF}) == 4  # each replacement found its text
    g = _open(tmp_path, text)
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    assert (eng.paired_links() > 0) == paired
    pos = g.initial()
    for p in [pos, playout_end(g, pos, seed=4, index=0, max_plies=2)]:
        for d in range(1, depth + 1 - (p is not pos)):
            want = count_leaves(g, p, d, native=False)
            assert count_leaves(g, p, d) == want, d
            assert count_leaves(g, p, d, bulk=False) == want, d


@needs_native
def test_connect6_counts_its_second_stones_by_popcounts() -> None:
    """connect6's last ply: each first stone's second stones counted as the empty tiles after it (paired_links),
    as the Python chain walk and tests/data/perft/connect6.perft count."""
    g = open_game("connect6:5x5")
    eng = native.engine(g.chains(g.board))
    assert eng is not None and eng.paired_links() == 50  # every tile's first stone, for each player
    pos = g.initial()
    assert [count_leaves(g, pos, d) for d in (1, 2, 3)] == [25, 6900, 1593900]  # tests/data/perft/connect6.perft


@needs_native
def test_a_playout_picks_a_pair_s_turn_as_the_count_by_hash_picks_it(tmp_path: Path) -> None:
    """A playout's node counts a paired link's turns as ranks, without hashes, and finds the picked one again in the
    walk's order (engine.c paired_pick): the games are those of the same turns told apart by hash (TWIN_SECOND: each
    pair walked twice, first found in the same order), and each ply one of the Python chain walk's turns."""
    (tmp_path / "pairs").mkdir()
    (tmp_path / "hashes").mkdir()
    pairs = _open(tmp_path / "pairs", PAIR.replace("plane:3x3", "plane:4x4"))
    hashes = _open(tmp_path / "hashes", TWIN_SECOND.replace("plane:3x3", "plane:4x4"))
    for g, want in ((pairs, True), (hashes, False)):
        eng = native.engine(g.chains(g.board))
        assert eng is not None and (eng.paired_links() > 0) == want
    for i in range(8):
        a = playout_end(pairs, pairs.initial(), 5, i, max_plies=30)
        b = playout_end(hashes, hashes.initial(), 5, i, max_plies=30)
        assert (a.ply, pairs.codes(a)) == (b.ply, hashes.codes(b)), i
    here = pairs.initial()
    for k in range(1, 6):  # each ply of a playout one of the turns the chain walk lists
        end = playout_end(pairs, pairs.initial(), 3, 0, max_plies=k)
        assert (tuple(pairs.codes(end)), end.to_move) in {(tuple(pairs.codes(t.result)), t.result.to_move)
                                                          for t in pairs.perft_turns(here)}, k
        here = end
