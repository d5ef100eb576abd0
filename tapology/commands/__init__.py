"""CLI command groups, one module per area; each has ``register(app)`` adding its commands."""

from __future__ import annotations

import typer


def register_all(app: typer.Typer) -> None:
    """Add every area's commands to the app."""
    from tapology.commands import boards, design, games, match, play, serve, topology, views

    for mod in (boards, topology, games, play, views, design, match, serve):
        mod.register(app)
