"""ASCII patterns: the seed's box drawings and a compact grid, both ``before ⇒ after`` with ``*`` on the origin.

Compact grid (rows top to bottom, whitespace-separated tokens, ``.`` = not in the pattern)::

    .     empty   =>  .      @
    *own  .       =>  *empty .

Seed drawing (boxes 8 characters wide and 4 lines high, states in parentheses, the
origin written ``*(1)*``), exactly as in seed 000's "Moves" section.  On hexes the compact
grid is read in offset rows (odd rows half a cell to the right), as board layouts are.
"""

from __future__ import annotations

import re

from tapology.errors import RuleError
from tapology.model.grid import ReferenceGrid, layout_position
from tapology.model.group import Cell

ARROWS = ("==>", "=>", "⇒")
_BOX_TOKEN = re.compile(r"(\*?)\(([^()\s]+)\)")

RawCell = tuple[Cell, str, str | None]  # cell, before token, after token (None: unchanged)


def _split_arrow(line: str) -> tuple[str, str | None]:
    for a in ARROWS:
        if a in line:
            left, right = line.split(a, 1)
            return left, right
    return line, None


def parse_pattern(text: str, grid: ReferenceGrid, where: str) -> list[RawCell]:
    """The cells of an ASCII pattern; :class:`RuleError` naming ``where`` when it is malformed."""
    lines = [ln.rstrip() for ln in text.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise RuleError(f"{where}: empty pattern")
    if any("o-" in ln for ln in lines):
        return _parse_boxes(lines, where)
    return _parse_compact(lines, grid, where)


def _origin_of(found: dict[tuple[int, int], tuple[str, bool]], where: str, side: str) -> tuple[int, int]:
    origins = [rc for rc, (_, star) in found.items() if star]
    if len(origins) != 1:
        raise RuleError(f"{where}: the {side} side marks {len(origins)} origins with '*' (exactly one is needed)")
    return origins[0]


def _parse_compact(lines: list[str], grid: ReferenceGrid, where: str) -> list[RawCell]:
    sides: list[dict[tuple[int, int], tuple[str, bool]]] = [{}, {}]
    has_after = None
    for r, line in enumerate(lines):
        left, right = _split_arrow(line)
        if has_after is None:
            has_after = right is not None
        elif has_after != (right is not None) and line.strip():
            raise RuleError(f"{where}: pattern row {r + 1} {line.strip()!r}: every row needs '=>' or none does")
        for k, part in enumerate((left, right)):
            if part is None:
                continue
            for c, tok in enumerate(part.split()):
                if tok == ".":
                    continue
                star = tok.startswith("*")
                tok = tok.lstrip("*")
                if not tok:
                    raise RuleError(f"{where}: pattern row {r + 1}: '*' must prefix a state, e.g. *own")
                sides[k][(r, c)] = (tok, star)
    before, after = sides
    o = _origin_of(before, where, "before")
    if has_after:
        if set(after) != set(before):
            raise RuleError(f"{where}: the before and after drawings cover different cells")
        if _origin_of(after, where, "after") != o:
            raise RuleError(f"{where}: the origin '*' is in different places before and after")
    base = layout_position(grid, *o)
    out: list[RawCell] = []
    for (r, c), (tok, _) in before.items():
        p = layout_position(grid, r, c)
        cell = (p[0] - base[0], p[1] - base[1])
        out.append((cell, tok, _after(after[(r, c)][0]) if has_after else None))
    return out


def _after(tok: str) -> str | None:
    """An after-token, with ``_`` (unchanged) as None."""
    return None if tok == "_" else tok


def _box_side(lines: list[str], where: str) -> dict[tuple[int, int], tuple[str, bool]]:
    """Tokens of one side of a seed drawing by (box row, box column)."""
    cols = [ln.find("o") for ln in lines if "o" in ln]
    if not cols:
        raise RuleError(f"{where}: a box drawing without corners 'o'")
    left = min(c for c in cols if c >= 0)
    first = next(i for i, ln in enumerate(lines) if "o" in ln)
    found: dict[tuple[int, int], tuple[str, bool]] = {}
    for i, ln in enumerate(lines):
        for m in _BOX_TOKEN.finditer(ln):
            pos = m.start(2) - 1
            key = ((i - first) // 4, (pos - left) // 8)
            if key in found:
                raise RuleError(f"{where}: two states drawn in one box ({m.group(0)!r})")
            found[key] = (m.group(2), bool(m.group(1)))
    return found


def _parse_boxes(lines: list[str], where: str) -> list[RawCell]:
    lefts, rights = [], []
    for ln in lines:
        left, right = _split_arrow(ln)
        lefts.append(left)
        rights.append(right if right is not None else "")
    before = _box_side(lefts, where)
    has_after = any(r.strip() for r in rights)
    after = _box_side(rights, where) if has_after else {}
    o = _origin_of(before, where, "before")
    if has_after:
        if set(after) != set(before):
            raise RuleError(f"{where}: the before and after drawings cover different boxes")
        if _origin_of(after, where, "after") != o:
            raise RuleError(f"{where}: the origin '*' is in different boxes before and after")
    out: list[RawCell] = []
    for (r, c), (tok, _) in before.items():
        out.append(((c - o[1], o[0] - r), tok, _after(after[(r, c)][0]) if has_after else None))
    return out


def draw_pattern(cells: list[RawCell]) -> str:
    """A compact drawing of a square-grid pattern (before => after), for ``tapology rules``."""
    xs = [c[0][0] for c in cells]
    ys = [c[0][1] for c in cells]
    at = {c[0]: c for c in cells}
    rows = []
    width = max(len(t) + 1 for _, b, a in cells for t in (b, a or "_"))
    for y in range(max(ys), min(ys) - 1, -1):
        left, right = [], []
        for x in range(min(xs), max(xs) + 1):
            c = at.get((x, y))
            star = "*" if (x, y) == (0, 0) else ""
            left.append((star + c[1] if c else ".").ljust(width))
            right.append((star + (c[2] or "_") if c else ".").ljust(width))
        rows.append(" ".join(left) + " =>  " + " ".join(right))
    return "\n".join(r.rstrip() for r in rows)
