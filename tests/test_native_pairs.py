"""A count's last ply told apart by (start, end) alone (engine.c pair_ready): where no two paths of the chains' move
classes from one tile end on one tile, two chains of a node from one start to one end make one turn, so the count
stamps (start, end) instead of hashing positions, skips the clean-ups where a kept change shows the turn, and does not
walk a follow-up without links whose (start, end) is counted.  Each rule set is counted natively, in bulk and with
every leaf made, and by the Python chain walk (the reference); a rule set with two routes to one end (walk, walk or
leap) must not take the shortcut."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.registry import open_position
from tapology.rules import native
from tapology.rules.engine import RuleGame
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import MAX_PLIES, playout_end

PERFT = Path(__file__).parent / "data" / "perft"

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interpreter (engine.c) counts and plays: the shortcut is its own."""
    monkeypatch.setenv("TAPOLOGY_NATIVE_SPECIALISE", "0")

# a stone walks along a row or column, a step at a time, as far as the tiles are empty, each move placed on the empty
# tile behind it (so the scan by triggers finds it from the stone, in another order than the rows'); walk-stop is
# walk's twin without links (its turn is walk's own, not walked again); stones that reach the last column are removed
# (a clean-up)
WALKS = """
name = "walks"
grid = "square"
players = ["X", "O"]
board = "plane:6x6"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "stone" }
O = { value = 2, owner = "O", kind = "stone" }
x = { value = 3, owner = "X", kind = "dot" }
o = { value = 4, owner = "O", kind = "dot" }

[regions]
edge = ["column:-1"]

[initial]
to_move = "X"
layout = \"\"\"
. . . . . .
. X . . O .
. . X . . .
. . . O . .
. X . . . .
. . . . . .
\"\"\"

[[end]]
kind = "no-turns"
result = "draw"

[[cleanup]]
name = "edge"
cells = [{ at = [0, 0], before = "X|O", after = "empty", in = "edge" }]

[[move]]
name = "walk"
orientations = "rotations"
to = [2, 0]
cells = [[0, 0, "empty"], [1, 0, "own:stone", "empty"], [2, 0, "empty", "own:stone"]]
links = [{ moves = ["walk-on"], at = [1, 0], orientations = [0], forced = false }]

[[move]]
name = "walk-stop"
orientations = "rotations"
to = [2, 0]
cells = [[0, 0, "empty"], [1, 0, "own:stone", "empty"], [2, 0, "empty", "own:stone"]]

[[move]]
name = "walk-on"
start = false
orientations = "rotations"
to = [2, 0]
cells = [[0, 0, "empty"], [1, 0, "own:stone", "empty"], [2, 0, "empty", "own:stone"]]
links = [{ moves = ["walk-on"], at = [1, 0], orientations = [0], forced = false }]
"""

# a leap of two tiles that leaves a dot behind: from one start, walk + walk and the leap end on one tile with other
# changes (two turns), so (start, end) does not name the turn
LEAPS = WALKS + """
[[move]]
name = "leap"
orientations = "rotations"
to = [3, 0]
cells = [[0, 0, "empty"], [1, 0, "own:stone", "empty"], [2, 0, "empty", "own:dot"], [3, 0, "empty", "own:stone"]]
"""

# walk-stop with a forced link to a move that never fits (its own tile is never empty after it): the same turns, in
# the same order, but a forced link keeps the count by hash
FORCED = WALKS.replace('''name = "walk-stop"
orientations = "rotations"
to = [2, 0]
cells = [[0, 0, "empty"], [1, 0, "own:stone", "empty"], [2, 0, "empty", "own:stone"]]
''', '''name = "walk-stop"
orientations = "rotations"
to = [2, 0]
cells = [[0, 0, "empty"], [1, 0, "own:stone", "empty"], [2, 0, "empty", "own:stone"]]
links = [{ moves = ["never"], at = [2, 0], orientations = [0], forced = true }]

[[move]]
name = "never"
start = false
orientations = "rotations"
cells = [[0, 0, "empty", "own:stone"]]
''')


def _open(tmp_path: Path, text: str) -> RuleGame:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "game.toml"
    path.write_text(text)
    return open_game(str(path))


def _counts_as_the_walk(g: RuleGame) -> native.Engine:
    """The native engine of g's board, after checking its bulk and made counts from the start against the Python chain
    walk's at depths 1-3."""
    assert native.why_not(g.chains(g.board), perft=True) == ""
    pos = g.initial()
    for d in range(1, 4):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, d
        assert count_leaves(g, pos, d, bulk=False) == want, d
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    return eng


@needs_native
@pytest.mark.parametrize(("text", "pairs"), [(WALKS, True), (LEAPS, False)], ids=["walks", "leaps"])
def test_turns_told_apart_by_start_and_end_only_where_the_classes_name_them(tmp_path: Path, text: str,
                                                                              pairs: bool) -> None:
    eng = _counts_as_the_walk(_open(tmp_path, text))
    assert eng.pair_ok() == pairs


