"""A slide never lands on a tile it has already passed, its start included (docs/rules.md, docs/chess.md): a rule
about tiles, not positions, which every executor keeps — the Python chain walk, the native engine, the z3 and
python-constraint enumerations.  The chess position of issue 20 (an unmoved rook on torus:12x8 that could slide
round its file onto its own tile) is counted by each, and the independent reference generator agrees."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.registry import load_rules
from tapology.rules import native
from tapology.rules.compiled import Compiled
from tapology.rules.engine import RuleGame
from tapology.rules.perft import count_leaves
from tapology.rules.position import position_from_table, read_position_file
from tests import chess_reference as ref

ROOT = Path(__file__).resolve().parent.parent
ROOK_ROUND = Path(__file__).parent / "data" / "perft" / "chess-torus-rook-round.toml"
ROOK_ROUND_FEN = "8/8/8/8/4k2r/1ppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQk - 0 1"
SHIPPED = ["tictactoe", "checkers", "chess", "chinese-checkers", "tictactopology",
           *sorted(str(p) for p in (ROOT / "examples" / "games").glob("*.toml"))]
needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")


@functools.cache
def _game(spec: str, board: str | None = None) -> RuleGame:
    return open_game(spec, board)


def _rook_round():
    g = _game("chess", "torus:12x8")
    return g, position_from_table(g, read_position_file(str(ROOK_ROUND)), str(ROOK_ROUND))


def slide_runs(comp: Compiled, seq: tuple[int, ...]) -> list[list[int]]:
    """The tiles each slide of a chain passes, in order: where it starts, then where each step lands (written
    here from the applications alone, not with the engine's own test)."""
    runs: list[list[int]] = []
    last = None
    for ident in seq:
        a = comp.apps[ident]
        slide = a.move >= 0 and a.to >= 0 and comp.rules.moves[a.move].slide
        if slide and a.move == last:
            runs[-1].append(a.to)
        elif slide:
            runs.append([a.tile, a.to])
        last = a.move if slide else None
    return runs


def test_the_unmoved_rook_does_not_slide_round_onto_its_own_tile() -> None:
    g, pos = _rook_round()
    labels = [t.label for t in g.turns(pos)]
    assert len(labels) == 84 and "a1a1" not in labels
    assert {"a1a12", "a1a2"} <= set(labels)  # it still slides down through the wrap, and up
    chains, codes = g.chains(pos.board), g.codes(pos)
    assert len(chains.turns(codes, pos.to_move)) == 84
    assert count_leaves(g, pos, 2, native=False) == 1886


def test_the_reference_generator_counts_the_same() -> None:
    pos = ref.from_fen(ROOK_ROUND_FEN, "torus:12x8")
    assert len(ref.legal_moves(pos)) == 84
    assert ref.perft(pos, 2) == 1886


@needs_native
def test_the_native_engine_counts_the_same() -> None:
    g, pos = _rook_round()
    chains, codes = g.chains(pos.board), g.codes(pos)
    assert set(native.turn_keys(chains, codes, pos.to_move)) == set(chains.turns(codes, pos.to_move))
    assert native.perft(chains, codes, pos.to_move, 0, 2) == 1886
    assert count_leaves(g, pos, 2) == 1886


@pytest.mark.slow
def test_z3_and_csp_list_the_same_turns() -> None:
    g, pos = _rook_round()
    want = set(g.turn_keys(pos))
    assert len(want) == 84
    assert set(g.turn_keys(pos, "csp")) == want
    assert set(g.turn_keys(pos, "z3")) == want


def _thinned(g: RuleGame, rng: random.Random, keep: float):
    """The start position with each piece but the royal ones kept with probability ``keep``: open lines for the
    sliders (legality aside: the walk does not ask)."""
    pos = g.initial()
    codes = list(g.codes(pos))
    royal = g.chains(pos.board).royal_values
    for t, c in enumerate(codes):
        if c and c // g.h not in royal and rng.random() > keep:
            codes[t] = 0
    return codes, pos.to_move


def _positions(g: RuleGame, rng: random.Random):
    """(codes, player): a random playout of a few turns, and thinned start positions for each player."""
    pos = g.initial()
    for _ in range(6):
        yield g.codes(pos), pos.to_move
        turns = g.turns(pos)
        if not turns:
            break
        pos = rng.choice(turns).result
    for k in range(6):
        codes, player = _thinned(g, rng, 0.3)
        yield codes, (player + k) % len(g.players)


def _cases() -> list:
    out = []
    for spec in SHIPPED:
        for board in load_rules(spec).boards:
            big = board.endswith("12x8")
            out.append(pytest.param(spec, board, id=f"{Path(spec).stem}-{board}",
                                    marks=[pytest.mark.slow] if big and spec != "chess" else []))
    return out


@pytest.mark.parametrize(("spec", "board"), _cases())
def test_no_slide_comes_back_to_a_tile_it_passed(spec: str, board: str) -> None:
    g = _game(spec, board)
    chains = g.chains(g.board)
    comp = chains.comp
    has_slides = any(m.slide and m.start for m in g.rules.moves)  # line-counting's slides only end the game
    eng = native.engine(chains) if native.available() else None
    steps = 0
    for codes, player in _positions(g, random.Random(f"{spec} {board}")):
        found = [chains.turns(codes, player)]
        got = None if eng is None else eng.turns(chains, codes, player)
        if got is not None:
            found.append(got)
        for turns in found:
            for f in turns.values():
                for run in slide_runs(comp, f.apps):
                    assert len(set(run)) == len(run), (board, [comp.board.tiles[t] for t in run])
                    steps += len(run) - 1
    assert steps > 0 or not has_slides
