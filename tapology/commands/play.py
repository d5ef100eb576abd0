"""CLI commands ``play``, ``solve``, ``referee`` and ``verify`` (answers in :mod:`tapology.reports.play`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from tapology.commands.games import BoardOpt, GameArg, JsonOpt, emit


@contextmanager
def stage_progress(label: str) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar per stage on stderr when it is a terminal; yields the callback ``(stage, done, total)``
    (or None)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # rich's bar loads only for a terminal
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label + " {task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as prog:
        tasks: dict[str, Any] = {}

        def cb(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = prog.add_task(stage, total=total or None)
            prog.update(tasks[stage], completed=done, total=total or None)

        yield cb


def register(app: typer.Typer) -> None:
    """Add ``play``, ``solve``, ``referee`` and ``verify`` to ``app``."""

    @app.command()
    def play(
        game: GameArg,
        board: BoardOpt = None,
        x: Annotated[str, typer.Option("--x", help="First player: human or ai.")] = "human",
        o: Annotated[str, typer.Option("--o", help="Second player: human or ai.")] = "ai",
        strength: Annotated[str, typer.Option("--strength", help="Computer strength: random, a search depth, or perfect.")]
        = "perfect",
        seed: Annotated[int | None, typer.Option("--seed", help="Seed for the computer's choices among equal turns.")] = None,
        load: Annotated[str | None, typer.Option("--load", help="Continue a saved game record.")] = None,
        save: Annotated[str | None, typer.Option("--save", help="Write the game record here at the end.")] = None,
        early_draw: Annotated[bool, typer.Option("--early-draw/--play-out",
                                                 help="Stop as soon as no line can be completed.")] = True,
        color: Annotated[bool | None, typer.Option("--color/--no-color", help="Colour the marks (default: on a terminal).")]
        = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Play a game at the terminal: human or computer on each side."""
        from tapology.reports.play import play_report

        use_color = sys.stdout.isatty() if color is None else color
        # with --json the game is shown on stderr and stdout holds only the JSON answer
        rep = play_report(game, board, x, o, strength, seed, load, save, early_draw, stdin=sys.stdin,
                          show=sys.stderr if as_json else sys.stdout, color=use_color and not as_json)
        if as_json:
            emit(rep, as_json)

    @app.command()
    def solve(
        game: GameArg,
        board: BoardOpt = None,
        as_json: JsonOpt = False,
        symmetry: Annotated[bool | None, typer.Option("--symmetry/--no-symmetry",
                                                      help="Reduce by the game's symmetries (default: on boards where it pays).")]
        = None,
        generic: Annotated[bool, typer.Option("--generic", help="Solve through the rule engine (memoised search).")] = False,
    ) -> None:
        """Exact value of a game with game-tree counts: positions, terminal positions, games, wins, draws."""
        from tapology.reports.play import solve_report

        with stage_progress("solving") as cb:
            rep = solve_report(game, board, symmetry, generic, progress=cb)
        emit(rep, as_json)

    @app.command()
    def referee(
        game: GameArg,
        transcript: Annotated[str | None, typer.Argument(help="JSON lines of positions or turns ('-' for standard "
                                                              "input).")] = None,
        board: BoardOpt = None,
        as_json: JsonOpt = False,
        any_start: Annotated[bool, typer.Option("--any-start", help="Start from the first position line, whatever it is.")]
        = False,
        pgn: Annotated[str | None, typer.Option("--pgn", help="Chess: referee the games of a PGN file ('-' for standard "
                                                             "input).")] = None,
    ) -> None:
        """Check a transcript turn by turn; exit 0 if every step is one legal turn, 1 at the first that is not."""
        from tapology.reports.play import referee_report

        emit(referee_report(game, transcript, board, any_start, pgn, sys.stdin), as_json)

    @app.command()
    def verify(
        rules: Annotated[str, typer.Argument(help="A rule set: built-in name or rule file.")],
        board: BoardOpt = None,
        as_json: JsonOpt = False,
        reach: Annotated[str | None, typer.Option("--reach", help="A predicate, e.g. 'line(X) and line(O)'.")] = None,
        depth: Annotated[int, typer.Option("--depth", help="Turns to look ahead for --reach.")] = 9,
        method: Annotated[str, typer.Option("--method", help="auto, exhaustive or z3.")] = "auto",
        play_to_full: Annotated[bool, typer.Option("--play-to-full",
                                                   help="k-in-a-row: play on after a line, to a full board.")] = False,
    ) -> None:
        """Static checks of a rule set, and bounded reachability of positions (--reach P --depth K)."""
        from tapology.reports.play import verify_report

        with stage_progress("searching") as cb:
            rep = verify_report(rules, board, reach, depth, method, play_to_full, progress=cb)
        emit(rep, as_json)
