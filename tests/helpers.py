"""Small helpers shared by tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapology.rules.chains import Chains


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


MASK = (1 << 64) - 1


def _splitmix(s: int) -> tuple[int, int]:
    """engine.c splitmix: the stream's next state and value."""
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def native_pick_playout(ch: Chains, codes: list[int], player: int, seed: int, index: int,
                        max_plies: int | None = None) -> tuple[list[int], int]:
    """The native engine's playout `index` of stream `seed` (engine.c tp_playouts: the turn picked by its rank among
    the legal turns in the order the chain walk finds them) over the Python walk's turns, to the end (no turn) or
    `max_plies` plies (end rules not read: two players, no pass)."""
    s = (seed ^ (index * 0xD1B54A32D192ED03)) & MASK
    codes = list(codes)
    while max_plies != 0 and (turns := list(ch.turns(codes, player))):
        s, r = _splitmix(s)
        for u, v in turns[r % len(turns)][2]:
            codes[u] = v
        player = 1 - player
        max_plies = None if max_plies is None else max_plies - 1
    return codes, player
