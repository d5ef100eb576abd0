"""The engines' royal test against the Python chain walk where a turn changes what the node's own test did not read:
a piece that puts a foe's attacker where none stood, or a royal piece of the mover's where none stood (the node's memo
answers only where no change reaches an entry tile of the royal tile's attack rows with a code that entry accepts, or
puts a royal code anywhere: engine.c's attack_reads and att_acc)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tapology.games.registry import open_game
from tapology.rules import native
from tapology.rules.native import specialise
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end

if TYPE_CHECKING:
    from tapology.game import Position
    from tapology.rules.chains import Chains
    from tapology.rules.engine import RuleGame

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")

# a white traitor steps one tile and turns into a black rook (next to its own king, or on the king's open line, the
# step gives check and the royal rule forbids it, though the tile it lands on was empty: nothing the node's test read)
# or is crowned a second white king (forbidden on a tile the black rook attacks)
DEFECTORS = """
name = "royal-defectors"
grid = "square"
players = ["white", "black"]
board = "plane:5x5"
royal = ["K", "k"]

[states]
empty = 0
K = { value = 1, owner = "white", kind = "king" }
R = { value = 2, owner = "white", kind = "rook" }
T = { value = 3, owner = "white", kind = "traitor" }
k = { value = 11, owner = "black", kind = "king" }
r = { value = 12, owner = "black", kind = "rook" }

[initial]
layout = \"\"\"
. . . . k
. . . . .
T . T . .
. . . . r
K . . T R
\"\"\"

[[move]]
name = "king"
to = [0, 1]
orientations = "rotations"
cells = [[0, 0, "own:king", "empty"], [0, 1, "empty|foe", "own:king"]]

[[move]]
name = "rook"
to = [0, 1]
orientations = "rotations"
repeat = "optional"
cells = [[0, 0, "own:rook", "empty"], [0, 1, "empty", "own:rook"]]
links = [{ moves = ["rook-capture"], orientations = [0], forced = false }]

[[move]]
name = "rook-capture"
to = [0, 1]
class = "capture"
orientations = "rotations"
cells = [[0, 0, "own:rook", "empty"], [0, 1, "foe", "own:rook"]]

[[move]]
name = "defect"
to = [0, 1]
orientations = "rotations"
cells = [[0, 0, "own:traitor", "empty"], [0, 1, "empty", "r"]]

[[move]]
name = "crown"
to = [0, 1]
orientations = "rotations"
cells = [[0, 0, "own:traitor", "empty"], [0, 1, "empty", "K"]]

[[end]]
kind = "no-turns"
check = true
result = "loss"

[[end]]
kind = "no-turns"
result = "draw"
"""


def _native_engines(chains: Chains) -> list[native.Engine]:
    """The interpreter, and the generated C where it does not decline the rule set."""
    engines = [native.engine(chains, specialise=False)]
    assert engines[0] is not None
    tabs = chains.comp.native_tables
    if not specialise.declines(tabs):
        engines.append(native.Engine(specialise.load(tabs), tabs, "native-specialised"))
    return engines


def _count_as_the_walk(g: RuleGame, engines: list[native.Engine], positions: list[Position]) -> None:
    """Each engine counts each position to depths 1-3, in bulk and made, as the Python chain walk does."""
    for i, at in enumerate(positions):
        codes = g.codes(at)
        for depth in (1, 2, 3):
            python = count_leaves(g, at, depth, native=False)
            for eng in engines:
                for bulk in (True, False):
                    assert eng.perft(codes, at.to_move, at.ply, depth, bulk=bulk) == python, (eng, i, depth, bulk)


@needs_native
def test_a_turn_that_puts_a_foe_s_attacker_where_none_stood_is_tested(tmp_path) -> None:
    rules = tmp_path / "royal-defectors.toml"
    rules.write_text(DEFECTORS)
    free = tmp_path / "free-defectors.toml"  # the same moves without the royal rule
    free.write_text(DEFECTORS.replace('royal = ["K", "k"]\n', "").replace("check = true\n", ""))
    g = open_game(str(rules))
    engines = _native_engines(g.chains(g.board))
    pos = g.initial()
    unruled = open_game(str(free))
    # the royal rule forbids the traitor at a3 defecting to a2 or a4 and the one at d1 to c1 (a black rook on the
    # king's open file or rank), the king's step to a2 and a traitor crowned on a2, c2 or d2 (the rook at e2's rank:
    # a second royal piece where no royal piece stood): seven turns
    assert count_leaves(g, pos, 1, native=False) == count_leaves(unruled, unruled.initial(), 1, native=False) - 7
    _count_as_the_walk(g, engines, [pos] + [playout_end(g, pos, seed=3, index=i, max_plies=2 * i) for i in range(1, 5)])


# the kept attack walks (engine.c's attack_kept): a rook's walk toward a king is kept with the tiles it read, and
# answers again only while they hold the same codes; each rook's slide opens and shuts as pieces step on and off
# its lines
SLIDERS = DEFECTORS.replace('''T . T . .
. . . . r
K . . T R''', '''T . T . .
. . . . .
K . . R .''').replace('''. . . . k
. . . . .
T''', '''. . . . k
r . . . .
T''').replace('''[[move]]
name = "crown"''', '''[[move]]
name = "traitor"
to = [0, 1]
orientations = "rotations"
cells = [[0, 0, "own:traitor", "empty"], [0, 1, "empty", "own:traitor"]]

[[move]]
name = "crown"''')


@needs_native
def test_a_kept_attack_walk_answers_only_while_the_tiles_it_read_hold_the_same(tmp_path) -> None:
    rules = tmp_path / "royal-sliders.toml"
    rules.write_text(SLIDERS)
    g = open_game(str(rules))
    engines = _native_engines(g.chains(g.board))
    pos = g.initial()
    _count_as_the_walk(g, engines, [pos] + [playout_end(g, pos, seed=5, index=i, max_plies=i + 1) for i in range(1, 6)])
