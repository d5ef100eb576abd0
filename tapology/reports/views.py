"""Reports of the walker and picture commands: ``walk``, ``view``, ``net``.

Every input is checked before anything is written; ``out`` is written atomically (a temporary file, then
renamed), PNG through a converter (see :mod:`tapology.render.svg`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tapology.errors import RenderError, TapologyError, ViewError
from tapology.files import read_text
from tapology.game import Position
from tapology.games.registry import open_game, open_position
from tapology.model.atlas import Atlas
from tapology.model.walker import Path as WalkPath
from tapology.model.walker import parse_moves, start_walker, walk_path
from tapology.play.playing.session import GameRecord, replay
from tapology.play.playing.transcript import state_names
from tapology.render.fov import field_of_view, opaque_states
from tapology.render.net import board_net, net_ascii, net_svg
from tapology.render.position import position_drawing
from tapology.render.svg import check_target, svg_to_png, view_svg, write_text_atomic
from tapology.render.unfold import MAX_RADIUS, draw_view, unfold
from tapology.reports.base import Report
from tapology.reports.boards import consistent_board
from tapology.rules.engine import RuleGame

FORMATS = ("ascii", "svg", "png")
OTHER_PICTURES = ("jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "pdf", "eps", "ps", "ico", "avif", "heic")


# ---- walk ----------------------------------------------------------------------------------------
@dataclass
class WalkReport(Report):
    """A walk: the tiles visited, the final tile and frame, and where it ran off the board."""

    path: WalkPath
    atlas: Atlas

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.path.blocked is None else 1

    def to_json(self) -> dict[str, Any]:
        return self.path.to_json(self.atlas)

    def text(self) -> str:
        rep = self.to_json()
        lines = [" -> ".join(rep["path"]),
                 f"on tile {rep['tile']}, frame {rep['frame']}" + (" (mirrored)" if rep["mirrored"] else "")]
        if rep["blocked"]:
            lines.append(f"stopped: step {rep['blocked']['move']} ({rep['blocked']['step']}) leaves the board")
        return "\n".join(lines)


def walk_report(spec: str, start: str, steps: str, frame: int = 0, domain: str | None = None) -> WalkReport:
    """Walk ``steps`` (comma-separated names) from tile ``start`` in ``frame``."""
    board, at = consistent_board(spec, domain)
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
    return WalkReport(walk_path(at, walker, moves), at)


# ---- view and net --------------------------------------------------------------------------------
@dataclass
class PictureReport(Report):
    """A picture (ascii or svg text) and its JSON; ``written``: where the picture went instead of the screen."""

    picture: str
    data: dict[str, Any]
    written: str | None = None

    def to_json(self) -> dict[str, Any]:
        return self.data if self.written is None else {**self.data, "written": self.written}

    def text(self) -> str:
        return f"written to {self.written}" if self.written else self.picture.rstrip("\n")


def picture_format(fmt: str | None, out: str | None) -> str:
    """The format asked for, or the one ``out``'s suffix names (ascii when it names none); :class:`RenderError`
    for other pictures."""
    if fmt is None:
        suffix = Path(out).suffix.lower().lstrip(".") if out else ""
        if suffix in OTHER_PICTURES:
            raise RenderError(f"-o {out}: cannot draw .{suffix} pictures (use .svg or .png, or --format ascii)")
        fmt = suffix if suffix in ("svg", "png") else "ascii"
    if fmt not in FORMATS:
        raise RenderError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
    suffix = Path(out).suffix.lower().lstrip(".") if out else ""
    if suffix in ("svg", "png", *OTHER_PICTURES) and suffix != fmt:
        raise RenderError(f"-o {out}: a .{suffix} file cannot hold a {fmt} picture (--format {fmt}; "
                          f"name the file .{'txt' if fmt == 'ascii' else fmt} or drop --format)")
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


def _deliver(picture: str, data: dict[str, Any], out: str | None, png: bool = False) -> PictureReport:
    """Write the picture to ``out`` (atomically; PNG through a converter) if given."""
    if out:
        if png:
            svg_to_png(picture, out)
        else:
            write_text_atomic(picture, out)
    return PictureReport(picture, data, out or None)


def view_report(spec: str, start: str, frame: int = 0, radius: int = 4, fmt: str | None = None, out: str | None = None,
                opaque: str | None = None, domain: str | None = None, game: str | None = None,
                position: str | None = None) -> PictureReport:
    """The board unfolded around a walker (or, with ``opaque`` states, its field of view) as ascii, svg or png;
    checks everything, the output path included, before drawing and writing ``out``.  With ``game``: that game's
    position on the cover (its start, or ``position``: a position file, a FEN, or a game record of ``play``)."""
    if position is not None and game is None:
        raise ViewError("--position goes with --game")
    if game is not None and (opaque is not None or domain is not None):
        raise ViewError("--game draws a position: give it without --opaque and --domain")
    fmt = picture_format(fmt, out)
    if fmt == "png" and not out:
        raise RenderError("--format png needs -o FILE.png")
    if not 0 <= radius <= MAX_RADIUS:
        raise ViewError(f"--radius {radius}: must be 0..{MAX_RADIUS}")
    if out:
        check_target(Path(out))
    if game is not None:
        return _game_view(spec, start, frame, radius, fmt, out, game, position)
    walls = _parse_states(opaque)
    board, at = consistent_board(spec, domain)
    walker = start_walker(at, start, frame)
    if walls is None:
        view = unfold(at, walker, radius)
    else:
        view = field_of_view(at, walker, radius, opaque_states(board, walls))
    picture = view_svg(view, board) if fmt in ("svg", "png") else draw_view(view, board)
    return _deliver(picture, view.to_json(board), out, png=fmt == "png")


def net_report(spec: str, fmt: str | None = None, out: str | None = None, domain: str | None = None) -> PictureReport:
    """The board's net (tiles laid flat, taped pairs of open sides labelled alike) as ascii, svg or png."""
    fmt = picture_format(fmt, out)
    if fmt == "png" and not out:
        raise RenderError("--format png needs -o FILE.png")
    if out:
        check_target(Path(out))
    board, _at = consistent_board(spec, domain)
    net = board_net(board)
    picture = net_svg(board, net) if fmt in ("svg", "png") else net_ascii(board, net)
    return _deliver(picture, net.to_json(board), out, png=fmt == "png")


