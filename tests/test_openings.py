"""A set-up phase (docs/rules.md "Phases") and breakthru: gold's twelve set-up turns in a row, then two
slides or one capture a turn, against RBG's counts and against a brute-force reading of breakthru.rbg."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.registry import open_position
from tapology.rules import RuleGame, native
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves

RING = str(Path(__file__).parent / "data" / "perft" / "breakthru-ring.toml")
RBG_RING_1 = 3284  # `run.sh perft tests/data/rbg/breakthru_ring.rbg 1` (tests/data/perft/breakthru.perft)

BASE = '''name = "x"
players = ["a", "b"]
[states]
empty = 0
p = { value = 1, owner = "a" }
q = { value = 2, owner = "b" }
[[move]]
name = "drop"
player = "a"
cells = [[0, 0, "empty", "p"]]
[[move]]
name = "step"
cells = [[0, 0, "own", "empty"], [1, 0, "empty", "@"]]
'''


def test_a_set_up_phase_gives_one_player_several_turns_in_a_row_then_the_players_alternate() -> None:
    rules = parse_rules(BASE + '[[phase]]\norder = ["a"]\nplies = 2\nmoves = ["drop"]\n'
                               '[initial]\nlayout = "q . . ."\nto_move = "b"\n')
    g = RuleGame(rules, "plane:1x4")
    pos = g.initial()
    assert pos.to_move == 0  # the opening's player starts
    t1 = g.turns(pos)
    assert len(t1) == 3 and all(t.result.to_move == 0 for t in t1)  # drops only, a again
    t2 = g.turns(t1[0].result)
    assert len(t2) == 2 and all(t.result.to_move == 1 for t in t2)  # after the opening: [initial] to_move, b
    thirds = [t3 for a in t1 for b in g.turns(a.result) for t3 in g.turns(b.result)]
    assert thirds and all(t.result.board.states.count(1) == 2 for t in thirds)  # b steps: "drop" only in the opening
    assert g.perft(pos, 3) == len(thirds)
    plain = RuleGame(dataclasses.replace(rules, phases=()), "plane:1x4")
    assert plain.initial().to_move == 1 and plain.perft(plain.initial(), 1) != 3  # without it: b first


def test_breakthru_opens_with_golds_set_up() -> None:
    g = open_game("breakthru")
    pos = g.initial()
    assert g.perft(pos, 2) == 24 * 23  # RBG: 24, 552
    for _ in range(12):
        assert pos.to_move == 0
        pos = g.turns(pos)[0].result
    assert pos.to_move == 0 and pos.ply == 12  # gold also makes the first move of the game proper
    assert pos.board.states.count(1) == 12
    assert not any(t.label.count("-") == 0 and t.result.board.states.count(1) == 13 for t in g.turns(pos))
    if native.available():
        assert native.engine_used(g.chains(pos.board), perft=True) == ("native", "")


@pytest.mark.parametrize("backend", [pytest.param("csp", marks=pytest.mark.slow),  # ~20 s
                                     pytest.param("z3", marks=pytest.mark.hours)])  # ~6 minutes
def test_breakthru_backends_list_the_chain_walks_turns(backend: str) -> None:
    """z3 and csp model a slide that flies over the chain's stops: gold's first turn proper (516 turns), as the chain
    walk lists it (a cheap case of the same rule in the default run: tests/test_native_fly_over.py, two slides)."""
    g = open_game("breakthru")
    pos = g.initial()
    for _ in range(12):
        pos = g.turns(pos)[0].result
    want = sorted((t.label, t.result) for t in g.turns(pos))
    assert sorted((t.label, t.result) for t in g.turns(pos, backend)) == want


# ---- a brute-force reading of breakthru.rbg's goldTurn (independent of the rule engine) -------------------------
ROOK = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _slides(b: dict, src: tuple[int, int]):
    for dx, dy in ROOK:
        x, y = src[0] + dx, src[1] + dy
        while b.get((x, y)) == "e":
            yield (x, y)
            x, y = x + dx, y + dy


def _moved(b: dict, src, dst, piece: str) -> dict:
    out = dict(b)
    out[src], out[dst] = "e", piece
    return out


def _gold_moves(b: dict) -> list[dict]:
    """Every way of playing gold's turn as RBG's goldTurn lists them (one entry per sequence of actions)."""
    out = []
    for src, v in b.items():
        if v == "g":
            for dst in _slides(b, src):
                b1 = _moved(b, src, dst, "g")
                for src2, v2 in b1.items():
                    if v2 == "g":
                        out.extend(_moved(b1, src2, dst2, "g") for dst2 in _slides(b1, src2))
        if v in ("g", "gf"):
            for dx, dy in DIAG:
                if b.get((src[0] + dx, src[1] + dy)) == "s":
                    out.append(_moved(b, src, (src[0] + dx, src[1] + dy), v))
        if v == "gf":
            out.extend(_moved(b, src, dst, "gf") for dst in _slides(b, src))
    return out


def test_breakthru_turns_are_rbgs_moves_once_per_result() -> None:
    g, pos = open_position("breakthru", None, RING)
    names = {0: "e", 1: "g", 2: "gf", 3: "s"}
    n = 11
    board = {(t % n, t // n): names[s] for t, s in enumerate(pos.board.states)}
    ways = _gold_moves(board)
    assert len(ways) == RBG_RING_1  # the brute force counts what RBG counts
    start = tuple(sorted(board.items()))
    results = {tuple(sorted(w.items())) for w in ways} - {start}  # a turn must change the position
    turns = g.turns(pos)
    got = {tuple(sorted(((t % n, t // n), names[s]) for t, s in enumerate(tr.result.board.states))) for tr in turns}
    assert len(turns) == len(got) == len(results) == 1788
    assert got == results


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_lets_a_slide_fly_over_the_chains_stops() -> None:
    """The second slide may fly over a position the chain stopped at (a ship slid away and back) and land where the
    first only flew through: the native turns are the chain walk's, on the ring and on some of its children (the
    stricter rule, no position twice, would lose 32 of the ring's 1788)."""
    g, pos = open_position("breakthru", None, RING)
    chains = g.chains(pos.board)
    eng = native.engine(chains)
    assert eng is not None
    children = [t.result for t in g.turns(pos)[::600]]
    for p in [pos, *children]:
        codes = g.codes(p)
        assert set(eng.turns(chains, codes, p.to_move) or ()) == set(chains.turns(codes, p.to_move))
    assert count_leaves(g, pos, 1) == 1788
