"""The referee: is each step of a transcript exactly one legal turn of the player to move?

:func:`valid_transition` is pure — it looks only at the two positions and the game's
rules — like seed 002's ``validTransition``.  For k-in-a-row games it works on the two
bitmasks and explains a refusal in the seed's terms (a mark erased, two marks made, no mark
made, the wrong player's mark, play after the game ended); for any other game it lists the
legal turns and says what changed.  :func:`referee` applies it along a transcript.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tapology.errors import TapologyError
from tapology.game import ClaimGame, Game, Position, Turn
from tapology.games.chess import position_from_fen, read_pgn
from tapology.games.kinrow import PLAYERS, bits, popcount
from tapology.play.playing.chessplay import chess_ending, san_of
from tapology.play.playing.reasons import why_illegal
from tapology.play.playing.transcript import Entry, state_names
from tapology.rules.engine import RuleGame


@dataclass(frozen=True)
class Verdict:
    """Whether one step is legal; the turn that explains it, or the reason it is not."""

    valid: bool
    reason: str = ""
    turn: str | None = None
    result: Position | None = None  # the position the turn gives (with its counters), when one does


def _tile_list(game: Game, tiles: Sequence[int]) -> str:
    ids = game.initial().board.tiles
    return ", ".join(ids[t] for t in tiles)


def _line_text(game: ClaimGame, idx: int) -> str:
    return "-".join(game.board.tiles[t] for t in game.lines[idx])


def _over_reason(game: ClaimGame, x: int, o: int) -> str | None:
    st = game.status(x, o)
    if not st.over:
        return None
    if st.winner is not None:
        mask = x if st.winner == 0 else o
        return f"the game was already over: {PLAYERS[st.winner]} has the line {_line_text(game, game.lines_of(mask)[0])}"
    return "the game was already over: the board is full"


def kinrow_transition(game: ClaimGame, prev: Position, nxt: Position) -> Verdict:
    """:func:`valid_transition` for a k-in-a-row game, on bitmasks.  Cost O(n + lines)."""
    if prev.board.glue != nxt.board.glue or prev.board.extra != nxt.board.extra:
        return Verdict(False, "the board's gluing changed: a claim does not tape")
    try:
        x0, o0 = game.masks_of(prev, "previous position")
        x1, o1 = game.masks_of(nxt, "next position")
    except ValueError as exc:
        return Verdict(False, str(exc))
    if x1 & o1:
        return Verdict(False, f"tile {_tile_list(game, bits(x1 & o1))} holds both X and O")
    try:
        mover = game.to_move_of(x0, o0)
    except ValueError as exc:
        return Verdict(False, f"the previous position is impossible: {exc}")
    if prev.to_move != mover:
        return Verdict(False, f"the previous position says {PLAYERS[prev.to_move]} is to move, "
                              f"but the marks say {PLAYERS[mover]}")
    over = _over_reason(game, x0, o0)
    if over:
        return Verdict(False, over)
    changed_x = x0 & ~x1
    changed_o = o0 & ~o1
    for t in bits(changed_x | changed_o):
        was = "X" if x0 >> t & 1 else "O"
        now = "X" if x1 >> t & 1 else "O" if o1 >> t & 1 else "empty"
        verb = "was erased" if now == "empty" else f"was changed to {now}"
        return Verdict(False, f"tile {game.board.tiles[t]}: its {was} {verb}")
    new_x, new_o = x1 & ~x0, o1 & ~o0
    made = popcount(new_x) + popcount(new_o)
    if made == 0:
        return Verdict(False, "no mark was made")
    if made > 1:
        return Verdict(False, f"{made} marks were made (tiles {_tile_list(game, bits(new_x | new_o))}): a turn claims one tile")
    t = bits(new_x | new_o)[0]
    who = 0 if new_x else 1
    if who != mover:
        return Verdict(False, f"{PLAYERS[who]} claimed tile {game.board.tiles[t]}, but it is {PLAYERS[mover]}'s turn")
    if nxt.to_move != 1 - mover:
        return Verdict(False, f"the next position says {PLAYERS[nxt.to_move]} is to move; after {PLAYERS[mover]}'s claim it is "
                              f"{PLAYERS[1 - mover]}'s turn")
    if nxt.ply != prev.ply + 1:
        return Verdict(False, f"the next position is at ply {nxt.ply}, not {prev.ply + 1}")
    if nxt.extra != prev.extra:
        return Verdict(False, "the next position's extra state changed")
    return Verdict(True, turn=game.label(t))


def _describe_change(game: Game, prev: Position, nxt: Position, ply_step: int = 1) -> str:
    names = state_names(game)
    ids = prev.board.tiles
    parts = []
    for t, (a, b) in enumerate(zip(prev.states, nxt.states, strict=False)):
        if a != b:
            parts.append(f"tile {ids[t]} {names.get(a, str(a))}→{names.get(b, str(b))}")
    if prev.board.glue != nxt.board.glue or prev.board.extra != nxt.board.extra:
        parts.append("the board's gluing")
    if prev.to_move != nxt.to_move:
        parts.append(f"to move {game.players[prev.to_move]}→{game.players[nxt.to_move]}")
    if prev.extra != nxt.extra:
        parts.append("extra state")
    if prev.ply + ply_step != nxt.ply:
        parts.append(f"ply {prev.ply}→{nxt.ply} (expected {prev.ply + ply_step})")
    return ", ".join(parts) if parts else "nothing"


def valid_transition(game: Game, prev: Position, nxt: Position) -> Verdict:
    """Is ``nxt`` reached from ``prev`` by exactly one legal turn of the player to move?  Pure."""
    if isinstance(game, ClaimGame):
        return kinrow_transition(game, prev, nxt)
    if len(prev.states) != len(nxt.states):
        return Verdict(False, f"the next position has {len(nxt.states)} tiles, the previous {len(prev.states)}")
    out = game.outcome(prev)
    if out is not None:
        return Verdict(False, "the game was already over (" + ", ".join(f"{p} {v:+d}" for p, v in out.items()) + ")")
    turns = game.turns(prev)
    for t in turns:
        if t.result == nxt or t.result.bare() == nxt.bare():  # a position read from a transcript has no counters
            return Verdict(True, turn=t.label, result=t.result)
    who = game.players[prev.to_move]
    if not turns:
        return Verdict(False, f"{who} has no legal turn")
    return Verdict(False, f"no legal turn of {who} gives this position (changed: {_describe_change(game, prev, nxt)})")


def apply_turn(game: Game, pos: Position, label: str) -> tuple[Turn | None, str]:
    """The turn with this label (or another spelling the game reads) at ``pos``, or None and why not."""
    if game.outcome(pos) is not None:
        why = game.end_reason(pos)
        return None, f"the game was already over: {why}" if why else "the game was already over"
    for t in game.turns(pos):
        if t.label == label:
            return t, ""
    try:
        return game.parse_turn(pos, label), ""
    except TapologyError as exc:
        reason = None if "ambiguous" in str(exc) else why_illegal(game, pos, label)  # the engine's reason: pinned, …
        return None, f"{label}: {reason}" if reason is not None else str(exc)


@dataclass
class RefereeReport:
    """A transcript's verdict: valid, or the first invalid step (1-based turn count; 0 is the start) and why."""

    valid: bool
    steps: int
    step: int | None = None
    line: int | None = None
    reason: str = ""
    turns: list[str] | None = None
    final: Position | None = None
    outcome: dict[str, int] | None = None
    moves: int | None = None  # PGN: the moves as PGN numbers them (a move is White's ply and Black's reply)
    end: str | None = None  # PGN: how the moves end the game ("checkmate", "stalemate", …), None while it goes on

    def to_json(self) -> dict[str, Any]:
        """``{"valid": true, "steps": N, …}`` or ``{"valid": false, "step": k, "reason": …}`` (PGN: with
        ``moves`` and ``end``)."""
        if self.valid:
            out = {"valid": True, "steps": self.steps, "turns": self.turns or [], "outcome": self.outcome}
            if self.moves is not None:
                out |= {"moves": self.moves, "plies": self.steps, "end": self.end}
            return out
        out = {"valid": False, "step": self.step, "line": self.line, "reason": self.reason}
        if self.moves is not None:
            out["move"] = self.moves
        return out


