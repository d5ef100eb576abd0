"""Perft counts from tests/data/perft/*.perft (python-chess style), and the fast path against the general one."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.chess import position_from_fen
from tapology.rules import native
from tapology.rules.perft import kernels_for
from tapology.rules.position import position_from_table, read_position_file

DATA = Path(__file__).parent / "data" / "perft"
SLOW_NODES = 150_000  # entries above this many leaf turns run with -m slow ...
# ... or above this many where the native engine counts them (the default run keeps one count of millions,
# position 5 at depth 4; every position's shallower counts, kiwipete's castling, en passant and checks at depth 3)
NATIVE_SLOW_NODES = 2_500_000


def _entries() -> list:
    out = []
    for f in sorted(DATA.glob("*.perft")):
        cur: dict = {}
        for raw in f.read_text().splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            key, _, rest = line.partition(" ")
            if key == "id":
                cur = {"id": rest, "file": f, "perft": []}
                out.append(cur)
            elif key == "perft":
                d, n = rest.split()
                cur["perft"].append((int(d), int(n)))
            else:
                cur[key] = rest.strip()
    params = []
    limit = NATIVE_SLOW_NODES if native.available() else SLOW_NODES
    for e in out:
        for d, n in e["perft"]:
            marks = [pytest.mark.slow] if n > (limit if e["game"] == "chess" else SLOW_NODES) else []
            if "slow-from" in e and d >= int(e["slow-from"]):  # an entry may put its deeper counts in the slow set
                marks = [pytest.mark.slow]
            params.append(pytest.param(e, d, n, id=f"{e['id']}-{d}", marks=marks))
    return params


@functools.cache
def _game(spec: str, board: str | None):
    """One game per rule set and board for the whole file (its tables are built once)."""
    return open_game(spec, board)


def _open(entry: dict):
    spec = entry["game"]
    if spec.endswith(".toml"):
        spec = str((entry["file"].parent / spec).resolve())
    board = entry.get("board")
    if board is not None and board.endswith(".toml"):  # a board file beside the count file
        board = str((entry["file"].parent / board).resolve())
    g = _game(spec, board)
    if "fen" in entry:
        return g, position_from_fen(g, entry["fen"])
    if "position" in entry:
        path = str(entry["file"].parent / entry["position"])
        return g, position_from_table(g, read_position_file(path), path)
    return g, g.initial()


@pytest.mark.parametrize(("entry", "depth", "nodes"), _entries())
def test_perft_file(entry: dict, depth: int, nodes: int) -> None:
    """Each count of the perft files; an entry with ``count rbg`` holds RBG's counts (``perft --rbg``)."""
    g, pos = _open(entry)
    assert g.perft(pos, depth, rbg=entry.get("count") == "rbg") == nodes


def _naive_perft(g, pos, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(_naive_perft(g, t.result, depth - 1) for t in g.turns(pos))


@pytest.mark.parametrize(("game", "board", "depth"), [("checkers", None, 4), ("tictactoe", "klein:3x3", 4),
                                                      ("checkers", "cylinder:8x8", 4)])
def test_fast_perft_matches_turn_by_turn_perft(game: str, board: str | None, depth: int) -> None:
    g = open_game(game, board)
    pos = g.initial()
    assert g.perft(pos, depth) == _naive_perft(g, pos, depth)


@pytest.mark.parametrize("game", ["checkers", "tictactoe", "chinese-checkers"])
def test_kernel_matches_general_enumeration_on_random_positions(game: str) -> None:
    g = open_game(game)
    rng = random.Random(11)
    ks = kernels_for(g.chains(g.board))
    checked = 0
    for _ in range(3):
        pos = g.initial()
        for _ in range(60):
            ts = g.turns(pos)
            if not ts:
                break
            codes = g.codes(pos)
            got = ks.kernel(pos.to_move)(codes)
            want = set(g.turn_keys(pos))
            assert got is not None
            assert {(s, e, frozenset(ch)) for s, e, ch in (ks.keys[i] for i in got)} == want
            checked += 1
            pos = rng.choice(ts).result
    assert checked > 20
