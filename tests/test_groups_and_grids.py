"""Orientation groups and reference grids: tables, laws, user-defined grids."""

from __future__ import annotations

import itertools

import pytest

from tapology.errors import DomainError, GridError, GroupError
from tapology.model.domain import domain_from_spec
from tapology.model.grid import GRIDS, HEX, SQUARE, custom_grid, get_grid, grid_from_spec, linear_grid
from tapology.model.group import HEX_C6, HEX_D6, SQUARE_C4, SQUARE_D4, OrientationGroup

SEED_TABLE = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [1, 2, 3, 0, 7, 4, 5, 6],
    [2, 3, 0, 1, 6, 7, 4, 5],
    [3, 0, 1, 2, 5, 6, 7, 4],
    [4, 5, 6, 7, 0, 1, 2, 3],
    [5, 6, 7, 4, 3, 0, 1, 2],
    [6, 7, 4, 5, 2, 3, 0, 1],
    [7, 4, 5, 6, 1, 2, 3, 0],
]
FORMULAS = [
    lambda x, y: (x, y), lambda x, y: (y, -x), lambda x, y: (-x, -y), lambda x, y: (-y, x),
    lambda x, y: (-x, y), lambda x, y: (y, x), lambda x, y: (x, -y), lambda x, y: (-y, -x),
]


def test_d4_table_equals_seed_000():
    assert [list(r) for r in SQUARE_D4.mul] == SEED_TABLE


def test_d4_action_is_design_formulas():
    for g, f in enumerate(FORMULAS):
        for x, y in itertools.product(range(-2, 3), repeat=2):
            assert SQUARE_D4.act(g, (x, y)) == f(x, y)


def naive_product(group: OrientationGroup, a: int, b: int) -> int:
    """a then b found by comparing actions on many cells (the reference for the table)."""
    cells = list(itertools.product(range(-3, 4), repeat=2))
    img = [group.act(b, group.act(a, c)) for c in cells]
    return next(g for g in range(group.order) if [group.act(g, c) for c in cells] == img)


@pytest.mark.parametrize("group", [SQUARE_D4, SQUARE_C4, HEX_D6, HEX_C6], ids=lambda g: g.name)
def test_group_laws(group):
    n = group.order
    for a in range(n):
        assert group.mul[0][a] == a == group.mul[a][0]
        assert group.mul[a][group.inv[a]] == 0 == group.mul[group.inv[a]][a]
        for b in range(n):
            assert group.mul[a][b] == naive_product(group, a, b)
            for c in range(n):
                assert group.mul[group.mul[a][b]][c] == group.mul[a][group.mul[b][c]]


@pytest.mark.parametrize("grid", list(GRIDS.values()), ids=lambda g: g.name)
def test_grid_laws_and_unit_sphere(grid):
    grid.check_laws(3)
    dirs = set(grid.directions)
    for g in range(grid.group.order):
        assert {grid.group.act(g, d) for d in dirs} == dirs
    for d in grid.directions:
        assert grid.neg(d) in dirs


def test_hex_numbering():
    assert HEX_D6.order == 12 and HEX_C6.order == 6
    east, ne = (1, 0), (0, 1)
    # element 1 is a sixth-turn clockwise: north-east goes to east
    assert HEX_D6.act(1, ne) == east
    assert all(HEX_D6.is_reflection(g) == (g >= 6) for g in range(12))
    # element 6 flips across the vertical axis: east <-> west, north-east <-> north-west
    assert HEX_D6.act(6, east) == (-1, 0) and HEX_D6.act(6, ne) == (-1, 1)
    assert [HEX_D6.mul[6][k] for k in range(6)] == [6, 7, 8, 9, 10, 11]


def test_sides_by_name():
    assert SQUARE.side("up") == 0 and SQUARE.side("left") == 3 and HEX.side("ne") == 1
    with pytest.raises(GridError, match="'diagonal'"):
        SQUARE.side("diagonal")
    with pytest.raises(GridError, match="'octagon'"):
        get_grid("octagon")


def test_user_grid_from_functions():
    g = custom_grid(
        "square-again", (0, 0), lambda a, b: (b[0] - a[0], b[1] - a[1]),
        [(0, 1), (1, 0), (0, -1), (-1, 0)], ["up", "right", "down", "left"],
        [lambda c: c, lambda c: (c[1], -c[0]), lambda c: (-c[0], -c[1]), lambda c: (-c[1], c[0])],
    )
    assert g.group.order == 4 and g.group.mul[1][1] == 2


def test_user_grid_with_a_broken_translation_names_the_law():
    with pytest.raises(GridError, match=r"associativ|inverse|identity|translate"):
        custom_grid(
            "skewed", (0, 0), lambda a, b: (b[0] - a[0] + a[1] * b[1], b[1] - a[1]),
            [(0, 1), (1, 0), (0, -1), (-1, 0)], ["up", "right", "down", "left"], [lambda c: c],
        )


