"""The ``tapology`` command line: the app, its entry points, and the commands of every area registered on it
(:mod:`tapology.commands`; their answers are the reports of :mod:`tapology.reports`).

Exit codes: 0 yes / done, 1 no (inconsistent, refused), 2 bad input (one line on stderr,
nothing written), 130 interrupted.
"""

from __future__ import annotations

import sys

import typer

try:  # typer ≥ 0.20 carries its own click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_exc  # type: ignore[no-redef]

from tapology.commands import register_all
from tapology.errors import TapologyError

app = typer.Typer(
    name="tapology",
    help="Board games on taped-together surfaces: boards, charts, tapings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

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
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry."""
    sys.exit(main())


if __name__ == "__main__":
    run()
