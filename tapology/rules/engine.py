"""The move engine: legal turns of a rule set on a board (the ``propagate`` backend), outcomes, labels, perft.

A **turn** is a complete chain of moves by the player to move: an entry move, then
follow-ups through links (a forced link that fits must be taken; an optional one may), the
clean-ups of the turn run to a fixpoint, and — where the rule set names royal states — no
royal piece of the mover left capturable.  A chain never passes the same position twice, and
a turn must change the position.  Turns are keyed by (start tile, end tile, resulting
position) and listed once each; where a class is mandatory (``mandatory = ["capture"]``) and
some turn contains a move of that class, only those turns are legal.

Labels: the tiles the moving piece visits, joined by ``-`` (``x`` after a move of class
``capture``), e.g. ``22x15x6``; a turn that moves no piece is named by its origin tile
(``5``); a taping is ``tape 1.up=3.right`` (``~`` when flipped).  Where two turns would share
a label, ``=STATE`` (the piece that ends the turn) and then ``#n`` are appended.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

from tapology.game import Position, Turn
from tapology.model.board import Board, Taping
from tapology.model.tape import format_fact, side_fact
from tapology.rules.boards import open_game_board
from tapology.rules.compiled import App, Compiled, Key
from tapology.rules.model import PositionError, RuleError, RuleSet, TurnError

MAX_CLEANUP_ROUNDS = 10_000


@dataclass
class _Found:
    """What the enumeration knows about one turn."""

    path: tuple[tuple[str, int], ...]
    flagged: bool
    apps: tuple[int, ...]


def extend_path(comp: Compiled, path: tuple[tuple[str, int], ...], seq: tuple[int, ...], app: App) -> tuple:
    """The label path after one more move: its landing tile appended (``x`` after a capture); a repeated
    (sliding) move replaces the tile it slid from."""
    if app.to < 0:
        return path
    step = ("x" if app.klass == "capture" else "-", app.to)
    if seq and len(path) > 1 and app.move >= 0 and comp.apps[seq[-1]].move == app.move \
            and comp.rules.moves[app.move].slide:
        return (*path[:-1], (path[-1][0], app.to))
    return (*path, step)


def _fast_with_states(board: Board, states: tuple[int, ...]) -> Board:
    """``board.with_states`` without re-checking the gluing table (the board is already valid)."""
    b = copy.copy(board)
    object.__setattr__(b, "states", states)
    return b


class RuleGame:
    """A rule set played on one starting board: implements :class:`tapology.game.Game`."""

    def __init__(self, rules: RuleSet, board: str | None = None) -> None:
        self.rules = rules
        self.name = rules.name
        self.players = rules.players
        self.board_name = board or rules.board
        self.board, atlas = open_game_board(self.board_name, rules)
        self.h = rules.grid.group.order
        self._compiled: OrderedDict[tuple, Compiled] = OrderedDict()
        self._compiled[self._board_key(self.board)] = Compiled(rules, self.board, atlas)
        self._turn_cache: OrderedDict[Position, list[Turn]] = OrderedDict()
        self.mandatory = frozenset(rules.mandatory)
        self._line_value_cache: dict[tuple[int, int], frozenset[int]] = {}
        self.royal_values = frozenset(rules.state_index[r].value for r in rules.royal)

    # ---- boards ---------------------------------------------------------------------
    @staticmethod
    def _board_key(board: Board) -> tuple:
        return (board.glue, board.extra)

    def compiled(self, board: Board) -> Compiled:
        """The compiled tables for a board (cached; tape moves change the board)."""
        key = self._board_key(board)
        got = self._compiled.get(key)
        if got is not None:
            self._compiled.move_to_end(key)
            return got
        from tapology.solver.propagator import Atlas

        at = Atlas.of(board)
        if at.conflict is not None:
            raise PositionError(f"board of the position is not consistent: {at.conflict.describe(board).splitlines()[0]}")
        comp = Compiled(self.rules, board, at)
        self._compiled[key] = comp
        if len(self._compiled) > 256:
            self._compiled.popitem(last=False)
        return comp

    # ---- positions ----------------------------------------------------------------------
    def initial(self) -> Position:
        """The start position of the rule set on this game's board."""
        r = self.rules
        n = len(self.board.tiles)
        states = [0] * n
        frames = [0] * n
        default_frames = dict(r.initial.frames)
        if r.initial.layout:
            if len(r.initial.layout) != n:
                raise PositionError(f"{r.source}: [initial] layout has {len(r.initial.layout)} entries; board "
                                    f"{self.board_name!r} has {n} tiles")
            for t, tok in enumerate(r.initial.layout):
                name, _, fr = tok.partition("@")
                if name == ".":
                    continue
                sd = r.state_index[name]
                states[t] = sd.value
                frames[t] = int(fr) if fr else default_frames.get(sd.name, default_frames.get(sd.symbol, 0))
        for name, tids in r.initial.tiles:
            sd = r.state_index[name]
            for tid in tids:
                try:
                    t = self.board.tile(tid, f"{r.source}: [initial] tiles")
                except Exception as exc:
                    raise PositionError(str(exc)) from None
                states[t] = sd.value
                frames[t] = default_frames.get(sd.name, 0)
        return self.make_position(self.board, states, frames, r.initial.to_move, 0)

    def make_position(self, board: Board, states, frames, to_move: int, ply: int) -> Position:
        """A position value with canonical frames (frames dropped for pieces that carry none)."""
        comp = self.compiled(board)
        fr: tuple[int, ...] = ()
        if self.rules.oriented:
            fr = tuple(comp.canon[s][f] if s < len(comp.canon) else 0 for s, f in zip(states, frames, strict=True))
        return Position(_fast_with_states(board, tuple(states)), to_move, fr, ply)

    def codes(self, pos: Position) -> list[int]:
        """The tile codes (state·|H| + frame) of a position."""
        h = self.h
        if pos.extra:
            return [s * h + f for s, f in zip(pos.board.states, pos.extra, strict=True)]
        return [s * h for s in pos.board.states]

    def position_from_codes(self, board: Board, codes: list[int], to_move: int, ply: int) -> Position:
        """The position holding these codes."""
        h = self.h
        states = tuple(c // h for c in codes)
        fr = tuple(c % h for c in codes) if self.rules.oriented else ()
        return Position(_fast_with_states(board, states), to_move, fr, ply)

    # ---- the game contract ----------------------------------------------------------------
    def turns(self, pos: Position, backend: str = "propagate") -> list[Turn]:
        """The legal turns, each once, in a stable order; [] when the game is over."""
        if backend == "propagate":
            got = self._turn_cache.get(pos)
            if got is not None:
                return got
        if self._outcome_without_turns(pos) is not None:
            return []
        res = self._all_turns(pos, backend)
        if backend == "propagate":
            self._turn_cache[pos] = res
            if len(self._turn_cache) > 4096:
                self._turn_cache.popitem(last=False)
        return res

    def outcome(self, pos: Position) -> dict[str, int] | None:
        """None while the game goes on; else a score per player (1 win, 0 draw, -1 loss)."""
        out = self._outcome_without_turns(pos)
        if out is not None:
            return out
        if self._any_turn(pos):
            return None
        for e in self.rules.ends:
            if e.kind == "no-turns":
                return self._score(pos.to_move, e.result)
        return self._score(pos.to_move, "draw")

    def _score(self, player: int, result: str) -> dict[str, int]:
        names = self.players
        if result == "draw":
            return {p: 0 for p in names}
        sign = 1 if result == "win" else -1
        out = {}
        for i, p in enumerate(names):
            if i == player:
                out[p] = sign
            else:
                out[p] = -sign if len(names) == 2 or sign == 1 else 0
        return out

    def _outcome_without_turns(self, pos: Position) -> dict[str, int] | None:
        comp = self.compiled(pos.board)
        return self.outcome_codes(comp, self.codes(pos), pos.to_move, pos.ply)

    def outcome_codes(self, comp: Compiled, codes: list[int], to_move: int, ply: int) -> dict[str, int] | None:
        """The outcome by every end rule except "no turns" (which needs the turns)."""
        h = self.h
        states = [c // h for c in codes]
        for e in self.rules.ends:
            if e.kind == "plies":
                if ply >= e.value:
                    return self._score(to_move, e.result)
            elif e.kind == "line":
                have = [p for p in range(len(self.players)) if self._has_line(comp, states, e, p)]
                if have:
                    mover = (to_move - 1) % len(self.players)
                    who = mover if mover in have else have[0]
                    return self._score(who, e.result)
            elif e.kind == "count":
                for p in ([e.player] if e.player is not None else range(len(self.players))):
                    if self._count_holds(comp, states, e, p):
                        return self._score(p, e.result)
            elif e.kind == "chain":
                for p in ([e.player] if e.player is not None else range(len(self.players))):
                    if self.longest_chain(comp, codes, e.move, p) >= e.value:
                        return self._score(p, e.result)
        return None

    def _line_values(self, comp: Compiled, e, p: int) -> frozenset[int]:
        key = (id(e), p)
        got = self._line_value_cache.get(key)
        if got is None:
            got = self._line_values_uncached(comp, e, p)
            self._line_value_cache[key] = got
        return got

    def _line_values_uncached(self, comp: Compiled, e, p: int) -> frozenset[int]:
        if e.states:
            vals: set[int] = set()
            for tok in e.states:
                vals.update(comp.states_of(tok, p))
            return frozenset(vals)
        return frozenset(s.value for s in self.rules.states if s.owner == p)

    def _has_line(self, comp: Compiled, states, e, p: int) -> bool:
        vals = self._line_values(comp, e, p)
        if not vals:
            return False
        return any(all(states[t] in vals for t in line) for line in comp.lines(e.k))

    def _count_holds(self, comp: Compiled, states, e, p: int) -> bool:
        vals = self._line_values(comp, e, p)
        tiles: range | list[int] = range(len(states))
        if e.region:
            name = e.region.replace("{player}", self.players[p])
            regions = dict(self.rules.regions)
            if name not in regions:
                raise RuleError(f"{self.rules.source}:{e.line}: [[end]] count: unknown region {name!r}")
            tiles = [comp.board.tile(tid, f"region {name!r}") for tid in regions[name]]
        n = sum(1 for t in tiles if states[t] in vals)
        return {">=": n >= e.value, "<=": n <= e.value, "==": n == e.value, "!=": n != e.value,
                ">": n > e.value, "<": n < e.value}[e.op]

    def longest_chain(self, comp: Compiled, codes: list[int], move: str, player: int) -> int:
        """The most moves of a chain starting with ``move`` (following its links) that fit, on a scratch copy;
        the turn clean-ups are run on the copy afterwards, as seed 000 asks.  Cost O(n·|H|·chain)."""
        mi = comp.move_index[move]
        m = self.rules.moves[mi]
        work = list(codes)
        best = 0

        def walk(app: App, depth: int) -> None:
            nonlocal best
            vals = comp.new_values(app, work)
            undo = [(u, work[u]) for u, _ in vals]
            for u, v in vals:
                work[u] = v
            best = max(best, depth)
            for _forced, ids in comp.links(app.ident):
                for j in ids:
                    b = comp.apps[j]
                    if comp.fits(b, work):
                        walk(b, depth + 1)
            self._run_cleanups(comp, list(work), player, "turn")
            for u, v in undo:
                work[u] = v

        for t in range(comp.n):
            for g in m.orientations:
                ident = comp.place(mi, player, t, g)
                if ident >= 0 and comp.fits(comp.apps[ident], work):
                    walk(comp.apps[ident], 1)
        return best

    # ---- enumeration ----------------------------------------------------------------------
    def _run_cleanups(self, comp: Compiled, work: list[int], player: int, when: str,
                      undo: list[tuple[int, int]] | None = None) -> None:
        """Apply the clean-up rewrites until none fits (a fixpoint); RuleError if that never happens."""
        apps = comp.cleanup_apps(player, when)
        if not apps:
            return
        for _ in range(MAX_CLEANUP_ROUNDS):
            changed = False
            for a in apps:
                if comp.fits(a, work):
                    for u, v in comp.new_values(a, work):
                        if work[u] != v:
                            if undo is not None:
                                undo.append((u, work[u]))
                            work[u] = v
                            changed = True
            if not changed:
                return
        raise RuleError(f"{self.rules.source}: the clean-ups do not reach a fixpoint (still rewriting after "
                        f"{MAX_CLEANUP_ROUNDS} rounds)")

    def chains(self, comp: Compiled, codes: list[int], player: int, royal: bool = True) -> dict[Key, _Found]:
        """Every complete move chain of ``player``, by key (the ``propagate`` backend).  Cost: the chains' total length."""
        found: dict[Key, _Found] = {}
        work = list(codes)
        diff: dict[int, int] = {}
        has_move_cleanup = any(c.when == "move" for c in self.rules.cleanups)
        mandatory = self.mandatory
        apps = comp.apps
        fits = comp.fits

        def set_tile(u: int, v: int, undo: list[tuple[int, int]]) -> None:
            undo.append((u, work[u]))
            work[u] = v
            if v == codes[u]:
                diff.pop(u, None)
            else:
                diff[u] = v

        def restore(undo: list[tuple[int, int]]) -> None:
            for u, v in reversed(undo):
                work[u] = v
                if v == codes[u]:
                    diff.pop(u, None)
                else:
                    diff[u] = v

        visited: set[frozenset] = {frozenset()}  # a chain never comes back to the position it started from

        def walk(app: App, start: int, path: tuple[tuple[str, int], ...], flagged: bool, seq: tuple[int, ...]) -> bool:
            undo: list[tuple[int, int]] = []
            for u, v in comp.new_values(app, work):
                set_tile(u, v, undo)
            if has_move_cleanup:
                cu: list[tuple[int, int]] = []
                self._run_cleanups(comp, work, player, "move", cu)
                for u, v in cu:
                    undo.append((u, v))
                    if work[u] == codes[u]:
                        diff.pop(u, None)
                    else:
                        diff[u] = work[u]
            skey = frozenset(diff.items())
            if skey in visited:
                restore(undo)
                return False
            visited.add(skey)
            path = extend_path(comp, path, seq, app)
            flagged = flagged or app.klass in mandatory
            seq = (*seq, app.ident)
            must = False
            for forced, ids in comp.links(app.ident):
                for j in ids:
                    b = apps[j]
                    if fits(b, work) and walk(b, start, path, flagged, seq) and forced:
                        must = True
            if not must:
                self._finish(comp, work, codes, diff, player, start, path, flagged, seq, found, royal)
            visited.discard(skey)
            restore(undo)
            return True

        for t in range(comp.n):
            for ident in comp.entries(player, t, codes[t]):
                a = apps[ident]
                if fits(a, work):
                    walk(a, t, (("", t),), False, ())
        return found

    def _finish(self, comp: Compiled, work: list[int], codes: list[int], diff: dict[int, int], player: int,
                start: int, path, flagged: bool, seq: tuple[int, ...], found: dict[Key, _Found],
                royal: bool = True) -> None:
        """Record a complete chain: run the turn's clean-ups, check the royal rule, key the result."""
        cu: list[tuple[int, int]] = []
        if self.rules.cleanups:
            self._run_cleanups(comp, work, player, "turn", cu)
            final = {u: work[u] for u in set(diff) | {u for u, _ in cu} if work[u] != codes[u]}
        else:
            final = diff
        try:
            if not final:
                return
            if royal and self.royal_values and not self._royal_safe(comp, work, codes, player, seq):
                return
            key = (start, path[-1][1], frozenset(final.items()))
            got = found.get(key)
            if got is None:
                found[key] = _Found(path, flagged, seq)
            else:
                # the label is the least path (fewest moves, then tile order), whatever order paths are found in
                if (len(path), [t for _, t in path]) < (len(got.path), [t for _, t in got.path]):
                    got.path, got.apps = path, seq
                got.flagged = got.flagged or flagged
        finally:
            for u, v in reversed(cu):
                work[u] = v

    def _attacked(self, comp: Compiled, work: list[int], tiles: set[int], player: int) -> bool:
        """True when some other player has a move chain (their own royal rule aside) that rewrites one of ``tiles``."""
        for q in range(len(self.players)):
            if q == player:
                continue
            for _s, _e, changes in self.chains(comp, list(work), q, royal=False):
                if any(u in tiles for u, _v in changes):
                    return True
        return False

    def _royal_safe(self, comp: Compiled, work: list[int], codes: list[int], player: int, seq: tuple[int, ...]) -> bool:
        h = self.h
        mine = {t for t in range(comp.n) if work[t] // h in self.royal_values and comp.owner[work[t]] == player}
        if mine and self._attacked(comp, work, mine, player):
            return False
        for ident in seq:
            safe = comp.apps[ident].safe
            if safe:
                # castling-style: the listed tiles must not be attacked before the move, as if a royal piece stood there
                royal = next(iter(self.royal_values))
                probe = list(codes)
                for u in safe:
                    probe[u] = royal * h
                if self._attacked(comp, probe, set(safe), player):
                    return False
        return True

    def turn_keys(self, pos: Position, backend: str = "propagate") -> dict[Key, _Found]:
        """The legal move chains of the position by key, after the mandatory-class rule (no tape turns)."""
        comp = self.compiled(pos.board)
        codes = self.codes(pos)
        if backend == "propagate":
            found = self.chains(comp, codes, pos.to_move)
        elif backend == "z3":
            from tapology.rules.z3enum import z3_chains

            found = z3_chains(self, comp, codes, pos.to_move)
        elif backend == "csp":
            from tapology.rules.cspenum import csp_chains

            found = csp_chains(self, comp, codes, pos.to_move)
        else:
            raise RuleError(f"unknown backend {backend!r} (use propagate, z3 or csp)")
        if self.mandatory and any(f.flagged for f in found.values()):
            found = {k: f for k, f in found.items() if f.flagged}
        return found

    def _all_turns(self, pos: Position, backend: str) -> list[Turn]:
        comp = self.compiled(pos.board)
        found = self.turn_keys(pos, backend)
        nxt = (pos.to_move + 1) % len(self.players)
        ids = pos.board.tiles
        codes = self.codes(pos)
        items = sorted(found.items(), key=lambda kv: (kv[0][0], kv[0][1], sorted(kv[0][2])))
        labels = []
        for _key, f in items:
            if len(f.path) == 1:
                text = ",".join(ids[comp.apps[i].tile] for i in f.apps) if len(f.apps) > 1 else ids[f.path[0][1]]
            else:
                text = "".join(sep + ids[t] for sep, t in f.path)
            labels.append(text)
        labels = self._unique(labels, items, comp)
        out = []
        for label, ((_s, _e, changes), _f) in zip(labels, items, strict=True):
            new = list(codes)
            for u, v in changes:
                new[u] = v
            out.append(Turn(label, self.position_from_codes(pos.board, new, nxt, pos.ply + 1)))
        if self.rules.tape is not None and pos.to_move in self.rules.tape.players:
            out.extend(self._tape_turns(pos, nxt))
        return out

    def _unique(self, labels: list[str], items, comp: Compiled) -> list[str]:
        counts: dict[str, int] = {}
        for lab in labels:
            counts[lab] = counts.get(lab, 0) + 1
        out = []
        for lab, ((_s, end, changes), _f) in zip(labels, items, strict=True):
            if counts[lab] > 1:
                ch = dict(changes)
                if end in ch:
                    lab = f"{lab}={self.rules.by_value[ch[end] // self.h].name}"
            out.append(lab)
        seen: dict[str, int] = {}
        final = []
        for lab in out:
            k = seen.get(lab, 0)
            seen[lab] = k + 1
            final.append(lab if k == 0 and out.count(lab) == 1 else f"{lab}#{k + 1}")
        return final

    def _any_turn(self, pos: Position) -> bool:
        """True when the player to move has some legal turn (stops at the first one found)."""
        got = self._turn_cache.get(pos)
        if got is not None:
            return bool(got)
        if self.turn_keys(pos):
            return True
        if self.rules.tape is not None and pos.to_move in self.rules.tape.players:
            return bool(self._tape_turns(pos, pos.to_move, first_only=True))
        return False

    @staticmethod
    def _clone_atlas(at):  # Atlas -> Atlas
        """An independent copy of a closed atlas (its charts and facts), so a taping can be tried on it."""
        new = copy.copy(at)
        new.chart = at.chart.copy()
        new.extra = list(at.extra)
        new._why = dict(at._why)
        return new

    def _tape_turns(self, pos: Position, nxt: int, first_only: bool = False) -> list[Turn]:
        """Every taping of two open sides (with the allowed flips) that keeps the atlas consistent, each once."""
        from tapology.solver.propagator import Atlas

        board = pos.board
        grid = board.grid
        nd = len(grid.directions)
        open_sides = [(t, d) for t in range(len(board.tiles)) for d in range(nd) if board.glue[t][d] < 0]
        seen: set[tuple] = set()
        out: list[Turn] = []
        assert self.rules.tape is not None
        pristine = Atlas.of(board)
        if pristine.conflict is not None:
            return out
        base = self._clone_atlas(pristine)
        for i, (t, d) in enumerate(open_sides):
            for u, e in open_sides[i + 1:]:
                for flip in self.rules.tape.flips:
                    try:
                        fact = side_fact(board, t, d, u, e, flip)
                    except Exception:
                        continue
                    label = format_fact(board, fact)
                    if base.tape([Taping(fact, label)]) is not None:
                        continue  # refused: the atlas is unchanged
                    nb = base.board()
                    base = self._clone_atlas(pristine)
                    key = (nb.glue, nb.extra)
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(Turn(f"tape {label}", Position(nb, nxt, pos.extra, pos.ply + 1)))
                    if first_only:
                        return out
        return out

    # ---- labels -----------------------------------------------------------------------------
    def parse_turn(self, pos: Position, label: str) -> Turn:
        """The legal turn a label names (labels as listed by :meth:`turns`; tapings also in any TAPE spelling)."""
        text = label.strip()
        turns = self.turns(pos)
        for tr in turns:
            if tr.label == text:
                return tr
        if text.startswith("tape "):
            from tapology.model.tape import parse_tape

            try:
                tp = parse_tape(text[5:], pos.board, "turn")
            except Exception as exc:
                raise TurnError(f"turn {label!r}: {exc}") from None
            want = f"tape {format_fact(pos.board, tp.fact)}"
            for tr in turns:
                if tr.label == want:
                    return tr
        shown = ", ".join(t.label for t in turns[:12]) + (" …" if len(turns) > 12 else "")
        raise TurnError(f"turn {label!r} is not legal here (legal: {shown or 'none, the game is over'})")

    # ---- perft ------------------------------------------------------------------------------
    def perft(self, pos: Position, depth: int) -> int:
        """Leaf turns at ``depth`` (a finished game has no children), counting the last ply in bulk."""
        if depth <= 0:
            return 1
        if self.rules.tape is None and not any(e.kind in ("chain",) for e in self.rules.ends):
            from tapology.rules.perft import fast_perft

            return fast_perft(self, pos, depth)
        if depth == 1:
            return len(self.turns(pos))
        return sum(self.perft(t.result, depth - 1) for t in self.turns(pos))

    def playout_iter(self, pos: Position, rng) -> Iterator[tuple[Position, list[Turn]]]:
        """Random play to the end: yields (position, its turns) until the game is over."""
        while True:
            ts = self.turns(pos)
            yield pos, ts
            if not ts:
                return
            pos = rng.choice(ts).result
