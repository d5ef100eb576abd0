"""One rule set across many surfaces: exact values where solvable, playout estimates everywhere, and boards
chosen for a game value.

For each board (a built-in name, a board file, or every closed board of N tiles over the
game's chart domain: ``census:N``, up to isomorphism, from :mod:`tapology.solver.synthesis`):

* **exact value** — who wins under perfect play and in how many plies (the layered solver for
  k-in-a-row games, memoised search otherwise, within a time budget per board);
* **playout estimates** — uniform random play, N games per board: first-player win rate,
  second-player win rate, draw rate and **decisiveness** (games with a winner) with Wilson
  95% intervals; mean length and **branching factor** (mean number of legal turns at the
  positions played through) with normal 95% intervals.  Playouts that reach the ply cap
  without ending count as unfinished (neither won nor drawn).

:func:`boards_for_value` is the other direction: every board of a census on which the game
has a given value (and, optionally, a given length of optimal play), and the boards with the
longest and shortest forced wins.
"""

from __future__ import annotations

import math
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapology.errors import OptionError, SolveError, TapologyError
from tapology.game import ClaimGame, Game
from tapology.games.kinrow import kinrow_of_rules, popcount
from tapology.games.registry import load_rules, notation_of
from tapology.model.board import Board
from tapology.model.boardfile import save_board
from tapology.model.domain import domain_from_spec
from tapology.model.isomorphism import signature
from tapology.model.topology import classify
from tapology.play.solving.solve import VALUES, SolveResult, solve_game, solve_kinrow
from tapology.play.solving.statespace import Progress, attractors, explore, shortest_lasso, space_of
from tapology.render.svg import Canvas
from tapology.rules.engine import RuleGame
from tapology.rules.model import RuleSet
from tapology.solver.synthesis import Request, synthesize

Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        """``{"value", "low", "high"}`` rounded to 4 places."""
        return {"value": round(self.value, 4), "low": round(self.low, 4), "high": round(self.high, 4)}

    def text(self, pct: bool = True) -> str:
        """``52.1% ±2.9`` (or ``7.31 ±0.05``)."""
        half = (self.high - self.low) / 2
        return f"{100 * self.value:.1f}% ±{100 * half:.1f}" if pct else f"{self.value:.2f} ±{half:.2f}"


