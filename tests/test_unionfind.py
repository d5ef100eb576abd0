"""The one union-find: classes agree with connected components found by search."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tapology.model.unionfind import UnionFind


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.tuples(st.integers(0, n - 1),
                                                                                      st.integers(0, n - 1))))))
def test_classes_are_the_connected_components(case) -> None:
    n, pairs = case
    uf = UnionFind(n)
    for a, b in pairs:
        before = (uf.find(a), uf.find(b))
        joined = uf.union(a, b)
        assert (joined is None) == (before[0] == before[1])
        if joined is not None:
            assert joined == (min(before), max(before))
    adj: dict[int, set[int]] = {k: set() for k in range(n)}
    for a, b in pairs:
        adj[a].add(b)
        adj[b].add(a)
    seen: set[int] = set()
    comps = []
    for s in range(n):
        if s in seen:
            continue
        comp, stack = {s}, [s]
        while stack:
            for u in adj[stack.pop()] - comp:
                comp.add(u)
                stack.append(u)
        seen |= comp
        comps.append(sorted(comp))
    assert uf.classes() == comps
    assert all(uf.find(a) == c[0] for c in comps for a in c)
