"""Boards: tiles with states, glued by a gluing table, over a chart domain (docs/conventions.md §2).

A :class:`Board` is a frozen value.  Its stored form is the gluing table —
``glue[t][d]`` is the code ``u * |H| + o`` of the tile u (seen with orientation o) across
side d of tile t, or -1 for the board's edge — plus any base facts at cells that are not
unit directions (corner pastes, portals at a distance).  Charts are the closure of these
facts (see :mod:`tapology.model.atlas`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tapology.errors import BoardError
from tapology.limits import check
from tapology.model.domain import ChartDomain, domain_from_spec
from tapology.model.grid import SQUARE, ReferenceGrid
from tapology.model.group import Cell
from tapology.model.hashing import HashedOnce

TILE_ID = re.compile(r"^[A-Za-z0-9_\-]+$")


@dataclass(frozen=True, order=True)
class Fact:
    """χ_tile(cell) = (other, orientation): ``other``'s frame, turned by ``orientation``, sits at ``cell``."""

    tile: int
    cell: Cell
    other: int
    orientation: int


@dataclass(frozen=True)
class Taping:
    """A fact stated by a user, with the label it is known by (its TAPE text)."""

    fact: Fact
    label: str


def check_tile_id(tid: str, where: str) -> str:
    """A tile id as given, or :class:`BoardError` naming it and ``where``."""
    if not isinstance(tid, str) or not TILE_ID.match(tid):
        raise BoardError(f"{where}: bad tile id {tid!r} (letters, digits, '_' and '-' only)")
    return tid


