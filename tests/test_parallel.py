"""The executors give the same answers (in-process, local pool, Ray), keep per-process caches, and stop cleanly on
Ctrl-C with the finished results marked partial; perft split by first turns counts the same on each."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from tapology.errors import ExecutorError
from tapology.games.perft import run_perft, split
from tapology.games.registry import open_game
from tapology.parallel import SERIAL, Executor, cached, executor, ray_available, run_tasks


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


def _interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.fixture(scope="module")
def ray_cluster():
    if not ray_available():
        pytest.skip("the ray extra is not installed")
    import ray  # the optional extra

    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False)
    yield ray
    ray.shutdown()


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


def test_error_in_a_task_stops_the_pool() -> None:
    with pytest.raises(ValueError, match="task three"):
        run_tasks(fail_on_three, list(range(8)), None, ex=executor(2))
    assert not multiprocessing.active_children()


def test_ctrl_c_stops_the_pool_and_returns_partial() -> None:
    timer = _interrupt_after(1.5)
    t0 = time.perf_counter()
    try:
        out = run_tasks(nap, list(range(40)), 0.25, ex=executor(2))
    finally:
        timer.cancel()
    assert time.perf_counter() - t0 < 5  # not the 5 s the whole job would take
    assert not out.complete and 0 < out.done < 40
    assert [r for r in out.results if r is not None] == sorted(r for r in out.results if r is not None)
    assert not multiprocessing.active_children()


def test_ctrl_c_serial_returns_partial() -> None:
    timer = _interrupt_after(0.6)
    try:
        out = run_tasks(nap, list(range(20)), 0.1, ex=SERIAL)
    finally:
        timer.cancel()
    assert not out.complete and 0 < out.done < 20


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
    timer = _interrupt_after(2.0)
    try:
        out = run_perft("checkers", 9, ex=executor(2))
    finally:
        timer.cancel()
    assert not out.complete and out.done < out.tasks and out.missing
    assert out.nodes >= sum(n for _l, n in out.divided) and out.executor == "pool of 2"
    assert not multiprocessing.active_children()


def test_ray_same_results(ray_cluster) -> None:
    out = run_tasks(square, list(range(10)), 2, ex=executor(ray=True))
    assert out.results == [2 * t * t for t in range(10)] and out.complete and out.executor == "ray"
    one = run_perft("checkers", 5, ex=SERIAL)
    ray = run_perft("checkers", 5, ex=executor(ray=True))
    assert ray.nodes == one.nodes == 7361 and ray.divided == one.divided


def test_ray_ctrl_c_cancels(ray_cluster) -> None:
    timer = _interrupt_after(2.0)
    try:
        out = run_tasks(nap, list(range(40)), 0.3, ex=executor(ray=True))
    finally:
        timer.cancel()
    assert not out.complete and out.done < 40
