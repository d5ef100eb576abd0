"""Reports of the rule-set commands: ``moves``, ``perft``, ``rules``, ``fen``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import NotationError, OptionError
from tapology.games.chess import ChessNotation, fen, position_from_fen, san
from tapology.games.registry import load_rules, open_game, open_position
from tapology.limits import check
from tapology.reports.base import Report
from tapology.rules.describe import rules_json, rules_text
from tapology.rules.engine import BACKENDS, RuleGame
from tapology.rules.perft import count_leaves, divide
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


@dataclass
class PerftReport(Report):
    """Leaf turns at a depth, optionally per first turn; partial when interrupted."""

    depth: int
    nodes: int
    seconds: float
    divided: list[tuple[str, int]] | None = None
    complete: bool = True

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.complete else 130

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"depth": self.depth, "nodes": self.nodes}
        if self.divided is not None:
            out["divide"] = {label: n for label, n in self.divided}
        if not self.complete:
            out["complete"] = False
        return out

    def text(self) -> str:
        lines = [f"{label}: {n}" for label, n in self.divided or ()]
        rate = self.nodes / self.seconds if self.seconds > 0 else 0
        lines.append(f"perft {self.depth}: {self.nodes}" + ("" if self.complete else " (interrupted, partial)")
                     + (f"  [{self.seconds:.2f} s, {rate:,.0f} leaf turns/s]" if self.timings else ""))
        return "\n".join(lines)


def perft_report(spec: str, depth: int, board: str | None = None, position: str | None = None, *,
                 by_first_turn: bool = False, progress: Progress | None = None) -> PerftReport:
    """perft (optional end rules left out), split by first turn when ``by_first_turn`` or when a ``progress``
    callback wants to hear after each; Ctrl-C gives the partial count."""
    if depth < 0:
        raise OptionError(f"--depth {depth}: must be ≥ 0")
    check("depth", depth, f"--depth {depth}: turns", OptionError)  # the native engine counts in 32 bits
    g, pos = open_position(spec, board, position)
    t0 = time.perf_counter()
    if depth == 0 or (not by_first_turn and progress is None):
        return PerftReport(depth, count_leaves(g, pos, depth), time.perf_counter() - t0)
    done: list[tuple[str, int]] = []
    complete = True
    try:
        divide(g, pos, depth, progress, into=done)
    except KeyboardInterrupt:
        complete = False
    return PerftReport(depth, sum(n for _l, n in done), time.perf_counter() - t0, done if by_first_turn else None,
                       complete)


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