def _game_position(spec: str, game: str, position: str | None) -> tuple[RuleGame, Position]:
    """The game on board ``spec`` at ``position`` (a game record's last position, or what open_position reads)."""
    if position is not None and Path(position).is_file():
        text = read_text(position, "position file or game record", ViewError)
        if '"tapology-game/1"' in text[:400]:
            rec = GameRecord.from_text(text, position)
            g = open_game(game, spec)
            if rec.game != game or rec.board != g.board_name:
                raise ViewError(f"--position {position}: a record of {rec.game} on {rec.board}, not {game} on {spec}")
            return g, replay(g, rec.turns, position)[-1]
    return open_position(game, spec, position)


def _game_view(spec: str, start: str, frame: int, radius: int, fmt: str, out: str | None, game: str,
               position: str | None) -> PictureReport:
    """A game position unfolded around tile ``start`` (a tile id, or a square name in chess); the format, radius
    and output already checked by :func:`view_report`."""
    g, pos = _game_position(spec, game, position)
    board = pos.board
    at = Atlas.of(board)
    drawing = position_drawing(g, pos)
    if start not in board.tiles and start in drawing.labels:
        start = board.tiles[drawing.labels.index(start)]
    walker = start_walker(at, start, frame)
    view = unfold(at, walker, radius)
    data = view.to_json(board)
    data["game"] = g.name
    data["to_move"] = g.players[pos.to_move]
    if fmt == "ascii":
        names = {k: v for k, v in state_names(g).items() if k != 0}
        return _deliver(draw_view(view, board, names), data, out)
    title = f"{g.name} on {g.board_name}, {g.players[pos.to_move]} to move: the cover around {drawing.labels[walker.tile]}"
    picture = view_svg(view, board, pieces=drawing.pieces, fills=drawing.fills, labels=drawing.labels, title=title)
    return _deliver(picture, data, out, png=fmt == "png")
