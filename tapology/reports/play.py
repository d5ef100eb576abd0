"""Reports of the play commands: ``play``, ``solve``, ``referee``, ``verify``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tapology.errors import OptionError, ReachError, RecordError, SolveError, TapologyError, TranscriptError
from tapology.files import read_text
from tapology.games.kinrow import MAX_TILES as KINROW_TILES
from tapology.games.kinrow import kinrow_k
from tapology.games.registry import load_game
from tapology.limits import check
from tapology.play import referee as ref
from tapology.play.ai import make_agent, parse_strength
from tapology.play.reach import ReachResult, reach_game, reach_kinrow, reach_z3
from tapology.play.session import RECORD_FORMAT, GameRecord, PlaySession, check_record_target
from tapology.play.solve import SolveResult, solve_game, solve_kinrow
from tapology.play.transcript import read_transcript
from tapology.play.verify import Finding, lines_of_game, static_checks
from tapology.reports.base import Report

StageProgress = Callable[[str, int, int], None]  # (stage, done, total)
METHODS = ("auto", "exhaustive", "z3")


# ---- play ----------------------------------------------------------------------------------------
@dataclass
class PlayReport(Report):
    """A game played at the terminal: the turns, the result and the final position.  Its text is empty: the
    session has shown the game as it went."""

    result: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.result

    def text(self) -> str:
        return ""


def play_report(game: str, board: str | None = None, x: str = "human", o: str = "ai", strength: str = "perfect",
                seed: int | None = None, load: str | None = None, save: str | None = None, early_draw: bool = True, *,
                stdin: TextIO, show: TextIO, color: bool = False) -> PlayReport:
    """Play ``game`` with a human (reading ``stdin``) or the computer on each side, showing the game on ``show``;
    ``load`` continues a saved record, ``save`` (checked before the game) writes one at the end."""
    if save:
        check_record_target(save)  # before the game, so that a finished game is never lost
    record = GameRecord.load(load) if load else None
    if record is not None:
        game = game or record.game
        if record.game != game:
            raise RecordError(f"--load {load}: a record of {record.game} on {record.board}, not of {game}")
        board = board or record.board
    lg = load_game(game, board)
    if record is not None and record.board != lg.board_name:
        raise RecordError(f"--load {load}: a record of {record.game} on {record.board}, not {game} on {lg.board_name}")
    depth = parse_strength(strength)
    seats = []
    for k, (opt, who) in enumerate((("--x", x), ("--o", o))):
        w = who.strip().lower()
        if w not in ("human", "ai", "computer"):
            raise OptionError(f"{opt} {who!r}: use human or ai")
        seats.append(None if w == "human" else make_agent(lg.game, depth, None if seed is None else seed + k))
    if len(lg.game.players) != 2:
        raise OptionError(f"{game}: play takes two players, the game has {len(lg.game.players)}")
    sess = PlaySession(lg.game, seats, stdin, show, game_name=game, board_name=lg.board_name, early_draw=early_draw,
                       color=color, record=record, record_where=f"--load {load}")
    result = sess.run()
    if save:
        sess.record().save(save)
    return PlayReport(result)


# ---- solve ---------------------------------------------------------------------------------------
@dataclass
class SolveReport(Report):
    """A game's exact value with game-tree counts; partial counts when interrupted."""

    result: SolveResult

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.result.complete else 130

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        if not self.timings:
            del out["seconds"]
        return out

    def text(self) -> str:
        res = self.result
        if not res.complete:
            return f"interrupted: {res.positions:,} positions so far"
        lines = [f"{res.game} on {res.board}: {res.to_json()['value']} in {res.plies} plies",
                 f"positions {res.positions:,} (terminal {res.terminal_positions:,}); games {res.games:,} ("
                 + ", ".join(f"{p} {v:,}" for p, v in res.wins.items()) + f", draws {res.draws:,})"]
        if res.classes is not None:
            took = f"{res.seconds:.2f} s " if self.timings else ""
            lines.append(f"symmetry: {res.group} group of order {res.symmetries}, {res.classes:,} classes; "
                         f"{took}({res.method})")
        return "\n".join(lines)


def solve_report(game: str, board: str | None = None, symmetry: bool | None = None, generic: bool = False,
                 progress: StageProgress | None = None) -> SolveReport:
    """Solve ``game``: k-in-a-row games on bitmasks (``symmetry``: reduce by the game's symmetries, None: where it
    pays), other games (or with ``generic``) through the rule engine."""
    lg = load_game(game, board, fast=not generic)
    tiles = len(lg.generic.initial().board.tiles)
    if not generic and lg.kinrow is None and kinrow_k(lg.rules) is not None and tiles > KINROW_TILES:
        raise SolveError(f"{lg.name} on {lg.board_name!r}: {tiles} tiles is more than the {KINROW_TILES} the k-in-a-row "
                         "solver holds, and far beyond exhaustive search (try match, or verify --reach --depth K)")
    if lg.kinrow is not None:
        res = solve_kinrow(lg.kinrow, symmetry=symmetry, progress=progress, board_name=lg.board_name)
    else:
        res = solve_game(lg.game, progress=progress, board_name=lg.board_name)
    res.game = lg.name
    return SolveReport(res)