def _rbg_perft(game: str, depth: int) -> int:
    """RBG's count at ``depth`` as tests/data/perft keeps it (from running its reasoner)."""
    for line in (PERFT / f"{game}.perft").read_text().splitlines():
        if line.startswith(f"perft {depth} "):
            return int(line.split()[2])
    raise KeyError(depth)


@needs_native
def test_gess_counts_its_last_ply_by_start_and_end() -> None:
    g, pos = open_position("gess", None, None)
    assert count_leaves(g, pos, 1) == count_leaves(g, pos, 1, native=False) == _rbg_perft("gess", 1)
    assert count_leaves(g, pos, 1, bulk=False) == _rbg_perft("gess", 1)
    assert count_leaves(g, pos, 2) == count_leaves(g, pos, 2, bulk=False) == _rbg_perft("gess", 2)
    eng = native.engine(g.chains(pos.board))
    assert eng is not None
    assert eng.pair_ok()


@needs_native
@pytest.mark.parametrize("name", ["walks", "gess", "chinese-checkers-6"])
def test_a_playout_counted_by_start_and_end_picks_a_legal_turn_each_ply(tmp_path: Path, name: str) -> None:
    if name != "walks":  # chinese-checkers-6: the picked turn's key made from its start and end (hop_key)
        g, pos = open_position(name, None, None)
    else:
        g = _open(tmp_path, WALKS)
        pos = g.initial()
    for i in range(3):  # a playout's first k + 1 plies are its first k and one more turn of the position they reach
        here = pos
        for k in range(1, 4):
            end = playout_end(g, pos, 3, i, max_plies=k)
            if end.ply == here.ply:
                assert g.outcome(here) is not None or g.perft_turns(here) == []
                break
            assert end.ply == here.ply + 1
            assert g.codes(end) in [g.codes(t.result) for t in g.perft_turns(here)], (i, k)
            here = end


def _same_games(g: RuleGame, h: RuleGame, max_plies: int = MAX_PLIES) -> None:
    """Eight playouts from seed 5 end alike (ply and codes) in g and in h, a rule set of the same turns."""
    for i in range(8):
        a = playout_end(g, g.initial(), 5, i, max_plies=max_plies)
        b = playout_end(h, h.initial(), 5, i, max_plies=max_plies)
        assert (a.ply, g.codes(a)) == (b.ply, h.codes(b)), i


@needs_native
def test_a_playout_counted_by_start_and_end_plays_the_games_the_count_by_hash_plays(tmp_path: Path) -> None:
    pairs, hashes = _open(tmp_path / "pairs", WALKS), _open(tmp_path / "hashes", FORCED)
    for g, want in ((pairs, True), (hashes, False)):
        count_leaves(g, g.initial(), 1)
        eng = native.engine(g.chains(g.board))
        assert eng is not None and eng.pair_ok() == want
    _same_games(pairs, hashes, max_plies=30)


# walks whose links hold only while a stone is on the board (always, here): the same turns, but a link that reads the
# board's counts keeps the chains written in full (no raw chains)
COUNTED = WALKS.replace('links = [{ moves = ["walk-on"], at = [1, 0], orientations = [0], forced = false }]',
                        'links = [{ moves = ["walk-on"], at = [1, 0], orientations = [0], forced = false, '
                        'if = [{ states = ["X", "O"], op = ">=", value = 1 }] }]')


@needs_native
def test_chains_written_on_the_codes_alone_only_where_nothing_reads_the_counts(tmp_path: Path) -> None:
    raw, full = _open(tmp_path / "raw", WALKS), _open(tmp_path / "full", COUNTED)
    assert COUNTED != WALKS
    for g, want in ((raw, True), (full, False)):
        eng = _counts_as_the_walk(g)
        assert eng.pair_ok() and eng.raw_chains() == want
    _same_games(raw, full, max_plies=30)  # the clean-ups of the picked turns read the tile sets brought level


@needs_native
def test_gess_writes_its_chains_on_the_codes_alone() -> None:
    g, pos = open_position("gess", None, None)
    assert count_leaves(g, pos, 1) == _rbg_perft("gess", 1)
    eng = native.engine(g.chains(pos.board))
    assert eng is not None and eng.raw_chains()


@needs_native
@pytest.mark.slow
def test_gess_depth_two_as_the_chain_walk_counts_it() -> None:
    g, pos = open_position("gess", None, None)
    assert count_leaves(g, pos, 2, native=False) == count_leaves(g, pos, 2) == _rbg_perft("gess", 2)

