"""Reports for designing rule sets: properties (``verify --properties``), invariants (``verify --invariant``),
surface pitfalls, repairs, ``compare`` across surfaces, and boards chosen for a game value
(``synthesize --game --value``).  Each is a value with ``to_json()``, ``text()`` and ``exit_code``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapology.errors import OptionError, ReachError
from tapology.files import check_target, remove_stale, write_atomic
from tapology.games.registry import load_game
from tapology.limits import check
from tapology.model.boardfile import save_board
from tapology.play.analysis.invariants import InvariantResult, prove_invariant
from tapology.play.analysis.metrics import CompareResult, ValueBoards, boards_for_value, compare
from tapology.play.analysis.pitfalls import Pitfall, pitfall_checks
from tapology.play.analysis.properties import REFUTED, PropertiesResult, check_properties
from tapology.play.analysis.repair import RepairResult, changes_toml, repair
from tapology.play.solving.statespace import Progress
from tapology.render.svg import svg_to_png
from tapology.reports.base import Report
from tapology.solver.synthesis import Request


def _exit(interrupted: bool, failed: bool) -> int:
    """130 after Ctrl-C (the answers so far), else 1 for a no and 0 for a yes; a timeout is not a failure."""
    if interrupted:
        return 130
    return 1 if failed else 0


@dataclass
class PropertiesReport(Report):
    """The properties of a rule set on a board, its surface pitfalls, and repairs where properties fail."""

    result: PropertiesResult
    pitfalls: list[Pitfall] = field(default_factory=list)
    repairs: RepairResult | None = None

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        """1 when a property is refuted, 130 when the search was interrupted."""
        return _exit(self.result.interrupted or (self.repairs is not None and self.repairs.interrupted),
                     any(v.verdict == REFUTED for v in self.result.verdicts))

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        out["pitfalls"] = [p.to_json() for p in self.pitfalls]
        if self.repairs is not None:
            out["repairs"] = self.repairs.to_json()
        return out

    def text(self) -> str:
        r = self.result
        lines = [f"{r.game} on {r.board}:"]
        lines += ["  " + v.text().replace("\n", "\n  ") for v in r.verdicts]
        ex = r.explored
        lines.append(f"  explored: {ex.get('positions', 0):,} positions, {ex.get('depth', 0)} turns deep"
                     + (" (complete)" if ex.get("complete") else f" (stopped: {ex.get('stopped', '?')})")
                     + (f", {ex['symmetry']}" if ex.get("symmetry", "none") != "none" else "")
                     + f"; {r.seconds:.2f} s")
        if self.pitfalls:
            lines.append("pitfalls:")
            lines += ["  " + p.text() for p in self.pitfalls]
        if self.repairs is not None:
            rep = self.repairs
            lines.append("repairs:")
            for f in rep.failures:
                who = f" ({f.player})" if f.player else ""
                best = f.best
                lines.append(f"  {f.property}{who}: " + (best.change.description if best else "no change of the family "
                                                         "repairs it"))
            if rep.changes:
                lines.append("  combined repair " + ("passes" if rep.passes else "does not pass everything") + ":")
                lines += ["    " + ln for ln in changes_toml(rep.changes).splitlines()]
                if rep.after is not None:
                    lines += ["    " + v.text().splitlines()[0] for v in rep.after.verdicts]
        if r.interrupted:
            lines.append("interrupted: the answers above are those found so far")
        elif not r.complete:
            lines.append("the time ran out: each unknown answer says how far the search got (--timeout for more)")
        return "\n".join(lines)


def properties_report(spec: str, board: str | None = None, *, properties: Sequence[str] | None = None,
                      pitfalls: bool = True, repairs: bool = False, timeout: float = 60.0,
                      max_positions: int = 200_000, progress: Progress | None = None) -> PropertiesReport:
    """``verify GAME --properties``: every property (or those named), the surface pitfalls, and with ``repairs``
    the smallest change of the repair family for each failure, re-verified."""
    if timeout <= 0:
        raise OptionError(f"--timeout {timeout}: must be positive")
    lg = load_game(spec, board)
    res = check_properties(lg, properties=properties, timeout=timeout, max_positions=max_positions, progress=progress)
    rep = PropertiesReport(res)
    if pitfalls:
        rep.pitfalls = pitfall_checks(lg, timeout=min(10.0, timeout / 4))
    if repairs and any(v.verdict == REFUTED for v in res.verdicts):
        rep.repairs = repair(lg, before=res if properties is None else None, timeout=timeout * 2,
                             check_timeout=min(10.0, timeout / 4), progress=progress)
    return rep


@dataclass
class InvariantReport(Report):
    """An invariant, proved, refuted with a counterexample, or unknown within the bound."""

    result: InvariantResult

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        """0 proved, 1 refuted (or the methods disagree), 130 interrupted; unknown is 0 with the bound said."""
        return _exit(self.result.interrupted, self.result.verdict == REFUTED or not self.result.agree)

    def to_json(self) -> dict[str, Any]:
        return self.result.to_json()

    def text(self) -> str:
        r = self.result
        lines = [f"invariant {r.predicate!r} on {r.game} ({r.board}): {r.verdict} — {r.detail} [{r.method}]"]
        if r.witness is not None:
            lines.append("  counterexample: " + (" ".join(r.witness.turns) or "(the start position)"))
        for c in r.checks:
            lines.append(f"  {c.method}: {c.verdict} — {c.detail} ({c.seconds:.2f} s)")
        return "\n".join(lines)


def invariant_report(spec: str, board: str | None, predicate: str, *, method: str = "auto", depth: int | None = None,
                     timeout: float = 60.0, max_positions: int = 200_000, progress: Progress | None = None
                     ) -> InvariantReport:
    """``verify GAME --invariant PRED``: does PRED hold at every reachable position (across every turn, with prev)?"""
    lg = load_game(spec, board)
    if depth is not None and lg.kinrow is not None:
        depth = min(depth, lg.kinrow.n)  # a claim game ends within one turn per tile
    elif depth is not None:
        check("depth", depth, f"--depth {depth}: turns", ReachError)
    return InvariantReport(prove_invariant(lg, predicate, method=method, depth=depth, timeout=timeout,
                                           max_positions=max_positions, progress=progress))


@dataclass
class CompareReport(Report):
    """One rule set across surfaces: a table, JSON, and a chart written where asked."""

    result: CompareResult
    written: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return _exit(self.result.interrupted, False)

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        if self.written:
            out["written"] = list(self.written)
        return out

    def text(self) -> str:
        r = self.result
        head = f"{r.game} on {len(r.boards)} boards ({r.playouts} random playouts each, seed {r.seed}; {r.seconds:.1f} s)"
        tail = [f"wrote {w}" for w in self.written]
        if not r.complete:
            tail.append("stopped early: the boards above are those done")
        return "\n".join([head, r.table(), *tail])


def compare_report(spec: str, boards: str, *, playouts: int = 1000, seed: int = 0, timeout: float = 300.0,
                   svg: str | None = None, png: str | None = None, progress: Progress | None = None,
                   plan: Callable[[str], None] | None = None) -> CompareReport:
    """``compare GAME --boards B,...|census:N``: exact values and playout estimates per board; the chart as SVG or
    PNG where asked (targets checked before the work)."""
    if playouts < 0:
        raise OptionError(f"--playouts {playouts}: must be 0 or more")
    for target in (svg, png):
        if target is not None:
            check_target(Path(target), OptionError)
    res = compare(spec, boards, playouts=playouts, seed=seed, timeout=timeout, progress=progress, plan=plan)
    rep = CompareReport(res)
    if svg is not None:
        write_atomic(svg, res.svg(), OptionError)
        rep.written.append(svg)
    if png is not None:
        svg_to_png(res.svg(), png)
        rep.written.append(png)
    return rep


@dataclass
class ValueBoardsReport(Report):
    """Boards on which a game has a value (``synthesize --game --value``)."""

    result: ValueBoards
    written: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return _exit(self.result.interrupted, not self.result.boards)

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        if self.written:
            out["written"] = list(self.written)
        return out

    def text(self) -> str:
        r = self.result
        lines = [f"{b.surface:<28} {b.exact['value'] if b.exact else '?':<18} {b.exact['plies'] if b.exact else ''}  "
                 f"{b.signature}" for b in r.boards]
        lines.append(f"{len(r.boards)} boards on which {r.game} is "
                     + {"draw": "a draw", "first": "a first-player win", "second": "a second-player win"}[r.value]
                     + (f" in {r.plies} plies" if r.plies is not None else "")
                     + f" (of {r.examined} examined: " + ", ".join(f"{k} {v}" for k, v in sorted(r.by_value.items())) + ")")
        if r.longest is not None and r.longest.exact is not None:
            lines.append(f"longest forced win: {r.longest.exact['plies']} plies on {r.longest.surface} "
                         f"({r.longest.signature})")
        lines += [f"wrote {w}" for w in self.written]
        if not r.complete:
            lines.append("stopped early: the boards above are those found")
        return "\n".join(lines)


def value_boards_report(spec: str, request: Request, value: str, *, plies: int | None = None, limit: int | None = None,
                        timeout: float = 300.0, out_dir: str | None = None,
                        progress: Callable[[str, int, int], None] | None = None) -> ValueBoardsReport:
    """``synthesize ... --game GAME --value draw|first|second [--plies N]``: the boards ``request`` asks for on which
    the game has that value; with ``out_dir`` each is written as ``DIR/board-NNN.toml``."""
    if out_dir is not None and not Path(out_dir).is_dir():
        raise OptionError(f"-o {out_dir}: not a folder")
    res = boards_for_value(spec, request, value, plies=plies, limit=limit, timeout=timeout, progress=progress)
    rep = ValueBoardsReport(res)
    if out_dir is not None:
        for i, b in enumerate(res.boards, 1):
            if b.board is not None:
                path = str(Path(out_dir) / f"board-{i:03d}.toml")
                save_board(b.board, path)
                rep.written.append(path)
        remove_stale(out_dir, {Path(p).name for p in rep.written}, OptionError)
    return rep


def dumps(rep: Report) -> str:
    """A report's JSON as printed with ``--json``."""
    return json.dumps(rep.to_json(), indent=2, ensure_ascii=False)
