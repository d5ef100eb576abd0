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


def atlas_of(name: str):  # -> Atlas
    """The closed atlas of a board (built-in name or file), which must be consistent."""
    from tapology.model.boardfile import load_board

    at = load_board(name).atlas()
    assert at.conflict is None
    return at


def examples(factor: float) -> int:
    """``factor`` times the Hypothesis profile's examples per property (at least 1; profiles in tests/conftest.py),
    for a test that must run more (a cheap cross-check) or fewer (a slow one) than the others."""
    from hypothesis import settings

    return max(1, round(settings().max_examples * factor))
