"""Regions: named sets of tiles that patterns and end rules can ask for (``promotion-{player}``, ``goal-red``).

A board file names regions by tile ids; a rule set (or the set-up it has for a board) names
them by tile ids and by specs read off the board's drawing: ``row:N`` and ``column:N``
(counted from 1 at the top / left, negative from the bottom / right) and ``parity:K`` (tiles
whose drawn cell has x + y ≡ K mod 2: one colour of a checkerboard), and by ``edge:SIDE[+SIDE…]``:
the tiles whose neighbours on all the given sides are off the board, read through the charts —
so a side taped to another has no edge, and on a cylinder ``edge:w`` is empty.  A board file's
own regions win over the rule set's of the same name.
"""

from __future__ import annotations

from tapology.errors import PositionError, TapologyError
from tapology.model.board import Board
from tapology.rules.model import RuleSet

Regions = dict[str, frozenset[int]]


def _drawn(board: Board, name: str, spec: str) -> list[tuple[int, int, int, int]]:
    """(tile, row, column, x + y) of every drawn tile; :class:`PositionError` if the board has no drawing."""
    if board.placement is None or all(p is None for p in board.placement):
        raise PositionError(f"region {name!r}: {spec!r} needs a board with a drawing (a built-in or a layout)")
    out = []
    for t, p in enumerate(board.placement):
        if p is not None:
            cell = p[0]
            row, col = board.grid.layout_row_col(cell)
            out.append((t, row, col, cell[0] + cell[1]))
    return out


def _spec_tiles(board: Board, name: str, spec: str) -> set[int]:
    if ":" not in spec:
        try:
            return {board.tile(spec, f"region {name!r}")}
        except TapologyError as exc:
            raise PositionError(str(exc)) from None
    kind, _, num = spec.partition(":")
    if kind == "edge":
        return _edge(board, name, num)
    k = int(num)
    drawn = _drawn(board, name, spec)
    if kind == "parity":
        return {t for t, _r, _c, s in drawn if s % 2 == k % 2}
    axis = 1 if kind == "row" else 2
    values = sorted({d[axis] for d in drawn})
    if not 1 <= abs(k) <= len(values):
        raise PositionError(f"region {name!r}: {spec!r}: the board has {len(values)} {kind}s")
    want = values[k - 1] if k > 0 else values[k]
    return {d[0] for d in drawn if d[axis] == want}


def _edge(board: Board, name: str, sides: str) -> set[int]:
    """Tiles with no neighbour on any of the ``+``-joined sides (the chart holds ∅ there)."""
    grid = board.grid
    try:
        dirs = [grid.side(s) for s in sides.split("+")]
    except TapologyError as exc:
        raise PositionError(f"region {name!r}: edge:{sides}: {exc}") from None
    return {t for t, row in enumerate(board.glue) if all(row[d] < 0 for d in dirs)}


def resolve_regions(rules: RuleSet, board_name: str, board: Board,
                    from_file: tuple[tuple[str, tuple[int, ...]], ...] = ()) -> Regions:
    """The regions of a game's board: the rule set's (its set-up's for this board first), then the board file's."""
    specs: dict[str, tuple[str, ...]] = dict(rules.regions)
    setup = rules.setup_for(board_name)
    if setup is not None:
        specs.update(dict(setup.regions))
    out: Regions = {}
    for name, items in specs.items():
        tiles: set[int] = set()
        for spec in items:
            tiles |= _spec_tiles(board, name, spec)
        out[name] = frozenset(tiles)
    for name, tids in from_file:
        out[name] = frozenset(tids)
    return out
