"""CLI command ``compare`` (answers in :mod:`tapology.reports.design`, which also holds the library functions behind
``verify --properties``, ``verify --invariant`` and ``synthesize --game``)."""

from __future__ import annotations

from typing import Annotated

import typer

from tapology.commands.common import GameArg, JsonOpt, emit, note, stage_progress, timeout_option


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
        timeout: Annotated[float, timeout_option("Seconds for the whole comparison.")] = 300.0,
        svg: Annotated[str | None, typer.Option("--svg", help="Write the chart as SVG here.")] = None,
        png: Annotated[str | None, typer.Option("--png", help="Write the chart as PNG here.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """One rule set across surfaces: exact values where solvable, random-playout estimates with 95% intervals."""
        from tapology.reports.design import compare_report

        with stage_progress("boards") as update:
            rep = compare_report(game, boards, playouts=playouts, seed=seed, timeout=timeout, svg=svg, png=png,
                                 progress=update, plan=note)
        emit(rep, as_json)
