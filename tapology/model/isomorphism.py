"""Board isomorphism: canonical signatures, isomorphisms and automorphism groups (docs/conventions.md §3).

Two boards are isomorphic when a relabelling of the tiles plus a re-orientation of each tile
(``Board.relabel(perm, turn)``) maps one gluing table (and base facts) onto the other.

The canonical form is found like Regina's isomorphism signatures: for every start (tile t₀,
frame g₀) of a connected component, walk the component breadth-first — tiles numbered in
the order they are met, sides read in the tile's new frame, each newly met tile turned so
that the side it was met through is glued with the identity — and keep the lexicographically
least code sequence.  The sequence determines the table up to isomorphism and every
isomorphic copy produces the same set of sequences, so the least one is a complete
invariant.  Walks are cut as soon as they exceed the best so far, and each tie with the best
is an automorphism: starts that the automorphisms found so far carry onto a walked start are
skipped, so symmetric boards cost a few walks.  Worst case O(n²·|H|·|S|) per component.

A map is a pair ``(perm, turn)`` of tuples: tile t goes to ``perm[t]`` and is re-oriented by
``turn[t]`` (the arguments of :meth:`Board.relabel`).
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from math import factorial

from tapology.model.board import Board, Fact
from tapology.model.unionfind import UnionFind

Map = tuple[tuple[int, ...], tuple[int, ...]]
_ALPHABET = string.digits + string.ascii_letters


def compose(board: Board, first: Map, then: Map) -> Map:
    """The map doing ``first``, then ``then`` (as two successive :meth:`Board.relabel` calls)."""
    p1, g1 = first
    p2, g2 = then
    mul = board.grid.group.mul
    return (tuple(p2[p1[t]] for t in range(len(p1))), tuple(mul[g2[p1[t]]][g1[t]] for t in range(len(p1))))


def inverse(board: Board, f: Map) -> Map:
    """The inverse map."""
    p, g = f
    inv = board.grid.group.inv
    n = len(p)
    pi = [0] * n
    gi = [0] * n
    for t in range(n):
        pi[p[t]] = t
        gi[p[t]] = inv[g[t]]
    return tuple(pi), tuple(gi)


def identity(n: int) -> Map:
    """The identity map on n tiles."""
    return tuple(range(n)), (0,) * n


def apply(board: Board, f: Map) -> Board:
    """The board relabelled by ``f``, keeping the tile ids in place (so equal tables mean an automorphism)."""
    return board.relabel(f[0], f[1], ids=board.tiles)


def _symmetric_extras(board: Board) -> list[list[Fact]]:
    """Each tile's base facts at non-unit cells, together with their reverses."""
    grid = board.grid
    grp = grid.group
    out: list[set[Fact]] = [set() for _ in board.tiles]
    for f in board.extra:
        out[f.tile].add(f)
        io = grp.inv[f.orientation]
        out[f.other].add(Fact(f.other, grp.act(io, grid.neg(f.cell)), f.tile, io))
    return [sorted(s) for s in out]


