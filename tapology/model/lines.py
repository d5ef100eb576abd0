"""k-in-a-row lines read on a board's topology: k distinct tiles stepped straight across gluings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tapology.model.group import Cell
from tapology.model.walk import ray, step

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas


def line_vectors(grid) -> list[Cell]:
    """The line directions, one per axis: rows, columns and both diagonals on squares; the 3 axes on hexes."""
    if grid.is_hex:
        return [(1, 0), (0, 1), (-1, 1)]
    return [(1, 0), (0, 1), (1, 1), (1, -1)]


def board_lines(atlas: Atlas, k: int, vectors: list[Cell] | None = None) -> list[tuple[int, ...]]:
    """Every line of k distinct tiles, each once (as a sorted tuple of tile indices), in sorted order.

    A line starts at any tile, frame 0, and steps by one of ``vectors`` or its opposite
    (diagonal steps need the diagonal cell in the chart domain): both ways, since a turned
    tile at one end of a line may have no line leaving it the other way.  Lines that revisit
    a tile are not lines; two walks over the same tiles are the same line.  Cost O(n·|vectors|·k).
    """
    return sorted({tuple(sorted(tiles)) for _t, _v, tiles in straight_walks(atlas, k, vectors) if len(set(tiles)) == k})


def straight_walks(atlas: Atlas, k: int, vectors: list[Cell] | None = None) -> Iterator[tuple[int, Cell, list[int]]]:
    """(start tile, vector, tiles) of every straight walk of k tiles from every tile, frame 0, by each line vector
    (``vectors``, default :func:`line_vectors` in the chart domain) and its opposite; a walk may revisit a tile
    (:func:`board_lines` keeps those that do not).  Cost O(n·|vectors|·k)."""
    base = vectors or [v for v in line_vectors(atlas.grid) if v in atlas.domain.index]
    vecs = list(dict.fromkeys([*base, *(atlas.grid.neg(v) for v in base)]))
    for t in range(len(atlas.tiles)):
        for v in vecs:
            r = ray(atlas, t, 0, v, k)
            if r is not None:
                yield t, v, [p[0] for p in r]


def bounded_lines(atlas: Atlas, k: int) -> list[tuple[int, tuple[int, ...], int]]:
    """Every line of k distinct tiles with the tile just before it and just after it along the line (−1 off the
    board): (before, tiles in order, after), each line once.  A line whose end steps onto one of its own tiles
    (a ring of k round a surface) has that tile as its neighbour there.  Cost O(n·|vectors|·k)."""
    base = [v for v in line_vectors(atlas.grid) if v in atlas.domain.index]
    vecs = list(dict.fromkeys([*base, *(atlas.grid.neg(v) for v in base)]))
    seen: set[tuple] = set()
    out = []
    for t in range(len(atlas.tiles)):
        for v in vecs:
            r = ray(atlas, t, 0, v, k + 1)
            if r is None:
                r2 = ray(atlas, t, 0, v, k)
                if r2 is None:
                    continue
                tiles = [p[0] for p in r2]
                after = -1
            else:
                tiles = [p[0] for p in r[:k]]
                after = r[k][0]
            if len(set(tiles)) != k:
                continue
            back = step(atlas, t, 0, atlas.grid.neg(v))
            before = -1 if back is None else back[0]
            key = (tuple(sorted(tiles)), tuple(sorted((before, after))))
            if key not in seen:
                seen.add(key)
                out.append((before, tuple(tiles), after))
    return sorted(out, key=lambda x: (sorted(x[1]), x[0], x[2]))
