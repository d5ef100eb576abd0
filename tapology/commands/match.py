"""CLI command ``match``: two computer players over many games, in parallel (answers in :mod:`tapology.reports.match`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

GameArg = Annotated[str, typer.Argument(help="A game: tictactoe, tictactoe:K, tictactoe:M,N,K, checkers, chinese-checkers, "
                                             "tictactopology, chess, or a rule file.")]
BoardOpt = Annotated[str | None, typer.Option("--board", help="Board: a built-in name such as torus:3x3, or a file.")]
PlayerHelp = ("random, perfect, a depth, alphabeta:D or mcts:N, with @SECONDS for a time limit per move "
              "(mcts:5000@2).")


@contextmanager
def task_bar(label: str) -> Iterator:
    """A rich progress bar on stderr (when it is a terminal): tasks done of all, elapsed and remaining time."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # rich's bar loads only for a terminal
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def register(app: typer.Typer) -> None:
    """Add ``match`` to ``app``."""

    @app.command()
    def match(
        game: GameArg,
        board: BoardOpt = None,
        a: Annotated[str, typer.Option("--a", help="Player A: " + PlayerHelp)] = "mcts:1000",
        b: Annotated[str, typer.Option("--b", help="Player B: " + PlayerHelp)] = "random",
        games: Annotated[int, typer.Option("--games", help="Games to play.")] = 200,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the players' choices (game i uses seed and i).")] = 0,
        swap: Annotated[bool, typer.Option("--swap/--no-swap", help="A moves first in the even games, B in the odd "
                                                                   "ones (default); --no-swap: A always first.")]
        = True,
        engine: Annotated[str, typer.Option("--engine", help="Which MCTS mcts:N is: auto (OpenSpiel's MCTSBot when "
                                                             "installed), openspiel, own.")] = "auto",
        max_plies: Annotated[int | None, typer.Option("--max-plies", help="Score a game still going after this many "
                                                                          "turns as a draw.")] = None,
        workers: Annotated[int | None, typer.Option("--workers", help="Local worker processes (default: every "
                                                                      "core).")] = None,
        ray: Annotated[bool, typer.Option("--ray", help="Run on Ray: ray.init() starts a local cluster (or joins "
                                                        "the one RAY_ADDRESS names).")] = False,
        ray_address: Annotated[str | None, typer.Option("--ray-address", help="Run on the Ray cluster at this "
                                                                              "address.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
    ) -> None:
        """Play A against B: wins, draws and losses for A with 95% confidence intervals, games in parallel."""
        from tapology.parallel import executor
        from tapology.reports.match import match_report

        with task_bar("games") as update:
            rep = match_report(game, board, a, b, games, seed=seed, swap=swap, engine=engine, max_plies=max_plies,
                               ex=executor(workers, ray_address if ray_address else ray), progress=update)
        typer.echo(json.dumps(rep.to_json(), indent=2, ensure_ascii=False) if as_json else rep.text())
        if rep.exit_code:
            raise typer.Exit(rep.exit_code)
