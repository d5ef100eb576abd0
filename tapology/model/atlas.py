"""The fixpoint propagator: the closure of a board's facts under the transition maps (docs/conventions.md §2).

:class:`Atlas` holds every chart of a board as an ``(n, |D|)`` array of codes
``tile * |H| + orientation`` (-1: nothing there).  A whole board is closed by the
vectorised walk of :mod:`tapology.model.closure` where it can be, and by the worklist
otherwise; a taping runs the worklist from the new facts only, on an overlay, so it
touches only the charts it changes and a refusal leaves the atlas exactly as it was.

A refusal is a :class:`Conflict`: the chart, the cell, the two claims, and for each claim
the chain of facts and the tapings it came from (traced only when asked: a caller that tries
tapings by the thousand and keeps the allowed ones, as tape turns and the census do, skips it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from tapology.errors import BoardError
from tapology.model.board import Board, Fact, Taping
from tapology.model.closure import CODE, Walk, verify_closure, walk_charts
from tapology.model.group import Cell
from tapology.model.tape import board_tapings

Key = tuple[int, int]  # (tile, cell index)
# Why a fact holds: a taping's label, None (an axiom or a fact the atlas already had),
# or the two facts it was derived from: (chart-fact "c", chart-fact "p").
Reason = str | None | tuple[Key, Key]


@dataclass(frozen=True)
class Step:
    """One fact in a derivation: χ_tile(cell) = (other, orientation), and why."""

    tile: int
    cell: Cell
    other: int
    orientation: int
    because: str  # a taping label, "board" (already known), or "transition from chart X at C"


@dataclass(frozen=True)
class Claim:
    """One side of a conflict: what the cell would hold, and the facts that say so."""

    other: int
    orientation: int
    tapings: tuple[str, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Conflict:
    """A cell of a chart that must hold two different (tile, orientation) values."""

    tile: int
    cell: Cell
    claims: tuple[Claim, Claim]

    @property
    def because(self) -> list[str]:
        """The tapings behind either claim, each once, in first-seen order."""
        out: list[str] = []
        for c in self.claims:
            for lab in c.tapings:
                if lab not in out:
                    out.append(lab)
        return out

    def to_json(self, board: Board) -> dict[str, object]:
        """The conflict in the CLI's JSON shape (tile ids as strings)."""
        ids = board.tiles

        def step(s: Step) -> dict[str, object]:
            return {"tile": ids[s.tile], "cell": list(s.cell), "other": ids[s.other],
                    "orientation": s.orientation, "because": s.because}

        return {
            "tile": ids[self.tile],
            "cell": list(self.cell),
            "claims": [
                {"tile": ids[c.other], "orientation": c.orientation, "because": list(c.tapings),
                 "chain": [step(s) for s in c.steps]}
                for c in self.claims
            ],
            "because": self.because,
        }

    def describe(self, board: Board) -> str:
        """A one-paragraph human explanation."""
        ids = board.tiles
        a, b = self.claims
        cell = ",".join(str(v) for v in self.cell)
        lines = [
            f"chart {ids[self.tile]} at ({cell}) would hold both tile {ids[a.other]} turned {a.orientation} "
            f"and tile {ids[b.other]} turned {b.orientation}"
        ]
        for c in self.claims:
            src = ", ".join(c.tapings) or "the board as it was"
            lines.append(f"  tile {ids[c.other]}/{c.orientation} because of: {src}")
            for s in c.steps:
                lines.append(
                    f"    chart {ids[s.tile]} ({','.join(str(v) for v in s.cell)}) = {ids[s.other]}/{s.orientation}"
                    f"  [{s.because}]"
                )
        return "\n".join(lines)


