"""Reference grids: a group of cells with origin, translation, unit sphere, orientations, order.

The built-in grids are ``square`` (Z², 4 sides, the 8 symmetries of seed 000),
``square-rotations`` (the 4 rotations only), ``hex`` (axial coordinates, 6 sides, the 12
symmetries) and ``hex-rotations``.  :func:`custom_grid` builds a user's grid and checks the
group laws on a ball of cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tapology.errors import GridError
from tapology.model.group import HEX_C6, HEX_D6, SQUARE_C4, SQUARE_D4, Cell, OrientationGroup
from tapology.model.hashing import HashedOnce


def _add2(a: Cell, b: Cell) -> Cell:
    return (a[0] + b[0], a[1] + b[1])


def _translate2(a: Cell, b: Cell) -> Cell:
    return (b[0] - a[0], b[1] - a[1])


def _neg2(a: Cell) -> Cell:
    return (-a[0], -a[1])


def _topdown(c: Cell) -> tuple[int, ...]:
    return (-c[1], c[0])


@dataclass(frozen=True, eq=False)
class ReferenceGrid(HashedOnce):
    """A reference grid (docs/conventions.md §1).  Directions are numbered by their place in ``directions``.

    ``translate(a, b)`` is b − a; ``add`` and ``neg`` are derived from it.  The orientation
    group must permute the directions; ``dir_perm[g][i]`` is the index of ``g(direction i)``.
    """

    name: str
    origin: Cell
    directions: tuple[Cell, ...]
    direction_names: tuple[str, ...]
    group: OrientationGroup
    translate: Callable[[Cell, Cell], Cell] = field(repr=False)
    add: Callable[[Cell, Cell], Cell] = field(repr=False)
    neg: Callable[[Cell], Cell] = field(repr=False)
    order_key: Callable[[Cell], tuple[int, ...]] = field(repr=False)
    aliases: tuple[tuple[str, int], ...] = ()
    spec: tuple = ()  # how a user's linear grid is written in a board file (empty for built-ins)
    kind: str = "square"  # "square" (plain rows) or "hex" (offset rows): how layouts and pictures place cells
    dir_perm: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    opposite: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        idx = {d: i for i, d in enumerate(self.directions)}
        perm = []
        for g in range(self.group.order):
            row = []
            for d in self.directions:
                img = self.group.act(g, d)
                if img not in idx:
                    raise GridError(f"grid {self.name!r}: orientation {g} moves direction {d} to {img}, off the unit sphere")
                row.append(idx[img])
            perm.append(tuple(row))
        opp = []
        for d in self.directions:
            nd = self.neg(d)
            if nd not in idx:
                raise GridError(f"grid {self.name!r}: unit sphere not closed under negation: -{d} = {nd} is missing")
            opp.append(idx[nd])
        object.__setattr__(self, "dir_perm", tuple(perm))
        object.__setattr__(self, "opposite", tuple(opp))
        if len(self.direction_names) != len(self.directions):
            raise GridError(f"grid {self.name!r}: {len(self.direction_names)} names for {len(self.directions)} directions")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReferenceGrid) and self.name == other.name and self.group == other.group

    __hash__ = HashedOnce.__hash__  # a class defining __eq__ must name its hash (else None)

    def _hash_value(self) -> int:
        return hash((self.name, self.group))

    @property
    def is_hex(self) -> bool:
        """True for hex grids (layouts in offset rows, hexagon pictures)."""
        return self.kind == "hex"

    def layout_cell(self, row: int, col: int) -> Cell:
        """The plane cell drawn at a layout's row (from the top) and column; on hexes odd rows sit half a cell right."""
        if self.kind == "hex":
            return (col + (row + 1) // 2, -row)
        return (col, -row)

    def layout_row_col(self, cell: Cell) -> tuple[int, int]:
        """The layout (row from the top, column) of a plane cell; inverse of :meth:`layout_cell`."""
        row = -cell[1]
        return (row, cell[0] - (row + 1) // 2) if self.kind == "hex" else (row, cell[0])

    @cached_property
    def direction_index(self) -> dict[Cell, int]:
        """Direction cell -> its number."""
        return {d: i for i, d in enumerate(self.directions)}

    @cached_property
    def side_index(self) -> dict[str, int]:
        """Side name (and aliases) -> direction number."""
        out = {n: i for i, n in enumerate(self.direction_names)}
        out.update(dict(self.aliases))
        return out

    def side(self, name: str) -> int:
        """The direction number of a side name; :class:`GridError` if unknown."""
        try:
            return self.side_index[name]
        except KeyError:
            raise GridError(
                f"unknown side {name!r} on the {self.name} grid (sides: {', '.join(self.direction_names)})"
            ) from None

    def ball(self, radius: int) -> list[Cell]:
        """Cells within ``radius`` steps of the origin, in the grid's order.  Cost O(|ball|·|S|)."""
        seen = {self.origin}
        frontier = [self.origin]
        for _ in range(radius):
            nxt = []
            for c in frontier:
                for d in self.directions:
                    e = self.add(c, d)
                    if e not in seen:
                        seen.add(e)
                        nxt.append(e)
            frontier = nxt
        return sorted(seen, key=self.order_key)

    def distance(self, cell: Cell, limit: int = 64) -> int:
        """Step distance from the origin (BFS; :class:`GridError` past ``limit``)."""
        if cell == self.origin:
            return 0
        seen = {self.origin}
        frontier = [self.origin]
        for r in range(1, limit + 1):
            nxt = []
            for c in frontier:
                for d in self.directions:
                    e = self.add(c, d)
                    if e == cell:
                        return r
                    if e not in seen:
                        seen.add(e)
                        nxt.append(e)
            frontier = nxt
        raise GridError(f"cell {cell} is more than {limit} steps from the origin on the {self.name} grid")

    def check_laws(self, radius: int = 3) -> None:
        """Check the group laws on the ball of ``radius``; :class:`GridError` names the law that fails."""
        ball = self.ball(radius)
        o = self.origin
        for a in ball:
            if self.translate(a, a) != o:
                raise GridError(f"grid {self.name!r}: translate({a}, {a}) should be the origin, got {self.translate(a, a)}")
            if self.neg(self.neg(a)) != a:
                raise GridError(f"grid {self.name!r}: negation law fails: -(-{a}) = {self.neg(self.neg(a))}")
            if self.add(o, a) != a or self.add(a, o) != a:
                raise GridError(f"grid {self.name!r}: identity law fails at {a}")
            if self.add(a, self.neg(a)) != o:
                raise GridError(f"grid {self.name!r}: inverse law fails: {a} + (-{a}) = {self.add(a, self.neg(a))}")
            for b in ball:
                for c in ball[:: max(1, len(ball) // 7)]:
                    if self.add(self.add(a, b), c) != self.add(a, self.add(b, c)):
                        raise GridError(f"grid {self.name!r}: associativity fails for {a}, {b}, {c}")
                for g in range(self.group.order):
                    if self.group.act(g, self.add(a, b)) != self.add(self.group.act(g, a), self.group.act(g, b)):
                        raise GridError(
                            f"grid {self.name!r}: orientation {g} does not respect translation at {a} + {b}"
                        )
        keys = [self.order_key(c) for c in ball]
        if len(set(keys)) != len(keys):
            raise GridError(f"grid {self.name!r}: the order does not separate the cells of the ball")
        # the unit sphere generates: every cell of a larger ball is reached by steps (distance is finite)
        for c in ball:
            self.distance(c, limit=4 * radius + 4)


def _kind_of(directions: Sequence[Cell]) -> str:
    """A grid with six directions is drawn as hexes (offset rows), any other as squares (plain rows)."""
    return "hex" if len(directions) == 6 else "square"


def _planar(name: str, group: OrientationGroup, directions: tuple[Cell, ...], names: tuple[str, ...],
            aliases: tuple[tuple[str, int], ...] = (), spec: tuple = ()) -> ReferenceGrid:
    """A grid on Z² (integer pairs, added coordinate-wise, ordered top-down); six directions make it a hex grid."""
    return ReferenceGrid(name, (0, 0), directions, names, group, _translate2, _add2, _neg2, _topdown, aliases, spec,
                         kind=_kind_of(directions))


def _square(name: str, group: OrientationGroup) -> ReferenceGrid:
    return _planar(name, group, ((0, 1), (1, 0), (0, -1), (-1, 0)), ("up", "right", "down", "left"),
                   (("top", 0), ("bottom", 2), ("u", 0), ("r", 1), ("d", 2), ("l", 3)))


def _hex(name: str, group: OrientationGroup) -> ReferenceGrid:
    return _planar(name, group, ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)), ("e", "ne", "nw", "w", "sw", "se"),
                   (("east", 0), ("north-east", 1), ("north-west", 2), ("west", 3), ("south-west", 4),
                    ("south-east", 5), ("right", 0), ("left", 3)))


SQUARE = _square("square", SQUARE_D4)
SQUARE_ROTATIONS = _square("square-rotations", SQUARE_C4)
HEX = _hex("hex", HEX_D6)
HEX_ROTATIONS = _hex("hex-rotations", HEX_C6)

GRIDS: dict[str, ReferenceGrid] = {g.name: g for g in (SQUARE, SQUARE_ROTATIONS, HEX, HEX_ROTATIONS)}


def layout_position(grid: ReferenceGrid, row: int, col: int) -> Cell:
    """``grid.layout_cell(row, col)``, for callers that take the grid as an argument."""
    return grid.layout_cell(row, col)


def get_grid(name: str) -> ReferenceGrid:
    """A built-in grid by name; :class:`GridError` naming the known ones otherwise."""
    try:
        return GRIDS[name]
    except KeyError:
        raise GridError(f"unknown grid {name!r} (known: {', '.join(GRIDS)})") from None


def linear_grid(
    name: str,
    directions: Sequence[Sequence[int]],
    direction_names: Sequence[str],
    matrices: Sequence[Sequence[Sequence[int]]],
    check_radius: int = 3,
) -> ReferenceGrid:
    """A user's grid on Z² with the given unit sphere and orientations as integer 2×2 matrices
    (row-major, acting on column vectors; the identity first); laws checked on a ball."""
    if name in GRIDS:
        raise GridError(f"grid name {name!r} is taken by a built-in grid")
    def whole(v: object) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > 64:
            raise ValueError(v)  # floats (1.5, inf, nan) and huge numbers are no grid's coordinates
        return v

    try:
        dirs = tuple((whole(d[0]), whole(d[1])) for d in directions)
        mats = tuple(((whole(m[0][0]), whole(m[0][1])), (whole(m[1][0]), whole(m[1][1]))) for m in matrices)
    except (TypeError, ValueError, IndexError, KeyError):
        raise GridError(f"grid {name!r}: directions are [x, y] pairs and orientations 2×2 integer matrices "
                        "(whole numbers of at most 64)") from None
    if any(len(d) != 2 for d in directions):
        raise GridError(f"grid {name!r}: every direction needs two coordinates")
    if not dirs or not mats:
        raise GridError(f"grid {name!r}: needs at least one direction and one orientation (the identity first)")
    if len(direction_names) != len(dirs):
        raise GridError(f"grid {name!r}: {len(dirs)} directions but {len(direction_names)} names")
    group = OrientationGroup.from_matrices(f"{name}-orientations", mats)
    spec = (("name", name), ("directions", tuple(dirs)), ("names", tuple(direction_names)), ("orientations", mats))
    grid = _planar(name, group, dirs, tuple(direction_names), spec=spec)
    grid.check_laws(check_radius)
    return grid


def grid_from_spec(spec: object) -> ReferenceGrid:
    """A grid from a board file: a built-in name, or a table {name, directions, names, orientations}."""
    if isinstance(spec, str):
        return get_grid(spec)
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - {"name", "directions", "names", "orientations"})
        if unknown:
            raise GridError(f"grid table: unknown key {unknown[0]!r} (name, directions, names, orientations)")
        try:
            return linear_grid(str(spec["name"]), spec["directions"], [str(x) for x in spec["names"]],
                               spec["orientations"])
        except KeyError as exc:
            raise GridError(f"grid table: missing key {exc.args[0]!r}") from None
    raise GridError(f"grid must be a name or a table, got {spec!r}")


def custom_grid(
    name: str,
    origin: Cell,
    translate: Callable[[Cell, Cell], Cell],
    directions: Sequence[Cell],
    direction_names: Sequence[str],
    orientations: Sequence[Callable[[Cell], Cell]],
    order_key: Callable[[Cell], tuple[int, ...]] | None = None,
    check_radius: int = 3,
) -> ReferenceGrid:
    """A user's grid from its algebraic data; laws checked on a ball (:class:`GridError` names the law)."""
    origin = tuple(origin)

    def neg(a: Cell) -> Cell:
        return translate(a, origin)

    def add(a: Cell, b: Cell) -> Cell:
        return translate(neg(a), b)

    probe = tuple(sorted({add(add(a, b), c) for a in directions for b in directions for c in [*directions, origin]}))
    group = OrientationGroup(f"{name}-orientations", tuple(orientations), probe)
    grid = ReferenceGrid(
        name,
        origin,
        tuple(tuple(d) for d in directions),
        tuple(direction_names),
        group,
        translate,
        add,
        neg,
        order_key or (lambda c: tuple(c)),
        kind=_kind_of(directions),
    )
    grid.check_laws(check_radius)
    return grid
