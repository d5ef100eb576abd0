"""Pictures as data for the page: tiles placed in the plane (a net or an unfolded cover) with the geometry the
browser needs to draw them as SVG.

The page draws; the server says where.  A picture is a list of placed tiles (screen centre, tile, orientation as
drawn), and once per grid the shapes every orientation shares: the cell polygon, the segment of each side turned
by each orientation, and the orientation as an SVG matrix (y down), so that oriented pieces and tile arrows are
drawn turned.  Everything is computed by :mod:`tapology.render` (the same geometry as ``view --format svg``).
"""

from __future__ import annotations

from typing import Any

from tapology.model.board import Board
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.render.svg import Geometry, act_point, tile_colour
from tapology.render.unfold import View

SCALE = 48.0


def _r(x: float) -> float:
    return round(x, 2)


def grid_shapes(grid: ReferenceGrid, scale: float = SCALE) -> dict[str, Any]:
    """The shapes of a grid's cells: ``poly`` (corners around a centre), ``sides[o][d]`` (side d of a tile drawn
    turned by o, as x1, y1, x2, y2 from its centre), ``matrix[o]`` (o as an SVG matrix a, b, c, d), ``compose[f][g]``
    (f then g) and the side names."""
    geo = Geometry(grid, scale)
    grp = grid.group
    poly = [[_r(x), _r(y)] for x, y in geo.polygon(0.0, 0.0)]
    sides = []
    matrices = []
    px, py = geo.point(1, 0), geo.point(0, 1)  # screen images of the grid's basis vectors
    det = px[0] * py[1] - px[1] * py[0]
    for o in range(grp.order):
        row = []
        for d in range(len(grid.directions)):
            a, b = geo.side_corners(d)
            pa = geo.point(*act_point(grid, o, a))
            pb = geo.point(*act_point(grid, o, b))
            row.append([_r(pa[0]), _r(pa[1]), _r(pb[0]), _r(pb[1])])
        sides.append(row)
        # screen matrix M = P·A·P⁻¹, P the grid-to-screen map, A the orientation on grid vectors
        e1, e2 = grid.group.act(o, (1, 0)), grid.group.act(o, (0, 1))
        ax = geo.point(float(e1[0]), float(e1[1]))
        ay = geo.point(float(e2[0]), float(e2[1]))
        inv_p = ((py[1] / det, -py[0] / det), (-px[1] / det, px[0] / det))  # rows of P⁻¹
        m = [[ax[i] * inv_p[0][j] + ay[i] * inv_p[1][j] for j in range(2)] for i in range(2)]
        matrices.append([_r(m[0][0]), _r(m[1][0]), _r(m[0][1]), _r(m[1][1])])
    return {"scale": scale, "poly": poly, "sides": sides, "matrix": matrices, "compose": [list(r) for r in grp.mul],
            "reflection": [grp.is_reflection(o) for o in range(grp.order)], "side_names": list(grid.direction_names)}


def board_tiles(board: Board) -> list[dict[str, Any]]:
    """Each tile's id, colour and state."""
    return [{"id": tid, "colour": tile_colour(tid), "state": s} for tid, s in zip(board.tiles, board.states, strict=True)]


def placed(grid: ReferenceGrid, items: list[tuple[Cell, int, int]], scale: float = SCALE) -> list[list[float]]:
    """Placed tiles as [x, y, tile, orientation drawn] from (grid cell, tile, orientation drawn)."""
    geo = Geometry(grid, scale)
    out = []
    for c, t, g in items:
        x, y = geo.point(*c)
        out.append([_r(x), _r(y), t, g])
    return out


def cover_json(view: View, board: Board, scale: float = SCALE) -> dict[str, Any]:
    """An unfolded view (the universal cover around a walker) as placed tiles, its board edges as
    [cell index, tile side] and the cells reached two ways."""
    grid = view.grid
    grp = grid.group
    inv = grp.inv
    index = {c: k for k, c in enumerate(view.cells)}
    edges = []
    dirs = grid.directions
    for c, d in view.edges:
        k = index[c]
        f = view.frames[k]
        side = grid.direction_index[grp.act(f, dirs[d])]
        edges.append([k, side])
    seen = sorted(set(view.tiles))
    return {
        "tile_info": [[t, board.tiles[t], tile_colour(board.tiles[t]), board.states[t]] for t in seen],
        "cells": placed(grid, [(c, t, inv[f]) for c, t, f in zip(view.cells, view.tiles, view.frames, strict=True)],
                        scale),
        "edges": edges,
        "branched": len(view.branched),
        "radius": view.radius,
        "centre": {"tile": view.centre.tile, "frame": view.centre.frame,
                   "mirrored": grp.is_reflection(view.centre.frame)},
    }
