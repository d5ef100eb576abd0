"""The ``tapology`` command line: the app, its entry points, and the commands of every area registered on it
(:mod:`tapology.commands`; their answers are the reports of :mod:`tapology.reports`).

Exit codes: 0 yes / done, 1 no (inconsistent, refused), 2 bad input (one line on stderr,
nothing written), 130 interrupted.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

try:  # typer ≥ 0.20 carries its own click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_exc  # type: ignore[no-redef]

from tapology import __version__
from tapology.commands import register_all
from tapology.errors import TapologyError
from tapology.limits import LIMITS, parse_setting, reset_limits, set_limits

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


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning bad input into one line on stderr and exit code 2."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="tapology", standalone_mode=False)
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
    except OSError as exc:
        typer.echo(f"tapology: error: {exc.filename or ''}: {exc.strerror}", err=True)
        return 2
    finally:
        reset_limits()  # a --limit holds for one command
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry."""
    sys.exit(main())


if __name__ == "__main__":
    run()
