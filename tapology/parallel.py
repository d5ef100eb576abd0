"""Independent tasks run in this process, on a local process pool, or on a Ray cluster, with the same answers.

A job is a module-level function ``fn(context, task) -> result``, a picklable ``context`` shared by
every task and a list of small picklable tasks (a path of turn labels, a range of positions).
:func:`run_tasks` gives the results in task order, whichever executor ran them:

* ``serial``: one task after another in this process (``workers=1``, or a single task);
* ``pool``: a local process pool (``workers=N``; ``None`` means every core); tasks go one at a
  time to whichever worker is free;
* ``ray``: the same tasks as Ray tasks (``ray=""`` runs ``ray.init()`` for a local cluster unless
  Ray is already initialised, ``ray="ADDRESS"`` joins a cluster); the context is put in Ray's
  object store once.

Workers keep what is expensive to build (an opened game, a solver's tables) in a per-process
cache, :func:`cached`; the local pool is kept between jobs (and so are its caches) until
:func:`shutdown` or the end of this process.  Keep the context small (it travels with each task
to the pool) and build big tables in the worker through :func:`cached`.  Ctrl-C in the parent
stops every worker at once (the pool is terminated, Ray tasks are cancelled) and
:func:`run_tasks` returns the finished results with ``complete`` False.  ``progress(done,
total)`` hears after each finished task.

:func:`time_limit` turns a number of seconds into the same stop as Ctrl-C: when the time is up a
:class:`TimeUp` (a ``KeyboardInterrupt``) is raised in the main thread, so every job that stops
cleanly on Ctrl-C stops cleanly on a timeout too, and the limit says that it fired.  In the same way
:func:`terminate_as_interrupt` turns SIGTERM into a :class:`Terminated` (a ``KeyboardInterrupt``): a job asked to
stop by ``kill`` or a service manager ends its workers and reports what it finished, as on Ctrl-C.
"""

from __future__ import annotations

import atexit
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tapology.errors import ExecutorError, OptionError

if TYPE_CHECKING:  # multiprocessing loads when a pool starts (a serial job does without it)
    import multiprocessing.context
    import multiprocessing.pool

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[int, int], None]


# ---- executors -------------------------------------------------------------------------------
def cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Executor:
    """Where tasks run: ``workers`` local processes (None: every core; 1: this process), or Ray when ``ray`` is not
    None ("" for ``ray.init()``, else a cluster address)."""

    workers: int | None = None
    ray: str | None = None

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ExecutorError(f"--workers {self.workers}: must be at least 1")

    @property
    def kind(self) -> str:
        """``serial``, ``pool`` or ``ray``."""
        if self.ray is not None:
            return "ray"
        return "serial" if self.size == 1 else "pool"

    @property
    def size(self) -> int:
        """The local worker count (Ray: the cluster's CPUs once it is up, else the local cores)."""
        if self.ray is not None:
            return _ray_cpus()
        return self.workers if self.workers is not None else cores()

    def describe(self) -> str:
        """``serial``, ``pool of 2`` or ``ray`` (with its address)."""
        if self.kind == "ray":
            return "ray" + (f" at {self.ray}" if self.ray else "")
        return "serial" if self.kind == "serial" else f"pool of {self.size}"


SERIAL = Executor(workers=1)


def executor(workers: int | None = None, ray: str | bool | None = None) -> Executor:
    """The executor CLI options ask for: ``--workers N`` (None: every core), ``--ray`` (True: ``ray.init()``) or
    ``--ray-address ADDRESS`` (the address as ``ray``)."""
    if ray is True:
        ray = ""
    if ray is False:
        ray = None
    return Executor(workers, ray)


@dataclass
class Outcome(Generic[R]):
    """Results in task order (None where a task did not finish), how many finished, and where they ran."""

    results: list[R | None]
    done: int
    complete: bool
    seconds: float
    executor: str

    def finished(self) -> list[R]:
        """The results of the finished tasks, in task order."""
        return [r for r in self.results if r is not None]


# ---- time limits ------------------------------------------------------------------------------
class TimeUp(KeyboardInterrupt):
    """A time limit ran out: raised in the main thread where Ctrl-C would be, and handled as Ctrl-C is."""


