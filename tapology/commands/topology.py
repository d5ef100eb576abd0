"""CLI commands for topology, isomorphism and synthesis: ``classify``, ``signature``, ``same``, ``synthesize``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from tapology.errors import BoardError, BoardFileError
from tapology.model.board import Board
from tapology.model.boardfile import load_board, save_board
from tapology.model.isomorphism import automorphisms, canonical, isomorphism
from tapology.model.topology import classify

BoardArg = Annotated[str, typer.Argument(help="A board file (.toml) or a built-in name such as torus:3x3.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]
DomainOpt = Annotated[str | None, typer.Option("--domain", help="Chart domain: box, plus, box:R, ball:R.")]


def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def closed_board(spec: str, domain: str | None = None) -> Board:
    """A board with its file's tapes applied and closed; :class:`BoardError` if it is inconsistent."""
    src = load_board(spec, domain)
    at = src.atlas()
    if at.conflict is not None:
        raise BoardError(f"{spec}: the board is inconsistent ({', '.join(at.conflict.because) or 'as drawn'}); "
                         f"see: tapology check {spec}")
    return at.board()


def classify_report(spec: str, domain: str | None = None) -> dict[str, Any]:
    """The classify command's JSON."""
    b = closed_board(spec, domain)
    return classify(b).to_json(b)


