"""The net view: a board's tiles laid out flat, each taped pair of open sides marked by matching labels.

This is the classic fundamental-polygon picture: sides glued as they are drawn are plain
shared edges; every other glued pair of sides ("open" in the picture) gets a label (a, b, …)
written on both sides, with an arrow on each showing how they meet: taping the two sides
so that the arrows agree makes the board.  On a torus the arrows on opposite sides point
the same way; on a Klein bottle one pair points opposite ways.  Unglued sides are the
board's edge.

Tiles are laid out where the board places them (a board file's layout, a built-in's rows)
or, failing that, developed from the gluing table; tiles with no place are put in a row
underneath.  Facts at cells other than the unit sides (corner pastes, portals at a
distance) are listed under the picture.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass

from tapology.model.board import Board
from tapology.model.group import Cell
from tapology.model.tape import format_fact
from tapology.render.ascii import box_width, draw_grid
from tapology.render.develop import develop_board
from tapology.render.svg import Canvas, Geometry, _f, act_point, draw_side, draw_tile, state_colour
from tapology.render.unfold import placed_boxes

Side = tuple[int, int]  # (tile, side number)


@dataclass(frozen=True)
class SidePair:
    """Two sides taped together but not drawn next to each other; ``flip`` when the taping reflects."""

    label: str
    a: Side
    b: Side
    orientation: int
    flip: bool


@dataclass(frozen=True)
class Net:
    """A board laid out flat: per tile (cell, orientation), the open side pairs, the board's edge."""

    positions: tuple[tuple[Cell, int], ...]
    pairs: tuple[SidePair, ...]
    joined: tuple[Side, ...]
    edges: tuple[Side, ...]
    extra: tuple[str, ...]

    def to_json(self, board: Board) -> dict[str, object]:
        """The net as JSON: tile places, open side pairs with their labels, edge sides, extra facts."""
        names = board.grid.direction_names

        def side(s: Side) -> str:
            return f"{board.tiles[s[0]]}.{names[s[1]]}"

        return {
            "tiles": [{"tile": board.tiles[t], "cell": list(c), "orientation": g}
                      for t, (c, g) in enumerate(self.positions)],
            "pairs": [{"label": p.label, "sides": [side(p.a), side(p.b)], "flip": p.flip} for p in self.pairs],
            "edges": [side(s) for s in self.edges],
            "extra": list(self.extra),
        }


