"""Reports of the play commands: ``play``, ``solve``, ``referee``, ``verify``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tapology.adapters.match import make_player
from tapology.errors import (
    OptionError,
    ReachError,
    RecordError,
    SolveError,
    StrengthError,
    TapologyError,
    TranscriptError,
)
from tapology.files import read_stream, read_text
from tapology.games.kinrow import MAX_TILES as KINROW_TILES
from tapology.games.kinrow import connect_claim, kinrow_k
from tapology.games.registry import LoadedGame, load_game
from tapology.games.verify import Finding, lines_of_game, static_checks
from tapology.limits import check
from tapology.parallel import Executor, check_timeout, time_limit
from tapology.play.analysis.reach import ReachResult, reach_game, reach_kinrow, reach_z3
from tapology.play.playing import referee as ref
from tapology.play.playing.ai import SEARCHES, Agent, make_agent, parse_player, parse_strength
from tapology.play.playing.chessplay import chess_game
from tapology.play.playing.session import RECORD_FORMAT, GameRecord, PlaySession, autosave_path, check_record_target
from tapology.play.playing.transcript import read_transcript
from tapology.play.solving.solve import (
    SolvePlan,
    SolveResult,
    game_plan,
    kinrow_layer_bounds,
    kinrow_plan,
    solve_game,
    solve_kinrow,
)
from tapology.reports.base import UNDECIDED, Report, engine_json, engine_of, engine_text, stop_exit, stop_text

StageProgress = Callable[[str, int, int], None]  # (stage, done, total)
DEFAULT_MOVE_TIME = 10.0  # seconds a computer player searches a move for, unless told otherwise
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


def play_report(game: str, board: str | None = None, x: str | None = None, o: str | None = None,
                strength: str = "perfect",
                seed: int | None = None, load: str | None = None, save: str | None = None, early_draw: bool = True, *,
                stdin: TextIO, show: TextIO, color: bool = False, move_time: float | None = DEFAULT_MOVE_TIME,
                resume: str | None = None, autosave: bool = True,
                thinking: Callable[[str], AbstractContextManager[object]] | None = None,
                pgn_out: str | None = None, seats: Sequence[str] = ()) -> PlayReport:
    """Play ``game`` with a human (reading ``stdin``) or a computer player on each side (``ai`` at ``strength``, or
    a player spec such as ``mcts:2000`` or ``alphabeta:6@2``), showing the game on ``show``.  The game is saved
    after every turn (atomically) to ``save``, else (``autosave``) to :func:`autosave_path`; ``load`` continues a
    saved record, ``resume`` continues one and keeps saving to it.  ``move_time`` limits each computer move's
    search (a spec's own ``@SECONDS`` wins); ``thinking(who)`` is entered while the computer thinks.  ``x``/``o``
    default to the record's players (a human-vs-human record resumes as such), else human and ai.  ``pgn_out``:
    the game as PGN after every turn (chess).  ``seats``: ``PLAYER=WHO`` for any player (games of more than two
    players: the players after the first two are ai unless a seat names them)."""
    check_timeout(move_time, "--move-time")
    if resume is not None:
        if load is not None and load != resume:
            raise OptionError("--resume FILE continues FILE: give it without --load")
        load = resume
        save = save or resume
    target = save or (autosave_path() if autosave else None)
    if target:
        check_record_target(target)  # before the game, so that a finished game is never lost
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
    kept = record.players if record is not None else {}
    players = lg.game.players
    whos = {p: kept.get(p, "human" if i == 0 else "ai") for i, p in enumerate(players)}
    given = {**({players[0]: x} if x is not None else {}), **({players[1]: o} if o is not None and len(players) > 1
                                                           else {})}
    for item in seats:
        name, eq, who = item.partition("=")
        name = name.strip()
        if not eq or not who.strip():
            raise OptionError(f"--seat {item!r}: write PLAYER=WHO (e.g. --seat {players[-1]}=random)")
        if name not in whos:
            raise OptionError(f"--seat {item!r}: {game} has no player {name!r} (players: {', '.join(players)})")
        if name in given:
            raise OptionError(f"--seat {item!r}: {name} is already seated (by --x, --o or another --seat)")
        given[name] = who.strip()
    whos.update(given)
    if pgn_out is not None:
        if chess_game(lg.game) is None:
            raise OptionError(f"--pgn-out {pgn_out}: PGN holds chess games; {game} is not one")
        check_record_target(pgn_out)
    elif target and not save and chess_game(lg.game) is not None:
        pgn_out = str(Path(target).with_suffix(".pgn"))  # the autosave of a chess game comes with its PGN
    opts = [("--x" if i == 0 and x is not None else "--o" if i == 1 and o is not None else f"--seat {p}")
            for i, p in enumerate(players)]
    seated = [_seat(lg, opt, whos[p], depth, None if seed is None else seed + k, move_time, game, board)
              for k, (opt, p) in enumerate(zip(opts, players, strict=True))]
    if any(seat is None for seat in seated) and (stdin is None or getattr(stdin, "closed", False)):
        raise OptionError("play: standard input is closed, and a human player reads turns from it (give computer "
                          "players: --x ai --o ai)")
    sess = PlaySession(lg.game, seated, stdin, show, game_name=game, board_name=lg.board_name, early_draw=early_draw,
                       color=color, record=record, record_where=f"--load {load}", autosave=target, thinking=thinking,
                       pgn_out=pgn_out)
    try:
        result = sess.run()
    except KeyboardInterrupt:
        if target:
            sess.say(f"interrupted after {len(sess.labels)} turns; the game is saved in {target} "
                     f"(tapology play {game} --resume {target})")
        raise
    if target:
        sess.record().save(target)
    return PlayReport(result)


def _seat(lg: LoadedGame, opt: str, who: str, depth: int, seed: int | None, move_time: float | None, game: str,
          board: str | None) -> Agent | None:
    """The player of one seat: None for a human, ``ai`` at the strength, or a player spec (adapters.match)."""
    w = who.strip().lower()
    if w == "human":
        return None
    if w in ("ai", "computer"):
        return make_agent(lg.game, depth, seed, move_time)
    try:
        spec = parse_player(w, opt)
    except StrengthError:
        raise OptionError(f"{opt} {who!r}: use human, ai, or a computer player: random, perfect, a depth, "
                          "alphabeta:D or mcts:N, with @SECONDS for a time limit per move") from None
    if spec.kind not in SEARCHES:  # random, perfect, a depth: as ai at that strength, within the move time
        return make_agent(lg.game, spec.budget, seed, move_time)
    if spec.seconds is None and move_time is not None:
        w += f"@{move_time:g}"
    return make_player(game, board, w, seed, game=lg.game)


# ---- solve ---------------------------------------------------------------------------------------
@dataclass
class SolveReport(Report):
    """A game's exact value with game-tree counts; after a timeout or Ctrl-C the counts of the layers (positions)
    done, marked partial, with the estimate of the whole."""

    result: SolveResult
    stopped: str | None = None
    timeout: float | None = None
    plan: SolvePlan | None = None
    engine: tuple[str, str] = ("python", "")

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        if self.result.complete:
            return 0
        return stop_exit(self.stopped or "interrupted")

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json() | engine_json(self.engine)
        if not self.timings:
            del out["seconds"]
        if not self.result.complete:
            out["stopped"] = self.stopped or "interrupted"
            if self.plan is not None:
                out["estimate"] = self.plan.to_json()
        return out

    def text(self) -> str:
        res = self.result
        if not res.complete:
            done = res.extra.get("layers_done")
            what = (f"{done} of {res.n_layers} layers done, " if done is not None and res.n_layers else "")
            classes = f" ({res.classes:,} classes)" if res.classes and res.classes != res.positions else ""
            line = (f"{res.game} on {res.board}: {stop_text(self.stopped or 'interrupted', self.timeout)}: {what}"
                    f"{res.positions:,} positions{classes} explored")
            if self.plan is not None:
                line += f"; the whole: at most {self.plan.bound:.3g} positions"
            return line + "\n" + engine_text(self.engine)
        lines = [f"{res.game} on {res.board}: {res.to_json()['value']} in {res.plies} plies",
                 f"positions {res.positions:,} (terminal {res.terminal_positions:,}); games {res.games:,} ("
                 + ", ".join(f"{p} {v:,}" for p, v in res.wins.items()) + f", draws {res.draws:,})"]
        if res.classes is not None:
            took = f"{res.seconds:.2f} s " if self.timings else ""
            lines.append(f"symmetry: {res.group} group of order {res.symmetries}, {res.classes:,} classes; "
                         f"{took}({res.method})")
        lines.append(engine_text(self.engine))
        return "\n".join(lines)


def solve_plan(lg: LoadedGame, symmetry: bool | None = None) -> SolvePlan:
    """The estimate of solving a loaded game: the layered solver's for k-in-a-row games, the memoised search's else."""
    if lg.kinrow is not None:
        return kinrow_plan(lg.kinrow, symmetry, lg.board_name)
    g = lg.generic
    start = g.initial().board
    sides = sum(1 for row in start.glue for c in row if c < 0) if lg.rules.tape is not None else 0
    return game_plan(lg.game, lg.rules.n_states, len(start.tiles), sides, start.grid.group.order, lg.board_name)


def solve_report(game: str, board: str | None = None, symmetry: bool | None = None, generic: bool = False,
                 progress: StageProgress | None = None, *, ex: Executor | None = None, timeout: float | None = None,
                 force: bool = False, plan: Callable[[str], None] | None = None) -> SolveReport:
    """Solve ``game``: k-in-a-row games on bitmasks (``symmetry``: reduce by the game's symmetries, None: where it
    pays; big layers split into tasks on ``ex``, None: every core), other games (or with ``generic``) through the
    rule engine.  A game whose state-space bound is beyond reach is refused at once, saying why and what to use
    instead (``force``: try anyway); ``plan(text)`` hears the estimate before the solve starts.  ``timeout``
    seconds or Ctrl-C give the counts so far, partial."""
    check_timeout(timeout)
    lg = load_game(game, board, fast=not generic)
    tiles = len(lg.generic.initial().board.tiles)
    if not generic and lg.kinrow is None and kinrow_k(lg.rules) is not None and tiles > KINROW_TILES:
        raise SolveError(f"{lg.name} on {lg.board_name!r}: {tiles} tiles is more than the {KINROW_TILES} the k-in-a-row "
                         "solver holds, and far beyond exhaustive search (try match, or verify --reach --depth K)")
    sp = solve_plan(lg, symmetry)
    if sp.beyond is not None and not force:
        raise SolveError(f"solve {lg.name} on {lg.board_name}: beyond exhaustive solving: {sp.beyond}. Instead: "
                         f"'tapology perft {game} --depth D' counts the game tree to a depth, 'tapology match {game} "
                         f"--a alphabeta:6 --b mcts:1000' measures players, 'tapology verify {game} --reach P --depth "
                         f"K' answers bounded questions (--force solves anyway)")
    if plan is not None:
        plan(sp.text())
    # a claim game on bitmasks: k in a row, or a connection game (Hex) whose win sets are its minimal connections
    claim = lg.kinrow if lg.kinrow is not None or generic else connect_claim(lg.generic)
    with time_limit(timeout) as lim:
        try:
            if claim is not None:
                res = solve_kinrow(claim, symmetry=symmetry, progress=progress, board_name=lg.board_name,
                                   ex=Executor() if ex is None else ex)
            else:
                res = solve_game(lg.game, progress=progress, board_name=lg.board_name)
        except KeyboardInterrupt:  # before the search started
            res = SolveResult(lg.name, lg.board_name, None, None, 0, 0, 0, {p: 0 for p in lg.game.players}, 0,
                              complete=False)
    res.game = lg.name
    return SolveReport(res, lim.stopped(res.complete), timeout, sp, engine_of(claim if claim is not None else lg.game))


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
            return "\n".join(f"game {i}: " + (_pgn_valid(v) if v.valid else f"invalid: {v.reason}")
                              for i, v in enumerate(self.verdicts, 1))
        v = self.verdicts[0]
        if v.valid:
            out = v.outcome
            end = "game over: " + ", ".join(f"{p} {s:+d}" for p, s in out.items()) if out else "game goes on"
            return f"valid: {v.steps} turns ({end})"
        return f"invalid at step {v.step} (line {v.line}): {v.reason}"


def _pgn_valid(v: ref.RefereeReport) -> str:
    """``valid: 33 moves (65 plies), checkmate``."""
    moves = v.moves if v.moves is not None else v.steps
    return (f"valid: {moves} move{'s' if moves != 1 else ''} ({v.steps} pl{'ies' if v.steps != 1 else 'y'}), "
            + (v.end or "the game ends" if v.outcome is not None else "the game goes on"))


def referee_report(game: str, transcript: str | None = None, board: str | None = None, any_start: bool = False,
                   pgn: str | None = None, stdin: TextIO | None = None) -> RefereeReport:
    """Check a transcript (a file, or ``-`` for ``stdin``) turn by turn, or (``pgn``) every game of a PGN file."""
    if (transcript is None) == (pgn is None):
        raise OptionError("referee: give a transcript or --pgn FILE (one of them)")
    stdin = stdin if stdin is not None else sys.stdin
    if pgn is not None:
        lg = load_game(game, board)
        if lg.generic.notation is None:  # a PGN game is in chess notation: no other rule set reads it
            raise OptionError(f"--pgn {pgn}: PGN holds chess games, and {lg.name} has no chess notation "
                              "(give a transcript of its turns instead)")
        text = read_stream(stdin, "PGN", TranscriptError) if pgn == "-" else read_text(pgn, "PGN file", TranscriptError)
        return RefereeReport(ref.referee_pgn(lg.generic, text, pgn), pgn=True)
    assert transcript is not None
    text = (read_stream(stdin, "transcript", TranscriptError) if transcript == "-"
            else read_text(transcript, "transcript", TranscriptError))
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
    stopped: str | None = None
    timeout: float | None = None

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        if self.reach is not None and not self.reach.complete:
            # a yes/no question left open by --timeout is neither yes (0) nor no (1)
            return UNDECIDED if self.stopped == "timeout" else stop_exit(self.stopped or "interrupted")
        if self.reach is not None and not self.reach.reachable:
            return 1  # the question's answer is no
        return 1 if any(f.severity == "error" for f in self.findings) else 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules, "board": self.board, "findings": [f.to_json() for f in self.findings]}
        if self.reach is not None:
            out["reach"] = self.reach.to_json()
            if not self.reach.complete:
                out["reach"]["stopped"] = self.stopped or "interrupted"
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
                lines.append(f"unknown within {self.depth} turns ({stop_text(self.stopped or 'interrupted', self.timeout)}"
                             f", {r.explored or 0:,} positions checked): {self.predicate}")
        return "\n".join(lines)


def verify_report(rules: str, board: str | None = None, reach: str | None = None, depth: int = 9, method: str = "auto",
                  play_to_full: bool = False, progress: StageProgress | None = None, *,
                  timeout: float | None = None, plan: Callable[[str], None] | None = None) -> VerifyReport:
    """Static checks of a rule set (a rule file that does not load is itself the finding), and with ``reach`` a
    bounded search for a position where the predicate holds, within ``depth`` turns (``method``: exhaustive or
    z3; auto picks); ``timeout`` seconds or Ctrl-C stop the search with what it checked, partial."""
    check_timeout(timeout)
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
    if kr is None and method == "z3":
        raise ReachError(f"--method z3 needs a k-in-a-row game; {rules} is searched exhaustively")
    rep.timeout = timeout
    if plan is not None:
        if kr is not None:
            bound = sum(kinrow_layer_bounds(kr.n)[:depth + 1])
            how = f"z3 over {depth + 1} frames" if method == "z3" else "breadth first"
            plan(f"verify --reach on {lg.name} ({lg.board_name}): {how} to {depth} turns, at most {bound:.3g} "
                 "positions (fewer by symmetry)")
        else:
            plan(f"verify --reach on {lg.name} ({lg.board_name}): breadth first to {depth} turns through the rule engine")
    with time_limit(timeout) as lim:
        try:
            if kr is not None and method == "z3":
                rep.reach = reach_z3(kr, reach, depth)
            elif kr is not None:
                rep.reach = reach_kinrow(kr, reach, depth, progress=progress)
            else:
                lines, ps = lines_of_game(lg)
                rep.reach = reach_game(lg.game, reach, depth, lines=lines, player_states=ps, progress=progress)
        except KeyboardInterrupt:  # z3 does not stop on its own: the search so far is unknown
            rep.reach = ReachResult(reach, depth, False, method, complete=False)
    rep.stopped = lim.stopped(rep.reach.complete)
    return rep
