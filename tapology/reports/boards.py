"""Reports of the board commands: ``group``, ``show``, ``check``, ``tape``.

Each ``*_report`` function takes plain inputs (grid and board names or paths, TAPE strings), checks them
once here at the edge, and returns a :class:`~tapology.reports.base.Report`: ``to_json()`` is what
``--json`` prints, ``text()`` what people read, ``exit_code`` the command's exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import BoardError, BoardFileError
from tapology.files import check_target
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.boardfile import BoardSource, load_board, save_board
from tapology.model.grid import ReferenceGrid, get_grid
from tapology.model.tape import board_tapings, parse_tape
from tapology.render.ascii import draw_board, draw_charts
from tapology.reports.base import Report

BACKENDS = ("propagate", "z3", "csp")


# ---- opening boards ------------------------------------------------------------------------------
def open_board(spec: str, domain: str | None = None) -> tuple[BoardSource, Atlas]:
    """Load a board (built-in name or file) and close it; ``atlas.conflict`` is set if its tapes are refused."""
    src = load_board(spec, domain)
    return src, src.atlas()


def consistent_board(spec: str, domain: str | None = None) -> tuple[Board, Atlas]:
    """A board with its file's tapes applied and closed, and its atlas; :class:`BoardError` naming the board if it
    is inconsistent (a question about its shape has no answer then)."""
    _src, at = open_board(spec, domain)
    if at.conflict is not None:
        raise BoardError(f"{spec}: the board is inconsistent ({', '.join(at.conflict.because) or 'as drawn'}); "
                         f"see: tapology check {spec}")
    return at.board(), at


def charts_json(atlas: Atlas, tiles: Sequence[int]) -> dict[str, list[dict[str, Any]]]:
    """Charts as JSON: tile id -> non-empty cells in domain order."""
    ids = atlas.tiles
    out = {}
    h = atlas.order
    for t in tiles:
        row = atlas.chart[t].tolist()
        cells = []
        for i, code in enumerate(row):
            if code >= 0:
                u, o = divmod(code, h)
                cells.append({"cell": list(atlas.domain.cells[i]), "tile": ids[u], "orientation": o})
        out[ids[t]] = cells
    return out


SHOW_CHARTS = 100  # charts show draws without --chart (a big board's charts are named with --chart)


def _chart_tiles(board: Board, charts: Sequence[str]) -> list[int]:
    """The tiles whose charts ``--chart`` names (checked), all tiles when it names none."""
    return [board.tile(t, f"--chart {t}") for t in charts] if charts else list(range(len(board.tiles)))


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise BoardError(f"--backend {backend!r}: use propagate, z3 or csp")


# ---- group ---------------------------------------------------------------------------------------
@dataclass
class GroupReport(Report):
    """A grid's orientation group: product table (row a, column b = a then b), inverses and meanings."""

    grid: ReferenceGrid

    def to_json(self) -> dict[str, Any]:
        grp = self.grid.group
        return {"order": grp.order, "table": [list(r) for r in grp.mul], "inverse": list(grp.inv),
                "meanings": list(grp.meanings)}

    def text(self) -> str:
        grp = self.grid.group
        return grp.table_text() + "\n\n" + "\n".join(f"{g:>3}  {m}" for g, m in enumerate(grp.meanings))


def group_report(grid: str) -> GroupReport:
    """The orientation group of the grid named ``grid``."""
    return GroupReport(get_grid(grid))


# ---- show ----------------------------------------------------------------------------------------
@dataclass
class ShowReport(Report):
    """A board, and the charts of some of its tiles (``charts``: tile indices)."""

    source: BoardSource
    atlas: Atlas
    charts: list[int]
    more: int = 0  # charts left out (a big board without --chart)

    def to_json(self) -> dict[str, Any]:
        b, at = self.source.board, self.atlas
        out = {"grid": b.grid.name, "tiles": list(b.tiles), "charts": charts_json(at, self.charts),
               "consistent": at.conflict is None, "conflict": None if at.conflict is None else at.conflict.to_json(b)}
        if self.more:
            out["charts_left_out"] = self.more
        return out

    def text(self) -> str:
        b, at = self.source.board, self.atlas
        out = draw_board(at.board() if at.conflict is None else b) + "\n\n"
        out += draw_charts(b, {t: at.chart_of(t) for t in self.charts})
        if self.more:
            out += f"\n\n… and the charts of {self.more} more tiles: name them with --chart"
        if at.conflict is not None:
            out += "\n\nthe board is inconsistent:\n" + at.conflict.describe(b)
        return out


