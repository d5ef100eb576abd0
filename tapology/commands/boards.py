"""CLI commands for boards: ``group``, ``show``, ``check``, ``tape`` (answers in :mod:`tapology.reports.boards`)."""

from __future__ import annotations

from typing import Annotated

import typer

from tapology.commands.common import BoardArg, DomainOpt, JsonOpt, emit

BackendOpt = Annotated[str, typer.Option("--backend", help="Who decides: propagate (default), z3 or csp (small boards).")]
ExplainOpt = Annotated[bool, typer.Option("--explain",
                                          help="On a refusal, list a minimal set of tapings that cannot hold together.")]


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command()
    def group(
        grid: Annotated[str, typer.Argument(help="square, square-rotations, hex or hex-rotations.")],
        as_json: JsonOpt = False,
    ) -> None:
        """Print a grid's orientation group: product table (row a, column b = a then b) and meanings."""
        from tapology.reports.boards import group_report

        emit(group_report(grid), as_json)

    @app.command()
    def show(
        board: BoardArg,
        chart: Annotated[list[str] | None, typer.Option("--chart", help="Show this tile's chart (repeatable).")] = None,
        as_json: JsonOpt = False,
        domain: DomainOpt = None,
    ) -> None:
        """Draw a board and its charts in the seed's ASCII style."""
        from tapology.reports.boards import show_report

        emit(show_report(board, chart or (), domain), as_json)

    @app.command()
    def check(board: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None, backend: BackendOpt = "propagate",
              explain: ExplainOpt = False) -> None:
        """Is the board's atlas consistent?  Exit 0 if so, 1 if not."""
        from tapology.reports.boards import check_report

        emit(check_report(board, domain, backend, explain), as_json)

    @app.command()
    def tape(
        board: BoardArg,
        tapes: Annotated[list[str], typer.Argument(help="T.SIDE=U.SIDE (~ to flip) or T@x,y=U/o.", metavar="TAPE...")],
        out: Annotated[str | None, typer.Option("-o", "--out", help="Write the taped board here if allowed.")] = None,
        as_json: JsonOpt = False,
        show_chart: Annotated[list[str] | None, typer.Option("--chart", help="Show this tile's chart after.")] = None,
        domain: DomainOpt = None,
        backend: BackendOpt = "propagate",
        explain: ExplainOpt = False,
    ) -> None:
        """Tape sides together; allowed iff the closure has no conflict.  Exit 0 allowed, 1 refused."""
        from tapology.reports.boards import tape_report

        emit(tape_report(board, tapes, out, domain, backend, explain, show_chart or ()), as_json)
