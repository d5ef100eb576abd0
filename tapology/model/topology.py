"""Topology of a board from its gluing table (docs/conventions.md §3).

The board is a cell complex: faces = tiles, edges = glued side pairs plus boundary sides,
vertices = classes of tile corners under the gluings.  From it: Euler characteristic,
orientability, boundary components, genus and the surface's name, per connected component,
and the orbifold features (a side taped to itself, a vertex with other than the flat number
of corners where the chart domain forces flatness).

Conventions (documented in docs/topology.md):

- The surface reported is the *underlying* surface.  A side taped to itself by a reflection
  fixes it pointwise: it is a **mirror**, and the underlying surface has a boundary there.
  A side taped to itself by a half turn is folded at its midpoint: a **cone point** of order
  2; the underlying surface is a manifold there (the midpoint is one more vertex).
- ``genus`` is the orientable genus g (χ = 2 − 2g − b) of an orientable surface and the
  non-orientable genus k, the number of cross-caps (χ = 2 − k − b), of a non-orientable one.
- Base facts at non-unit cells (portals at a distance) are not part of the surface.

Cost O(n·|S|) with union-find.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tapology.errors import BoardError
from tapology.model.board import Board
from tapology.model.group import Cell
from tapology.model.unionfind import UnionFind


def corner_scale(board: Board) -> int:
    """k such that a tile's corners sit at (d + d')/k for adjacent directions d, d' (square 2, hex 3)."""
    m = len(board.grid.directions)
    if m == 4:
        return 2
    if m == 6:
        return 3
    raise BoardError(f"topology: grid {board.grid.name!r} with {m} sides is not a square or hex grid")


def _corner_vectors(board: Board) -> list[Cell]:
    """Corner c (between direction c and c+1), scaled by :func:`corner_scale`."""
    g = board.grid
    dirs = g.directions
    m = len(dirs)
    return [g.add(dirs[c], dirs[(c + 1) % m]) for c in range(m)]


def side_corner_map(board: Board, d: int, o: int) -> tuple[int, int]:
    """Where the two corners of side d go on the other tile when the side is glued with orientation o.

    Returns the corner indices (on the other tile) of corners ``d-1`` and ``d`` of this tile.
    A corner K of t sits at u's point o⁻¹(K − k·d) (the chart semantics of docs/conventions.md §2).
    """
    g = board.grid
    grp = g.group
    k = corner_scale(board)
    corners = _corner_vectors(board)
    index = {c: i for i, c in enumerate(corners)}
    m = len(g.directions)
    dv = g.directions[d]
    shift = tuple(k * x for x in dv)
    out = []
    for c in ((d - 1) % m, d):
        w = grp.act(grp.inv[o], g.translate(shift, corners[c]))
        if w not in index:
            raise BoardError(f"topology: orientation {o} does not carry the corners of side {g.direction_names[d]} to corners")
        out.append(index[w])
    return out[0], out[1]


@dataclass(frozen=True)
class Singularity:
    """An orbifold feature: a mirror side, a cone point on a side, or a vertex with an unusual corner count."""

    kind: str  # "mirror", "cone" or "vertex"
    places: tuple[tuple[int, int], ...]  # (tile, side) for sides, (tile, corner) for vertices
    corners: int = 0  # for vertices: how many tile corners meet there

    def to_json(self, board: Board) -> dict[str, Any]:
        """JSON form with tile ids and side / corner names."""
        names = board.grid.direction_names
        m = len(names)
        if self.kind == "vertex":
            return {"kind": "vertex", "corners": self.corners,
                    "at": [{"tile": board.tiles[t], "corner": f"{names[c]}-{names[(c + 1) % m]}"} for t, c in self.places]}
        t, d = self.places[0]
        out: dict[str, Any] = {"kind": self.kind, "tile": board.tiles[t], "side": names[d]}
        if self.kind == "cone":
            out["order"] = 2
        return out


@dataclass(frozen=True)
class Component:
    """One connected piece of a board: its cell counts and surface."""

    tiles: tuple[int, ...]
    vertices: int
    edges: int
    faces: int
    orientable: bool
    boundary_components: int

    @property
    def euler_characteristic(self) -> int:
        """V − E + F."""
        return self.vertices - self.edges + self.faces

    @property
    def genus(self) -> int:
        """Orientable genus g, or the number of cross-caps k when non-orientable."""
        chi, b = self.euler_characteristic, self.boundary_components
        return (2 - b - chi) // 2 if self.orientable else 2 - b - chi

    @property
    def surface(self) -> str:
        """The surface's name."""
        return surface_name(self.orientable, self.genus, self.boundary_components)


