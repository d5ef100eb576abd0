"""C generated per rule set and board (tapology/rules/native/specialise.py) against the interpreter (engine.c) and
the Python chain walk (the reference): the same turn sets on positions along random playouts and the same perft
counts, bulk and made, on every shipped game and surface it takes (-m slow: each board is a C compile of its own;
the default run compiles tic-tac-toe's); the others decline by name."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import weakref
from collections.abc import Iterator

import pytest

from tapology.errors import RuleError
from tapology.games.registry import DATA, SHIPPED, open_game
from tapology.rules import native
from tapology.rules.native import build, specialise, walks
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end, run_playouts
from tests.test_native_registry import PARAMS

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
# reversi's generated C counts its line captures and passes when stuck (7 s of gcc); the chess family's sources are
# megabytes (minutes of gcc): -m slow, their mechanics by default on ROYAL_ROOKS below
FAST = {("tictactoe", "plane:3x3"), ("reversi", "plane:8x8")}
DECLINED = ("royal rule", "turn clean-ups", "several pieces a turn", "neither a whole turn", "two turns from tile",
            "maximum rule", "applications", "step budgets",
            "disjunctions", "conditions around a tile", "clean-ups after each move")
CASES = [pytest.param(*p.values[:2], id=p.id, marks=[] if tuple(p.values[:2]) in FAST else [pytest.mark.slow])
         for p in PARAMS if not str(p.id).endswith("-deep")]  # (game, board) once each


def _engines(name: str, board: str):
    g = open_game(name, board)
    chains = g.chains(g.board)
    generic = native.engine(chains, specialise=False)
    if generic is None:
        return g, chains, None, None
    tabs = chains.comp.native_tables
    if specialise.declines(tabs):
        return g, chains, generic, None
    return g, chains, generic, native.Engine(specialise.load(tabs), tabs, "native-specialised")


@needs_native
@pytest.mark.parametrize(("name", "board"), CASES)
def test_specialised_matches_interpreter_and_chain_walk(name: str, board: str) -> None:
    try:
        g, chains, generic, spec = _engines(name, board)
    except RuleError as exc:  # a board the game's mechanics mean nothing on: the registry test checks the error
        pytest.skip(str(exc))
    if generic is None:
        assert native.why_not(chains)  # declined by name (tests/test_native_registry.py says which names)
        return
    if spec is None:
        why = specialise.declines(chains.comp.native_tables)
        assert any(d in why for d in DECLINED), why
        return
    _agree(g, chains, generic, spec, name, board)


def _agree(g, chains, generic, spec, name: str, board: str) -> None:
    """The generated C against the interpreter and the Python chain walk on positions along random playouts: turn
    sets, perft bulk and made (and divide), playouts to the same games."""
    small = len(g.board.tiles) <= 64 and "chess" not in name
    start = g.initial()
    for i in range(3):
        pos = playout_end(g, start, seed=11, index=i, max_plies=[0, 9, 25][i])
        codes = g.codes(pos)
        got = spec.turns(chains, codes, pos.to_move)
        assert got is not None
        assert got.keys() == generic.turns(chains, codes, pos.to_move).keys()
        want = chains.turns(codes, pos.to_move)
        if chains.mandatory and any(f.flagged for f in want.values()):
            want = {k: f for k, f in want.items() if f.flagged}
        assert set(got) == set(want), f"{name} on {board}, playout {i}"
        assert spec.in_check(codes, pos.to_move) == generic.in_check(codes, pos.to_move)
        if generic.perft_reason:
            continue
        depth = 2 if small else 1
        python = count_leaves(g, pos, depth, native=False)
        for bulk in (True, False):
            args = (codes, pos.to_move, pos.ply, depth + 1)
            assert spec.perft(*args, bulk=bulk) == generic.perft(*args, bulk=bulk)
            assert spec.perft(codes, pos.to_move, pos.ply, depth, bulk=bulk) == python
        assert spec.divide(codes, pos.to_move, pos.ply, depth) == generic.divide(codes, pos.to_move, pos.ply, depth)
        assert spec.playouts(codes, pos.to_move, pos.ply, 60, 0, 4, 3) == generic.playouts(codes, pos.to_move, pos.ply,
                                                                                            60, 0, 4, 3)
        for k in range(6):  # the generated listing picks the interpreter's turn: the same game to its last position
            args = (codes, pos.to_move, pos.ply, 200, k, 1, 5)
            assert spec.playouts(*args) == generic.playouts(*args), f"{name} on {board}, playout {k}"


# phases (fox and hounds' placement turn), the pass at any time and a counter (go's passes in a row): one small board
# by default (go's 9x9: a few seconds of gcc), the others -m slow
PHASED = [pytest.param("go", "plane:9x9", id="go-plane:9x9"),
          *(pytest.param("fox-and-hounds", b, id=f"fox-and-hounds-{b}", marks=[pytest.mark.slow])
            for b in ("plane:8x8", "cylinder:8x8", "mobius:8x8", "torus:8x8")),
          pytest.param("go", "torus:9x9", id="go-torus:9x9", marks=[pytest.mark.slow])]


@needs_native
@pytest.mark.parametrize(("name", "board"), PHASED)
def test_specialised_phases_passing_and_counters(name: str, board: str) -> None:
    g, chains, generic, spec = _engines(name, board)
    assert generic is not None and spec is not None, specialise.declines(chains.comp.native_tables)
    rules = g.rules
    start = g.initial()
    positions = [playout_end(g, start, seed=5, index=i, max_plies=m) for i, m in enumerate((0, 1, 2, 9, 30))]
    always = rules.passing == "always"
    if always:  # a position after a pass: its counter at 1, one more pass ends the game
        positions.append(dataclasses.replace(positions[3], counters=(1,) * len(positions[3].counters)))
    assert any(rules.phase_at(p.ply) >= 0 for p in positions) or not rules.phases
    assert any(rules.phase_at(p.ply) < 0 for p in positions)
    for pos in positions:
        codes, phase, ctr = g.codes(pos), rules.phase_at(pos.ply), pos.counters
        got = spec.turns(chains, codes, pos.to_move, phase)
        assert got is not None and got.keys() == generic.turns(chains, codes, pos.to_move, phase).keys()
        assert set(got) == set(chains.turns(codes, pos.to_move, phase=phase)), f"{name} on {board} at ply {pos.ply}"
        python = count_leaves(g, pos, 2, native=False)
        for bulk in (True, False):
            one = spec.perft(codes, pos.to_move, pos.ply, 1, bulk=bulk, counters=ctr)
            assert one == len(got) + int(always)  # the pass among the turns where the rule set says so
            assert spec.perft(codes, pos.to_move, pos.ply, 2, bulk=bulk, counters=ctr) == python
            args = (codes, pos.to_move, pos.ply, 3)
            assert spec.perft(*args, bulk=bulk, counters=ctr) == generic.perft(*args, bulk=bulk, counters=ctr)
        args = (codes, pos.to_move, pos.ply, 2)
        assert spec.divide(*args, counters=ctr) == generic.divide(*args, counters=ctr)
        for k in range(6):  # the same games to their last position, counters and passes included
            args = (codes, pos.to_move, pos.ply, 400, k, 1, 5)
            assert spec.playouts(*args, counters=ctr) == generic.playouts(*args, counters=ctr), f"{name}, playout {k}"
        args = (codes, pos.to_move, pos.ply, 400, 0, 20, 9)
        assert spec.playouts(*args, counters=ctr) == generic.playouts(*args, counters=ctr)


@needs_native
def test_a_big_perft_runs_specialised_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    g = open_game("tictactoe")
    chains = g.chains(g.board)
    pos = g.initial()
    native.engine(chains, specialise=False)
    specialise.load(chains.comp.native_tables)  # compiled already: a count that asks for it loads it at once
    monkeypatch.setattr(native, "SPECIALISE_WORK", 10**9)
    assert count_leaves(g, pos, 4) == 3024
    assert native.engine_used(chains, perft=True) == ("native", "")  # too small to ask for its own C
    monkeypatch.setattr(native, "SPECIALISE_WORK", 1000)
    assert count_leaves(g, pos, 9) == 127872
    assert native.engine_used(chains, perft=True) == ("native-specialised", "")
    assert run_playouts(g, pos, count=specialise_count(), seed=1).engine == "native-specialised"
    monkeypatch.setenv("TAPOLOGY_NATIVE_SPECIALISE", "0")
    assert count_leaves(g, pos, 9) == 127872
    assert native.engine_used(chains, perft=True) == ("native", "")


def _fresh(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """No specialised module loaded in this process nor compiled in the (temporary) cache."""
    for name in ("_SPECIAL", "_LATER", "_SOURCES", "_WHOLE"):
        monkeypatch.setattr(native, name, weakref.WeakKeyDictionary())
    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path))
    monkeypatch.delenv("TAPOLOGY_NATIVE_SPECIALISE", raising=False)
    monkeypatch.setattr(native, "SPECIALISE_WORK", 1000)


@needs_native
def test_a_count_that_does_not_pay_for_the_compile_runs_on_the_interpreter(monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path) -> None:
    g = open_game("tictactoe")
    chains = g.chains(g.board)
    assert native.engine(chains, specialise=False) is not None  # the interpreter is loaded already
    _fresh(monkeypatch, tmp_path)
    tabs = chains.comp.native_tables
    pending = build.pending_path(specialise.module_name(tabs))
    pending.parent.mkdir(parents=True)
    pending.write_text("")  # a compile under way (so this test starts none)
    cost = specialise.compile_seconds(specialise.generate(tabs))
    assert cost > 2  # tic-tac-toe's 165 kB of C: seconds of gcc
    assert native._compile_now(chains, 2 * cost + 1)  # a count that pays for it waits for the compile
    assert not native._compile_now(chains, 2 * cost - 1)  # one that does not runs at once
    assert count_leaves(g, g.initial(), 9) == 127872  # milliseconds of counting: not worth seconds of gcc
    kind, why = native.engine_used(chains, perft=True)
    assert kind == "native" and "compiled in the background" in why, why
    assert not build.built_path(specialise.module_name(tabs)).exists()
    assert not build.compile_later(specialise.module_name(tabs), "", specialise.FLAGS)  # under way: not again


@needs_native
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc: the generated C is not compiled here")
def test_the_compile_in_the_background_serves_the_next_count(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    import time

    g = open_game("tictactoe")
    chains = g.chains(g.board)
    assert native.engine(chains, specialise=False) is not None
    _fresh(monkeypatch, tmp_path)
    built = build.built_path(specialise.module_name(chains.comp.native_tables))
    assert count_leaves(g, g.initial(), 9) == 127872
    assert native.engine_used(chains, perft=True)[0] == "native" and not built.exists()
    deadline = time.monotonic() + 300
    while not built.exists() and time.monotonic() < deadline:  # the process started by the count compiles it
        time.sleep(0.5)
    assert built.exists(), (tmp_path / "native" / "last-build.log").read_text(errors="replace")[-2000:]
    assert count_leaves(g, g.initial(), 9) == 127872
    assert native.engine_used(chains, perft=True) == ("native-specialised", "")
    assert not build.pending_path(built.name.split(".")[0]).exists()


def specialise_count() -> int:
    from tapology.rules import playouts

    return playouts.SPECIALISE_COUNT


@needs_native
def test_without_a_compiler_the_interpreter_runs_and_says_why(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    g = open_game("tictactoe")
    chains = g.chains(g.board)
    assert native.engine(chains, specialise=False) is not None  # the interpreter is loaded already
    monkeypatch.setattr(native, "_SPECIAL", weakref.WeakKeyDictionary())
    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path))  # no specialised module cached there
    monkeypatch.setenv("CC", "false")
    monkeypatch.setenv("TAPOLOGY_NATIVE_SPECIALISE", "1")
    pos = g.initial()
    assert count_leaves(g, pos, 5) == 15120
    kind, why = native.engine_used(chains, perft=True)
    assert kind == "native" and "specialised C could not be built" in why, why
    assert not build.built_path(specialise.module_name(chains.comp.native_tables)).exists()


def test_declines_are_named() -> None:
    from tapology.rules.native.tables import Tables

    tabs = Tables(fields={"napps": specialise.MAX_APPS + 1, "nent": 1})
    assert "applications" in specialise.declines(tabs)


@needs_native
def test_moves_that_may_not_end_a_chain_are_left_to_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """final = false is no reason to decline (the interpreter's walk, which the generated C keeps, drops a chain
    ending on such a move; the parser refuses one without links): paper soccer, past its size, is declined for its
    chains of kicks."""
    g = open_game("paper-soccer")
    chains = g.chains(g.board)
    assert native.engine(chains, specialise=False) is not None
    tabs = chains.comp.native_tables
    assert "applications" in specialise.declines(tabs)
    monkeypatch.setattr(specialise, "MAX_APPS", 10**6)
    monkeypatch.setattr(specialise, "MAX_ENTRIES", 10**6)
    monkeypatch.setattr(walks, "MAX_WALK_STEPS", 2_000)  # the chains of kicks pass any bound: a small one is found soon
    why = specialise.declines(tabs)
    assert "final = false" not in why and "(a slide, a chain of moves)" in why, why


@needs_native
def test_a_declined_board_runs_on_the_interpreter_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    g = open_game("chess", "cylinder:8x8")
    chains = g.chains(g.board)
    monkeypatch.setenv("TAPOLOGY_NATIVE_SPECIALISE", "1")
    assert count_leaves(g, g.initial(), 1) == count_leaves(g, g.initial(), 1, native=False)
    kind, why = native.engine_used(chains, perft=True)
    assert kind == "native" and "two turns from tile" in why, why  # a rook's rays east and west meet


# the generated C of every shipped game it takes, compiled for syntax only (a second or less each): a generator edit
# that breaks one kind of game's C fails here, where the engine would silently fall back to the interpreter; these
# six cover the mandatory class (checkers), placement by gravity (connect4), placement anywhere (hex), line captures
# and passing when stuck (reversi), captures by liberties (go-nopass) and the plainest game; the others with -m slow
GENERATED = ("tictactoe", "checkers", "connect4", "hex", "reversi", "go-nopass")
COMPILES = [pytest.param(n, id=n, marks=[] if n in GENERATED else [pytest.mark.slow]) for n in SHIPPED]


@needs_native
@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc: the generated C is not compiled here")
@pytest.mark.parametrize("name", COMPILES)
def test_generated_c_compiles(name: str, tmp_path) -> None:
    g = open_game(name)
    chains = g.chains(g.board)
    if native.engine(chains, specialise=False) is None or specialise.declines(chains.comp.native_tables):
        assert name not in GENERATED, f"{name}: {native.why_not(chains) or specialise.declines(chains.comp.native_tables)}"
        return
    src = tmp_path / f"{name}.c"
    src.write_text(specialise.generate(chains.comp.native_tables))
    done = subprocess.run(["gcc", "-fsyntax-only", "-std=c99", "-Werror=implicit-function-declaration",
                           "-Werror=incompatible-pointer-types", "-I", str(build.HERE), str(src)],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"{name}: the generated C does not compile:\n{done.stderr[-2000:]}"


@needs_native
def test_generated_c_passes_when_stuck_as_the_interpreter_and_chain_walk() -> None:
    # reversi on 4x4: players get stuck and pass early; the generated C's passes (gen_perft's pass_turn) and line
    # captures against the interpreter over the whole game tree, and against the Python chain walk from stuck nodes
    g, chains, generic, spec = _engines("reversi", "plane:4x4")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    pos = g.initial()
    codes = g.codes(pos)
    for bulk in (True, False):
        assert spec.perft(codes, pos.to_move, pos.ply, 12, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply, 12,
                                                                                       bulk=bulk)
    stuck = []
    for i in range(40):
        for k in range(4, 12):
            end = playout_end(g, g.initial(), seed=5, index=i, max_plies=k)
            if not chains.turns(g.codes(end), end.to_move) and g.outcome(end) is None:
                stuck.append(end)
                break
        if len(stuck) == 3:
            break
    assert len(stuck) == 3  # positions where the player to move passes
    for end in stuck:
        c = g.codes(end)
        want = count_leaves(g, end, 3, native=False)
        assert want > 0
        for bulk in (True, False):
            assert spec.perft(c, end.to_move, end.ply, 3, bulk=bulk) == want
        args = (c, end.to_move, end.ply, 60, 0, 4, 3)
        assert spec.playouts(*args) == generic.playouts(*args)


# rooks and kings: slides (a step repeated straight on, a linked capture ending it), the generated C's unrolled walks
ROOKS = """
name = "rooks"
grid = "square"
players = ["white", "black"]
board = "plane:4x4"
boards = ["plane:4x4", "cylinder:4x4", "torus:4x4"]

