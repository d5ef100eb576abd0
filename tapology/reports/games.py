"""Reports of the rule-set commands: ``moves``, ``perft``, ``rules``, ``fen``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import NotationError, OptionError
from tapology.games.chess import ChessNotation, fen, position_from_fen, san
from tapology.games.perft import PerftRun, auto_executor, estimate_leaves, run_perft
from tapology.games.registry import load_rules, open_game, open_position
from tapology.limits import check
from tapology.parallel import Executor, check_timeout, time_limit
from tapology.reports.base import Report, engine_json, engine_of, engine_text, stop_exit, stop_text
from tapology.rules.describe import rules_json, rules_text
from tapology.rules.engine import BACKENDS, RuleGame
from tapology.rules.position import dumps_position

Progress = Callable[[int, int], None]


@dataclass
class MovesReport(Report):
    """The legal turns of a position."""

    game: str
    board: str
    to_move: str
    backend: str
    turns: list[str]
    outcome: dict[str, int] | None
    san: list[str] | None = None
    fen: str | None = None
    fens: list[str] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "board": self.board, "to_move": self.to_move, "backend": self.backend,
                               "count": len(self.turns), "turns": self.turns, "outcome": self.outcome}
        if self.san is not None:
            out["san"] = self.san
        if self.fen is not None:
            out["fen"] = self.fen
        if self.fens is not None:
            out["fens"] = self.fens
        return out

    def text(self) -> str:
        if not self.turns:
            return f"no legal turn for {self.to_move}; outcome: {self.outcome}"
        lines = [f"{len(self.turns)} legal turns for {self.to_move}:"]
        for i, t in enumerate(self.turns, 1):
            extra = f"  {self.san[i - 1]}" if self.san is not None else ""
            extra += f"  {self.fens[i - 1]}" if self.fens is not None else ""
            lines.append(f"{i:>4}  {t}{extra}")
        return "\n".join(lines)


def moves_report(spec: str, board: str | None = None, position: str | None = None, backend: str = "propagate",
                 with_fen: bool = False) -> MovesReport:
    """The legal turns of the start position (or ``position``); SAN and FEN for games with chess notation."""
    if backend not in BACKENDS:
        raise OptionError(f"--backend {backend!r}: use {', '.join(BACKENDS)}")
    g, pos = open_position(spec, board, position)
    turns = g.turns(pos, backend)
    outcome = g.outcome(pos) if not turns else None
    rep = MovesReport(g.name, g.board_name, g.players[pos.to_move], backend, [t.label for t in turns], outcome)
    if isinstance(g.notation, ChessNotation):
        rep.san = [san(g, pos, t, turns) for t in turns]
        try:
            rep.fen = fen(g, pos)
            if with_fen:
                rep.fens = [fen(g, t.result) for t in turns]
        except NotationError:
            if with_fen:
                raise
    elif with_fen:
        raise OptionError(f"--fen: game {g.name!r} has no chess notation")
    return rep


SERIAL_STOP_TASKS = 64  # with a timeout in this process, small enough tasks that the stop comes soon after it


@dataclass
class PerftReport(Report):
    """Leaf turns at a depth, optionally per first turn; partial (the finished tasks) after a timeout or Ctrl-C."""

    depth: int
    nodes: int
    seconds: float
    divided: list[tuple[str, int]] | None = None
    complete: bool = True
    estimate: int | None = None
    tasks: int = 0
    tasks_done: int = 0
    executor: str = "serial"
    missing: list[str] = field(default_factory=list)
    stopped: str | None = None
    timeout: float | None = None
    engine: tuple[str, str] = ("python", "")

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return stop_exit(self.stopped)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"depth": self.depth, "nodes": self.nodes, **engine_json(self.engine)}
        if self.divided is not None:
            out["divide"] = {label: n for label, n in self.divided}
        if not self.complete:
            out.update({"complete": False, "stopped": self.stopped, "estimate": self.estimate, "tasks": self.tasks,
                        "tasks_done": self.tasks_done, "unfinished_first_turns": self.missing,
                        "executor": self.executor})
            if self.timings:
                out["seconds"] = round(self.seconds, 3)
        return out

    def text(self) -> str:
        lines = [f"{label}: {n}" for label, n in self.divided or ()]
        rate = self.nodes / self.seconds if self.seconds > 0 else 0
        took = f"  [{self.seconds:.2f} s, {rate:,.0f} leaf turns/s, {self.executor}]" if self.timings else ""
        if self.complete:
            lines.append(f"perft {self.depth}: {self.nodes}{took}")
        else:
            lines.append(f"perft {self.depth}: at least {self.nodes} ({stop_text(self.stopped, self.timeout)}; "
                         f"{self.tasks_done} of {self.tasks} tasks done, about {self.estimate or 0:.3g} estimated; "
                         f"first turns not finished: {' '.join(self.missing) or 'none'}){took}")
        lines.append(engine_text(self.engine))
        return "\n".join(lines)


def perft_report(spec: str, depth: int, board: str | None = None, position: str | None = None, *,
                 by_first_turn: bool = False, progress: Progress | None = None, ex: Executor | None = None,
                 timeout: float | None = None, plan: Callable[[str], None] | None = None) -> PerftReport:
    """perft (optional end rules left out) split into tasks by first turns (:func:`tapology.games.perft.run_perft`)
    on ``ex`` (None: this process for a small count, every core for a big one, as estimated); ``plan(text)`` hears
    the estimate before the count starts.  ``timeout`` seconds or Ctrl-C give the finished tasks' count, partial."""
    if depth < 0:
        raise OptionError(f"--depth {depth}: must be ≥ 0")
    check_timeout(timeout)
    check("depth", depth, f"--depth {depth}: turns", OptionError)  # the native engine counts in 32 bits
    g, pos = open_position(spec, board, position)
    t0 = time.perf_counter()
    with time_limit(timeout) as lim:  # a limit running out in the estimate leaves nothing to print
        estimate, exact = estimate_leaves(g, pos, depth)
        if ex is None:
            ex = auto_executor(estimate)
        if plan is not None:
            plan(f"perft {depth} of {g.name} on {g.board_name}: about {estimate:.3g} leaf turns (exact to depth "
                 f"{exact}, then that ply's growth per ply); tasks by first turns on {ex.describe()}")
        try:
            run = run_perft(spec, depth, board, position, ex=ex, progress=progress,
                            min_tasks=SERIAL_STOP_TASKS if timeout is not None and ex.kind == "serial" else 1)
        except KeyboardInterrupt:  # before the tasks started: nothing counted yet
            run = PerftRun(depth, 0, [], complete=False, executor=ex.describe(),
                           missing=[t.label for t in g.perft_turns(pos)])
    return PerftReport(depth, run.nodes, time.perf_counter() - t0, run.divided if by_first_turn else None,
                       run.complete, estimate, run.tasks, run.done, run.executor, run.missing,
                       lim.stopped(run.complete), timeout, engine_of(g, perft=True))


@dataclass
class RulesReport(Report):
    """A rule set with its moves drawn and its chart domain."""

    rules: Any

    def to_json(self) -> dict[str, Any]:
        return rules_json(self.rules)

    def text(self) -> str:
        return rules_text(self.rules)


def rules_report(spec: str) -> RulesReport:
    """The rule set GAME names."""
    return RulesReport(load_rules(spec))


@dataclass
class FenReport(Report):
    """A position as FEN and as a position file."""

    fen: str
    position: str
    board: str
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"fen": self.fen, "board": self.board, "position": self.position}

    def text(self) -> str:
        return self.fen


def fen_report(spec: str, source: str | None = None, board: str | None = None) -> FenReport:
    """Convert: a FEN string or file, or a position file, of a game with chess notation, into FEN and the project's
    position format; the start position when ``source`` is None."""
    game: RuleGame = open_game(spec, board)
    if not isinstance(game.notation, ChessNotation):
        raise OptionError(f"fen: game {game.name!r} has no chess notation")
    if source is None:
        pos = game.initial()
    elif "/" in source and " " in source.strip():
        pos = position_from_fen(game, source)
    else:
        game, pos = open_position(spec, board, source)
    return FenReport(fen(game, pos), dumps_position(game, pos), game.board_name)
