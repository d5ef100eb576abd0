"""The executors give the same answers (in-process, local pool, Ray), keep per-process caches, and stop cleanly on
Ctrl-C with the finished results marked partial; perft split by first turns counts the same on each."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from tapology.errors import ExecutorError
from tapology.games.perft import run_perft, split
from tapology.games.registry import open_game
from tapology.parallel import SERIAL, Executor, cached, executor, run_tasks, shutdown


def square(ctx: int, task: int) -> int:
    return ctx * task * task


def pid_and_build_count(ctx: None, task: int) -> tuple[int, int]:
    builds = cached(("test-counter",), lambda: [0])
    builds[0] += 1
    return os.getpid(), cached(("test-built",), lambda: os.getpid())


def nap(ctx: float, task: int) -> int:
    time.sleep(ctx)
    return task


def fail_on_three(ctx: None, task: int) -> int:
    if task == 3:
        raise ValueError("task three")
    return task


def _interrupt_at(n: int):
    """A progress callback that presses Ctrl-C once ``n`` tasks have finished: deterministic under any load."""
    def progress(done: int, total: int) -> None:
        if done == n:
            os.kill(os.getpid(), signal.SIGINT)
    return progress


def ends_its_process(ctx: None, task: int) -> int:
    if task == 1:
        os._exit(3)  # as a worker killed by the system would
    time.sleep(0.05)
    return task


def test_executor_options() -> None:
    assert executor(1).kind == "serial" and executor(2).kind == "pool" and executor(2).size == 2
    assert executor(None).size >= 1 and executor(ray=True).kind == "ray" and executor(ray="").ray == ""
    assert executor(ray="10.0.0.1:6379").describe() == "ray at 10.0.0.1:6379"
    with pytest.raises(ExecutorError):
        Executor(workers=0)


def test_same_results_in_order_serial_and_pool() -> None:
    tasks = list(range(20))
    want = [3 * t * t for t in tasks]
    seen: list[tuple[int, int]] = []
    a = run_tasks(square, tasks, 3, ex=SERIAL, progress=lambda d, n: seen.append((d, n)))
    b = run_tasks(square, tasks, 3, ex=executor(2))
    assert a.results == b.results == want and a.complete and b.complete and b.done == 20
    assert seen[-1] == (20, 20) and a.executor == "serial" and b.executor == "pool of 2"


def test_worker_cache_builds_once_per_process() -> None:
    out = run_tasks(pid_and_build_count, list(range(12)), None, ex=executor(2))
    for pid, built_in in out.finished():
        assert built_in == pid  # the cached value was built in the worker that used it
    assert len({pid for pid, _ in out.finished()}) <= 2
    # the pool's workers, not the ones the first job happened to reach (one may take every task while the other starts)
    workers = {child.pid for child in multiprocessing.active_children()}
    assert {pid for pid, _ in out.finished()} <= workers
    again = run_tasks(pid_and_build_count, list(range(4)), None, ex=executor(2))
    assert {pid for pid, _ in again.finished()} <= workers  # the pool is kept between jobs
    shutdown()
    assert not multiprocessing.active_children()


def test_error_in_a_task_stops_the_pool() -> None:
    with pytest.raises(ValueError, match="task three"):
        run_tasks(fail_on_three, list(range(8)), None, ex=executor(2))
    assert not multiprocessing.active_children()


def test_ctrl_c_stops_the_pool_and_returns_partial() -> None:
    out = run_tasks(nap, list(range(40)), 0.25, ex=executor(2), progress=_interrupt_at(3))
    assert not out.complete and out.done == 3  # the other tasks were dropped, not waited for
    assert [r for r in out.results if r is not None] == sorted(r for r in out.results if r is not None)
    assert not multiprocessing.active_children()


def test_ctrl_c_serial_returns_partial() -> None:
    out = run_tasks(nap, list(range(20)), 0.01, ex=SERIAL, progress=_interrupt_at(5))
    assert not out.complete and out.done == 5


def test_a_worker_that_dies_fails_the_job_instead_of_hanging() -> None:
    with pytest.raises(ExecutorError, match="worker process ended"):
        run_tasks(ends_its_process, list(range(6)), None, ex=executor(2))
    assert not multiprocessing.active_children()


def test_perft_split_same_counts_on_every_local_executor() -> None:
    one = run_perft("checkers", 6, ex=SERIAL)
    two = run_perft("checkers", 6, ex=executor(2))
    assert one.nodes == two.nodes == 36768 and one.complete and two.complete
    assert one.divided == two.divided and one.tasks == 7 and two.tasks == 49 and two.split_depth == 2
    assert sum(n for _l, n in one.divided) == one.nodes
    ttt = run_perft("tictactoe", 5, board="torus:3x3", ex=executor(2))
    assert ttt.nodes == run_perft("tictactoe", 5, board="torus:3x3").nodes == open_game("tictactoe", "torus:3x3").perft(
        open_game("tictactoe", "torus:3x3").initial(), 5)
    tape = run_perft("tictactopology", 2, ex=executor(2))
    assert tape.nodes == open_game("tictactopology").perft(open_game("tictactopology").initial(), 2)


def test_perft_split_paths_cover_the_tree() -> None:
    g = open_game("checkers")
    pos = g.initial()
    assert split(g, pos, 1, 100) == [(t.label,) for t in g.perft_turns(pos)]
    two = split(g, pos, 5, 10)
    assert len(two) == 49 and all(len(p) == 2 for p in two)
    assert split(g, pos, 2, 100) == [(t.label,) for t in g.perft_turns(pos)]  # never down to the leaves
    assert run_perft("checkers", 0).nodes == 1


def test_perft_ctrl_c_is_partial() -> None:
    def interrupt_after_first(done: int, tasks: int) -> None:  # deterministic: Ctrl-C once a task has finished
        if done == 1:
            os.kill(os.getpid(), signal.SIGINT)

    out = run_perft("checkers", 11, ex=executor(2), progress=interrupt_after_first)
    assert not out.complete and out.done < out.tasks and out.missing
    assert out.nodes >= sum(n for _l, n in out.divided) and out.executor == "pool of 2"
    assert not multiprocessing.active_children()


@pytest.mark.xdist_group("ray")  # one local Ray cluster, on one test process
def test_ray_same_results(ray_cluster) -> None:
    out = run_tasks(square, list(range(10)), 2, ex=executor(ray=True))
    assert out.results == [2 * t * t for t in range(10)] and out.complete and out.executor == "ray"
    one = run_perft("checkers", 5, ex=SERIAL)
    ray = run_perft("checkers", 5, ex=executor(ray=True))
    assert ray.nodes == one.nodes == 7361 and ray.divided == one.divided


@pytest.mark.xdist_group("ray")  # one local Ray cluster, on one test process
def test_ray_ctrl_c_cancels(ray_cluster) -> None:
    out = run_tasks(nap, list(range(40)), 0.3, ex=executor(ray=True), progress=_interrupt_at(2))
    assert not out.complete and out.done < 40


# ---- census and solve split into tasks ----------------------------------------------------------------
def _census_facts(rows) -> list:
    return [(r.tiles, r.boards, r.surfaces, r.nodes, r.signatures, r.complete) for r in rows]


def test_census_same_boards_in_the_same_order_on_a_pool() -> None:
    from tapology.solver.synthesis import Request, census, enumerate_boards

    assert _census_facts(census(range(1, 7))) == _census_facts(census(range(1, 7), ex=executor(2)))
    lim = Request.make(tiles=6, closed=True)
    a, b = enumerate_boards(lim, limit=5), enumerate_boards(lim, limit=5, ex=executor(2))
    assert [f.signature for f in a.boards] == [f.signature for f in b.boards] and not a.complete and not b.complete


# boards with open sides: 2 tiles (52 boards, 2,095 nodes) by default, 3 tiles (160 boards, 17,819 nodes: seconds
# for each side) with -m slow
@pytest.mark.parametrize("tiles", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_open_boards_same_boards_in_the_same_order_on_a_pool(tiles: int) -> None:
    from tapology.solver.synthesis import Request, enumerate_boards

    req = Request.make(tiles=tiles, boundary=1)
    one, two = enumerate_boards(req), enumerate_boards(req, ex=executor(2))
    assert one.complete and two.complete and len(one.boards) > 1
    assert [f.signature for f in one.boards] == [f.signature for f in two.boards] and one.nodes == two.nodes


def test_census_hex_and_the_known_torus_counts() -> None:
    from tapology.solver.synthesis import census

    rows = census(range(1, 5), ex=executor(2))
    assert [r.surfaces.get("torus", 0) for r in rows] == [1, 2, 2, 4]
    hexes = census(range(1, 3), grid="hex", ex=executor(2))
    assert _census_facts(hexes) == _census_facts(census(range(1, 3), grid="hex"))


def test_census_ctrl_c_is_partial() -> None:
    from tapology.solver.synthesis import Request, enumerate_boards

    res = enumerate_boards(Request.make(tiles=14, closed=True), ex=executor(2), task_progress=_interrupt_at(1))
    assert res.interrupted and not res.complete
    assert not multiprocessing.active_children()


def _solve_facts(res) -> dict:
    d = res.to_json()
    d.pop("seconds")
    return d


def test_solve_layers_split_same_figures() -> None:
    from tapology.games.registry import load_game
    from tapology.play.solving.solve import solve_kinrow

    g = load_game("tictactoe:4", "plane:4x4").kinrow
    one = solve_kinrow(g)
    two = solve_kinrow(g, ex=executor(2))
    assert _solve_facts(one) == _solve_facts(two) and two.positions == 9_722_011 and two.value == 0
    lean = solve_kinrow(g, low_memory=True, ex=executor(2))  # no edges kept: the backward pass expands again
    assert {k: v for k, v in _solve_facts(lean).items() if k != "method"} == \
        {k: v for k, v in _solve_facts(one).items() if k != "method"}


@pytest.mark.xdist_group("ray")  # one local Ray cluster, on one test process
def test_ray_census_and_solve(ray_cluster) -> None:
    from tapology.games.registry import load_game
    from tapology.play.solving.solve import solve_kinrow
    from tapology.solver.synthesis import census

    assert _census_facts(census(range(1, 6), ex=executor(ray=True))) == _census_facts(census(range(1, 6)))
    g = load_game("tictactoe:4", "klein:4x4").kinrow
    assert _solve_facts(solve_kinrow(g, ex=executor(ray=True))) == _solve_facts(solve_kinrow(g))


# ---- the acceptance figures (slow) ----------------------------------------------------------------
@pytest.mark.slow
def test_perft_checkers_10_on_two_workers() -> None:
    two = run_perft("checkers", 10, ex=executor(2))
    assert two.nodes == 18_391_564 and two.complete and two.executor == "pool of 2"


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one local Ray cluster, on one test process
def test_perft_checkers_10_on_ray(ray_cluster) -> None:
    assert run_perft("checkers", 10, ex=executor(ray=True)).nodes == 18_391_564


def _census_12() -> list:
    from tapology.solver.synthesis import census

    serial = _census_facts(census(range(1, 13)))
    assert [r[1] for r in serial] == [9, 18, 16, 30, 20, 38, 20, 46, 33, 46, 24, 70]
    return serial


@pytest.mark.slow
def test_census_to_12_identical_on_a_pool() -> None:
    from tapology.solver.synthesis import census

    assert _census_facts(census(range(1, 13), ex=executor(2))) == _census_12()


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one local Ray cluster, on one test process
def test_census_to_12_identical_on_ray(ray_cluster) -> None:
    from tapology.solver.synthesis import census

    assert _census_facts(census(range(1, 13), ex=executor(ray=True))) == _census_12()