@dataclass
class Limit:
    """A time limit in force (``seconds`` None: none) and whether it fired."""

    seconds: float | None = None
    fired: bool = False
    fired_at: float | None = None  # time.monotonic() of the last TimeUp raised

    def stopped(self, complete: bool) -> str | None:
        """Why a job stopped early: None (it finished), ``timeout`` or ``interrupted`` (Ctrl-C)."""
        if complete:
            return None
        return "timeout" if self.fired else "interrupted"


def check_timeout(seconds: float | None, option: str = "--timeout") -> float | None:
    """A time limit option's value: None or a positive finite number of seconds."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise OptionError(f"{option} {seconds}: give a positive, finite number of seconds")
    return seconds


REMIND = 1.0  # seconds between alarms once a time limit has run out
GRACE = 5.0  # seconds a stopped job has to leave its time limit before it is told again


@contextmanager
def time_limit(seconds: float | None) -> Iterator[Limit]:
    """Raise :class:`TimeUp` in the main thread after ``seconds`` (None: never); the limit is lifted on leaving, and
    the local pool's workers are ended if it fired.  Outside the main thread (where signals cannot be set) no limit
    is set."""
    lim = Limit(check_timeout(seconds))
    if seconds is None or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield lim
        return

    def fire(_signum: int, _frame: Any) -> None:
        now = time.monotonic()
        # the first alarm stops the job; a later one (every REMIND s) repeats it only if the job is still inside the
        # limit GRACE s on: Python drops an exception raised where it ignores them (a weakref callback, a __del__)
        if lim.fired_at is None or now - lim.fired_at >= GRACE:
            lim.fired, lim.fired_at = True, now
            raise TimeUp

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds, REMIND)
    try:
        yield lim
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if lim.fired:  # the job stopped wherever it was: no worker goes on with a task of it
            shutdown()


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: raised in the main thread where Ctrl-C would be, and handled as Ctrl-C is."""


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Inside the block SIGTERM raises :class:`Terminated` in the main thread (once: a second SIGTERM while the job
    is stopping is ignored, so that its workers are ended and its partial answer printed); outside the main thread,
    or where SIGTERM's handler is not the default one, nothing changes."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM") \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    fired = [False]

    def stop(_signum: int, _frame: Any) -> None:
        if not fired[0]:
            fired[0] = True
            raise Terminated

    old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


# ---- the per-process cache -------------------------------------------------------------------
_CACHE: dict[Hashable, Any] = {}
_CACHE_LIMIT = 16


def cached(key: Hashable, build: Callable[[], T]) -> T:
    """``build()`` once per process for ``key`` (an opened game, a solver's tables); the last few kept."""
    try:
        return _CACHE[key]
    except KeyError:
        pass
    value = build()
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = value
    return value


# ---- running ---------------------------------------------------------------------------------
def run_tasks(fn: Callable[[Any, T], R], tasks: Sequence[T], context: Any = None, *, ex: Executor = SERIAL,
              progress: Progress | None = None) -> Outcome[R]:
    """Run ``fn(context, task)`` for every task on ``ex``; results in task order (a task must not return None: None
    marks an unfinished task).  Ctrl-C returns what finished (``complete`` False) after stopping every worker; an
    error in a task stops the others and is raised."""
    t0 = time.perf_counter()
    results: list[R | None] = [None] * len(tasks)
    kind = ex.kind if len(tasks) > 1 else "serial"
    if kind == "ray":
        done, complete = _run_ray(fn, tasks, context, ex.ray or "", results, progress)
    elif kind == "pool":
        done, complete = _run_pool(fn, tasks, context, min(ex.size, len(tasks)), results, progress)
    else:
        done, complete = _run_serial(fn, tasks, context, results, progress)
    name = ex.describe() if len(tasks) > 1 else "serial"
    return Outcome(results, done, complete, time.perf_counter() - t0, name)


def _run_serial(fn: Callable[[Any, T], R], tasks: Sequence[T], context: Any, results: list[R | None],
                progress: Progress | None) -> tuple[int, bool]:
    done = 0
    try:
        for i, task in enumerate(tasks):
            results[i] = fn(context, task)
            done += 1
            if progress is not None:
                progress(done, len(tasks))
    except KeyboardInterrupt:
        return done, False
    return done, True


# ---- the local pool: one per process, kept between jobs (workers keep their caches), ended at exit or on Ctrl-C ----
_POOL: list = []  # [(size, pool)] or []


def _pool_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it terminates the pool


