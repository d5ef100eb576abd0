"""The shape every command's answer has."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine loads when a command asks it something: every command module imports this one
    from tapology.game import Game

KINROW_ENGINE = "k-in-a-row games run on their own bitmask engine, not the rule engine's"
CONNECT_ENGINE = "connection games are solved on bitmasks of each player's minimal connecting sets, not the rule engine"


class Report:
    """A command's answer: JSON for ``--json``, text for people, and the exit code (0 yes/done, 1 no, 130 stopped
    early by Ctrl-C with a partial answer; a partial answer after ``--timeout`` exits 0, marked partial)."""

    exit_code: int = 0
    timings: bool = True  # False: leave out how long it took (seconds, rates), e.g. for golden files

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        raise NotImplementedError

    def text(self) -> str:
        """The answer as lines for people."""
        raise NotImplementedError


def engine_of(game: Game, perft: bool = False) -> tuple[str, str]:
    """Which engine a job on ``game`` runs: ("native", "") or ("python", why) — the reports that ran one say so."""
    from tapology.rules.engine import RuleGame
    from tapology.rules.native import engine_used

    if isinstance(game, RuleGame):
        return engine_used(game.chains(game.initial().board), perft)
    if getattr(game, "masks_o", None) is not getattr(game, "masks", None):  # a connection game's own win sets
        return "python", CONNECT_ENGINE
    return "python", KINROW_ENGINE


def engine_json(engine: tuple[str, str]) -> dict[str, str]:
    """``{"engine": "native"}`` or ``{"engine": "python", "engine_why": …}``."""
    return {"engine": engine[0], **({"engine_why": engine[1]} if engine[1] else {})}


def engine_text(engine: tuple[str, str]) -> str:
    """``engine: native`` or ``engine: python (why)``."""
    return f"engine: {engine[0]}" + (f" ({engine[1]})" if engine[1] else "")


UNDECIDED = 3  # the exit code of a yes/no question that --timeout left unanswered (verify --reach)


def stop_exit(stopped: str | None) -> int:
    """The exit code of a long job's answer: 130 after Ctrl-C, else 0 (finished, or partial after a timeout)."""
    return 130 if stopped == "interrupted" else 0


def stop_text(stopped: str | None, seconds: float | None = None) -> str:
    """How a partial answer ended, for its text: ``partial: timed out after 30 s`` or ``partial: interrupted``."""
    if stopped == "timeout":
        return "partial: timed out" + (f" after {seconds:g} s" if seconds is not None else "")
    return "partial: interrupted"
