"""The native (C) rule engine against the Python reference: turn sets (keys, label paths, moves, flags) and perft
counts on random positions of every shipped game and example, chess positions with castling, en passant and
promotion, known chess counts, divide, and the fallback to Python."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapology.errors import RuleError
from tapology.game import Position
from tapology.games import open_game
from tapology.rules import native
from tapology.rules.chains import Chains, Found
from tapology.rules.compiled import Key
from tapology.rules.engine import RuleGame
from tapology.rules.native import build
from tapology.rules.perft import count_leaves, divide

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "games"
needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")

# (game, board, plies of one random playout, perft depth checked on its positions)
CASES = [
    *(("tictactoe", b, 9, 3) for b in ("plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3")),
    *(("checkers", b, 40, 2) for b in ("plane:8x8", "cylinder:8x8", "mobius:8x8", "torus:8x8")),
    ("chinese-checkers", "star", 40, 2),
    ("chess", "plane:8x8", 12, 2),
    ("chess", "cylinder:8x8", 6, 1),
    ("chess", "mobius:8x8", 6, 1),
    ("chess", "torus:12x8", 4, 1),
    ("chess", "klein:12x8", 4, 1),
    *((str(EXAMPLES / "line-counting.toml"), b, 9, 3) for b in ("plane:3x3", "torus:3x3", "klein:3x3")),
    *((str(EXAMPLES / "rook-and-king.toml"), b, 20, 3) for b in ("plane:4x4", "cylinder:4x4", "torus:4x4")),
    # line captures and passing (reversi), on the plane and across seams
    ("reversi", "plane:8x8", 60, 2),
    *(("reversi:4x4", b, 16, 3) for b in ("plane:4x4", "torus:4x4", "klein:4x4", "mobius:4x4")),
    *(("reversi:6x6", b, 32, 2) for b in ("cylinder:6x6", "torus:6x6")),
    # gravity (connect4)
    *(("connect4", b, 30, 3) for b in ("plane:6x7", "cylinder:6x7", "mobius:6x7")),
    # connection goals (hex)
    *(("hex:3x3", b, 9, 4) for b in ("hex-rhombus:3x3", "hex-plane:3x3")),
    ("hex:5x5", "hex-rhombus:5x5", 25, 2),
    # lines of exactly k (gomoku standard) and of k or more
    *(("gomoku-standard:6x6", b, 30, 2) for b in ("plane:6x6", "torus:5x5", "mobius:6x6")),
    ("gomoku-free-style:6x6", "klein:6x6", 30, 2),
    # several placements in one turn (connect6)
    *(("connect6:5x5", b, 12, 2) for b in ("plane:5x5", "torus:5x5")),
    # a line that loses (yavalath)
    *(("yavalath", b, 16, 2) for b in ("hexagon-5", "hex-torus:4x4")),
    # captures by liberties, suicide and passes (go)
    *(("go-nopass:4x4", b, 40, 3) for b in ("plane:4x4", "torus:4x4", "klein:4x4")),
    ("go-nopass:3x3", "plane:3x3", 30, 4),
]
_GAMES: dict[tuple[str, str], RuleGame] = {}


def _game(spec: str, board: str) -> RuleGame:
    key = (spec, board)
    if key not in _GAMES:
        _GAMES[key] = open_game(spec, board)
    return _GAMES[key]


def _python_keys(chains: Chains, codes: list[int], player: int) -> dict[Key, Found]:
    """The reference: Chains.turns and the mandatory-class rule."""
    found = chains.turns(codes, player)
    if chains.mandatory and any(f.flagged for f in found.values()):
        found = {k: f for k, f in found.items() if f.flagged}
    return found


def _assert_same_turns(want: dict[Key, Found], got: dict[Key, Found]) -> None:
    assert list(got) == list(want)
    for k, f in want.items():
        assert (got[k].path, got[k].apps, got[k].flagged) == (f.path, f.apps, f.flagged), k


def _playout(g: RuleGame, rng: random.Random, plies: int):
    """(codes, player) along a random playout of turn keys (end rules ignored: later positions test the walk too)."""
    chains = g.chains(g.board)
    pos = g.initial()
    codes, player = g.codes(pos), pos.to_move
    for _ in range(plies):
        yield codes, player
        keys = sorted(native.turn_keys(chains, codes, player), key=lambda k: (k[0], k[1], sorted(k[2])))
        if not keys:
            return
        codes = list(codes)
        for u, v in rng.choice(keys)[2]:
            codes[u] = v
        player = (player + 1) % len(g.players)


def _case_id(case: tuple) -> str:
    return f"{Path(case[0]).stem}-{case[1]}"


# ---- turn sets and perft on random positions -------------------------------------------------------------

@needs_native
@pytest.mark.parametrize("case", CASES, ids=_case_id)
@given(rng=st.randoms(use_true_random=False))
@settings(max_examples=1, deadline=None)
def test_turns_match_python_on_random_playouts(case: tuple, rng: random.Random) -> None:
    spec, board, plies, _depth = case
    g = _game(spec, board)
    chains = g.chains(g.board)
    eng = native.engine(chains)
    assert eng is not None
    for codes, player in _playout(g, rng, plies):
        got = eng.turns(chains, codes, player)
        assert got is not None
        _assert_same_turns(_python_keys(chains, codes, player), got)


@needs_native
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_perft_matches_python_along_a_playout(case: tuple) -> None:
    spec, board, plies, depth = case
    g = _game(spec, board)
    chains = g.chains(g.board)
    rng = random.Random(7)
    checked = 0
    for i, (codes, player) in enumerate(_playout(g, rng, plies)):
        if i % 3:
            continue
        pos = g.position_from_codes(g.board, codes, player, i)
        for d in range(1, depth + 1):
            want = count_leaves(g, pos, d, native=False)
            assert count_leaves(g, pos, d) == want, (i, d)
            if native.why_not(chains, perft=True) == "":
                assert native.perft(chains, codes, player, i, d) == want
        checked += 1
    assert checked >= 2


@pytest.mark.slow
@needs_native
@pytest.mark.parametrize("case", CASES, ids=_case_id)
@given(rng=st.randoms(use_true_random=False))
@settings(max_examples=12, deadline=None)
def test_turns_and_perft_match_python_deep(case: tuple, rng: random.Random) -> None:
    spec, board, plies, depth = case
    g = _game(spec, board)
    chains = g.chains(g.board)
    for i, (codes, player) in enumerate(_playout(g, rng, 4 * plies)):
        _assert_same_turns(_python_keys(chains, codes, player), native.turn_keys(chains, codes, player))
        if i % 7 == 0:
            pos = g.position_from_codes(g.board, codes, player, i)
            assert count_leaves(g, pos, depth) == count_leaves(g, pos, depth, native=False)


# ---- chess ------------------------------------------------------------------------------------------------

PIECES = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5, "K": 6}


def chess_position(g: RuleGame, fen: str):
    """A FEN position on plane:8x8: castling rights as unmoved kings and rooks (Kc, Rc), the pawn an en-passant
    square names as a passer (Pe), black pawns in frame 2."""
    parts = fen.split()
    states, frames = [0] * 64, [0] * 64
    for r, row in enumerate(parts[0].split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
                continue
            states[r * 8 + c] = PIECES[ch.upper()] + (0 if ch.isupper() else 10)
            frames[r * 8 + c] = 2 if ch == "p" else 0
            c += 1
    rights = parts[2]
    for short, long_, row, black in (("K", "Q", 7, 0), ("k", "q", 0, 10)):
        if short in rights or long_ in rights:
            states[row * 8 + 4] = 9 + black
        if short in rights:
            states[row * 8 + 7] = 8 + black
        if long_ in rights:
            states[row * 8] = 8 + black
    if parts[3] != "-":
        col, rank = ord(parts[3][0]) - ord("a"), int(parts[3][1])
        t = (4 if rank == 3 else 3) * 8 + col  # the pawn that passed the square
        states[t] += 6
    return g.make_position(g.board, states, frames, 0 if parts[1] == "w" else 1, 0)


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
KNOWN = [  # (fen, counts by depth from 1), the usual perft suite
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", (20, 400, 8902, 197281, 4865609, 119060324)),
    (KIWIPETE, (48, 2039, 97862, 4085603)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", (14, 191, 2812, 43238, 674624)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -", (6, 264, 9467, 422333)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ -", (44, 1486, 62379, 2103487)),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - -", (46, 2079, 89890, 3894594)),
]
SLOW_LEAVES = 500_000
KNOWN_PARAMS = [pytest.param(fen, d, n, id=f"{i}-{d}", marks=[pytest.mark.slow] if n > SLOW_LEAVES else [])
                for i, (fen, counts) in enumerate(KNOWN) for d, n in enumerate(counts, 1)]
# castling through and out of check, en passant (also the pinned case), promotions with and without capture
SPECIAL = [
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq -",
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq -",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - -",
    "4k3/1P6/8/8/8/8/6p1/4K2R w K -",
]


@pytest.fixture(scope="module")
def chess() -> RuleGame:
    return open_game("chess")


@needs_native
@pytest.mark.parametrize(("fen", "depth", "nodes"), KNOWN_PARAMS)
def test_chess_known_counts(chess: RuleGame, fen: str, depth: int, nodes: int) -> None:
    assert count_leaves(chess, chess_position(chess, fen), depth) == nodes


@needs_native
@pytest.mark.parametrize("fen", [KIWIPETE, *SPECIAL])
def test_chess_positions_match_python_and_python_chess(chess: RuleGame, fen: str) -> None:
    pos = chess_position(chess, fen)
    chains = chess.chains(pos.board)
    codes = chess.codes(pos)
    _assert_same_turns(_python_keys(chains, codes, pos.to_move), native.turn_keys(chains, codes, pos.to_move))
    assert count_leaves(chess, pos, 2) == count_leaves(chess, pos, 2, native=False)
    pychess = pytest.importorskip("chess")
    board = pychess.Board(fen)

    def perft(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        n = 0
        for mv in list(board.legal_moves):
            board.push(mv)
            n += perft(d - 1)
            board.pop()
        return n

    assert count_leaves(chess, pos, 3) == perft(3)


@needs_native
@pytest.mark.parametrize(("spec", "board", "fen", "depth"), [
    ("chess", "plane:8x8", None, 3), ("chess", "plane:8x8", KIWIPETE, 2), ("chess", "torus:12x8", None, 2),
    ("checkers", "plane:8x8", None, 4), ("chinese-checkers", "star", None, 2),
])
def test_divide_matches_python(spec: str, board: str, fen: str | None, depth: int) -> None:
    g = _game(spec, board)
    pos = chess_position(g, fen) if fen else g.initial()
    calls: list[tuple[int, int]] = []
    got = divide(g, pos, depth, progress=lambda done, total: calls.append((done, total)))
    assert got == divide(g, pos, depth, native=False)
    assert [c[0] for c in calls] == list(range(1, len(got) + 1))
    assert sum(n for _l, n in got) == count_leaves(g, pos, depth)


# ---- rule sets written for the test: end rules with check, three players, clean-ups without a fixpoint ----------

CHECKED_END = """
[[end]]
kind = "count"
player = "white"
check = true
states = ["r"]
op = ">="
value = 2
result = "loss"
"""

THREE = """
name = "three"
grid = "square"
players = ["X", "O", "Z"]
board = "plane:4x4"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "mark" }
O = { value = 2, owner = "O", kind = "mark" }
Z = { value = 3, owner = "Z", kind = "mark" }

