"""Computer players (alpha-beta with a transposition table, MCTS: ours and OpenSpiel's, time limits) and the match
runner: the same results on every executor, intervals, the ``match`` command; the issue's acceptance runs are slow."""

from __future__ import annotations

import json
import time

import pytest

from tapology.adapters import openspiel as osp
from tapology.adapters.match import SpielMCTSAgent, make_player, mcts_engine, play_game, run_match, wilson
from tapology.cli import main
from tapology.errors import StrengthError
from tapology.games.registry import load_game, open_game
from tapology.parallel import SERIAL, executor
from tapology.play.playing.ai import AlphaBetaAgent, MCTSAgent, PlayerSpec, parse_player
from tapology.play.solving.solve import solve_kinrow
from tapology.rules import native

needs_openspiel = pytest.mark.skipif(not osp.available(), reason="the openspiel extra is not installed")


def test_player_specs() -> None:
    assert parse_player("mcts:1000") == parse_player("MCTS:1000")
    p = parse_player("mcts:5000@2")
    assert (p.kind, p.budget, p.seconds) == ("mcts", 5000, 2.0)
    assert parse_player("alphabeta").budget == 6 and parse_player("alphabeta:9@0.5s").seconds == 0.5
    assert parse_player("random").kind == "random" and parse_player("perfect").kind == "perfect"
    assert parse_player("3").kind == "depth" and parse_player("3").budget == 3
    assert parse_player("mcts-python:50@0.5") == PlayerSpec("mcts-python", 50, 0.5)
    for bad in ("mcts-python:x", "mcts:x", "mcts:0", "alphabeta:3@-1", "wizard", "random:3", "mcts:10@soon", "random@2", "4@1"):
        with pytest.raises(StrengthError):
            parse_player(bad, "--a")


def test_alpha_beta_plays_perfectly_on_small_boards() -> None:
    for board in ("plane:3x3", "klein:3x3"):
        g = load_game("tictactoe", board).game
        want = solve_kinrow(g).value
        a, b = AlphaBetaAgent(g, 9, seed=1), AlphaBetaAgent(g, 9, seed=2)
        out, _plies = play_game(g, a, b)
        assert out["X"] == want and a.table  # optimal play gives the game's value; the table was used


def test_alpha_beta_takes_a_win_and_blocks() -> None:
    g = load_game("tictactoe").game
    pos = g.initial()
    for label in ("1", "4", "2", "5"):  # X: 1 2, O: 4 5 -> X wins at 3
        pos = next(t for t in g.turns(pos) if t.label == label).result
    turns = g.turns(pos)
    assert turns[AlphaBetaAgent(g, 2, seed=0).choose(pos, turns)].label == "3"
    assert turns[MCTSAgent(g, 50, seed=0).choose(pos, turns)].label == "3"


def test_alpha_beta_on_a_rule_game_with_a_time_limit() -> None:
    g = open_game("checkers")
    agent = AlphaBetaAgent(g, 30, seconds=0.3, seed=0)
    pos = g.initial()
    turns = g.turns(pos)
    t0 = time.perf_counter()
    i = agent.choose(pos, turns)
    assert 0 <= i < len(turns) and time.perf_counter() - t0 < 3 and 1 <= agent.reached < 30
    m = MCTSAgent(g, 10_000, seconds=0.3, seed=0)
    t0 = time.perf_counter()
    m.choose(pos, turns)
    assert time.perf_counter() - t0 < 3 and m.done < 10_000


def test_own_mcts_beats_random_on_the_torus() -> None:
    res = run_match("tictactoe", "torus:3x3", "mcts:300", "random", 12, swap=False, engine="own")
    assert res.total.wins == 12 and res.first.games == 12 and res.engine == "own"


def test_match_same_results_on_every_local_executor() -> None:
    a = run_match("tictactoe", "klein:3x3", "alphabeta:2", "random", 16, seed=5)
    b = run_match("tictactoe", "klein:3x3", "alphabeta:2", "random", 16, seed=5, ex=executor(2))
    assert a.scores == b.scores and a.complete and b.complete and b.executor == "pool of 2"
    assert a.first.games == a.second.games == 8 and a.total.games == 16