def signature_report(spec: str, domain: str | None = None) -> dict[str, Any]:
    """The signature command's JSON: signature and the automorphism group's order."""
    b = closed_board(spec, domain)
    return {"signature": canonical(b).signature, "tiles": len(b.tiles), "automorphisms": automorphisms(b).order}


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command("classify")
    def classify_cmd(board: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None) -> None:
        """Name a board's surface: Euler characteristic, orientability, boundary, genus, orbifold points."""
        rep = classify_report(board, domain)
        if as_json:
            _emit({k: rep[k] for k in ("tiles", "euler_characteristic", "orientable", "boundary_components", "genus",
                                       "surface", "manifold", "singularities")})
            return
        typer.echo(f"{rep['surface']}: {rep['tiles']} tiles, Euler characteristic {rep['euler_characteristic']}, "
                   f"{'orientable' if rep['orientable'] else 'non-orientable'}, "
                   f"{rep['boundary_components']} boundary component{'s' if rep['boundary_components'] != 1 else ''}"
                   + (f", genus {rep['genus']}" if rep["genus"] is not None else ""))
        if not rep["manifold"]:
            typer.echo("not a manifold (an orbifold); singular places:")
            for s in rep["singularities"]:
                if s["kind"] == "vertex":
                    at = ", ".join(f"{c['tile']}:{c['corner']}" for c in s["at"])
                    typer.echo(f"  vertex with {s['corners']} corners: {at}")
                else:
                    what = "mirror" if s["kind"] == "mirror" else "cone point of order 2"
                    typer.echo(f"  {what}: tile {s['tile']} side {s['side']} taped to itself")

    @app.command("signature")
    def signature_cmd(board: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None) -> None:
        """Print a board's canonical signature (equal exactly for isomorphic boards)."""
        rep = signature_report(board, domain)
        if as_json:
            _emit(rep)
        else:
            typer.echo(rep["signature"])

    @app.command("same")
    def same_cmd(a: BoardArg, b: BoardArg, as_json: JsonOpt = False, domain: DomainOpt = None) -> None:
        """Are two boards isomorphic (relabel tiles, re-orient each tile)?  Exit 0 if so, 1 if not."""
        ba, bb = closed_board(a, domain), closed_board(b, domain)
        f = isomorphism(ba, bb)
        rep: dict[str, Any] = {"same": f is not None}
        if f is not None:
            rep["map"] = {ba.tiles[t]: {"tile": bb.tiles[f[0][t]], "turn": f[1][t]} for t in range(len(ba.tiles))}
        if as_json:
            _emit(rep)
        else:
            typer.echo("isomorphic" if f is not None else "not isomorphic")
        raise typer.Exit(0 if f is not None else 1)

    @app.command("synthesize")
    def synthesize_cmd(
        tiles: Annotated[int | None, typer.Option("--tiles", help="Number of tiles.")] = None,
        grid: Annotated[str, typer.Option("--grid", help="square or hex (or their -rotations forms).")] = "square",
        domain: Annotated[str | None, typer.Option("--domain", help="box, plus, box:R, ball:R, or a board FILE.")] = None,
        closed: Annotated[bool, typer.Option("--closed", help="No boundary.")] = False,
        boundary: Annotated[int | None, typer.Option("--boundary", help="Exactly B boundary circles.")] = None,
        orientable: Annotated[bool | None, typer.Option("--orientable/--non-orientable", help="(Non-)orientable.")] = None,
        euler: Annotated[int | None, typer.Option("--euler", help="Euler characteristic.")] = None,
        manifold: Annotated[bool, typer.Option("--manifold", help="Exclude orbifolds (self-taped sides, cones).")] = False,
        base: Annotated[str | None, typer.Option("--from", help="Complete this board by taping its open sides.")] = None,
        count: Annotated[bool, typer.Option("--count", help="Print only how many.")] = False,
        limit: Annotated[int | None, typer.Option("--limit", help="Stop after K boards.")] = None,
        as_json: JsonOpt = False,
        out: Annotated[str | None, typer.Option("-o", "--out", help="Write each board found as DIR/board-NNN.toml.")] = None,
        timeout: Annotated[float | None, typer.Option("--timeout", help="Stop after this many seconds.")] = None,
        engine: Annotated[str, typer.Option("--engine", help="enumerate (default) or z3.")] = "auto",
    ) -> None:
        """Find boards with required properties, each new up to isomorphism."""
        from tapology.errors import SynthesisError
        from tapology.model.domain import domain_from_spec
        from tapology.model.grid import get_grid
        from tapology.solver.synthesis import Request, synthesize

        if limit is not None and limit < 1:
            raise SynthesisError(f"--limit {limit}: must be at least 1")
        if timeout is not None and timeout <= 0:
            raise SynthesisError(f"--timeout {timeout}: must be positive")
        base_board = closed_board(base) if base else None
        dom: Any = domain
        if domain is not None and (domain.endswith(".toml") or Path(domain).exists()):
            try:
                dom = load_board(domain).board.domain
            except BoardFileError as exc:
                raise SynthesisError(f"--domain {domain}: {exc}") from None
        elif domain is not None:
            dom = domain_from_spec(base_board.grid if base_board else get_grid(grid), domain)
        req = Request.make(tiles, grid, dom, closed, boundary, orientable, euler, manifold, base_board)
        if out:
            target = Path(out)
            if target.exists() and not target.is_dir():
                raise SynthesisError(f"-o {out}: exists and is not a folder")
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        with Progress(SpinnerColumn(), TextColumn("[progress.description]{task.description}"), TimeElapsedColumn(),
                      console=console, transient=True, disable=not console.is_terminal) as bar:
            task = bar.add_task("searching", total=None)

            def progress(nodes: int, found: int) -> None:
                bar.update(task, description=f"searching: {nodes} nodes, {found} boards")

            res = synthesize(req, engine, limit, timeout, progress)
        if out:
            target = Path(out)
            target.mkdir(parents=True, exist_ok=True)
            for k, f in enumerate(res.boards, 1):
                save_board(f.board, target / f"board-{k:03d}.toml")
        if res.interrupted:
            typer.echo(f"tapology: interrupted; {len(res.boards)} boards found so far", err=True)
        elif res.timed_out:
            typer.echo(f"tapology: timed out; {len(res.boards)} boards found so far", err=True)
        if as_json:
            _emit(res.to_json() if not count else {"count": len(res.boards), "complete": res.complete})
        elif count:
            typer.echo(str(len(res.boards)))
        else:
            for f in res.boards:
                typer.echo(f"{f.topology.surface}{'' if f.topology.manifold else ' (orbifold)'}  {f.signature}")
            typer.echo(f"{len(res.boards)} board{'s' if len(res.boards) != 1 else ''}"
                       + ("" if res.complete else " (search not finished)"))
        if res.interrupted:
            raise typer.Exit(130)
