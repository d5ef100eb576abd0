"""Seed 000's worked examples, compared cell by cell with the seed's own drawings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapology.model.atlas import Atlas
from tapology.model.boardfile import load_board
from tapology.model.group import SQUARE_D4
from tapology.model.tape import parse_tape
from tapology.render.ascii import ARROWS, draw_charts, parse_grid_picture, split_side_by_side

from .seedpics import DATA, centre, seed_charts

EXAMPLES = Path(__file__).parent.parent / "examples" / "boards"


def chart_ids(atlas: Atlas, tile: str) -> dict[tuple[int, int], tuple[str, int]]:
    t = atlas.tiles.index(tile)
    return {c: (atlas.tiles[u], o) for c, (u, o) in atlas.chart_of(t).items()}


def drawn(chart):
    return {c: v for c, v in chart.items() if v is not None}


def test_product_table_is_the_seeds():
    text = (DATA / "product_table.txt").read_text().strip("\n")
    assert SQUARE_D4.table_text() == text.rstrip()
    assert SQUARE_D4.mul[1][1] == 2 and SQUARE_D4.mul[3][4] == 5 and SQUARE_D4.mul[1][4] == 7


def test_orientation_pictures_are_the_seeds():
    text = (DATA / "orientations.txt").read_text()
    lines = text.split("\n")
    boxes = [m for m in split_side_by_side("\n".join(lines[:5]))]
    assert len(boxes) == 8
    for g, box in enumerate(boxes):
        inner = box.split("\n")[1:4]
        arrows = {(r, c, ch) for r in range(3) for c, ch in enumerate(inner[r][1:8]) if ch in "^>v<"}
        assert arrows == set(ARROWS[g]), g


def test_turned_tictactoe_atlas_is_the_seeds():
    src = load_board(str(EXAMPLES / "tictactoe-turned.toml"))
    atlas = src.atlas()
    assert atlas.consistent
    charts = seed_charts("turned_charts")
    assert len(charts) == 9
    for chart in charts:
        assert chart_ids(atlas, centre(chart)) == drawn(chart)


def test_turned_board_picture_is_the_seeds():
    src = load_board(str(EXAMPLES / "tictactoe-turned.toml"))
    pic = parse_grid_picture((DATA / "turned_board.txt").read_text())
    placed = {src.board.tiles[t]: p for t, p in enumerate(src.board.placement)}
    for (r, c), (tid, g) in pic.items():
        assert placed[tid] == ((c, -r), g)


def test_drawn_charts_read_back():
    src = load_board(str(EXAMPLES / "tictactoe-turned.toml"))
    atlas = src.atlas()
    pic = draw_charts(src.board, {t: atlas.chart_of(t) for t in range(9)})
    for block in pic.split("\n\n"):
        for part in split_side_by_side(block):
            chart = {(c - 1, 1 - r): v for (r, c), v in parse_grid_picture(part).items()}
            assert chart_ids(atlas, centre(chart)) == drawn(chart)


def test_tile_3_taped_under_tile_1_fills_charts_2_and_3():
    src = load_board("strip:2")
    from tapology.model.board import Board

    b = src.board
    b3 = Board(b.grid, b.domain, (*b.tiles, "3"), (*b.states, 0), (*b.glue, (-1, -1, -1, -1)),
               placement=(*b.placement, None))
    atlas = Atlas.of(b3)
    before = seed_charts("two_tiles_charts")
    for chart in before:
        assert chart_ids(atlas, centre(chart)) == drawn(chart)
    assert atlas.tape([parse_tape("1.down=3.up", b3)]) is None
    for chart in seed_charts("atlas3_tile3_under_1"):
        assert chart_ids(atlas, centre(chart)) == drawn(chart)


def test_strip_taped_3_over_4_propagates_everywhere():
    src = load_board(str(EXAMPLES / "strip7.toml"))
    atlas = src.atlas()
    assert atlas.tape([parse_tape("3.up=4.down", src.board)]) is None
    chart4, chart5_midway = seed_charts("strip_charts_4_5")
    assert chart_ids(atlas, "4") == drawn(chart4)
    rows = [[chart_ids(atlas, "4")[(x, y)][0] for x in (-1, 0, 1)] for y in (1, 0, -1)]
    assert rows == [["4", "5", "6"], ["3", "4", "5"], ["2", "3", "4"]]
    # the seed's picture of chart 5 is taken midway: everything it shows is in the closure
    assert drawn(chart5_midway).items() <= chart_ids(atlas, "5").items()
    # every chart learned of the taping: each tile now has a tile above it except the last
    for t in "1234567":
        assert (chart_ids(atlas, t).get((0, 1)) is not None) == (t != "7")


def test_L_board_refuses_top_of_1_to_right_of_3():
    src = load_board(str(EXAMPLES / "L.toml"))
    atlas = src.atlas()
    for chart in seed_charts("L_initial_atlas"):
        assert chart_ids(atlas, centre(chart)) == drawn(chart)
    before = atlas.chart.copy()
    conflict = atlas.tape([parse_tape("1.up=3.right", src.board)])
    assert conflict is not None
    assert {src.board.tiles[c.other] for c in conflict.claims} == {"2"}
    assert conflict.claims[0].orientation != conflict.claims[1].orientation
    assert conflict.because == ["1.up=3.right"]
    assert (atlas.chart == before).all()


@pytest.mark.parametrize("name", ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"])
def test_builtin_3x3_surfaces_are_consistent(name):
    assert load_board(name).atlas().consistent