def surface_name(orientable: bool, genus: int, boundary: int) -> str:
    """Name of the compact surface with this orientability, genus and number of boundary circles."""
    known = {
        (True, 0, 0): "sphere", (True, 0, 1): "disk", (True, 0, 2): "annulus", (True, 1, 0): "torus",
        (False, 1, 0): "projective plane", (False, 1, 1): "mobius strip", (False, 2, 0): "klein bottle",
    }
    if (orientable, genus, boundary) in known:
        return known[(orientable, genus, boundary)]
    if genus < 0:
        return "not a surface"
    kind = f"orientable surface of genus {genus}" if orientable else f"non-orientable surface of genus {genus}"
    if boundary:
        kind += f" with {boundary} boundary component{'s' if boundary > 1 else ''}"
    return kind


@dataclass(frozen=True)
class Topology:
    """The classification of a board: per-component surfaces and orbifold singularities."""

    tiles: int
    components: tuple[Component, ...]
    singularities: tuple[Singularity, ...] = field(default=())

    @property
    def euler_characteristic(self) -> int:
        """Sum over components."""
        return sum(c.euler_characteristic for c in self.components)

    @property
    def orientable(self) -> bool:
        """Every component orientable."""
        return all(c.orientable for c in self.components)

    @property
    def boundary_components(self) -> int:
        """Boundary circles, all components together."""
        return sum(c.boundary_components for c in self.components)

    @property
    def genus(self) -> int | None:
        """The genus of a connected board (None when there are several components)."""
        return self.components[0].genus if len(self.components) == 1 else None

    @property
    def surface(self) -> str:
        """The surface's name; several components are named as a disjoint union."""
        if len(self.components) == 1:
            return self.components[0].surface
        return "disjoint union of " + ", ".join(sorted(c.surface for c in self.components))

    @property
    def manifold(self) -> bool:
        """False when the board has orbifold singularities."""
        return not self.singularities

    @property
    def closed(self) -> bool:
        """No boundary and no mirror."""
        return self.boundary_components == 0

    def to_json(self, board: Board) -> dict[str, Any]:
        """The classify command's JSON."""
        return {
            "tiles": self.tiles,
            "euler_characteristic": self.euler_characteristic,
            "orientable": self.orientable,
            "boundary_components": self.boundary_components,
            "genus": self.genus,
            "surface": self.surface,
            "manifold": self.manifold,
            "singularities": [s.to_json(board) for s in self.singularities],
            "components": [
                {"tiles": [board.tiles[t] for t in c.tiles], "vertices": c.vertices, "edges": c.edges, "faces": c.faces,
                 "euler_characteristic": c.euler_characteristic, "orientable": c.orientable,
                 "boundary_components": c.boundary_components, "genus": c.genus, "surface": c.surface}
                for c in self.components
            ],
        }


def flatness_enforced(board: Board) -> bool:
    """True when the chart domain forces every interior vertex to be flat (square box ⊇ 3×3; any hex domain)."""
    g = board.grid
    dirs = g.directions
    if len(dirs) == 6:
        return True
    m = len(dirs)
    return all(g.add(dirs[c], dirs[(c + 1) % m]) in board.domain.index for c in range(m))


def _orientability(adjacency: list[list[tuple[int, int]]], tiles_uf: UnionFind) -> dict[int, bool]:
    """Orientability per component (keyed by its root): 2-colour the tiles by frame handedness across each gluing
    (``adjacency[t]``: (neighbour, 1 if the gluing reflects))."""
    n = len(adjacency)
    sign = [0] * n
    orient_ok: dict[int, bool] = {}
    seen = [False] * n
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        stack = [s]
        ok = True
        while stack:
            t = stack.pop()
            for u, refl in adjacency[t]:
                want = sign[t] ^ refl
                if not seen[u]:
                    seen[u] = True
                    sign[u] = want
                    stack.append(u)
                elif sign[u] != want:
                    ok = False
        orient_ok[tiles_uf.find(s)] = orient_ok.get(tiles_uf.find(s), True) and ok
    return orient_ok