class _Walker:
    """Breadth-first canonical walks of one board (tables prepared once)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        grid = board.grid
        self.h = board.order
        self.m = len(grid.directions)
        self.mul = grid.group.mul
        self.inv = grid.group.inv
        self.dir_perm = grid.dir_perm
        self.glue = board.glue
        self.extras = _symmetric_extras(board) if board.extra else None

    def walk(self, t0: int, g0: int, best: list[int] | None) -> tuple[list[int], list[int], dict[int, int]] | None:
        """The code sequence from start (t0, g0), the tiles in label order and their turns.

        None as soon as the sequence exceeds ``best`` (the sequences are prefix-free).
        """
        h, m, mul, inv, dir_perm, glue = self.h, self.m, self.mul, self.inv, self.dir_perm, self.glue
        labels = {t0: 0}
        order = [t0]
        turn = {t0: g0}
        out: list[int] = []
        tie = best is not None
        i = 0

        def emit(v: int) -> bool:
            nonlocal tie
            if tie:
                assert best is not None
                k = len(out)
                b = best[k] if k < len(best) else -(10**9)
                if v > b:
                    return False
                if v < b:
                    tie = False
            out.append(v)
            return True

        while i < len(order):
            t = order[i]
            gt = turn[t]
            row = glue[t]
            pg = dir_perm[gt]
            for dp in range(m):
                code = row[pg[dp]]
                if code < 0:
                    v = -1
                else:
                    u, o = divmod(code, h)
                    if u not in labels:
                        labels[u] = len(order)
                        order.append(u)
                        turn[u] = mul[gt][inv[o]]
                    v = labels[u] * h + mul[mul[turn[u]][o]][inv[gt]]
                if not emit(v):
                    return None
            if self.extras is not None:
                grp = self.board.grid.group
                key = self.board.grid.order_key
                igt = inv[gt]
                items = sorted((key(grp.act(igt, f.cell)), grp.act(igt, f.cell), f) for f in self.extras[t])
                if not emit(len(items)):
                    return None
                for _, cell, f in items:
                    u, o = f.other, f.orientation
                    if u not in labels:
                        labels[u] = len(order)
                        order.append(u)
                        turn[u] = mul[gt][inv[o]]
                    for x in cell:
                        if not emit(x):
                            return None
                    if not emit(labels[u] * h + mul[mul[turn[u]][o]][inv[gt]]):
                        return None
            i += 1
        return out, order, turn


def components(board: Board) -> list[list[int]]:
    """Connected components of a board (through glued sides and base facts), each sorted, in order of least tile."""
    n = len(board.tiles)
    h = board.order
    adj: list[set[int]] = [set() for _ in range(n)]
    for t, row in enumerate(board.glue):
        for code in row:
            if code >= 0:
                adj[t].add(code // h)
                adj[code // h].add(t)
    for f in board.extra:
        adj[f.tile].add(f.other)
        adj[f.other].add(f.tile)
    seen = [False] * n
    out = []
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        comp = [s]
        stack = [s]
        while stack:
            t = stack.pop()
            for u in adj[t]:
                if not seen[u]:
                    seen[u] = True
                    comp.append(u)
                    stack.append(u)
        out.append(sorted(comp))
    return out


@dataclass(frozen=True)
class ComponentForm:
    """The least code sequence of one component, a start reaching it, and the component's automorphisms."""

    codes: tuple[int, ...]
    tiles: tuple[int, ...]  # the component's tiles in canonical label order (for the first best start)
    turns: tuple[int, ...]  # their turns
    generators: tuple[tuple[dict[int, int], dict[int, int]], ...]  # automorphisms found: tile -> tile, tile -> turn
    order: int  # the number of starts reaching the least sequence = the component's automorphism group order


def _component_form(walker: _Walker, comp: list[int]) -> ComponentForm:
    """The least walk over every start (tile, frame), skipping starts already known to be images of a walked
    start under the automorphisms found so far (as nauty does): each automorphism is found once as a tie
    with the best sequence.  Cost O(|comp|·|H|·walk) in the worst case, far less on symmetric boards."""
    h = walker.h
    mul, inv = walker.mul, walker.inv
    index = {t: k for k, t in enumerate(comp)}
    size = len(comp) * h
    starts = UnionFind(size)  # over starts k*h + g; roots carry "walked" and orbit sizes
    find = starts.find
    walked = [False] * size
    count = [1] * size

    def union(a: int, b: int) -> None:
        joined = starts.union(a, b)
        if joined is not None:
            ra, rb = joined
            walked[ra] = walked[ra] or walked[rb]
            count[ra] += count[rb]

    best: list[int] | None = None
    best_tt: tuple[list[int], dict[int, int]] | None = None
    best_start = 0
    gens: list[tuple[dict[int, int], dict[int, int]]] = []
    for t0 in comp:
        for g0 in range(h):
            s = index[t0] * h + g0
            r = find(s)
            if walked[r]:
                continue  # an image of a start already walked: the same sequence
            walked[r] = True
            res = walker.walk(t0, g0, best)
            if res is None:
                continue
            seq, order, turn = res
            if best is None or seq < best:
                best, best_tt, best_start = seq, (order, turn), s
                continue
            # a tie: the map from the best start's walk to this one is an automorphism
            assert best_tt is not None
            b_order, b_turn = best_tt
            perm = {t: order[k] for k, t in enumerate(b_order)}
            tmap = {t: mul[inv[turn[order[k]]]][b_turn[t]] for k, t in enumerate(b_order)}
            gens.append((perm, tmap))
            # it carries start (t, g) to (perm[t], g then turn[t]⁻¹)
            for t in comp:
                it = inv[tmap[t]]
                base, img = index[t] * h, index[perm[t]] * h
                for g in range(h):
                    union(base + g, img + mul[g][it])
    assert best is not None and best_tt is not None
    order, turn = best_tt
    return ComponentForm(tuple(best), tuple(order), tuple(turn[t] for t in order), tuple(gens),
                         count[find(best_start)])


def _encode_ints(vals: tuple[int, ...]) -> str:
    """Ints (≥ −1, cell coordinates may be negative) as fixed-width base-62 digits, zigzag coded."""
    zz = [2 * v if v >= 0 else -2 * v - 1 for v in vals]
    top = max(zz, default=0)
    width = 1
    while 62**width <= top:
        width += 1
    out = [_ALPHABET[width]]
    for v in zz:
        digits = []
        for _ in range(width):
            v, r = divmod(v, 62)
            digits.append(_ALPHABET[r])
        out.append("".join(reversed(digits)))
    return "".join(out)


