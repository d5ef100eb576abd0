"""Board files (TOML), built-in board names, and writing boards back out.

A board file::

    grid = "square"            # or "hex", "square-rotations", "hex-rotations"
    domain = "box"             # "plus", "box:R", "ball:R", or [[x, y], ...]
    layout = '''
    1 2 3
    4 5@4 6
    7@1 8@6 9@3
    '''                        # tiles placed in the plane; "." is a hole; id@g turns tile id by g
    tapes = ["3.right=1.left"] # further tapings, applied in order (TAPE syntax)
    tiles = ["1", "2", "x"]    # optional: every tile, in order (default: the layout's reading
                               # order); tiles listed but not drawn are loose
    [states]                   # optional tile states (default 0)
    5 = 1
    [regions]                  # optional named sets of tiles that rule sets can ask for
    goal = ["1", "2", "3"]

Tiles drawn next to each other in the layout are taped as drawn.  On hexes the layout
is drawn in offset rows: odd rows (counting the first as 0) sit half a cell to the right.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from tapology.errors import BoardError, BoardFileError, TapologyError
from tapology.files import parse_toml, read_text, write_atomic
from tapology.limits import check
from tapology.model.atlas import Atlas
from tapology.model.board import Board, Taping, check_tile_id
from tapology.model.builtins import builtin_board, is_builtin
from tapology.model.domain import ChartDomain, domain_from_spec
from tapology.model.grid import ReferenceGrid, grid_from_spec
from tapology.model.group import Cell
from tapology.model.tape import board_tapings, parse_tape

_TOKEN = re.compile(r"^([A-Za-z0-9_\-]+)(?:@(\d+))?$")
KEYS = {"grid", "domain", "layout", "tapes", "tiles", "states", "name", "regions"}


@dataclass(frozen=True)
class BoardSource:
    """A board as written: the drawn (or built-in) part, and the tapings still to apply."""

    board: Board
    tapings: tuple[Taping, ...]
    where: str
    regions: tuple[tuple[str, tuple[int, ...]], ...] = ()  # named sets of tiles (indices), as the file names them

    def atlas(self):  # -> Atlas (imported lazily: model does not depend on solver at import)
        """Close the drawn part and apply the tapings; ``atlas.conflict`` is set if they are refused."""

        at = Atlas.of(self.board)
        if at.conflict is None and self.tapings:
            conflict = at.tape(self.tapings)
            if conflict is not None:
                at.conflict = conflict
        return at


def placement_board(grid: ReferenceGrid, domain: ChartDomain, tiles: list[str], states: list[int],
                    placed: dict[str, tuple[Cell, int]]) -> Board:
    """Tiles placed in the plane (cell, orientation), taped wherever two are drawn side by side."""
    grp = grid.group
    h = grp.order
    index = {t: i for i, t in enumerate(tiles)}
    at_cell = {cell: (index[t], g) for t, (cell, g) in placed.items()}
    glue = [[-1] * len(grid.directions) for _ in tiles]
    for t, (cell, a) in placed.items():
        ti = index[t]
        ai = grp.inv[a]
        for d, dv in enumerate(grid.directions):
            nb = at_cell.get(grid.add(cell, dv))
            if nb is None:
                continue
            u, b = nb
            glue[ti][grid.dir_perm[ai][d]] = u * h + grp.mul[b][ai]
    placement = tuple(placed.get(t) for t in tiles)
    return Board(grid, domain, tuple(tiles), tuple(states), tuple(tuple(r) for r in glue), placement=placement)


def parse_board(text: str, where: str = "<board>", domain_override: str | None = None) -> BoardSource:
    """Parse a board file's text; :class:`BoardFileError` names ``where``, the line and the entry."""
    text = text.removeprefix("\ufeff")
    data = parse_toml(text, where, BoardFileError)
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise BoardFileError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
    if not isinstance(data.get("name", ""), str):
        raise BoardFileError(f"{where}: name must be a string, got {data['name']!r}")
    try:
        grid = grid_from_spec(data.get("grid", "square"))
        domain = domain_from_spec(grid, domain_override if domain_override is not None else data.get("domain"))
    except TapologyError as exc:
        raise BoardFileError(f"{where}: {exc}") from None
    layout, listed = data.get("layout", ""), data.get("tiles")
    if isinstance(layout, str):  # measured before any work is spent on the tiles
        drawn = sum(len(line.split()) - line.split().count(".") for line in layout.split("\n"))
        check("tiles", max(drawn, len(listed) if isinstance(listed, list) else 0), f"{where}: tiles", BoardFileError)
    tiles, placed = _layout(layout, grid, _line_of(text, "layout"), where)
    if data.get("tiles") is not None:
        tiles = _listed_tiles(data["tiles"], tiles, where)
    index = {t: i for i, t in enumerate(tiles)}
    states = _states(data.get("states", {}), index, where)
    if not tiles:
        raise BoardFileError(f"{where}: the board has no tiles (give a layout or tiles)")
    try:
        board = placement_board(grid, domain, tiles, states, placed)
    except TapologyError as exc:
        raise BoardFileError(f"{where}: {exc}") from None
    tapes = data.get("tapes", [])
    if not isinstance(tapes, list) or not all(isinstance(t, str) for t in tapes):
        raise BoardFileError(f"{where}: tapes must be a list of strings like \"3.up=4.down\"")
    tapings = []
    for i, t in enumerate(tapes):
        try:
            tapings.append(parse_tape(t, board, where=f"tapes[{i}]"))
        except TapologyError as exc:
            raise BoardFileError(f"{where}: {exc}") from None
    return BoardSource(board, tuple(tapings), where, _regions(data.get("regions", {}), index, where))


