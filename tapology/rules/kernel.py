"""Compiled fast path: a rule set's one-move turns on one board, generated as straight-line Python.

For one player, the kernel reads each tile's code once and, for the codes that start a move
there, tests the other cells of every placed move inline.  It returns the set of turn ids
(each id stands for the turn's changes, a constant of the board); a fitting move with links,
or one whose writes depend on what it finds, is expanded by :meth:`KernelSet.expand` with the
semantics of :meth:`Chains.walk`.  Used
by perft; cross-checked against the general enumeration in the tests.  Building costs
O(n·|codes|·|moves|·|H|) once per board and player.
"""

from __future__ import annotations

from collections.abc import Callable

from tapology.rules.chains import Chains

Kernel = Callable[[list[int]], "set[int] | None"]


class KernelSet:
    """The kernels of one compiled board (one per player) and the changes each turn id stands for."""

    def __init__(self, chains: Chains) -> None:
        self.chains = chains
        self.comp = chains.comp
        self.mandatory = chains.mandatory
        self.keys: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        self._key_id: dict[tuple, int] = {}
        self.kernels: dict[int, Kernel] = {}

    def key_id(self, key: tuple) -> int:
        """The id of a turn's changes (allocated on first sight)."""
        got = self._key_id.get(key)
        if got is None:
            got = len(self.keys)
            self.keys.append(key)
            self._key_id[key] = got
        return got

    def expand(self, ident: int, codes: list[int], flagged: set[int], plain: set[int]) -> None:
        """Every chain from one fitting entry application (no clean-ups, no royal rule), added by turn id: the
        walk of :meth:`Chains.walk`."""
        by_changes = self.comp.rules.keyed_by_changes  # several placements in one turn: keyed by changes alone

        def visit(work, diff, start, path, flag, seq) -> bool:
            if diff:
                changes = tuple(sorted(diff.items()))
                first, last = (changes[0][0], changes[0][0]) if by_changes else (start, path[-1][1])
                kid = self.key_id((first, last, changes))
                (flagged if flag else plain).add(kid)
            return False

        self.chains.walk(codes, self.comp.apps[ident].player, (ident,), visit)

    def kernel(self, player: int) -> Kernel:
        """The kernel of ``player`` (built on first use)."""
        k = self.kernels.get(player)
        if k is None:
            k = self._build(player)
            self.kernels[player] = k
        return k

    def _build(self, player: int) -> Kernel:
        comp = self.comp
        maps, const_of = comp.maps, comp.const_of
        src = ["def kernel(codes):", "    P = set()", "    F = set()"]
        for t in range(comp.n):
            branches: list[tuple[int, list[str]]] = []
            for c in comp.valid_codes:
                body: list[str] = []
                for ident in comp.entries(player, t, c):
                    a = comp.apps[ident]
                    conds = []
                    single: dict[int, int] = {}
                    for u, msk in a.checks:
                        if u == t:
                            continue
                        if msk & (msk - 1) == 0:
                            v = msk.bit_length() - 1
                            single[u] = v
                            conds.append(f"codes[{u}] == {v}")
                        else:
                            conds.append(f"({msk} >> codes[{u}]) & 1")
                    cond = " and ".join(conds) or "True"
                    if a.link_keys or a.lines is not None or a.groups is not None or a.conds:  # chains, or board-
                        # dependent writes, or conditions read on the whole board
                        body.append(f"if {cond}: X({ident}, codes, F, P)")
                        continue
                    changes = []
                    dynamic = False
                    for u, source, mp in a.writes:
                        if source == t:
                            val = maps[mp][c]
                        elif const_of[mp] >= 0:
                            val = const_of[mp]
                        else:
                            dynamic = True
                            break
                        if u == t:
                            if val != c:
                                changes.append((u, val))
                        elif single.get(u) == val:
                            continue
                        elif u in single:
                            changes.append((u, val))
                        else:
                            dynamic = True
                    if dynamic:
                        body.append(f"if {cond}: X({ident}, codes, F, P)")
                        continue
                    if not changes:
                        continue
                    kid = self.key_id((t, a.to if a.to >= 0 else t, tuple(sorted(changes))))
                    target = "F" if a.klass in self.mandatory else "P"
                    body.append(f"if {cond}: {target}.add({kid})")
                if body:
                    branches.append((c, body))
            if not branches:
                continue
            src.append(f"    c = codes[{t}]")
            for k, (c, body) in enumerate(branches):
                src.append(f"    {'if' if k == 0 else 'elif'} c == {c}:")
                src.extend("        " + b for b in body)
        src.append("    return F if F else P")
        ns: dict[str, object] = {"X": self.expand}
        exec(compile("\n".join(src), f"<kernel {comp.rules.name} player {player}>", "exec"), ns)
        return ns["kernel"]  # type: ignore[return-value]
