"""The shape every command's answer has."""

from __future__ import annotations

from typing import Any


class Report:
    """A command's answer: JSON for ``--json``, text for people, and the exit code (0 yes/done, 1 no, 130 stopped
    early with a partial answer)."""

    exit_code: int = 0
    timings: bool = True  # False: leave out how long it took (seconds, rates), e.g. for golden files


    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        raise NotImplementedError

    def text(self) -> str:
        """The answer as lines for people."""
        raise NotImplementedError
