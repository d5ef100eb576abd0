"""CLI commands for rule sets: ``moves``, ``perft``, ``rules``."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from tapology.errors import OptionError
from tapology.games.registry import open_position

GameArg = Annotated[str, typer.Argument(help="A built-in game (tictactoe, tictactoe:M,N,K, checkers, chinese-checkers, "
                                             "tictactopology) or a rule file.")]
BoardOpt = Annotated[str | None, typer.Option("--board", help="Board: a built-in name such as torus:3x3, or a file.")]
PosOpt = Annotated[str | None, typer.Option("--position", help="A position file (TOML) to start from.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]



def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command()
    def moves(
        game: GameArg,
        board: BoardOpt = None,
        position: PosOpt = None,
        backend: Annotated[str, typer.Option("--backend", help="propagate, z3 or csp.")] = "propagate",
        as_json: JsonOpt = False,
    ) -> None:
        """List the legal turns of a position (the start position unless --position)."""
        if backend not in ("propagate", "z3", "csp"):
            raise OptionError(f"--backend {backend!r}: use propagate, z3 or csp")
        g, pos = open_position(game, board, position)
        turns = g.turns(pos, backend)
        outcome = g.outcome(pos) if not turns else None
        if as_json:
            _emit({"game": g.name, "board": g.board_name, "to_move": g.players[pos.to_move], "backend": backend,
                   "count": len(turns), "turns": [t.label for t in turns], "outcome": outcome})
            return
        if not turns:
            typer.echo(f"no legal turn for {g.players[pos.to_move]}; outcome: {outcome}")
            return
        typer.echo(f"{len(turns)} legal turns for {g.players[pos.to_move]}:")
        for i, t in enumerate(turns, 1):
            typer.echo(f"{i:>4}  {t.label}")

    @app.command()
    def perft(
        game: GameArg,
        depth: Annotated[int, typer.Option("--depth", help="Plies to count down to (≥ 0).")],
        board: BoardOpt = None,
        position: PosOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Count the leaf turns at a depth (a finished game has no children)."""
        if depth < 0:
            raise OptionError(f"--depth {depth}: must be ≥ 0")
        g, pos = open_position(game, board, position)
        t0 = time.perf_counter()
        nodes = 0
        interrupted = False
        if depth <= 3:
            nodes = g.perft(pos, depth)
        else:
            from rich.progress import Progress

            roots = g.turns(pos)
            try:
                with Progress(transient=True, console=_stderr_console()) as bar:
                    task = bar.add_task(f"perft {depth}", total=len(roots))
                    for t in roots:
                        nodes += g.perft(t.result, depth - 1)
                        bar.advance(task)
            except KeyboardInterrupt:
                interrupted = True
        dt = time.perf_counter() - t0
        if as_json:
            out: dict[str, Any] = {"depth": depth, "nodes": nodes}
            if interrupted:
                out["interrupted"] = True
            _emit(out)
        else:
            typer.echo(f"perft {depth}: {nodes}" + (" (interrupted, partial)" if interrupted else "")
                       + f"  [{dt:.2f} s, {nodes / dt if dt > 0 else 0:,.0f} leaf turns/s]")
        if interrupted:
            raise typer.Exit(130)

    @app.command()
    def rules(game: GameArg, as_json: JsonOpt = False) -> None:
        """Print a rule set with its moves and its derived chart domain."""
        from tapology.games import load_rules
        from tapology.rules.describe import rules_json, rules_text

        rs = load_rules(game)
        if as_json:
            _emit(rules_json(rs))
        else:
            typer.echo(rules_text(rs))


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)
