"""Topology of boards: Euler characteristic from the gluing table, orientability, boundary, names, orbifolds."""

from __future__ import annotations

import json
import random

import pytest

from tapology.cli import main
from tapology.model.board import Board
from tapology.model.boardfile import load_board
from tapology.model.builtins import builtin_board
from tapology.model.grid import SQUARE
from tapology.model.tape import side_orientation
from tapology.model.topology import classify, surface_name

EXPECTED = {
    "plane:3x3": ("disk", 1, True, 1, 0),
    "strip:7": ("disk", 1, True, 1, 0),
    "cylinder:3x3": ("annulus", 0, True, 2, 0),
    "mobius:3x3": ("mobius strip", 0, False, 1, 1),
    "torus:3x3": ("torus", 0, True, 0, 1),
    "torus:1x9": ("torus", 0, True, 0, 1),
    "torus:1x1": ("torus", 0, True, 0, 1),
    "klein:3x3": ("klein bottle", 0, False, 0, 2),
    "hex-torus:4x4": ("torus", 0, True, 0, 1),
    "hex-plane:3x3": ("disk", 1, True, 1, 0),
    "hex-mobius:3x3": ("mobius strip", 0, False, 1, 1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_builtins(name: str) -> None:
    topo = classify(builtin_board(name))
    surface, chi, orientable, boundary, genus = EXPECTED[name]
    assert (topo.surface, topo.euler_characteristic, topo.orientable, topo.boundary_components, topo.genus) == (
        surface, chi, orientable, boundary, genus)
    assert topo.manifold and topo.singularities == ()


def test_counts_come_from_the_gluing_table() -> None:
    # a torus with tiles renamed and turned at random is still a torus: nothing is read from names
    b = builtin_board("torus:3x3")
    rng = random.Random(3)
    perm = list(range(9))
    rng.shuffle(perm)
    b2 = b.relabel(perm, [rng.randrange(8) for _ in range(9)], ids=[f"x{k}" for k in range(9)])
    topo = classify(b2)
    comp = topo.components[0]
    assert (comp.vertices, comp.edges, comp.faces) == (9, 18, 9)
    assert topo.surface == "torus"
    # the plane: 16 vertices, 24 edges, 9 faces
    comp = classify(builtin_board("plane:3x3")).components[0]
    assert (comp.vertices, comp.edges, comp.faces) == (16, 24, 9)


def test_cube_with_plus_domain_is_a_sphere() -> None:
    src = load_board("examples/boards/cube.toml")
    at = src.atlas()
    assert at.conflict is None
    topo = classify(at.board())
    assert topo.surface == "sphere" and topo.euler_characteristic == 2 and topo.manifold
    assert topo.components[0].vertices == 8


def test_cube_net_with_box_domain_is_refused() -> None:
    # the box domain forces flat vertices: the cube cannot be folded
    src = load_board("examples/boards/cube.toml", "box")
    assert src.atlas().conflict is not None


def _one_tile(glue: list[int]) -> Board:
    return Board(SQUARE, builtin_board("plane:1x1").domain, ("a",), (0,), (tuple(glue),))


def test_self_taped_sides_are_orbifold_points() -> None:
    # up taped to itself by the half turn: a cone point; by the flip across the horizontal axis: a mirror
    cone = _one_tile([2, -1, -1, -1])
    topo = classify(cone)
    assert not topo.manifold and [s.kind for s in topo.singularities] == ["cone"]
    assert topo.surface == "disk" and topo.euler_characteristic == 1
    mirror = _one_tile([6, -1, -1, -1])
    topo = classify(mirror)
    assert not topo.manifold and [s.kind for s in topo.singularities] == ["mirror"]
    assert topo.boundary_components == 1 and topo.surface == "disk"


def test_projective_plane_and_vertex_singularity() -> None:
    # one tile, each side taped to its opposite with a flip: the projective plane (2 vertices of 2 corners)
    grid = SQUARE
    up, right, down, left = 0, 1, 2, 3
    g = [0] * 4
    g[up] = side_orientation(grid, up, down, True)
    g[down] = grid.group.inv[g[up]]
    g[right] = side_orientation(grid, right, left, True)
    g[left] = grid.group.inv[g[right]]
    topo = classify(_one_tile(g))
    assert topo.surface == "projective plane" and topo.euler_characteristic == 1 and not topo.orientable
    assert [s.corners for s in topo.singularities if s.kind == "vertex"] == [2, 2]
    g[up] = g[down] = side_orientation(grid, up, down, False)
    assert classify(_one_tile(g)).surface == "klein bottle"
    # every side taped to itself by a half turn: four cone points on a sphere
    topo = classify(_one_tile([2, 2, 2, 2]))
    assert topo.surface == "sphere" and sum(s.kind == "cone" for s in topo.singularities) == 4


def test_surface_names() -> None:
    assert surface_name(True, 2, 0) == "orientable surface of genus 2"
    assert surface_name(False, 3, 1) == "non-orientable surface of genus 3 with 1 boundary component"


def test_disjoint_union() -> None:
    b = Board.empty(["a", "b"])
    topo = classify(b)
    assert topo.surface == "disjoint union of disk, disk" and topo.genus is None


def test_cli_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "klein:3x3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"tiles", "euler_characteristic", "orientable", "boundary_components", "genus", "surface",
                         "manifold", "singularities"}
    assert data["surface"] == "klein bottle"
    assert main(["classify", "nope:3x3"]) == 2


def test_hemicube_is_a_projective_plane() -> None:
    from pathlib import Path

    from tapology.model.boardfile import load_board
    from tapology.model.topology import classify

    path = Path(__file__).parent.parent / "examples" / "boards" / "hemicube.toml"
    at = load_board(str(path)).atlas()
    assert at.consistent
    info = classify(at.board())
    assert (info.surface, info.euler_characteristic, info.orientable, info.manifold) == ("projective plane", 1, False, True)
