"""The questions the CLI answers, as library functions returning JSON-ready dicts.

Each function takes plain inputs (board names or paths, TAPE strings), checks them once
here at the edge, and returns what the CLI prints with ``--json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapology.errors import BoardError
from tapology.model.boardfile import BoardSource, load_board, save_board
from tapology.model.grid import get_grid
from tapology.model.tape import parse_tape
from tapology.solver.propagator import Atlas


def group_report(grid: str) -> dict[str, Any]:
    """The orientation group of a grid: order, product table (row a, column b = a then b), meanings."""
    g = get_grid(grid)
    grp = g.group
    return {
        "grid": g.name,
        "order": grp.order,
        "table": [list(r) for r in grp.mul],
        "inverse": list(grp.inv),
        "meanings": list(grp.meanings),
        "reflections": sorted(grp.reflections),
    }


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


def open_board(spec: str, domain: str | None = None) -> tuple[BoardSource, Atlas]:
    """Load a board (built-in name or file) and close it."""
    src = load_board(spec, domain)
    return src, src.atlas()


def show_report(spec: str, charts: Sequence[str] = (), domain: str | None = None) -> dict[str, Any]:
    """A board's tiles and charts (all, or the named ones)."""
    src, at = open_board(spec, domain)
    b = src.board
    which = [b.tile(t, f"--chart {t}") for t in charts] if charts else list(range(len(b.tiles)))
    return {
        "grid": b.grid.name,
        "domain": b.domain.spec(),
        "tiles": list(b.tiles),
        "consistent": at.conflict is None,
        "conflict": None if at.conflict is None else at.conflict.to_json(b),
        "charts": charts_json(at, which),
    }


def check_report(spec: str, domain: str | None = None) -> dict[str, Any]:
    """Whether a board's atlas is consistent, and the conflict if not."""
    src, at = open_board(spec, domain)
    return {
        "consistent": at.conflict is None,
        "tiles": len(src.board.tiles),
        "conflict": None if at.conflict is None else at.conflict.to_json(src.board),
    }


def tape_report(spec: str, tapes: Sequence[str], out: str | None = None, domain: str | None = None,
                ) -> tuple[dict[str, Any], Atlas, BoardSource]:
    """Tape a board; write ``out`` only if the taping is allowed.  Returns the report, atlas and source."""
    src, at = open_board(spec, domain)
    b = src.board
    if not tapes:
        raise BoardError("tape: give at least one TAPE, e.g. 3.up=4.down")
    tapings = [parse_tape(t, b, where=f"TAPE {i + 1}") for i, t in enumerate(tapes)]
    if at.conflict is not None:
        return ({"allowed": False, "tapes": [t.label for t in tapings], "conflict": at.conflict.to_json(b),
                 "reason": "the board is inconsistent before taping"}, at, src)
    conflict = at.tape(tapings)
    report: dict[str, Any] = {"allowed": conflict is None, "tapes": [t.label for t in tapings],
                              "conflict": None if conflict is None else conflict.to_json(b)}
    if conflict is None and out:
        save_board(at.board(), out)
        report["written"] = out
    return report, at, src
