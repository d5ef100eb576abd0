"""A rule set played on a board: the :class:`tapology.game.Game` contract over chains, end rules, labels and tapes.

A **turn** is a complete chain of moves by the player to move (:mod:`tapology.rules.chains`),
keyed by (start tile, end tile, resulting position) and listed once; where a class is
mandatory (``mandatory = ["capture"]``) and some turn contains a move of that class, only
those turns are legal; a player with a ``[tape]`` rule may instead tape two open sides
(:mod:`tapology.rules.tapeturns`).  The end rules (:mod:`tapology.rules.ends`) are read in
file order.  Counters and the history a repetition rule compares with travel with the
position.  Labels are in :mod:`tapology.rules.labels`.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from tapology.errors import PositionError, RuleError, TapologyError, TurnError
from tapology.game import Position, Turn
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.tape import format_fact, parse_tape
from tapology.rules.boards import open_game_board
from tapology.rules.chains import Chains, Found
from tapology.rules.compiled import Compiled, Key
from tapology.rules.ends import EndRules, Score, Situation
from tapology.rules.labels import path_label, unique_labels
from tapology.rules.model import Initial, RuleSet
from tapology.rules.native import turn_keys as native_turn_keys
from tapology.rules.perft import count_leaves
from tapology.rules.regions import Regions, resolve_regions
from tapology.rules.tapeturns import tape_turns

BACKENDS = ("propagate", "z3", "csp")
NATIVE_AFTER = 32  # turn listings on one board before the native engine takes over


def _fast_with_states(board: Board, states: tuple[int, ...]) -> Board:
    """``board.with_states`` without re-checking the gluing table (the board is already valid)."""
    b = copy.copy(board)
    object.__setattr__(b, "states", states)
    return b


class Notation(Protocol):
    """A game's own way of naming turns (used instead of tile paths where it gives a name): the engine's plug-in, so
    it lives beside :class:`RuleGame`, which calls it (chess's :class:`~tapology.games.chess.ChessNotation`)."""

    def label(self, game: RuleGame, pos: Position, key: Key, found: Found) -> str | None:
        """The turn's name, or None to use the tile path."""
        ...

    def parse(self, game: RuleGame, pos: Position, text: str, turns: Sequence[Turn]) -> Turn | None:
        """The turn ``text`` names in another spelling (SAN, say), or None."""
        ...


class RuleGame:
    """A rule set played on one starting board: implements :class:`tapology.game.Game`.

    ``optional_ends`` keeps the rule set's optional end rules (draw claims, house rules);
    ``notation`` names turns in a game's own notation.
    """

    def __init__(self, rules: RuleSet, board: str | None = None, *, optional_ends: bool = True,
                 notation: Notation | None = None) -> None:
        self.rules = rules
        self.name = rules.name
        self.players = rules.players
        self.board_name = board or rules.board
        self.board, atlas, file_regions = open_game_board(self.board_name, rules)
        self.regions: Regions = resolve_regions(rules, self.board_name, self.board, file_regions)
        self.h = rules.grid.group.order
        self.notation = notation
        self.ends = EndRules(rules, optional_ends)
        self.strict_ends = EndRules(rules, optional=False)
        self._tables: OrderedDict[tuple, Chains] = OrderedDict()
        self._tables[self._board_key(self.board)] = Chains(rules, Compiled(rules, self.board, atlas, self.regions))
        self._turn_cache: OrderedDict[Position, list[Turn]] = OrderedDict()
        self._signatures: dict[tuple, frozenset[str]] = {}
        self._asked: dict[int, int] = {}
        self.mandatory = frozenset(rules.mandatory)
        self.royal_values = frozenset(rules.state_index[r].value for r in rules.royal)
        self._history_counter = self._repetition_counter()

    # ---- boards ---------------------------------------------------------------------
    @staticmethod
    def _board_key(board: Board) -> tuple:
        return (board.glue, board.extra)

    def chains(self, board: Board) -> Chains:
        """The chains (and compiled tables, ``.comp``) of a board, cached; tape moves change the board."""
        key = self._board_key(board)
        got = self._tables.get(key)
        if got is not None:
            self._tables.move_to_end(key)
            return got
        at = Atlas.of(board)
        if at.conflict is not None:
            raise PositionError(f"board of the position is not consistent: {at.conflict.describe(board).splitlines()[0]}")
        got = Chains(self.rules, Compiled(self.rules, board, at, self.regions))
        self._tables[key] = got
        if len(self._tables) > 256:
            self._tables.popitem(last=False)
        return got

    def compiled(self, board: Board) -> Compiled:
        """The compiled tables of a board."""
        return self.chains(board).comp

    # ---- positions ----------------------------------------------------------------------
    def initial(self) -> Position:
        """The start position of the rule set on this game's board (its set-up for this board, if it has one)."""
        r = self.rules
        setup = r.setup_for(self.board_name)
        ini: Initial = setup.initial if setup is not None else r.initial
        where = f"{r.source}: [[setup]] for {self.board_name!r}" if setup is not None else f"{r.source}: [initial]"
        n = len(self.board.tiles)
        states = [0] * n
        frames = [0] * n
        default_frames = dict(ini.frames)
        if ini.layout:
            if len(ini.layout) != n:
                raise PositionError(f"{where}: layout has {len(ini.layout)} entries; board {self.board_name!r} has "
                                    f"{n} tiles")
            for t, tok in enumerate(ini.layout):
                name, _, fr = tok.partition("@")
                if name == ".":
                    continue
                sd = r.state_index[name]
                states[t] = sd.value
                frames[t] = int(fr) if fr else default_frames.get(sd.name, default_frames.get(sd.symbol, 0))
        for name, tids in ini.tiles:
            sd = r.state_index[name]
            for tid in tids:
                try:
                    t = self.board.tile(tid, f"{where} tiles")
                except TapologyError as exc:
                    raise PositionError(str(exc)) from None
                states[t] = sd.value
                frames[t] = default_frames.get(sd.name, 0)
        return self.make_position(self.board, states, frames, ini.to_move, 0)

    def make_position(self, board: Board, states, frames, to_move: int, ply: int,
                      counters: tuple[int, ...] | None = None) -> Position:
        """A position value with canonical frames (frames dropped for pieces that carry none); counters start at 0."""
        if not 0 <= to_move < len(self.players):
            raise PositionError(f"{self.name}: to_move {to_move!r} is not a player (0..{len(self.players) - 1}: "
                                f"{', '.join(self.players)})")
        comp = self.compiled(board)
        fr: tuple[int, ...] = ()
        if self.rules.oriented:
            fr = tuple(comp.canon[s][f] if s < len(comp.canon) else 0 for s, f in zip(states, frames, strict=True))
        if counters is None:
            counters = (0,) * len(self.rules.counters)
        return Position(_fast_with_states(board, tuple(states)), to_move, fr, ply, counters)

    def codes(self, pos: Position) -> list[int]:
        """The tile codes (state·|H| + frame) of a position."""
        h = self.h
        if pos.extra:
            return [s * h + f for s, f in zip(pos.board.states, pos.extra, strict=True)]
        return [s * h for s in pos.board.states]

    def position_from_codes(self, board: Board, codes: list[int], to_move: int, ply: int,
                            counters: tuple[int, ...] = (), history: tuple[Position, ...] = ()) -> Position:
        """The position holding these codes."""
        h = self.h
        states = tuple(c // h for c in codes)
        fr = tuple(c % h for c in codes) if self.rules.oriented else ()
        return Position(_fast_with_states(board, states), to_move, fr, ply, counters, history)

    # ---- the game contract ----------------------------------------------------------------
    def turns(self, pos: Position, backend: str = "propagate") -> list[Turn]:
        """The legal turns, each once, in a stable order; [] when the game is over."""
        if backend == "propagate":
            got = self._turn_cache.get(pos)
            if got is not None:
                return got
        res = self._turns_under(self.ends, pos, backend)
        if backend == "propagate":
            self._turn_cache[pos] = res
            if len(self._turn_cache) > 4096:
                self._turn_cache.popitem(last=False)
        return res

    def perft_turns(self, pos: Position) -> list[Turn]:
        """The legal turns with the optional end rules left out (what perft counts)."""
        return self._turns_under(self.strict_ends, pos, "propagate")

    def _turns_under(self, ends: EndRules, pos: Position, backend: str) -> list[Turn]:
        ch = self.chains(pos.board)
        if ends.outcome(ch.comp, ch, self._situation(pos, None), part="before") is not None:
            return []
        res = self._all_turns(pos, backend)
        if ends.outcome(ch.comp, ch, self._situation(pos, bool(res)), part="after") is not None:
            return []
        return res

    def outcome(self, pos: Position) -> Score | None:
        """None while the game goes on; else a score per player (1 win, 0 draw, -1 loss)."""
        ch = self.chains(pos.board)
        got = self.ends.outcome(ch.comp, ch, self._situation(pos, None))
        if got is not None:
            return got
        if not self._any_turn(pos):  # no rule says how a game without turns ends: a draw
            return {p: 0 for p in self.players}
        return None

    def in_check(self, pos: Position) -> bool:
        """True when one of the royal pieces of the player to move is capturable."""
        return self.chains(pos.board).in_check(self.codes(pos), pos.to_move)

    def _situation(self, pos: Position, has_turn: bool | None) -> Situation:
        def any_turn() -> bool:
            return has_turn if has_turn is not None else self._any_turn(pos)

        return Situation(self.codes(pos), pos.to_move, pos.ply, pos.counters, any_turn, lambda: self._repeats(pos))

    def _any_turn(self, pos: Position) -> bool:
        """True when the player to move has some legal turn (the end rules aside)."""
        got = self._turn_cache.get(pos)
        if got is not None:
            return True if got else bool(self._all_turns(pos, "propagate"))
        if self.turn_keys(pos):
            return True
        if self.rules.tape is not None and pos.to_move in self.rules.tape.players:
            return bool(tape_turns(self.rules.tape, pos, pos.to_move, first_only=True))
        return False

    # ---- enumeration ----------------------------------------------------------------------
    def turn_keys(self, pos: Position, backend: str = "propagate") -> dict[Key, Found]:
        """The legal move chains of the position by key, after the mandatory-class rule (no tape turns)."""
        ch = self.chains(pos.board)
        codes = self.codes(pos)
        if backend == "propagate":
            # the native engine builds its tables once per board: worth it for a board asked about again and again
            n = self._asked[id(ch)] = self._asked.get(id(ch), 0) + 1
            found = native_turn_keys(ch, codes, pos.to_move) if n > NATIVE_AFTER else ch.turns(codes, pos.to_move)
        elif backend == "z3":
            from tapology.rules.z3enum import z3_chains  # z3 loads only when asked for (start-up time)

            found = z3_chains(ch, codes, pos.to_move)
        elif backend == "csp":
            from tapology.rules.cspenum import csp_chains  # python-constraint loads only when asked for

            found = csp_chains(ch, codes, pos.to_move)
        else:
            raise RuleError(f"unknown backend {backend!r} (use {', '.join(BACKENDS)})")
        if self.mandatory and any(f.flagged for f in found.values()):
            found = {k: f for k, f in found.items() if f.flagged}
        return found

    def _all_turns(self, pos: Position, backend: str) -> list[Turn]:
        ch = self.chains(pos.board)
        comp = ch.comp
        found = self.turn_keys(pos, backend)
        nxt = (pos.to_move + 1) % len(self.players)
        codes = self.codes(pos)
        items = sorted(found.items(), key=lambda kv: (kv[0][0], kv[0][1], sorted(kv[0][2])))
        labels = []
        for key, f in items:
            named = self.notation.label(self, pos, key, f) if self.notation is not None else None
            labels.append(named if named is not None else path_label(comp, key, f))
        labels = unique_labels(labels, [k for k, _f in items], comp)
        out = []
        for label, (key, f) in zip(labels, items, strict=True):
            new = list(codes)
            for u, v in key[2]:
                new[u] = v
            counters, history = self._carry(pos, codes, key, f)
            out.append(Turn(label, self.position_from_codes(pos.board, new, nxt, pos.ply + 1, counters, history)))
        if self.rules.tape is not None and pos.to_move in self.rules.tape.players:
            counters, history = self._carry(pos, codes, None, None)
            out.extend(tape_turns(self.rules.tape, pos, nxt, counters=counters, history=history))
        return out

    # ---- counters and history --------------------------------------------------------------
    def _repetition_counter(self) -> int | None:
        """-1 when some repetition rule keeps the whole history, the index of the counter whose reset clears it, or
        None when no rule needs a history."""
        reps = [e for e in self.rules.ends if e.kind == "repetition"]
        if not reps:
            return None
        names = [c.name for c in self.rules.counters]
        if any(not e.counter for e in reps):
            return -1
        return names.index(reps[0].counter)

    def _carry(self, pos: Position, codes: list[int], key: Key | None,
               found: Found | None) -> tuple[tuple[int, ...], tuple[Position, ...]]:
        """The counters and history after a turn (a tape turn when ``key`` is None)."""
        counters = pos.counters
        resets: list[bool] = []
        if self.rules.counters:
            h = self.h
            classes = set() if found is None else {self.compiled(pos.board).apps[i].klass for i in found.apps}
            kind = None if key is None else self.rules.by_value[codes[key[0]] // h].kind
            resets = [bool(classes & set(c.classes)) or (kind is not None and kind in c.kinds) for c in self.rules.counters]
            old = counters or (0,) * len(resets)
            counters = tuple(0 if r else n + 1 for r, n in zip(resets, old, strict=True))
        history: tuple[Position, ...] = ()
        hc = self._history_counter
        if hc is not None and not (hc >= 0 and resets[hc]):
            history = (*pos.history, pos.bare())
        return counters, history

    def _repeats(self, pos: Position) -> int:
        """How many times the position has stood: earlier positions with the same player to move that look the same
        (states as their ``look`` says) and offer the same turns."""
        if not pos.history:
            return 1
        looks = self.rules.looks
        mine = tuple(looks[s] for s in pos.board.states)
        n = 1
        sig = None
        for old in pos.history:
            if old.to_move != pos.to_move or old.extra != pos.extra or old.board.glue != pos.board.glue:
                continue
            if tuple(looks[s] for s in old.board.states) != mine:
                continue
            if old.board.states != pos.board.states:
                if sig is None:
                    sig = self._signature(pos)
                if self._signature(old) != sig:
                    continue
            n += 1
        return n

    def _signature(self, pos: Position) -> frozenset[str]:
        """The labels of a position's turns (the end rules aside), cached."""
        key = (pos.board.states, pos.extra, pos.to_move, pos.board.glue)
        got = self._signatures.get(key)
        if got is None:
            got = frozenset(t.label for t in self._all_turns(pos.bare(), "propagate"))
            self._signatures[key] = got
        return got

    # ---- labels -----------------------------------------------------------------------------
    def parse_turn(self, pos: Position, label: str) -> Turn:
        """The legal turn a label names (labels as listed by :meth:`turns`; tapings in any TAPE spelling; other
        spellings the game's notation reads)."""
        text = label.strip()
        turns = self.turns(pos)
        for tr in turns:
            if tr.label == text:
                return tr
        if text.startswith("tape "):
            try:
                tp = parse_tape(text[5:], pos.board, "turn")
            except TapologyError as exc:
                raise TurnError(f"turn {label!r}: {exc}") from None
            want = f"tape {format_fact(pos.board, tp.fact)}"
            for tr in turns:
                if tr.label == want:
                    return tr
        if self.notation is not None:
            got = self.notation.parse(self, pos, text, turns)
            if got is not None:
                return got
        if not turns and self.outcome(pos) is not None:
            raise TurnError("the game was already over")
        shown = ", ".join(t.label for t in turns[:12]) + (", …" if len(turns) > 12 else "")
        raise TurnError(f"{text!r} is not a legal turn of {self.players[pos.to_move]} here (legal: {shown or 'none'})")

    claims = False  # turns move, place and tape: menus number them

    def end_reason(self, pos: Position) -> str:
        """"" : the outcome (a score per player) says how a rule set's game ended."""
        return ""

    def win_detail(self, pos: Position, player: str) -> str:
        """"": a rule set's win is its end rule's, which the outcome does not name."""
        return ""

    def drawn_early(self, pos: Position) -> bool:
        """False: the rule engine does not look ahead for dead positions."""
        return False

    def intro(self) -> str:
        """""."""
        return ""

    # ---- perft ------------------------------------------------------------------------------
    def perft(self, pos: Position, depth: int) -> int:
        """Leaf turns at ``depth`` (a finished game has no children; optional end rules left out), counting the last
        ply in bulk.  See :mod:`tapology.rules.perft`."""
        return count_leaves(self, pos, depth)
