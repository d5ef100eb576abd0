"""Reports of the topology commands: ``classify``, ``signature``, ``same``, ``synthesize``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tapology.solver.synthesis import Request

from tapology.errors import BoardFileError, LimitError, SynthesisError
from tapology.files import remove_stale
from tapology.limits import check
from tapology.model.board import Board
from tapology.model.boardfile import load_board, save_board
from tapology.model.domain import domain_from_spec
from tapology.model.grid import get_grid
from tapology.model.isomorphism import automorphisms, canonical, isomorphism
from tapology.model.topology import Topology, classify
from tapology.parallel import SERIAL, Executor
from tapology.reports.base import Report
from tapology.reports.boards import consistent_board

if TYPE_CHECKING:
    from tapology.solver.synthesis import Result

CLASSIFY_KEYS = ("tiles", "euler_characteristic", "orientable", "boundary_components", "genus", "surface", "manifold",
                 "singularities")


def closed_board(spec: str, domain: str | None = None) -> Board:
    """A board with its file's tapes applied and closed; :class:`BoardError` if it is inconsistent."""
    return consistent_board(spec, domain)[0]


# ---- classify ------------------------------------------------------------------------------------
@dataclass
class ClassifyReport(Report):
    """A board's surface: Euler characteristic, orientability, boundary, genus, orbifold points."""

    board: Board
    topology: Topology

    def to_json(self) -> dict[str, Any]:
        full = self.topology.to_json(self.board)
        return {k: full[k] for k in CLASSIFY_KEYS}

    def text(self) -> str:
        rep = self.to_json()
        b = rep["boundary_components"]
        lines = [f"{rep['surface']}: {rep['tiles']} tiles, Euler characteristic {rep['euler_characteristic']}, "
                 f"{'orientable' if rep['orientable'] else 'non-orientable'}, "
                 f"{b} boundary component{'s' if b != 1 else ''}"
                 + (f", genus {rep['genus']}" if rep["genus"] is not None else "")]
        if not rep["manifold"]:
            lines.append("not a manifold (an orbifold); singular places:")
            for s in rep["singularities"]:
                if s["kind"] == "vertex":
                    at = ", ".join(f"{c['tile']}:{c['corner']}" for c in s["at"])
                    lines.append(f"  vertex with {s['corners']} corners: {at}")
                else:
                    what = "mirror" if s["kind"] == "mirror" else "cone point of order 2"
                    lines.append(f"  {what}: tile {s['tile']} side {s['side']} taped to itself")
        return "\n".join(lines)


def classify_report(spec: str, domain: str | None = None) -> ClassifyReport:
    """The surface of the board ``spec`` names."""
    b = closed_board(spec, domain)
    return ClassifyReport(b, classify(b))


# ---- signature -----------------------------------------------------------------------------------
@dataclass
class SignatureReport(Report):
    """A board's canonical signature (equal exactly for isomorphic boards) and its automorphism group's order."""

    signature: str
    tiles: int
    automorphisms: int

    def to_json(self) -> dict[str, Any]:
        return {"signature": self.signature, "tiles": self.tiles, "automorphisms": self.automorphisms}

    def text(self) -> str:
        return self.signature


def signature_report(spec: str, domain: str | None = None) -> SignatureReport:
    """The signature of the board ``spec`` names."""
    b = closed_board(spec, domain)
    check("canonical_tiles", len(b.tiles), f"board {spec!r}: tiles for a canonical form", LimitError)
    return SignatureReport(canonical(b).signature, len(b.tiles), automorphisms(b).order)


# ---- same ----------------------------------------------------------------------------------------
@dataclass
class SameReport(Report):
    """Whether two boards are isomorphic, and a map (tile -> tile and turn) if they are."""

    map: dict[str, dict[str, Any]] | None

    @property
    def same(self) -> bool:
        return self.map is not None

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.same else 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"same": self.same}
        if self.map is not None:
            out["map"] = self.map
        return out

    def text(self) -> str:
        return "isomorphic" if self.same else "not isomorphic"


def same_report(a: str, b: str, domain: str | None = None) -> SameReport:
    """Are the boards ``a`` and ``b`` name isomorphic (relabel tiles, re-orient each tile)?"""
    ba, bb = closed_board(a, domain), closed_board(b, domain)
    if len(ba.tiles) == len(bb.tiles):  # boards of different sizes are told apart at once
        check("canonical_tiles", len(ba.tiles), f"boards {a!r} and {b!r}: tiles for a canonical form", LimitError)
    f = isomorphism(ba, bb)
    if f is None:
        return SameReport(None)
    return SameReport({ba.tiles[t]: {"tile": bb.tiles[f[0][t]], "turn": f[1][t]} for t in range(len(ba.tiles))})


