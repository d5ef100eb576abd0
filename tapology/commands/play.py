"""CLI commands ``play``, ``solve``, ``referee`` and ``verify`` (library in :mod:`tapology.play`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from tapology.errors import OptionError, TapologyError
from tapology.files import read_text

GameArg = Annotated[str, typer.Argument(help="A game: built-in name (tictactoe, tictactoe:M,N,K, …) or rule file.")]
BoardOpt = Annotated[str | None, typer.Option("--board", help="The board: built-in name (torus:3x3) or board file.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]



def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


@contextmanager
def _progress(label: str) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar on stderr when it is a terminal; yields the callback (or None)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
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
        from tapology.errors import RecordError
        from tapology.games.registry import load_game
        from tapology.play.ai import make_agent, parse_strength
        from tapology.play.session import GameRecord, PlaySession, check_record_target

        if save:
            check_record_target(save)  # before the game, so that a finished game is never lost
        record = GameRecord.load(load) if load else None
        if record is not None:
            game = game or record.game
            if record.game != game:
                raise RecordError(f"--load {load}: a record of {record.game} on {record.board}, not of {game}")
            board = board or record.board
        lg = load_game(game, board)
        if record is not None and record.board != lg.board_name:
            raise RecordError(f"--load {load}: a record of {record.game} on {record.board}, "
                              f"not {game} on {lg.board_name}")
        depth = parse_strength(strength)
        seats = []
        for k, (opt, who) in enumerate((("--x", x), ("--o", o))):
            w = who.strip().lower()
            if w not in ("human", "ai", "computer"):
                raise OptionError(f"{opt} {who!r}: use human or ai")
            seats.append(None if w == "human" else make_agent(lg.game, depth, None if seed is None else seed + k))
        if len(lg.game.players) != 2:
            raise OptionError(f"{game}: play takes two players, the game has {len(lg.game.players)}")
        use_color = sys.stdout.isatty() if color is None else color
        # with --json the game is shown on stderr and stdout holds only the JSON answer
        sess = PlaySession(lg.game, seats, sys.stdin, sys.stderr if as_json else sys.stdout, game_name=game,
                           board_name=lg.board_name, early_draw=early_draw, color=use_color and not as_json, record=record,
                           record_where=f"--load {load}")
        result = sess.run()
        if save:
            sess.record().save(save)
        if as_json:
            _emit(result)

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
        from tapology.games.registry import load_game
        from tapology.play.solve import solve_game, solve_kinrow

        lg = load_game(game, board, fast=not generic)
        with _progress("solving") as cb:
            if lg.kinrow is not None:
                res = solve_kinrow(lg.kinrow, symmetry=symmetry, progress=cb, board_name=lg.board_name)
            else:
                res = solve_game(lg.game, progress=cb, board_name=lg.board_name)
        res.game = lg.name
        if as_json:
            _emit(res.to_json())
        else:
            d = res.to_json()
            if not res.complete:
                typer.echo(f"interrupted: {res.positions:,} positions so far")
            else:
                typer.echo(f"{lg.name} on {lg.board_name}: {d['value']} in {res.plies} plies")
                typer.echo(f"positions {res.positions:,} (terminal {res.terminal_positions:,}); games {res.games:,} "
                           f"(" + ", ".join(f"{p} {v:,}" for p, v in res.wins.items()) + f", draws {res.draws:,})")
                if res.classes is not None:
                    typer.echo(f"symmetry: {res.group} group of order {res.symmetries}, {res.classes:,} classes; "
                               f"{res.seconds:.2f} s ({res.method})")
        if not res.complete:
            raise typer.Exit(130)

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
        from tapology.errors import TranscriptError
        from tapology.games.registry import load_game
        from tapology.play.referee import referee as run_referee
        from tapology.play.referee import referee_pgn
        from tapology.play.transcript import read_transcript

        if (transcript is None) == (pgn is None):
            raise OptionError("referee: give a transcript or --pgn FILE (one of them)")
        lg = load_game(game, board)
        if pgn is not None:
            text = sys.stdin.read() if pgn == "-" else read_text(pgn, "PGN file", TranscriptError)
            reps = referee_pgn(lg.generic, text, pgn)
            if as_json:
                _emit({"games": [r.to_json() for r in reps]})
            for i, r in enumerate(reps, 1):
                if not as_json:
                    typer.echo(f"game {i}: " + (f"valid: {r.steps} moves" if r.valid else f"invalid: {r.reason}"))
            raise typer.Exit(0 if all(r.valid for r in reps) else 1)
        assert transcript is not None
        if transcript == "-":
            text = sys.stdin.read()
        else:
            text = read_text(transcript, "transcript", TranscriptError)
        rep = run_referee(lg.game, read_transcript(lg.game, text, transcript), any_start=any_start)
        if as_json:
            _emit(rep.to_json())
        elif rep.valid:
            out = rep.outcome
            end = "game over: " + ", ".join(f"{p} {v:+d}" for p, v in out.items()) if out else "game goes on"
            typer.echo(f"valid: {rep.steps} turns ({end})")
        else:
            typer.echo(f"invalid at step {rep.step} (line {rep.line}): {rep.reason}")
        raise typer.Exit(0 if rep.valid else 1)

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
        from tapology.games.registry import load_game
        from tapology.play.verify import static_checks

        if method not in ("auto", "exhaustive", "z3"):
            raise OptionError(f"--method {method!r}: use auto, exhaustive or z3")
        try:
            lg = load_game(rules, board, stop_at_line=not play_to_full)
        except TapologyError as exc:
            if not Path(rules).is_file():
                raise
            # a rule file that does not load: that is the finding
            from tapology.play.verify import Finding

            bad = Finding("error", "load", str(exc), rules)
            if as_json:
                _emit({"rules": rules, "board": board, "findings": [bad.to_json()]})
            else:
                typer.echo(bad.text())
            raise typer.Exit(1) from None
        out: dict[str, Any] = {"rules": rules, "board": lg.board_name}
        findings = static_checks(lg)
        out["findings"] = [f.to_json() for f in findings]
        if reach is not None:
            from tapology.errors import ReachError
            from tapology.play.reach import reach_game, reach_kinrow, reach_z3

            kr = lg.kinrow
            if kr is not None and method == "z3":
                res = reach_z3(kr, reach, depth)
            elif kr is not None:
                with _progress("searching") as cb:
                    res = reach_kinrow(kr, reach, depth, progress=cb)
            elif method == "z3":
                raise ReachError(f"--method z3 needs a k-in-a-row game; {rules} is searched exhaustively")
            else:
                from tapology.play.verify import lines_of_game

                lines, ps = lines_of_game(lg)
                with _progress("searching") as cb:
                    res = reach_game(lg.game, reach, depth, lines=lines, player_states=ps, progress=cb)
            out["reach"] = res.to_json()
        if as_json:
            _emit(out)
        else:
            if findings:
                for f in findings:
                    typer.echo(f.text())
            else:
                typer.echo(f"{rules}: no findings")
            if reach is not None:
                r = out["reach"]
                if r["reachable"]:
                    typer.echo(f"reachable in {r['turns']} turns: {reach}")
                    typer.echo("  witness: " + (" ".join(r["witness"]) or "(the start position)"))
                elif r["complete"]:
                    typer.echo(f"not reachable within {depth} turns: {reach}")
                else:
                    typer.echo(f"unknown (search interrupted) within {depth} turns: {reach}")
        if reach is not None and not out["reach"]["complete"]:
            raise typer.Exit(130)
        bad = any(f.severity == "error" for f in findings)
        raise typer.Exit(1 if bad else 0)