def test_wilson_interval() -> None:
    lo, hi = wilson(0, 200)
    assert lo == 0 and 0.018 < hi < 0.019
    lo, hi = wilson(100, 200)
    assert 0.43 < lo < 0.44 and 0.56 < hi < 0.57


def test_match_command_json(capsys) -> None:
    code = main(["match", "tictactoe", "--board", "torus:3x3", "--a", "alphabeta:3", "--b", "random", "--games", "6",
                 "--workers", "1", "--engine", "own", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["played"] == 6 and out["a_results"]["games"] == 6 and out["complete"]
    assert set(out["a_results"]) >= {"wins", "draws", "losses", "win_ci95", "score"} and out["mcts"] == "none"
    assert main(["match", "tictactoe", "--a", "wizard"]) == 2
    assert "--a" in capsys.readouterr().err
    assert main(["match", "tictactoe", "--games", "0"]) == 2


def test_match_command_text(capsys) -> None:
    assert main(["match", "tictactoe", "--a", "random", "--b", "random", "--games", "4", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "A = random against B = random" in text and "95% Wilson" in text and "A first" in text


@needs_openspiel
def test_openspiel_mcts_is_the_default_mcts() -> None:
    assert mcts_engine("auto") == "openspiel" and mcts_engine("own") == "own"
    # but not where the native engine plays the game's playouts: ours runs them there
    checkers = open_game("checkers")
    assert mcts_engine("auto", checkers) == ("own" if native.available() else "openspiel")
    assert isinstance(make_player("checkers", None, "mcts:10", seed=1, game=checkers),
                      MCTSAgent if native.available() else SpielMCTSAgent)
    p = make_player("tictactoe", "torus:3x3", "mcts:200", seed=1)
    assert isinstance(p, SpielMCTSAgent)
    g = load_game("tictactoe", "torus:3x3").game
    out, _ = play_game(g, p, make_player("tictactoe", "torus:3x3", "random", seed=2))
    assert out["X"] == 1
    timed = make_player("checkers", None, "mcts:100000@0.3", seed=1, engine="openspiel")
    cg = open_game("checkers")
    t0 = time.perf_counter()
    timed.choose(cg.initial(), cg.turns(cg.initial()))
    assert time.perf_counter() - t0 < 5


@pytest.mark.xdist_group("ray")  # one local Ray cluster, on one test process
def test_match_on_ray(ray_cluster) -> None:
    a = run_match("tictactoe", "plane:3x3", "alphabeta:2", "random", 6, seed=3, ex=SERIAL)
    b = run_match("tictactoe", "plane:3x3", "alphabeta:2", "random", 6, seed=3, ex=executor(ray=True))
    assert a.scores == b.scores and b.executor == "ray"


# ---- the acceptance runs (slow) --------------------------------------------------------------
@pytest.mark.slow
def test_mcts_never_loses_to_random_on_the_plane() -> None:
    res = run_match("tictactoe", "plane:3x3", "mcts:1000", "random", 200, ex=executor(None))
    assert res.complete and res.total.losses == 0 and res.total.games == 200


@pytest.mark.slow
def test_mcts_first_on_the_torus_wins_every_game() -> None:
    res = run_match("tictactoe", "torus:3x3", "mcts:1000", "random", 200, swap=False, ex=executor(None))
    assert res.complete and res.total.wins == 200


def test_players_by_spec_sit_in_a_play_session() -> None:
    import io

    from tapology.play.playing.session import PlaySession

    for game, board in (("tictactoe", "klein:3x3"), ("tictactopology", "plane:3x3")):
        lg = load_game(game, board)
        seats = [make_player(game, board, "alphabeta:2@1", seed=1, engine="own", game=lg.game),
                 make_player(game, board, "mcts:15", seed=2, engine="own", game=lg.game)]
        s = PlaySession(lg.game, seats, io.StringIO(""), io.StringIO(), game_name=game, board_name=board)
        res = s.run()
        assert res["finished"] and res["result"] is not None
