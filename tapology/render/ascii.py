"""Pictures in seed 000's ASCII style: ``o-------o`` boxes, orientation arrows, ``*`` on a chart's centre.

Squares show their orientation with the seed's arrows (primary ``^``, secondary ``>``,
turned and flipped).  Hex tiles are drawn as boxes in offset rows, with the orientation
written as ``id/g``.  :func:`parse_grid_picture` reads such pictures back (tests read the
seed's own drawings with it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tapology.model.board import Board
from tapology.model.group import SQUARE_D4, Cell
from tapology.render.develop import develop_board

# (row, column) of each arrow inside a 7-wide cell, per square orientation (seed 000).
ARROWS: dict[int, tuple[tuple[int, int, str], ...]] = {
    0: ((0, 3, "^"), (0, 5, ">")),
    1: ((1, 5, ">"), (2, 5, "v")),
    2: ((2, 1, "<"), (2, 3, "v")),
    3: ((0, 1, "^"), (1, 1, "<")),
    4: ((0, 1, "<"), (0, 3, "^")),
    5: ((0, 5, "^"), (1, 5, ">")),
    6: ((2, 3, "v"), (2, 5, ">")),
    7: ((1, 1, "<"), (2, 1, "v")),
}
_BY_ARROWS = {frozenset(v): k for k, v in ARROWS.items()}

Entry = tuple[str, int]  # (tile id, orientation)


def _cell_width(labels: Sequence[str]) -> int:
    w = max([7, *[len(s) + 4 for s in labels]])
    return w if w % 2 else w + 1


def _cell_lines(entry: Entry | None, width: int, centre: bool, square: bool, state: str = "") -> list[str]:
    rows = [[" "] * width for _ in range(3)]
    mid = width // 2
    if entry is not None:
        tid, g = entry
        label = tid if square else f"{tid}/{g}"
        if state:
            label = f"{label} {state}"
        start = mid - (len(label) - 1) // 2
        for k, ch in enumerate(label):
            rows[1][start + k] = ch
        if centre:
            rows[0][mid] = "*"
            rows[2][mid] = "*"
            rows[1][start - 2] = "*"
            rows[1][start + len(label) + 1] = "*"
        elif square and g >= 0:
            scale = {1: 1, 3: mid, 5: width - 2}
            for r, c, ch in ARROWS[g]:
                rows[r][scale[c]] = ch
    return ["".join(r) for r in rows]


def box_width(entries: Mapping[tuple[int, int], Entry | None], square: bool = True,
              states: Mapping[tuple[int, int], str] | None = None, minimum: int = 7) -> int:
    """The (odd) inner width of the boxes :func:`draw_grid` draws: wide enough for every label and state."""
    states = states or {}
    labels = [(e[0] if square else f"{e[0]}/{e[1]}") + (" " + states[k] if k in states else "")
              for k, e in entries.items() if e is not None]
    w = max(minimum, _cell_width(labels or ["."]))
    return w if w % 2 else w + 1


def draw_grid(entries: Mapping[tuple[int, int], Entry | None], centre: tuple[int, int] | None = None,
              square: bool = True, width: int | None = None,
              states: Mapping[tuple[int, int], str] | None = None) -> str:
    """Draw (row, col) -> entry as touching boxes; rows from the top.  Cost linear in the picture's size.

    A None entry is an empty box; a missing key draws nothing.  On hexes odd rows are
    shifted half a cell to the right.
    """
    if not entries:
        return ""
    states = states or {}
    w = box_width(entries, square, states, width or 7)
    half = (w + 1) // 2
    r0 = min(r for r, _ in entries)
    r1 = max(r for r, _ in entries)
    c0 = min(c for _, c in entries)
    c1 = max(c for _, c in entries)
    canvas = [[" "] * ((c1 - c0) * (w + 1) + w + 2 + (0 if square else half)) for _ in range((r1 - r0) * 4 + 5)]
    for (r, c), e in entries.items():
        y = (r - r0) * 4
        x = (c - c0) * (w + 1) + (half if not square and r % 2 else 0)
        for yy in (y, y + 4):
            line = canvas[yy]
            for k in range(x + 1, x + w + 1):
                if line[k] != "o":
                    line[k] = "-"
            line[x] = line[x + w + 1] = "o"
        for k in range(1, 4):
            canvas[y + k][x] = canvas[y + k][x + w + 1] = "|"
        for k, text in enumerate(_cell_lines(e, w, (r, c) == centre, square, states.get((r, c), ""))):
            line = canvas[y + 1 + k]
            for dx, ch in enumerate(text):
                if ch != " ":
                    line[x + 1 + dx] = ch
    return "\n".join("".join(row).rstrip() for row in canvas).rstrip("\n")


def side_by_side(blocks: Sequence[str], titles: Sequence[str] | None = None, gap: int = 6) -> str:
    """Pictures next to each other, each with an optional title underneath."""
    split = [b.split("\n") for b in blocks]
    widths = [max(len(line) for line in b) for b in split]
    height = max(len(b) for b in split)
    lines = []
    for k in range(height):
        lines.append((" " * gap).join((b[k] if k < len(b) else "").ljust(w) for b, w in zip(split, widths, strict=True)))
    if titles:
        lines.append((" " * gap).join(t.center(w) for t, w in zip(titles, widths, strict=True)))
    return "\n".join(line.rstrip() for line in lines)


def _arrows_for(grid) -> list[int]:
    """Per orientation of ``grid``, the seed-000 arrow picture (square numbering) that shows it, or -1."""
    out = []
    for g in range(grid.group.order):
        img = (grid.group.act(g, (1, 0)), grid.group.act(g, (0, 1)))
        out.append(next((k for k in range(8) if (SQUARE_D4.act(k, (1, 0)), SQUARE_D4.act(k, (0, 1))) == img), -1))
    return out


def _entry(board: Board, tile: int, g: int, arrows: list[int]) -> Entry:
    """A tile as drawn: its id with the arrows of its orientation, or ``id/g`` where no arrows show it."""
    if board.grid.is_hex:
        return (board.tiles[tile], g)
    a = arrows[g]
    return (board.tiles[tile], a) if a >= 0 else (f"{board.tiles[tile]}/{g}", -1)


def chart_entries(board: Board, chart: Mapping[Cell, tuple[int, int]]) -> dict[tuple[int, int], Entry | None]:
    """A chart as (row, col) entries: every domain cell present, None where empty."""
    arrows = _arrows_for(board.grid)
    out: dict[tuple[int, int], Entry | None] = {}
    for cell in board.domain.cells:
        rc = board.grid.layout_row_col(cell)
        v = chart.get(cell)
        out[rc] = None if v is None else _entry(board, v[0], v[1], arrows)
    return out


def draw_chart(board: Board, tile: int, chart: Mapping[Cell, tuple[int, int]], width: int | None = None) -> str:
    """One chart in the seed's style, its centre marked with ``*`` (``width``: of a cell, measured once per board)."""
    grid = board.grid
    entries = chart_entries(board, chart)
    return draw_grid(entries, centre=grid.layout_row_col(grid.origin), square=not grid.is_hex,
                     width=width or _cell_width(board.tiles))


