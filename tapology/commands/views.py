"""CLI commands for walkers and pictures: ``walk``, ``view`` and ``net`` (answers in :mod:`tapology.reports.views`)."""

from __future__ import annotations

from typing import Annotated

import typer

from tapology.commands.common import BoardArg, DomainOpt, JsonOpt, emit
from tapology.render import MAX_RADIUS  # the drawing modules load when a view is drawn

FromOpt = Annotated[str, typer.Option("--from", help="The tile the walker starts on.")]
FrameOpt = Annotated[int, typer.Option("--frame", help="The walker's frame (an orientation; 0 = the tile's own).")]
OutOpt = Annotated[str | None, typer.Option("-o", "--out", help="Write the picture here (atomically).")]


def register(app: typer.Typer) -> None:
    """Add ``walk``, ``view`` and ``net`` to ``app``."""

    @app.command()
    def walk(
        board: BoardArg,
        start: FromOpt,
        steps: Annotated[str, typer.Option("--steps", help="Comma-separated: up,right,up-left,… (hex: e,ne,…), "
                                                       "turn-left, turn-right, turn-around, mirror.")],
        frame: FrameOpt = 0,
        as_json: JsonOpt = False,
        domain: DomainOpt = None,
    ) -> None:
        """Walk a path of steps read in the walker's frame; report the tiles visited and the final frame.
        Exit 0 when every step was made, 1 when the path runs off the board's edge."""
        from tapology.reports.views import walk_report

        emit(walk_report(board, start, steps, frame, domain), as_json)

    @app.command()
    def view(
        board: BoardArg,
        start: FromOpt,
        frame: FrameOpt = 0,
        radius: Annotated[int, typer.Option("--radius", help=f"How far to unfold (0..{MAX_RADIUS}).")] = 4,
        fmt: Annotated[str | None, typer.Option("--format", help="ascii, svg or png (default: from -o, else ascii).")
                       ] = None,
        out: OutOpt = None,
        opaque: Annotated[str | None, typer.Option("--opaque", help="Field of view: tile states that block sight, "
                                                                    "e.g. 1,2.")] = None,
        as_json: JsonOpt = False,
        domain: DomainOpt = None,
        game: Annotated[str | None, typer.Option("--game", help="Draw this game's position on the cover (its start, "
                                                                "or --position).")] = None,
        position: Annotated[str | None, typer.Option("--position", help="With --game: a position file, a FEN, or a "
                                                                        "game record of play (its last position).")]
        = None,
    ) -> None:
        """Draw the board unfolded around a walker (the universal cover it sees), or its field of view, or a game's
        position on it (--game)."""
        from tapology.reports.views import view_report

        emit(view_report(board, start, frame, radius, fmt, out, opaque, domain, game, position), as_json)

    @app.command()
    def net(
        board: BoardArg,
        fmt: Annotated[str | None, typer.Option("--format", help="ascii or svg (default: from -o, else ascii).")
                       ] = None,
        out: OutOpt = None,
        as_json: JsonOpt = False,
        domain: DomainOpt = None,
    ) -> None:
        """Draw the board's net: tiles laid flat, each taped pair of open sides marked by matching labels."""
        from tapology.reports.views import net_report

        emit(net_report(board, fmt, out, domain), as_json)
