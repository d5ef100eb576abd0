"""The shape every command's answer has."""

from __future__ import annotations

from typing import Any


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


UNDECIDED = 3  # the exit code of a yes/no question that --timeout left unanswered (verify --reach)


def stop_exit(stopped: str | None) -> int:
    """The exit code of a long job's answer: 130 after Ctrl-C, else 0 (finished, or partial after a timeout)."""
    return 130 if stopped == "interrupted" else 0


def stop_text(stopped: str | None, seconds: float | None = None) -> str:
    """How a partial answer ended, for its text: ``partial: timed out after 30 s`` or ``partial: interrupted``."""
    if stopped == "timeout":
        return "partial: timed out" + (f" after {seconds:g} s" if seconds is not None else "")
    return "partial: interrupted"
