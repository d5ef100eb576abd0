"""The browser workshop measured in the browser: page load, a chess move's round trip, panning a big cover.

Run:  python benchmarks/bench_web.py [--repeat N] [--moves M]

Debian's chromium (headless, through playwright) against ``tapology serve``'s app on 127.0.0.1, in the same
run:

* **page load**: navigation start to the page ready (the workshop open on ``plane:3x3``, its net and cover
  drawn), median of N fresh pages; the peer is a plain static page of the same server (``/static/style.css``
  wrapped in nothing: the browser's and the server's own cost of one request and a first paint);
* **move round trip**: chess on ``torus:12x8`` (the cover at radius 11: 529 cells), a legal move chosen
  at random and clicked — from the click on the target to the next frame painted after the pieces are
  redrawn — over M moves; the server's share is the same request made without a browser;
* **pan**: the cover of ``torus:100x100`` at radius 30 and 50 (3,721 and 10,201 cells) moved one
  step per animation frame for 120 frames: frame times (median, 95th percentile).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import browser, missing, serving  # noqa: E402

PAN_JS = """async (frames) => {
  const svg = document.getElementById('ws-cover');
  const v = svg._view;
  const times = [];
  let last = await new Promise(requestAnimationFrame);
  for (let i = 0; i < frames; i++) {
    v.panBy(v.w / 90, v.h / 150);
    const t = await new Promise(requestAnimationFrame);
    times.push(t - last);
    last = t;
  }
  return times;
}"""

MOVE_JS = """async ([from, to]) => {
  const cell = (t) => document.querySelector(`#pl-cover g.cell[data-t='${t}']`);
  const status = document.getElementById('pl-status');
  const ply = status.dataset.ply;
  cell(from).dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const t0 = performance.now();
  cell(to).dispatchEvent(new MouseEvent('click', {bubbles: true}));
  await new Promise((resolve) => {
    const obs = new MutationObserver(() => { if (status.dataset.ply !== ply) { obs.disconnect(); resolve(); } });
    obs.observe(status, {attributes: true});
  });
  await new Promise(requestAnimationFrame);
  return performance.now() - t0;
}"""


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--moves", type=int, default=30)
    args = ap.parse_args()
    why = missing()
    if why:
        raise SystemExit(f"bench_web: {why}")
    rng = random.Random(18)
    print(f"{platform.machine()}, CPython {platform.python_version()}")
    with serving(Path(tempfile.mkdtemp())) as url, browser() as b:
        ctx = b.new_context(viewport={"width": 1280, "height": 860})
        # ---- page load
        loads, plain = [], []
        for _ in range(args.repeat + 1):
            pg = ctx.new_page()
            pg.goto(url)
            pg.wait_for_selector("body[data-ready='1']")
            loads.append(pg.evaluate("performance.now()"))
            pg.goto(url + "static/style.css")
            plain.append(pg.evaluate("performance.getEntriesByType('navigation')[0].responseEnd"))
            pg.close()
        loads, plain = loads[1:], plain[1:]  # the first warms the server's imports
        print(f"page load (ready): median {statistics.median(loads):.0f} ms, max {max(loads):.0f} ms "
              f"over {len(loads)} pages; a plain static file {statistics.median(plain):.1f} ms")
        # ---- move round trip
        pg = ctx.new_page()
        pg.goto(url)
        pg.wait_for_selector("body[data-ready='1']")
        pg.click("#tab-play")
        pg.fill("#pl-game", "chess")
        pg.fill("#pl-board", "torus:12x8")
        t = time.perf_counter()
        pg.click("#pl-new")
        pg.wait_for_selector("#game-code", timeout=120_000)
        print(f"new chess game on torus:12x8 (native tables built): {time.perf_counter() - t:.2f} s; "
              f"cover cells {pg.evaluate('P.cover.cells.length')}")
        trips = []
        for _ in range(args.moves):
            moves = pg.evaluate("P.state.moves.filter(m => m.from !== null && m.to !== null)")
            if not moves:
                break
            m = rng.choice(moves)
            if len([x for x in moves if x["from"] == m["from"] and x["to"] == m["to"]]) > 1:
                continue  # a promotion asks for the piece: not a one-click move
            trips.append(pg.evaluate(MOVE_JS, [m["from"], m["to"]]))
        server = []
        import httpx  # the same requests without a browser: the server's share

        code = pg.evaluate("P.code")
        token = pg.evaluate("P.token")
        with httpx.Client(base_url=url) as cl:
            for _ in range(10):
                st = cl.get(f"api/game/{code}", headers={"X-Seat": token}).json()
                if not st["moves"]:
                    break
                m = rng.choice(st["moves"])
                t = time.perf_counter()
                cl.post(f"api/game/{code}/move", json={"label": m["label"], "ply": st["ply"]}, headers={"X-Seat": token})
                server.append((time.perf_counter() - t) * 1000)
        print(f"move round trip, chess on torus:12x8: median {statistics.median(trips):.1f} ms, "
              f"90th percentile {pct(trips, 0.9):.1f} ms, max {max(trips):.1f} ms over {len(trips)} moves; "
              f"the server alone (HTTP, no browser) median {statistics.median(server):.1f} ms")
        pg.close()
        # ---- pan
        for radius in (30, 50):
            pg = ctx.new_page()
            pg.goto(url)
            pg.wait_for_selector("body[data-ready='1']")
            pg.fill("#ws-board", "torus:100x100")
            pg.click("#ws-open")
            pg.wait_for_function("document.getElementById('msg').textContent.startsWith('opened torus:100x100')",
                                 timeout=120_000)
            t = time.perf_counter()
            pg.fill("#ws-radius", str(radius))
            pg.press("#ws-radius", "Enter")
            n = (2 * radius + 1) ** 2
            pg.wait_for_function(f"document.querySelectorAll('#ws-cover g.cell').length === {n}", timeout=120_000)
            shown = time.perf_counter() - t
            for zoom in ("whole cover in view", "tiles 40 px"):
                if zoom != "whole cover in view":
                    pg.evaluate("(() => { const v = document.getElementById('ws-cover')._view;"
                                " v.zoom(40 / (v.k * 48), 300, 200); })()")
                    pg.wait_for_timeout(300)
                frames = pg.evaluate(PAN_JS, 120)[5:]
                print(f"pan torus:100x100 radius {radius} ({n} cells, drawn in {shown:.2f} s), {zoom}: frame median "
                      f"{statistics.median(frames):.1f} ms, 95th percentile {pct(frames, 0.95):.1f} ms "
                      f"({1000 / statistics.median(frames):.0f} frames/s)")
            pg.close()
        ctx.close()


if __name__ == "__main__":
    main()
