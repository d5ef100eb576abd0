"""Chart domains: the finite set of cells every chart covers, with precomputed index tables."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from tapology.errors import DomainError
from tapology.limits import check, limit
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.model.hashing import HashedOnce


@dataclass(frozen=True, eq=False)
class ChartDomain(HashedOnce):
    """A finite set of cells containing the origin, closed under the grid's orientations.

    Cells are numbered with the origin as 0, then in the grid's order.  Tables (built once,
    cost O(|D|²·|H|)): ``step[i][d]`` is the index of cell i + direction d (or -1),
    ``trans[i][o][j]`` the index of o⁻¹(cell j − cell i) (or -1): where cell j of a chart
    lands in the chart recentred on the tile at cell i seen with orientation o.
    """

    grid: ReferenceGrid
    cells: tuple[Cell, ...]
    name: str = "custom"
    index: dict[Cell, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        g = self.grid
        check("domain_cells", len(self.cells), f"chart domain {self.name!r}: cells", DomainError)
        n = len(self.cells)  # the transition table (trans) has cells x orientations x cells entries
        check("domain_table", n * n * g.group.order, f"chart domain {self.name!r}: {n} cells x {g.group.order} "
              f"orientations x {n} cells of its transition table", DomainError)
        if g.origin not in self.cells:
            raise DomainError(f"domain {self.name!r} does not contain the origin {g.origin}")
        rest = sorted(set(self.cells) - {g.origin}, key=g.order_key)
        cells = (g.origin, *rest)
        if len(cells) != len(self.cells):
            raise DomainError(f"domain {self.name!r} lists a cell twice")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "index", {c: i for i, c in enumerate(cells)})
        for c in cells:
            for o in range(g.group.order):
                img = g.group.act(o, c)
                if img not in self.index:
                    raise DomainError(
                        f"domain {self.name!r} is not closed under the orientations: {o} maps {c} to {img}, outside"
                    )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChartDomain) and self.grid == other.grid and set(self.cells) == set(other.cells)

    __hash__ = HashedOnce.__hash__  # a class defining __eq__ must name its hash (else None)

    def _hash_value(self) -> int:
        return hash((self.grid, frozenset(self.cells)))

    def __len__(self) -> int:
        return len(self.cells)

    @cached_property
    def step(self) -> tuple[tuple[int, ...], ...]:
        """``step[i][d]``: index of cell i + direction d, or -1 outside."""
        g = self.grid
        return tuple(tuple(self.index.get(g.add(c, d), -1) for d in g.directions) for c in self.cells)

    @cached_property
    def act(self) -> tuple[tuple[int, ...], ...]:
        """``act[o][i]``: index of o(cell i)."""
        g = self.grid
        return tuple(tuple(self.index[g.group.act(o, c)] for c in self.cells) for o in range(g.group.order))

    @cached_property
    def trans(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``trans[i][o][j]``: index of o⁻¹(cell j − cell i), or -1 where that is outside."""
        g = self.grid
        grp = g.group
        out = []
        for ci in self.cells:
            per_o = []
            for o in range(grp.order):
                oi = grp.inv[o]
                per_o.append(tuple(self.index.get(grp.act(oi, g.translate(ci, pj)), -1) for pj in self.cells))
            out.append(tuple(per_o))
        return tuple(out)

    @cached_property
    def unit_cells(self) -> tuple[int, ...]:
        """``unit_cells[d]``: index of direction d's cell, or -1 if the domain lacks it."""
        return tuple(self.index.get(d, -1) for d in self.grid.directions)

    @cached_property
    def direction_of(self) -> tuple[int, ...]:
        """``direction_of[i]``: the direction number of cell i, or -1 if it is not a unit cell."""
        out = [-1] * len(self.cells)
        for d, i in enumerate(self.unit_cells):
            if i >= 0:
                out[i] = d
        return tuple(out)

    @cached_property
    def walk(self) -> tuple[tuple[int, int, int], ...]:
        """A BFS tree from the origin inside the domain: ``(cell, parent, direction)`` in BFS order."""
        out = []
        seen = {0}
        frontier = [0]
        while frontier:
            nxt = []
            for p in frontier:
                for d, q in enumerate(self.step[p]):
                    if q >= 0 and q not in seen:
                        seen.add(q)
                        out.append((q, p, d))
                        nxt.append(q)
            frontier = nxt
        return tuple(out)

    @cached_property
    def is_box(self) -> bool:
        """True for the square grid's 3×3 box (the default domain)."""
        return self.grid.directions == ((0, 1), (1, 0), (0, -1), (-1, 0)) and set(self.cells) == {
            (x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)
        }

    def spec(self) -> str | list[list[int]]:
        """The domain as written in a board file: a name, or the list of cells."""
        if self.name != "custom" and _NAMED.match(self.name) and domain_from_spec(self.grid, self.name) == self:
            return self.name
        return [list(c) for c in self.cells]


_NAMED = re.compile(r"^(box|plus|ball)(?::(\d+))?$")


def domain_from_spec(grid: ReferenceGrid, spec: str | Iterable[Iterable[int]] | None) -> ChartDomain:
    """A domain from its board-file form: ``box`` (3×3 on squares, radius-1 ball on hexes),
    ``box:R`` ((2R+1)² on squares), ``plus`` (radius-1 ball), ``ball:R``, or a list of cells."""
    if spec is None:
        spec = "box"
    if isinstance(spec, str):
        m = _NAMED.match(spec.strip())
        if not m:
            raise DomainError(f"unknown domain {spec!r} (use box, box:R, plus, ball:R or a list of cells)")
        kind, r = m.group(1), int((m.group(2) or "1")[:10])  # more digits are out of range anyway
        if r < 1 or r > limit("coordinate"):
            raise DomainError(f"domain {spec!r}: radius must be 1..{limit('coordinate')} (the limit coordinate; "
                              "raise it with --limit coordinate=N)")
        square = grid.directions == ((0, 1), (1, 0), (0, -1), (-1, 0))
        if kind == "box" and square:
            cells: list[Cell] | tuple[Cell, ...] = [(x, y) for x in range(-r, r + 1) for y in range(-r, r + 1)]
        elif kind == "plus" or kind == "ball" or kind == "box":
            cells = grid.ball(r)
        else:  # pragma: no cover - regex admits nothing else
            raise DomainError(f"unknown domain {spec!r}")
        return ChartDomain(grid, tuple(cells), spec.strip())
    try:
        cells = tuple(tuple(int(v) for v in c) for c in spec)
    except (TypeError, ValueError):
        raise DomainError(f"domain {spec!r}: expected a name or a list of cells like [[0, 0], [1, 0]]") from None
    for c in cells:
        if len(c) != len(grid.origin):
            raise DomainError(f"domain cell {list(c)} has {len(c)} coordinates, the {grid.name} grid has {len(grid.origin)}")
    return ChartDomain(grid, cells)