def _pool_task(item: tuple[int, Callable[[Any, Any], Any], Any, Any]) -> tuple[int, Any]:
    i, fn, context, task = item
    return i, fn(context, task)


def _mp_context() -> multiprocessing.context.BaseContext:
    """A fresh-process start method: forkserver where there is one (no threads or locks inherited), else spawn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods and sys.platform != "darwin" else "spawn")


def _get_pool(size: int) -> multiprocessing.pool.Pool:
    if _POOL and _POOL[0][0] == size:
        return _POOL[0][1]
    shutdown()
    pool = _mp_context().Pool(size, initializer=_pool_init)
    _POOL.append((size, pool))
    return pool


def shutdown() -> None:
    """End the local pool's worker processes (they are also ended when this process exits)."""
    while _POOL:
        _size, pool = _POOL.pop()
        pool.terminate()
        pool.join()


atexit.register(shutdown)


def _run_pool(fn: Callable[[Any, T], R], tasks: Sequence[T], context: Any, size: int, results: list[R | None],
              progress: Progress | None) -> tuple[int, bool]:
    import multiprocessing

    done = 0
    pool = _get_pool(size)
    workers = list(getattr(pool, "_pool", []))  # a pool worker only ends when the pool does: any other end loses its task
    try:
        it = pool.imap_unordered(_pool_task, [(i, fn, context, t) for i, t in enumerate(tasks)], chunksize=1)
        while done < len(tasks):
            try:
                i, res = it.next(timeout=0.2)
            except multiprocessing.TimeoutError:
                ended = [w for w in workers if w.exitcode is not None]
                if ended:  # the pool would start a new worker and wait for the lost task for ever
                    raise ExecutorError(f"a worker process ended (exit code {ended[0].exitcode}, killed or out of "
                                        f"memory) with {len(tasks) - done} of {len(tasks)} tasks unfinished") from None
                continue
            results[i] = res
            done += 1
            if progress is not None:
                progress(done, len(tasks))
    except KeyboardInterrupt:
        shutdown()
        return done, False
    except BaseException:
        shutdown()
        raise
    return done, True


def _ray_cpus() -> int:
    try:
        import ray  # the optional extra tapology[ray]
    except ImportError:
        return cores()
    if not ray.is_initialized():
        return cores()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ray_available() -> bool:
    """Whether the optional Ray extra is installed."""
    try:
        import ray  # noqa: F401  # the optional extra tapology[ray]
    except ImportError:
        return False
    return True


RAY_CONNECT = 3.0  # seconds a Ray address has to accept a connection before it is refused


def probe_address(address: str, seconds: float = RAY_CONNECT) -> None:
    """:class:`ExecutorError` when nothing accepts a connection at a ``HOST:PORT`` (or ``ray://HOST:PORT``) address
    within ``seconds``: Ray itself would wait minutes.  Other forms (``auto``, ``local``) are left to Ray."""
    hostport = address.removeprefix("ray://")
    host, colon, port = hostport.rpartition(":")
    if not colon or not port.isdigit() or not host:
        return
    import socket

    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
            pass
    except (OSError, ValueError, OverflowError) as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else (getattr(exc, "strerror", None) or str(exc))
        raise ExecutorError(f"--ray-address {address}: nothing answers there ({why} within {seconds:g} s)") from None


def _ray_task(fn: Callable[[Any, Any], Any], context: Any, task: Any) -> Any:
    return fn(context, task)


def _run_ray(fn: Callable[[Any, T], R], tasks: Sequence[T], context: Any, address: str, results: list[R | None],
             progress: Progress | None) -> tuple[int, bool]:
    try:
        import ray  # the optional extra tapology[ray]
    except ImportError:
        raise ExecutorError("--ray: Ray is not installed (pip install 'tapology[ray]')") from None
    if not ray.is_initialized():
        if address:
            probe_address(address)
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:  # Ray's words, first line only
            said = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
            raise ExecutorError(f"--ray {address or '(local)'}: cannot start or reach Ray: {said[:300]}") from None
    remote = ray.remote(_ray_task)
    ctx = ray.put(context)
    index = {remote.remote(fn, ctx, t): i for i, t in enumerate(tasks)}
    pending = list(index)
    done = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.2)
            for ref in ready:
                results[index[ref]] = ray.get(ref)
                done += 1
                if progress is not None:
                    progress(done, len(tasks))
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        return done, False
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return done, True