def show_report(spec: str, charts: Sequence[str] = (), domain: str | None = None) -> ShowReport:
    """A board's tiles and charts (those of the first ``SHOW_CHARTS`` tiles, or the tiles ``charts`` names)."""
    src, at = open_board(spec, domain)
    tiles = _chart_tiles(src.board, charts)
    more = 0 if charts else max(0, len(tiles) - SHOW_CHARTS)
    return ShowReport(src, at, tiles[:len(tiles) - more], more)


# ---- check ---------------------------------------------------------------------------------------
@dataclass
class CheckReport(Report):
    """Whether a board's atlas is consistent; if not, the conflict (with ``explained``: a minimal set of tapings
    that cannot hold together as its ``because``)."""

    source: BoardSource
    atlas: Atlas
    consistent: bool
    conflict: dict[str, Any] | None
    explained: bool = False

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.consistent else 1

    def to_json(self) -> dict[str, Any]:
        return {"consistent": self.consistent, "tiles": len(self.source.board.tiles), "conflict": self.conflict}

    def text(self) -> str:
        if self.consistent:
            return f"consistent: {len(self.source.board.tiles)} tiles"
        if self.explained:
            assert self.conflict is not None
            return "inconsistent: these tapings cannot hold together: " + ", ".join(self.conflict["because"])
        assert self.atlas.conflict is not None
        return "inconsistent:\n" + self.atlas.conflict.describe(self.source.board)


def check_report(spec: str, domain: str | None = None, backend: str = "propagate", explain: bool = False) -> CheckReport:
    """Whether a board's atlas is consistent, and the conflict if not.

    ``backend`` (propagate, z3, csp) decides; with ``explain`` the conflict's ``because`` is a
    minimal set of the board's tapings that cannot hold together (see :mod:`tapology.solver.explain`).
    """
    src, at = open_board(spec, domain)
    _check_backend(backend)
    b = src.board
    if backend == "propagate" and (at.conflict is None or not explain):
        return CheckReport(src, at, at.conflict is None, None if at.conflict is None else at.conflict.to_json(b))
    facts = [*board_tapings(b), *src.tapings]
    ok = backend_consistent(b, facts, backend, at.conflict is None)
    return CheckReport(src, at, ok, None if ok else _conflict_json(b, facts, at.conflict, backend, explain), explain)


def backend_consistent(board: Board, facts: Sequence[Any], backend: str, propagated: bool) -> bool:
    """The verdict of ``backend`` on ``facts`` over the board's tiles (``propagated``: the propagator's own verdict)."""
    _check_backend(backend)
    if backend == "propagate":
        return propagated
    if backend == "z3":
        from tapology.solver.z3backend import Z3Closure, bare_board  # z3 loads only when asked for (start-up time)

        c = Z3Closure(bare_board(board))
        c.add_facts([tp.fact for tp in facts])
        verdict = c.consistent()
    else:
        from tapology.solver.csp import csp_consistent  # python-constraint loads only when asked for

        verdict = csp_consistent(board, facts, include_board=False)
    if verdict != propagated:  # pragma: no cover - backends are cross-checked in the tests
        raise RuntimeError(f"backend {backend} and the propagator disagree on {board.tiles!r}")
    return verdict


def _conflict_json(board: Board, facts: Sequence[Any], conflict: Any, backend: str, explain: bool) -> dict[str, Any]:
    """The conflict as JSON; with ``explain``, ``because`` is a minimal inconsistent set found by ``backend``."""
    if explain:
        from tapology.solver.explain import explain as explain_facts  # z3 loads only when asked for

        ex = explain_facts(board, facts, "z3" if backend == "z3" else "propagate")
        if ex is not None:
            return ex.to_json(board)
    return conflict.to_json(board)