# ---- referee -------------------------------------------------------------------------------------
@dataclass
class RefereeReport(Report):
    """The verdict on a transcript (one), or on each game of a PGN file (``pgn``)."""

    verdicts: list[ref.RefereeReport]
    pgn: bool = False

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if all(v.valid for v in self.verdicts) else 1

    def to_json(self) -> dict[str, Any]:
        if self.pgn:
            return {"games": [v.to_json() for v in self.verdicts]}
        return self.verdicts[0].to_json()

    def text(self) -> str:
        if self.pgn:
            return "\n".join(f"game {i}: " + (f"valid: {v.steps} moves" if v.valid else f"invalid: {v.reason}")
                             for i, v in enumerate(self.verdicts, 1))
        v = self.verdicts[0]
        if v.valid:
            out = v.outcome
            end = "game over: " + ", ".join(f"{p} {s:+d}" for p, s in out.items()) if out else "game goes on"
            return f"valid: {v.steps} turns ({end})"
        return f"invalid at step {v.step} (line {v.line}): {v.reason}"


def referee_report(game: str, transcript: str | None = None, board: str | None = None, any_start: bool = False,
                   pgn: str | None = None, stdin: TextIO | None = None) -> RefereeReport:
    """Check a transcript (a file, or ``-`` for ``stdin``) turn by turn, or (``pgn``) every game of a PGN file."""
    if (transcript is None) == (pgn is None):
        raise OptionError("referee: give a transcript or --pgn FILE (one of them)")
    stdin = stdin or sys.stdin
    if pgn is not None:
        lg = load_game(game, board)
        text = stdin.read() if pgn == "-" else read_text(pgn, "PGN file", TranscriptError)
        return RefereeReport(ref.referee_pgn(lg.generic, text, pgn), pgn=True)
    assert transcript is not None
    text = stdin.read() if transcript == "-" else read_text(transcript, "transcript", TranscriptError)
    if f'"{RECORD_FORMAT}"' in text[:4096] and text.lstrip().startswith("{"):
        # a game record as ``play --save`` writes it: its turns, on its board unless --board says otherwise
        rec = GameRecord.from_text(text, transcript)
        board = board or rec.board
        text = "".join(json.dumps(t) + "\n" for t in rec.turns)
    lg = load_game(game, board)
    return RefereeReport([ref.referee(lg.game, read_transcript(lg.game, text, transcript), any_start=any_start)])


# ---- verify --------------------------------------------------------------------------------------
@dataclass
class VerifyReport(Report):
    """Static findings on a rule set, and (with a predicate) whether a position where it holds can be reached."""

    rules: str
    board: str | None
    findings: list[Finding]
    predicate: str | None = None
    depth: int = 0
    reach: ReachResult | None = field(default=None)

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        if self.reach is not None and not self.reach.complete:
            return 130
        if self.reach is not None and not self.reach.reachable:
            return 1  # the question's answer is no
        return 1 if any(f.severity == "error" for f in self.findings) else 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules, "board": self.board, "findings": [f.to_json() for f in self.findings]}
        if self.reach is not None:
            out["reach"] = self.reach.to_json()
        return out

    def text(self) -> str:
        lines = [f.text() for f in self.findings] or [f"{self.rules}: no findings"]
        r = self.reach
        if r is not None:
            if r.reachable:
                lines.append(f"reachable in {len(r.witness)} turns: {self.predicate}")
                lines.append("  witness: " + (" ".join(r.witness) or "(the start position)"))
            elif r.complete:
                lines.append(f"not reachable within {self.depth} turns: {self.predicate}")
            else:
                lines.append(f"unknown (search interrupted) within {self.depth} turns: {self.predicate}")
        return "\n".join(lines)


def verify_report(rules: str, board: str | None = None, reach: str | None = None, depth: int = 9, method: str = "auto",
                  play_to_full: bool = False, progress: StageProgress | None = None) -> VerifyReport:
    """Static checks of a rule set (a rule file that does not load is itself the finding), and with ``reach`` a
    bounded search for a position where the predicate holds, within ``depth`` turns (``method``: exhaustive or
    z3; auto picks)."""
    if method not in METHODS:
        raise OptionError(f"--method {method!r}: use auto, exhaustive or z3")
    try:
        lg = load_game(rules, board, stop_at_line=not play_to_full)
    except TapologyError as exc:
        if not Path(rules).is_file():
            raise
        return VerifyReport(rules, board, [Finding("error", "load", str(exc), rules)])
    kr = lg.kinrow
    if reach is not None and kr is not None:
        depth = min(depth, kr.n)  # a claim game ends within one turn per tile
    elif reach is not None:
        check("depth", depth, f"--depth {depth}: turns", ReachError)
    rep = VerifyReport(rules, lg.board_name, static_checks(lg), reach, depth)
    if reach is None:
        return rep
    if kr is not None and method == "z3":
        rep.reach = reach_z3(kr, reach, depth)
    elif kr is not None:
        rep.reach = reach_kinrow(kr, reach, depth, progress=progress)
    elif method == "z3":
        raise ReachError(f"--method z3 needs a k-in-a-row game; {rules} is searched exhaustively")
    else:
        lines, ps = lines_of_game(lg)
        rep.reach = reach_game(lg.game, reach, depth, lines=lines, player_states=ps, progress=progress)
    return rep
