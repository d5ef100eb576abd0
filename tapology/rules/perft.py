"""perft: leaf turns at a depth, and ``divide`` (the count below each first turn), optional end rules left out.

On tile codes (no position values built), the last ply counted in bulk: by the native (C)
engine of :mod:`tapology.rules.native` where it runs (it carries the position's counters too); else
one-move turns come from the generated kernels of :mod:`tapology.rules.kernel` where the rule set
has no clean-ups or royal pieces, every other position through :class:`tapology.rules.chains.Chains`.
Where the native engine does not count, rule sets with tape moves or end rules that read counters or
the history (or chains, with passing at any time) are counted over positions (:meth:`RuleGame.turns`
with the optional rules left out).

``rbg=True`` counts as Regular Boardgames does: a turn once per **way of playing it** (each
distinct order in which it changes tiles: a multi-jump once per order of the pieces it takes)
instead of once per result: natively where the engine runs (every chain walked, its ways kept once per node), else
in Python on the chain walk, each distinct position below a node counted once and multiplied by the ways that reach
it; docs/games.md says how each game's turns map.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Protocol

from tapology.errors import RuleError
from tapology.game import Position, Turn
from tapology.model.board import Board
from tapology.rules.chains import Chains, Found, Path
from tapology.rules.compiled import Compiled, Key
from tapology.rules.ends import EndRules, Situation
from tapology.rules.kernel import KernelSet
from tapology.rules.maximum import class_rules, count_of
from tapology.rules.model import RuleSet
from tapology.rules.native import perft as native_perft
from tapology.rules.native import perft_ways as native_perft_ways


class RuleGame(Protocol):
    """What perft reads of :class:`tapology.rules.engine.RuleGame` (its tables, tile codes and strict end rules): the
    counting sits below the engine, which calls it, and names the engine's internals it relies on here."""

    name: str
    rules: RuleSet
    players: tuple[str, ...]
    h: int
    strict_ends: EndRules
    mandatory: frozenset[str]
    royal_values: frozenset[int]

    def chains(self, board: Board) -> Chains:
        """The chain walker of a board (compiled once)."""
        ...

    def codes(self, pos: Position) -> list[int]:
        """A position's tile codes."""
        ...

    def perft_turns(self, pos: Position) -> list[Turn]:
        """The legal turns, optional end rules left out."""
        ...

KERNEL_TILES = 600  # boards above this many tiles count without generated kernels (paper soccer's 1,147 tiles: their
# source took 20 s to build and compile, more than a shallow count on the chain walk)
_KERNELS: weakref.WeakKeyDictionary[Compiled, KernelSet] = weakref.WeakKeyDictionary()


def kernels_for(chains: Chains) -> KernelSet:
    """The kernel set of a compiled board (cached with the board's tables)."""
    comp = chains.comp
    ks = _KERNELS.get(comp)
    if ks is None:
        ks = KernelSet(chains)
        _KERNELS[comp] = ks
    return ks


def on_codes(game: RuleGame) -> bool:
    """True when perft and playouts can run on tile codes: no tape moves, and no strict end rule reads counters or
    the history (nor, where a player may pass at any time, chains); a pass at any time is then a child of every
    unfinished node."""
    kinds = {e.kind for e in game.strict_ends.ends}
    return game.rules.tape is None and not kinds & {"counter", "repetition"} and \
        not (game.rules.passing == "always" and "chain" in kinds)


def count_leaves(game: RuleGame, pos: Position, depth: int, native: bool = True, bulk: bool = True,
                 rbg: bool = False) -> int:
    """Leaf turns at ``depth`` below ``pos``; a finished game has no children.  Cost: the tree above the last ply
    (``bulk=False``: every leaf turn is made too, as perfts that count made moves do).  The native engine counts
    where it can (``native=False``: always in Python).  ``rbg``: each turn once per way of playing it, as RBG
    counts (see the module docstring)."""
    if depth <= 0:
        return 1
    if rbg:
        if not on_codes(game):
            raise RuleError(f"perft --rbg: {game.name} has tape moves or strict end rules that read chains, counters "
                            "or the history; --rbg counts over tile codes only")
        got = native_perft_ways(game.chains(pos.board), game.codes(pos), pos.to_move, pos.ply, depth) if native \
            else None
        if got is not None:
            return got
        return _counter(game, pos, paths=True)(game.codes(pos), pos.to_move, pos.ply, depth)
    if native:  # the native engine reads the counters too (and declines, by name, what it does not run)
        got = native_perft(game.chains(pos.board), game.codes(pos), pos.to_move, pos.ply, depth, bulk, pos.counters)
        if got is not None:
            return got
    if not on_codes(game):
        return _by_positions(game, pos, depth, bulk)
    rec = _counter(game, pos, bulk)
    return rec(game.codes(pos), pos.to_move, pos.ply, depth)


