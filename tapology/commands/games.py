"""CLI commands for rule sets: ``moves``, ``perft``, ``rules``, ``fen`` (answers in :mod:`tapology.reports.games`)."""

from __future__ import annotations

from typing import Annotated

import typer

from tapology.commands.common import (
    BoardOpt,
    GameArg,
    JsonOpt,
    PosOpt,
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


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command()
    def moves(
        game: GameArg,
        board: BoardOpt = None,
        position: PosOpt = None,
        backend: Annotated[str, typer.Option("--backend", help="propagate, z3 or csp.")] = "propagate",
        with_fen: Annotated[bool, typer.Option("--fen", help="Chess: the FEN after each turn.")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """List the legal turns of a position (the start position unless --position)."""
        from tapology.reports.games import moves_report

        emit(moves_report(game, board, position, backend, with_fen), as_json)

    @app.command()
    def perft(
        game: GameArg,
        depth: Annotated[int, typer.Option("--depth", help="Plies to count down to (≥ 0).")],
        board: BoardOpt = None,
        position: PosOpt = None,
        by_first: Annotated[bool, typer.Option("--divide", help="The count below each first turn, as chess engines "
                                                                 "print it.")] = False,
        no_bulk: Annotated[bool, typer.Option("--no-bulk", help="Make every leaf turn rather than counting the "
                                                               "last ply (the same count; for speed comparisons).")] = False,
        workers: WorkersOpt = None,
        ray: RayOpt = False,
        ray_address: RayAddressOpt = None,
        timeout: TimeoutOpt = None,
        rbg: Annotated[bool, typer.Option("--rbg", help="Count each turn once per way of playing it (a multi-jump "
                                                        "once per order of its jumps), as Regular Boardgames counts; "
                                                        "docs/games.md.")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """Count the leaf turns at a depth (a finished game has no children; optional draw rules left out), split
        into tasks by first turns on every core when the count is big."""
        from tapology.reports.games import perft_report

        with stops(), progress_bar(f"perft {depth} tasks") as update:
            rep = perft_report(game, depth, board, position, by_first_turn=by_first, progress=update,
                               ex=executor_option(workers, ray, ray_address), timeout=timeout, plan=note,
                               bulk=not no_bulk, rbg=rbg)
        emit(rep, as_json)

    @app.command()
    def playouts(
        game: GameArg,
        board: BoardOpt = None,
        position: PosOpt = None,
        seconds: Annotated[float | None, typer.Option("--seconds", help="Play for this long (whole games).")] = None,
        count: Annotated[int | None, typer.Option("--count", help="Play this many games.")] = None,
        seed: Annotated[int, typer.Option("--seed", help="The random stream: the same seed plays the same "
                                                         "games.")] = 0,
        max_plies: Annotated[int, typer.Option("--max-plies", help="Stop a game that has not ended after this "
                                                                   "many plies.")] = 1000,
        as_json: JsonOpt = False,
    ) -> None:
        """Play random games to their end (optional end rules left out) and say how many per second."""
        from tapology.reports.games import playouts_report

        emit(playouts_report(game, board, position, seconds=seconds, count=count, seed=seed, max_plies=max_plies),
             as_json)

    @app.command()
    def rules(game: GameArg, as_json: JsonOpt = False) -> None:
        """Print a rule set with its moves and its derived chart domain."""
        from tapology.reports.games import rules_report

        emit(rules_report(game), as_json)

    @app.command()
    def fen(
        source: Annotated[str | None, typer.Argument(help="A FEN string, a FEN file or a position file (default: "
                                                           "the start position).")] = None,
        game: Annotated[str, typer.Option("--game", help="A game with chess notation.")] = "chess",
        board: BoardOpt = None,
        as_json: JsonOpt = False,
        to_position: Annotated[bool, typer.Option("--to-position", help="Print the position file instead of the "
                                                                         "FEN.")] = False,
    ) -> None:
        """Convert between FEN and the position file format (chess and other games with chess notation)."""
        from tapology.reports.games import fen_report

        rep = fen_report(game, source, board)
        if to_position and not as_json:
            typer.echo(rep.position, nl=False)
            return
        emit(rep, as_json)
