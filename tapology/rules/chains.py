"""Move chains on one compiled board: the one depth-first walk of entry moves and their links, the clean-ups,
and the royal test (docs/conventions.md §4).

A **chain** starts with an entry move of the player to move, then follows links: a forced link
that fits must be taken, an optional one may; a chain never passes the same position twice
(nor comes back to where it started), and a slide (the steps of one repeated move) never lands on
a tile it has already passed, its start included (:func:`revisits`).  A complete chain, with the turn's clean-ups run to a
fixpoint, is a candidate turn keyed by (start tile, end tile, changes); where the rule set
names royal states it is a turn only if no royal piece of the mover is left capturable and
no ``safe`` tile of its moves was attacked before it.  A tile is **attacked** by a player
when some complete chain of their moves (their own royal rule and the clean-ups of their
turn aside) changes it; only entry moves whose chains could ever write the tile are tried
(:meth:`Compiled.attack_index`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tapology.errors import RuleError
from tapology.rules.compiled import App, Compiled, Key
from tapology.rules.model import Condition, RuleSet

MAX_CLEANUP_ROUNDS = 10_000

Path = tuple[tuple[str, int], ...]  # ((separator, tile), ...): the label's tiles
# visit(work, diff, start, path, flagged, seq) -> True to stop the walk
Visit = Callable[[list[int], dict[int, int], int, Path, bool, tuple[int, ...]], bool]


@dataclass
class Found:
    """What the enumeration knows about one turn: its label path, whether it holds a mandatory class, its moves."""

    path: Path
    flagged: bool
    apps: tuple[int, ...]


def extend_path(comp: Compiled, path: Path, seq: tuple[int, ...], app: App) -> Path:
    """The label path after one more move: its landing tile appended (``x`` after a capture, ``-NAME-`` after a
    block move); a repeated (sliding) move replaces the tile it slid from; a move of another piece than the one the
    path follows (a follow-up anywhere) appends ``,`` and its origin first (breakthru's ``37-38,70-71``)."""
    if app.to < 0:
        return path
    step = ("x" if app.klass == "capture" else "-", app.to)
    block = app.move >= 0 and app.move in comp.rules.block_moves
    if block:  # a block move names itself: 1-turn-right-8
        step = (f"-{comp.rules.moves[app.move].name}-", app.to)
    elif seq and app.tile != path[-1][1] and app.to != app.tile:  # a follow-up that moves another piece: from where
        return (*path, (",", app.tile), step)
    if seq and len(path) > 1 and app.move >= 0 and comp.apps[seq[-1]].move >= 0:
        groups = comp.rules.slide_groups
        if groups[app.move] >= 0 and groups[comp.apps[seq[-1]].move] == groups[app.move]:
            return (*path[:-1], (path[-1][0], app.to))
    return (*path, step)


def separators(rules: RuleSet) -> list[str]:
    """The separators a label path of the rule set can hold (:func:`extend_path`), sorted as
    strings: the native engine ranks paths by their indices here as :func:`path_order` ranks
    the strings ("" first)."""
    return sorted({"", ",", "-", "x"} | {f"-{rules.moves[m].name}-" for m in rules.block_moves})


def path_order(path: Path) -> tuple:
    """How label paths are ranked (the least labels a turn): fewest moves, then tile order, then the separators
    (two block moves from one tile to another: pentago's turn-left before turn-right, whatever the walk's order)."""
    return len(path), [t for _, t in path], [s for s, _ in path]


def revisits(comp: Compiled, seq: Sequence[int], app: App) -> bool:
    """True when ``app`` would continue a slide onto a tile the slide has already passed, its start included: the
    slide is the run of applications of ``app``'s repeated move that ``seq`` ends with (as :func:`extend_path` reads
    it), and a tile is passed when one of them stands or lands on it.  A rule about tiles, not positions: a piece
    that changes as it moves (chess's unmoved rook becoming a moved one) does not make its own tile new.  Every
    executor (this walk, the native engine, the z3 and csp enumerations) asks it.  Cost: the slide's length."""
    mi = app.move
    if app.to < 0 or mi < 0 or not comp.rules.moves[mi].slide:
        return False
    if app.to == app.tile:
        return True
    apps = comp.apps
    groups = comp.rules.slide_groups
    for k in range(len(seq) - 1, -1, -1):
        prev = apps[seq[k]]
        if prev.move < 0 or groups[prev.move] != groups[mi]:
            break
        if app.to == prev.to or app.to == prev.tile:
            return True
    return False


def count_tiles(comp: Compiled, codes: list[int], cond: Condition, player: int, here: int = -1) -> int | None:
    """How many tiles (of the condition's region) hold one of its states for ``player``; None if the board has
    no such region (a condition on a missing region never holds).  See :meth:`Compiled.count`."""
    return comp.count(codes, cond, player, here)


def has_line_of(comp: Compiled, codes: list[int], k: int, player: int) -> bool:
    """True when some line of ``k`` distinct tiles (on the board's topology) holds only ``player``'s pieces."""
    owner = comp.owner
    return any(all(owner[codes[t]] == player for t in line) for line in comp.lines(k))


def conditions_hold(comp: Compiled, codes: list[int], conds: Iterable[Condition], player: int,
                    here: int = -1) -> bool:
    """Every count condition holds for ``player`` (``here``: the tile a ``here`` condition reads)."""
    return comp.holds(codes, tuple(conds), player, here)


class Chains:
    """The chains of a rule set on one compiled board."""

    def __init__(self, rules: RuleSet, comp: Compiled) -> None:
        self.rules = rules
        self.comp = comp
        self.h = comp.h
        self.mandatory = frozenset(rules.mandatory)
        self.ends_chain = tuple(m.final for m in rules.moves)  # by move index: may a chain end with it
        self.royal_values = frozenset(rules.state_index[r].value for r in rules.royal)
        self.has_move_cleanup = any(c.when == "move" for c in rules.cleanups)
        self._groups: dict[tuple[int, str], list[tuple[tuple[Condition, ...], list[App]]]] = {}
        self.native_check: Callable[[list[int], int], bool | None] | None = None  # set by the native engine

    # ---- clean-ups --------------------------------------------------------------------
    def run_cleanups(self, work: list[int], player: int, when: str, undo: list[tuple[int, int]] | None = None) -> None:
        """Apply the clean-up rewrites until none fits (a fixpoint); RuleError if that never happens.  A clean-up
        with conditions runs only while they hold (read anew after every change)."""
        groups = self._cleanup_groups(player, when)
        if not groups:
            return
        comp = self.comp
        fits = comp.fits
        for _ in range(MAX_CLEANUP_ROUNDS):
            changed = False
            for conds, apps in groups:
                if conds and not conditions_hold(comp, work, conds, player):
                    continue
                for a in apps:
                    if fits(a, work):
                        for u, v in comp.new_values(a, work):
                            if work[u] != v:
                                if undo is not None:
                                    undo.append((u, work[u]))
                                work[u] = v
                                changed = True
                        if changed and conds and not conditions_hold(comp, work, conds, player):
                            break
            if not changed:
                return
        raise RuleError(f"{self.rules.source}: the clean-ups do not reach a fixpoint (still rewriting after "
                        f"{MAX_CLEANUP_ROUNDS} rounds)")

    def _cleanup_groups(self, player: int, when: str) -> list[tuple[tuple[Condition, ...], list[App]]]:
        """The placed clean-ups of ``player`` at ``when``, grouped by clean-up with its conditions, in file order."""
        key = (player, when)
        got = self._groups.get(key)
        if got is None:
            cleanups = [c for c in self.rules.cleanups if c.when == when and player in c.move.players]
            got = []
            for a in self.comp.cleanup_apps(player, when):
                conds = cleanups[-1 - a.move].conditions
                if got and got[-1][1][-1].move == a.move:
                    got[-1][1].append(a)
                else:
                    got.append((conds, [a]))
            self._groups[key] = got
        return got

    # ---- the walk ---------------------------------------------------------------------
    def walk(self, codes: list[int], player: int, entries: Iterable[int], visit: Visit, revisit: bool = False) -> bool:
        """Walk every chain from the entry applications that fit ``codes``; ``visit`` gets each complete chain
        (``work`` holds the codes after it, before the turn's clean-ups; ``diff`` the changed tiles).  Returns True
        as soon as a visit does (and stops).  Where the rule set has a step budget (``steps``), a chain's moves
        spend their ``cost`` and a follow-up is taken only while it fits in what is left.  ``revisit``: a chain may
        pass a position again (RBG's sequences of steps, bounded by the budget; ``perft --rbg``), only a slide's
        tiles are still never passed twice.  Cost: the chains' total length."""
        comp = self.comp
        apps = comp.apps
        fits = comp.fits
        budget = self.rules.steps
        costs = [m.cost for m in self.rules.moves]
        n = comp.n
        work = list(codes)
        diff: dict[int, int] = {}
        move_cleanup = self.has_move_cleanup
        block = self.rules.block_moves
        # a chain never comes back to a position it stopped at (its start included); a position a slide only flew
        # through (its steps before its last) is no stop: another move may land there (two slides of one ship)
        visited: dict[frozenset, int] = {frozenset(): 1}
        mid: set[frozenset] = set()
        groups = self.rules.slide_groups

        def note(u: int) -> None:
            if work[u] == codes[u]:
                diff.pop(u, None)
            else:
                diff[u] = work[u]

        def restore(undo: list[tuple[int, int]]) -> None:
            for u, v in reversed(undo):
                work[u] = v
                note(u)

        def step(app: App, start: int, path: Path, flagged: bool, seq: tuple[int, ...], spent: int = 0) -> int:
            """0: the move repeats a position or a slide's tile (not taken); 1: taken; 2: taken and the walk must stop.
            ``spent``: the steps of the budget the chain has spent before this move."""
            if revisits(comp, seq, app):
                return 0
            if budget:
                spent += costs[app.move]
            undo: list[tuple[int, int]] = []
            vals = comp.new_values(app, work)
            # a block move that leaves its block as it was (an empty quadrant turned) is taken all the same, and
            # ends the chain: the one step that may repeat a position
            still = app.move in block and all(work[u] == v for u, v in vals)
            for u, v in vals:
                undo.append((u, work[u]))
                work[u] = v
                note(u)
            if move_cleanup:
                cu: list[tuple[int, int]] = []
                self.run_cleanups(work, player, "move", cu)
                undo.extend(cu)
                for u, _v in cu:
                    note(u)
            skey = frozenset(diff.items())
            if still:
                path = extend_path(comp, path, seq, app)
                stop = visit(work, diff, start, path, flagged or app.klass in self.mandatory, (*seq, app.ident))
                restore(undo)
                return 2 if stop else 1
            landed = skey in mid  # another move lands where a slide flew through: a stop from now on
            sliding = app.move >= 0 and groups[app.move] >= 0
            fly = skey in visited and not landed and not revisit  # a slide may only fly over a position the chain stopped at
            if fly and not sliding:
                restore(undo)
                return 0
            visited[skey] = visited.get(skey, 0) + 1
            if landed:
                mid.discard(skey)
            path = extend_path(comp, path, seq, app)
            flagged = flagged or app.klass in self.mandatory
            seq = (*seq, app.ident)
            must = False
            stop = False
            took = False
            for li, (forced, ids) in enumerate(comp.links(app.ident)):
                if app.link_conds and app.link_conds[li] and not conditions_hold(
                        comp, work, app.link_conds[li], player, app.end):
                    continue  # a link followed only while its counts hold
                if app.link_lines and app.link_lines[li] and has_line_of(comp, work, app.link_lines[li], player):
                    continue  # the chain stops once the mover has a line (pentago's win by placement)
                table = comp.link_table(app.ident, li)
                # an anywhere link: only the placements whose origin accepts what each tile holds
                cands = ids if table is None else [j for t in range(n) for j in table[t].get(work[t], ())]
                for j in cands:
                    b = apps[j]
                    if budget and spent + costs[b.move] > budget:
                        continue  # the move costs more steps than the turn has left
                    if fits(b, work):
                        on = sliding and b.move >= 0 and groups[b.move] == groups[app.move]  # the slide flies on
                        if fly and not on:
                            continue
                        mark = on and not fly and skey not in mid
                        if mark:
                            mid.add(skey)
                        r = step(b, start, path, flagged, seq, spent)
                        if mark:
                            mid.discard(skey)
                        took = took or r > 0
                        if r == 2:
                            stop = True
                            break
                        if r and forced:
                            must = True
                if stop:
                    break
            if not stop and not must and not fly:
                stop = visit(work, diff, start, path, flagged, seq)
            if visited[skey] == 1:
                del visited[skey]
            else:
                visited[skey] -= 1
            if landed:
                mid.add(skey)
            restore(undo)
            return 2 if stop else 0 if fly and not took else 1

        for ident in entries:
            a = apps[ident]
            if fits(a, work) and step(a, a.tile, (("", a.tile),), False, ()) == 2:
                return True
        return False

    def entries(self, codes: list[int], player: int, phase: int = -1) -> Iterable[int]:
        """The entry applications of ``player`` at every tile for the code it holds, in tile order (in the regular
        play, or in the phase of index ``phase``)."""
        comp = self.comp
        for t in range(comp.n):
            yield from comp.entries(player, t, codes[t], phase)

    # ---- turns --------------------------------------------------------------------------
    def turns(self, codes: list[int], player: int, royal: bool = True, phase: int = -1) -> dict[Key, Found]:
        """Every complete chain of ``player`` by key, its clean-ups run (and the royal rule, unless ``royal`` is
        False), before the mandatory-class rule; ``phase``: the index of the phase the turn is played in."""
        found: dict[Key, Found] = {}

        def visit(work: list[int], diff: dict[int, int], start: int, path: Path, flagged: bool,
                  seq: tuple[int, ...]) -> bool:
            self.finish(work, codes, diff, player, start, path, flagged, seq, found, royal)
            return False

        self.walk(codes, player, self.entries(codes, player, phase), visit)
        return found

    def finish(self, work: list[int], codes: list[int], diff: dict[int, int], player: int, start: int, path: Path,
               flagged: bool, seq: tuple[int, ...], found: dict[Key, Found], royal: bool = True) -> None:
        """Record a complete chain: run the turn's clean-ups, check the royal rule, key the result."""
        if seq and not self.ends_chain[self.comp.apps[seq[-1]].move]:
            return  # the last move may not end a chain (``final = false``)
        final = self.final_changes(work, codes, diff, player)
        if final is None:
            return
        changes, undo = final
        try:
            if not changes:
                return
            if royal and self.royal_values and not self.royal_safe(work, codes, player, seq):
                return
            key = (start, path[-1][1], frozenset(changes.items()))
            if self.rules.keyed_by_changes:  # several placements in one turn: one turn whatever their order
                least = min(changes)
                key = (least, least, key[2])
            got = found.get(key)
            if got is None:
                found[key] = Found(path, flagged, seq)
            else:
                # the label is the least path (path_order), whatever order paths are found in
                if path_order(path) < path_order(got.path):
                    got.path, got.apps = path, seq
                got.flagged = got.flagged or flagged
        finally:
            for u, v in reversed(undo):
                work[u] = v

    def final_changes(self, work: list[int], codes: list[int], diff: dict[int, int],
                      player: int) -> tuple[dict[int, int], list[tuple[int, int]]] | None:
        """The chain's changes after the turn's clean-ups (run on ``work``; undo them with the list returned)."""
        cu: list[tuple[int, int]] = []
        if not self.rules.cleanups:
            return dict(diff), cu
        self.run_cleanups(work, player, "turn", cu)
        return {u: work[u] for u in set(diff) | {u for u, _ in cu} if work[u] != codes[u]}, cu

    # ---- the royal rule ---------------------------------------------------------------------
    def attacked(self, work: list[int], tiles: set[int], player: int) -> bool:
        """True when some other player has a complete chain of moves (their royal rule and their turn's clean-ups
        aside) that changes one of ``tiles``.  Only entries whose chains could write a tile are tried, unless the
        player has clean-ups run after each move (which could write anywhere)."""
        comp = self.comp
        for q in range(len(self.rules.players)):
            if q == player:
                continue
            if any(c.when == "move" and q in c.move.players for c in self.rules.cleanups):
                entries: Iterable[int] = self.entries(work, q)
            else:
                index = comp.attack_index(q)
                apps = comp.apps
                cands: set[int] = set()
                for u in tiles:
                    cands.update(i for i, codes in index.get(u, ()) if work[apps[i].tile] in codes)
                entries = sorted(cands)
            if self.walk(work, q, entries, lambda w, diff, *_: any(u in diff for u in tiles)):
                return True
        return False

    def royal_tiles(self, codes: list[int], player: int) -> set[int]:
        """Tiles holding a royal piece of ``player``."""
        h = self.h
        owner = self.comp.owner
        return {t for t, c in enumerate(codes) if c // h in self.royal_values and owner[c] == player}

    def in_check(self, codes: list[int], player: int) -> bool:
        """True when one of ``player``'s royal pieces is capturable by another player (by the native engine once it
        runs on this board: ``native_check``)."""
        if self.native_check is not None:
            got = self.native_check(codes, player)
            if got is not None:
                return got
        mine = self.royal_tiles(codes, player)
        return bool(mine) and self.attacked(codes, mine, player)

    def probe_code(self, player: int) -> int:
        """The code of ``player``'s first royal state (standing in on ``safe`` tiles)."""
        for r in self.rules.royal:
            sd = self.rules.state_index[r]
            if sd.owner == player:
                return sd.value * self.h
        raise RuleError(f"{self.rules.source}: a move with safe cells is played by {self.rules.players[player]!r}, "
                        "who has no royal state")

    def royal_safe(self, work: list[int], codes: list[int], player: int, seq: tuple[int, ...]) -> bool:
        """No royal piece of the mover capturable after the chain, and no safe tile attacked before it."""
        mine = self.royal_tiles(work, player)
        if mine and self.attacked(work, mine, player):
            return False
        for ident in seq:
            safe = self.comp.apps[ident].safe
            if safe:
                # castling-style: the tiles must not be attacked before the move, as if the mover's royal piece stood there
                probe = list(codes)
                code = self.probe_code(player)
                for u in safe:
                    if codes[u] // self.h not in self.royal_values:
                        probe[u] = code
                if self.attacked(probe, set(safe), player):
                    return False
        return True

    # ---- chains as a measure ------------------------------------------------------------------
    def longest(self, codes: list[int], move: str, player: int) -> int:
        """The most moves of a chain starting with ``move`` (following its links, forced or not) that fit, on a
        scratch copy.  Cost O(n·|H|·chain)."""
        comp = self.comp
        mi = comp.move_index[move]
        m = self.rules.moves[mi]
        work = list(codes)
        best = 0

        def go(app: App, seq: tuple[int, ...]) -> None:
            nonlocal best
            vals = comp.new_values(app, work)
            undo = [(u, work[u]) for u, _ in vals]
            for u, v in vals:
                work[u] = v
            seq = (*seq, app.ident)
            best = max(best, len(seq))
            for _forced, ids in comp.links(app.ident):
                for j in ids:
                    b = comp.apps[j]
                    if comp.fits(b, work) and not revisits(comp, seq, b):
                        go(b, seq)
            for u, v in undo:
                work[u] = v

        for t in range(comp.n):
            for g in m.orientations:
                ident = comp.place(mi, player, t, g)
                if ident >= 0 and comp.fits(comp.apps[ident], work) and not revisits(comp, (), comp.apps[ident]):
                    go(comp.apps[ident], ())
        return best
