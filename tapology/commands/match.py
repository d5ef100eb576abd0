"""CLI command ``match``: two computer players over many games, in parallel (answers in :mod:`tapology.reports.match`)."""

from __future__ import annotations

from typing import Annotated

import typer

from tapology.commands.common import (
    BoardOpt,
    GameArg,
    JsonOpt,
    RayAddressOpt,
    RayOpt,
    TimeoutOpt,
    WorkersOpt,
    emit,
    executor_option,
    note,
    progress_bar,
    stops,
)

PlayerHelp = ("random, perfect, a depth, alphabeta:D, mcts:N or mcts-python:N (its playouts turn by turn, for "
              "comparisons), with @SECONDS for a time limit per move (mcts:5000@2).")


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
        engine: Annotated[str, typer.Option("--engine", help="Which MCTS mcts:N is: auto (ours where the native "
                                                             "engine plays the game's playouts, else OpenSpiel's "
                                                             "MCTSBot when installed), openspiel, own.")] = "auto",
        max_plies: Annotated[int | None, typer.Option("--max-plies", help="Score a game still going after this many "
                                                                          "turns as a draw.")] = None,
        workers: WorkersOpt = None,
        ray: RayOpt = False,
        ray_address: RayAddressOpt = None,
        timeout: TimeoutOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Play A against B: wins, draws and losses for A with 95% confidence intervals, games in parallel."""
        from tapology.reports.match import match_report

        with stops(), progress_bar("games") as update:
            rep = match_report(game, board, a, b, games, seed=seed, swap=swap, engine=engine, max_plies=max_plies,
                               ex=executor_option(workers, ray, ray_address), progress=update, timeout=timeout,
                               plan=note)
        emit(rep, as_json)