def wilson(k: int, n: int) -> Estimate:
    """The Wilson score interval of a proportion k/n at 95%."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0)
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(xs: list[float]) -> Estimate:
    """The mean with a normal 95% interval."""
    n = len(xs)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    m = sum(xs) / n
    if n == 1:
        return Estimate(m, m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half)


@dataclass
class BoardMetrics:
    """The figures of one board."""

    name: str
    tiles: int
    surface: str
    signature: str
    exact: dict[str, Any] | None = None
    playouts: int = 0
    unfinished: int = 0
    first_win: Estimate | None = None
    second_win: Estimate | None = None
    draw: Estimate | None = None
    decisiveness: Estimate | None = None
    length: Estimate | None = None
    branching: Estimate | None = None
    seconds: float = 0.0
    error: str = ""
    board: Board | None = field(default=None, repr=False)

    @property
    def value(self) -> int | None:
        """The exact value (1 first player wins, 0 draw, −1 second player wins) when solved."""
        return None if self.exact is None else self.exact.get("score")

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        out: dict[str, Any] = {"board": self.name, "tiles": self.tiles, "surface": self.surface,
                               "signature": self.signature, "exact": self.exact}
        if self.playouts:
            out["playouts"] = {"games": self.playouts, "unfinished": self.unfinished,
                               "first_player_wins": self.first_win.to_json() if self.first_win else None,
                               "second_player_wins": self.second_win.to_json() if self.second_win else None,
                               "draws": self.draw.to_json() if self.draw else None,
                               "decisiveness": self.decisiveness.to_json() if self.decisiveness else None,
                               "length": self.length.to_json() if self.length else None,
                               "branching_factor": self.branching.to_json() if self.branching else None}
        if self.error:
            out["error"] = self.error
        out["seconds"] = round(self.seconds, 3)
        return out


@dataclass
class CompareResult:
    """Every board's figures."""

    game: str
    boards: list[BoardMetrics]
    playouts: int
    seed: int
    complete: bool = True  # False when the time ran out or Ctrl-C stopped the work (boards so far)
    interrupted: bool = False
    seconds: float = 0.0
    census: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"game", "boards": [...], "playouts", "seed", "complete"}``."""
        out: dict[str, Any] = {"game": self.game, "playouts": self.playouts, "seed": self.seed,
                               "boards": [b.to_json() for b in self.boards]}
        if self.census is not None:
            out["census"] = self.census
        out["complete"] = self.complete
        out["interrupted"] = self.interrupted
        out["seconds"] = round(self.seconds, 3)
        return out

    def table(self) -> str:
        """A text table, one board a row."""
        head = ["board", "surface", "exact value", "plies", "X wins (random)", "draws", "decisive", "length", "branching"]
        rows = []
        for b in self.boards:
            ex = b.exact
            rows.append([b.name, b.surface,
                         (ex["value"] if ex and ex.get("value") else ("unsolved" if not b.error else "error")),
                         str(ex["plies"]) if ex and ex.get("plies") is not None else "",
                         b.first_win.text() if b.first_win else "", b.draw.text() if b.draw else "",
                         b.decisiveness.text() if b.decisiveness else "",
                         b.length.text(False) if b.length else "", b.branching.text(False) if b.branching else ""])
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *rows]]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(lines)

    def svg(self) -> str:
        """A chart: per board, random-play outcomes as a stacked bar (first wins, draws, second wins) with the
        interval of the first player's rate, and the exact value as a dot (red first wins, grey draw, blue second
        wins) with the length of optimal play."""
        cv = Canvas(f"{self.game} across surfaces")
        bw, gap, height = 22.0, 10.0, 200.0
        colours = {1: "#d62728", 0: "#7f7f7f", -1: "#1f77b4"}

        def text(x: float, y: float, s: str, size: float, anchor: str = "middle", angle: float = 0.0) -> None:
            w = 0.6 * size * len(s)
            x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0.0)
            ex, ey = x0 + w * math.cos(math.radians(angle)), y + w * math.sin(math.radians(angle))
            attrs = {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": f"{size:g}", "font-family": "sans-serif",
                     "text-anchor": anchor, "dominant-baseline": "central"}
            if angle:
                attrs["transform"] = f"rotate({angle:g} {x:.1f} {y:.1f})"
            cv.add("labels", "text", attrs, s, extent=[(x0, y - size), (ex, ey + size)])

        text(0, -30, f"{self.game}: random play (bars; 95% interval on the first player's rate), exact value (dots)", 13,
             "start")
        for frac in (0.0, 0.5, 1.0):
            y = height * (1 - frac)
            cv.line("edges", (-6, y), (len(self.boards) * (bw + gap), y), stroke="#cccccc", **{"stroke-width": "0.5"})
            text(-10, y, f"{int(frac * 100)}%", 9, "end")
        for i, b in enumerate(self.boards):
            x = i * (bw + gap)
            if b.first_win is not None and b.draw is not None and b.second_win is not None:
                y = height
                for est, col in ((b.first_win, "#f4a6a6"), (b.draw, "#d9d9d9"), (b.second_win, "#a6c8f4")):
                    h = height * est.value
                    cv.polygon("tiles", [(x, y - h), (x + bw, y - h), (x + bw, y), (x, y)], fill=col, stroke="none")
                    y -= h
                lo, hi = height * (1 - b.first_win.low), height * (1 - b.first_win.high)
                for a, c in (((x + bw / 2, lo), (x + bw / 2, hi)), ((x + bw / 2 - 4, lo), (x + bw / 2 + 4, lo)),
                             ((x + bw / 2 - 4, hi), (x + bw / 2 + 4, hi))):
                    cv.line("marks", a, c, stroke="#000000", **{"stroke-width": "1"})
            if b.value is not None:
                cx, cy = x + bw / 2, height + 14
                cv.add("tokens", "circle", {"cx": f"{cx:.1f}", "cy": f"{cy:.1f}", "r": "6", "fill": colours[b.value]},
                       extent=[(cx - 6, cy - 6), (cx + 6, cy + 6)])
                plies = b.exact.get("plies") if b.exact else None
                if plies is not None:
                    text(cx, cy + 16, str(plies), 9)
            text(x + bw / 2, height + 44, b.name, 9, "start", 60.0)
            if b.surface:
                text(x + bw / 2 + 12, height + 44, b.surface, 8, "start", 60.0)
        self._legend(cv, text, max(len(self.boards), 1) * (bw + gap) + 24, colours)
        return cv.tostring(24.0)

    @staticmethod
    def _legend(cv: Canvas, text: Callable[..., None], x: float, colours: dict[int, str]) -> None:
        """The chart's key, in a column right of the bars."""
        y = 4.0
        text(x, y, "random play (bars):", 10, "start")
        for label, col in (("first player wins", "#f4a6a6"), ("draws", "#d9d9d9"), ("second player wins", "#a6c8f4")):
            y += 18
            cv.polygon("tiles", [(x, y - 6), (x + 12, y - 6), (x + 12, y + 6), (x, y + 6)], fill=col, stroke="none")
            text(x + 18, y, label, 9, "start")
        y += 18
        for a, c in (((x + 6, y - 7), (x + 6, y + 7)), ((x + 2, y - 7), (x + 10, y - 7)), ((x + 2, y + 7), (x + 10, y + 7))):
            cv.line("marks", a, c, stroke="#000000", **{"stroke-width": "1"})
        text(x + 18, y, "95% interval of the first player's rate", 9, "start")
        y += 30
        text(x, y, "exact value (dots; optimal plies below):", 10, "start")
        for label, v in (("first player wins", 1), ("draw", 0), ("second player wins", -1)):
            y += 18
            cv.add("tokens", "circle", {"cx": f"{x + 6:.1f}", "cy": f"{y:.1f}", "r": "6", "fill": colours[v]},
                   extent=[(x, y - 6), (x + 12, y + 6)])
            text(x + 18, y, label, 9, "start")