# ---- synthesize ----------------------------------------------------------------------------------
@dataclass
class SynthesisReport(Report):
    """The boards found (each new up to isomorphism), or only how many (``count``); partial when the search was
    interrupted or timed out."""

    result: Result
    count: bool = False

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 130 if self.result.interrupted else 0

    @property
    def warning(self) -> str | None:
        """What to tell on standard error: that the search stopped early."""
        res = self.result
        if res.interrupted:
            return f"tapology: interrupted; {len(res.boards)} boards found so far"
        if res.timed_out:
            return f"tapology: timed out; {len(res.boards)} boards found so far"
        return None

    def to_json(self) -> dict[str, Any]:
        res = self.result
        return {"count": len(res.boards), "complete": res.complete} if self.count else res.to_json()

    def text(self) -> str:
        res = self.result
        if self.count:
            return str(len(res.boards))
        lines = [f"{f.topology.surface}{'' if f.topology.manifold else ' (orbifold)'}  {f.signature}" for f in res.boards]
        lines.append(f"{len(res.boards)} board{'s' if len(res.boards) != 1 else ''}"
                     + ("" if res.complete else " (partial: "
                        + ("interrupted" if res.interrupted else "timed out" if res.timed_out else "stopped at --limit")
                        + ", search not finished)"))
        return "\n".join(lines)


SERIAL_TILES = 8  # a census this small takes a few seconds on one core: less than starting a pool saves


def synthesize_report(tiles: int | None = None, grid: str = "square", domain: str | None = None, closed: bool = False,
                      boundary: int | None = None, orientable: bool | None = None, euler: int | None = None,
                      manifold: bool = False, base: str | None = None, *, count: bool = False,
                      limit: int | None = None, timeout: float | None = None, engine: str = "auto",
                      out: str | None = None, progress: Callable[[int, int], None] | None = None,
                      ex: Executor | None = None, task_progress: Callable[[int, int], None] | None = None,
                      plan: Callable[[str], None] | None = None) -> SynthesisReport:
    """Boards with the required properties, each new up to isomorphism (see :mod:`tapology.solver.synthesis`).

    ``domain`` is a domain name or a board file whose domain to use; ``base`` a board to complete by taping its
    open sides.  Every input, ``out`` (a folder for ``board-NNN.toml`` files) included, is checked before the
    search; ``progress(nodes, found)`` hears how it goes.  The enumeration runs as tasks on ``ex`` (None: this
    process up to :data:`SERIAL_TILES` tiles, every core above), ``task_progress(done, tasks)`` hearing each;
    ``plan(text)`` hears how the search will run before it starts.
    """
    from tapology.solver.synthesis import synthesize  # z3 loads only when asked for (start-up time)

    if limit is not None and limit < 1:
        raise SynthesisError(f"--limit {limit}: must be at least 1")
    if timeout is not None and timeout <= 0:
        raise SynthesisError(f"--timeout {timeout}: must be positive")
    req = synthesis_request(tiles, grid, domain, closed, boundary, orientable, euler, manifold, base)
    if out and Path(out).exists() and not Path(out).is_dir():
        raise SynthesisError(f"-o {out}: exists and is not a folder")
    if ex is None:
        ex = SERIAL if req.tiles <= SERIAL_TILES else Executor()
    if plan is not None:
        how = "z3" if engine == "z3" else ("orderly generation cut into tasks (16 per worker) on " + ex.describe()
                                           if ex.kind != "serial" else "orderly generation in this process")
        plan(f"synthesize: boards of {req.tiles} tiles, {how}" + (f", for at most {timeout:g} s" if timeout else ""))
    res = synthesize(req, engine, limit, timeout, progress, ex=ex, task_progress=task_progress)
    if out:
        target = Path(out)
        target.mkdir(parents=True, exist_ok=True)
        for k, f in enumerate(res.boards, 1):
            save_board(f.board, target / f"board-{k:03d}.toml")
        remove_stale(target, {f"board-{k:03d}.toml" for k in range(1, len(res.boards) + 1)}, SynthesisError)
    return SynthesisReport(res, count)


def synthesis_request(tiles: int | None = None, grid: str = "square", domain: str | None = None, closed: bool = False,
                      boundary: int | None = None, orientable: bool | None = None, euler: int | None = None,
                      manifold: bool = False, base: str | None = None) -> Request:
    """The synthesis request the options describe: ``domain`` a domain name or a board file whose domain to use,
    ``base`` a board to complete by taping its open sides."""
    from tapology.solver.synthesis import Request  # z3 loads only when asked for (start-up time)

    base_board = closed_board(base) if base else None
    dom: Any = domain
    if domain is not None and (domain.endswith(".toml") or Path(domain).exists()):
        try:
            dom = load_board(domain).board.domain
        except BoardFileError as exc:
            raise SynthesisError(f"--domain {domain}: {exc}") from None
    elif domain is not None:
        dom = domain_from_spec(base_board.grid if base_board else get_grid(grid), domain)
    return Request.make(tiles, grid, dom, closed, boundary, orientable, euler, manifold, base_board)