@dataclass(frozen=True)
class Board(HashedOnce):
    """Tiles, states and gluing table over a chart domain; equal boards have equal gluing facts."""

    grid: ReferenceGrid
    domain: ChartDomain
    tiles: tuple[str, ...]
    states: tuple[int, ...]
    glue: tuple[tuple[int, ...], ...]
    extra: tuple[Fact, ...] = ()
    placement: tuple[tuple[Cell, int] | None, ...] | None = field(default=None, compare=False, hash=False)

    __hash__ = HashedOnce.__hash__  # kept: the dataclass would write the hash of the fields, computed every call

    def _hash_value(self) -> int:
        return hash((self.grid, self.domain, self.tiles, self.states, self.glue, self.extra))

    def __post_init__(self) -> None:
        n = len(self.tiles)
        h = self.grid.group.order
        check("tiles", n, "board: tiles", BoardError)
        check("chart_entries", n * len(self.domain.cells),
              f"board of {n} tiles with a chart domain of {len(self.domain.cells)} cells: chart entries", BoardError)
        if len(set(self.tiles)) != n:
            dup = sorted({t for t in self.tiles if self.tiles.count(t) > 1})
            raise BoardError(f"tile id {dup[0]!r} is used twice")
        if len(self.states) != n or len(self.glue) != n:
            raise BoardError("board: tiles, states and gluing table differ in length")
        ns = len(self.grid.directions)
        if n and (set(map(len, self.glue)) != {ns} or min(map(min, self.glue)) < -1 or max(map(max, self.glue)) >= n * h):
            for t, row in enumerate(self.glue):
                if len(row) != ns:
                    raise BoardError(f"tile {self.tiles[t]!r}: gluing row has {len(row)} sides, expected {ns}")
                for code in row:
                    if code != -1 and not (0 <= code < n * h):
                        raise BoardError(f"tile {self.tiles[t]!r}: gluing code {code} out of range")
        if self.domain.grid != self.grid:
            raise BoardError("board: the chart domain is on another grid")
        if any(c < 0 for c in self.domain.unit_cells):
            raise BoardError(f"domain {self.domain.name!r} must contain every unit direction")

    # ---- construction -------------------------------------------------------------
    @classmethod
    def empty(
        cls,
        tiles: Sequence[str],
        grid: ReferenceGrid = SQUARE,
        domain: ChartDomain | str | None = None,
        states: Sequence[int] | None = None,
    ) -> Board:
        """Loose tiles with nothing taped."""
        dom = domain if isinstance(domain, ChartDomain) else domain_from_spec(grid, domain)
        for t in tiles:
            check_tile_id(t, "board")
        n = len(tiles)
        return cls(grid, dom, tuple(tiles), tuple(states or [0] * n),
                   tuple(tuple([-1] * len(grid.directions)) for _ in range(n)))

    # ---- lookups ------------------------------------------------------------------
    @property
    def order(self) -> int:
        """Size of the orientation group (codes are ``tile * order + orientation``)."""
        return self.grid.group.order

    @cached_property
    def tile_index(self) -> dict[str, int]:
        """Tile id -> index."""
        return {t: i for i, t in enumerate(self.tiles)}

    def tile(self, tid: str | int, where: str = "board") -> int:
        """Index of a tile id; :class:`BoardError` naming the id and ``where`` if unknown."""
        key = str(tid)
        try:
            return self.tile_index[key]
        except KeyError:
            raise BoardError(f"{where}: unknown tile {key!r}") from None

    def neighbour(self, t: int, d: int) -> tuple[int, int] | None:
        """(tile, orientation) across side d of tile t, or None at the edge."""
        code = self.glue[t][d]
        return None if code < 0 else divmod(code, self.order)

    def base_facts(self) -> list[Fact]:
        """Every stored fact: each glued side (both ways) and the extra facts."""
        out = []
        dirs = self.grid.directions
        for t, row in enumerate(self.glue):
            for d, code in enumerate(row):
                if code >= 0:
                    u, o = divmod(code, self.order)
                    out.append(Fact(t, dirs[d], u, o))
        out.extend(self.extra)
        return out

    def with_states(self, states: Iterable[int]) -> Board:
        """The same board with other tile states."""
        st = tuple(states)
        if len(st) != len(self.tiles):
            raise BoardError(f"{len(st)} states for {len(self.tiles)} tiles")
        return Board(self.grid, self.domain, self.tiles, st, self.glue, self.extra, self.placement)

    def relabel(self, perm: Sequence[int], turn: Sequence[int] | None = None, ids: Sequence[str] | None = None) -> Board:
        """The isomorphic board with tile t renamed ``perm[t]`` and re-oriented by ``turn[t]``.

        Re-orienting tile t by g means its new frame is its old one turned by g: a fact
        χ_t(c) = (u, o) becomes χ'_t(g⁻¹(c)) = (u, g_u → o → g_t⁻¹) in the new frames.
        Cost O(n·|S|).
        """
        n = len(self.tiles)
        grp = self.grid.group
        h = grp.order
        turn = list(turn) if turn is not None else [0] * n
        if sorted(perm) != list(range(n)):
            raise BoardError("relabel: not a permutation of the tiles")
        new_glue: list[list[int]] = [[-1] * len(self.grid.directions) for _ in range(n)]
        extras = []
        for f in self.base_facts():
            g_t, g_u = turn[f.tile], turn[f.other]
            cell = grp.act(grp.inv[g_t], f.cell)
            o = grp.mul[grp.mul[g_u][f.orientation]][grp.inv[g_t]]
            nf = Fact(perm[f.tile], cell, perm[f.other], o)
            d = self.grid.direction_index.get(cell)
            if d is not None and f not in self.extra:
                new_glue[nf.tile][d] = nf.other * h + o
            else:
                extras.append(nf)
        names = list(ids) if ids is not None else [""] * n
        if ids is None:
            for t in range(n):
                names[perm[t]] = self.tiles[t]
        states = [0] * n
        for t in range(n):
            states[perm[t]] = self.states[t]
        return Board(self.grid, self.domain, tuple(names), tuple(states),
                     tuple(tuple(r) for r in new_glue), tuple(sorted(extras)))