def _layout(layout: object, grid: ReferenceGrid, layout_line: int, where: str) -> tuple[list[str], dict[str, tuple[Cell, int]]]:
    """The tiles a layout draws, in reading order, and where each sits (cell, orientation)."""
    if not isinstance(layout, str):
        raise BoardFileError(f"{where}: layout must be a string of rows")
    tiles: list[str] = []
    placed: dict[str, tuple[Cell, int]] = {}
    rows = layout.split("\n")
    first = _first_row(rows)
    for k, line in enumerate(rows):
        for j, tok in enumerate(line.split()):
            if tok == ".":
                continue
            m = _TOKEN.match(tok)
            place = f"{where}: layout line {layout_line + k}" if layout_line else f"{where}: layout row {k + 1}"
            if not m:
                raise BoardFileError(f"{place}: bad tile {tok!r} (write id or id@orientation, '.' for a hole)")
            tid, digits = m.group(1), m.group(2) or "0"
            g = int(digits) if len(digits) <= 6 else grid.group.order  # longer: out of range, and int() may refuse it
            if g >= grid.group.order:
                shown = tok if len(tok) <= 40 else tok[:40] + "…"
                raise BoardFileError(f"{place}: tile {shown!r}: orientation {digits[:12]}{'…' if len(digits) > 12 else ''} "
                                     f"out of range 0..{grid.group.order - 1}")
            if tid in placed:
                raise BoardFileError(f"{place}: tile {tid!r} is drawn twice")
            tiles.append(tid)
            placed[tid] = (grid.layout_cell(k - first, j), g)
    return tiles, placed


def _listed_tiles(listed: object, drawn: list[str], where: str) -> list[str]:
    """The tile order a ``tiles`` list gives (every drawn tile must be in it)."""
    if not isinstance(listed, list):
        raise BoardFileError(f"{where}: tiles must be a list of tile ids")
    order: list[str] = []
    seen: set[str] = set()  # a set, not the list: a board of 250,000 tiles is read in linear time
    for tid in listed:
        try:
            check_tile_id(str(tid), f"{where}: tiles")
        except BoardError as exc:
            raise BoardFileError(str(exc)) from None
        if str(tid) in seen:
            raise BoardFileError(f"{where}: tiles: tile {str(tid)!r} is listed twice")
        order.append(str(tid))
        seen.add(str(tid))
    missing = [t for t in drawn if t not in seen]
    if missing:
        raise BoardFileError(f"{where}: tiles: layout tile {missing[0]!r} is not listed (list every tile, or none)")
    return order


def _states(st: object, index: dict[str, int], where: str) -> list[int]:
    """The tile states of a ``[states]`` table (0 where not given)."""
    if not isinstance(st, dict):
        raise BoardFileError(f"{where}: [states] must be a table of tile = state")
    states = [0] * len(index)
    for tid, val in st.items():
        if tid not in index:
            raise BoardFileError(f"{where}: states: unknown tile {tid!r}")
        if not isinstance(val, int) or isinstance(val, bool) or val < 0:
            raise BoardFileError(f"{where}: states: tile {tid!r}: state must be a whole number ≥ 0, got {val!r}")
        states[index[tid]] = val
    return states


