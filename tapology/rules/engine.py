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

from collections import OrderedDict
from collections.abc import Sequence
from functools import cached_property
from typing import Protocol

from tapology.errors import GameError, PositionError, RuleError, TapologyError, TurnError
from tapology.game import Position, Turn
from tapology.limits import check
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.hashing import forget_hash
from tapology.model.tape import format_fact, parse_tape
from tapology.rules.boards import open_game_board
from tapology.rules.cache import restore as restore_tables
from tapology.rules.chains import Chains, Found
from tapology.rules.compiled import Compiled, Key
from tapology.rules.ends import Claim, EndRules, Score, Situation, end_text
from tapology.rules.labels import path_label, unique_labels
from tapology.rules.maximum import class_rules
from tapology.rules.model import Initial, RuleSet
from tapology.rules.native import ready as native_ready
from tapology.rules.native import turn_keys as native_turn_keys
from tapology.rules.perft import count_leaves
from tapology.rules.regions import Regions, resolve_regions
from tapology.rules.tapeturns import tape_turns

BACKENDS = ("propagate", "z3", "csp")
PASS = "pass"  # the label of a pass (rule sets with ``pass = "when-stuck"``)
NATIVE_AFTER = 32  # turn listings on one board before the native engine takes over


def _fast_with_states(board: Board, states: tuple[int, ...]) -> Board:
    """``board.with_states`` without re-checking the gluing table (the board is already valid)."""
    b = object.__new__(type(board))  # what copy.copy does, without its generic reduce protocol (once per turn listed)
    b.__dict__.update(board.__dict__)
    b.__dict__["states"] = states
    forget_hash(b)  # the copied hash was of the old states
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

    ``optional_ends`` keeps the rule set's optional end rules (house rules, automatic draws) and its claims
    (:meth:`claims`); ``notation`` names turns in a game's own notation.
    """

    def __init__(self, rules: RuleSet, board: str | None = None, *, optional_ends: bool = True,
                 notation: Notation | None = None) -> None:
        self.rules = rules
        self.name = rules.name
        self.players = rules.players
        self.board_name = board or rules.board
        why = rules.refusal(self.board_name)
        if why is not None:
            raise GameError(f"{rules.name} on {self.board_name!r}: not meaningful: {why}")
        self.board, atlas, file_regions = open_game_board(self.board_name, rules)
        self.regions: Regions = resolve_regions(rules, self.board_name, self.board, file_regions)
        self.h = rules.grid.group.order
        self.notation = notation
        self.optional_ends = optional_ends
        self.ends = EndRules(rules, optional_ends)
        self.strict_ends = EndRules(rules, optional=False)
        self._tables: OrderedDict[tuple, Chains] = OrderedDict()
        self._last_chains: tuple[tuple, tuple, Chains] | None = None  # (gluing, extra facts, chains) of the last board
        comp = self._compile(self.board, atlas)
        endless = comp.endless_fall() if any(m.fall is not None for m in rules.moves) else None
        if endless is not None:
            raise RuleError(f"{rules.source}: move {endless[0]!r} on board {self.board_name!r}: a piece could fall "
                            f"forever from tile {self.board.tiles[endless[1]]} (the line it falls along closes on "
                            "itself without reaching the edge), so gravity means nothing here; use a board whose "
                            "falls end (a plane, cylinder or Möbius strip)")
        self._check_connect(comp)
        self._tables[self._board_key(self.board)] = Chains(rules, comp)
        self._turn_cache: OrderedDict[Position, list[Turn]] = OrderedDict()
        self._ends: OrderedDict[Position, list[tuple[int, int]]] = OrderedDict()  # turn_ends of positions asked
        # turn_keys of the positions asked last: the end rules' "no turn" test, the turn listing and a caller's own
        # question (is there a turn?) share one chain walk
        self._keys: OrderedDict[Position, dict[Key, Found]] = OrderedDict()
        self._signatures: dict[tuple, frozenset[str]] = {}
        self._asked: dict[int, int] = {}
        self.mandatory = frozenset(rules.mandatory)
        self.royal_values = frozenset(rules.state_index[r].value for r in rules.royal)
        self._history_counter = self._repetition_counter()

    def _check_connect(self, comp: Compiled) -> None:
        """Refuse a board on which a connection goal means nothing: a region it names is missing or empty there
        (on a cylinder the sides taped together have no edge)."""
        for e in self.rules.ends:
            if e.kind != "connect":
                continue
            for p in ([e.player] if e.player is not None else range(len(self.players))):
                for name in e.regions:
                    real = name.replace("{player}", self.players[p])
                    if not comp.regions.get(real):
                        how = "empty" if real in comp.regions else "missing"
                        raise RuleError(f"{self.rules.source}:{e.line}: [[end]] 'connect' on board {self.board_name!r}: "
                                        f"region {real!r} of {self.players[p]} is {how}"
                                        " there (a side taped to another has no edge), so the connection goal means "
                                        "nothing; use a board with that side")

    # ---- boards ---------------------------------------------------------------------
    @staticmethod
    def _board_key(board: Board) -> tuple:
        return (board.glue, board.extra)

    def chains(self, board: Board) -> Chains:
        """The chains (and compiled tables, ``.comp``) of a board, cached; tape moves change the board."""
        last = self._last_chains
        if last is not None and last[0] is board.glue and last[1] is board.extra:
            return last[2]  # the board asked about last (positions of one board share its gluing): no hash of it
        key = self._board_key(board)
        got = self._tables.get(key)
        if got is not None:
            self._tables.move_to_end(key)
            self._last_chains = (board.glue, board.extra, got)
            return got
        at = Atlas.of(board)
        if at.conflict is not None:
            raise PositionError(f"board of the position is not consistent: {at.conflict.describe(board).splitlines()[0]}")
        got = Chains(self.rules, self._compile(board, at))
        self._tables[key] = got
        self._last_chains = (board.glue, board.extra, got)
        if len(self._tables) > 256:
            self._tables.popitem(last=False)
        return got

    def prefer_native(self, board: Board | None = None) -> None:
        """List turns on ``board`` (default: the start board) with the native engine from the first listing on,
        building its tables now (a game played interactively asks about one board again and again)."""
        ch = self.chains(board if board is not None else self.board)
        self._asked[id(ch)] = NATIVE_AFTER
        native_turn_keys(ch, [0] * len(ch.comp.board.tiles), 0)

    def _compile(self, board: Board, atlas: Atlas) -> Compiled:
        """A board's compiled tables, read from the disk cache when an earlier run built them
        (:mod:`tapology.rules.cache`)."""
        comp = Compiled(self.rules, board, atlas, self.regions)
        comp.native_tables = restore_tables(comp)
        return comp

    def compiled(self, board: Board) -> Compiled:
        """The compiled tables of a board."""
        return self.chains(board).comp

    # ---- positions ----------------------------------------------------------------------
    def start_frames(self) -> dict[str, int]:
        """The default frame of each state named in the ``frames`` of this board's set-up (or of ``[initial]``):
        what a layout token without ``@F`` gets (see :meth:`frame_of`)."""
        setup = self.rules.setup_for(self.board_name)
        return dict((setup.initial if setup is not None else self.rules.initial).frames)

    def frame_of(self, name: str, frames: dict[str, int]) -> int:
        """The default frame of state ``name`` in ``frames``: its own entry, else that of the state it is written as
        (its ``symbol``: chess's ``pe`` faces as ``p``), else 0."""
        sd = self.rules.state_index[name]
        return frames.get(sd.name, frames.get(sd.symbol, 0) if sd.symbol else 0)

    def initial(self) -> Position:
        """The start position of the rule set on this game's board (its set-up for this board, if it has one)."""
        r = self.rules
        setup = r.setup_for(self.board_name)
        ini: Initial = setup.initial if setup is not None else r.initial
        where = f"{r.source}: [[setup]] for {self.board_name!r}" if setup is not None else f"{r.source}: [initial]"
        n = len(self.board.tiles)
        states = [0] * n
        frames = [0] * n
        default_frames = dict(ini.frames)  # = self.start_frames()
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
                frames[t] = int(fr) if fr else self.frame_of(sd.name, default_frames)
        for name, tids in ini.tiles:
            sd = r.state_index[name]
            for tid in tids:
                try:
                    t = self.board.tile(tid, f"{where} tiles")
                except TapologyError as exc:
                    raise PositionError(str(exc)) from None
                states[t] = sd.value
                frames[t] = self.frame_of(sd.name, default_frames)
        filled: dict[int, str] = {}
        for name, region in ini.fill:
            if region not in self.regions:
                raise PositionError(f"{where}: fill: {name} = {region!r}: board {self.board_name!r} has no such region "
                                    f"(regions: {', '.join(sorted(self.regions)) or 'none'})")
            sd = r.state_index[name]
            for t in self.regions[region]:
                if t in filled and filled[t] != name:
                    raise PositionError(f"{where}: fill: regions of {filled[t]} and {name} meet on tile "
                                        f"{self.board.tiles[t]} of board {self.board_name!r} (too small)")
                filled[t] = name
                states[t] = sd.value
                frames[t] = self.frame_of(sd.name, default_frames)
        first = r.phases[0].order[0] if r.phases else ini.to_move  # a phase's order starts the game
        return self.make_position(self.board, states, frames, first, 0)

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

    def search_key(self, pos: Position) -> tuple:
        """The position as a search tells positions apart: the ply, counters and history only where some end rule
        reads them (so that play coming back to a position is seen as a cycle although its ply grew)."""
        kinds = self._end_kinds
        b = pos.board
        k: tuple = (b.states, pos.extra, b.glue, b.extra, pos.to_move)
        if "plies" in kinds:
            k += (pos.ply,)
        elif self.rules.phases:  # the turns of a phase differ from the regular play's
            k += (min(pos.ply, sum(ph.plies for ph in self.rules.phases)),)
        if "counter" in kinds:
            k += (pos.counters,)
        if "repetition" in kinds:
            k += (tuple((h.board.states, h.extra, h.board.glue, h.to_move) for h in pos.history),)
        return k

    @cached_property
    def _end_kinds(self) -> frozenset[str]:
        return frozenset(e.kind for e in self.ends.ends)

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

    def claims(self, pos: Position) -> list[Claim]:
        """What the player to move may claim (rules with ``claim = true`` that hold, such as chess's fifty-move rule
        and threefold repetition), in file order; [] when the game is already over or nothing can be claimed."""
        if not self.ends.claim_rules or self.outcome(pos) is not None:
            return []
        ch = self.chains(pos.board)
        return [Claim(e.name or end_text(e), score) for e, score in
                self.ends.claims(ch.comp, ch, self._situation(pos, None))]

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
        if self._can_move(pos, pos.to_move):
            return True
        if self.rules.passing == "always":
            return True
        return bool(self.rules.passing) and self._others_can_move(pos)

    def _can_move(self, pos: Position, player: int) -> bool:
        """True when ``player`` has a move chain or a tape turn on the position (whoever is to move)."""
        if pos.to_move == player:
            if self.turn_keys(pos):
                return True
        else:
            if self.chains(pos.board).turns(self.codes(pos), player, phase=self.rules.phase_at(pos.ply)):
                return True
        if self.rules.tape is not None and player in self.rules.tape.players:
            return bool(tape_turns(self.rules.tape, pos, player, first_only=True))
        return False

    def _others_can_move(self, pos: Position) -> bool:
        """True when some player other than the one to move has a turn on the position (who may then pass)."""
        n = len(self.players)
        return any(self._can_move(pos, (pos.to_move + i) % n) for i in range(1, n))

    # ---- enumeration ----------------------------------------------------------------------
    def turn_keys(self, pos: Position, backend: str = "propagate") -> dict[Key, Found]:
        """The legal move chains of the position by key, after the mandatory-class rule (no tape turns)."""
        if backend == "propagate":
            got = self._keys.get(pos)
            if got is not None:
                return got
        ch = self.chains(pos.board)
        codes = self.codes(pos)
        if backend == "propagate":
            # the native engine builds its tables once per board: worth it for a board asked about again and again
            n = self._asked[id(ch)] = self._asked.get(id(ch), 0) + 1
            native = n > NATIVE_AFTER or native_ready(ch)
            phase = self.rules.phase_at(pos.ply)
            found = (native_turn_keys(ch, codes, pos.to_move, phase) if native  # after the class rules
                     else class_rules(ch, ch.turns(codes, pos.to_move, phase=phase)))
        elif backend == "z3":
            from tapology.rules.z3enum import z3_chains  # z3 loads only when asked for (start-up time)

            found = class_rules(ch, z3_chains(ch, codes, pos.to_move, self.rules.phase_at(pos.ply)))
        elif backend == "csp":
            from tapology.rules.cspenum import csp_chains  # python-constraint loads only when asked for

            found = class_rules(ch, csp_chains(ch, codes, pos.to_move, self.rules.phase_at(pos.ply)))
        else:
            raise RuleError(f"unknown backend {backend!r} (use {', '.join(BACKENDS)})")
        if backend == "propagate":
            self._keys[pos] = found
            if len(self._keys) > 64:
                self._keys.popitem(last=False)
        return found

    @staticmethod
    def _ordered(found: dict[Key, Found]) -> list[tuple[Key, Found]]:
        """Move chains in the order turns are listed."""
        return sorted(found.items(), key=lambda kv: (kv[0][0], kv[0][1], sorted(kv[0][2])))

    def turn_ends(self, pos: Position) -> list[tuple[int, int] | None]:
        """For each turn of :meth:`turns`, in order: (the tile the moving piece starts on, the tile its move
        ends on), or None for a tape turn (what a click on a piece, then on a target, names)."""
        turns = self.turns(pos)
        if not turns:
            return []
        moves = self._ends.get(pos)
        if moves is None:
            moves = [(k[0], k[1]) for k, _f in self._ordered(self.turn_keys(pos))]
        return [*moves, *([None] * (len(turns) - len(moves)))]

    def _all_turns(self, pos: Position, backend: str) -> list[Turn]:
        ch = self.chains(pos.board)
        comp = ch.comp
        found = self.turn_keys(pos, backend)
        nxt = self.rules.next_player(pos.to_move, pos.ply)
        codes = self.codes(pos)
        check("turn_tiles", len(found) * len(codes), f"{self.name} on {self.board_name}: {len(found)} turns of "
              f"{len(codes)} tiles each")  # every turn holds a whole position: refused before the memory is spent
        items = self._ordered(found)
        if backend == "propagate":
            self._ends[pos] = [(k[0], k[1]) for k, _f in items]
            if len(self._ends) > 4096:
                self._ends.popitem(last=False)
        labels = []
        for key, f in items:
            named = self.notation.label(self, pos, key, f) if self.notation is not None else None
            labels.append(named if named is not None else path_label(comp, key, f))
        labels = unique_labels(labels, [k for k, _f in items], comp)
        out = []
        # position_from_codes of the changed codes: the tiles split into state and frame once, then each turn patches
        # the tiles it changes (a turn changes a few tiles of hundreds; tens of thousands of turns on connect6)
        h = self.h
        base_states = [c // h for c in codes]
        base_frames = [c % h for c in codes] if self.rules.oriented else None
        for label, (key, f) in zip(labels, items, strict=True):
            states = base_states.copy()
            if base_frames is None:
                for u, v in key[2]:
                    states[u] = v // h
                frames: tuple[int, ...] = ()
            else:
                fr = base_frames.copy()
                for u, v in key[2]:
                    states[u], fr[u] = divmod(v, h)
                frames = tuple(fr)
            counters, history = self._carry(pos, codes, key, f)
            out.append(Turn(label, Position(_fast_with_states(pos.board, tuple(states)), nxt, frames, pos.ply + 1,
                                            counters, history)))
        if self.rules.tape is not None and pos.to_move in self.rules.tape.players:
            counters, history = self._carry(pos, codes, None, None)
            out.extend(tape_turns(self.rules.tape, pos, nxt, counters=counters, history=history))
        if self.rules.passing == "always" or (not out and self.rules.passing and self._others_can_move(pos)):
            counters, history = self._carry(pos, codes, None, None)
            out.append(Turn(PASS, self.position_from_codes(pos.board, codes, nxt, pos.ply + 1, counters, history)))
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
            if found is None:
                classes: set[str] = set()
            else:
                apps = self.compiled(pos.board).apps
                classes = {apps[i].klass for i in found.apps}
            kind = None if key is None else self.rules.by_value[codes[key[0]] // h].kind
            phase = self.rules.phase_at(pos.ply) >= 0  # a counter of the regular play stays 0 during the phases
            resets = [not classes.isdisjoint(c.classes) or (kind is not None and kind in c.kinds)
                      or (c.after_phases and phase) for c in self.rules.counters]
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

    tile_claims = False  # turns move, place and tape: menus number them

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
    def perft(self, pos: Position, depth: int, rbg: bool = False) -> int:
        """Leaf turns at ``depth`` (a finished game has no children; optional end rules left out), counting the last
        ply in bulk; ``rbg``: each turn once per way of playing it, as RBG counts.  See :mod:`tapology.rules.perft`."""
        return count_leaves(self, pos, depth, rbg=rbg)