[states]
empty = 0
R = { value = 1, owner = "white", kind = "rook" }
K = { value = 2, owner = "white", kind = "king" }
r = { value = 3, owner = "black", kind = "rook" }
k = { value = 4, owner = "black", kind = "king" }

[initial]
layout = \"\"\"
r . . k
. . . .
. . . .
R . . K
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

[[end]]
kind = "count"
states = ["own:king"]
op = "=="
value = 0
result = "loss"

[[end]]
kind = "no-turns"
result = "draw"
"""


@needs_native
def test_slides_run_on_the_generated_c_as_on_the_interpreter_and_chain_walk(tmp_path) -> None:
    rules = tmp_path / "rooks.toml"
    rules.write_text(ROOKS)
    g, chains, generic, spec = _engines(str(rules), "plane:4x4")
    assert spec is not None, specialise.declines(chains.comp.native_tables)  # a plane: each end reached once
    _agree(g, chains, generic, spec, "rooks", "plane:4x4")
    pos = g.initial()
    codes = g.codes(pos)
    for bulk in (True, False):
        assert spec.perft(codes, pos.to_move, pos.ply, 5, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply, 5,
                                                                                      bulk=bulk)


@needs_native
@pytest.mark.parametrize("board", ["cylinder:4x4", "torus:4x4"])
def test_slides_that_reach_one_tile_twice_decline(tmp_path, board: str) -> None:
    # on a wrapped board a rook's rays east and west (and on a torus north and south) reach the same tiles: one turn
    # found by two chains, which only keys tell apart; the proof must decline it (counted without keys: twice)
    rules = tmp_path / "rooks.toml"
    rules.write_text(ROOKS)
    g = open_game(str(rules), board)
    chains = g.chains(g.board)
    assert native.engine(chains, specialise=False) is not None
    why = specialise.declines(chains.comp.native_tables)
    assert "two turns from tile" in why and "may both fit with the same changes" in why, why
    pos = g.initial()
    assert count_leaves(g, pos, 2) == count_leaves(g, pos, 2, native=False)  # the interpreter, keyed, agrees
    flat = open_game(str(rules), "plane:4x4")
    plane = flat.chains(flat.board)
    assert native.engine(plane, specialise=False) is not None
    assert not specialise.declines(plane.comp.native_tables)  # the same moves on a plane: each end reached once


# chess whose long-range pieces step once: every move a whole turn, so the generated C takes its royal rule, its turn
# clean-ups (castling rights, en passant's passer), castling (safe cells: walked with keys beside the quiet moves)
# and promotion (one turn per piece; the two promotion rules on the plane's last rank one turn); a compile of a
# minute per board (-m slow); chess itself declines on its slides (links), named
STEPPERS = "tests/data/games/chess-steppers.toml"
STEPPER_FENS = ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
                "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", "r3k3/8/8/8/8/5n2/8/R3K2R w KQq - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


def test_the_royal_rule_clean_ups_and_slides_are_proved() -> None:
    for board in ("plane:8x8", "cylinder:8x8", "torus:12x8"):
        g = open_game(STEPPERS, board)
        chains = g.chains(g.board)
        if native.engine(chains, specialise=False) is None:
            pytest.skip(native.why_not(chains))
        assert specialise.declines(chains.comp.native_tables) == "", board
    for name, board, why in (("chess", "plane:8x8", ""), ("chess", "cylinder:8x8", "two turns from tile"),
                             ("skirmish", "plane:8x8", ""), ("chess-king-capture", "plane:8x8", "")):
        g = open_game(name, board)
        chains = g.chains(g.board)
        native.engine(chains, specialise=False)
        got = specialise.declines(chains.comp.native_tables)
        assert (why in got) if why else got == "", (name, board, got)


# rooks and kings again, the kings royal and castling rights as turn clean-ups (an unmoved rook and king lose them
# when the other is gone): the generated C settles each slide's turn (the royal test, the clean-ups) without keys
ROYAL_ROOKS = """
name = "royal-rooks"
grid = "square"
players = ["white", "black"]
board = "plane:4x4"
boards = ["plane:4x4", "cylinder:4x4"]
royal = ["K", "Kc", "k", "kc"]