# ---- tape ----------------------------------------------------------------------------------------
@dataclass
class TapeReport(Report):
    """A taping allowed or refused (with the conflict and the facts behind each claim), where the board was
    written, and the charts to show after an allowed taping."""

    source: BoardSource
    atlas: Atlas
    tapes: list[str]
    allowed: bool
    conflict: dict[str, Any] | None
    reason: str | None = None  # why a taping was not even tried
    written: str | None = None
    charts: list[int] = field(default_factory=list)

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.allowed else 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed": self.allowed, "tapes": self.tapes, "conflict": self.conflict}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.written is not None:
            out["written"] = self.written
        return out

    def text(self) -> str:
        if self.allowed:
            lines = ["allowed: " + ", ".join(self.tapes) + (f" (written to {self.written})" if self.written else "")]
            if self.charts:
                lines.append(draw_charts(self.source.board, {t: self.atlas.chart_of(t) for t in self.charts}))
            return "\n".join(lines)
        c = self.conflict
        assert c is not None
        claims = " vs ".join(f"tile {x['tile']} turned {x['orientation']}" for x in c["claims"])
        lines = ["refused: " + ", ".join(self.tapes),
                 f"  chart {c['tile']} at ({','.join(map(str, c['cell']))}): {claims}",
                 "  because of: " + (", ".join(c["because"]) or "the board as it was")]
        for x in c["claims"]:
            lines.append(f"  tile {x['tile']}/{x['orientation']}:")
            lines.extend(f"    chart {s['tile']} ({','.join(map(str, s['cell']))}) = {s['other']}/{s['orientation']}"
                         f"  [{s['because']}]" for s in x["chain"])
        return "\n".join(lines)


def check_out_path(out: str, option: str = "-o") -> None:
    """:class:`BoardFileError` unless ``out`` could be written: not a folder, and its folder exists."""
    try:
        check_target(out, BoardFileError)
    except BoardFileError as exc:
        raise BoardFileError(f"{option} {exc}") from None


def tape_report(spec: str, tapes: Sequence[str], out: str | None = None, domain: str | None = None,
                backend: str = "propagate", explain: bool = False, charts: Sequence[str] = ()) -> TapeReport:
    """Tape a board; write ``out`` only if the taping is allowed.

    ``backend`` (propagate, z3, csp) decides; with ``explain`` the conflict's ``because`` is a
    minimal set of the board's tapings, the new ones included, that cannot hold together.
    ``charts`` (tile ids to show afterwards) and ``out`` are checked before anything is written.
    """
    if out is not None:
        check_out_path(out)
    src, at = open_board(spec, domain)
    b = src.board
    if not tapes:
        raise BoardError("tape: give at least one TAPE, e.g. 3.up=4.down")
    _check_backend(backend)
    shown = [b.tile(c, f"--chart {c}") for c in charts]
    tapings = [parse_tape(t, b, where=f"TAPE {i + 1}") for i, t in enumerate(tapes)]
    labels = [t.label for t in tapings]
    plain = backend == "propagate" and not explain
    facts = [] if plain else [*board_tapings(b), *src.tapings]
    if at.conflict is not None:
        conflict = at.conflict.to_json(b) if plain else _conflict_json(b, facts, at.conflict, backend, explain)
        return TapeReport(src, at, labels, False, conflict, reason="the board is inconsistent before taping")
    refused = at.tape(tapings)
    allowed = refused is None if backend == "propagate" else backend_consistent(b, [*facts, *tapings], backend,
                                                                                  refused is None)
    rep = TapeReport(src, at, labels, allowed,
                     None if allowed else _conflict_json(b, [*facts, *tapings], refused, backend, explain),
                     charts=shown)
    if allowed and out:
        save_board(at.board(), out)
        rep.written = out
    return rep
