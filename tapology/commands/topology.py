"""CLI commands for topology, isomorphism and synthesis: ``classify``, ``signature``, ``same``, ``synthesize``
(answers in :mod:`tapology.reports.topology`)."""

from __future__ import annotations

from typing import Annotated

import typer

from tapology.commands.common import (
    BoardArg,
    DomainOpt,
    JsonOpt,
    RayAddressOpt,
    RayOpt,
    WorkersOpt,
    emit,
    executor_option,
    note,
    search_progress,
    stage_progress,
    timeout_option,
)


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command("classify")
    def classify_cmd(board: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None) -> None:
        """Name a board's surface: Euler characteristic, orientability, boundary, genus, orbifold points."""
        from tapology.reports.topology import classify_report

        emit(classify_report(board, domain), as_json)

    @app.command("signature")
    def signature_cmd(board: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None) -> None:
        """Print a board's canonical signature (equal exactly for isomorphic boards)."""
        from tapology.reports.topology import signature_report

        emit(signature_report(board, domain), as_json)

    @app.command("same")
    def same_cmd(a: BoardArg, b: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None) -> None:
        """Are two boards isomorphic (relabel tiles, re-orient each tile)?  Exit 0 if so, 1 if not."""
        from tapology.reports.topology import same_report

        emit(same_report(a, b, domain), as_json)

    @app.command("synthesize")
    def synthesize_cmd(
        tiles: Annotated[int | None, typer.Option("--tiles", help="Number of tiles.")] = None,
        grid: Annotated[str, typer.Option("--grid", help="square or hex (or their -rotations forms).")] = "square",
        domain: Annotated[str | None, typer.Option("--domain", help="box, plus, box:R, ball:R, or a board FILE.")] = None,
        closed: Annotated[bool, typer.Option("--closed", help="No boundary.")] = False,
        boundary: Annotated[int | None, typer.Option("--boundary", help="Exactly B boundary circles.")] = None,
        orientable: Annotated[bool | None, typer.Option("--orientable/--non-orientable", help="(Non-)orientable.")] = None,
        euler: Annotated[int | None, typer.Option("--euler", help="Euler characteristic.")] = None,
        manifold: Annotated[bool, typer.Option("--manifold", help="Exclude orbifolds (self-taped sides, cones).")] = False,
        base: Annotated[str | None, typer.Option("--from", help="Complete this board by taping its open sides.")] = None,
        count: Annotated[bool, typer.Option("--count", help="Print only how many.")] = False,
        limit: Annotated[int | None, typer.Option("--limit", help="Stop after K boards.")] = None,
        as_json: JsonOpt = False,
        out: Annotated[str | None, typer.Option("-o", "--out", help="Write each board found as DIR/board-NNN.toml.")] = None,
        timeout: Annotated[float | None, timeout_option()] = None,
        engine: Annotated[str, typer.Option("--engine", help="enumerate (default) or z3.")] = "auto",
        game: Annotated[str | None, typer.Option("--game", help="Keep the boards on which this game has --value.")]
        = None,
        value: Annotated[str | None, typer.Option("--value", help="With --game: draw, first or second (who wins with "
                                                                  "best play).")] = None,
        plies: Annotated[int | None, typer.Option("--plies", help="With --game: the forced result comes within N "
                                                                  "plies.")] = None,
        workers: WorkersOpt = None,
        ray: RayOpt = False,
        ray_address: RayAddressOpt = None,
    ) -> None:
        """Find boards with required properties, each new up to isomorphism; with --game, those on which the game
        has a value."""
        from tapology.errors import OptionError
        from tapology.reports.design import value_boards_report
        from tapology.reports.topology import synthesis_request, synthesize_report

        if (game is None) != (value is None) or (plies is not None and game is None):
            raise OptionError("synthesize: --game and --value go together (and --plies with them)")
        if game is not None and value is not None:
            req = synthesis_request(tiles, grid, domain, closed, boundary, orientable, euler, manifold, base)
            with stage_progress("boards") as update:
                emit(value_boards_report(game, req, value, plies=plies, limit=limit, timeout=timeout or 300.0,
                                         out_dir=out, progress=update), as_json)
            return
        with search_progress("searching") as (progress, task_progress):
            rep = synthesize_report(tiles, grid, domain, closed, boundary, orientable, euler, manifold, base,
                                    count=count, limit=limit, timeout=timeout, engine=engine, out=out,
                                    progress=progress, ex=executor_option(workers, ray, ray_address),
                                    task_progress=task_progress, plan=note)
        if rep.warning:
            typer.echo(rep.warning, err=True)
        emit(rep, as_json)
