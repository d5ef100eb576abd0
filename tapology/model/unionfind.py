"""Union-find (disjoint sets) over ``0..n-1``: path halving, and the least member of a class is its root."""

from __future__ import annotations


class UnionFind:
    """Classes of ``0..n-1`` joined by :meth:`union`; :meth:`find` gives a class's root, its least member."""

    __slots__ = ("parent",)

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, a: int) -> int:
        """The root of ``a``'s class (its least member)."""
        p = self.parent
        while p[a] != a:
            p[a] = p[p[a]]
            a = p[a]
        return a

    def union(self, a: int, b: int) -> tuple[int, int] | None:
        """Join the classes of ``a`` and ``b``: (the root kept, the root absorbed) if they were apart, else None."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return None
        if ra > rb:
            ra, rb = rb, ra
        self.parent[rb] = ra
        return ra, rb

    def classes(self) -> list[list[int]]:
        """Every class, members in order, classes in order of their least member."""
        out: dict[int, list[int]] = {}
        for a in range(len(self.parent)):
            out.setdefault(self.find(a), []).append(a)
        return list(out.values())