@dataclass(frozen=True)
class Canonical:
    """A board's canonical form: components in canonical order and the map onto the canonical board."""

    board: Board
    forms: tuple[ComponentForm, ...]

    @cached_property
    def signature(self) -> str:
        """The canonical signature string: grid, domain, then each component's tile count and codes."""
        b = self.board
        spec = b.domain.spec()
        dom = spec if isinstance(spec, str) else "cells:" + ";".join(",".join(map(str, c)) for c in spec)
        parts = [f"{len(f.tiles)}{_encode_ints(f.codes)}" for f in self.forms]
        return f"{b.grid.name}/{dom}/" + "+".join(parts)

    @cached_property
    def map(self) -> Map:
        """The map taking the board onto its canonical relabelling (components in canonical order)."""
        n = len(self.board.tiles)
        perm = [0] * n
        turn = [0] * n
        base = 0
        for f in self.forms:
            for k, (t, g) in enumerate(zip(f.tiles, f.turns, strict=True)):
                perm[t] = base + k
                turn[t] = g
            base += len(f.tiles)
        return tuple(perm), tuple(turn)


def canonical(board: Board) -> Canonical:
    """The canonical form of a board."""
    walker = _Walker(board)
    forms = [_component_form(walker, c) for c in components(board)]
    forms.sort(key=lambda f: (len(f.tiles), f.codes))
    return Canonical(board, tuple(forms))


def signature(board: Board) -> str:
    """The canonical signature: equal exactly for isomorphic boards."""
    return canonical(board).signature


def same(a: Board, b: Board) -> bool:
    """Whether two boards are isomorphic."""
    return len(a.tiles) == len(b.tiles) and signature(a) == signature(b)


def isomorphism(a: Board, b: Board) -> Map | None:
    """A map f with ``a.relabel(*f)`` having b's gluing table and base facts, or None."""
    if len(a.tiles) != len(b.tiles):  # told apart at once, before any canonical form (quadratic in the tiles)
        return None
    ca, cb = canonical(a), canonical(b)
    if ca.signature != cb.signature:
        return None
    return compose(a, ca.map, inverse(b, cb.map))


@dataclass(frozen=True)
class AutomorphismGroup:
    """The automorphisms of a board, as generators, with the group's order and its elements on demand."""

    board: Board
    generators: tuple[Map, ...]
    order: int

    def elements(self, limit: int = 1_000_000) -> Iterator[Map]:
        """Every automorphism (closure of the generators), the identity first; at most ``limit``."""
        n = len(self.board.tiles)
        start = identity(n)
        seen = {start}
        frontier = [start]
        yield start
        count = 1
        while frontier and count < limit:
            nxt = []
            for f in frontier:
                for g in self.generators:
                    k = compose(self.board, f, g)
                    if k not in seen:
                        seen.add(k)
                        nxt.append(k)
                        yield k
                        count += 1
                        if count >= limit:
                            return
            frontier = nxt

    def tile_orbits(self) -> list[list[int]]:
        """Tiles grouped by the orbits of the group."""
        n = len(self.board.tiles)
        orbits = UnionFind(n)
        for p, _ in self.generators:
            for t in range(n):
                orbits.union(t, p[t])
        return orbits.classes()


def automorphisms(board: Board) -> AutomorphismGroup:
    """The automorphism group of a board: generators found by the canonical search, and its order."""
    n = len(board.tiles)
    walker = _Walker(board)
    forms = [_component_form(walker, c) for c in components(board)]
    grp = board.grid.group
    gens: list[Map] = []
    order = 1
    by_codes: dict[tuple[int, ...], list[ComponentForm]] = {}
    for f in forms:
        by_codes.setdefault(f.codes, []).append(f)
        for perm_c, turn_c in f.generators:
            perm = list(range(n))
            turn = [0] * n
            for t, u in perm_c.items():
                perm[t] = u
                turn[t] = turn_c[t]
            gens.append((tuple(perm), tuple(turn)))
        order *= f.order
    for same_forms in by_codes.values():
        k = len(same_forms)
        order *= factorial(k)
        for a, b in pairwise(same_forms):
            perm = list(range(n))
            turn = [0] * n
            for x, y in ((a, b), (b, a)):
                for j, t in enumerate(x.tiles):
                    perm[t] = y.tiles[j]
                    turn[t] = grp.mul[grp.inv[y.turns[j]]][x.turns[j]]
            gens.append((tuple(perm), tuple(turn)))
    return AutomorphismGroup(board, tuple(gens), order)