def divide(game: RuleGame, pos: Position, depth: int, progress: Callable[[int, int], None] | None = None,
           into: list[tuple[str, int]] | None = None, native: bool = True) -> list[tuple[str, int]]:
    """(label, leaf turns at ``depth`` below it) for every first turn, as chess engines print it; appended to ``into``
    as each is counted (so an interrupted run keeps what it has).  ``progress(done, total)`` hears after each.  The
    native engine counts each subtree where it can (``native=False``: Python)."""
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    out = into if into is not None else []
    firsts = game.perft_turns(pos)
    for i, t in enumerate(firsts):
        out.append((t.label, count_leaves(game, t.result, depth - 1, native)))
        if progress is not None:
            progress(i + 1, len(firsts))
    return out


def _by_positions(game: RuleGame, pos: Position, depth: int, bulk: bool = True) -> int:
    turns = game.perft_turns(pos)  # each turn's result is made here: bulk or not, the leaves are made
    if depth == 1:
        return len(turns)
    return sum(_by_positions(game, t.result, depth - 1, bulk) for t in turns)


def play_paths(chains: Chains, codes: list[int], player: int, mandatory: bool = True, phase: int = -1) -> list[Key]:
    """The turns of ``player``, each once per way of playing it, as RBG tells its moves apart: a key for every
    complete chain (the turn's clean-ups and the royal rule applied) per distinct order in which the chain first
    writes the tiles it changes — a multi-jump once per order of the pieces it takes, while the empty tiles a
    piece only passes over do not count — and per block move placed (pentago's quadrant and way of turning, even
    where the turn changes nothing); with ``mandatory``, only the chains holding a mandatory class where some
    does.  Cost: the chain walk."""
    apps = chains.comp.apps
    block = chains.rules.block_moves
    out: dict[tuple, tuple[Key, bool, int]] = {}
    steps = bool(chains.rules.steps)  # a turn of steps: RBG's move is the sequence of steps, passing positions again

    def visit(work: list[int], diff: dict[int, int], start: int, path: Path, flagged: bool,
              seq: tuple[int, ...]) -> bool:
        found: dict[Key, Found] = {}
        chains.finish(work, codes, diff, player, start, path, flagged, seq, found)
        if steps:  # each sequence of steps is a move of its own (arimaa: a step there and back, then another)
            for key in found:
                out.setdefault((key, seq), (key, flagged, count_of(chains, seq)))
            return False
        order: list[int | tuple[int, tuple]] = []
        for i in seq:
            a = apps[i]
            if a.move in block:  # a block move is told apart by where it is placed and what it moves where, even
                order.append((a.tile, a.writes))  # where that changes nothing (pentago's turn of an empty quadrant)
            for u, _src, _map in a.writes:
                if u in diff and u not in order:
                    order.append(u)
        for key in found:
            out.setdefault((key, tuple(order)), (key, flagged, count_of(chains, seq)))
        return False

    chains.walk(codes, player, chains.entries(codes, player, phase), visit, revisit=steps)
    got = list(out.values())
    if mandatory and chains.mandatory and any(f for _k, f, _n in got):
        got = [g for g in got if g[1]]
    most = max((n for _k, _f, n in got), default=0)
    return [k for k, _f, n in got if n == most]