# ---- opening a game on a board ------------------------------------------------------------------
def _game_on(rules: RuleSet, board: Board | None, name: str, tmp: Path) -> Game:
    """The game on a named board, or on a board value (k-in-a-row directly, else through a board file)."""
    if board is None:
        g = RuleGame(rules, name, notation=notation_of(rules))
        kr = kinrow_of_rules(rules, g.initial().board)
        if kr is not None:
            return kr
        return g
    kr = kinrow_of_rules(rules, board)
    if kr is not None:
        return kr
    path = tmp / f"{name.replace(':', '-').replace('#', '-')}.toml"
    save_board(board, path)
    return RuleGame(rules, str(path), notation=notation_of(rules))


def census(rules: RuleSet, tiles: int, *, timeout: float | None = None) -> tuple[list[tuple[str, Board]], bool]:
    """Every closed board of ``tiles`` tiles over the game's chart domain, up to isomorphism, named ``census:N#i``;
    and whether the census finished."""
    dom = rules.domain
    box = domain_from_spec(rules.grid, "box")
    if set(dom.cells) == set(box.cells):  # the plain box: boards get the box's short signatures
        dom = box
    req = Request.make(tiles=tiles, grid=rules.grid.name, domain=dom, closed=True)
    res = synthesize(req, timeout=timeout)
    return [(f"census:{tiles}#{i + 1}", f.board) for i, f in enumerate(res.boards)], res.complete


