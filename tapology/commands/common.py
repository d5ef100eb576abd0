"""What every command module shares: the common arguments and options, printing a report, and progress on stderr.

Progress bars, spinners and notes (the estimate of the work before it starts) are drawn with rich on stderr, only
when it is a terminal (pipes and tests see nothing); each bar helper yields the callback a library function takes.
The executor options (``--workers``, ``--ray``, ``--ray-address``) and ``--timeout`` are defined here once for
every long command.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from tapology.parallel import Executor, TimeUp, check_timeout, executor
from tapology.reports.base import Report

GameArg = Annotated[str, typer.Argument(help="A game: a shipped name (tictactoe, checkers, chess, breakthrough, "
                                             "english-draughts, … — docs/games.md; RBG's names too), tictactoe:K, "
                                             "tictactoe:M,N,K, NAME:MxN (breakthrough:10x10), or a rule file.")]
BoardArg = Annotated[str, typer.Argument(help="A board file (.toml) or a built-in name such as torus:3x3.")]
BoardOpt = Annotated[str | None, typer.Option("--board", help="Board: a built-in name such as torus:3x3, or a file.")]
DomainOpt = Annotated[str | None, typer.Option("--domain", help="Chart domain: box, plus, box:R, ball:R.")]
PosOpt = Annotated[str | None, typer.Option("--position", help="A position file (TOML); for chess also a FEN string "
                                                                "or a file holding one.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="Local worker processes (default: every core for a "
                                                                  "big job, this process for a small one).")]
RayOpt = Annotated[bool, typer.Option("--ray", help="Run the tasks on Ray: ray.init() starts a local cluster (or "
                                                    "joins the one RAY_ADDRESS names); extra tapology[ray].")]
RayAddressOpt = Annotated[str | None, typer.Option("--ray-address", help="Run the tasks on the Ray cluster at this "
                                                                         "address.")]



def executor_option(workers: int | None, ray: bool, ray_address: str | None) -> Executor | None:
    """The executor ``--workers``/``--ray``/``--ray-address`` ask for; None when none is given (the job decides:
    every core when it is big)."""
    if ray_address:
        return executor(workers, ray_address)
    if ray:
        return executor(workers, True)
    if workers is not None:
        return executor(workers)
    return None


def seconds(value: float | None) -> float | None:
    """The value of a ``--timeout``: a positive finite number, or :class:`OptionError` (the library's one check)."""
    return check_timeout(value)


def timeout_option(help_text: str = "Stop after this many seconds.") -> Any:
    """A ``--timeout SECONDS`` option that refuses nan, inf, zero and negative values (shared by every command)."""
    return typer.Option("--timeout", help=help_text, callback=seconds, metavar="SECONDS")


TimeoutOpt = Annotated[float | None, timeout_option("Stop after this many seconds and print what was done, marked "
                                                    "partial.")]


def emit(rep: Report, as_json: bool) -> None:
    """Print a report (JSON or text) and leave with its exit code."""
    typer.echo(json.dumps(rep.to_json(), indent=2, ensure_ascii=False) if as_json else rep.text())
    if rep.exit_code:
        raise typer.Exit(rep.exit_code)


_CONSOLE: list[Any] = []


def _console() -> Any:
    """The one rich console on stderr (notes printed on it stay above a bar drawn on it)."""
    if not _CONSOLE:
        from rich.console import Console  # rich loads only for a terminal

        _CONSOLE.append(Console(stderr=True))
    return _CONSOLE[0]


def note(text: str) -> None:
    """A line on stderr for people (the estimate of the work before it starts), only when stderr is a terminal."""
    if sys.stderr.isatty():
        _console().print(text, markup=False, highlight=False)


@contextmanager
def stops() -> Iterator[None]:
    """Say on stderr why a long command stopped before it had a partial answer to print (a timeout or Ctrl-C
    during its set-up), and leave with exit code 130."""
    try:
        yield
    except TimeUp:
        typer.echo("tapology: timed out before anything was finished", err=True)
        raise typer.Exit(130) from None
    except KeyboardInterrupt:
        typer.echo("tapology: interrupted", err=True)
        raise typer.Exit(130) from None


def _bar(label: str, *columns: Any) -> Any:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # rich loads only for a terminal

    return Progress(TextColumn(label), BarColumn(), *columns, TimeElapsedColumn(), console=_console(),
                    transient=True)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A bar with an estimate of the time left; yields ``update(done, total)`` (None when stderr is no terminal)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import MofNCompleteColumn, TimeRemainingColumn  # rich loads only for a terminal

    with _bar(label, MofNCompleteColumn(), TimeRemainingColumn()) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield update


@contextmanager
def stage_progress(label: str) -> Iterator[Callable[[str, int, int], None] | None]:
    """One bar per stage; yields ``update(stage, done, total)`` (None when stderr is no terminal).  A stage written
    ``name: detail`` keeps one bar per name and shows the latest detail."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import MofNCompleteColumn, TimeRemainingColumn  # rich loads only for a terminal

    with _bar(label + " {task.description}", MofNCompleteColumn(), TimeRemainingColumn()) as bar:
        tasks: dict[str, Any] = {}

        def update(stage: str, done: int, total: int) -> None:
            key = stage.split(":", 1)[0]
            if key not in tasks:
                tasks[key] = bar.add_task(stage, total=total or None)
            bar.update(tasks[key], description=stage, completed=done, total=total or None)

        yield update


@contextmanager
def search_progress(label: str) -> Iterator[tuple[Callable[[int, int], None] | None, Callable[[int, int], None] | None]]:
    """One line for a search that runs here or as tasks: yields ``(nodes(nodes, found), tasks(done, total))``, the
    first a spinner's count, the second a bar of tasks done (both None when stderr is no terminal)."""
    if not sys.stderr.isatty():
        yield None, None
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn  # for a terminal

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  console=_console(), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def nodes(n: int, found: int) -> None:
            bar.update(task, description=f"{label}: {n} nodes, {found} boards")

        def tasks(done: int, total: int) -> None:
            bar.update(task, description=f"{label}: {done} of {total} tasks", completed=done, total=total or None)

        yield nodes, tasks


@contextmanager
def thinking(who: str) -> Iterator[None]:
    """A spinner with the time taken while a computer player chooses its move (only when stderr is a terminal)."""
    if not sys.stderr.isatty():
        yield None
        return
    with _console().status(f"{who} is thinking…", spinner="dots"):
        yield None