def draw_charts(board: Board, charts: Mapping[int, Mapping[Cell, tuple[int, int]]], per_row: int = 3) -> str:
    """Several charts side by side, titled ``chart T``, ``per_row`` to a line."""
    items = list(charts.items())
    blocks = []
    width = _cell_width(board.tiles)  # once: measuring every tile label per chart made big boards quadratic
    for k in range(0, len(items), per_row):
        chunk = items[k:k + per_row]
        blocks.append(side_by_side([draw_chart(board, t, c, width) for t, c in chunk],
                                   [f"chart {board.tiles[t]}" for t, _ in chunk]))
    return "\n\n".join(blocks)


def draw_board(board: Board, positions: Sequence[tuple[Cell, int] | None] | None = None,
               state_names: Mapping[int, str] | None = None) -> str:
    """The board's tiles where they are placed in the plane, with their orientations."""
    square = not board.grid.is_hex
    pos = positions if positions is not None else board.placement
    if pos is None:

        pos = develop_board(board)
    arrows = _arrows_for(board.grid)
    entries: dict[tuple[int, int], Entry | None] = {}
    states: dict[tuple[int, int], str] = {}
    loose = []
    for t, p in enumerate(pos):
        if p is None:
            loose.append(t)
            continue
        cell, g = p
        rc = board.grid.layout_row_col(cell)
        entries[rc] = _entry(board, t, g, arrows)
        if board.states[t]:
            states[rc] = (state_names or {}).get(board.states[t], f"({board.states[t]})")
    pic = draw_grid(entries, square=square, width=_cell_width(board.tiles), states=states)
    if loose:
        extra = draw_grid({(0, 2 * k): (board.tiles[t], 0) for k, t in enumerate(loose)}, square=square,
                          width=_cell_width(board.tiles))
        pic = pic + "\n\nnot drawn in the plane above:\n" + extra if pic else extra
    return pic