def _edges(board: Board, members: list[int]) -> int:
    """The edges of a component's cell complex: each glued side pair once, each open or self-glued side once."""
    grid, h, grp = board.grid, board.order, board.grid.group
    edges = 0
    for t in members:
        for d in range(len(grid.directions)):
            code = board.glue[t][d]
            if code < 0:
                edges += 1
                continue
            u, o = divmod(code, h)
            e = grid.dir_perm[grp.inv[o]][grid.opposite[d]]
            if (u, e) == (t, d) or (u, e) > (t, d):
                edges += 1
    return edges


def classify(board: Board) -> Topology:
    """Classify a board's surface from its gluing table.  Cost O(n·|S|)."""
    n = len(board.tiles)
    grid = board.grid
    m = len(grid.directions)
    h = board.order
    grp = grid.group
    flat = 4 if m == 4 else 3
    corners = UnionFind(n * m)
    tiles_uf = UnionFind(n)
    boundary_sides: list[tuple[int, int]] = []
    cones: list[tuple[int, int]] = []
    mirrors: list[tuple[int, int]] = []
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for t in range(n):
        for d in range(m):
            code = board.glue[t][d]
            if code < 0:
                boundary_sides.append((t, d))
                continue
            u, o = divmod(code, h)
            e = grid.dir_perm[grp.inv[o]][grid.opposite[d]]
            back = board.glue[u][e]
            if back != t * h + grp.inv[o]:
                raise BoardError(
                    f"topology: tile {board.tiles[t]!r} side {grid.direction_names[d]} is taped to tile {board.tiles[u]!r} "
                    f"side {grid.direction_names[e]}, but not the other way round"
                )
            a, b = side_corner_map(board, d, o)
            if u == t and e == d:
                if a == (d - 1) % m:  # each corner to itself: a mirror, a boundary of the underlying surface
                    mirrors.append((t, d))
                    boundary_sides.append((t, d))
                else:  # the two corners swap: folded at the midpoint, a cone point of order 2
                    cones.append((t, d))
                    corners.union(t * m + (d - 1) % m, t * m + d)
                continue
            if (u, e) < (t, d):
                continue  # counted from the other side
            corners.union(t * m + (d - 1) % m, u * m + a)
            corners.union(t * m + d, u * m + b)
            tiles_uf.union(t, u)
            refl = 1 if grp.is_reflection(o) else 0
            adjacency[t].append((u, refl))
            adjacency[u].append((t, refl))
    orient_ok = _orientability(adjacency, tiles_uf)
    # vertices, per component
    vclass: dict[int, list[tuple[int, int]]] = {}
    for t in range(n):
        for c in range(m):
            vclass.setdefault(corners.find(t * m + c), []).append((t, c))
    boundary_vertices = set()
    for t, d in boundary_sides:
        boundary_vertices.add(corners.find(t * m + (d - 1) % m))
        boundary_vertices.add(corners.find(t * m + d))
    # boundary circles: boundary sides joined at shared vertices
    bside_uf = UnionFind(len(boundary_sides))
    by_vertex: dict[int, int] = {}
    for k, (t, d) in enumerate(boundary_sides):
        for c in ((d - 1) % m, d):
            v = corners.find(t * m + c)
            if v in by_vertex:
                bside_uf.union(k, by_vertex[v])
            else:
                by_vertex[v] = k
    comp_tiles: dict[int, list[int]] = {}
    for t in range(n):
        comp_tiles.setdefault(tiles_uf.find(t), []).append(t)
    comps = []
    for root, members in sorted(comp_tiles.items(), key=lambda kv: kv[1][0]):
        mem = set(members)
        verts = {v for v, cs in vclass.items() if cs[0][0] in mem}
        edges = _edges(board, members)
        n_cones = sum(1 for t, _ in cones if t in mem)
        circles = {bside_uf.find(k) for k, (t, _) in enumerate(boundary_sides) if t in mem}
        comps.append(Component(tuple(members), len(verts) + n_cones, edges, len(members), orient_ok[root], len(circles)))
    sing: list[Singularity] = [Singularity("mirror", (p,)) for p in mirrors] + [Singularity("cone", (p,)) for p in cones]
    if flatness_enforced(board):
        for v, cs in sorted(vclass.items(), key=lambda kv: kv[1][0]):
            if v not in boundary_vertices and len(cs) != flat:
                sing.append(Singularity("vertex", tuple(cs), len(cs)))
    return Topology(n, tuple(comps), tuple(sing))