class _Run:
    """One worklist run on an overlay of the atlas arrays (nothing is written until commit).

    The rows of the charts it touches are copied into Python lists (``rows``) and kept up to
    date; ``over`` records the new facts for the commit.  ``explain=False``: a conflict's claims
    carry no chains (nothing is traced).
    """

    def __init__(self, atlas: Atlas, explain: bool = True) -> None:
        self.atlas = atlas
        self.explain = explain
        self.rows: dict[int, list[int]] = {}
        self.over: dict[Key, int] = {}
        self.why: dict[Key, Reason] = {}
        self.queue: deque[Key] = deque()
        self.conflict: Conflict | None = None

    def row(self, t: int) -> list[int]:
        """Chart t as it stands in this run (a live list)."""
        r = self.rows.get(t)
        if r is None:
            r = self.rows[t] = self.atlas.chart[t].tolist()
        return r

    def get(self, t: int, i: int) -> int:
        return self.row(t)[i]

    def add(self, t: int, i: int, code: int, reason: Reason) -> bool:
        """Record a fact; False (and the conflict set) when it contradicts what is known."""
        r = self.row(t)
        cur = r[i]
        if cur == code:
            return True
        if cur < 0:
            r[i] = code
            self.over[(t, i)] = code
            self.why[(t, i)] = reason
            self.queue.append((t, i))
            return True
        if self.explain:
            self.conflict = self._explain(t, i, cur, code, reason)
        else:
            h = self.atlas.order
            self.conflict = Conflict(t, self.atlas.domain.cells[i],
                                     (Claim(*divmod(cur, h), (), ()), Claim(*divmod(code, h), (), ())))
        return False

    def run(self) -> bool:
        """Propagate to the fixpoint; False on the first conflict.  Cost O(new facts · |D|)."""
        a = self.atlas
        h = a.order
        mul, inv, trans = a.mul, a.inv, a.trans
        cells = range(a.n_cells)
        rows = self.rows
        row_of = self.row
        add = self.add
        queue = self.queue
        while queue:
            key = queue.popleft()
            t, ci = key
            row = rows[t]
            u, o = divmod(row[ci], h)
            oi = inv[o]
            tr_c = trans[ci][o]
            row_u = rows.get(u) or row_of(u)
            for pj in cells:
                c2 = row[pj]
                if c2 < 0 or pj == ci:
                    continue
                if ci:
                    # the new fact as the recentring cell: chart u learns what chart t knows
                    q = tr_c[pj]
                    if q >= 0:
                        v, r = divmod(c2, h)
                        new = v * h + mul[r][oi]
                        if row_u[q] != new and not add(u, q, new, (key, (t, pj))):
                            return False
                if pj:
                    # an old fact as the recentring cell: its chart learns the new fact
                    u2, o2 = divmod(c2, h)
                    q = trans[pj][o2][ci]
                    if q >= 0:
                        new = u * h + mul[o][inv[o2]]
                        row_u2 = rows.get(u2) or row_of(u2)
                        if row_u2[q] != new and not add(u2, q, new, ((t, pj), key)):
                            return False
        return True

    # ---- explanations -------------------------------------------------------------
    MAX_STEPS = 400

    def _trace(self, key: Key, code: int, reason: Reason) -> tuple[list[str], list[Step]]:
        """The tapings and facts behind one claim, premises first (iterative DFS over the DAG).

        Every taping is listed; the steps are cut at ``MAX_STEPS`` facts on huge boards.
        """
        a = self.atlas
        h = a.order
        labels: list[str] = []
        steps: list[Step] = []
        seen: set[Key] = set()
        # stack of (key, code, reason, expanded?)
        stack: list[tuple[Key, int, Reason, bool]] = [(key, code, reason, False)]
        while stack:
            k, c, r, expanded = stack.pop()
            if isinstance(r, tuple) and not expanded:
                stack.append((k, c, r, True))
                for sub in reversed(r):
                    if sub not in seen:
                        seen.add(sub)
                        stack.append((sub, self.get(*sub), self.why.get(sub, a.why_of(sub)), False))
                continue
            if isinstance(r, tuple):
                because = f"transition from chart {a.tiles[r[0][0]]} at {a.cell_text(r[0][1])}"
            elif isinstance(r, str):
                if r not in labels:
                    labels.append(r)
                because = r
            elif k[1] == 0:
                continue  # χ_t(0) = (t, 0): an axiom, not worth a line
            else:
                because = "board"
            if len(steps) < self.MAX_STEPS:
                u, o = divmod(c, h)
                steps.append(Step(k[0], a.domain.cells[k[1]], u, o, because))
        return labels, steps

    def _explain(self, t: int, i: int, cur: int, new: int, reason: Reason) -> Conflict:
        h = self.atlas.order
        key = (t, i)
        la, sa = self._trace(key, cur, self.why.get(key, self.atlas.why_of(key)))
        lb, sb = self._trace(key, new, reason)
        ca = Claim(*divmod(cur, h), tuple(la), tuple(sa))
        cb = Claim(*divmod(new, h), tuple(lb), tuple(sb))
        return Conflict(t, self.atlas.domain.cells[i], (ca, cb))


