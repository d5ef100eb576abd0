"""A move may land where a slide only flew through (docs/rules.md, "Turns"): the native walk (engine.c step) reads a
repeated position as the Python chain walk does in every rule set, not only in those whose slides follow another move
anywhere (flies_over).  Each rule set here is listed and counted natively and by the chain walk (the reference), and
listed by the z3 and csp backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapology.games import open_game
from tapology.rules import native
from tapology.rules.engine import RuleGame
from tapology.rules.maximum import class_rules
from tapology.rules.perft import count_leaves
from tests.helpers import examples

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")

# a ship slides like a rook, then (forced, anywhere) a ship makes one step: 1-3-2 steps back over the slide's path
SLIDE_STEP = """
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

[[end]]
kind = "plies"
value = 12
result = "draw"

[[end]]
kind = "no-turns"
result = "draw"
"""

# the same ship's step, linked at where the slide ends (no anywhere link: the generated C may walk it)
SLIDE_OWN_STEP = SLIDE_STEP.replace('links = [{ moves = ["second-slide"], anywhere = true, forced = true }]',
                                    'links = [{ moves = ["second-slide"], at = [0, 1], orientations = "rotations", '
                                    'forced = true }]')

# a step, then the same ship slides: back over the step's start (a stop) to the tile beyond
STEP_SLIDE = SLIDE_STEP.replace(
    'repeat = "optional"\nlinks = [{ moves = ["second-slide"], anywhere = true, forced = true }]',
    'links = [{ moves = ["second-slide"], at = [0, 1], orientations = "rotations", forced = false }]').replace(
    'name = "second-slide"\nstart = false\norientations = "rotations"\n'
    'cells = [[0, 0, "own:ship", "empty"], [0, 1, "empty", "@"]]',
    'name = "second-slide"\nstart = false\norientations = "rotations"\n'
    'cells = [[0, 0, "own:ship", "empty"], [0, 1, "empty", "@"]]\nrepeat = "optional"')

# two slides, the second linked from anywhere (breakthru's turn, flies_over): a slide may fly over a stop
TWO_SLIDES = SLIDE_STEP.replace(
    'name = "second-slide"\nstart = false\norientations = "rotations"\n'
    'cells = [[0, 0, "own:ship", "empty"], [0, 1, "empty", "@"]]',
    'name = "second-slide"\nstart = false\norientations = "rotations"\n'
    'cells = [[0, 0, "own:ship", "empty"], [0, 1, "empty", "@"]]\nrepeat = "optional"')

# a step, then (forced) the same ship slides: a slide that flies over the step's start and cannot go on is not taken
STEP_FORCED_SLIDE = STEP_SLIDE.replace("forced = false", "forced = true")


def _open(tmp_path: Path, text: str) -> RuleGame:
    path = tmp_path / "game.toml"
    path.write_text(text)
    return open_game(str(path))


def test_the_variants_change_what_they_say() -> None:
    assert len({SLIDE_STEP, SLIDE_OWN_STEP, STEP_SLIDE, TWO_SLIDES, STEP_FORCED_SLIDE}) == 5
    assert 'repeat = "optional"' in STEP_SLIDE and TWO_SLIDES.count('repeat = "optional"') == 2


@needs_native
@pytest.mark.parametrize("text", [SLIDE_STEP, SLIDE_OWN_STEP, STEP_SLIDE], ids=["anywhere", "own", "step-slide"])
def test_a_move_may_land_where_a_slide_flew_through(tmp_path: Path, text: str) -> None:
    """The turn sets at the start and after each first turn, and the counts at depths 1 and 2, are the chain walk's."""
    g = _open(tmp_path, text)
    chains = g.chains(g.board)
    eng = native.engine(chains)
    assert eng is not None
    pos = g.initial()
    want = chains.turns(g.codes(pos), pos.to_move)
    got = eng.turns(chains, g.codes(pos), pos.to_move)
    assert got is not None and set(got) == set(want)
    for t in g.perft_turns(pos):
        after = t.result
        got = eng.turns(chains, g.codes(after), after.to_move)
        assert got is not None and set(got) == set(chains.turns(g.codes(after), after.to_move))
    for d in (1, 2):
        want_n = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want_n, d
        assert count_leaves(g, pos, d, bulk=False) == want_n, d


@needs_native
def test_a_ship_slides_and_steps_back_over_its_path(tmp_path: Path) -> None:
    """1-3-2: the slide flew through the position with the ship on 2; the step lands there (51 turns, not 47)."""
    g = _open(tmp_path, SLIDE_STEP)
    chains = g.chains(g.board)
    eng = native.engine(chains)
    assert eng is not None
    pos = g.initial()
    got = eng.turns(chains, g.codes(pos), pos.to_move)
    assert got is not None
    assert len(got) == len(chains.turns(g.codes(pos), pos.to_move)) == 51



def _backends_agree(g: RuleGame, p) -> int:
    """z3 and csp list the chain walk's turns on ``p``; how many."""
    ch = g.chains(p.board)
    want = set(class_rules(ch, ch.turns(g.codes(p), p.to_move)))
    for backend in ("z3", "csp"):
        assert set(g.turn_keys(p, backend)) == want, backend
    return len(want)


BACKEND_CASES = pytest.mark.parametrize("text", [SLIDE_STEP, SLIDE_OWN_STEP, STEP_SLIDE, TWO_SLIDES],
                                        ids=["anywhere", "own", "step-slide", "two-slides"])


@BACKEND_CASES
def test_the_backends_list_the_chain_walks_turns(tmp_path: Path, text: str) -> None:
    """z3 and csp model the same rule: their turns at the start are the chain walk's (1-3-2 included: 51 turns, not
    the 47 of a chain that stops at every position)."""
    g = _open(tmp_path, text)
    n = _backends_agree(g, g.initial())
    assert n == {SLIDE_STEP: 51, SLIDE_OWN_STEP: 15, STEP_SLIDE: 17, TWO_SLIDES: 61}[text]


@pytest.mark.slow
@BACKEND_CASES
def test_the_backends_list_the_chain_walks_turns_after_first_turns(tmp_path: Path, text: str) -> None:
    """The same after some first turns (the other player's ships)."""
    g = _open(tmp_path, text)
    for t in g.turns(g.initial())[::12]:
        assert _backends_agree(g, t.result)


def test_the_backends_read_a_forced_slide_over_a_stop_as_the_walk_does(tmp_path: Path) -> None:
    """A ship steps back beside its own ship: the forced slide back over the step's start cannot fly on, so it is
    not taken and the step ends the turn (a backend that took it would lose the step's turn)."""
    g = _open(tmp_path, STEP_FORCED_SLIDE)
    pos = g.make_position(g.board, [0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0], [0] * 16, 0, 0)
    assert _backends_agree(g, pos) == 5


@settings(max_examples=examples(0.3), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=16, max_size=16), st.integers(0, 1),
       st.sampled_from(["own", "step-forced-slide"]))
def test_the_backends_agree_on_random_positions(tmp_path: Path, states: list[int], to_move: int, case: str) -> None:
    """z3 and csp list the chain walk's turns on random positions of the cheap variants (differential)."""
    g = _open(tmp_path, {"own": SLIDE_OWN_STEP, "step-forced-slide": STEP_FORCED_SLIDE}[case])
    _backends_agree(g, g.make_position(g.board, states, [0] * 16, to_move, 0))
