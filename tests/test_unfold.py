"""The unfolded view: periodic on a torus, mirrored copies on a Klein bottle, stops at the edge; fov and the view command."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import pairwise

import pytest

from tapology.cli import main
from tapology.errors import ViewError
from tapology.model.atlas import Atlas
from tapology.model.boardfile import parse_board
from tapology.model.group import SQUARE_D4
from tapology.model.tape import parse_tape
from tapology.model.walk import step as core_step
from tapology.model.walker import Walker, start_walker
from tapology.render.ascii import parse_grid_picture
from tapology.render.fov import field_of_view, opaque_states, square_line, visible_in_view
from tapology.render.unfold import draw_view, unfold, window
from tests.helpers import atlas_of


def naive_unfold(at: Atlas, w: Walker, radius: int) -> dict[tuple[int, int], tuple[int, int]]:
    """Reference: every window cell by its own path (x steps, then y steps) through the core ``step``."""
    out = {}
    for x in range(-radius, radius + 1):
        for y in range(-radius, radius + 1):
            pos: tuple[int, int] | None = (w.tile, w.frame)
            for v in [(1 if x > 0 else -1, 0)] * abs(x) + [(0, 1 if y > 0 else -1)] * abs(y):
                if pos is None:
                    break
                pos = core_step(at, pos[0], pos[1], v)
            if pos is not None:
                out[(x, y)] = pos
    return out


def test_torus_view_repeats_with_period_3():
    at = atlas_of("torus:3x3")
    for t in range(9):
        v = unfold(at, Walker(t, 0), 4)
        assert len(v.cells) == 81 and not v.edges and not v.branched
        for (x, y) in v.cells:
            for dx, dy in ((3, 0), (0, 3)):
                if (x + dx, y + dy) in v.lookup:
                    assert v.drawn((x, y)) == v.drawn((x + dx, y + dy))
        # and no smaller period: the 3 tiles of a row are distinct
        assert len({v.drawn((x, 0)) for x in range(3)}) == 3
        assert all(v.drawn(c)[1] == 0 for c in v.cells)  # type: ignore[index]


def test_klein_view_shows_mirrored_copies():
    at = atlas_of("klein:3x3")
    v = unfold(at, start_walker(at, "5"), 4)
    assert len(v.cells) == 81 and not v.branched
    flip = 6  # the glide's linear part: flip across the horizontal axis
    mirrored = 0
    for (x, y) in v.cells:
        here = v.drawn((x, y))
        assert here is not None
        if (x, y + 3) in v.lookup:
            assert v.drawn((x, y + 3)) == here  # plain period up and down
        if (x + 3, -y) in v.lookup:
            tile, o = v.drawn((x + 3, -y))  # type: ignore[misc]
            assert tile == here[0] and o == SQUARE_D4.mul[here[1]][flip]
        assert SQUARE_D4.is_reflection(here[1]) == (abs(x) >= 2)  # copies one period to either side
        mirrored += SQUARE_D4.is_reflection(here[1])
    assert mirrored == 6 * 9  # the columns x = -4, -3, -2 and 2, 3, 4


def test_plane_view_stops_at_the_edge():
    at = atlas_of("plane:3x3")
    v = unfold(at, start_walker(at, "5"), 4)
    assert set(v.cells) == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)}
    assert len(v.edges) == 12
    v = unfold(at, start_walker(at, "1"), 4)
    assert set(v.cells) == {(x, y) for x in (0, 1, 2) for y in (0, -1, -2)}


@pytest.mark.parametrize("name", ["torus:3x4", "klein:3x3", "mobius:3x5", "cylinder:2x3", "plane:3x3", "klein:1x2"])
def test_matches_the_naive_reference(name):
    at = atlas_of(name)
    for t in range(len(at.tiles)):
        for f in (0, 3, 6):
            v = unfold(at, Walker(t, f), 3)
            ref = naive_unfold(at, Walker(t, f), 3)
            if name.startswith("plane") or name.startswith("cylinder") or name.startswith("mobius"):
                # with an edge, a cell may be reached only round a corner: compare where the reference reached
                for c, pos in ref.items():
                    assert v.lookup[c] == pos
            else:
                assert v.lookup == ref


def test_turned_walker_sees_the_view_turned():
    at = atlas_of("klein:3x4")
    base = unfold(at, Walker(5, 0), 3)
    for f in range(8):
        v = unfold(at, Walker(5, f), 3)
        for c in v.cells:
            # the walker's screen vector c is the tile's vector f(c)
            t, fr = v.lookup[c]
            t0, fr0 = base.lookup[SQUARE_D4.act(f, c)]
            assert t == t0 and fr == SQUARE_D4.mul[f][fr0]


def test_hex_torus_view_repeats():
    at = atlas_of("hex-torus:2x3")
    v = unfold(at, Walker(0, 0), 4)
    assert not v.edges and not v.branched and len(v.cells) == len(window(at.grid, 4))
    for (q, r) in v.cells:
        if (q + 3, r) in v.lookup:
            assert v.drawn((q, r)) == v.drawn((q + 3, r))


def test_works_from_a_board_file_of_tapes_only():
    text = """
