"""Long commands estimate their work, take the executor options, stop at --timeout or Ctrl-C with a partial answer
marked ``complete: false``; ``solve`` refuses at once what is beyond reach; ``play`` takes player specs, limits
each computer move, shows it thinking, saves after every turn and resumes."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from tapology.cli import main
from tapology.errors import OptionError, SolveError
from tapology.games.perft import POOL_FROM, auto_executor, estimate_leaves
from tapology.games.registry import load_game, open_position
from tapology.parallel import SERIAL, TimeUp, check_timeout, executor, time_limit
from tapology.play.playing.ai import PERFECT, GameAgent, make_agent
from tapology.play.playing.referee import referee
from tapology.play.playing.session import GameRecord, PlaySession
from tapology.play.playing.transcript import read_transcript
from tapology.reports.games import perft_report
from tapology.reports.play import play_report, solve_report


def _run(capsys, argv: list[str]) -> tuple[int, dict, str]:
    code = main(argv)
    got = capsys.readouterr()
    return code, (json.loads(got.out) if "--json" in argv and got.out.strip() else {}), got.err


# ---- time limits ---------------------------------------------------------------------------------------
def test_time_limit_raises_a_keyboard_interrupt_and_says_it_fired() -> None:
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), time_limit(0.3) as lim:
        while True:
            time.sleep(0.01)
    assert lim.fired and lim.stopped(False) == "timeout" and time.perf_counter() - t0 < 2
    with time_limit(5) as lim:
        pass
    assert not lim.fired and lim.stopped(True) is None and lim.stopped(False) == "interrupted"
    assert issubclass(TimeUp, KeyboardInterrupt)
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(OptionError):
            check_timeout(bad)


def test_a_lost_time_up_is_repeated(monkeypatch) -> None:
    # Python drops an exception raised inside a weakref callback or __del__: the limit must say it again
    import tapology.parallel as par

    monkeypatch.setattr(par, "GRACE", 0.5)
    monkeypatch.setattr(par, "REMIND", 0.1)
    swallowed = []
    t0 = time.perf_counter()
    with pytest.raises(TimeUp), time_limit(0.2):
        try:
            while time.perf_counter() - t0 < 0.6:
                time.sleep(0.01)
        except TimeUp:
            swallowed.append(time.perf_counter() - t0)  # the job goes on as if it never heard
        while time.perf_counter() - t0 < 10:
            time.sleep(0.01)
    waited = time.perf_counter() - t0
    assert swallowed and 0.5 < waited < 3, waited


# ---- perft ---------------------------------------------------------------------------------------------
def test_perft_estimate_and_automatic_executor() -> None:
    g, pos = open_position("checkers", None, None)
    est, exact = estimate_leaves(g, pos, 10)
    assert exact == 6 and 0.5 * 18_391_564 < est < 2 * 18_391_564
    small, exact = estimate_leaves(g, pos, 4)
    assert exact == 3 and 1000 < small < 2000 and estimate_leaves(g, pos, 1) == (7, 1)
    assert auto_executor(1469) == SERIAL and auto_executor(POOL_FROM).kind == "pool"
    small = perft_report("checkers", 5)
    assert small.complete and small.executor == "serial" and small.nodes == 7361


def test_perft_workers_give_the_same_counts(capsys) -> None:
    one = _run(capsys, ["perft", "checkers", "--depth", "6", "--divide", "--workers", "1", "--json"])
    two = _run(capsys, ["perft", "checkers", "--depth", "6", "--divide", "--workers", "2", "--json"])
    assert one[0] == two[0] == 0 and one[1] == two[1] and one[1]["nodes"] == 36768
    assert main(["perft", "checkers", "--depth", "3", "--workers", "0"]) == 2


def test_perft_timeout_gives_a_partial_count(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    # on the interpreter: a count this big would otherwise first compile checkers' own C (some 40 s of gcc, which
    # the timeout cuts short here, and which is not what this test times)
    monkeypatch.setenv("TAPOLOGY_NATIVE_SPECIALISE", "0")
    t0 = time.perf_counter()
    code, out, _err = _run(capsys, ["perft", "checkers", "--depth", "12", "--workers", "2", "--timeout", "1.5",
                                    "--json"])
    assert time.perf_counter() - t0 < 8
    assert code == 0 and out["complete"] is False and out["stopped"] == "timeout"
    assert out["tasks_done"] < out["tasks"] == 49 and out["unfinished_first_turns"] and out["estimate"] > 10**8
    assert not multiprocessing.active_children()
    # in this process the tasks are cut small, so the stop comes soon after the limit: measured in CPU seconds, which
    # a loaded machine does not stretch (a count that missed its limit would run for minutes)
    t0 = time.process_time()
    code = main(["perft", "checkers", "--depth", "13", "--workers", "1", "--timeout", "1"])
    assert time.process_time() - t0 < 4
    text = capsys.readouterr().out
    assert code == 0 and "partial: timed out after 1 s" in text and "of 302 tasks done" in text


def test_perft_ctrl_c_after_the_first_task_is_partial_and_exits_130() -> None:
    def interrupt(done: int, total: int) -> None:  # deterministic: Ctrl-C once a task has finished
        if done == 1:
            os.kill(os.getpid(), signal.SIGINT)

    rep = perft_report("checkers", 11, ex=executor(2), progress=interrupt)
    assert not rep.complete and rep.stopped == "interrupted" and rep.exit_code == 130 and rep.tasks_done >= 1
    assert "partial: interrupted" in rep.text() and rep.to_json()["complete"] is False
    assert not multiprocessing.active_children()


# ---- solve ---------------------------------------------------------------------------------------------
def test_solve_beyond_reach_is_refused_at_once(capsys) -> None:
    for argv, why in ((["solve", "checkers"], "5 states on each of 64 tiles"),
                      (["solve", "tictactoe:4", "--board", "plane:5x5"], "classes")):
        t0 = time.perf_counter()
        code = main(argv)
        err = capsys.readouterr().err
        assert time.perf_counter() - t0 < 5 and code == 2
        assert err.count("\n") == 1 and "beyond exhaustive solving" in err and why in err
        assert "perft" in err and "match" in err and "verify" in err and "--reach" in err
    with pytest.raises(SolveError):
        solve_report("chinese-checkers")


def test_solve_timeout_stops_with_the_layers_done(capsys) -> None:
    t0 = time.perf_counter()
    code, out, _ = _run(capsys, ["solve", "tictactoe:4", "--board", "torus:4x5", "--timeout", "2", "--json"])
    took = time.perf_counter() - t0
    assert code == 0 and took < 10
    assert out["complete"] is False and out["stopped"] == "timeout" and out["value"] is None
    assert 0 < out["layers_done"] < 21 and len(out["layers"]) == out["layers_done"]
    assert out["positions"] == sum(r["positions"] for r in out["layers"]) > 0
    assert out["estimate"]["position_bound"] > out["positions"] and out["estimate"]["group_order"] == 80
    assert not multiprocessing.active_children()
    code = main(["solve", "tictactoe:4", "--board", "torus:4x5", "--timeout", "1"])
    text = capsys.readouterr().out
    assert code == 0 and "partial: timed out after 1 s" in text and "layers done" in text


def test_solve_ctrl_c_is_partial_and_exits_130() -> None:
    def stop(stage: str, done: int, total: int) -> None:
        if stage.startswith("layers") and done == 6:
            raise KeyboardInterrupt

    rep = solve_report("tictactoe:4", "plane:4x4", progress=stop, ex=SERIAL)
    assert rep.exit_code == 130 and rep.to_json()["stopped"] == "interrupted" and rep.to_json()["layers_done"] == 6
    assert "partial: interrupted: 6 of 17 layers done" in rep.text()


def test_solve_workers_same_answer_and_the_plan(capsys) -> None:
    heard: list[str] = []
    a = solve_report("tictactoe:4", "plane:4x4", ex=SERIAL, plan=heard.append)
    b = solve_report("tictactoe:4", "plane:4x4", ex=executor(2))
    assert a.result.to_json() | {"seconds": 0} == b.result.to_json() | {"seconds": 0} and a.result.complete
    assert heard and "at most" in heard[0] and "17 layers" in heard[0]
    code, out, _ = _run(capsys, ["solve", "tictactoe", "--board", "torus:3x3", "--workers", "2", "--json"])
    assert code == 0 and out["positions"] == _reachable_claims("tictactoe", "torus:3x3")


def _reachable_claims(game: str, board: str) -> int:
    """Positions reachable by claims, counted by a breadth-first walk over the game's children (independent of the
    layered solver)."""
    from tapology.games.registry import load_game

    kr = load_game(game, board).kinrow
    seen = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        x, o = todo.pop()
        for _t, a, b in kr.children(x, o):
            if (a, b) not in seen:
                seen.add((a, b))
                todo.append((a, b))
    return len(seen)


# ---- synthesize, match, verify ---------------------------------------------------------------------------
def test_synthesize_on_workers_and_timeout(capsys) -> None:
    one = _run(capsys, ["synthesize", "--tiles", "6", "--closed", "--workers", "1", "--json"])
    two = _run(capsys, ["synthesize", "--tiles", "6", "--closed", "--workers", "2", "--json"])
    assert one[0] == two[0] == 0 and one[1] == two[1] and one[1]["count"] == 38
    code, out, err = _run(capsys, ["synthesize", "--tiles", "13", "--closed", "--workers", "2", "--timeout", "1",
                                   "--json"])
    assert code == 0 and out["complete"] is False and out["timed_out"] and "timed out" in err


def test_match_timeout_keeps_the_finished_games(capsys) -> None:
    # what a time budget guarantees: the match stops, says why, and its tallies hold exactly the games finished; on a
    # machine too loaded to finish a game in 1.5 s the budget is doubled until one is kept (the first try on an idle one)
    for timeout in (1.5, 3, 6, 12):
        code, out, _ = _run(capsys, ["match", "tictactoe", "--a", "alphabeta:9", "--b", "random", "--games", "5000",
                                     "--engine", "own", "--workers", "2", "--timeout", str(timeout), "--json"])
        assert code == 0 and out["complete"] is False and out["stopped"] == "timeout" and 0 <= out["played"] < 5000
        n = out["played"]
        assert out["a_results"]["wins"] + out["a_results"]["draws"] + out["a_results"]["losses"] == n
        assert out["a_first"]["games"] + out["a_second"]["games"] == n and 5 * n <= out["plies"] <= 9 * n
        assert not multiprocessing.active_children()
        if n:
            break
    assert n > 0


def test_verify_reach_timeout_is_partial(capsys) -> None:
    code, out, _ = _run(capsys, ["verify", "checkers", "--reach", "count(empty) < 20", "--depth", "30",
                                 "--timeout", "1", "--json"])
    assert code == 3 and out["reach"]["complete"] is False and out["reach"]["stopped"] == "timeout"  # undecided
    assert out["reach"]["explored"] > 0


# ---- play --------------------------------------------------------------------------------------------------
def test_play_takes_player_specs(capsys, tmp_path) -> None:
    save = tmp_path / "g.json"
    code, out, _ = _run(capsys, ["play", "tictactoe", "--board", "torus:3x3", "--x", "alphabeta:4", "--o", "mcts:200",
                                 "--seed", "2", "--save", str(save), "--json"])
    assert code == 0 and out["finished"] and out["result"] is not None
    assert GameRecord.load(save).turns == out["turns"]
    assert main(["play", "tictactoe", "--x", "mcts:lots"]) == 2
    assert "--x 'mcts:lots'" in capsys.readouterr().err
    assert main(["play", "tictactoe", "--o", "robot"]) == 2


def test_computer_search_keeps_to_its_time_limit() -> None:
    lg = load_game("chinese-checkers")
    pos = lg.game.initial()
    turns = lg.game.turns(pos)
    agent = GameAgent(lg.game, 6, seed=1, seconds=0.5)
    t0 = time.perf_counter()
    i = agent.choose(pos, turns)
    assert time.perf_counter() - t0 < 3 and 0 <= i < len(turns) and 1 <= agent.reached < 6
    big = load_game("tictactoe:4", "torus:5x5").game  # no table on 25 tiles: a depth-6 search, ~2 minutes a move
    start = big.initial()
    player = make_agent(big, PERFECT, 1, seconds=0.5)
    t0 = time.perf_counter()
    player.choose(start, big.turns(start))
    assert time.perf_counter() - t0 < 3 and 1 <= player.reached < 6


class _Thinking:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, who: str):
        self.calls.append(who)
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _CrashOnSecondMove:
    def __init__(self) -> None:
        self.moves = 0

    def choose(self, pos, turns) -> int:
        self.moves += 1
        if self.moves == 2:
            raise KeyboardInterrupt
        return 0


def test_play_autosaves_every_turn_and_resumes(tmp_path, monkeypatch) -> None:
    save = tmp_path / "game.json"
    lg = load_game("tictactoe", "plane:3x3")
    think = _Thinking()
    sess = PlaySession(lg.game, [None, _CrashOnSecondMove()], io.StringIO("5\n9\n"), io.StringIO(),
                       game_name="tictactoe", board_name="plane:3x3", autosave=str(save), thinking=think)
    with pytest.raises(KeyboardInterrupt):  # a crash in the middle of the computer's second move
        sess.run()
    assert think.calls == ["O (computer)", "O (computer)"]
    rec = GameRecord.load(save)
    assert rec.turns == sess.labels and len(rec.turns) == 3 and rec.result is None
    assert not list(tmp_path.glob("*.tmp*"))  # written whole: no temporary file left behind
    # the saved turns are a transcript the referee accepts
    transcript = "\n".join(json.dumps(t) for t in rec.turns) + "\n"
    verdict = referee(lg.game, read_transcript(lg.game, transcript, "saved"))
    assert verdict.valid and verdict.steps == 3
    # resume: the game goes on from the saved turns and keeps saving to the same file
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "tictactoe", "--resume", str(save), "--x", "human", "--o", "ai", "--seed", "1"]) == 0
    again = GameRecord.load(save)
    assert again.turns[:3] == rec.turns and len(again.turns) == 4  # the computer's reply came and was saved
    rep = play_report("tictactoe", None, "ai", "ai", seed=3, resume=str(save), stdin=io.StringIO(""),
                      show=io.StringIO())
    final = GameRecord.load(save)
    assert final.turns[:4] == again.turns and final.result == rep.result["result"] is not None


def test_play_interrupted_says_where_the_game_is(tmp_path) -> None:
    save = tmp_path / "g.json"
    shown = io.StringIO()

    class Crash:
        def choose(self, pos, turns):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import tapology.reports.play as rp

        old = rp._seat
        rp._seat = lambda lg, opt, who, *a: Crash() if opt == "--o" else None  # type: ignore[assignment]
        try:
            play_report("tictactoe", None, "human", "ai", save=str(save), stdin=io.StringIO("5\n"), show=shown)
        finally:
            rp._seat = old
    assert f"--resume {save}" in shown.getvalue() and GameRecord.load(save).turns == ["5"]


def test_default_autosave_path(tmp_path, monkeypatch) -> None:
    target = tmp_path / "state" / "autosave.json"
    monkeypatch.setenv("TAPOLOGY_AUTOSAVE", str(target))
    play_report("tictactoe", None, "ai", "ai", seed=1, stdin=io.StringIO(""), show=io.StringIO())
    assert GameRecord.load(target).result is not None
    monkeypatch.delenv("TAPOLOGY_AUTOSAVE")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    play_report("tictactoe", None, "ai", "ai", seed=1, stdin=io.StringIO(""), show=io.StringIO(), autosave=True)
    assert Path(tmp_path / "xdg" / "tapology" / "autosave.json").is_file()
    nothing = tmp_path / "none"
    monkeypatch.setenv("XDG_STATE_HOME", str(nothing))
    play_report("tictactoe", None, "ai", "ai", seed=1, stdin=io.StringIO(""), show=io.StringIO(), autosave=False)
    assert not nothing.exists()


@pytest.mark.slow
def test_ray_option_gives_the_same_answers(capsys) -> None:
    from tapology.parallel import ray_available

    if not ray_available():
        pytest.skip("the ray extra is not installed")
    import ray  # the optional extra

    try:
        perft = _run(capsys, ["perft", "checkers", "--depth", "7", "--ray", "--json"])
        synth = _run(capsys, ["synthesize", "--tiles", "5", "--closed", "--ray", "--json"])
    finally:
        ray.shutdown()
    assert perft[0] == 0 and perft[1] == {"depth": 7, "nodes": 179740}
    assert synth[0] == 0 and synth[1]["count"] == 20 and synth[1]["complete"]


def test_every_long_command_says_its_work_before_it_starts() -> None:
    from tapology.reports.design import compare_report
    from tapology.reports.match import match_report
    from tapology.reports.play import verify_report
    from tapology.reports.topology import synthesize_report

    heard: list[str] = []
    verify_report("tictactoe", "torus:3x3", "line(X) and line(O)", 9, plan=heard.append)
    compare_report("tictactoe", "plane:3x3,torus:3x3", playouts=10, plan=heard.append)
    synthesize_report(3, closed=True, plan=heard.append)
    match_report("tictactoe", None, "random", "random", 4, ex=SERIAL, plan=heard.append)
    perft_report("checkers", 3, plan=heard.append)
    assert "at most 6.05e+03 positions" in heard[0] and "on 2 boards" in heard[1]
    assert "3 tiles" in heard[2] and "4 games" in heard[3] and "leaf turns" in heard[4]


def test_verify_reach_ctrl_c_is_partial_and_exits_130() -> None:
    from tapology.reports.play import verify_report

    def stop(stage: str, done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    rep = verify_report("checkers", None, "count(empty) < 20", 12, progress=stop)
    assert rep.exit_code == 130 and rep.to_json()["reach"]["stopped"] == "interrupted"
    assert "unknown within 12 turns (partial: interrupted" in rep.text()


def test_a_timeout_in_the_estimate_is_a_partial_answer(monkeypatch, capsys) -> None:
    import tapology.reports.games as games

    def slow_open(*_a: object) -> None:
        time.sleep(5)

    monkeypatch.setattr(games, "estimate_leaves", lambda *a: (slow_open(), (0, 0))[1])
    code = main(["perft", "checkers", "--depth", "3", "--timeout", "0.3"])
    out, err = capsys.readouterr()
    # a partial answer as every timeout gives (nothing counted, the first turns not finished), exit 0 as after a timeout
    assert code == 0 and err == "" and out.startswith("perft 3: at least 0 (partial: timed out after 0.3 s")


def test_solve_ctrl_c_on_the_pool_stops_every_worker() -> None:
    def interrupt(stage: str, done: int, total: int) -> None:  # Ctrl-C once the split layers have begun
        if stage.startswith("layers") and done == 8:
            os.kill(os.getpid(), signal.SIGINT)

    rep = solve_report("tictactoe:4", "torus:4x5", progress=interrupt, ex=executor(2))
    out = rep.to_json()
    assert rep.exit_code == 130 and out["complete"] is False and out["stopped"] == "interrupted"
    assert 8 <= out["layers_done"] <= 9 and out["positions"] == sum(r["positions"] for r in out["layers"])
    assert not multiprocessing.active_children()
