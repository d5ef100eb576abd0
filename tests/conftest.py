"""Shared pytest set-up: the ``--update-golden`` option (see tests/golden/__init__.py)."""

from __future__ import annotations


def pytest_addoption(parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite tests/golden/ from what the commands print today (then read the diff).")
