"""Reports of the rule-set commands: ``moves``, ``perft``, ``rules``, ``fen``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from tapology.errors import NotationError, OptionError
from tapology.games.perft import PerftRun, auto_executor, estimate_leaves, perft_game, run_perft
from tapology.games.registry import load_rules, open_game, open_position
from tapology.limits import check
from tapology.parallel import Executor, check_timeout, time_limit
from tapology.reports.base import Report, engine_json, engine_of, engine_text, stop_exit, stop_text
from tapology.rules.engine import BACKENDS, RuleGame
from tapology.rules.native import engine as native_engine
from tapology.rules.playouts import MAX_PLIES, PlayoutRun, run_playouts
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
    claims: list[dict[str, Any]] = field(default_factory=list)  # what the player to move may claim instead

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "board": self.board, "to_move": self.to_move, "backend": self.backend,
                               "count": len(self.turns), "turns": self.turns, "outcome": self.outcome}
        if self.claims:
            out["claims"] = self.claims
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
        for c in self.claims:
            lines.append(f"{self.to_move} may claim instead: {c['name']} ({_claim_result(c['score'], self.to_move)})")
        return "\n".join(lines)


def moves_report(spec: str, board: str | None = None, position: str | None = None, backend: str = "propagate",
                 with_fen: bool = False) -> MovesReport:
    """The legal turns of the start position (or ``position``), the game's automatic end rules applied (a finished
    game has none), and what the player to move may claim instead; SAN and FEN for games with chess notation."""
    if backend not in BACKENDS:
        raise OptionError(f"--backend {backend!r}: use {', '.join(BACKENDS)}")
    g, pos = open_position(spec, board, position)
    native_engine(g.chains(pos.board))  # every table built at once (or read from the disk cache), then kept there
    turns = g.turns(pos, backend)
    outcome = g.outcome(pos) if not turns else None
    rep = MovesReport(g.name, g.board_name, g.players[pos.to_move], backend, [t.label for t in turns], outcome)
    if isinstance(g, RuleGame):
        rep.claims = [{"name": c.name, "score": c.score} for c in g.claims(pos)]
    chess = _chess(g)
    if chess is not None:
        rep.san = [chess.san(g, pos, t, turns) for t in turns]
        try:
            rep.fen = chess.fen(g, pos)
            if with_fen:
                rep.fens = [chess.fen(g, t.result) for t in turns]
        except NotationError:
            if with_fen:
                raise
    elif with_fen:
        raise OptionError(f"--fen: game {g.name!r} has no chess notation")
    return rep


def _chess(game: RuleGame) -> ModuleType | None:
    """:mod:`tapology.games.chess` where the game reads chess notation (loaded only then), else None."""
    if game.notation is None:
        return None
    from tapology.games import chess  # loads only when a game has a notation (start-up of the other games)

    return chess if isinstance(game.notation, chess.ChessNotation) else None


def _claim_result(score: dict[str, int], player: str) -> str:
    """``a draw``, ``a win`` or ``a loss`` for the player claiming."""
    if all(v == 0 for v in score.values()):
        return "a draw"
    return "a win" if score.get(player, 0) > 0 else "a loss"


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
                 timeout: float | None = None, plan: Callable[[str], None] | None = None,
                 bulk: bool = True, rbg: bool = False) -> PerftReport:
    """perft (optional end rules left out) split into tasks by first turns (:func:`tapology.games.perft.run_perft`)
    on ``ex`` (None: this process for a small count, every core for a big one, as estimated); ``plan(text)`` hears
    the estimate before the count starts.  ``timeout`` seconds or Ctrl-C give the finished tasks' count, partial.
    ``bulk=False`` makes every leaf turn instead of counting the last ply (the same count, for speed comparisons);
    ``rbg``: each turn once per way of playing it, as Regular Boardgames counts (in this process, in Python)."""
    if depth < 0:
        raise OptionError(f"--depth {depth}: must be ≥ 0")
    check_timeout(timeout)
    check("depth", depth, f"--depth {depth}: turns", OptionError)  # the native engine counts in 32 bits
    if rbg and by_first_turn:
        raise OptionError("--rbg with --divide: RBG's count has no first-turn labels (a turn may be played several "
                          "ways); count without --divide")
    g, pos = perft_game(spec, board, position)  # opened once: run_perft below counts on the same tables
    if rbg:
        t0 = time.perf_counter()
        with time_limit(timeout) as lim:
            try:
                nodes, done = g.perft(pos, depth, rbg=True), True
            except KeyboardInterrupt:
                nodes, done = 0, False
        used = engine_of(g, perft=True)  # --rbg counts on the interpreter where the native engine runs
        return PerftReport(depth, nodes, time.perf_counter() - t0, None, done, None, 1, int(done), "serial", [],
                           lim.stopped(done), timeout, used if used[0] == "python" else ("native", ""))
    t0 = time.perf_counter()
    with time_limit(timeout) as lim:
        try:
            estimate, exact = estimate_leaves(g, pos, depth)
        except KeyboardInterrupt:  # stopped while estimating (Ctrl-C, SIGTERM, the time limit): nothing counted yet
            return PerftReport(depth, 0, time.perf_counter() - t0, None, False, None, 0, 0, "serial",
                               [t.label for t in g.perft_turns(pos)], lim.stopped(False), timeout)
        if ex is None:
            ex = auto_executor(estimate)
        if plan is not None:
            plan(f"perft {depth} of {g.name} on {g.board_name}: about {estimate:.3g} leaf turns (exact to depth "
                 f"{exact}, then that ply's growth per ply); tasks by first turns on {ex.describe()}")
        try:
            run = run_perft(spec, depth, board, position, ex=ex, progress=progress,
                            min_tasks=SERIAL_STOP_TASKS if timeout is not None and ex.kind == "serial" else 1,
                            bulk=bulk, estimate=estimate)
        except KeyboardInterrupt:  # before the tasks started: nothing counted yet
            run = PerftRun(depth, 0, [], complete=False, executor=ex.describe(),
                           missing=[t.label for t in g.perft_turns(pos)])
    return PerftReport(depth, run.nodes, time.perf_counter() - t0, run.divided if by_first_turn else None,
                       run.complete, estimate, run.tasks, run.done, run.executor, run.missing,
                       lim.stopped(run.complete), timeout, run.engine or engine_of(g, perft=True))


@dataclass
class PlayoutsReport(Report):
    """Random playouts from a position: how many per second, how long, how they ended."""

    game: str
    board: str
    run: PlayoutRun

    def to_json(self) -> dict[str, Any]:
        out = {"game": self.game, "board": self.board, **self.run.to_json()}
        if not self.timings:
            for k in ("seconds", "playouts_per_second", "plies_per_second"):
                out.pop(k)
        return out

    def text(self) -> str:
        r = self.run
        mean = r.plies / r.playouts if r.playouts else 0.0
        took = f" in {r.seconds:.2f} s: {r.rate:,.1f} playouts/s, {r.ply_rate:,.0f} plies/s," if self.timings else ":"
        return (f"{r.playouts} playouts of {self.game} on {self.board}{took} {mean:.1f} plies on average; "
                f"{r.ended} ended, {r.capped} stopped at {r.max_plies} plies [seed {r.seed}, {r.engine}]")


def playouts_report(spec: str, board: str | None = None, position: str | None = None, *, seconds: float | None = None,
                    count: int | None = None, seed: int = 0, max_plies: int = MAX_PLIES) -> PlayoutsReport:
    """Random playouts (:func:`tapology.rules.playouts.run_playouts`) for ``seconds`` or ``count`` games from the
    start position (or ``position``), reproducible by ``seed``."""
    if (seconds is None) == (count is None):
        raise OptionError("playouts: give --seconds or --count (one of them)")
    if seconds is not None and not (0 < seconds < float("inf")):
        raise OptionError(f"--seconds {seconds}: must be a finite number > 0")
    if count is not None and count < 1:
        raise OptionError(f"--count {count}: must be ≥ 1")
    if max_plies < 1:
        raise OptionError(f"--max-plies {max_plies}: must be ≥ 1")
    check("depth", max_plies, f"--max-plies {max_plies}: plies", OptionError)
    g, pos = open_position(spec, board, position)
    if not isinstance(g, RuleGame):
        raise OptionError(f"playouts: game {spec!r} is not a rule set")
    return PlayoutsReport(g.name, g.board_name, run_playouts(g, pos, seconds=seconds, count=count, seed=seed,
                                                             max_plies=max_plies))


@dataclass
class RulesReport(Report):
    """A rule set with its moves drawn and its chart domain."""

    rules: Any

    def to_json(self) -> dict[str, Any]:
        from tapology.rules.describe import rules_json  # loads only when needed (start-up of the other reports)

        return rules_json(self.rules)

    def text(self) -> str:
        from tapology.rules.describe import rules_text  # loads only when needed (start-up of the other reports)

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
    chess = _chess(game)
    if chess is None:
        raise OptionError(f"fen: game {game.name!r} has no chess notation")
    if source is None:
        pos = game.initial()
    elif "/" in source and " " in source.strip():
        pos = chess.position_from_fen(game, source)
    else:
        game, pos = open_position(spec, board, source)
    return FenReport(chess.fen(game, pos), dumps_position(game, pos), game.board_name)