def _regions(regions: object, index: dict[str, int], where: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The named regions of a ``[regions]`` table, as sorted tile indices."""
    if not isinstance(regions, dict):
        raise BoardFileError(f"{where}: [regions] must be a table of name = [tile ids]")
    named = []
    for name, tids in regions.items():
        if not isinstance(tids, list) or not all(isinstance(t, str | int) and not isinstance(t, bool) for t in tids):
            raise BoardFileError(f"{where}: regions: {name!r} must be a list of tile ids")
        bad = [str(t) for t in tids if str(t) not in index]
        if bad:
            raise BoardFileError(f"{where}: regions: {name!r}: unknown tile {bad[0]!r}")
        named.append((name, tuple(sorted({index[str(t)] for t in tids}))))
    return tuple(named)


def _first_row(rows: list[str]) -> int:
    """Index of the first non-blank layout row (so a leading newline does not shift the picture)."""
    for k, line in enumerate(rows):
        if line.strip():
            return k
    return 0


def _line_of(text: str, key: str) -> int:
    """1-based line of the first non-blank layout row, or 0 if the key is not found as written."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.match(rf"^\s*{key}\s*=", line):
            rest = line.split("=", 1)[1].strip()
            if rest in ('"""', "'''"):
                j = i + 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                return j + 1
            return i + 1
    return 0


def load_board(spec: str, domain: str | None = None) -> BoardSource:
    """A board by built-in name or file path; errors name the input."""
    if is_builtin(spec) or (":" in spec and not Path(spec).exists() and not spec.endswith(".toml")):
        try:
            return BoardSource(builtin_board(spec, domain), (), spec)
        except TapologyError as exc:
            raise BoardFileError(str(exc)) from None
    return parse_board(read_text(spec, "board file or built-in board", BoardFileError), spec, domain)


# ---- writing ------------------------------------------------------------------------
def _layout_text(board: Board) -> tuple[str, set[tuple[int, int]]] | None:
    """The layout drawing of a board's placement, and the sides it tapes; None if it has none
    or if the drawing would tape sides the board does not have taped that way."""
    if board.placement is None or all(p is None for p in board.placement):
        return None
    grid = board.grid
    placed = {t: p for t, p in zip(board.tiles, board.placement, strict=True) if p is not None}
    drawn = placement_board(grid, board.domain, list(board.tiles), list(board.states), placed)
    implied: set[tuple[int, int]] = set()
    for t, row in enumerate(drawn.glue):
        for d, code in enumerate(row):
            if code >= 0:
                if board.glue[t][d] != code:
                    return None
                implied.add((t, d))
    rc = {grid.layout_row_col(cell): f"{t}@{g}" if g else t for t, (cell, g) in placed.items()}
    r0 = min(r for r, _ in rc)
    if grid.is_hex:  # keep odd rows odd: they are the ones drawn half a cell to the right
        r0 -= r0 % 2
    c0 = min(c for _, c in rc)
    r1 = max(r for r, _ in rc)
    c1 = max(c for _, c in rc)
    width = max(len(v) for v in rc.values())
    lines = []
    for r in range(r0, r1 + 1):
        toks = [rc.get((r, c), ".").ljust(width) for c in range(c0, c1 + 1)]
        lines.append(" ".join(toks).rstrip())
    return "\n".join(lines), implied


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dumps_board(board: Board) -> str:
    """A board file's text for ``board``; ``parse_board`` gives back an equal board."""
    if board.grid.spec:
        sp = dict(board.grid.spec)
        out = ["grid = { name = " + _q(sp["name"]) + ", directions = " + str([list(d) for d in sp["directions"]])
               + ", names = [" + ", ".join(_q(x) for x in sp["names"]) + "], orientations = "
               + str([[list(r) for r in m] for m in sp["orientations"]]) + " }"]
    else:
        out = [f"grid = {_q(board.grid.name)}"]
    spec = board.domain.spec()
    out.append(f"domain = {_q(spec)}" if isinstance(spec, str) else f"domain = {spec}")
    drawn = _layout_text(board)
    implied: set[tuple[int, int]] = set()
    tiles_line = "tiles = [" + ", ".join(_q(t) for t in board.tiles) + "]"
    if drawn is not None:
        text, implied = drawn
        out.append("layout = '''\n" + text + "\n'''")
        if parse_board("\n".join(out)).board.tiles != board.tiles:
            out.append(tiles_line)
    else:
        out.append(tiles_line)
    tapes = []
    for tp in board_tapings(board):
        f = tp.fact
        d = board.grid.direction_index.get(f.cell)
        if d is not None and (f.tile, d) in implied:
            continue
        if d is not None:
            # the reverse side is implied too when the layout draws it
            e = board.grid.dir_perm[board.grid.group.inv[f.orientation]][board.grid.opposite[d]]
            if (f.other, e) in implied:
                continue
        tapes.append(tp.label)
    if tapes:
        out.append("tapes = [\n" + "".join(f"  {_q(t)},\n" for t in tapes) + "]")
    if any(board.states):
        out.append("\n[states]")
        out.extend(f"{_q(t)} = {s}" for t, s in zip(board.tiles, board.states, strict=True) if s)
    return "\n".join(out) + "\n"


def save_board(board: Board, path: str | os.PathLike[str]) -> None:
    """Write a board file atomically (a temporary file renamed over the target)."""
    write_atomic(path, dumps_board(board), BoardFileError)