def referee(game: Game, entries: Sequence[Entry], *, any_start: bool = False) -> RefereeReport:
    """Check a transcript: from the start position (or the first position line, with ``any_start``), each line one legal turn."""
    start = game.initial()
    pos = start
    turns: list[str] = []
    first = True
    step = 0
    for e in entries:
        if e.position is not None and first:
            first = False
            p = e.position
            if not e.to_move_given and not game.tile_claims:
                p = Position(p.board, start.to_move, p.extra, p.ply)
            if not any_start and p.bare() != start.bare():  # a transcript holds no counters: compare the rest
                return RefereeReport(False, 0, 0, e.line, "the transcript does not start at the start position "
                                     f"(differs in: {_describe_change(game, start, p, 0)})")
            pos = start if p.bare() == start.bare() else p
            continue
        first = False
        step += 1
        if e.turn is not None:
            t, why = apply_turn(game, pos, e.turn)
            if t is None:
                return RefereeReport(False, step, step, e.line, why)
            turns.append(t.label)
            pos = t.result
            continue
        nxt = e.position
        assert nxt is not None
        v = valid_transition(game, pos, nxt)
        if not v.valid:
            return RefereeReport(False, step, step, e.line, v.reason)
        turns.append(v.turn or "")
        pos = v.result if v.result is not None else nxt  # the turn's own result keeps the counters it carries
    return RefereeReport(True, step, turns=turns, final=pos, outcome=game.outcome(pos))