def parse_boards(spec: str, rules: RuleSet, *, timeout: float | None = None) -> tuple[list[tuple[str, Board | None]],
                                                                                       dict[str, Any] | None]:
    """The boards a ``--boards`` value names: comma-separated board names or files, and ``census:N`` items."""
    out: list[tuple[str, Board | None]] = []
    info = None
    for item in (s.strip() for s in spec.split(",")):
        if not item:
            continue
        if item.startswith("census:"):
            try:
                n = int(item.split(":", 1)[1])
            except ValueError:
                raise OptionError(f"--boards {item!r}: census:N needs a number of tiles") from None
            if n < 1 or n > 16:
                raise OptionError(f"--boards {item!r}: a census of 1..16 tiles")
            boards, done = census(rules, n, timeout=timeout)
            info = {"tiles": n, "boards": len(boards), "complete": done}
            out.extend(boards)
        else:
            RuleGame(rules, item)  # a board that does not open is bad input, named in the error
            out.append((item, None))
    if not out:
        raise OptionError("--boards: name at least one board")
    return out, info


# ---- exact values and playouts ---------------------------------------------------------------------
def _exact(game: Game, name: str, deadline: float) -> tuple[dict[str, Any] | None, str]:
    """The exact value: the layered solver for k-in-a-row; otherwise the reachable positions are searched first —
    without a cycle the memoised solver gives the value (as ``solve`` does), with one the retrograde analysis says
    who can force a win (a draw then includes endless play)."""
    try:
        if isinstance(game, ClaimGame):
            sol: SolveResult = solve_kinrow(game, board_name=name)
        else:
            if len(game.players) != 2:
                return None, "exact values are for two-player games"
            g = explore(space_of(game), deadline=deadline)
            if not g.complete:
                return {"value": None, "plies": None, "positions": len(g.nodes), "method": "exhaustive (partial)",
                        "complete": False, "seconds": round(g.seconds, 3)}, ""
            if shortest_lasso(g) is not None:
                vals = attractors(g)
                first, second = vals.win[0][0], vals.win[1][0]
                score = 1 if first is not None else -1 if second is not None else 0
                plies = first if first is not None else second
                return {"value": VALUES[score] + (" (or endless play)" if score == 0 else ""), "score": score,
                        "plies": plies, "positions": len(g.nodes), "method": "retrograde analysis (the game can repeat "
                        "a position)", "complete": True, "seconds": round(g.seconds, 3)}, ""
            sol = solve_game(game, board_name=name, deadline=deadline)
    except SolveError as exc:
        return None, str(exc)
    if not sol.complete or sol.value is None:
        return {"value": None, "plies": None, "positions": sol.positions, "method": sol.method, "complete": False,
                "seconds": round(sol.seconds, 3)}, ""
    return {"value": VALUES[sol.value], "score": sol.value, "plies": sol.plies, "positions": sol.positions,
            "method": sol.method, "complete": True, "seconds": round(sol.seconds, 3)}, ""


def _playouts_kinrow(kr: ClaimGame, n: int, rng: random.Random, deadline: float) -> tuple[list[int], list[int], list[float]]:
    """Winners (0 X, 1 O, -1 draw), lengths and branching per playout, on bitmasks."""
    winners, lengths, branch = [], [], []
    full = kr.full
    for _ in range(n):
        if time.monotonic() > deadline:
            break
        x = o = 0
        plies = 0
        widths = 0
        while True:
            st = kr.status(x, o)
            if st.over:
                winners.append(-1 if st.winner is None else st.winner)
                break
            free = full & ~(x | o)
            k = popcount(free)
            widths += k
            pick = rng.randrange(k)
            bit = 0
            f = free
            for _j in range(pick + 1):
                bit = f & -f
                f ^= bit
            if popcount(x) == popcount(o):
                x |= bit
            else:
                o |= bit
            plies += 1
        lengths.append(plies)
        branch.append(widths / plies if plies else 0.0)
    return winners, lengths, branch


