"""Hypothesis strategies for boards and tapings."""

from __future__ import annotations

from hypothesis import strategies as st

from tapology.model.board import Board, Taping
from tapology.model.boardfile import placement_board
from tapology.model.builtins import builtin_board
from tapology.model.domain import domain_from_spec
from tapology.model.grid import HEX, SQUARE
from tapology.model.tape import format_fact, side_fact

BUILTINS = ["plane:3x3", "strip:7", "cylinder:3x4", "mobius:3x3", "torus:3x3", "klein:3x3", "torus:1x4",
            "torus:2x3", "hex-torus:2x3", "hex-plane:2x3", "hex-mobius:3x2", "cylinder:1x3", "klein:2x2"]


@st.composite
def plane_cutouts(draw, max_side: int = 4, hexes: bool | None = None):
    """Tiles placed at random cells of a small patch of the plane, each turned at random."""
    use_hex = draw(st.booleans()) if hexes is None else hexes
    grid = HEX if use_hex else SQUARE
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    cells = draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), min_size=1, max_size=w * h))
    cells = sorted(cells)
    turns = draw(st.lists(st.integers(0, grid.group.order - 1), min_size=len(cells), max_size=len(cells)))
    tiles = [str(i + 1) for i in range(len(cells))]
    domain = domain_from_spec(grid, draw(st.sampled_from(["box", "plus", "box", "ball:2"] if not use_hex else ["box", "ball:2"])))
    placed = {t: (c, g) for t, c, g in zip(tiles, cells, turns, strict=True)}
    return placement_board(grid, domain, tiles, [0] * len(tiles), placed)


@st.composite
def boards(draw):
    """A built-in board or a plane cut-out."""
    if draw(st.booleans()):
        return builtin_board(draw(st.sampled_from(BUILTINS)))
    return draw(plane_cutouts())


@st.composite
def tapings(draw, board: Board, max_size: int = 4):
    """Random side tapings of a board (any tiles, any sides, with or without flip)."""
    n = len(board.tiles)
    k = draw(st.integers(1, max_size))
    out = []
    for _ in range(k):
        t = draw(st.integers(0, n - 1))
        u = draw(st.integers(0, n - 1))
        d = draw(st.integers(0, len(board.grid.directions) - 1))
        e = draw(st.integers(0, len(board.grid.directions) - 1))
        flip = draw(st.booleans())
        f = side_fact(board, t, d, u, e, flip)
        out.append(Taping(f, format_fact(board, f)))
    return out


@st.composite
def random_glue_boards(draw):
    """Arbitrary gluing tables (not necessarily symmetric or consistent) on a few tiles."""
    grid = draw(st.sampled_from([SQUARE, HEX]))
    n = draw(st.integers(1, 6))
    h = grid.group.order
    glue = []
    for _ in range(n):
        row = []
        for _ in grid.directions:
            row.append(draw(st.one_of(st.just(-1), st.integers(0, n * h - 1))))
        glue.append(tuple(row))
    dom = domain_from_spec(grid, draw(st.sampled_from(["box", "plus"] if grid is SQUARE else ["box"])))
    return Board(grid, dom, tuple(str(i + 1) for i in range(n)), (0,) * n, tuple(glue))
