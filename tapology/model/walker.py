"""Walkers: a position (tile, frame) moved by named steps, turns and mirrorings (seed 004).

A walker's frame f is an element of the orientation group: the walker's own vector v is
the tile's vector f(v).  A step by v goes to chart cell f(v) of its tile; landing on
χ_t(f(v)) = (u, o) gives frame ``f -> o⁻¹`` (see :mod:`tapology.model.walk`).

Turning by g and mirroring act in the walker's own frame first: the new frame is
``g -> f``.  This is seed 004's ``rotateBy`` and ``reflect``: the seed's position
(rotatedBy R, mirrored m) is the frame "d ↦ m·d + R" on its eight direction numbers,
so a rotation is added with the sign m (it turns the other way in the tile's frame when
the walker is mirrored), and reflecting negates the walker's own directions before
R is added.  With squares, ``turn-right`` is element 1 (a quarter turn clockwise),
``turn-left`` 3, ``turn-around`` 2 and ``mirror`` 4 (left and right swap; up stays up).
On hexes ``turn-right`` is a sixth turn clockwise (1), ``turn-left`` 5, ``turn-around`` 3
and ``mirror`` 6.

Named steps: squares ``up``, ``right``, ``down``, ``left`` and the diagonals ``up-right``,
``down-right``, ``down-left``, ``up-left`` (a diagonal is one chart cell, so the chart domain
must contain it: the default 3×3 box does); hexes ``e``, ``ne``, ``nw``, ``w``, ``sw``, ``se``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tapology.errors import WalkError
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.model.walk import step

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas



SQUARE_STEPS: dict[str, Cell] = {
    "up": (0, 1), "right": (1, 0), "down": (0, -1), "left": (-1, 0),
    "up-right": (1, 1), "down-right": (1, -1), "down-left": (-1, -1), "up-left": (-1, 1),
}
SQUARE_ALIASES: dict[str, str] = {
    "u": "up", "r": "right", "d": "down", "l": "left", "n": "up", "e": "right", "s": "down", "w": "left",
    "ur": "up-right", "dr": "down-right", "dl": "down-left", "ul": "up-left",
    "ne": "up-right", "se": "down-right", "sw": "down-left", "nw": "up-left",
    "right-up": "up-right", "right-down": "down-right", "left-down": "down-left", "left-up": "up-left",
}
HEX_STEPS: dict[str, Cell] = {"e": (1, 0), "ne": (0, 1), "nw": (-1, 1), "w": (-1, 0), "sw": (0, -1), "se": (1, -1)}
HEX_ALIASES: dict[str, str] = {"east": "e", "north-east": "ne", "north-west": "nw", "west": "w",
                               "south-west": "sw", "south-east": "se", "right": "e", "left": "w"}
SQUARE_TURNS: dict[str, int] = {"turn-right": 1, "turn-around": 2, "turn-left": 3, "mirror": 4}
HEX_TURNS: dict[str, int] = {"turn-right": 1, "turn-around": 3, "turn-left": 5, "mirror": 6}
TURN_ALIASES: dict[str, str] = {"cw": "turn-right", "ccw": "turn-left", "about": "turn-around", "flip": "mirror"}


def step_names(grid: ReferenceGrid) -> dict[str, Cell]:
    """The named steps of a grid (its directions by side name on a user's grid)."""
    if grid.directions == ((0, 1), (1, 0), (0, -1), (-1, 0)):
        return SQUARE_STEPS
    if grid.is_hex and grid.directions == tuple(HEX_STEPS.values()):
        return HEX_STEPS
    return dict(zip(grid.direction_names, grid.directions, strict=True))


def turn_names(grid: ReferenceGrid) -> dict[str, int]:
    """The named turns of a grid (those whose element the grid's group has)."""
    grp = grid.group
    table = HEX_TURNS if grid.is_hex else SQUARE_TURNS
    out = {}
    for name, g in table.items():
        if g < grp.order and (name != "mirror" or grp.is_reflection(g)):
            out[name] = g
    return out


@dataclass(frozen=True)
class Move:
    """One item of a path: a step by ``vector`` (in the walker's frame) or a turn by ``turn``."""

    name: str
    vector: Cell | None = None
    turn: int | None = None


def parse_move(grid: ReferenceGrid, text: str, where: str = "step") -> Move:
    """A step or turn by name; :class:`WalkError` names the text, ``where``, and the names allowed."""
    key = text.strip().lower().replace("_", "-").replace("+", "-")
    steps = step_names(grid)
    aliases = HEX_ALIASES if grid.is_hex else SQUARE_ALIASES
    if steps is SQUARE_STEPS or steps is HEX_STEPS:
        key = aliases.get(key, key)
    if key in steps:
        return Move(key, vector=steps[key])
    turns = turn_names(grid)
    key = TURN_ALIASES.get(key, key)
    if key in turns:
        return Move(key, turn=turns[key])
    raise WalkError(
        f"{where} {text!r}: unknown step on the {grid.name} grid (steps: {', '.join(steps)}; turns: {', '.join(turns)})"
    )


def parse_moves(grid: ReferenceGrid, text: str | Iterable[str], where: str = "--steps") -> list[Move]:
    """A comma-separated list (or a sequence) of steps and turns, each checked."""
    items = [s for s in text.split(",")] if isinstance(text, str) else list(text)
    items = [s for s in (i.strip() for i in items) if s]
    return [parse_move(grid, s, f"{where} item {k + 1}") for k, s in enumerate(items)]


@dataclass(frozen=True, order=True)
class Walker:
    """A position on a board: a tile index and a frame (an element of the orientation group)."""

    tile: int
    frame: int = 0

    def step(self, atlas: Atlas, vector: Cell) -> Walker | None:
        """The walker after one step by ``vector`` in its own frame (:func:`tapology.model.walk.step`), or None off
        the board's edge."""
        nxt = step(atlas, self.tile, self.frame, vector)
        return None if nxt is None else Walker(*nxt)

    def turn(self, grid: ReferenceGrid, g: int) -> Walker:
        """The walker turned (or mirrored) by ``g`` in its own frame: frame ``g -> f``."""
        return Walker(self.tile, grid.group.mul[g][self.frame])

    def mirrored(self, grid: ReferenceGrid) -> bool:
        """True when the walker's frame is a reflection of its tile's."""
        return grid.group.is_reflection(self.frame)

    def move(self, atlas: Atlas, move: Move) -> Walker | None:
        """Apply one :class:`Move` (a step or a turn)."""
        if move.turn is not None:
            return self.turn(atlas.grid, move.turn)
        assert move.vector is not None
        return self.step(atlas, move.vector)


@dataclass(frozen=True)
class Path:
    """A walk: the positions visited (start first, a turn repeats the tile) and where it stopped.

    ``blocked`` is the index of the move that would have left the board (the walk stops
    before it), or None when every move was made.
    """

    positions: tuple[Walker, ...]
    moves: tuple[Move, ...]
    blocked: int | None = None

    @property
    def end(self) -> Walker:
        """The last position reached."""
        return self.positions[-1]

    @property
    def tiles(self) -> list[int]:
        """The tiles visited, one per position (a turn in place adds none)."""
        out = [self.positions[0].tile]
        for m, p in zip(self.moves, self.positions[1:], strict=False):
            if m.turn is None:
                out.append(p.tile)
        return out

    def to_json(self, atlas) -> dict[str, object]:
        """The CLI's JSON shape: path of tile ids, final tile and frame, mirrored, where blocked."""
        ids = atlas.tiles
        grid = atlas.grid
        return {
            "path": [ids[t] for t in self.tiles],
            "tile": ids[self.end.tile],
            "frame": self.end.frame,
            "mirrored": self.end.mirrored(grid),
            "frames": [p.frame for p in self.positions],
            "blocked": None if self.blocked is None else {"move": self.blocked + 1, "step": self.moves[self.blocked].name},
        }


def walk_path(atlas: Atlas, start: Walker, moves: Sequence[Move]) -> Path:
    """Make ``moves`` from ``start``; stop before the first step that leaves the board.  Cost O(len(moves))."""
    pos = [start]
    for k, m in enumerate(moves):
        nxt = pos[-1].move(atlas, m)
        if nxt is None:
            return Path(tuple(pos), tuple(moves), blocked=k)
        pos.append(nxt)
    return Path(tuple(pos), tuple(moves))


def start_walker(atlas: Atlas, tile: str, frame: int = 0, where: str = "--from") -> Walker:
    """A walker on the tile with id ``tile`` in ``frame``; errors name the input."""
    board_tiles = atlas.tiles
    if str(tile) not in board_tiles:
        sample = ", ".join(board_tiles[:8]) + (", …" if len(board_tiles) > 8 else "")
        raise WalkError(f"{where} {tile!r}: no such tile on the board (tiles: {sample})")
    order = atlas.order
    if not 0 <= frame < order:
        raise WalkError(f"--frame {frame}: out of range 0..{order - 1} for the {atlas.grid.name} grid")
    return Walker(board_tiles.index(str(tile)), frame)