[[move]]
name = "claim"
orientations = "identity"
pattern = "*empty => *own:mark"

[[end]]
kind = "line"
k = 3

[[end]]
kind = "no-turns"
result = "draw"
"""

FLIP_FLOP = THREE.replace('name = "three"', 'name = "flip-flop"') + """
[[cleanup]]
name = "x-to-o"
pattern = "*X => *O"

[[cleanup]]
name = "o-to-x"
pattern = "*O => *X"
"""

# clean-ups that settle in the third round only where each group's round runs to its end: X's mark turns to Z
# (round one), Z to W (round two, an earlier group), W to O (round two, a later group than the last to change the
# board in round one); a W left over would let O take it
CASCADE = THREE.replace('name = "three"', 'name = "cascade"').replace(
    'Z = { value = 3, owner = "Z", kind = "mark" }\n',
    'Z = { value = 3, owner = "Z", kind = "mark" }\nW = { value = 4, owner = "Z", kind = "ghost" }\n') + """
[[move]]
name = "take-a-ghost"
orientations = "identity"
pattern = "*W => *own:mark"

[[cleanup]]
name = "z-to-w"
pattern = "*Z => *W"

[[cleanup]]
name = "x-to-z"
pattern = "*X => *Z"

[[cleanup]]
name = "w-to-o"
pattern = "*W => *O"
"""


# two moves with the same effect: every turn is found twice (one key, counted once), which a count of the last ply
# without keys must not take for two turns
TWIN = """
name = "twin"
grid = "square"
players = ["X", "O"]
board = "plane:4x4"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "mark" }
O = { value = 2, owner = "O", kind = "mark" }