[states]
empty = 0
R = { value = 1, owner = "white", kind = "rook" }
K = { value = 2, owner = "white", kind = "king" }
Rc = { value = 3, owner = "white", kind = "castle-rook" }
Kc = { value = 4, owner = "white", kind = "castle-king" }
r = { value = 11, owner = "black", kind = "rook" }
k = { value = 12, owner = "black", kind = "king" }
rc = { value = 13, owner = "black", kind = "castle-rook" }
kc = { value = 14, owner = "black", kind = "castle-king" }

[initial]
layout = \"\"\"
rc . . kc
. . . .
. . . .
Rc . . Kc
\"\"\"

[[move]]
name = "king"
to = [0, 1]
orientations = "rotations"
cells = [[0, 0, "own:king|own:castle-king", "empty"], [0, 1, "empty|foe", "own:king"]]

[[move]]
name = "rook"
to = [0, 1]
orientations = "rotations"
repeat = "optional"
cells = [[0, 0, "own:rook|own:castle-rook", "empty"], [0, 1, "empty", "own:rook"]]
links = [{ moves = ["rook-capture"], orientations = [0], forced = false }]

[[move]]
name = "rook-capture"
to = [0, 1]
class = "capture"
orientations = "rotations"
cells = [[0, 0, "own:rook|own:castle-rook", "empty"], [0, 1, "foe", "own:rook"]]