def parse_grid_picture(text: str, width: int | None = None) -> dict[tuple[int, int], Entry | None]:
    """Read a picture of touching square boxes (seed style) into (row, col) -> (id, orientation).

    Every drawn box gives an entry; an empty box gives None.  The centre box (``*``) has
    orientation 0.  Boxes must be aligned on a common grid of ``width``-wide cells (by default
    the width of the first box drawn).
    """
    lines = [ln for ln in text.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    out: dict[tuple[int, int], Entry | None] = {}
    border_rows = [i for i, ln in enumerate(lines) if ln.strip().startswith("o")]
    if not border_rows:
        return out
    left = min(ln.index("o") for ln in lines if "o" in ln.strip()[:1] and ln.strip())
    if width is None:
        first = lines[border_rows[0]]
        a = first.index("o")
        width = first.index("o", a + 1) - a - 1
    for r, top in enumerate(border_rows[:-1]):
        if border_rows[r + 1] != top + 4:
            continue
        body = lines[top + 1: top + 4]
        c = 0
        while True:
            x = left + c * (width + 1)
            if all(len(b) <= x for b in body) and len(lines[top]) <= x:
                break
            inner = [b[x + 1: x + 1 + width].ljust(width) if len(b) > x else " " * width for b in body]
            boxed = len(lines[top]) > x + 1 and lines[top][x + 1] == "-"
            if boxed:
                out[(r, c)] = _read_cell(inner)
            c += 1
    return out


def split_side_by_side(text: str) -> list[str]:
    """Cut a picture of several grids drawn side by side (as in the seed) into one text per grid."""
    lines = text.split("\n")
    first = next((ln for ln in lines if ln.strip().startswith("o")), "")
    spans = [(m.start(), m.end()) for m in re.finditer(r"o[-o]*o", first)]
    out = []
    for a, b in spans:
        part = [ln[a:b] for ln in lines if ln.strip()[:1] in ("o", "|")]
        out.append("\n".join(part))
    return out


def _read_cell(inner: list[str]) -> Entry | None:
    centre = "*" in inner[0] or "*" in inner[2]
    mid = len(inner[0]) // 2
    # arrows are read by region (left, middle, right of the box) so a hand-drawn arrow one column off still reads
    arrows = frozenset((r, 1 if c < mid else 3 if c == mid else 5, ch)
                       for r in range(3) for c, ch in enumerate(inner[r]) if ch in "^>v<")
    label = inner[1]
    for ch in "^>v<*":
        label = label.replace(ch, " ")
    tid = label.strip().split(" ")[0]  # a state, if drawn, follows the id
    if not tid:
        return None
    if centre:
        return (tid, 0)
    return (tid, _BY_ARROWS.get(arrows, -1))