[[move]]
name = "claim"
orientations = "identity"
pattern = "*empty => *own:mark"

[[move]]
name = "claim-again"
orientations = "identity"
pattern = "*empty => *own:mark"

[[end]]
kind = "no-turns"
result = "draw"
"""

# exactly three in a row wins, and a player may lift a mark of their own: lifting the end mark of four in a row
# leaves exactly three, a line made by a tile beside it going (the engine reads an exact line where either changed)
EXACT_LIFT = """
name = "exact-lift"
grid = "square"
players = ["X", "O"]
board = "plane:4x4"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "mark" }
O = { value = 2, owner = "O", kind = "mark" }

[[move]]
name = "claim"
orientations = "identity"
pattern = "*empty => *own:mark"

[[move]]
name = "lift"
orientations = "identity"
pattern = "*own:mark => *empty"

[[end]]
kind = "line"
k = 3
exact = true

[[end]]
kind = "no-turns"
result = "draw"
"""


@needs_native
def test_an_exact_line_made_by_a_lift_beside_it_ends_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(EXACT_LIFT)
    g = open_game(str(path))
    start = g.initial()
    row = range(4)  # the first row of the plane
    four = Position(start.board.with_states([1 if t in row else 0 for t in range(len(g.board.tiles))]), 0)
    assert g.outcome(four) is None  # four in a row: no three is exact
    lifted = {t.label: t.result for t in g.turns(four)}
    ends = [lab for lab, pos in lifted.items() if g.outcome(pos) is not None]
    assert len(ends) == 2  # lifting either end mark leaves exactly three
    for d in (1, 2, 3):
        assert count_leaves(g, four, d) == count_leaves(g, four, d, native=False)


@needs_native
@pytest.mark.parametrize("text", [CHECKED_END, THREE, TWIN, CASCADE])
def test_written_rule_sets_match_python(tmp_path: Path, text: str) -> None:
    if text is CHECKED_END:
        text = (EXAMPLES / "rook-and-king.toml").read_text() + text
    path = tmp_path / "game.toml"
    path.write_text(text)
    g = open_game(str(path))
    assert native.why_not(g.chains(g.board), perft=True) == ""
    pos = g.initial()
    for d in range(1, 5):
        assert count_leaves(g, pos, d) == count_leaves(g, pos, d, native=False)
    if text is TWIN:  # each placement once, though two moves make it
        assert [count_leaves(g, pos, d) for d in (1, 2, 3)] == [16, 16 * 15, 16 * 15 * 14]


@needs_native
def test_clean_ups_without_a_fixpoint_raise_as_in_python(tmp_path: Path) -> None:
    path = tmp_path / "flip.toml"
    path.write_text(FLIP_FLOP)
    g = open_game(str(path))
    pos = g.initial()
    with pytest.raises(RuleError, match="fixpoint"):
        count_leaves(g, pos, 1)
    assert native.perft(g.chains(g.board), g.codes(pos), 0, 0, 1) is None


# ---- the fallback ---------------------------------------------------------------------------------------------

def test_turned_off_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPOLOGY_NATIVE", "0")
    assert not native.available()
    assert native.reason() == "TAPOLOGY_NATIVE=0"
    g = open_game("checkers")
    chains = g.chains(g.board)
    pos = g.initial()
    codes = g.codes(pos)
    assert native.engine(chains) is None
    assert native.perft(chains, codes, 0, 0, 3) is None
    assert count_leaves(g, pos, 4) == 1469
    assert [n for _l, n in divide(g, pos, 2)] == [7] * 7
    _assert_same_turns(_python_keys(chains, codes, 0), native.turn_keys(chains, codes, 0))


@needs_native
def test_unsupported_rule_sets_fall_back() -> None:
    tape = open_game("tictactopology")
    assert native.why_not(tape.chains(tape.board)) == "tape moves"
    assert tape.perft(tape.initial(), 1) == count_leaves(tape, tape.initial(), 1, native=False)
    lines = open_game(str(EXAMPLES / "line-counting.toml"))
    chains = lines.chains(lines.board)
    assert native.why_not(chains) == ""  # its turns run natively
    assert "chain" in native.why_not(chains, perft=True)
    assert native.perft(chains, lines.codes(lines.initial()), 0, 0, 2) is None
    assert lines.perft(lines.initial(), 2) == 72


@needs_native
def test_codes_standing_for_no_state_fall_back() -> None:
    g = _game("chess", "plane:8x8")
    chains = g.chains(g.board)
    codes = g.codes(g.initial())
    codes[20] = 10 * g.h  # state value 10 is not a chess state
    eng = native.engine(chains)
    assert eng is not None and eng.turns(chains, codes, 0) is None and eng.perft(codes, 0, 0, 1) is None
    _assert_same_turns(_python_keys(chains, codes, 0), native.turn_keys(chains, codes, 0))


@needs_native
def test_full_arenas_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "START_CAPS", {k: 2 for k in native.START_CAPS})
    g = open_game(str(EXAMPLES / "rook-and-king.toml"))  # a fresh board: its engine starts with the tiny arenas
    chains = g.chains(g.board)
    eng = native.engine(chains)
    assert eng is not None and eng.caps["keys"] == 2
    pos = g.initial()
    assert count_leaves(g, pos, 4) == count_leaves(g, pos, 4, native=False)
    assert eng.caps["keys"] > 2
    codes = g.codes(pos)
    _assert_same_turns(_python_keys(chains, codes, 0), native.turn_keys(chains, codes, 0))


def _run(code: str, env: dict[str, str]) -> str:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout


PROBE = ("from tapology.rules import native; from tapology.games import open_game; g = open_game('checkers'); "
         "print(native.available(), g.perft(g.initial(), 5), native.reason()[:60])")


def test_without_a_compiler_everything_runs_in_python(tmp_path: Path) -> None:
    # extra flags name another module than the one built at install time: it must be compiled, and cannot be
    out = _run(PROBE, {"TAPOLOGY_CACHE": str(tmp_path), "CC": "false", "TAPOLOGY_NATIVE": "1",
                       "TAPOLOGY_NATIVE_CFLAGS": "-DTAPOLOGY_NO_COMPILER_PROBE"})
    ok, nodes, *why = out.split()
    assert (ok, nodes) == ("False", "7361")
    assert "could not be built" in " ".join(why)


@pytest.mark.slow
def test_processes_building_at_once_share_the_cache(tmp_path: Path) -> None:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "TAPOLOGY_CACHE": str(tmp_path), "TAPOLOGY_NATIVE": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", PROBE], env=full, stdout=subprocess.PIPE, text=True, cwd=ROOT)
             for _ in range(3)]
    outs = [p.communicate()[0].split()[:2] for p in procs]
    assert outs == [["True", "7361"]] * 3
    built = [p.suffix for p in (tmp_path / "native").iterdir() if not p.name.startswith(".") or p.is_dir()]
    assert sorted(built) == [".log", ".so"]  # the module and the compiler's log; no temporary directory left behind


def test_processes_compiling_one_module_at_once_compile_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whoever finds another compiling the same module waits for that compile (a lock file beside the module) and loads
    its result: one compile for three at once (threads hold the file lock apart as processes do)."""
    import threading

    import cffi


    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path))
    compiles: list[str] = []

    def tiny(name: str, source: str | None = None, flags: list[str] | None = None) -> cffi.FFI:
        compiles.append(name)
        ffi = cffi.FFI()
        ffi.cdef("int answer(void);")
        ffi.set_source(name, "int answer(void) { return 42; }")
        return ffi

    monkeypatch.setattr(build, "make_ffi", tiny)
    start = threading.Barrier(3)
    got: list[int] = []

    def load() -> None:
        start.wait()
        got.append(build.load_built("_tapology_lock_probe").lib.answer())

    threads = [threading.Thread(target=load) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [42] * 3 and compiles == ["_tapology_lock_probe"]
    assert not list((tmp_path / "native").glob(".build-*"))  # no temporary directory left behind


def test_native_engine_is_built_where_ci_requires_it() -> None:
    """CI (CI=true, as .ci/run sets it) fails when the C engine does not build, instead of skipping its tests; the
    reason names the compiler log's last lines."""
    ci = os.environ.get("CI", "").lower() in ("true", "1")
    assert native.available() or not ci, native.reason()


def test_a_failed_build_keeps_the_compiler_log(tmp_path, monkeypatch) -> None:

    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path))
    monkeypatch.setenv("TAPOLOGY_NATIVE_CFLAGS", "-fno-such-compiler-flag")  # part of the module's name: a fresh build
    with pytest.raises(build.BuildError, match="no-such-compiler-flag") as err:
        build.load()
    assert "last-build.log" in str(err.value) and (tmp_path / "native" / "last-build.log").exists()