class Atlas:
    """The charts of a board: the closure of its facts, kept up to date under taping.

    Build with :meth:`of` (closes the board) and change with :meth:`tape`.  ``conflict`` is
    set when the board itself is inconsistent.
    """

    def __init__(self, board: Board) -> None:
        self._board = board
        self.grid = board.grid
        self.domain = board.domain
        self.tiles = board.tiles
        grp = board.grid.group
        self.order = grp.order
        self.mul = grp.mul
        self.inv = grp.inv
        self.n_cells = len(board.domain)
        self.extra: list[Fact] = list(board.extra)
        n = len(board.tiles)
        self.chart = np.full((n, self.n_cells), -1, dtype=CODE)
        self.chart[:, 0] = np.arange(n, dtype=CODE) * self.order
        self._why: dict[Key, Reason] = {}
        self.conflict: Conflict | None = None
        self._dirty_board = False
        self._unit_rows: list[tuple[int, ...]] | None = None  # the gluing rows read off the charts, for taped()

    @property
    def trans(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The chart domain's translation table (built on first use: a hundredth of a second on checkers' board)."""
        return self.domain.trans

    def changed(self) -> bool:
        """True when closing the charts changed the board's gluing or recorded reasons of their own (the worklist's
        taped facts)."""
        return self._dirty_board or bool(self._why)

    # ---- construction -------------------------------------------------------------
    @classmethod
    def of(cls, board: Board, *, method: str = "auto") -> Atlas:
        """Close a board's facts.  ``method``: ``auto`` (vectorised walk, worklist where needed)
        or ``worklist`` (the plain fixpoint, the reference)."""
        at = cls(board)
        if method == "auto" and not board.extra:
            chart = walk_charts(board)
            verdict = verify_closure(board, chart)
            if verdict is Walk.CLOSED:
                at.chart = chart
                return at
        elif method not in ("auto", "worklist"):
            raise BoardError(f"unknown closure method {method!r}")
        at._close_worklist(board_tapings(board))
        return at

    def _close_worklist(self, tapings: Sequence[Taping]) -> None:
        run = _Run(self)
        ok = True
        for tp in tapings:
            if not self._add_root(run, tp):
                ok = False
                break
        ok = ok and run.run()
        if ok:
            run.why.clear()  # the board's own facts are "board", however they were closed
            self._commit(run)
        else:
            self.conflict = run.conflict

    def _add_root(self, run: _Run, tp: Taping) -> bool:
        f = tp.fact
        i = self.domain.index.get(f.cell)
        if i is None:
            raise BoardError(f"taping {tp.label!r}: cell {f.cell} is outside the chart domain")
        return run.add(f.tile, i, f.other * self.order + f.orientation, tp.label)

    def _commit(self, run: _Run) -> None:
        self._unit_rows = None
        for (t, i), code in run.over.items():
            self.chart[t, i] = code
        for k, r in run.why.items():
            if isinstance(r, str):
                self._why[k] = r
        self._dirty_board = self._dirty_board or bool(run.over)

    def copy(self) -> Atlas:
        """An independent copy (charts copied; tables shared).  Cost O(n·|D|)."""
        new = Atlas.__new__(Atlas)
        new.__dict__ = self.__dict__.copy()
        new.chart = self.chart.copy()
        new._why = dict(self._why)
        new.extra = list(self.extra)
        return new

    # ---- queries ------------------------------------------------------------------
    def why_of(self, key: Key) -> Reason:
        """The taping label a stored fact came from, if it was stated directly."""
        return self._why.get(key)

    def cell_text(self, i: int) -> str:
        """Cell index i as ``(x,y)``."""
        return "(" + ",".join(str(v) for v in self.domain.cells[i]) + ")"

    @property
    def consistent(self) -> bool:
        """True when the board's facts have no conflict."""
        return self.conflict is None

    def at(self, tile: int, cell: Cell) -> tuple[int, int] | None:
        """χ_tile(cell) as (tile, orientation), or None."""
        code = int(self.chart[tile, self.domain.index[cell]])
        return None if code < 0 else divmod(code, self.order)

    def chart_of(self, tile: int) -> dict[Cell, tuple[int, int]]:
        """One chart as a dict cell -> (tile, orientation) (empty cells omitted)."""
        h = self.order
        return {self.domain.cells[i]: divmod(c, h) for i, c in enumerate(self.chart[tile].tolist()) if c >= 0}

    # ---- taping -------------------------------------------------------------------
    def tape(self, tapings: Iterable[Taping], explain: bool = True) -> Conflict | None:
        """State new facts and close them; on a conflict nothing changes and the conflict is returned
        (``explain=False``: without the chains behind its claims, which cost a trace through the facts).

        Cost: proportional to the facts that change, times |D|.
        """
        if self.conflict is not None:
            return self.conflict
        run, new_extra = self._run(tapings, explain)
        if run.conflict is not None:
            return run.conflict
        self._commit(run)
        if new_extra:
            self.extra.extend(f for f in new_extra if f not in self.extra)
            self._dirty_board = True
        return None

    def _run(self, tapings: Iterable[Taping], explain: bool) -> tuple[_Run, list[Fact]]:
        """The worklist run of new tapings (its ``conflict`` set on a refusal) and the facts among them that are not
        sides (beyond the unit cells: kept as the board's extra facts)."""
        run = _Run(self, explain)
        new_extra: list[Fact] = []
        for tp in tapings:
            if not self._add_root(run, tp):
                return run, new_extra
            if self.domain.direction_of[self.domain.index[tp.fact.cell]] < 0:
                new_extra.append(tp.fact)
        run.run()
        return run, new_extra

    def taped(self, tapings: Iterable[Taping]) -> Board | None:
        """The board these tapings give, or None when they are refused; this atlas is left as it is either way, and a
        refusal is not explained.  What ``copy().tape(tapings)`` then ``board()`` give, without copying the charts:
        the gluing rows of the charts the tapings change are read off the run.  Cost: the run, plus O(n·|S|)."""
        if self.conflict is not None:
            return None
        run, new_extra = self._run(tapings, False)
        if run.conflict is not None:
            return None
        if not run.over and not new_extra:
            return self.board()
        unit = self.domain.unit_cells
        if self._unit_rows is None:
            self._unit_rows = [tuple(r) for r in self.chart[:, list(unit)].tolist()]
        glue = list(self._unit_rows)
        for t, row in run.rows.items():
            glue[t] = tuple(row[i] for i in unit)
        extra = list(self.extra)
        extra.extend(f for f in new_extra if f not in extra)
        b = self._board
        return Board(b.grid, b.domain, b.tiles, b.states, tuple(glue), tuple(sorted(set(extra))), b.placement)

    def board(self) -> Board:
        """The board as a value: gluing table read off the charts' unit cells.  Cost O(n·|S|)."""
        if not self._dirty_board:
            return self._board
        glue = self.chart[:, list(self.domain.unit_cells)]
        b = self._board
        self._board = Board(b.grid, b.domain, b.tiles, b.states, tuple(map(tuple, glue.tolist())),
                            tuple(sorted(set(self.extra))), b.placement)
        self._dirty_board = False
        return self._board


def tape_board(board: Board, tapings: Sequence[Taping]) -> tuple[Board, Conflict | None]:
    """Tape a board: (new board, None) if allowed, (the same board, conflict) if refused."""
    at = Atlas.of(board)
    if at.conflict is not None:
        return board, at.conflict
    conflict = at.tape(tapings)
    if conflict is not None:
        return board, conflict
    return at.board(), None
