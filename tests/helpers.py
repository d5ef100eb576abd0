"""Small helpers shared by tests."""

from __future__ import annotations


def reachable(g) -> set[tuple[int, int]]:  # g: KInARow
    """Every (x, o) bitmask pair reachable from the empty board by legal claims (depth-first)."""
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        x, o = stack.pop()
        for _, cx, co in g.children(x, o):
            if (cx, co) not in seen:
                seen.add((cx, co))
                stack.append((cx, co))
    return seen