def test_reports_say_which_engine_ran() -> None:
    from tapology.reports.games import perft_report
    from tapology.reports.play import solve_report

    rep = perft_report("chess", 2)
    assert rep.to_json()["engine"] == ("native" if native.available() else "python") and "engine: " in rep.text()
    tape = perft_report("tictactopology", 1).to_json()
    assert tape["engine"] == "python" and tape["engine_why"]
    assert solve_report("tictactoe").to_json()["engine"] == "python"


def test_the_compilers_output_goes_to_its_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Text printed while a module compiles (cffi's "generating ..." through sys.stdout, the compiler's through
    descriptor 1 or 2) lands in the build log, never in the output of the command that asked (its JSON, say), even
    where sys.stdout is not descriptor 1."""
    shown = io.StringIO()
    monkeypatch.setattr(sys, "stdout", shown)
    monkeypatch.setattr(sys, "stderr", shown)
    log = tmp_path / "build.log"
    with build._quiet(log):
        print("generating ./module.c")
        print("a warning", file=sys.stderr)
        os.write(1, b"gcc -O2 module.c\n")
        os.write(2, b"module.c:1: note\n")
    assert shown.getvalue() == ""
    text = log.read_text()
    assert all(s in text for s in ("generating ./module.c", "a warning", "gcc -O2 module.c", "module.c:1: note"))
