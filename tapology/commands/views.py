"""CLI commands for walkers and pictures: ``walk``, ``view`` and ``net`` (registered by ``register``).

The report functions (``walk_report``, ``view_picture``, ``net_picture``) check every input
before anything is written; ``-o FILE`` writes atomically (temporary file, then rename).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from tapology.errors import BoardError, RenderError, TapologyError, ViewError
from tapology.model.board import Board
from tapology.model.walker import Path as WalkPath
from tapology.model.walker import parse_moves, start_walker, walk_path
from tapology.render.fov import field_of_view, opaque_states
from tapology.render.net import board_net, net_ascii, net_svg
from tapology.render.svg import check_target, png_converter, svg_to_png, view_svg, write_text_atomic
from tapology.render.unfold import MAX_RADIUS, View, draw_view, unfold

FORMATS = ("ascii", "svg", "png")
OTHER_PICTURES = ("jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "pdf", "eps", "ps", "ico", "avif", "heic")


def open_atlas(spec: str, domain: str | None = None):  # -> tuple[Board, Atlas]
    """Load and close a board; a board whose tapings conflict is refused as input (names the conflict)."""
    from tapology.reports.boards import open_board

    src, at = open_board(spec, domain)
    if at.conflict is not None:
        first = at.conflict.describe(src.board).split("\n")[0]
        raise BoardError(f"{spec}: the board is inconsistent ({first})")
    return at.board(), at


def walk_report(spec: str, start: str, steps: str, frame: int = 0, domain: str | None = None,
                ) -> tuple[dict[str, Any], WalkPath, Board]:
    """Walk ``steps`` (comma-separated names) from tile ``start`` in ``frame``; the JSON report and the path."""
    board, at = open_atlas(spec, domain)
    walker = start_walker(at, start, frame)
    moves = parse_moves(board.grid, steps)
    if not moves:
        raise TapologyError(f"--steps {steps!r}: give at least one step, e.g. up,up,right")
    for m in moves:
        if m.vector is not None:
            for f in range(at.order):
                cell = board.grid.group.act(f, m.vector)
                if cell not in at.domain.index:
                    raise TapologyError(f"--steps: step {m.name!r} needs cell {cell} in the chart domain "
                                        f"{at.domain.name!r} (use --domain box)")
    path = walk_path(at, walker, moves)
    return path.to_json(at), path, board


def _format_of(fmt: str | None, out: str | None) -> str:
    if fmt is None:
        suffix = Path(out).suffix.lower().lstrip(".") if out else ""
        if suffix in OTHER_PICTURES:
            raise RenderError(f"-o {out}: cannot draw .{suffix} pictures (use .svg or .png, or --format ascii)")
        fmt = suffix if suffix in ("svg", "png") else "ascii"
    if fmt not in FORMATS:
        raise RenderError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
    return fmt


def _parse_states(text: str | None) -> set[int] | None:
    if text is None:
        return None
    out = set()
    for k, item in enumerate(s.strip() for s in text.split(",")):
        if not item:
            continue
        if not item.isdigit():
            raise RenderError(f"--opaque item {k + 1} {item!r}: expected a tile state (a whole number)")
        out.add(int(item))
    return out


def view_picture(spec: str, start: str, frame: int = 0, radius: int = 4, fmt: str | None = None,
                 out: str | None = None, opaque: str | None = None, domain: str | None = None,
                 ) -> tuple[str, View, Board]:
    """The unfolded view (or, with ``opaque`` states, the field of view) as ascii or svg text; checks
    everything, including the output path and a PNG converter, before returning."""
    fmt = _format_of(fmt, out)
    if fmt == "png" and not out:
        raise RenderError("--format png needs -o FILE.png")
    if not 0 <= radius <= MAX_RADIUS:
        raise ViewError(f"--radius {radius}: must be 0..{MAX_RADIUS}")
    if out:
        check_target(Path(out))
    if fmt == "png" and png_converter() is None:
        from tapology.render.svg import NO_CONVERTER

        raise RenderError(f"{out}: {NO_CONVERTER}")
    walls = _parse_states(opaque)
    board, at = open_atlas(spec, domain)
    walker = start_walker(at, start, frame)
    if walls is None:
        view = unfold(at, walker, radius)
        text = view_svg(view, board) if fmt in ("svg", "png") else draw_view(view, board)
    else:
        view = field_of_view(at, walker, radius, opaque_states(board, walls))
        text = view_svg(view, board) if fmt in ("svg", "png") else draw_view(view, board)
    return text, view, board


def net_picture(spec: str, fmt: str | None = None, out: str | None = None, domain: str | None = None,
                ) -> tuple[str, dict[str, Any]]:
    """The net of a board as ascii or svg text, and its JSON."""
    fmt = _format_of(fmt, out)
    if fmt == "png":
        raise RenderError("--format png: the net is drawn as ascii or svg (convert the svg yourself)")
    if out:
        check_target(Path(out))
    board, _at = open_atlas(spec, domain)
    net = board_net(board)
    text = net_svg(board, net) if fmt == "svg" else net_ascii(board, net)
    return text, net.to_json(board)


BoardArg = Annotated[str, typer.Argument(help="A board file (.toml) or a built-in name such as klein:3x3.")]
FromOpt = Annotated[str, typer.Option("--from", help="The tile the walker starts on.")]
FrameOpt = Annotated[int, typer.Option("--frame", help="The walker's frame (an orientation; 0 = the tile's own).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]
DomainOpt = Annotated[str | None, typer.Option("--domain", help="Chart domain: box, plus, box:R, ball:R.")]
OutOpt = Annotated[str | None, typer.Option("-o", "--out", help="Write the picture here (atomically).")]


def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _deliver(text: str, rep: dict, out: str | None, as_json: bool, png: bool = False) -> None:
    """Write the picture to ``out`` (atomically; PNG through a converter) or print it; JSON report if asked."""
    if out:
        if png:
            svg_to_png(text, out)
        else:
            write_text_atomic(text, out)
    if as_json:
        if out:
            rep["written"] = out
        _emit(rep)
    elif out:
        typer.echo(f"written to {out}")
    else:
        typer.echo(text.rstrip("\n"))


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
        rep, _path, _b = walk_report(board, start, steps, frame, domain)
        if as_json:
            _emit(rep)
        else:
            typer.echo(" -> ".join(rep["path"]))
            mirrored = " (mirrored)" if rep["mirrored"] else ""
            typer.echo(f"on tile {rep['tile']}, frame {rep['frame']}{mirrored}")
            if rep["blocked"]:
                typer.echo(f"stopped: step {rep['blocked']['move']} ({rep['blocked']['step']}) leaves the board")
        raise typer.Exit(1 if rep["blocked"] else 0)

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
    ) -> None:
        """Draw the board unfolded around a walker (the universal cover it sees), or its field of view."""
        text, v, b = view_picture(board, start, frame, radius, fmt, out, opaque, domain)
        _deliver(text, v.to_json(b), out, as_json, png=_format_of(fmt, out) == "png")

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
        text, rep = net_picture(board, fmt, out, domain)
        _deliver(text, rep, out, as_json)
