"""perft split into tasks: the subtrees below the first turns (as ``--divide`` prints them), counted on any executor.

The tasks are paths of turn labels from the start position: one per first turn, or per pair of
first and second turns when the first ply has too few turns to keep every worker busy (checkers'
7 first turns on 2 workers become 49 tasks).  A worker opens the game once per process, replays
its path through :meth:`RuleGame.perft_turns` and counts the rest with
:func:`tapology.rules.perft.count_leaves`; the counts are summed per first turn.  Every executor
gives the same counts; an interrupted run keeps the finished tasks, marked partial.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from tapology.errors import OptionError, TurnError
from tapology.game import Position
from tapology.games.registry import open_position
from tapology.parallel import SERIAL, Executor, Progress, cached, run_tasks
from tapology.rules.engine import RuleGame
from tapology.rules.native import engine_used, expect_perft
from tapology.rules.perft import count_leaves, on_codes

Path = tuple[str, ...]
TASKS_PER_WORKER = 8  # split one ply deeper while there are fewer tasks than this per worker


@dataclass
class PerftRun:
    """Leaf turns at ``depth``, per first turn (in the game's turn order), how the work was split and where it ran."""

    depth: int
    nodes: int
    divided: list[tuple[str, int]]
    complete: bool = True
    tasks: int = 0
    done: int = 0
    split_depth: int = 0
    seconds: float = 0.0
    executor: str = "serial"
    missing: list[str] = field(default_factory=list)
    engine: tuple[str, str] | None = None  # the engine that counted (:func:`tapology.rules.native.engine_used`)

    def to_json(self) -> dict[str, object]:
        """``{"depth", "nodes", "divide", "complete", "tasks", "executor", "seconds"}``."""
        out: dict[str, object] = {"depth": self.depth, "nodes": self.nodes, "divide": dict(self.divided),
                                  "complete": self.complete, "tasks": self.tasks, "tasks_done": self.done,
                                  "executor": self.executor, "seconds": round(self.seconds, 3)}
        if self.missing:
            out["unfinished_first_turns"] = self.missing
        return out


_TURNS: OrderedDict[tuple[int, Position], tuple[RuleGame, dict[str, Position]]] = OrderedDict()


def _turns_below(game: RuleGame, pos: Position) -> dict[str, Position]:
    """label -> result of the perft turns of a position (the last few hundred cached per process; an entry holds
    its game, so the game's id cannot be reused while the entry lives)."""
    key = (id(game), pos)
    got = _TURNS.get(key)
    if got is None or got[0] is not game:
        got = (game, {t.label: t.result for t in game.perft_turns(pos)})
        _TURNS[key] = got
        if len(_TURNS) > 512:
            _TURNS.popitem(last=False)
    return got[1]


def _replay(game: RuleGame, root: Position, path: Path) -> Position:
    pos = root
    for label in path:
        try:
            pos = _turns_below(game, pos)[label]
        except KeyError:
            raise TurnError(f"perft task: turn {label!r} is not a perft turn here") from None
    return pos


def split(game: RuleGame, pos: Position, depth: int, target: int) -> list[Path]:
    """Paths of turn labels below ``pos`` in the game's turn order: the first turns, one ply deeper while there are
    fewer than ``target`` of them (never down to ``depth``).  A path that ends a game early is dropped (no leaves)."""
    paths: list[Path] = [()]
    level = 0
    while level < depth - 1 and (level == 0 or len(paths) < target):
        nxt: list[Path] = []
        for p in paths:
            below = _replay(game, pos, p)
            nxt.extend((*p, label) for label in _turns_below(game, below))
        paths = nxt
        level += 1
        if not paths:
            break
    if depth == 1:  # the first turns themselves are the leaves
        return [(t.label,) for t in game.perft_turns(pos)]
    return paths


Context = tuple[str, str | None, str | None, int, bool, int]  # game, board, position, depth, bulk, estimate


def perft_game(spec: str, board: str | None = None, position: str | None = None) -> tuple[RuleGame, Position]:
    """The game and position a perft counts on, opened once per process (its tables with it): the estimate, the
    split and the count of one command share them."""
    return cached(("perft-game", spec, board, position), lambda: open_position(spec, board, position))


def _context_game(ctx: Context) -> tuple[RuleGame, Position]:
    return perft_game(ctx[0], ctx[1], ctx[2])


def _count(ctx: Context, path: Path) -> tuple[int, tuple[str, str]]:
    """One task: the leaf turns below a path of turn labels and the engine that counted them, on the board's
    generated C where the whole count (estimated at ``ctx[5]`` leaf turns) pays for it and it is compiled
    (:func:`tapology.rules.native.expect_perft`: a worker's task alone is often too small to choose it)."""
    game, root = _context_game(ctx)
    chains = game.chains(root.board)
    if ctx[5] and on_codes(game):
        expect_perft(chains, ctx[5])
    n = count_leaves(game, _replay(game, root, path), ctx[3] - len(path), bulk=ctx[4])
    return n, engine_used(chains, perft=True)


ESTIMATE_LEAVES = 10_000  # the estimate counts exactly, ply by ply, until a count passes this
ESTIMATE_MOST = 1e30  # the estimate says at most this many leaf turns (a deep perft's growth would reach inf)
# leaf turns estimated from which a perft without an executor asked for runs on every core: the native engine counts
# some 5·10⁶ a second, and a pool's start (each worker importing and reading the tables from the disk cache) costs
# about a second, so below some ten seconds of counting it does not pay (Kiwipete perft 4 ran 1.5× slower on a pool)
POOL_FROM = 50_000_000


def estimate_leaves(game: RuleGame, pos: Position, depth: int) -> tuple[int, int]:
    """About how many leaf turns perft ``depth`` counts, and the depth counted exactly: exact ply by ply (short of
    ``depth``) until a count passes :data:`ESTIMATE_LEAVES`, then each further ply grows by the last ply's growth factor times the
    change of the last two factors (kept within 0.5..1.2: branching shrinks as a board fills up); an estimate."""
    if depth <= 1:
        return (1 if depth == 0 else len(game.perft_turns(pos))), depth
    counts = [1]
    while len(counts) < depth and counts[-1] <= ESTIMATE_LEAVES:  # the count itself is not repeated here
        counts.append(count_leaves(game, pos, len(counts)))
    exact = len(counts) - 1
    if counts[-1] == 0:
        return 0, exact
    growth = counts[-1] / counts[-2] if counts[-2] else 0.0
    before = counts[-2] / counts[-3] if len(counts) > 2 and counts[-3] else growth
    trend = min(1.2, max(0.5, growth / before)) if before else 1.0
    est = float(counts[-1])
    for _ in range(depth - exact):
        growth *= trend
        est *= max(growth, 1.0)
        if est > ESTIMATE_MOST:  # beyond any count that can finish: said as this bound, not as infinity
            return int(ESTIMATE_MOST), exact
    return int(est), exact


def auto_executor(estimate: int) -> Executor:
    """Where a perft runs when no executor is asked for: this process below :data:`POOL_FROM` estimated leaf turns
    (a pool's start costs more than it saves), else every core."""
    return SERIAL if estimate < POOL_FROM else Executor()


def run_perft(spec: str, depth: int, board: str | None = None, position: str | None = None, *, ex: Executor = SERIAL,
              progress: Progress | None = None, min_tasks: int = 1, bulk: bool = True, estimate: int = 0) -> PerftRun:
    """perft of GAME (optional end rules left out) split into tasks by first turns and run on ``ex`` (at least
    ``min_tasks`` where the tree allows: small tasks let a stop in this process come soon, as a native count is
    not interrupted); ``progress(tasks done, tasks)``; ``bulk=False`` makes every leaf turn rather than counting the
    last ply; ``estimate``: the leaf turns :func:`estimate_leaves` expects (0: not estimated), from which each task
    decides whether the board's generated C pays.  Ctrl-C stops the workers and gives the finished tasks' sum,
    marked partial."""
    if depth < 0:
        raise OptionError(f"--depth {depth}: must be ≥ 0")
    t0 = time.perf_counter()
    ctx: Context = (spec, board, position, depth, bulk, estimate)
    game, pos = _context_game(ctx)
    if depth == 0:
        return PerftRun(0, 1, [], seconds=time.perf_counter() - t0)
    firsts = [t.label for t in game.perft_turns(pos)]
    target = max(min_tasks, 1 if ex.kind == "serial" else TASKS_PER_WORKER * ex.size)
    paths = split(game, pos, depth, target)
    out = run_tasks(_count, paths, ctx, ex=ex, progress=progress)
    sums = {label: 0 for label in firsts}
    left = {label: 0 for label in firsts}
    used: tuple[str, str] | None = None
    for p, got in zip(paths, out.results, strict=True):
        if got is None:
            left[p[0]] += 1
        else:
            sums[p[0]] += got[0]
            used = got[1]
    nodes = sum(sums.values())
    divided = [(label, sums[label]) for label in firsts if not left[label]]
    missing = [label for label in firsts if left[label]]
    return PerftRun(depth, nodes, divided, out.complete, len(paths), out.done, len(paths[0]) if paths else 1,
                    time.perf_counter() - t0, out.executor, missing, used)