def referee_pgn(game: RuleGame, text: str, where: str = "PGN") -> list[RefereeReport]:
    """Referee every game of a PGN text (moves in SAN or UCI): each move must be a legal turn, from the ``FEN`` tag's
    position if the game has one; where the moves end the game, the ``Result`` tag must agree.  A drawn result where
    the moves end on a draw the player to move may claim is that draw (the outcome says so)."""
    out = []
    for pgn in read_pgn(text, where):
        pos = position_from_fen(game, pgn.tags["FEN"]) if "FEN" in pgn.tags else game.initial()
        first = pos.ply
        labels: list[str] = []
        bad: RefereeReport | None = None
        for k, move in enumerate(pgn.moves, 1):
            t, why = apply_turn(game, pos, move)
            if t is None:
                number = f"{pos.ply // 2 + 1}{'.' if pos.to_move == 0 else '...'}"
                reason = why_illegal(game, pos, move)
                turns = game.turns(pos)
                if reason is None:
                    reason = why if game.outcome(pos) is not None or "ambiguous" in why else \
                        f"not a legal move of {game.players[pos.to_move]}"
                legal = [san_of(game, pos, tr, turns) for tr in turns]
                shown = ", ".join(legal[:24]) + (", …" if len(legal) > 24 else "")
                bad = RefereeReport(False, k, k, None, f"{number} {move}: {reason}" + (f" (legal: {shown})" if legal
                                                                                      else ""),
                                    moves=pos.ply // 2 + 1)
                break
            labels.append(t.label)
            pos = t.result
        if bad is None:
            outcome = game.outcome(pos)
            end = None if outcome is None else chess_ending(game, pos, outcome)
            claimed = {"1-0": (1, -1), "0-1": (-1, 1), "1/2-1/2": (0, 0)}.get(pgn.result)
            if outcome is None and claimed == (0, 0):  # a draw claimed where the rules offer one (fifty moves, threefold)
                outcome = next((dict(c.score) for c in game.claims(pos) if not any(c.score.values())), None)
            if outcome is not None and (claimed is None or tuple(outcome.values()) != claimed):
                bad = RefereeReport(False, len(labels), len(labels), None,
                                    f"the moves end the game by {end} ({_score_text(outcome)}), but the Result tag "
                                    f"says {pgn.result}")
            else:
                moves = (first + len(labels) - 1) // 2 - first // 2 + 1 if labels else 0
                bad = RefereeReport(True, len(labels), turns=labels, final=pos, outcome=outcome, moves=moves,
                                    end=end)
        out.append(bad)
    return out


def _score_text(outcome: dict[str, int]) -> str:
    return " ".join(f"{p} {v:+d}" for p, v in outcome.items())