def pair_label(k: int) -> str:
    """a … z, A … Z, then a2, b2, …"""
    letters = string.ascii_lowercase + string.ascii_uppercase
    return letters[k % 52] + (str(k // 52 + 1) if k >= 52 else "")


def net_positions(board: Board) -> tuple[tuple[Cell, int], ...]:
    """Where each tile is drawn: the board's placement, else developed; unplaced tiles in a row beneath."""
    drawn = board.placement is not None and any(p is not None for p in board.placement)
    place = list(board.placement) if drawn else list(develop_board(board))  # type: ignore[arg-type]
    placed = [p for p in place if p is not None]
    if len(placed) < len(place):
        low = min((c[1] for c, _ in placed), default=0) - 2
        x0 = min((c[0] for c, _ in placed), default=0)
        k = 0
        for t, p in enumerate(place):
            if p is None:
                place[t] = ((x0 + 2 * k, low), 0)
                k += 1
    return tuple(p for p in place if p is not None)


def board_net(board: Board) -> Net:
    """The net of a board (its gluing table; corner and distant facts listed apart).  Cost O(n·|S|)."""
    grid = board.grid
    grp = grid.group
    h = board.order
    pos = net_positions(board)
    at_cell = {c: (t, g) for t, (c, g) in enumerate(pos)}
    pairs: list[SidePair] = []
    joined: list[Side] = []
    edges: list[Side] = []
    seen: set[Side] = set()
    for t, row in enumerate(board.glue):
        c, a = pos[t]
        for d, code in enumerate(row):
            if code < 0:
                edges.append((t, d))
                continue
            if (t, d) in seen:
                continue
            u, o = divmod(code, h)
            e = grid.dir_perm[grp.inv[o]][grid.opposite[d]]
            seen.add((t, d))
            seen.add((u, e))
            nb = at_cell.get(grid.add(c, grp.act(a, grid.directions[d])))
            if nb is not None and nb[0] == u and grp.mul[nb[1]][grp.inv[a]] == o:
                joined.extend([(t, d), (u, e)] if (u, e) != (t, d) else [(t, d)])
                continue
            pairs.append(SidePair(pair_label(len(pairs)), (t, d), (u, e), o, grp.is_reflection(o)))
    extra = tuple(format_fact(board, f) for f in board.extra)
    return Net(pos, tuple(pairs), tuple(joined), tuple(edges), extra)


def _legend(board: Board, net: Net) -> list[str]:
    names = board.grid.direction_names
    out = []
    for p in net.pairs:
        a = f"{board.tiles[p.a[0]]}.{names[p.a[1]]}"
        b = f"{board.tiles[p.b[0]]}.{names[p.b[1]]}"
        out.append(f"  {p.label}: {a} = {b}{' (flipped)' if p.flip else ''}")
    if net.extra:
        out.append("  also taped: " + ", ".join(net.extra))
    return out


def _arrow_ends(board: Board, net: Net, side: Side, ccw: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    """The side's two corners in the plane (grid units, y up), in the arrow's direction."""
    grid = board.grid
    geo = Geometry(grid, 1.0)
    t, d = side
    c, g = net.positions[t]
    a, b = geo.side_corners(d)
    if not ccw:
        a, b = b, a
    pa = act_point(grid, g, a)
    pb = act_point(grid, g, b)
    return (c[0] + pa[0], c[1] + pa[1]), (c[0] + pb[0], c[1] + pb[1])


def pair_arrows(board: Board, net: Net, pair: SidePair) -> list[tuple[Side, tuple[float, float], tuple[float, float]]]:
    """Each side of a pair with its arrow (from, to) in grid units: counter-clockwise around the first
    tile; on the second, the direction the first's arrow is carried to by the taping."""
    out = [(pair.a, *_arrow_ends(board, net, pair.a, True))]
    if pair.b != pair.a:
        out.append((pair.b, *_arrow_ends(board, net, pair.b, pair.flip)))
    return out


def net_ascii(board: Board, net: Net, state_names: Mapping[int, str] | None = None) -> str:
    """The net in the seed's box style; on squares each open side carries its label and an arrow
    (``a>`` on a top or bottom border, ``^``/``v`` above/below the letter on a left or right border).
    Hex nets are drawn as boxes in offset rows with the pairs listed underneath."""
    grid = board.grid
    square = not grid.is_hex
    entries, states = placed_boxes(board, grid, ((c, t, g) for t, (c, g) in enumerate(net.positions)), state_names)
    width = box_width(entries, square, states, 9)
    pic = draw_grid(entries, square=square, width=width, states=states)
    if square and net.pairs:
        pic = _mark_sides(board, net, pic, entries, width)
    lines = [pic]
    legend = _legend(board, net)
    if legend:
        lines.append("taped sides (matching labels, arrows agree):" if net.pairs else "")
        lines.extend(legend)
    if not net.pairs and not net.extra:
        lines.append("every taped side is drawn taped")
    return "\n".join(lines)


def _mark_sides(board: Board, net: Net, pic: str, entries: Mapping[tuple[int, int], object], width: int) -> str:
    canvas = [list(line) for line in pic.split("\n")]
    r0 = min(r for r, _ in entries)
    c0 = min(c for _, c in entries)
    mid = width // 2 + 1
    used: set[tuple[int, int]] = set()

    def put(y: int, x: int, ch: str) -> bool:
        while len(canvas) <= y:
            canvas.append([])
        row = canvas[y]
        while len(row) <= x:
            row.append(" ")
        if (y, x) in used:
            return False
        row[x] = ch
        used.add((y, x))
        return True

    for pair in net.pairs:
        for (t, _d), p1, p2 in pair_arrows(board, net, pair):
            c, _g = net.positions[t]
            row, col = board.grid.layout_row_col(c)
            y = (row - r0) * 4
            x = (col - c0) * (width + 1)
            mx, my = (p1[0] + p2[0]) / 2 - c[0], (p1[1] + p2[1]) / 2 - c[1]
            label = pair.label  # written whole (a2, b2, … on big boards), reading left to right
            n = len(label)
            if abs(my) > abs(mx):  # top or bottom border
                yb = y if my > 0 else y + 4
                arrow = ">" if p2[0] > p1[0] else "<"
                for xx in (x + mid - n, x + mid - 3 - n, x + mid + 2):
                    if all((yb, xx + k) not in used for k in range(n + 1)):
                        for k, ch in enumerate(label + arrow):
                            put(yb, xx + k, ch)
                        break
            else:
                xb = x if mx < 0 else x + width + 1
                x0 = xb if mx < 0 else xb - n + 1  # the rest of the label inside the tile's box
                up = p2[1] > p1[1]
                ya = y + 2 if (y + 2, xb) not in used else (y + 3 if up else y + 1)
                for k, ch in enumerate(label):
                    put(ya, x0 + k, ch)
                if ya == y + 2:
                    put(y + 1 if up else y + 3, xb, "^" if up else "v")
    return "\n".join("".join(r).rstrip() for r in canvas)


def net_svg(board: Board, net: Net, state_names: Mapping[int, str] | None = None, scale: float = 60.0) -> str:
    """The net as SVG: tiles coloured by id with orientation arrows, open side pairs coloured and labelled
    with matching arrows, the board's edge thick."""
    grid = board.grid
    geo = Geometry(grid, scale)
    cv = Canvas(f"net of a {len(board.tiles)}-tile board: {len(net.pairs)} taped side pair(s) open")
    for t, (c, g) in enumerate(net.positions):
        draw_tile(cv, geo, geo.point(*c), board.tiles[t], g, board.states[t], state_names)
    for t, d in net.edges:
        c, g = net.positions[t]
        draw_side(cv, geo, geo.point(*c), g, d, "edges", stroke="#000000",
                  **{"stroke-width": _f(scale / 10), "stroke-linecap": "round"})
    for k, pair in enumerate(net.pairs):
        colour = state_colour(k + 1)
        for (t, _d), p1, p2 in pair_arrows(board, net, pair):
            c = net.positions[t][0]
            a = geo.point(*p1)
            b = geo.point(*p2)
            cv.line("edges", a, b, stroke=colour, **{"stroke-width": _f(scale / 12), "stroke-linecap": "round"})
            m = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            dx, dy = (b[0] - a[0]) * 0.18, (b[1] - a[1]) * 0.18
            cv.arrow("labels", (m[0] - dx, m[1] - dy), (m[0] + dx, m[1] + dy), scale / 16, colour, scale / 7)
            cc = geo.point(*c)
            lx, ly = cc[0] + (m[0] - cc[0]) * 0.72, cc[1] + (m[1] - cc[1]) * 0.72
            cv.text("labels", lx, ly, pair.label, scale * 0.2, fill=colour, **{"font-weight": "bold"})
    return cv.tostring(scale * 0.3)
