"""perft: leaf turns at a depth, on tile codes (no position values built), the last ply counted in bulk.

One-move turns come from the generated kernels of :mod:`tapology.rules.kernel`; positions
where a chained move (with links) fits, or rule sets with clean-ups or royal pieces, go
through the general enumeration.
"""

from __future__ import annotations

from tapology.game import Position
from tapology.rules.kernel import KernelSet


def kernels_for(game, comp) -> KernelSet:
    """The kernel set of a compiled board (cached on the game)."""
    cache = game.__dict__.setdefault("_kernel_sets", {})
    ks = cache.get(id(comp))
    if ks is None or ks.comp is not comp:
        ks = KernelSet(comp, game.mandatory)
        cache[id(comp)] = ks
    return ks


def fast_perft(game, pos: Position, depth: int) -> int:  # game: RuleGame without tape moves
    """Leaf turns at ``depth`` below ``pos``; a finished game has no children.  Cost: the tree above the last ply."""
    comp = game.compiled(pos.board)
    n_players = len(game.players)
    mandatory = game.mandatory
    use_kernel = not game.rules.cleanups and not game.royal_values
    ks = kernels_for(game, comp)
    kernels = [ks.kernel(p) for p in range(n_players)] if use_kernel else []
    keys = ks.keys
    plain_lines = _line_checker(game, comp)

    kinds = {e.kind for e in game.rules.ends}
    max_ply = min((e.value for e in game.rules.ends if e.kind == "plies"), default=None)

    def ended(codes: list[int], p: int, ply: int) -> bool:
        if plain_lines is not None:
            return plain_lines(codes)
        if kinds <= {"plies", "no-turns"}:
            return max_ply is not None and ply >= max_ply
        return game.outcome_codes(comp, codes, p, ply) is not None

    def legal(codes: list[int], p: int) -> list:
        if use_kernel:
            got = kernels[p](codes)
            if got is not None:
                return [keys[i] for i in got]
        found = game.chains(comp, codes, p)
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
        for _s, _e, changes in legal(codes, p):
            new = list(codes)
            for u, v in changes:
                new[u] = v
            total += rec(new, q, ply + 1, d - 1)
        return total

    return rec(game.codes(pos), pos.to_move, pos.ply, depth)


def _line_checker(game, comp):
    """A fast "some line is complete" test when the only end rules are lines and "no turns"; else None."""
    ends = game.rules.ends
    if any(e.kind not in ("line", "no-turns") for e in ends):
        return None
    h = game.h
    checks = []
    for e in ends:
        if e.kind != "line":
            continue
        lines = comp.lines(e.k)
        for p in range(len(game.players)):
            vals = game._line_values(comp, e, p)
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
