"""The report of ``tapology match``: A's wins, draws and losses against B with 95% intervals, overall and by seat."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tapology.adapters.match import MatchResult, Tally, run_match
from tapology.games.registry import load_game
from tapology.parallel import Executor, Progress, check_timeout, time_limit
from tapology.reports.base import Report, engine_json, engine_of, engine_text, stop_exit, stop_text


@dataclass
class MatchReport(Report):
    """A finished (or interrupted) match."""

    result: MatchResult
    stopped: str | None = None
    timeout: float | None = None
    engine: tuple[str, str] = ("python", "")

    @property
    def exit_code(self) -> int:  # type: ignore[override]
        return 0 if self.result.complete else stop_exit(self.stopped or "interrupted")

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {"game": r.game, "board": r.board, "a": r.a, "b": r.b, "games": r.games,
                "played": r.total.games, "a_results": r.total.to_json(), "a_first": r.first.to_json(),
                "a_second": r.second.to_json(), "plies": r.plies, "mcts": r.engine, "executor": r.executor,
                "seconds": round(r.seconds, 3), "complete": r.complete,
                **engine_json(self.engine), **({} if r.complete else {"stopped": self.stopped or "interrupted"})}

    def text(self) -> str:
        r = self.result

        def line(name: str, t: Tally) -> str:
            d = t.to_json()
            if not t.games:
                return f"{name:<10} no games"
            return (f"{name:<10} {t.games:>5} games  wins {t.wins:>4} ({100 * d['win_rate']:.1f}% "
                    f"[{100 * d['win_ci95'][0]:.1f}, {100 * d['win_ci95'][1]:.1f}])  draws {t.draws:>4} "
                    f"({100 * d['draw_rate']:.1f}% [{100 * d['draw_ci95'][0]:.1f}, {100 * d['draw_ci95'][1]:.1f}])  "
                    f"losses {t.losses:>4} ({100 * d['loss_rate']:.1f}% [{100 * d['loss_ci95'][0]:.1f}, "
                    f"{100 * d['loss_ci95'][1]:.1f}])")

        head = f"{r.game} on {r.board}: A = {r.a} against B = {r.b}"
        if r.engine != "none":
            head += f" (mcts: {r.engine})"
        lines = [head, "results for A, 95% Wilson intervals:", line("overall", r.total), line("A first", r.first),
                 line("A second", r.second),
                 f"{r.total.games} games, {r.plies} plies in {r.seconds:.1f} s on {r.executor}"
                 + ("" if r.complete else f" ({stop_text(self.stopped or 'interrupted', self.timeout)}: "
                                          f"{r.total.games} of {r.games} games played)"), engine_text(self.engine)]
        return "\n".join(lines)


def match_report(game: str, board: str | None, a: str, b: str, games: int = 200, *, seed: int = 0, swap: bool = True,
                 engine: str = "auto", max_plies: int | None = None, ex: Executor | None = None,
                 progress: Progress | None = None, timeout: float | None = None,
                 plan: Callable[[str], None] | None = None) -> MatchReport:
    """Play the match (see :func:`tapology.adapters.match.run_match`) on ``ex`` (None: every core) and report it;
    ``plan(text)`` hears the work before it starts; ``timeout`` seconds or Ctrl-C keep the finished games."""
    check_timeout(timeout)
    ex = Executor() if ex is None else ex
    if plan is not None:
        plan(f"match: {games} games of {a} against {b}, one task each, on {ex.describe()}")
    with time_limit(timeout) as lim:
        res = run_match(game, board, a, b, games, seed=seed, swap=swap, engine=engine, max_plies=max_plies,
                        progress=progress, ex=ex)
    return MatchReport(res, lim.stopped(res.complete), timeout, engine_of(load_game(game, board).game))
