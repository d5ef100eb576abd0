"""The ``tapology`` command line: thin over :mod:`tapology.reports` and the library.

Exit codes: 0 yes / done, 1 no (inconsistent, refused), 2 bad input (one line on stderr,
nothing written), 130 interrupted.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

try:  # typer ≥ 0.20 carries its own click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_exc  # type: ignore[no-redef]

from tapology.commands import register_all
from tapology.errors import TapologyError
from tapology.model.grid import get_grid
from tapology.render.ascii import draw_board, draw_charts
from tapology.reports import boards as reports

app = typer.Typer(
    name="tapology",
    help="Board games on taped-together surfaces: boards, charts, tapings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

BoardArg = Annotated[str, typer.Argument(help="A board file (.toml) or a built-in name such as torus:3x3.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]
DomainOpt = Annotated[str | None, typer.Option("--domain", help="Chart domain: box, plus, box:R, ball:R.")]


def emit(data: Any) -> None:
    """Print JSON on stdout."""
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


@app.command()
def group(
    grid: Annotated[str, typer.Argument(help="square, square-rotations, hex or hex-rotations.")],
    as_json: JsonOpt = False,
) -> None:
    """Print a grid's orientation group: product table (row a, column b = a then b) and meanings."""
    rep = reports.group_report(grid)
    if as_json:
        emit({"order": rep["order"], "table": rep["table"], "inverse": rep["inverse"], "meanings": rep["meanings"]})
        return

    grp = get_grid(grid).group
    typer.echo(grp.table_text())
    typer.echo("")
    for g, m in enumerate(grp.meanings):
        typer.echo(f"{g:>3}  {m}")


@app.command()
def show(
    board: BoardArg,
    chart: Annotated[list[str] | None, typer.Option("--chart", help="Show this tile's chart (repeatable).")] = None,
    as_json: JsonOpt = False,
    domain: DomainOpt = None,
) -> None:
    """Draw a board and its charts in the seed's ASCII style."""
    src, at = reports.open_board(board, domain)
    rep = reports.show_data(src, at, chart or ())
    if as_json:
        emit({k: rep[k] for k in ("grid", "tiles", "charts", "consistent", "conflict")})
        return
    b = src.board
    typer.echo(draw_board(at.board() if at.conflict is None else b))
    typer.echo("")
    which = [b.tile(t, f"--chart {t}") for t in chart] if chart else range(len(b.tiles))
    typer.echo(draw_charts(b, {t: at.chart_of(t) for t in which}))
    if at.conflict is not None:
        typer.echo("\nthe board is inconsistent:\n" + at.conflict.describe(b))


BackendOpt = Annotated[str, typer.Option("--backend", help="Who decides: propagate (default), z3 or csp (small boards).")]
ExplainOpt = Annotated[bool, typer.Option("--explain",
                                          help="On a refusal, list a minimal set of tapings that cannot hold together.")]


@app.command()
def check(board: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None, backend: BackendOpt = "propagate",
          explain: ExplainOpt = False) -> None:
    """Is the board's atlas consistent?  Exit 0 if so, 1 if not."""
    src, at = reports.open_board(board, domain)
    rep = reports.check_data(src, at, backend, explain)
    if as_json:
        emit(rep)
    elif rep["consistent"]:
        typer.echo(f"consistent: {rep['tiles']} tiles")
    elif explain:
        typer.echo("inconsistent: these tapings cannot hold together: " + ", ".join(rep["conflict"]["because"]))
    else:
        typer.echo("inconsistent:\n" + at.conflict.describe(src.board))  # type: ignore[union-attr]
    raise typer.Exit(0 if rep["consistent"] else 1)


@app.command()
def tape(
    board: BoardArg,
    tapes: Annotated[list[str], typer.Argument(help="T.SIDE=U.SIDE (~ to flip) or T@x,y=U/o.", metavar="TAPE...")],
    out: Annotated[str | None, typer.Option("-o", "--out", help="Write the taped board here if allowed.")] = None,
    as_json: JsonOpt = False,
    show_chart: Annotated[list[str] | None, typer.Option("--chart", help="Show this tile's chart after.")] = None,
    domain: DomainOpt = None,
    backend: BackendOpt = "propagate",
    explain: ExplainOpt = False,
) -> None:
    """Tape sides together; allowed iff the closure has no conflict.  Exit 0 allowed, 1 refused."""
    rep, at, src = reports.tape_report(board, tapes, out, domain, backend, explain, show_chart or ())
    b = src.board
    if as_json:
        emit(rep)
    elif rep["allowed"]:
        typer.echo("allowed: " + ", ".join(rep["tapes"]) + (f" (written to {out})" if out else ""))
        if show_chart:
            typer.echo(draw_charts(b, {t: at.chart_of(t) for t in (b.tile(c, f"--chart {c}") for c in show_chart)}))
    else:
        typer.echo("refused: " + ", ".join(rep["tapes"]))
        c = rep["conflict"]
        claims = " vs ".join(f"tile {x['tile']} turned {x['orientation']}" for x in c["claims"])
        typer.echo(f"  chart {c['tile']} at ({','.join(map(str, c['cell']))}): {claims}")
        typer.echo("  because of: " + (", ".join(c["because"]) or "the board as it was"))
        for x in c["claims"]:
            typer.echo(f"  tile {x['tile']}/{x['orientation']}:")
            for s in x["chain"]:
                typer.echo(f"    chart {s['tile']} ({','.join(map(str, s['cell']))}) = {s['other']}/{s['orientation']}"
                           f"  [{s['because']}]")
    raise typer.Exit(0 if rep["allowed"] else 1)


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
