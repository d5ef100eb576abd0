"""Views: unfolding, ASCII, SVG and field of view of a 100×100 torus at radius 20.

Run:  python benchmarks/bench_views.py [--repeat N]

The unfolding is compared with a plain breadth-first development that calls the core
``tapology.model.walk.step`` for every step (group action per step, no tables): the peer.
Times are the median of N runs (default 5) on this machine.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections import deque
from collections.abc import Callable

from tapology.model.boardfile import load_board
from tapology.model.walk import step
from tapology.model.walker import Walker
from tapology.render.fov import field_of_view, opaque_states
from tapology.render.svg import view_svg
from tapology.render.unfold import draw_view, unfold, window
from tapology.reports.views import view_report


def naive_unfold(at, w: Walker, radius: int) -> dict:
    """Breadth-first development through the core ``step`` (the peer): the same work as ``unfold``
    (every side of every cell looked at, the board's edge and disagreements recorded)."""
    inside = set(window(at.grid, radius))
    pos = {(0, 0): (w.tile, w.frame)}
    edges = []
    branched = set()
    queue = deque([(0, 0)])
    while queue:
        p = queue.popleft()
        t, f = pos[p]
        for d in at.grid.directions:
            nxt = step(at, t, f, d)
            if nxt is None:
                edges.append((p, d))
                continue
            q = (p[0] + d[0], p[1] + d[1])
            if q not in inside:
                continue
            have = pos.get(q)
            if have is None:
                pos[q] = nxt
                queue.append(q)
            elif have != nxt:
                branched.add(q)
    return pos


def timed(fn: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--radius", type=int, default=20)
    args = ap.parse_args()
    name = f"torus:{args.size}x{args.size}"
    r = args.radius
    t_load = timed(lambda: load_board(name).atlas(), args.repeat)
    at = load_board(name).atlas()
    board = at.board().with_states([1 if t % 17 == 0 else 0 for t in range(len(at.tiles))])
    w = Walker(0, 0)
    view = unfold(at, w, r)
    assert {c: (t, f) for c, t, f in zip(view.cells, view.tiles, view.frames, strict=True)} == naive_unfold(at, w, r)
    rows = [
        ("load + close the board", t_load),
        ("unfold (tables)", timed(lambda: unfold(at, w, r), args.repeat)),
        ("unfold (peer: core step per cell)", timed(lambda: naive_unfold(at, w, r), args.repeat)),
        ("ASCII picture", timed(lambda: draw_view(view, board), args.repeat)),
        ("SVG picture", timed(lambda: view_svg(view, board), args.repeat)),
        ("field of view (rays)", timed(lambda: field_of_view(at, w, r, opaque_states(board, {1})), args.repeat)),
        ("`view` end to end, ascii", timed(lambda: view_report(name, "1", 0, r, "ascii"), args.repeat)),
        ("`view` end to end, svg", timed(lambda: view_report(name, "1", 0, r, "svg"), args.repeat)),
    ]
    print(f"{name}, radius {r} ({len(view.cells)} cells); median of {args.repeat}; "
          f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print("| step | seconds |")
    print("|---|---|")
    for label, s in rows:
        print(f"| {label} | {s:.4f} |")
    print(f"\nunfold speed-up over the peer: {rows[2][1] / rows[1][1]:.1f}x")


if __name__ == "__main__":
    main()
