"""The maximum rule (``maximum = ["capture"]``): where some turn holds moves of these classes, only the turns with
the most of them are legal — international draughts' "take the most pieces".

A turn's count is read on the route its :class:`~tapology.rules.chains.Found` keeps (its shortest); routes to one
result take the same pieces in draughts, so any route gives the same count.  The native engine runs the rule too
(``engine.c``, ``node_turns_in``): it keeps the fewest and the most such moves over a turn's chains and declines a
position where they differ (only the Python walk knows the shortest route); under ``perft --rbg`` a way of playing a
turn counts on its first chain, as :func:`tapology.rules.perft.play_paths` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapology.rules.chains import Chains, Found
from tapology.rules.compiled import Key


def count_of(chains: Chains, seq: Sequence[int]) -> int:
    """How many moves of the rule set's maximum classes the chain ``seq`` holds."""
    classes = chains.rules.maximum
    apps = chains.comp.apps
    return sum(1 for i in seq if apps[i].klass in classes)


def keep_most(chains: Chains, found: dict[Key, Found]) -> dict[Key, Found]:
    """``found`` after the maximum rule (unchanged when the rule set names none, or no turn holds such a move)."""
    if not chains.rules.maximum or not found:
        return found
    counts = {k: count_of(chains, f.apps) for k, f in found.items()}
    most = max(counts.values())
    return found if most == 0 else {k: f for k, f in found.items() if counts[k] == most}


def class_rules(chains: Chains, found: dict[Key, Found]) -> dict[Key, Found]:
    """``found`` after the mandatory-class rule (where some turn holds a move of a mandatory class, only such turns)
    and then the maximum rule: the legal turns of a chain walk."""
    if chains.mandatory and any(f.flagged for f in found.values()):
        found = {k: f for k, f in found.items() if f.flagged}
    return keep_most(chains, found)
