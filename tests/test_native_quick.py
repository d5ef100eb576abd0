"""Quick follow-ups (engine.c quick_tables, quick_leaf): a follow-up that ends its chain (no links, conditions,
captures or slide) is counted at a count's last ply by the hash delta of its writes, read once per node where its
tiles did not change, and written only where its hash was seen at the node.  Pentago's quarter turns are such
follow-ups; each count here is the Python chain walk's (the reference), and a pentago whose turns carry a condition
that always holds (no quick follow-ups) counts alike and plays the same games from a seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapology.games import open_game
from tapology.games.registry import open_position
from tapology.rules import native
from tapology.rules.engine import RuleGame
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end

PENTAGO = Path(__file__).parent.parent / "tapology" / "games" / "data" / "pentago.toml"

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")

# a condition every position meets (at least no empty tiles): the turns stay off the quick path
ALWAYS = 'if = [{ states = ["empty"], op = ">=", value = 0 }]'


def _quick(g: RuleGame) -> int:
    eng = native.engine(g.chains(g.board))
    assert eng is not None
    return eng.quick_follow_ups()


def _guarded(tmp_path: Path) -> RuleGame:
    """Pentago with ALWAYS on both quarter turns (after each one's list of cells)."""
    head, turns = PENTAGO.read_text().split('name = "turn-right"')
    path = tmp_path / "pentago.toml"
    path.write_text(head + 'name = "turn-right"' + turns.replace("\n]\n", "\n]\n" + ALWAYS + "\n", 2))
    return open_game(str(path))


@needs_native
@pytest.mark.parametrize("board", ["plane:6x6", "torus:6x6", "mobius:6x6"])
def test_pentago_counts_its_quarter_turns_from_their_hash_deltas(board: str) -> None:
    """Each quarter turn (4 quadrants, 2 ways, each player's) is a quick follow-up; the last ply's count, bulk and made, is the
    chain walk's along random games (empty and symmetric quadrants: turns of several chains, found by witness)."""
    g, pos = open_position("pentago", board, None)
    assert _quick(g) == 16  # 4 quadrants, 2 ways, 2 players
    for i in range(3):
        for plies in (0, 1, 2, 5, 9, 14):
            p = playout_end(g, pos, 11, i, max_plies=plies)
            want = count_leaves(g, p, 1, native=False)
            assert count_leaves(g, p, 1) == want, (board, i, plies)
            assert count_leaves(g, p, 1, bulk=False) == want, (board, i, plies)


@needs_native
def test_pentago_without_quick_follow_ups_counts_and_plays_alike(tmp_path: Path) -> None:
    """Pentago's turns with a condition that always holds are walked by the general step: the same counts, and
    the same games from a seed (each ply one of the chain walk's turns)."""
    quick = open_game("pentago")
    slow = _guarded(tmp_path)
    assert _quick(quick) == 16 and _quick(slow) == 0
    assert [count_leaves(slow, slow.initial(), d) for d in (1, 2)] == [36, 3500]  # tests/data/perft/pentago.perft
    for i in range(6):
        a = playout_end(quick, quick.initial(), 5, i)
        b = playout_end(slow, slow.initial(), 5, i)
        assert (a.ply, quick.codes(a)) == (b.ply, slow.codes(b)), i
    here = quick.initial()
    for k in range(1, 5):
        end = playout_end(quick, quick.initial(), 3, 0, max_plies=k)
        assert (tuple(quick.codes(end)), end.to_move) in {(tuple(quick.codes(t.result)), t.result.to_move)
                                                          for t in quick.perft_turns(here)}, k
        here = end
