"""The questions the CLI answers, as library functions returning JSON-ready dicts.

Each function takes plain inputs (board names or paths, TAPE strings), checks them once
here at the edge, and returns what the CLI prints with ``--json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapology.errors import BoardError, BoardFileError
from tapology.files import check_target
from tapology.model.atlas import Atlas
from tapology.model.boardfile import BoardSource, load_board, save_board
from tapology.model.grid import get_grid
from tapology.model.tape import board_tapings, parse_tape


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
    return show_data(*open_board(spec, domain), charts)


def show_data(src: BoardSource, at: Atlas, charts: Sequence[str] = ()) -> dict[str, Any]:
    """:func:`show_report` for a board already opened."""
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


def check_report(spec: str, domain: str | None = None, backend: str = "propagate", explain: bool = False) -> dict[str, Any]:
    """Whether a board's atlas is consistent, and the conflict if not.

    ``backend`` (propagate, z3, csp) decides; with ``explain`` the conflict's ``because`` is a
    minimal set of the board's tapings that cannot hold together (see :mod:`tapology.solver.explain`).
    """
    if backend not in BACKENDS:
        raise BoardError(f"--backend {backend!r}: use propagate, z3 or csp")
    return check_data(*open_board(spec, domain), backend, explain)


def check_data(src: BoardSource, at: Atlas, backend: str = "propagate", explain: bool = False) -> dict[str, Any]:
    """:func:`check_report` for a board already opened."""
    if backend not in BACKENDS:
        raise BoardError(f"--backend {backend!r}: use propagate, z3 or csp")
    b = src.board
    if backend == "propagate" and (at.conflict is None or not explain):
        return {"consistent": at.conflict is None, "tiles": len(b.tiles),
                "conflict": None if at.conflict is None else at.conflict.to_json(b)}
    facts = [*board_tapings(b), *src.tapings]
    ok = backend_consistent(b, facts, backend, at.conflict is None)
    conflict = None
    if not ok:
        conflict = _conflict_json(b, facts, at.conflict, backend, explain)
    return {"consistent": ok, "tiles": len(b.tiles), "conflict": conflict}


BACKENDS = ("propagate", "z3", "csp")


def backend_consistent(board: Any, facts: Sequence[Any], backend: str, propagated: bool) -> bool:
    """The verdict of ``backend`` on ``facts`` over the board's tiles (``propagated``: the propagator's own verdict)."""
    if backend not in BACKENDS:
        raise BoardError(f"--backend {backend!r}: use propagate, z3 or csp")
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


def _conflict_json(board: Any, facts: Sequence[Any], conflict: Any, backend: str, explain: bool) -> dict[str, Any]:
    """The conflict as JSON; with ``explain``, ``because`` is a minimal inconsistent set found by ``backend``."""
    if explain:
        from tapology.solver.explain import explain as explain_facts  # z3 loads only when asked for

        ex = explain_facts(board, facts, "z3" if backend == "z3" else "propagate")
        if ex is not None:
            return ex.to_json(board)
    return conflict.to_json(board)


def check_out_path(out: str, option: str = "-o") -> None:
    """:class:`BoardFileError` unless ``out`` could be written: not a folder, and its folder exists."""
    try:
        check_target(out, BoardFileError)
    except BoardFileError as exc:
        raise BoardFileError(f"{option} {exc}") from None


def tape_report(spec: str, tapes: Sequence[str], out: str | None = None, domain: str | None = None,
                backend: str = "propagate", explain: bool = False, charts: Sequence[str] = (),
                ) -> tuple[dict[str, Any], Atlas, BoardSource]:
    """Tape a board; write ``out`` only if the taping is allowed.  Returns the report, atlas and source.

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
    if backend not in BACKENDS:
        raise BoardError(f"--backend {backend!r}: use propagate, z3 or csp")
    for c in charts:
        b.tile(c, f"--chart {c}")
    tapings = [parse_tape(t, b, where=f"TAPE {i + 1}") for i, t in enumerate(tapes)]
    plain = backend == "propagate" and not explain
    facts = [] if plain else [*board_tapings(b), *src.tapings]
    if at.conflict is not None:
        return ({"allowed": False, "tapes": [t.label for t in tapings],
                 "conflict": at.conflict.to_json(b) if plain else _conflict_json(b, facts, at.conflict, backend, explain),
                 "reason": "the board is inconsistent before taping"}, at, src)
    conflict = at.tape(tapings)
    allowed = conflict is None if backend == "propagate" else backend_consistent(b, [*facts, *tapings], backend, conflict is None)
    report: dict[str, Any] = {"allowed": allowed, "tapes": [t.label for t in tapings],
                              "conflict": None if allowed else _conflict_json(b, [*facts, *tapings], conflict, backend, explain)}
    if allowed and out:
        save_board(at.board(), out)
        report["written"] = out
    return report, at, src