# a stone steps to a neighbouring empty tile, or jumps over any stone into the empty tile beyond, and may go on
# jumping: around the block of stones a chain reaches one tile by two routes (right then down, down then right), with
# the same changes (the stone carried from its start to its end), which pair_hops_hold proves from the tables, so the
# walk from a start reads each tile's follow-ups once and a perft counts tiles rather than chains (hop_flood)
HOPS = """
name = "hops"
grid = "square"
players = ["X", "O"]
board = "plane:7x7"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "stone" }
O = { value = 2, owner = "O", kind = "stone" }

[initial]
to_move = "X"
layout = \"\"\"
. . . . . . .
. X O . . . .
. O . O . . .
. . O . X . .
. . . . . . .
. O . X . O .
. . . . . . .
\"\"\"

[[end]]
kind = "plies"
value = 40
result = "draw"

[[end]]
kind = "no-turns"
result = "loss"

[[move]]
name = "step"
orientations = "rotations"
pattern = "*own empty => *empty @"

[[move]]
name = "jump"
orientations = "rotations"
pattern = "*own own|foe empty => *empty _ @"
links = [{ moves = ["jump"], orientations = "rotations", forced = false }]
"""

# a jump that also turns the stone it jumps into its own: three writes, so a chain's changes depend on its route and
# (start, end) does not name its turn
TURNS = HOPS.replace('pattern = "*own own|foe empty => *empty _ @"', 'pattern = "*own own|foe empty => *empty own:stone @"')

# a jump that needs the second tile behind it empty: going on straight, that tile is the chain's start, which the
# stone has left (so the flood reads the board with the start emptied)
BEHIND = HOPS.replace('pattern = "*own own|foe empty => *empty _ @"',
                      'pattern = "empty any *own own|foe empty => _ _ *empty _ @"')

# the step with a forced link to a move that never fits: the same turns in the same order, counted by hash
HASHED = HOPS.replace('''pattern = "*own empty => *empty @"
''', '''pattern = "*own empty => *empty @"
links = [{ moves = ["never"], orientations = [0], forced = true }]

[[move]]
name = "never"
start = false
orientations = "rotations"
pattern = "*empty => *own:stone"
''')

# a leap over any tile (no links), found before the jump, that ends where a jump from the same start ends: a turn
# (start, end) two moves reach, one without links (hop_step) and then a chain's (hop_flood), counted once
LEAP = HOPS.replace('''[[move]]
name = "jump"''', '''[[move]]
name = "leap"
orientations = "rotations"
pattern = "*own any empty => *empty _ @"

[[move]]
name = "jump"''')

# a stone on the far row wins: the end rule's count over a region, read after a turn only where it changed a tile
# of that region (engine.c end_conds_touched)
GOAL = HOPS.replace("""[[end]]
kind = "plies\"""", """[regions]
goal-X = "row:-1"
goal-O = "row:1"

[[end]]
kind = "count"
states = ["own"]
region = "goal-{player}"
op = ">="
value = 1
result = "win"

[[end]]
kind = "plies\"""")


# two counts over regions that must both hold (no stone of one's own on the left column, one on the far row): a turn
# that changes a tile of the second region only is read again (the rule's tiles are the union of its regions)
GOAL_TWO = HOPS.replace("""[[end]]
kind = "plies\"""", """[regions]
left = "column:1"
goal-X = "row:-1"
goal-O = "row:1"

[[end]]
kind = "count"
result = "win"
all = [{ states = ["own"], region = "left", op = "==", value = 0 },
       { states = ["own"], region = "goal-{player}", op = ">=", value = 1 }]

[[end]]
kind = "plies\"""")


@needs_native
@pytest.mark.parametrize(("text", "hops"), [(HOPS, True), (BEHIND, True), (LEAP, True), (GOAL, True),
                                            (GOAL_TWO, True), (TURNS, False), (HASHED, False)],
                         ids=["hops", "behind", "leap", "goal", "goal-two", "turns", "hashed"])
def test_carried_pieces_counted_by_start_and_end_only_where_the_tables_prove_it(tmp_path: Path, text: str,
                                                                                hops: bool) -> None:
    eng = _counts_as_the_walk(_open(tmp_path, text))
    assert (eng.pair_ok() and eng.pair_by_hops()) == hops


@needs_native
def test_a_playout_of_carried_pieces_plays_the_games_the_count_by_hash_plays(tmp_path: Path) -> None:
    hops, hashed = _open(tmp_path / "hops", HOPS), _open(tmp_path / "hashed", HASHED)
    for g, want in ((hops, True), (hashed, False)):
        count_leaves(g, g.initial(), 1)
        eng = native.engine(g.chains(g.board))
        assert eng is not None and eng.pair_by_hops() == want
    _same_games(hops, hashed)


@needs_native
def test_chinese_checkers_counts_its_hops_by_start_and_end() -> None:
    g, pos = open_position("chinese-checkers-6", None, None)
    for d in (1, 2, 3):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == count_leaves(g, pos, d, bulk=False) == want, d
    mid = playout_end(g, pos, 7, 1, max_plies=80)  # long hop chains, several routes to a tile
    want = count_leaves(g, mid, 2, native=False)
    assert count_leaves(g, mid, 2) == count_leaves(g, mid, 2, bulk=False) == want
    eng = native.engine(g.chains(pos.board))
    assert eng is not None and eng.pair_by_hops()
