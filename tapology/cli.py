"""The ``tapology`` command line: the app, its entry points, and the commands of every area registered on it
(:mod:`tapology.commands`; their answers are the reports of :mod:`tapology.reports`).

Exit codes: 0 yes / done, 1 no (inconsistent, refused), 2 bad input (one line on stderr,
nothing written), 130 interrupted (Ctrl-C, SIGTERM or a time limit: partial answers are printed).

What the machine runs out of is bad input too: memory or Python's stack (a limit raised too far: the line names
it), a full disk or a closed pipe on standard output (``write error: ...``), each one line and exit code 2.
"""

from __future__ import annotations

import copy
import os
import sys
from functools import cache
from typing import Annotated, Any

# numpy's BLAS starts a thread per core when numpy is imported (0.03 s of CPU, 0.06 s of wall on two cores) for
# linear algebra no command does; the process and its workers run without them unless the user says otherwise
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer

try:  # typer ≥ 0.20 carries its own click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_exc  # type: ignore[no-redef]

from tapology import __version__
from tapology.commands import register_all
from tapology.commands.coerce import install as plain_values
from tapology.errors import TapologyError
from tapology.files import WRITE_ERRORS, write_error
from tapology.limits import LIMITS, exhausted, parse_setting, reset_limits, set_limits
from tapology.parallel import terminate_as_interrupt

app = typer.Typer(
    name="tapology",
    help="Board games on taped-together surfaces: boards, charts, tapings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tapology {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
        version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                              help="Print the version and exit.")] = False,
        limits: Annotated[list[str] | None, typer.Option(
            "--limit", metavar="NAME=VALUE",
            help=f"Raise (or lower) a limit on input size (repeatable; see docs/limits.md): {', '.join(LIMITS)}.")] = None,
) -> None:
    """Board games on taped-together surfaces: boards, charts, tapings."""
    set_limits(dict(parse_setting(text) for text in limits or []))


register_all(app)


def os_error(exc: OSError) -> str:
    """One line for an operating-system error: ``write error: no space left on device`` for a full disk or
    ``/dev/full``, else the file and the system's words."""
    if exc.errno in WRITE_ERRORS:
        return write_error(exc) + (f" ({exc.filename})" if exc.filename else "")
    what = exc.strerror or str(exc)
    return f"{exc.filename}: {what}" if exc.filename else what


def _flush_stdout() -> None:
    """Flush standard output now (a full disk is reported here, not as Python's "Exception ignored" at exit)."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _drop_stdout() -> None:
    """After a write error on standard output: what is still buffered is dropped, so that nothing fails at exit."""
    try:
        fd = sys.stdout.fileno() if sys.stdout is not None else -1
    except (OSError, ValueError, AttributeError):  # not a file (a test's StringIO)
        return
    if fd >= 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


def _only(argv: list[str]) -> typer.Typer:
    """The app with only the command ``argv`` names first (click builds the commands it holds: all 23 cost 0.03 s
    CPU); the whole app when the first word is an option or no command's name (the list of commands, the errors)."""
    if not argv or argv[0].startswith("-"):
        return app
    named = [c for c in app.registered_commands
             if c.callback is not None and (c.name or typer.main.get_command_name(c.callback.__name__)) == argv[0]]
    if len(named) != 1:
        return app
    one = copy.copy(app)
    one.registered_commands = named
    return one


@cache
def _command(first: str) -> Any:
    """The command tree for a command line whose first word is ``first``, built once per process (building reads
    each command's signature: tens of milliseconds, more than a small command takes; :func:`main` runs many times
    in one process in the tests)."""
    command = typer.main.get_command(_only([first] if first else []))
    plain_values(command)  # text and numbers read without pydantic (a tenth of a second)
    return command


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning bad input into one line on stderr and exit code 2 (SIGTERM is handled as
    Ctrl-C: workers are ended and a partial answer printed)."""
    words = argv if argv is not None else sys.argv[1:]
    command = _command(words[0] if words else "")
    if sys.stdout is None:  # started with standard output closed: the answer would be lost without a word
        typer.echo("tapology: error: standard output is closed: nowhere to print the answer", err=True)
        return 2
    try:
        with terminate_as_interrupt():
            rv = command.main(args=argv, prog_name="tapology", standalone_mode=False)
            _flush_stdout()
    except click_exc.NoArgsIsHelpError:
        return 0
    except click_exc.UsageError as exc:
        where = f" (in '{exc.ctx.command_path}')" if exc.ctx else ""
        typer.echo(f"tapology: error: {exc.format_message()}{where}", err=True)
        return 2
    except typer.Abort:
        typer.echo("tapology: interrupted", err=True)
        return 130
    except KeyboardInterrupt:
        typer.echo("tapology: interrupted", err=True)
        return 130
    except TapologyError as exc:
        typer.echo(f"tapology: error: {exc}", err=True)
        return 2
    except MemoryError:
        typer.echo(f"tapology: error: {exhausted('memory')}", err=True)
        return 2
    except RecursionError:
        typer.echo(f"tapology: error: {exhausted('Python stack (input nested too deep)', deep=True)}", err=True)
        return 2
    except OSError as exc:
        if exc.errno in WRITE_ERRORS:
            _drop_stdout()
        typer.echo(f"tapology: error: {os_error(exc)}", err=True)
        return 2
    finally:
        reset_limits()  # a --limit holds for one command
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry."""
    sys.exit(main())


if __name__ == "__main__":
    run()
