"""CLI command ``compare`` (answers in :mod:`tapology.reports.design`, which also holds the library functions behind
``verify --properties``, ``verify --invariant`` and ``synthesize --game``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from tapology.reports.base import Report

GameArg = Annotated[str, typer.Argument(help="A game: tictactoe, tictactoe:K, tictactoe:M,N,K, checkers, chinese-checkers, "
                                             "tictactopology, chess, or a rule file.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]


def _emit(rep: Report, as_json: bool) -> None:
    """Print a report (JSON or text) and leave with its exit code."""
    typer.echo(json.dumps(rep.to_json(), indent=2, ensure_ascii=False) if as_json else rep.text())
    if rep.exit_code:
        raise typer.Exit(rep.exit_code)


@contextmanager
def _progress(label: str) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar on stderr when it is a terminal; yields the callback ``(stage, done, total)`` or None."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # rich's bar loads only for a terminal
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(_stage: str, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield update


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command()
    def compare(
        game: GameArg,
        boards: Annotated[str, typer.Option("--boards", help="Comma-separated boards (built-in names or files), and "
                                                             "census:N for every closed N-tile board of the game's "
                                                             "chart domain.")],
        playouts: Annotated[int, typer.Option("--playouts", help="Random playouts per board (0: none).")] = 1000,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the random playouts.")] = 0,
        timeout: Annotated[float, typer.Option("--timeout", help="Seconds for the whole comparison.")] = 300.0,
        svg: Annotated[str | None, typer.Option("--svg", help="Write the chart as SVG here.")] = None,
        png: Annotated[str | None, typer.Option("--png", help="Write the chart as PNG here (needs a converter).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """One rule set across surfaces: exact values where solvable, random-playout estimates with 95% intervals."""
        from tapology.reports.design import compare_report

        with _progress("boards") as update:
            rep = compare_report(game, boards, playouts=playouts, seed=seed, timeout=timeout, svg=svg, png=png,
                                 progress=update)
        _emit(rep, as_json)
