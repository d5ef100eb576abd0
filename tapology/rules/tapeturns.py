"""Tape turns: a player spends a turn taping two open sides of the board (docs/conventions.md §4).

Every pair of open sides, with the flips the rule set allows, is tried on a copy of the
closed atlas; a taping the propagator refuses is not a turn, and two tapings that give the
same board are one turn.  Cost: one incremental taping per pair of open sides (on an overlay of the
atlas, a refusal not explained).
"""

from __future__ import annotations

from tapology.errors import TapologyError
from tapology.game import Position, Turn
from tapology.model.atlas import Atlas
from tapology.model.board import Taping
from tapology.model.tape import format_fact, side_fact
from tapology.rules.model import TapeRule


def tape_turns(rule: TapeRule, pos: Position, nxt: int, first_only: bool = False,
               counters: tuple[int, ...] = (), history: tuple[Position, ...] = ()) -> list[Turn]:
    """Every taping of two open sides (with the allowed flips) that keeps the atlas consistent, each once."""
    board = pos.board
    nd = len(board.grid.directions)
    open_sides = [(t, d) for t in range(len(board.tiles)) for d in range(nd) if board.glue[t][d] < 0]
    seen: set[tuple] = set()
    out: list[Turn] = []
    pristine = Atlas.of(board)
    if pristine.conflict is not None:
        return out
    for i, (t, d) in enumerate(open_sides):
        for u, e in open_sides[i + 1:]:
            for flip in rule.flips:
                try:
                    fact = side_fact(board, t, d, u, e, flip)
                except TapologyError:
                    continue
                label = format_fact(board, fact)
                nb = pristine.taped([Taping(fact, label)])
                if nb is None:
                    continue  # refused
                key = (nb.glue, nb.extra)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Turn(f"tape {label}", Position(nb, nxt, pos.extra, pos.ply + 1, counters, history)))
                if first_only:
                    return out
    return out
