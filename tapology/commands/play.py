"""CLI commands ``play``, ``solve``, ``referee`` and ``verify`` (answers in :mod:`tapology.reports.play`)."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer

from tapology.commands.common import (
    BoardOpt,
    GameArg,
    JsonOpt,
    RayAddressOpt,
    RayOpt,
    TimeoutOpt,
    WorkersOpt,
    emit,
    executor_option,
    note,
    stage_progress,
    stops,
    thinking,
    timeout_option,
)


def register(app: typer.Typer) -> None:
    """Add ``play``, ``solve``, ``referee`` and ``verify`` to ``app``."""

    @app.command()
    def play(
        game: GameArg,
        board: BoardOpt = None,
        x: Annotated[str | None, typer.Option("--x", help="First player: human, ai (at --strength), or a computer player: "
                                                   "random, perfect, a depth, alphabeta:D, mcts:N, with @SECONDS for "
                                                   "a time limit per move (default: human, or the "
                                                   "record's player with --load/--resume).")] = None,
        o: Annotated[str | None, typer.Option("--o", help="Second player: as --x (default: ai, or the record's "
                                                          "player).")] = None,
        strength: Annotated[str, typer.Option("--strength", help="Computer strength: random, a search depth, or perfect.")]
        = "perfect",
        seed: Annotated[int | None, typer.Option("--seed", help="Seed for the computer's choices among equal turns.")] = None,
        load: Annotated[str | None, typer.Option("--load", help="Continue a saved game record.")] = None,
        save: Annotated[str | None, typer.Option("--save", help="Save the game record here after every turn "
                                                                "(default: the autosave file).")] = None,
        resume: Annotated[str | None, typer.Option("--resume", help="Continue a saved game record and keep saving "
                                                                    "to it (after a crash or Ctrl-C).")] = None,
        autosave: Annotated[bool, typer.Option("--autosave/--no-autosave", help="Without --save, save after every "
                                                                               "turn to $TAPOLOGY_AUTOSAVE or "
                                                                               "~/.local/state/tapology/autosave.json."
                                                                               )] = True,
        move_time: Annotated[float, typer.Option("--move-time", help="Seconds a computer player may search a move "
                                                                     "(the deepest search finished in time decides)."
                                                 )] = 10.0,
        early_draw: Annotated[bool, typer.Option("--early-draw/--play-out",
                                                 help="Stop as soon as no line can be completed.")] = True,
        color: Annotated[bool | None, typer.Option("--color/--no-color", help="Colour the marks (default: on a terminal).")]
        = None,
        pgn_out: Annotated[str | None, typer.Option("--pgn-out", help="Chess: write the game as PGN here after "
                                                                      "every turn.")] = None,
        seat: Annotated[list[str] | None, typer.Option("--seat", help="PLAYER=WHO, as --x, for any player "
                                                                      "(repeatable): the players after the first "
                                                                      "two of a game of more (chinese-checkers-6) "
                                                                      "are ai unless seated.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Play a game at the terminal: human or computer on each side."""
        from tapology.reports.play import play_report

        # colour on a terminal unless NO_COLOR is set (https://no-color.org); --color/--no-color decide otherwise
        use_color = sys.stdout.isatty() and not os.environ.get("NO_COLOR") if color is None else color
        # with --json the game is shown on stderr and stdout holds only the JSON answer
        rep = play_report(game, board, x, o, strength, seed, load, save, early_draw, stdin=sys.stdin,
                          show=sys.stderr if as_json else sys.stdout, color=use_color and not as_json,
                          move_time=move_time, resume=resume, autosave=autosave, thinking=thinking, pgn_out=pgn_out,
                          seats=seat or ())
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
        workers: WorkersOpt = None,
        ray: RayOpt = False,
        ray_address: RayAddressOpt = None,
        timeout: TimeoutOpt = None,
        force: Annotated[bool, typer.Option("--force", help="Solve even when the state-space bound is beyond "
                                                            "reach.")] = False,
    ) -> None:
        """Exact value of a game with game-tree counts: positions, terminal positions, games, wins, draws."""
        from tapology.reports.play import solve_report

        with stops(), stage_progress("solving") as cb:
            rep = solve_report(game, board, symmetry, generic, progress=cb, ex=executor_option(workers, ray, ray_address),
                               timeout=timeout, force=force, plan=note)
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
        depth: Annotated[int | None, typer.Option("--depth", help="Turns to look ahead (--reach: 9; --invariant: "
                                                                  "as deep as needed).")] = None,
        method: Annotated[str, typer.Option("--method", help="auto, exhaustive or z3 (--invariant also: boards).")]
        = "auto",
        play_to_full: Annotated[bool, typer.Option("--play-to-full",
                                                   help="k-in-a-row: play on after a line, to a full board.")] = False,
        properties: Annotated[bool, typer.Option("--properties", help="Termination, playability, weak and strong "
                                                                      "winnability, goals, and the surface pitfalls.")]
        = False,
        repair: Annotated[bool, typer.Option("--repair", help="With --properties: the smallest change that makes a "
                                                              "failed property hold, re-verified.")] = False,
        invariant: Annotated[str | None, typer.Option("--invariant", help="A predicate to prove at every reachable "
                                                                          "position, e.g. 'pieces <= prev(pieces)'.")]
        = None,
        timeout: Annotated[float | None, timeout_option("Seconds: for --reach a limit (default none; the "
                                                                   "search so far, partial), for --properties or "
                                                                   "--invariant a budget (default 60).")] = None,
    ) -> None:
        """Static checks of a rule set; bounded reachability (--reach P --depth K); the properties a game needs
        (--properties, --repair); invariants (--invariant P)."""
        from tapology.errors import OptionError
        from tapology.reports.design import invariant_report, properties_report
        from tapology.reports.play import verify_report

        if sum(x is not None and x is not False for x in (reach, invariant, properties or None)) > 1:
            raise OptionError("verify: give one of --reach, --invariant and --properties")
        if repair and not properties:
            raise OptionError("--repair goes with --properties")
        budget = 60.0 if timeout is None else timeout
        with stops(), stage_progress("searching") as cb:
            if properties:
                rep: Any = properties_report(rules, board, repairs=repair, timeout=budget, progress=cb)
            elif invariant is not None:
                rep = invariant_report(rules, board, invariant, method=method, depth=depth, timeout=budget, progress=cb)
            else:
                rep = verify_report(rules, board, reach, 9 if depth is None else depth, method, play_to_full,
                                    progress=cb, timeout=timeout, plan=note)
        emit(rep, as_json)
