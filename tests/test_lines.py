"""k-in-a-row lines on a board's topology, against a naive reference over plane coordinates."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tapology.model.boardfile import load_board
from tapology.model.lines import board_lines

EXAMPLES = Path(__file__).parent.parent / "examples" / "boards"


def plane_lines(rows: int, cols: int, k: int) -> set[tuple[int, ...]]:
    """Lines of k on an unglued rows×cols block, by coordinates (tile r*cols+c)."""
    out = set()
    for r, c in itertools.product(range(rows), range(cols)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + i * dr, c + i * dc) for i in range(k)]
            if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                out.add(tuple(sorted(a * cols + b for a, b in cells)))
    return out


def torus_lines(rows: int, cols: int, k: int) -> set[tuple[int, ...]]:
    out = set()
    for r, c in itertools.product(range(rows), range(cols)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            tiles = [((r + i * dr) % rows) * cols + (c + i * dc) % cols for i in range(k)]
            if len(set(tiles)) == k:
                out.add(tuple(sorted(tiles)))
    return out


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 3), (4, 5, 3), (4, 4, 4), (2, 6, 2)])
def test_plane_and_torus_lines(rows, cols, k):
    assert set(board_lines(load_board(f"plane:{rows}x{cols}").atlas(), k)) == plane_lines(rows, cols, k)
    assert set(board_lines(load_board(f"torus:{rows}x{cols}").atlas(), k)) == torus_lines(rows, cols, k)


def test_counts_from_the_issue():
    assert len(board_lines(load_board("plane:3x3").atlas(), 3)) == 8
    assert len(board_lines(load_board("torus:3x3").atlas(), 3)) == 12


def test_turned_tiles_do_not_change_the_lines():
    turned = load_board(str(EXAMPLES / "tictactoe-turned.toml")).atlas()
    assert set(board_lines(turned, 3)) == plane_lines(3, 3, 3)