[[cleanup]]
name = "white-rook-loses-castling"
pattern = "*Rc => *R"
if = { states = ["Kc"], op = "==", value = 0 }

[[cleanup]]
name = "black-rook-loses-castling"
pattern = "*rc => *r"
if = { states = ["kc"], op = "==", value = 0 }

[[cleanup]]
name = "white-king-loses-castling"
pattern = "*Kc => *K"
if = { states = ["Rc"], op = "==", value = 0 }

[[cleanup]]
name = "black-king-loses-castling"
pattern = "*kc => *k"
if = { states = ["rc"], op = "==", value = 0 }

[[end]]
kind = "no-turns"
check = true
result = "loss"

[[end]]
kind = "no-turns"
result = "draw"
"""


# the same without the royal rule, a king taken losing: a turn with a change on a tile no clean-up writes is counted on
# the last ply unsettled
KING_CAPTURE_ROOKS = ROYAL_ROOKS.replace('royal = ["K", "Kc", "k", "kc"]\n', "").replace(
    '[[end]]\nkind = "no-turns"\ncheck = true\nresult = "loss"\n',
    '[[end]]\nkind = "count"\nstates = ["own:king", "own:castle-king"]\nop = "=="\nvalue = 0\nresult = "loss"\n')


@needs_native
@pytest.mark.parametrize("royal", [True, False], ids=["royal", "king-capture"])
def test_generated_c_settles_slides_under_the_royal_rule_and_clean_ups(tmp_path, royal: bool) -> None:
    rules = tmp_path / "royal-rooks.toml"
    rules.write_text(ROYAL_ROOKS if royal else KING_CAPTURE_ROOKS)
    assert royal or ("royal = " not in KING_CAPTURE_ROOKS and "kind = \"count\"" in KING_CAPTURE_ROOKS)
    g, chains, generic, spec = _engines(str(rules), "plane:4x4")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    _agree(g, chains, generic, spec, "royal-rooks", "plane:4x4")
    checked = 0
    for i in range(4):
        pos = playout_end(g, g.initial(), seed=7, index=i, max_plies=[0, 3, 8, 16][i])
        codes = g.codes(pos)
        checked += spec.in_check(codes, pos.to_move)
        python = count_leaves(g, pos, 3, native=False)
        for bulk in (True, False):
            assert spec.perft(codes, pos.to_move, pos.ply, 3, bulk=bulk) == python
            assert spec.perft(codes, pos.to_move, pos.ply, 6, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply,
                                                                                         6, bulk=bulk)
    assert checked or not royal  # a position in check among them
    wrapped = open_game(str(rules), "cylinder:4x4")
    cyl = wrapped.chains(wrapped.board)
    assert native.engine(cyl, specialise=False) is not None
    assert "two turns from tile" in specialise.declines(cyl.comp.native_tables)


# the clean-ups of castling's king and rook moves (the node's memo cannot answer them: they drop rights) are run once
# and kept across nodes and counts of one engine (memo_turn), answering a later turn only where the board after it
# holds what that run read: positions whose rights differ (a rook or king moved, a rook taken), counted one after
# another on one engine, in both orders, each as the Python walk counts it
@needs_native
@pytest.mark.parametrize("castling", [False, True], ids=["rooks", "castling"])
def test_generated_c_keeps_clean_up_runs_only_where_they_read_the_same(tmp_path, castling: bool) -> None:
    rules = tmp_path / "royal-rooks.toml"
    rules.write_text(CASTLING_ROOKS if castling else ROYAL_ROOKS)
    g, chains, generic, spec = _engines(str(rules), "plane:4x4")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    positions = [g.initial()] + [playout_end(g, g.initial(), seed=3, index=i, max_plies=1 + i % 4) for i in range(12)]
    rights = {tuple(sorted(g.codes(pos)[:16])) for pos in positions}
    assert len(rights) > 3  # positions whose pieces (and rights) differ
    want = [count_leaves(g, pos, 3, native=False) for pos in positions]
    for order in (positions, positions[::-1]):
        for pos in order:
            codes = g.codes(pos)
            assert spec.perft(codes, pos.to_move, pos.ply, 3) == want[positions.index(pos)]
            assert generic.perft(codes, pos.to_move, pos.ply, 3) == want[positions.index(pos)]


# the royal rule's pins and discovered checks on the last ply of a bulk count (where the generated C counts a move
# from the node's own royal test when it touches nothing that test read): white's king on the left of the second
# rank; its rook, pinned on the file by the black rook above it, may only take it; its pawn may push but not take
# the black passer en passant, which removes both pawns from between the king and the black rook on the rank.
# Pawns (of both sides) step and take up the board, a passer (which takes nothing) a pawn again after the next turn:
# in CLEANUP_CHECK the clean-up after any white turn makes the black passer below the king a pawn that attacks it,
# so only the king's moves are turns.
ROYAL_PINS = ROYAL_ROOKS.replace('board = "plane:4x4"\nboards = ["plane:4x4", "cylinder:4x4"]',
                                 'board = "plane:5x5"\nboards = ["plane:5x5"]').replace(
    'kc = { value = 14, owner = "black", kind = "castle-king" }\n',
    'kc = { value = 14, owner = "black", kind = "castle-king" }\n'
    'P = { value = 5, owner = "white", kind = "pawn", symmetry = "fix:0,1" }\n'
    'Pe = { value = 6, owner = "white", kind = "passer", symmetry = "fix:0,1", look = "P", symbol = "P" }\n'
    'p = { value = 15, owner = "black", kind = "pawn", symmetry = "fix:0,1" }\n'
    'pe = { value = 16, owner = "black", kind = "passer", symmetry = "fix:0,1", look = "p", symbol = "p" }\n').replace(
    'rc . . kc\n. . . .\n. . . .\nRc . . Kc\n',
    '. . . . k\nr . . . .\nR . . . .\nK P pe . r\n. . . . .\n').replace(
    '[[cleanup]]\nname = "white-rook-loses-castling"',
    '[[move]]\nname = "pawn-push"\norientations = "identity"\n'
    'cells = [[0, 0, "own:pawn", "empty"], [0, 1, "empty", "@"]]\n\n'
    '[[move]]\nname = "pawn-double"\nto = [0, 2]\norientations = "identity"\n'
    'cells = [[0, 0, "own:pawn", "empty"], [0, 1, "empty"], [0, 2, "empty", "own:passer"]]\n\n'
    '[[move]]\nname = "pawn-capture"\nclass = "capture"\norientations = "fix:0,1"\n'
    'cells = [[0, 0, "own:pawn", "empty"], [1, 1, "foe", "@"]]\n\n'
    '[[move]]\nname = "en-passant"\nclass = "capture"\norientations = "fix:0,1"\n'
    'cells = [[0, 0, "own:pawn", "empty"], [1, 0, "foe:passer", "empty"], [1, 1, "empty", "@"]]\n\n'
    '[[cleanup]]\nname = "white-passer-passes"\nplayer = "black"\npattern = "*Pe => *P^"\n\n'
    '[[cleanup]]\nname = "black-passer-passes"\nplayer = "white"\npattern = "*pe => *p^"\n\n'
    '[[cleanup]]\nname = "white-rook-loses-castling"')
CLEANUP_CHECK = ROYAL_PINS.replace('. . . . k\nr . . . .\nR . . . .\nK P pe . r\n. . . . .\n',
                                   '. . . . k\n. . R . .\n. . . . .\nK . . . .\n. pe . . .\n')


@needs_native
@pytest.mark.parametrize(("text", "forbidden", "legal"), [(ROYAL_PINS, 5, None), (CLEANUP_CHECK, 8, 3)],
                         ids=["pins", "clean-up"])
def test_generated_c_keeps_pins_and_discovered_checks_on_the_last_ply(tmp_path, text: str, forbidden: int,
                                                                      legal: int | None) -> None:
    rules = tmp_path / "royal-pins.toml"
    rules.write_text(text)
    free = tmp_path / "free-pins.toml"  # the same moves without the royal rule
    free.write_text(text.replace('royal = ["K", "Kc", "k", "kc"]\n', "").replace("check = true\n", ""))
    g, chains, generic, spec = _engines(str(rules), "plane:5x5")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    pos = g.initial()
    assert "en-passant" in text and "pawn-capture" in text
    # the moves the royal rule forbids: the pinned rook's four steps off its file and the pawn taking en passant;
    # the rook's eight moves, the king on a tile the pawn will attack
    unruled = open_game(str(free))
    python = count_leaves(g, pos, 1, native=False)
    assert python == count_leaves(unruled, unruled.initial(), 1, native=False) - forbidden
    assert legal is None or python == legal
    for i in range(5):
        at = pos if i == 0 else playout_end(g, pos, seed=5, index=i, max_plies=2 * i)
        codes = g.codes(at)
        for depth in (1, 2, 3):
            python = count_leaves(g, at, depth, native=False)
            for bulk in (True, False):
                assert spec.perft(codes, at.to_move, at.ply, depth, bulk=bulk) == python, (i, depth, bulk)
                assert generic.perft(codes, at.to_move, at.ply, depth, bulk=bulk) == python, (i, depth, bulk)


def _table(source: str, name: str) -> list[int]:
    """The ints of the generated C's table ``k_<name>``."""
    got = re.search(rf"k_{name}\[\d+\] = \{{([-\d,]*)\}}", source)
    assert got is not None, name
    return [int(v) for v in got.group(1).split(",")]