def _counter(game: RuleGame, pos: Position, bulk: bool = True,
             paths: bool = False) -> Callable[[list[int], int, int, int], int]:
    """The recursive counter over codes for the board of ``pos`` (``bulk=False``: each leaf turn made; ``paths``:
    each turn once per way of playing it)."""
    chains = game.chains(pos.board)
    comp = chains.comp
    n_players = len(game.players)
    rules = game.rules
    use_kernel = not rules.cleanups and not game.royal_values and not paths and not rules.maximum and \
        not rules.phases and all(m.final and not m.conditions for m in rules.moves) and \
        comp.n <= KERNEL_TILES  # the kernels read tiles only (no counts, no phases), list a move that may not end a
    # chain as a turn, and their code grows with the board
    kernels = [kernels_for(chains).kernel(p) for p in range(n_players)] if use_kernel else []
    keys = kernels_for(chains).keys if use_kernel else []
    ends = game.strict_ends
    plain_lines = _line_checker(game, comp)
    passing = game.rules.passing == "when-stuck"
    always = game.rules.passing == "always"
    h = game.h
    pieces = [frozenset(v * h + f for v in comp.state_values(("own",), p) for f in range(h))
              for p in range(n_players)] if paths and game.rules.rbg_pass == "pieces" else []
    kinds = {e.kind for e in ends.ends}
    max_ply = min((e.value for e in ends.ends if e.kind == "plies"), default=None)
    plies_only = kinds <= {"plies", "no-turns"} and not any(e.check is not None for e in ends.ends)

    def ended(codes: list[int], p: int, ply: int) -> bool:
        if plain_lines is not None:
            return plain_lines(codes)
        if plies_only:
            return max_ply is not None and ply >= max_ply
        sit = Situation(codes, p, ply, (), lambda: True, lambda: 1)
        return ends.outcome(comp, chains, sit, part="moves") is not None

    def legal(codes: list[int], p: int, ply: int) -> list:
        phase = rules.phase_at(ply)
        if paths:
            return play_paths(chains, codes, p, phase=phase)
        if use_kernel:
            got = kernels[p](codes)
            if got is not None:
                return [keys[i] for i in got]
        return list(class_rules(chains, chains.turns(codes, p, phase=phase)))

    def count(codes: list[int], p: int, ply: int) -> int:
        if use_kernel:
            got = kernels[p](codes)
            if got is not None:
                return len(got)
        return len(legal(codes, p, ply))

    def passes(codes: list[int], p: int, ply: int) -> bool:
        """``pass = "when-stuck"``: a player without a turn passes while another player has one."""
        return passing and any(count(codes, (p + i) % n_players, ply) for i in range(1, n_players))

    def pass_moves(codes: list[int], p: int) -> int:
        """``pass = "always"``: how many moves the pass is (``rbg-pass = "pieces"`` under --rbg: one per piece of
        the player to move, RBG's lift-and-put-back; else one)."""
        if not always:
            return 0
        return sum(c in pieces[p] for c in codes) if pieces else 1

    def rec(codes: list[int], p: int, ply: int, d: int) -> int:
        if ended(codes, p, ply):
            return 0
        if always:
            stay = pass_moves(codes, p)
            after = 1 if d == 1 else rec(codes, rules.next_player(p, ply), ply + 1, d - 1)
            return stay * after + moved(codes, p, ply, d)
        return moved(codes, p, ply, d)

    def moved(codes: list[int], p: int, ply: int, d: int) -> int:
        """The leaves below the turns that move (and ``when-stuck`` passes)."""
        q = rules.next_player(p, ply)
        key: Key
        if d == 1:
            if bulk:
                got = count(codes, p, ply)
            else:  # each leaf turn made, as perfts that count made moves do
                got = 0
                for key in legal(codes, p, ply):
                    new = list(codes)
                    for u, v in key[2]:
                        new[u] = v
                    got += 1
            return got if got or not passes(codes, p, ply) else 1
        total = 0
        turns = legal(codes, p, ply)
        if not turns and passes(codes, p, ply):
            return rec(codes, q, ply + 1, d - 1)
        if paths:
            return ways_below(codes, turns, q, ply, d)
        for key in turns:
            new = list(codes)
            for u, v in key[2]:
                new[u] = v
            total += rec(new, q, ply + 1, d - 1)
        return total

    memo: dict[tuple, int] = {}

    def ways_below(codes: list[int], turns: list, q: int, ply: int, d: int) -> int:
        """RBG's count below a position: each position a turn gives is counted once, times the ways that give it,
        and a position met again in the tree (a transposition) is not counted again.  Cost: one count per distinct
        position above the last ply."""
        mult: dict[frozenset, int] = {}
        for key in turns:
            mult[key[2]] = mult.get(key[2], 0) + 1
        total = 0
        for changes, m in mult.items():
            new = list(codes)
            for u, v in changes:
                new[u] = v
            mk = (tuple(new), q, ply + 1, d - 1)
            got = memo.get(mk)
            if got is None:
                got = memo[mk] = rec(new, q, ply + 1, d - 1)
            total += m * got
        return total

    return rec


def _line_checker(game: RuleGame, comp: Compiled) -> Callable[[list[int]], bool] | None:
    """A fast "some line is complete" test when the only strict end rules are lines and "no turns"; else None."""
    ends = game.strict_ends.ends
    if any(e.kind not in ("line", "no-turns") or e.check is not None or e.exact for e in ends):
        return None
    h = game.h
    checks = []
    for e in ends:
        if e.kind != "line":
            continue
        lines = comp.lines(e.k)
        for p in range(len(game.players)):
            vals = comp.state_values(e.states, p)
            codes = frozenset(v * h + f for v in vals for f in range(h))
            checks.append((lines, codes))

    def any_line(cs: list[int]) -> bool:
        for lines, codes in checks:
            for line in lines:
                for t in line:
                    if cs[t] not in codes:
                        break
                else:
                    return True
        return False

    return any_line
