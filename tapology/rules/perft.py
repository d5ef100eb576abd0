"""perft: leaf turns at a depth, and ``divide`` (the count below each first turn), optional end rules left out.

On tile codes (no position values built), the last ply counted in bulk: by the native (C)
engine of :mod:`tapology.rules.native` where it runs; else one-move turns come from the
generated kernels of :mod:`tapology.rules.kernel` where the rule set has no clean-ups or royal
pieces, every other position through :class:`tapology.rules.chains.Chains`.  Rule sets with
tape moves, chain end rules, or end rules that read counters or the history are counted over
positions (:meth:`RuleGame.turns` with the optional rules left out).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Protocol

from tapology.game import Position, Turn
from tapology.model.board import Board
from tapology.rules.chains import Chains
from tapology.rules.compiled import Compiled, Key
from tapology.rules.ends import EndRules, Situation
from tapology.rules.kernel import KernelSet
from tapology.rules.model import RuleSet
from tapology.rules.native import perft as native_perft


class RuleGame(Protocol):
    """What perft reads of :class:`tapology.rules.engine.RuleGame` (its tables, tile codes and strict end rules): the
    counting sits below the engine, which calls it, and names the engine's internals it relies on here."""

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
    """True when perft can run on tile codes: no tape moves, and no strict end rule needs chains, counters or the
    history."""
    return game.rules.tape is None and not any(e.kind in ("chain", "counter", "repetition")
                                               for e in game.strict_ends.ends)


def count_leaves(game: RuleGame, pos: Position, depth: int, native: bool = True) -> int:
    """Leaf turns at ``depth`` below ``pos``; a finished game has no children.  Cost: the tree above the last ply.
    The native engine counts where it can (``native=False``: always in Python)."""
    if depth <= 0:
        return 1
    if not on_codes(game):
        return _by_positions(game, pos, depth)
    if native:
        got = native_perft(game.chains(pos.board), game.codes(pos), pos.to_move, pos.ply, depth)
        if got is not None:
            return got
    rec = _counter(game, pos)
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


def _by_positions(game: RuleGame, pos: Position, depth: int) -> int:
    turns = game.perft_turns(pos)
    if depth == 1:
        return len(turns)
    return sum(_by_positions(game, t.result, depth - 1) for t in turns)


def _counter(game: RuleGame, pos: Position) -> Callable[[list[int], int, int, int], int]:
    """The recursive counter over codes for the board of ``pos``."""
    chains = game.chains(pos.board)
    comp = chains.comp
    n_players = len(game.players)
    mandatory = game.mandatory
    use_kernel = not game.rules.cleanups and not game.royal_values
    kernels = [kernels_for(chains).kernel(p) for p in range(n_players)] if use_kernel else []
    keys = kernels_for(chains).keys if use_kernel else []
    ends = game.strict_ends
    plain_lines = _line_checker(game, comp)
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

    def legal(codes: list[int], p: int) -> list:
        if use_kernel:
            got = kernels[p](codes)
            if got is not None:
                return [keys[i] for i in got]
        found = chains.turns(codes, p)
        if mandatory and any(f.flagged for f in found.values()):
            return [k for k, f in found.items() if f.flagged]
        return list(found)

    def count(codes: list[int], p: int) -> int:
        if use_kernel:
            got = kernels[p](codes)
            if got is not None:
                return len(got)
        return len(legal(codes, p))

    def rec(codes: list[int], p: int, ply: int, d: int) -> int:
        if ended(codes, p, ply):
            return 0
        if d == 1:
            return count(codes, p)
        total = 0
        q = (p + 1) % n_players
        key: Key
        for key in legal(codes, p):
            new = list(codes)
            for u, v in key[2]:
                new[u] = v
            total += rec(new, q, ply + 1, d - 1)
        return total

    return rec


def _line_checker(game: RuleGame, comp: Compiled) -> Callable[[list[int]], bool] | None:
    """A fast "some line is complete" test when the only strict end rules are lines and "no turns"; else None."""
    ends = game.strict_ends.ends
    if any(e.kind not in ("line", "no-turns") or e.check is not None for e in ends):
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