def _count_moves(prog: list[int], q: int, end: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Each move of gen_count's items (specialise._count_items) from q to end, follow-ups too: (its group's tile and
    k_calt offset, its class (1-based), the offset of its list entry (size, 0, nt, checks, body) or -1 where its class
    is its body alone, its body's offset); (-1, -1, 0, offset, body) for a move of no check."""
    while q < end:
        moves: list[tuple[int, int, int, int, int]] = []
        if prog[q + 1]:
            for a in range(1, prog[q + 4] + 1):
                r = prog[q + 4 + a]
                if r > 0:
                    moves.append((prog[q + 2], prog[q + 3], a, -1, q + r))
                    continue
                m = q - r + 1
                while m < q - r + prog[q - r]:
                    moves.append((prog[q + 2], prog[q + 3], a, m, m + 3 + 2 * prog[m + 2]))
                    m += prog[m]
        else:
            moves.append((-1, -1, 0, q, q + 3 + 2 * prog[q + 2]))
        for move in moves:
            yield move
            body = move[4]
            yield from _count_moves(prog, body + prog[body + 4], body + prog[body])
        q += prog[q]


def _royal_pins(tmp_path):
    """ROYAL_PINS on plane:5x5: its game, interpreter, generated engine and the generated C's source."""
    rules = tmp_path / "royal-pins.toml"
    rules.write_text(ROYAL_PINS)
    g, chains, generic, spec = _engines(str(rules), "plane:5x5")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    return g, generic, spec, specialise.generate(chains.comp.native_tables)


# the last ply of a bulk count runs a move of several checks with the one whose mask takes a code the move itself writes
# (the empty tile it leaves: common on a board) last (specialise._likely_last): en passant's passer is its key (read
# first), its empty tile checked after, so that the pawns' en passant, which almost never fits, stops at its first
# check; the counts, with pins and discovered checks, the interpreter's and the Python chain walk's along playouts
@needs_native
def test_generated_c_checks_a_move_s_rarer_tile_first(tmp_path) -> None:
    g, generic, spec, source = _royal_pins(tmp_path)
    prog, off, masks, calt = (_table(source, name) for name in ("cprog", "coff", "masks", "calt"))
    rarer = 0
    for r in range(len(off) - 1):
        for _, base, a, m, body in _count_moves(prog, off[r], off[r + 1]):
            if a and m >= 0 and prog[m + 2] == 1:  # a move of two checks: its key, then (mask, tile) once, its body
                # the body: [size, sure, value on the entry tile or -1, 5 + 2 * np, 5 + 2 * (np + nq), (tile, value)
                # * (np + nq), ...]
                wrote = {prog[body + 2]} | {prog[v] for v in range(body + 6, body + prog[body + 4], 2)}
                key = any(calt[base + c] == a for c in wrote)
                rest = any(masks[prog[m + 3] + c] for c in wrote)
                rarer += not key and rest
    assert rarer  # the en passant moves: the passer's check first, the empty tile's last
    for i in range(6):
        pos = playout_end(g, g.initial(), seed=23, index=i, max_plies=3 * i)
        codes = g.codes(pos)
        for depth in (1, 2, 3):
            assert spec.perft(codes, pos.to_move, pos.ply, depth) == count_leaves(g, pos, depth, native=False), (i, depth)
        assert spec.perft(codes, pos.to_move, pos.ply, 5) == generic.perft(codes, pos.to_move, pos.ply, 5), i


# the last ply of a bulk count reads the moves keyed by one check alike (a tile and the codes its mask takes) as one
# class, its tile read once (specialise._count_items): the pawn's push and its double push, both of the empty tile in
# front, one class of two moves; every move of a class counted as the interpreter and the Python chain walk count it
@needs_native
def test_generated_c_counts_each_move_of_a_class_read_once(tmp_path) -> None:
    g, generic, spec, source = _royal_pins(tmp_path)
    prog, off = _table(source, "cprog"), _table(source, "coff")
    shared = 0
    for r in range(len(off) - 1):
        seen: dict[tuple[int, int, int], int] = {}
        for tile, base, a, _, _ in _count_moves(prog, off[r], off[r + 1]):
            seen[(tile, base, a)] = seen.get((tile, base, a), 0) + 1
        shared += any(k[2] and n == 2 for k, n in seen.items())
    assert shared  # the white pawn's rows: its push and double push
    for i in range(8):
        pos = playout_end(g, g.initial(), seed=5, index=i, max_plies=2 * i)
        codes = g.codes(pos)
        for depth in (1, 2):
            assert spec.perft(codes, pos.to_move, pos.ply, depth) == count_leaves(g, pos, depth, native=False), (i, depth)
        assert spec.perft(codes, pos.to_move, pos.ply, 4) == generic.perft(codes, pos.to_move, pos.ply, 4), i


# the chess family with turn clean-ups (en passant's passer, castling rights) and slides: gardner's 5x5 is a compile of
# about a minute, the 8x8 boards' several minutes (-m slow)
FAMILY = [pytest.param(n, b, id=f"{n}-{b}", marks=[pytest.mark.slow])
          for n, b in (("chess-gardner-5x5-king-capture", "plane:5x5"), ("chess-king-capture", "plane:8x8"),
                       ("skirmish", "plane:8x8"), ("chess", "plane:8x8"))]


@needs_native
@pytest.mark.parametrize(("name", "board"), FAMILY)
def test_generated_c_counts_the_chess_family(name: str, board: str) -> None:
    g, chains, generic, spec = _engines(name, board)
    assert generic is not None and spec is not None, specialise.declines(chains.comp.native_tables)
    for i, most in enumerate((0, 6, 15, 30, 60)):
        pos = playout_end(g, g.initial(), seed=9, index=i, max_plies=most)
        codes = g.codes(pos)
        got = spec.turns(chains, codes, pos.to_move)
        assert got is not None and set(got) == set(chains.turns(codes, pos.to_move))
        python = count_leaves(g, pos, 2, native=False)
        for bulk in (True, False):
            assert spec.perft(codes, pos.to_move, pos.ply, 2, bulk=bulk) == python
            assert spec.perft(codes, pos.to_move, pos.ply, 4, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply, 4,
                                                                                         bulk=bulk)
        # the playouts (the king-capture rule sets' counted tile by tile, the picked tile listed: gen_pick) the
        # interpreter's games, one of them the Python walk's
        args = (codes, pos.to_move, pos.ply, 300, 0, 8, 11 + i)
        assert spec.playouts(*args) == generic.playouts(*args)
        one = (codes, pos.to_move, pos.ply, 80, i, 1, 11)
        game = spec.playouts(*one)
        assert game == generic.playouts(*one)
        end = g.codes(playout_end(g, pos, seed=11, index=i, max_plies=80))
        assert game[1] is not None and game[1][:len(codes)] == end


# castling (safe cells: walked with keys beside the quiet moves) on the royal rooks' 4x4 board, after the king's moves
# in each entry row (the settled playout lists a tile's quiet turns, then its keyed ones) or, moved first, before them
CASTLE = """
[[move]]
name = "castle"
orientations = [0, 4]
to = [-2, 0]
safe = [[0, 0], [-1, 0], [-2, 0]]
cells = [[0, 0, "own:castle-king", "empty"], [-1, 0, "empty", "own:rook"], [-2, 0, "empty", "own:king"],
         [-3, 0, "own:castle-rook", "empty"]]
"""
CASTLING_ROOKS = ROYAL_ROOKS.replace("\n[[cleanup]]", CASTLE + "\n[[cleanup]]", 1)
CASTLING_FIRST = ROYAL_ROOKS.replace("\n[[move]]", CASTLE + "\n[[move]]", 1)


@needs_native
@pytest.mark.parametrize("rules_text", [ROYAL_ROOKS, KING_CAPTURE_ROOKS, CASTLING_ROOKS],
                         ids=["royal", "king-capture", "castling"])
def test_settled_playouts_run_on_the_generated_c_as_on_the_interpreter(tmp_path, rules_text: str) -> None:
    # the settled rule sets' playouts on their generated C (gen_playout): the interpreter's games for the same
    # stream, to the same plies, results and end positions, from positions along playouts; the turn sets along the way
    # the Python chain walk's
    rules = tmp_path / "rooks.toml"
    rules.write_text(rules_text)
    g, chains, generic, spec = _engines(str(rules), "plane:4x4")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    tabs = chains.comp.native_tables
    assert specialise.plays(tabs) and "gen_play_quiet" in specialise.generate(tabs)
    for i in range(4):
        pos = playout_end(g, g.initial(), seed=13, index=i, max_plies=[0, 2, 7, 20][i])
        codes = g.codes(pos)
        for k in range(12):
            args = (codes, pos.to_move, pos.ply, 150, k, 1, 3 + i)
            got = spec.playouts(*args)
            assert got == generic.playouts(*args), f"position {i}, playout {k}"
            end = playout_end(g, pos, seed=3 + i, index=k, max_plies=150)
            assert got[1] is not None and got[1][:len(codes)] == g.codes(end)
            if k < 3:
                ends = g.codes(end)
                assert set(spec.turns(chains, ends, end.to_move) or {}) == set(chains.turns(ends, end.to_move))
        stats = spec.playouts(codes, pos.to_move, pos.ply, 150, 0, 40, 21)
        assert stats == generic.playouts(codes, pos.to_move, pos.ply, 150, 0, 40, 21)
    if rules_text is CASTLING_ROOKS:  # castling is a turn at the start, found by the keyed walk
        pos = g.initial()
        assert any(len(k[2]) == 4 for k in chains.turns(g.codes(pos), pos.to_move)), "no castling"


@needs_native
def test_a_node_scans_only_the_codes_with_entry_moves_that_are_not_quiet(tmp_path) -> None:
    # castling is the only entry move beside the quiet ones: where those run apart (the settled perft and playouts),
    # a node's walk scans the tiles holding an unmoved king only (k_other_codes), not every piece; the counts the
    # interpreter's and the Python walk's from positions along playouts, castling among the turns at the start
    rules = tmp_path / "castling.toml"
    rules.write_text(CASTLING_ROOKS)
    g, chains, generic, spec = _engines(str(rules), "plane:4x4")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    start = g.initial()
    raw = chains.comp.native_tables.fields["raw_code"].tolist()
    kings = {raw.index(g.codes(start)[t]) for t in (3, 15)}  # kc and Kc: "rc . . kc" on top, "Rc . . Kc" below
    scanned = re.search(r"k_other_codes\[\d+\] = \{([\d,]*)\}", specialise.generate(chains.comp.native_tables))
    assert scanned is not None and {int(c) for c in scanned.group(1).split(",")} == kings and len(kings) == 2
    assert any(len(k[2]) == 4 for k in chains.turns(g.codes(start), start.to_move)), "no castling"
    for i in range(4):
        pos = playout_end(g, start, seed=17, index=i, max_plies=[0, 1, 4, 12][i])
        codes = g.codes(pos)
        python = count_leaves(g, pos, 3, native=False)
        for bulk in (True, False):
            assert spec.perft(codes, pos.to_move, pos.ply, 3, bulk=bulk) == python
            assert spec.perft(codes, pos.to_move, pos.ply, 5, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply,
                                                                                         5, bulk=bulk)


# checkers' rules (men, kings, mandatory multi-jumps, crowning) on a 5x5 board: its generated C compiles in seconds
SMALL_CHECKERS = """
. b . b .
b . b . b
. . . . .
w . w . w
. w . w .
"""


@needs_native
def test_the_walk_of_the_mandatory_turns_starts_only_where_a_capture_fits(tmp_path) -> None:
    # gen_others_mask: the tiles where some jump's checks all pass, the only ones node_turns_in's walk starts from
    # in the generated perft (TP_GEN_OTHER_MASK); from positions along playouts, captures due among them, the counts
    # the interpreter's and the Python walk's
    text = (DATA / "checkers.toml").read_text()
    text = re.sub(r'layout = """.*?"""', f'layout = """{SMALL_CHECKERS}"""', text, flags=re.S)
    rules = tmp_path / "checkers5.toml"
    rules.write_text(re.sub(r'boards = \[.*?\]', 'boards = ["plane:5x5"]', text).replace('"plane:8x8"', '"plane:5x5"'))
    g, chains, generic, spec = _engines(str(rules), "plane:5x5")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    assert "#define TP_GEN_OTHER_MASK" in specialise.generate(chains.comp.native_tables)
    start, captures = g.initial(), 0
    for i in range(12):
        pos = playout_end(g, start, seed=23, index=i, max_plies=[0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14][i])
        codes = g.codes(pos)
        captures += any(f.flagged for f in chains.turns(codes, pos.to_move).values())
        python = count_leaves(g, pos, 3, native=False)
        for bulk in (True, False):
            assert spec.perft(codes, pos.to_move, pos.ply, 3, bulk=bulk) == python, f"playout {i}"
            assert spec.perft(codes, pos.to_move, pos.ply, 7, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply,
                                                                                         7, bulk=bulk), f"playout {i}"
        args = (codes, pos.to_move, pos.ply, 60, 0, 4, 3)
        assert spec.playouts(*args) == generic.playouts(*args), f"playout {i}"
    assert captures >= 3  # positions whose player to move must capture


@needs_native
def test_playouts_do_not_wait_for_a_settled_perft_they_do_not_play(tmp_path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # where a keyed move comes before quiet ones in an entry row (castling first), the settled perft's playouts are
    # the interpreter's turn picking: a long playout run does not compile for them
    rules = tmp_path / "castling-first.toml"
    rules.write_text(CASTLING_FIRST)
    g = open_game(str(rules), "plane:4x4")
    chains = g.chains(g.board)
    generic = native.engine(chains, specialise=False)
    assert generic is not None and not specialise.declines(chains.comp.native_tables)
    assert not specialise.plays(chains.comp.native_tables)
    monkeypatch.delenv("TAPOLOGY_NATIVE_SPECIALISE", raising=False)
    monkeypatch.setattr(specialise, "load", lambda *args, **kw: pytest.fail("compiled for playouts"))
    pos = g.initial()
    codes = g.codes(pos)
    got = native.playouts(chains, codes, pos.to_move, pos.ply, 60, 0, 4, 3, specialise=True)
    assert got == generic.playouts(codes, pos.to_move, pos.ply, 60, 0, 4, 3)
    t = open_game("tictactoe", "plane:3x3")
    tchains = t.chains(t.board)
    assert native.engine(tchains, specialise=False) is not None and specialise.plays(tchains.comp.native_tables)


# Kiwipete and three more positions of castling, en passant, promotion and checks (the chess programming wiki's perft
# positions): the generated C against the interpreter and the Python chain walk
CHESS_FENS = ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
              "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
              "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8")


@needs_native
@pytest.mark.slow
def test_generated_c_counts_chess_positions() -> None:
    from tapology.games.chess import position_from_fen

    g, chains, generic, spec = _engines("chess", "plane:8x8")
    assert generic is not None and spec is not None, specialise.declines(chains.comp.native_tables)
    for text in CHESS_FENS:
        pos = position_from_fen(g, text)
        codes = g.codes(pos)
        python = count_leaves(g, pos, 2, native=False)
        for bulk in (True, False):
            assert spec.perft(codes, pos.to_move, pos.ply, 2, bulk=bulk) == python
            assert spec.perft(codes, pos.to_move, pos.ply, 3, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply, 3,
                                                                                         bulk=bulk)


@needs_native
@pytest.mark.slow
def test_chess_playouts_run_on_the_generated_c_as_on_the_interpreter() -> None:
    # chess's settled playouts (castling keyed beside the quiet moves, the royal rule's draws): the interpreter's games
    # from the start, Kiwipete and a middle game, to the same plies, results and end positions; the end positions'
    # turn sets the Python chain walk's
    from tapology.games.chess import position_from_fen

    g, chains, generic, spec = _engines("chess", "plane:8x8")
    assert generic is not None and spec is not None and specialise.plays(chains.comp.native_tables)
    for pos in (g.initial(), position_from_fen(g, CHESS_FENS[0]), playout_end(g, g.initial(), seed=2, max_plies=40)):
        codes = g.codes(pos)
        for k in range(6):
            args = (codes, pos.to_move, pos.ply, 400, k, 1, 17)
            got = spec.playouts(*args)
            assert got == generic.playouts(*args), f"playout {k}"
            if k < 2:
                end = playout_end(g, pos, seed=17, index=k, max_plies=400)
                ends = g.codes(end)
                assert got[1] is not None and got[1][:len(codes)] == ends
                assert set(spec.turns(chains, ends, end.to_move) or {}) == set(chains.turns(ends, end.to_move))
        args = (codes, pos.to_move, pos.ply, 400, 0, 30, 5)
        assert spec.playouts(*args) == generic.playouts(*args)


@needs_native
@pytest.mark.slow
@pytest.mark.parametrize("board", ["plane:8x8", "torus:12x8"])
def test_generated_c_settles_the_royal_rule_and_clean_ups(board: str) -> None:
    from tapology.games.chess import position_from_fen

    g, chains, generic, spec = _engines(STEPPERS, board)
    assert generic is not None and spec is not None, specialise.declines(chains.comp.native_tables)
    positions = [g.initial()] + [playout_end(g, g.initial(), seed=3, index=i, max_plies=k)
                                 for i, k in enumerate((6, 15, 30, 60))]
    if board == "plane:8x8":
        positions += [position_from_fen(g, text) for text in STEPPER_FENS]
    checked = 0
    for pos in positions:
        codes = g.codes(pos)
        got = spec.turns(chains, codes, pos.to_move)
        assert got is not None and set(got) == set(chains.turns(codes, pos.to_move))
        checked += spec.in_check(codes, pos.to_move)
        python = count_leaves(g, pos, 2, native=False)
        for bulk in (True, False):
            assert spec.perft(codes, pos.to_move, pos.ply, 2, bulk=bulk) == python
            assert spec.perft(codes, pos.to_move, pos.ply, 3, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply, 3,
                                                                                         bulk=bulk)
    assert board != "plane:8x8" or checked  # a position in check among them


def _amazons(tmp_path, size: int, layout: str) -> str:
    """The shipped amazons rules on a size x size board with ``layout``: a rule file's path."""
    text = (DATA / "amazons.toml").read_text()
    assert 'board = "plane:10x10"' in text
    text = text.replace('board = "plane:10x10"', f'board = "plane:{size}x{size}"')
    text = re.sub(r"boards = \[.*\]", f'boards = ["plane:{size}x{size}", "cylinder:{size}x{size}", '
                  f'"torus:{size}x{size}"]', text)
    text = re.sub(r'layout = """.*?"""', f'layout = """\n{layout}\n"""', text, flags=re.S)
    rules = tmp_path / "amazons.toml"
    rules.write_text(text)
    return str(rules)


@needs_native
def test_a_queen_move_and_its_arrow_run_on_the_generated_c(tmp_path) -> None:
    # amazons on 3x3: the queen's slide links (forced) to the arrow's, walked once per landing tile as a shared
    # continuation; the generated C against the interpreter and the Python chain walk, and deeper against the
    # interpreter over the whole tree
    g, chains, generic, spec = _engines(_amazons(tmp_path, 3, ". . b\n. . .\nw . ."), "plane:3x3")
    assert spec is not None, specialise.declines(chains.comp.native_tables)
    assert "gen_cont_" in specialise.generate(chains.comp.native_tables)
    _agree(g, chains, generic, spec, "amazons", "plane:3x3")
    pos = g.initial()
    codes = g.codes(pos)
    for bulk in (True, False):
        assert spec.perft(codes, pos.to_move, pos.ply, 4, bulk=bulk) == generic.perft(codes, pos.to_move, pos.ply, 4,
                                                                                      bulk=bulk)


@needs_native
@pytest.mark.parametrize("board", ["cylinder:3x3", "torus:3x3"])
def test_arrows_that_reach_one_tile_twice_decline(tmp_path, board: str) -> None:
    # on a wrapped board the arrow's rays east and west from the landing tile reach the same tiles: one turn found
    # twice, which only keys tell apart; the proof of the shared continuation must decline it
    g = open_game(_amazons(tmp_path, 3, ". . b\n. . .\nw . ."), board)
    chains = g.chains(g.board)
    assert native.engine(chains, specialise=False) is not None
    why = specialise.declines(chains.comp.native_tables)
    assert "two turns of the walk from tile" in why and "may both fit with the same changes" in why, why
    pos = g.initial()
    assert count_leaves(g, pos, 1) == count_leaves(g, pos, 1, native=False)  # the interpreter, keyed, agrees
