"""The board workshop behind the page: a board taped side by side, with undo and redo, its classification after
every taping, its net and its cover, and refusals explained.

A :class:`Workshop` keeps the boards it went through (the first is the one opened); a taping copies the current
atlas and tapes it (:meth:`tapology.model.atlas.Atlas.tape`, incremental), so a refusal changes nothing.  Every
answer carries ``version`` (the number of boards behind the current one plus the redo count), which a request
must repeat: a request made on an older picture (another tab, a double click) is refused as stale.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import BoardError, TapologyError
from tapology.model.atlas import Atlas
from tapology.model.board import Board, Taping
from tapology.model.boardfile import BoardSource, dumps_board, load_board, parse_board
from tapology.model.builtins import is_builtin
from tapology.model.tape import board_tapings, format_fact, side_fact
from tapology.model.topology import classify
from tapology.model.walker import Walker
from tapology.render.net import board_net
from tapology.render.svg import tile_colour
from tapology.render.unfold import MAX_RADIUS, unfold
from tapology.solver.explain import explain
from tapology.web.shapes import board_tiles, cover_json, grid_shapes, placed

KEEP = 8  # atlases kept for undo (each is tiles × domain cells of int64: 11 MB for a 400×400 board)
EXPLAIN_TILES = 400  # a refusal on a bigger board lists the conflict's own tapings (a minimal set costs more there)
PAGE_TILES = 2_500  # boards whose net the page draws (a bigger net is too small to click on): bigger ones show their cover


class StaleError(TapologyError):
    """A request made on a picture the board has since left (another tab, or a repeated click)."""


def open_source(spec: str | None, text: str | None, where: str = "upload") -> BoardSource:
    """A board by built-in name, or from the text of an uploaded board file; never a server path."""
    if text is not None:
        return parse_board(text, where)
    name = (spec or "").strip()
    if not is_builtin(name):
        raise BoardError(f"board {name[:60]!r}: give a built-in board (plane:3x3, torus:12x8, klein:3x3, …) "
                         "or upload a board file")
    return load_board(name)


@dataclass
class Workshop:
    """One board being taped: the boards so far (with the taping that led to each), and the redo stack."""

    name: str
    boards: list[Board]
    atlases: list[Atlas | None]  # the closed charts of each board; only the last KEEP are kept (rebuilt on undo)
    tapings: list[str] = field(default_factory=list)
    redo_stack: list[tuple[Board, Atlas | None, str]] = field(default_factory=list)
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)  # one request at a time changes it

    @classmethod
    def open(cls, spec: str | None = None, text: str | None = None) -> Workshop:
        """A workshop on a built-in board or an uploaded board file; refuses an inconsistent one."""
        src = open_source(spec, text)
        at = src.atlas()
        if at.conflict is not None:
            raise BoardError(f"{src.where}: the board is not consistent: {at.conflict.describe(src.board).splitlines()[0]}")
        board = at.board()
        return cls(src.where if text is None else (spec or "uploaded board"), [board], [at])

    @property
    def atlas(self) -> Atlas:
        """The closed charts of the current board (closed again if they were dropped).  Cost O(n·|D|) then."""
        at = self.atlases[-1]
        if at is None:
            at = self.atlases[-1] = Atlas.of(self.board)
        return at

    @property
    def board(self) -> Board:
        """The current board."""
        return self.boards[-1]

    def check(self, version: int | None) -> None:
        """:class:`StaleError` unless ``version`` is the current one."""
        if version is not None and version != self.version:
            raise StaleError(f"stale request: the board changed since (version {version}, now {self.version}); "
                             "the page shows the board as it is now")

    def tape(self, tile: int, side: int, other: int, other_side: int, flip: bool, version: int | None = None
             ) -> dict[str, Any]:
        """Tape side ``side`` of ``tile`` to ``other_side`` of ``other`` (flipped or not).  The answer: the new state
        with ``changed`` (tiles whose chart changed), or ``refused`` with the conflict and a minimal set of tapings."""
        self.check(version)
        board = self.board
        n, nd = len(board.tiles), len(board.grid.directions)
        for t, d, what in ((tile, side, "first"), (other, other_side, "second")):
            if not (isinstance(t, int) and isinstance(d, int) and 0 <= t < n and 0 <= d < nd):
                raise BoardError(f"the {what} side ({t!r}, {d!r}) is not a side of this board")
        names = board.grid.direction_names
        where = f"{board.tiles[tile]}.{names[side]}={board.tiles[other]}.{names[other_side]}{'~' if flip else ''}"
        for t, d in ((tile, side), (other, other_side)):
            if board.glue[t][d] >= 0:
                raise BoardError(f"taping {where}: side {board.tiles[t]}.{names[d]} is already taped")
        try:
            fact = side_fact(board, tile, side, other, other_side, bool(flip))
        except BoardError as exc:
            raise BoardError(f"taping {where}: {exc}") from None
        taping = Taping(fact, format_fact(board, fact))
        at = self.atlas.copy()
        conflict = at.tape([taping])
        if conflict is not None:
            out = self.state()
            refusal: dict[str, Any] = {"taping": taping.label, "text": conflict.describe(board),
                                       "conflict": conflict.to_json(board),
                                       "cells": sorted({conflict.tile, *(c.other for c in conflict.claims)})}
            if len(board.tiles) <= EXPLAIN_TILES:
                ex = explain(board, [*board_tapings(board), taping])
                if ex is not None:
                    refusal["minimal"] = list(ex.labels)
            refusal.setdefault("minimal", conflict.because)
            out["refused"] = refusal
            return out
        before = self.atlas.chart
        new_board = at.board()
        changed = sorted({int(t) for t in (before != at.chart).any(axis=1).nonzero()[0]})
        self.boards.append(new_board)
        self.atlases.append(at)
        if len(self.atlases) > KEEP:
            self.atlases[-KEEP - 1] = None
        self.tapings.append(taping.label)
        self.redo_stack.clear()
        self.version += 1
        out = self.state()
        out["changed"] = changed
        return out

    def undo(self, version: int | None = None) -> dict[str, Any]:
        """Take back the last taping."""
        self.check(version)
        if len(self.boards) == 1:
            raise BoardError("nothing to undo")
        self.redo_stack.append((self.boards.pop(), self.atlases.pop(), self.tapings.pop()))
        self.version += 1
        return self.state()

    def redo(self, version: int | None = None) -> dict[str, Any]:
        """Tape again what was taken back."""
        self.check(version)
        if not self.redo_stack:
            raise BoardError("nothing to redo")
        b, a, lab = self.redo_stack.pop()
        self.boards.append(b)
        self.atlases.append(a)
        self.tapings.append(lab)
        self.version += 1
        return self.state()

    def toml(self) -> str:
        """The current board as a board file."""
        return dumps_board(self.board)

    def state(self) -> dict[str, Any]:
        """What the page shows: tiles, net, classification, the tapings so far, undo and redo."""
        board = self.board
        topo = classify(board)
        small = len(board.tiles) <= PAGE_TILES
        out: dict[str, Any] = {
            "name": self.name, "version": self.version, "tiles": board_tiles(board) if small else [],
            "n_tiles": len(board.tiles),
            "classification": topo.to_json(board), "tapings": list(self.tapings),
            "can_undo": len(self.boards) > 1, "can_redo": bool(self.redo_stack),
            "open_sides": [[t, d] for t, row in enumerate(board.glue) for d, code in enumerate(row) if code < 0][:5000],
        }
        if small:
            net = board_net(board)
            out["net"] = {"cells": placed(board.grid, [(c, t, g) for t, (c, g) in enumerate(net.positions)]),
                          **net.to_json(board)}
            del out["net"]["tiles"]
        return out

    def chart(self, tile: int) -> dict[str, Any]:
        """The chart of ``tile`` (what it sees of the board: every chart-domain cell's tile and orientation)."""
        board = self.board
        if not (isinstance(tile, int) and 0 <= tile < len(board.tiles)):
            raise BoardError(f"tile {tile!r} is not a tile of this board")
        items = [(c, u, o) for c, (u, o) in self.atlas.chart_of(tile).items()]
        seen = sorted({u for _c, u, _o in items})
        return {"cells": placed(board.grid, items),
                "tile_info": [[u, board.tiles[u], tile_colour(board.tiles[u]), board.states[u]] for u in seen]}

    def cover(self, tile: int, radius: int) -> dict[str, Any]:
        """The cover unfolded around ``tile`` out to ``radius``."""
        return cover_view(self.atlas, tile, 0, radius)


def cover_view(at: Atlas, tile: int, frame: int, radius: int) -> dict[str, Any]:
    """The cover of an atlas's board around (tile, frame); inputs checked (a forged request gets a one-line error)."""
    board = at.board()
    if not (isinstance(tile, int) and 0 <= tile < len(board.tiles)):
        raise BoardError(f"tile {tile!r} is not a tile of this board")
    if not (isinstance(frame, int) and 0 <= frame < at.order):
        raise BoardError(f"frame {frame!r}: must be 0..{at.order - 1}")
    if not (isinstance(radius, int) and 0 <= radius <= min(MAX_RADIUS, 60)):
        raise BoardError(f"radius {radius!r}: must be 0..{min(MAX_RADIUS, 60)} in the page")
    view = unfold(at, Walker(tile, frame), radius)
    return cover_json(view, board)


def shapes_of(board: Board) -> dict[str, Any]:
    """The grid shapes of a board (see :func:`tapology.web.shapes.grid_shapes`)."""
    return grid_shapes(board.grid)
