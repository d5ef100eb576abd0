"""Random playouts (tapology.rules.playouts) and perft with every leaf made: reproducible, legal to the end, the
same counts as the bulk perft, on the native engine and the Python path."""

from __future__ import annotations

import pytest

from tapology.cli import main
from tapology.games import open_game
from tapology.rules import native
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import MAX_PLIES, playout_end, run_playouts

GAMES = ["tictactoe", "checkers", "chess", "chinese-checkers"]
ENGINES = [True, False]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("use_native", ENGINES)
def test_same_seed_same_games(name: str, use_native: bool) -> None:
    g = open_game(name)
    pos = g.initial()
    a = run_playouts(g, pos, count=3, seed=7, max_plies=120, native=use_native)
    b = run_playouts(g, pos, count=3, seed=7, max_plies=120, native=use_native)
    assert (a.playouts, a.plies, a.ended, a.capped) == (b.playouts, b.plies, b.ended, b.capped)
    assert a.playouts == 3 and a.ended + a.capped == 3
    assert a.engine == ("native" if use_native and native.available() else "python")
    # a run is the sum of its playouts, however it is split
    ends = [playout_end(g, pos, 7, i, max_plies=120, native=use_native) for i in range(3)]
    assert sum(e.ply - pos.ply for e in ends) == a.plies


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("use_native", ENGINES)
def test_playouts_end_where_the_game_ends(name: str, use_native: bool) -> None:
    g = open_game(name)
    pos = g.initial()
    for i in range(4 if use_native else 2):  # the Python walk: two games (Chinese checkers' run to hundreds of plies)
        end = playout_end(g, pos, 11, i, max_plies=400, native=use_native)
        if end.ply - pos.ply < 400:
            assert g.perft_turns(end) == [], f"playout {i} stopped where {name} goes on"
        else:
            assert g.perft_turns(end), f"playout {i} ran past the end of {name}"


def test_playouts_for_seconds() -> None:
    g = open_game("tictactoe")
    r = run_playouts(g, g.initial(), seconds=0.2, seed=1)
    assert r.playouts > 0 and r.capped == 0 and 5 * r.playouts <= r.plies <= 9 * r.playouts
    with pytest.raises(ValueError):
        run_playouts(g, g.initial(), seed=1)


@pytest.mark.parametrize(("name", "depth"), [("tictactoe", 5), ("checkers", 5), ("chess", 3)])
@pytest.mark.parametrize("use_native", ENGINES)
def test_perft_with_every_leaf_made(name: str, depth: int, use_native: bool) -> None:
    g = open_game(name)
    pos = g.initial()
    assert count_leaves(g, pos, depth, native=use_native, bulk=False) == count_leaves(g, pos, depth)


def test_playouts_command(capsys) -> None:
    assert main(["playouts", "tictactoe", "--count", "5", "--seed", "2", "--json"]) == 0
    assert '"playouts": 5' in capsys.readouterr().out
    for bad in (["--count", "0"], ["--seconds", "0"], [], ["--count", "3", "--seconds", "1"], ["--count", "3",
                                                                                               "--max-plies", "0"]):
        assert main(["playouts", "tictactoe", *bad]) == 2


def test_mcts_plays_native_playouts() -> None:
    from tapology.play.playing.ai import MCTSAgent

    g = open_game("checkers")
    pos = g.initial()
    turns = g.turns(pos)
    fast = MCTSAgent(g, simulations=60, seed=1)
    slow = MCTSAgent(g, simulations=20, seed=1, fast_playouts=False)
    assert fast.fast == native.available() and not slow.fast
    for agent in (fast, slow):
        assert 0 <= agent.choose(pos, turns) < len(turns)
    assert fast.done == 60 and slow.done == 20
    # the same seed, the same choice
    assert MCTSAgent(g, simulations=60, seed=1).choose(pos, turns) == MCTSAgent(g, simulations=60, seed=1).choose(
        pos, turns)
    # by spec, as match and play name them: mcts plays natively, mcts-python turn by turn (its old self)
    from tapology.play.playing.ai import make_search_agent, parse_player

    for spec, want in (("mcts:5", native.available()), ("mcts-python:5@1", False)):
        agent = make_search_agent(g, parse_player(spec), seed=1)
        assert isinstance(agent, MCTSAgent) and agent.fast == want, spec


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
@pytest.mark.parametrize("name", ["fox-and-hounds", "the-mill-game", "paper-soccer", "go:5x5"])
def test_mcts_plays_native_playouts_of_phases_bounces_counters_and_passes(name: str) -> None:
    """The games whose mechanics ran only in Python before (phases, line conditions and counters, final = false, a
    slide over the chain's stops, passing at any time with a counter): MCTS's playouts run natively, and a
    playout's last position keeps its counters (the mill game's stagnation draw is read there)."""
    from tapology.play.playing.ai import MCTSAgent, native_playouts

    assert native_playouts(open_game("breakthru"))  # its search is seconds here: the flag only

    g = open_game(name)
    pos = g.initial()
    agent = MCTSAgent(g, simulations=8, seed=1)
    assert agent.fast
    turns = g.turns(pos)
    assert 0 <= agent.choose(pos, turns) < len(turns)
    run = run_playouts(g, pos, count=3, seed=4)
    assert run.engine == "native" and run.ended + run.capped == 3
    end = playout_end(g, pos, seed=4, index=0)
    assert len(end.counters) == len(g.rules.counters) and (g.outcome(end) is not None or end.ply >= MAX_PLIES)