def test_user_grid_whose_orientations_are_not_closed_names_the_law():
    with pytest.raises(GroupError, match="closure"):
        linear_grid("half", [[0, 1], [1, 0], [0, -1], [-1, 0]], ["u", "r", "d", "l"], [[[1, 0], [0, 1]], [[0, 1], [-1, 0]]])


def test_user_grid_whose_orientation_leaves_the_sphere_is_refused():
    with pytest.raises(GridError, match="off the unit sphere"):
        linear_grid("shear", [[0, 1], [1, 0], [0, -1], [-1, 0]], ["u", "r", "d", "l"],
                    [[[1, 0], [0, 1]], [[1, 1], [0, -1]]])


def test_user_grid_unit_sphere_must_be_closed_under_negation():
    with pytest.raises(GridError, match="negation"):
        linear_grid("oneway", [[0, 1], [1, 0]], ["u", "r"], [[[1, 0], [0, 1]]])


def test_grid_table_spec():
    g = grid_from_spec({"name": "rot4", "directions": [[0, 1], [1, 0], [0, -1], [-1, 0]],
                        "names": ["up", "right", "down", "left"],
                        "orientations": [[[1, 0], [0, 1]], [[0, 1], [-1, 0]], [[-1, 0], [0, -1]], [[0, -1], [1, 0]]]})
    assert g.group.order == 4
    with pytest.raises(GridError, match="missing key 'names'"):
        grid_from_spec({"name": "x", "directions": [], "orientations": []})


@pytest.mark.parametrize("grid", list(GRIDS.values()), ids=list(GRIDS))
def test_layout_rows_and_columns(grid):
    """A layout's (row, column) and the plane cell convert both ways, on single cells and whole arrays; on hexes
    odd rows sit half a cell right: the cell below is south-east from an even row, south-west from an odd one."""
    import numpy as np

    assert grid.is_hex == grid.name.startswith("hex") == (grid.kind == "hex")
    for r, c in itertools.product(range(-4, 5), range(-4, 5)):
        cell = grid.layout_cell(r, c)
        assert grid.layout_row_col(cell) == (r, c)
        assert grid.layout_cell(*grid.layout_row_col((c, r))) == (c, r)
    if grid.is_hex:
        below = {r: grid.translate(grid.layout_cell(r, 0), grid.layout_cell(r + 1, 0)) for r in range(-3, 3)}
        assert {below[r] for r in below if r % 2 == 0} == {grid.directions[grid.side("se")]}
        assert {below[r] for r in below if r % 2} == {grid.directions[grid.side("sw")]}
    else:
        assert grid.layout_cell(1, 0) == grid.directions[grid.side("down")]
    rr, cc = np.divmod(np.arange(30), 6)
    xs, ys = grid.layout_cell(rr, cc)
    assert [grid.layout_cell(int(r), int(c)) for r, c in zip(rr, cc, strict=True)] == list(zip(xs.tolist(), ys.tolist(),
                                                                                                strict=True))
    back = grid.layout_row_col((xs, ys))
    assert back[0].tolist() == rr.tolist() and back[1].tolist() == cc.tolist()


def test_user_grids_know_their_kind():
    hexes = linear_grid("axial", HEX.directions, HEX.direction_names, [[[1, 0], [0, 1]]])
    king = grid_from_spec({"name": "king", "directions": [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0],
                                                         [-1, 1]], "names": list("abcdefgh"),
                           "orientations": [[[1, 0], [0, 1]]]})
    assert hexes.is_hex and not king.is_hex and king.layout_cell(2, 3) == SQUARE.layout_cell(2, 3)


def test_domains():
    box = domain_from_spec(SQUARE, "box")
    assert len(box) == 9 and box.cells[0] == (0, 0) and box.is_box
    assert len(domain_from_spec(SQUARE, "plus")) == 5
    assert len(domain_from_spec(HEX, "box")) == 7
    assert len(domain_from_spec(SQUARE, "box:2")) == 25
    with pytest.raises(DomainError, match="not closed under the orientations"):
        domain_from_spec(SQUARE, [[0, 0], [1, 0]])
    with pytest.raises(DomainError, match="origin"):
        domain_from_spec(SQUARE, [[1, 0]])
    with pytest.raises(DomainError, match="'star'"):
        domain_from_spec(SQUARE, "star")
    # trans[i][o][j] is o⁻¹(cell j − cell i)
    grp = SQUARE.group
    for i, c in enumerate(box.cells):
        for o in range(8):
            for j, p in enumerate(box.cells):
                q = grp.act(grp.inv[o], (p[0] - c[0], p[1] - c[1]))
                assert box.trans[i][o][j] == box.index.get(q, -1)