tiles = ["a", "b", "c", "d"]
tapes = ["a.right=b.left", "b.right=a.left", "c.right=d.left", "d.right=c.left",
         "a.up=c.down", "c.up=a.down", "b.up=d.down", "d.up=b.down"]
"""
    at = parse_board(text).atlas()
    assert at.conflict is None
    v = unfold(at, Walker(0, 0), 3)
    ids = {c: at.tiles[t] for c, t in zip(v.cells, v.tiles, strict=True)}
    for (x, y), tid in ids.items():
        assert tid == [["a", "b"], ["c", "d"]][y % 2][x % 2]


def test_a_portal_taped_during_play_shows_in_the_view():
    at = atlas_of("plane:3x3")
    before = unfold(at, start_walker(at, "6"), 2)
    assert (1, 0) not in before.lookup
    assert at.tape([parse_tape("6.right=4.left", at.board())]) is None  # a cylinder now
    after = unfold(at, start_walker(at, "6"), 2)
    assert after.drawn((1, 0)) == (at.tiles.index("4"), 0)
    assert after.drawn((2, 1)) == (at.tiles.index("2"), 0)


def test_branched_cells_are_reported():
    text = '''
domain = "plus"
layout = """
1 2
3 .
"""
tapes = ["2.down=3.right"]
'''
    at = parse_board(text).atlas()
    assert at.conflict is None
    v = unfold(at, Walker(0, 0), 2)
    assert v.branched  # three squares round a vertex: the corner of a cube
    assert "reached two ways" in draw_view(v, at.board())


def test_ascii_reads_back():
    at = atlas_of("klein:3x3")
    v = unfold(at, start_walker(at, "5"), 2)
    pic = draw_view(v, at.board(), header=False)
    read = parse_grid_picture(pic, width=7)
    got = {(c - 2, 2 - r): e for (r, c), e in read.items()}
    for cell in v.cells:
        tile, o = v.drawn(cell)  # type: ignore[misc]
        assert got[cell] == (at.tiles[tile], o)


def test_radius_checked():
    at = atlas_of("torus:2x2")
    with pytest.raises(ViewError):
        unfold(at, Walker(0, 0), -1)


# ---- field of view ------------------------------------------------------------------------------
def exact_line_cells(target: tuple[int, int]) -> set[tuple[int, int]]:
    """Cells whose open square the segment from (0,0) to target passes through (exact rationals)."""
    tx, ty = target
    out = set()
    n = 4 * (abs(tx) + abs(ty) + 1)
    pts = [(Fraction(tx * k, n), Fraction(ty * k, n)) for k in range(n + 1)]
    for (ax, ay), (bx, by) in pairwise(pts):
        mx, my = (ax + bx) / 2, (ay + by) / 2
        for px, py in ((ax, ay), (mx, my)):
            cx = round(px)
            cy = round(py)
            if abs(px - cx) != Fraction(1, 2) and abs(py - cy) != Fraction(1, 2):
                out.add((int(cx), int(cy)))
    return out


def test_square_lines_are_the_cells_the_segment_crosses():
    for tx in range(-6, 7):
        for ty in range(-6, 7):
            cells = {(0, 0)}
            p = (0, 0)
            for v in square_line((tx, ty)):
                p = (p[0] + v[0], p[1] + v[1])
                cells.add(p)
            assert p == (tx, ty)
            assert cells == exact_line_cells((tx, ty))


@pytest.mark.parametrize("name", ["torus:5x5", "klein:4x5", "plane:6x6", "hex-torus:4x4"])
def test_fov_agrees_with_the_view_on_flat_boards(name):
    at = atlas_of(name)
    b = at.board()
    b = b.with_states([1 if (7 * t) % 5 == 2 else 0 for t in range(len(b.tiles))])
    walls = opaque_states(b, {1})
    for t in range(len(b.tiles)):
        w = Walker(t, (3 * t) % at.order)
        v = unfold(at, w, 4)
        fov = field_of_view(at, w, 4, walls)
        assert set(fov.cells) == visible_in_view(v, walls)
        for c in fov.cells:
            assert fov.lookup[c] == v.lookup[c]


def test_walls_block_sight():
    at = atlas_of("torus:7x7")
    b = at.board().with_states([1 if t == at.tiles.index("26") else 0 for t in range(49)])
    fov = field_of_view(at, start_walker(at, "25"), 3, opaque_states(b, {1}))
    assert (1, 0) in fov.lookup and (2, 0) not in fov.lookup and (3, 0) not in fov.lookup
    assert (2, 1) not in fov.lookup  # its line crosses the wall cell (1, 0)
    assert (2, 2) in fov.lookup and (1, 1) in fov.lookup and (-3, 0) in fov.lookup


# ---- the view command -----------------------------------------------------------------------------
def test_view_command_ascii_and_json(capsys):
    code = main(["view", "torus:3x3", "--from", "5", "--radius", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "* 5 *" in out and out.startswith("view from tile 5")
    code = main(["view", "klein:3x3", "--from", "5", "--radius", "4", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and len(data["cells"]) == 81 and data["branched"] == []
    code = main(["view", "plane:3x3", "--from", "5", "--radius", "4", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert len(data["cells"]) == 9 and len(data["edges"]) == 12


def test_view_command_fov(capsys):
    code = main(["view", "examples/roguelike/village.toml", "--from", "g53", "--radius", "5", "--opaque", "4",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    tiles = {c["tile"] for c in data["cells"]}
    assert code == 0 and "H" in tiles and "D" in tiles and "g13" not in tiles


@pytest.mark.parametrize("args,needle", [
    (["--from", "5", "--radius", "-1"], "--radius"),
    (["--from", "5", "--format", "gif"], "--format 'gif'"),
    (["--from", "x"], "'x'"),
    (["--from", "5", "--opaque", "a"], "--opaque"),
])
def test_view_bad_input(capsys, args, needle):
    code = main(["view", "torus:3x3", *args])
    err = capsys.readouterr().err
    assert code == 2 and needle in err


@pytest.mark.parametrize("name", ["torus:3x3", "klein:3x5", "plane:4x4", "hex-torus:4x4", "hex-mobius:3x4"])
def test_view_pictures_read_back(name):
    from tapology.render.ascii import draw_grid, parse_grid_picture

    at = atlas_of(name)
    b = at.board()
    square = not at.grid.is_hex
    if not square:
        return
    for t in range(len(b.tiles)):
        v = unfold(at, Walker(t, (5 * t) % at.order), 3)
        ents = {at.grid.layout_row_col(c): (b.tiles[u], at.grid.group.inv[f]) for c, u, f in zip(v.cells, v.tiles, v.frames,
                                                                                          strict=True)}
        pic = draw_grid(ents, None, square, 9, {k: "(2)" for k in list(ents)[::3]})
        back = parse_grid_picture(pic)
        r0 = min(r for r, _ in ents)
        c0 = min(c for _, c in ents)
        assert {(r + r0, c + c0): e for (r, c), e in back.items() if e is not None} == ents
