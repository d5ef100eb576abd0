"""Every shipped game of the registry on every surface of its board's size: the native engine against the Python
chain walk (the reference) on positions along random native playouts: the same turn sets (with each turn's label
path, the moves of its route and its mandatory flag), the same perft counts
(bulk, made, and RBG's once per way of playing a turn).
A game added to ``SHIPPED`` is covered without a new row."""

from __future__ import annotations

import re

import pytest

from tapology.errors import RuleError
from tapology.games.registry import SHIPPED, load_rules, open_game
from tapology.rules import native
from tapology.rules.maximum import keep_most
from tapology.rules.perft import count_leaves, on_codes
from tapology.rules.playouts import playout_end

SURFACES = ("plane", "cylinder", "mobius", "torus", "klein")
# what the native engine leaves to Python
DECLINED = ("tape moves", "moves with count conditions")
needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")


def _cases() -> list[tuple[str, str]]:
    out = []
    for name in SHIPPED:
        rules = load_rules(name)
        board = rules.board  # open_game's board (collected by each test process: no game opened here)
        m = re.fullmatch(r"plane:(\d+x\d+)", board)
        boards = [f"{s}:{m.group(1)}" for s in SURFACES] if m else [board]
        out.extend((name, b) for b in boards if rules.refusal(b) is None)  # a refused board is not a game
    return out


CASES = _cases()
# chess and double chess away from the plane: the Python reference builds its attack index per surface (seconds
# each): -m slow
# connect6 away from the plane: tens of thousands of two-stone turns a position, listed by both engines: -m slow
# breakthru away from the plane: the Python walk lists its two-slide turns (seconds a position): -m slow
# arimaa away from the plane: the Python walk lists its four-step turns (seconds a position): -m slow
SLOW_AWAY = {"chess", "double-chess", "connect6", "breakthru", "arimaa", "arimaa-fixed-position"}
RBG_TURNS = 5000  # positions with more turns (connect6's two stones) leave RBG's count to the perft files
PLIES = (0, 7, 23)  # the positions compared: the ends of random native playouts of at most this many plies
# connect6 on the plane: the start and one two-stone position by default (each two-stone position lists 64,000 turns
# three times over), all three with -m slow
# arimaa-fixed-position: its start by default (a Python listing of its turns takes seconds), three positions of play
# with -m slow; arimaa: its set-up by default, its play (past the 32 placements) with -m slow
FEWER = {"connect6": (0, 7), "breakthru": (0, 7), "arimaa-fixed-position": (0,)}  # breakthru: its set-up by default
DEEP = {"arimaa": (0, 40, 47)}  # the plies -m slow compares where they are not PLIES
PARAMS = [pytest.param(n, b, FEWER.get(n, PLIES), id=f"{n}-{b}",
                       marks=[pytest.mark.slow] if n in SLOW_AWAY and not b.startswith("plane") else [])
          for n, b in CASES]
PARAMS += [pytest.param(n, b, DEEP.get(n, PLIES), id=f"{n}-{b}-deep", marks=[pytest.mark.slow])
           for n, b in CASES if (n in FEWER or n in DEEP) and b.startswith("plane")]


@needs_native
@pytest.mark.parametrize(("name", "board", "plies"), PARAMS)
def test_native_matches_the_chain_walk_along_playouts(name: str, board: str, plies: tuple[int, ...]) -> None:
    try:
        g = open_game(name, board)
    except RuleError as exc:  # a board the game's mechanics mean nothing on: gravity without end, a goal side taped away
        assert repr(board) in str(exc) and ("fall forever" in str(exc) or "'connect'" in str(exc)), exc
        return
    chains = g.chains(g.board)
    eng = native.engine(chains)
    if eng is None:  # the engine declines a feature it does not run, by name, and the Python walk answers alone
        assert any(f in native.why_not(chains) for f in DECLINED), native.why_not(chains)
        return
    # pentago: depth 2 is 80,000 chains in Python; a turn of steps: thousands of turns a position, seconds each
    small = len(g.board.tiles) <= 64 and name not in ("chess", "pentago") and not g.rules.steps
    start = g.initial()
    for i, most in enumerate(plies):
        pos = playout_end(g, start, seed=5, index=i, max_plies=most)
        codes = g.codes(pos)
        phase = g.rules.phase_at(pos.ply)
        got = eng.turns(chains, codes, pos.to_move, phase)
        assert got is not None
        want = chains.turns(codes, pos.to_move, phase=phase)
        if chains.mandatory and any(f.flagged for f in want.values()):
            want = {k: f for k, f in want.items() if f.flagged}
        want = keep_most(chains, want)
        assert set(got) == set(want), f"{name} on {board}, playout {i}"
        # each turn's label path (the least of its routes), the moves of that route and its mandatory flag
        assert {k: (f.path, f.apps, f.flagged) for k, f in got.items()} == \
            {k: (f.path, f.apps, f.flagged) for k, f in want.items()}, f"{name} on {board}, playout {i}"
        depth = 2 if small else 1
        leaves = count_leaves(g, pos, depth, native=False)  # the Python walk's count, once (seconds on big turns)
        assert count_leaves(g, pos, depth) == leaves
        assert count_leaves(g, pos, depth, bulk=False) == leaves
        if on_codes(g) and len(want) <= RBG_TURNS:  # perft --rbg: each turn once per way of playing it
            assert count_leaves(g, pos, 1, rbg=True) == count_leaves(g, pos, 1, native=False, rbg=True)
