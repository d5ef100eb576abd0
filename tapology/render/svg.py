"""SVG and PNG pictures of views and nets.

Tiles are polygons coloured by tile id (a fixed colour per id), each with its id and two
orientation arrows: the long one is the tile's own first direction (``up`` on squares,
``e`` on hexes), the short one its second (``right``, ``ne``), so a mirrored tile shows the
short arrow on the other side, as in the seed's ``^ >`` marks.  Non-zero tile states are
drawn as round tokens labelled with the state's name; the board's edge is a thick line; the
walker is a red ring with an arrow for its ``up``.

PNG: :func:`svg_to_png` rasterises the SVG in-process with resvg (the ``resvg-py`` wheel, a
dependency of the core install that bundles its renderer: no external program, no system
library).
"""

from __future__ import annotations

import colorsys
import math
import os
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tapology import files
from tapology.errors import RenderError
from tapology.model.board import Board
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.render.unfold import View, state_label

SQRT3_2 = math.sqrt(3) / 2
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"



# ---- geometry ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Geometry:
    """Plane geometry of a grid's cells: centres and corners in picture units (y down)."""

    grid: ReferenceGrid
    scale: float

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Picture coordinates of a grid vector (x, y) (axial on hexes)."""
        s = self.scale
        if self.grid.is_hex:
            return (s * (x + y / 2), -s * SQRT3_2 * y)
        return (s * x, -s * y)

    def corner(self, d: int, e: int) -> tuple[float, float]:
        """The corner between adjacent directions d and e, relative to a cell's centre (grid units)."""
        dirs = self.grid.directions
        k = 3.0 if self.grid.is_hex else 2.0
        return ((dirs[d][0] + dirs[e][0]) / k, (dirs[d][1] + dirs[e][1]) / k)

    def side_corners(self, d: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of side d (grid units, relative to the centre), counter-clockwise around the cell."""
        n = len(self.grid.directions)
        a = self.corner(d, (d - 1) % n)
        b = self.corner(d, (d + 1) % n)
        # counter-clockwise in the grid's own (y up) picture: cross(a, b) > 0
        pa, pb = self.point(*a), self.point(*b)
        cross = pa[0] * pb[1] - pa[1] * pb[0]  # y down in pictures: counter-clockwise has cross < 0
        return (a, b) if cross < 0 else (b, a)

    def polygon(self, cx: float, cy: float) -> list[tuple[float, float]]:
        """Corners of the cell centred at picture point (cx, cy), in order."""
        n = len(self.grid.directions)
        out = []
        for d in range(n):
            px, py = self.point(*self.corner(d, (d + 1) % n))
            out.append((cx + px, cy + py))
        return out


def act_point(grid: ReferenceGrid, g: int, p: tuple[float, float]) -> tuple[float, float]:
    """Orientation g applied to a (fractional) grid vector: the group acts linearly."""
    e1 = grid.group.act(g, (1, 0))
    e2 = grid.group.act(g, (0, 1))
    return (e1[0] * p[0] + e2[0] * p[1], e1[1] * p[0] + e2[1] * p[1])


# ---- colours ------------------------------------------------------------------------------
def tile_colour(tid: str) -> str:
    """A light colour fixed by the tile id (hue from a checksum of the id)."""
    hue = (zlib.crc32(tid.encode()) * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.80, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def state_colour(state: int) -> str:
    """A strong colour per tile state."""
    hue = (state * 0.381966011250105 + 0.05) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.40, 0.70)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _f(x: float) -> str:
    r = round(x, 2)
    return str(int(r)) if r == int(r) else str(r)


def _pts(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


class Canvas:
    """An SVG document under construction (xml.etree, so the output is well-formed XML)."""

    def __init__(self, title: str) -> None:
        self.root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1"})
        ET.SubElement(self.root, "title").text = title
        self.xs: list[float] = []
        self.ys: list[float] = []
        self.layers = {k: ET.SubElement(self.root, "g", {"class": k})
                       for k in ("tiles", "marks", "edges", "tokens", "labels", "walker")}

    def _grow(self, points: Sequence[tuple[float, float]]) -> None:
        for x, y in points:
            self.xs.append(x)
            self.ys.append(y)

    def add(self, layer: str, tag: str, attrs: Mapping[str, str], text: str | None = None,
            extent: Sequence[tuple[float, float]] = ()) -> ET.Element:
        el = ET.SubElement(self.layers[layer], tag, dict(attrs))
        if text is not None:
            el.text = text
        self._grow(extent)
        return el

    def polygon(self, layer: str, points: Sequence[tuple[float, float]], **attrs: str) -> None:
        self.add(layer, "polygon", {"points": _pts(points), **attrs}, extent=points)

    def line(self, layer: str, a: tuple[float, float], b: tuple[float, float], **attrs: str) -> None:
        self.add(layer, "line", {"x1": _f(a[0]), "y1": _f(a[1]), "x2": _f(b[0]), "y2": _f(b[1]), **attrs}, extent=(a, b))

    def text(self, layer: str, x: float, y: float, s: str, size: float, **attrs: str) -> None:
        base = {"x": _f(x), "y": _f(y), "font-size": _f(size), "font-family": "sans-serif",
                "text-anchor": "middle", "dominant-baseline": "central"}
        self.add(layer, "text", {**base, **attrs}, s)

    def arrow(self, layer: str, a: tuple[float, float], b: tuple[float, float], width: float, colour: str,
              head: float) -> None:
        """A line a→b with a triangular head at b."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        base = (b[0] - ux * head, b[1] - uy * head)
        left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
        right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
        self.line(layer, a, base, stroke=colour, **{"stroke-width": _f(width), "stroke-linecap": "round"})
        self.polygon(layer, [b, left, right], fill=colour)

    def tostring(self, margin: float) -> str:
        xs, ys = self.xs or [0.0], self.ys or [0.0]
        x0, y0 = min(xs) - margin, min(ys) - margin
        w, h = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
        self.root.set("viewBox", f"{_f(x0)} {_f(y0)} {_f(w)} {_f(h)}")
        self.root.set("width", _f(w))
        self.root.set("height", _f(h))
        ET.indent(self.root, space=" ")
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(self.root, encoding="unicode") + "\n"


@dataclass(frozen=True)
class Piece:
    """A piece drawn on a tile: its glyph (a chess piece's Unicode sign, say), fill and outline colours (no outline
    when empty), its frame in the tile (an orientation: the glyph is drawn turned, and mirrored, as the frame says),
    and a glyph drawn under it in ``back_fill`` (a white chess piece: the filled sign in white under the outlined
    one)."""

    glyph: str
    fill: str
    outline: str = ""
    frame: int = 0
    back: str = ""
    back_fill: str = "#ffffff"
    size: float = 1.0  # the glyph's size relative to the back's


def glyph_matrix(geo: Geometry, g: int) -> tuple[float, float, float, float]:
    """The picture-space linear map (SVG ``matrix(a b c d 0 0)``) of orientation ``g``: the grid's action carried
    into the picture (y down, hex axes slanted)."""
    p1 = geo.point(1.0, 0.0)
    p2 = geo.point(0.0, 1.0)
    det = p1[0] * p2[1] - p2[0] * p1[1]
    out = []
    for e in ((1.0, 0.0), (0.0, 1.0)):  # picture unit vector -> grid vector -> acted -> picture
        gx = (e[0] * p2[1] - e[1] * p2[0]) / det
        gy = (e[1] * p1[0] - e[0] * p1[1]) / det
        ax, ay = act_point(geo.grid, g, (gx, gy))
        out.append(geo.point(ax, ay))
    return out[0][0], out[0][1], out[1][0], out[1][1]


def draw_piece(cv: Canvas, geo: Geometry, centre: tuple[float, float], piece: Piece, orientation: int) -> None:
    """A piece's glyph at a tile drawn turned by ``orientation``, itself turned by its frame in the tile."""
    s = geo.scale
    grp = geo.grid.group
    g = grp.mul[piece.frame][orientation]  # the frame first, then the tile copy's orientation
    a, b, c, d = glyph_matrix(geo, g)
    base = {"x": "0", "y": "0", "font-size": _f(s * 0.72), "font-family": "DejaVu Sans, sans-serif",
            "text-anchor": "middle", "dominant-baseline": "central",
            "transform": f"translate({_f(centre[0])},{_f(centre[1])}) matrix({a:.4g} {b:.4g} {c:.4g} {d:.4g} 0 0)"}
    if piece.back:
        cv.add("tokens", "text", {**base, "fill": piece.back_fill}, text=piece.back)
    stroke = {"stroke": piece.outline, "stroke-width": _f(s / 48)} if piece.outline else {}
    size = {"font-size": _f(s * 0.72 * piece.size)} if piece.size != 1.0 else {}
    el = cv.add("tokens", "text", {**base, "fill": piece.fill, **stroke, **size}, text=piece.glyph)
    el.set("class", "piece")


def draw_tile(cv: Canvas, geo: Geometry, centre: tuple[float, float], tid: str, orientation: int,
              state: int = 0, state_names: Mapping[int, str] | None = None, faded: bool = False,
              fill: str | None = None, piece: Piece | None = None) -> None:
    """One tile: coloured polygon, id, orientation arrows (first and second direction turned), state token (or
    ``piece``, drawn turned by the tile's orientation and its own frame)."""
    grid = geo.grid
    s = geo.scale
    cx, cy = centre
    attrs = {"fill": fill or tile_colour(tid), "stroke": "#555555", "stroke-width": _f(max(0.5, s / 60))}
    if faded:
        attrs["fill-opacity"] = "0.45"
    cv.polygon("tiles", geo.polygon(cx, cy), **attrs)
    dirs = grid.directions
    for k, (length, width) in enumerate(((0.36, s / 22), (0.22, s / 30)) if piece is None else ()):
        v = act_point(grid, orientation, (float(dirs[k][0]), float(dirs[k][1])))
        px, py = geo.point(v[0] * length, v[1] * length)
        cv.arrow("marks", (cx, cy), (cx + px, cy + py), width, "#333333", s / 9)
    if piece is not None:
        cv.text("labels", cx - s * 0.32, cy + s * 0.36, tid, s * 0.16, fill="#111111")
        draw_piece(cv, geo, centre, piece, orientation)
        return
    cv.text("labels", cx - s * 0.2, cy + s * 0.27, tid, s * 0.2, fill="#111111")
    if state:
        r = s * 0.2
        tx, ty = cx + s * 0.18, cy + s * 0.2
        cv.add("tokens", "circle", {"cx": _f(tx), "cy": _f(ty), "r": _f(r), "fill": state_colour(state),
                                    "stroke": "#000000", "stroke-width": _f(s / 60)})
        cv.text("tokens", tx, ty, state_label(state, state_names)[:3], r * 1.1, fill="#ffffff")


def draw_side(cv: Canvas, geo: Geometry, centre: tuple[float, float], orientation: int, side: int, layer: str,
              **attrs: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Stroke one side of a tile drawn at ``centre`` turned by ``orientation``; returns its picture corners
    (counter-clockwise around the tile, in the tile's own sense)."""
    a, b = geo.side_corners(side)
    pa = geo.point(*act_point(geo.grid, orientation, a))
    pb = geo.point(*act_point(geo.grid, orientation, b))
    p1 = (centre[0] + pa[0], centre[1] + pa[1])
    p2 = (centre[0] + pb[0], centre[1] + pb[1])
    cv.line(layer, p1, p2, **attrs)
    return p1, p2


def view_svg(view: View, board: Board, state_names: Mapping[int, str] | None = None, scale: float = 48.0,
             visible: set[Cell] | None = None, pieces: Mapping[int, Piece] | None = None,
             fills: Mapping[int, str] | None = None, labels: Sequence[str] | None = None, title: str = "") -> str:
    """The unfolded view as SVG: tiles coloured by id with orientation arrows and state tokens, the board's
    edge thick, the walker marked.  Cells outside ``visible`` (when given) are drawn faded.  A game position:
    ``pieces`` (tile -> piece, drawn on every copy of its tile, turned as that copy and the piece's frame say),
    ``fills`` (tile -> colour, e.g. a chessboard's squares), ``labels`` (tile -> name, e.g. ``e4``).
    Cost O(|window|)."""
    grid = view.grid
    geo = Geometry(grid, scale)
    inv = grid.group.inv
    w = view.centre
    mirrored = " (mirrored)" if grid.group.is_reflection(w.frame) else ""
    names = labels if labels is not None else board.tiles
    cv = Canvas(title or f"view from tile {names[w.tile]}, frame {w.frame}{mirrored}, radius {view.radius}")
    for c, t, f in zip(view.cells, view.tiles, view.frames, strict=True):
        draw_tile(cv, geo, geo.point(*c), names[t], inv[f], board.states[t], state_names,
                  faded=visible is not None and c not in visible, fill=fills.get(t) if fills else None,
                  piece=pieces.get(t) if pieces else None)
    for c, d in view.edges:
        draw_side(cv, geo, geo.point(*c), 0, d, "edges", stroke="#000000",
                  **{"stroke-width": _f(scale / 10), "stroke-linecap": "round"})
    r = scale * 0.42
    cv.add("walker", "circle", {"cx": "0", "cy": "0", "r": _f(r), "fill": "none", "stroke": "#d00000",
                                "stroke-width": _f(scale / 14)}, extent=[(-r, -r), (r, r)])
    up = geo.point(*grid.directions[0])
    cv.arrow("walker", (0.0, 0.0), (up[0] * 0.4, up[1] * 0.4), scale / 14, "#d00000", scale / 6)
    return cv.tostring(scale * 0.3)


# ---- PNG ------------------------------------------------------------------------------------
def svg_png_bytes(svg: str, where: str = "picture") -> bytes:
    """The PNG of an SVG text, rasterised in-process by resvg (the ``resvg-py`` wheel: no system library, no external
    program); :class:`RenderError` naming ``where`` if it cannot be drawn.  Cost: linear in the picture's pixels."""
    import resvg_py  # loads only when a PNG is asked for

    try:
        data = resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", zoom=2.0)
    except ValueError as exc:
        raise RenderError(f"{where}: cannot draw the picture as PNG: {exc}") from None
    data = bytes(data)
    if data[:8] != PNG_MAGIC:
        raise RenderError(f"{where}: the SVG renderer gave no PNG")
    return data


def svg_to_png(svg: str, path: str | os.PathLike[str]) -> str:
    """Write ``svg`` as a PNG at ``path`` atomically; returns the renderer's name.  :class:`RenderError` if it cannot."""
    check_target(Path(path))
    files.write_atomic(path, svg_png_bytes(svg, os.fspath(path)), RenderError)
    return "resvg"


# ---- writing --------------------------------------------------------------------------------
def check_target(target: Path) -> None:
    """:class:`RenderError` unless ``target`` can be written: not a folder, its folder exists."""
    files.check_target(target, RenderError)


def write_text_atomic(text: str, path: str | os.PathLike[str]) -> None:
    """Write text atomically (a temporary file in the same folder renamed over the target)."""
    files.write_atomic(path, text, RenderError)