def _playouts_game(game: Game, n: int, rng: random.Random, deadline: float, max_plies: int
                   ) -> tuple[list[int], list[int], list[float]]:
    winners, lengths, branch = [], [], []
    first = game.players[0]
    for _ in range(n):
        if time.monotonic() > deadline:
            break
        pos = game.initial()
        plies = widths = 0
        while plies < max_plies:
            turns = game.turns(pos)
            if not turns:
                break
            widths += len(turns)
            pos = rng.choice(turns).result
            plies += 1
        out = game.outcome(pos) if plies < max_plies or not game.turns(pos) else None
        if out is None:
            winners.append(-2)
        elif all(v == 0 for v in out.values()):
            winners.append(-1)
        else:
            winners.append(0 if out.get(first, 0) > 0 else 1)
        lengths.append(plies)
        branch.append(widths / plies if plies else 0.0)
    return winners, lengths, branch


def board_metrics(rules: RuleSet, name: str, board: Board | None, tmp: Path, *, playouts: int = 1000, seed: int = 0,
                  exact_seconds: float = 10.0, playout_seconds: float = 10.0, max_plies: int = 1000) -> BoardMetrics:
    """The figures of the game on one board."""
    t0 = time.monotonic()
    try:
        game = _game_on(rules, board, name, tmp)
    except TapologyError as exc:
        return BoardMetrics(name, len(board.tiles) if board else 0, "", "", error=str(exc), seconds=time.monotonic() - t0)
    b = game.initial().board
    topo = classify(b)
    bm = BoardMetrics(name, len(b.tiles), topo.surface + ("" if topo.manifold else " (orbifold)"), signature(b),
                      board=b)
    bm.exact, bm.error = _exact(game, name, time.monotonic() + exact_seconds)
    if playouts > 0:
        rng = random.Random(seed)
        end = time.monotonic() + playout_seconds
        if isinstance(game, ClaimGame):
            winners, lengths, branch = _playouts_kinrow(game, playouts, rng, end)
        else:
            winners, lengths, branch = _playouts_game(game, playouts, rng, end, max_plies)
        n = len(winners)
        bm.playouts = n
        bm.unfinished = winners.count(-2)
        bm.first_win = wilson(winners.count(0), n)
        bm.second_win = wilson(winners.count(1), n)
        bm.draw = wilson(winners.count(-1), n)
        bm.decisiveness = wilson(winners.count(0) + winners.count(1), n)
        bm.length = mean_interval([float(x) for x in lengths])
        bm.branching = mean_interval(branch)
    bm.seconds = time.monotonic() - t0
    return bm


def compare(spec: str, boards: str, *, playouts: int = 1000, seed: int = 0, timeout: float = 300.0,
            exact_seconds: float = 10.0, max_plies: int = 1000, progress: Progress | None = None,
            plan: Callable[[str], None] | None = None) -> CompareResult:
    """The game GAME (``spec``) on every board ``boards`` names (see :func:`parse_boards`).  Stops at ``timeout`` or
    Ctrl-C with the boards done so far (``complete`` False); ``plan(text)`` hears the work before it starts."""
    t0 = time.monotonic()
    deadline = t0 + timeout
    rules = load_rules(spec)
    items, info = parse_boards(boards, rules, timeout=timeout / 2)
    res = CompareResult(rules.name, [], playouts, seed, census=info)
    if info is not None and not info["complete"]:
        res.complete = False
    if plan is not None:
        plan(f"compare {rules.name} on {len(items)} boards: an exact value within {exact_seconds:g} s a board, "
             f"{playouts} random playouts each; at most {timeout:g} s in all")
    try:
        with tempfile.TemporaryDirectory(prefix="tapology-compare-") as tmp:
            for i, (name, board) in enumerate(items):
                left = deadline - time.monotonic()
                if left <= 0:
                    res.complete = False
                    break
                share = left / (len(items) - i)
                if progress:
                    progress("boards", i, len(items))
                res.boards.append(board_metrics(rules, name, board, Path(tmp), playouts=playouts, seed=seed + i,
                                                exact_seconds=min(exact_seconds, share / 2),
                                                playout_seconds=share / 2, max_plies=max_plies))
    except KeyboardInterrupt:
        res.complete = False
        res.interrupted = True
    res.seconds = time.monotonic() - t0
    return res


