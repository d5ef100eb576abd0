"""Turn labels: stable names for turns in menus and transcripts.

The tiles the moving piece visits, joined by ``-`` (``x`` after a move of class ``capture``, ``-NAME-``
before the ``to`` tile of a block move: pentago's ``1-turn-right-8``), e.g. ``22x15x6``; a slide names only
where it ends; a turn that moves no piece is named by its origin tile (``5``); a taping is
``tape 1.up=3.right`` (``~`` when flipped).  Where two turns
would share a label, ``=STATE`` (what ends on the last tile) and then ``#n`` are appended.  A
game's :class:`~tapology.rules.engine.Notation` (chess's UCI, say) may name turns its own way and read other
spellings: the engine asks it first.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapology.rules.chains import Found
from tapology.rules.compiled import Compiled, Key


def path_label(comp: Compiled, key: Key, found: Found) -> str:
    """The tile-path label of a turn (before de-duplication)."""
    ids = comp.board.tiles
    if len(found.path) == 1:
        return ",".join(ids[comp.apps[i].tile] for i in found.apps) if len(found.apps) > 1 else ids[found.path[0][1]]
    return "".join(sep + ids[t] for sep, t in found.path)


def unique_labels(labels: list[str], keys: Sequence[Key], comp: Compiled) -> list[str]:
    """Labels made distinct: ``=STATE`` (what ends on the turn's last tile), then ``#n``."""
    counts: dict[str, int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    h = comp.h
    out = []
    for lab, (_s, end, changes) in zip(labels, keys, strict=True):
        if counts[lab] > 1:
            ch = dict(changes)
            if end in ch:
                lab = f"{lab}={comp.rules.by_value[ch[end] // h].name}"
        out.append(lab)
    totals: dict[str, int] = {}
    for lab in out:
        totals[lab] = totals.get(lab, 0) + 1
    seen: dict[str, int] = {}
    final = []
    for lab in out:
        k = seen.get(lab, 0)
        seen[lab] = k + 1
        final.append(lab if totals[lab] == 1 else f"{lab}#{k + 1}")
    return final
