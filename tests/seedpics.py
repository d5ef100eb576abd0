"""Reading seed 000's drawings (tests/data/seed000) into charts keyed by cell."""

from __future__ import annotations

from pathlib import Path

from tapology.render.ascii import parse_grid_picture, split_side_by_side

DATA = Path(__file__).parent / "data" / "seed000"


def seed_charts(name: str) -> list[dict[tuple[int, int], tuple[str, int] | None]]:
    """Every 3×3 chart drawn in a seed picture file, left to right, block by block: cell -> (id, orientation)."""
    out = []
    for block in (DATA / f"{name}.txt").read_text().split("\n\n"):
        for part in split_side_by_side(block):
            pic = parse_grid_picture(part)
            out.append({(c - 1, 1 - r): v for (r, c), v in pic.items()})
    return out


def centre(chart: dict[tuple[int, int], tuple[str, int] | None]) -> str:
    """The tile drawn at the chart's centre."""
    v = chart[(0, 0)]
    assert v is not None
    return v[0]
