"""What every command module shares: the common arguments and options, printing a report, and progress on stderr.

Progress bars are drawn with rich on stderr, only when it is a terminal (pipes and tests see nothing); each
helper yields the callback a library function takes.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from tapology.errors import OptionError
from tapology.reports.base import Report

GameArg = Annotated[str, typer.Argument(help="A game: tictactoe, tictactoe:K, tictactoe:M,N,K, checkers, chinese-checkers, "
                                             "tictactopology, chess, or a rule file.")]
BoardArg = Annotated[str, typer.Argument(help="A board file (.toml) or a built-in name such as torus:3x3.")]
BoardOpt = Annotated[str | None, typer.Option("--board", help="Board: a built-in name such as torus:3x3, or a file.")]
DomainOpt = Annotated[str | None, typer.Option("--domain", help="Chart domain: box, plus, box:R, ball:R.")]
PosOpt = Annotated[str | None, typer.Option("--position", help="A position file (TOML); for chess also a FEN string "
                                                                "or a file holding one.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]


def seconds(value: float | None) -> float | None:
    """The value of a ``--timeout`` (any option in seconds): a positive finite number, or :class:`OptionError`."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise OptionError(f"--timeout {value}: give a positive, finite number of seconds")
    return value


def timeout_option(help_text: str = "Stop after this many seconds.") -> Any:
    """A ``--timeout SECONDS`` option that refuses nan, inf, zero and negative values (shared by every command)."""
    return typer.Option("--timeout", help=help_text, callback=seconds, metavar="SECONDS")


def emit(rep: Report, as_json: bool) -> None:
    """Print a report (JSON or text) and leave with its exit code."""
    typer.echo(json.dumps(rep.to_json(), indent=2, ensure_ascii=False) if as_json else rep.text())
    if rep.exit_code:
        raise typer.Exit(rep.exit_code)


def _bar(label: str, *columns: Any) -> Any:
    from rich.console import Console  # rich's bar loads only for a terminal
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn(label), BarColumn(), *columns, TimeElapsedColumn(), console=Console(stderr=True),
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
    """One bar per stage; yields ``update(stage, done, total)`` (None when stderr is no terminal)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import TextColumn  # rich loads only for a terminal

    with _bar(label + " {task.description}", TextColumn("{task.completed}/{task.total}")) as bar:
        tasks: dict[str, Any] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total or None)
            bar.update(tasks[stage], completed=done, total=total or None)

        yield update


@contextmanager
def spinner(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A spinner saying how many nodes were searched and boards found; yields ``update(nodes, found)``."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # rich loads only for a terminal
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("[progress.description]{task.description}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(nodes: int, found: int) -> None:
            bar.update(task, description=f"{label}: {nodes} nodes, {found} boards")

        yield update