# ---- boards for a value ---------------------------------------------------------------------------------
VALUE_NAMES = {"first": 1, "draw": 0, "second": -1}


@dataclass
class ValueBoards:
    """The boards of a census on which the game has the value asked for."""

    game: str
    request: dict[str, Any]
    value: str
    plies: int | None
    boards: list[BoardMetrics]
    examined: int
    longest: BoardMetrics | None = None
    shortest: BoardMetrics | None = None
    by_value: dict[str, int] = field(default_factory=dict)
    complete: bool = True
    interrupted: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"count", "boards": [...], "longest_forced_win", ...}``."""
        def brief(b: BoardMetrics | None) -> dict[str, Any] | None:
            if b is None:
                return None
            return {"board": b.name, "surface": b.surface, "signature": b.signature,
                    "value": b.exact["value"] if b.exact else None, "plies": b.exact["plies"] if b.exact else None}

        return {"game": self.game, "request": self.request, "value": self.value, "plies": self.plies,
                "count": len(self.boards), "boards": [brief(b) for b in self.boards], "examined": self.examined,
                "by_value": self.by_value, "longest_forced_win": brief(self.longest),
                "shortest_forced_win": brief(self.shortest), "complete": self.complete, "interrupted": self.interrupted,
                "seconds": round(self.seconds, 3)}


def boards_for_value(spec: str, req: Request, value: str, *, plies: int | None = None, limit: int | None = None,
                     timeout: float = 300.0, exact_seconds: float = 10.0, progress: Progress | None = None) -> ValueBoards:
    """Every board ``req`` asks for (up to isomorphism) on which game ``spec`` has ``value`` (first, draw, second)
    under perfect play, and ``plies`` plies of optimal play when given; also the boards (of any value) with the
    longest and the shortest forced win.  Cost: the census, then one solve per board."""
    if value not in VALUE_NAMES:
        raise OptionError(f"--value {value!r}: use draw, first or second")
    t0 = time.monotonic()
    deadline = t0 + timeout
    rules = load_rules(spec)
    if req.domain.grid != rules.grid:
        raise OptionError(f"the game {rules.name!r} is played on the {rules.grid.name} grid")
    found = synthesize(req, timeout=timeout / 2)
    want = VALUE_NAMES[value]
    res = ValueBoards(rules.name, {"tiles": req.tiles, "closed": req.closed, "boundary": req.boundary,
                                   "orientable": req.orientable, "euler": req.euler, "manifold": req.manifold,
                                   "from": req.base is not None}, value, plies, [], 0, complete=found.complete)
    try:
        with tempfile.TemporaryDirectory(prefix="tapology-synth-") as tmp:
            for i, f in enumerate(found.boards):
                if time.monotonic() > deadline:
                    res.complete = False
                    break
                if progress:
                    progress("boards", i, len(found.boards))
                bm = board_metrics(rules, f"board-{i + 1:03d}", f.board, Path(tmp), playouts=0,
                                   exact_seconds=min(exact_seconds, max(0.1, deadline - time.monotonic())))
                res.examined += 1
                v = bm.value
                if v is None:
                    res.complete = False
                    continue
                res.by_value[VALUES[v]] = res.by_value.get(VALUES[v], 0) + 1
                if v != 0:
                    if res.longest is None or bm.exact["plies"] > res.longest.exact["plies"]:  # type: ignore[index]
                        res.longest = bm
                    if res.shortest is None or bm.exact["plies"] < res.shortest.exact["plies"]:  # type: ignore[index]
                        res.shortest = bm
                if v == want and (plies is None or bm.exact["plies"] == plies):  # type: ignore[index]
                    res.boards.append(bm)
                    if limit is not None and len(res.boards) >= limit:
                        break
    except KeyboardInterrupt:
        res.complete = False
        res.interrupted = True
    res.seconds = time.monotonic() - t0
    return res
