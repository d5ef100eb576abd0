"""Command-line values read without pydantic (tapology/commands/coerce.py) are read as typer reads them."""

from __future__ import annotations

import pytest
import typer

from tapology.cli import app
from tapology.commands.coerce import PlainParam, install, read_plain

build_runtime_param = pytest.importorskip("typer._coercion").build_runtime_param  # typer ≥ 0.20 only
_TyperParameter = pytest.importorskip("typer.core")._TyperParameter

SAMPLES = {
    int: [0, 1000, "0", "12", "-3", "+7", "007", " 12", "1_000", "12.0", "x", "", "99999999999999999999"],
    float: [0, 2, 0.5, "0", "0.25", "-1.5e-3", ".5", "5.", "1e3", "inf", "nan", " 1", "1_0", "x", ""],
    str: ["", "chess", "torus:12x8", " a b "],
}


def _params(command: typer.core.TyperGroup) -> list:
    out = [p for p in command.params if isinstance(p, _TyperParameter)]
    for sub in getattr(command, "commands", {}).values():
        out += _params(sub)
    return out


def test_every_plain_parameter_reads_as_typer_does() -> None:
    command = typer.main.get_command(app)
    assert install(command) > 100  # every option of every command but a few
    seen = set()
    for p in _params(command):
        d = p.type_descriptor
        if isinstance(p._runtime_param, PlainParam) and p.default is not None:  # defaults are read at once too
            assert read_plain(d.annotation, p.default)[0], (p.name, p.default)
        if not isinstance(p._runtime_param, PlainParam) or d.annotation in seen or d.annotation not in SAMPLES:
            continue
        seen.add(d.annotation)
        theirs = build_runtime_param(d)
        for value in SAMPLES[d.annotation]:
            try:
                want: object = theirs._coerce_value(value, param=p, ctx=None)
            except Exception as exc:  # typer's error is raised by the fallback too
                with pytest.raises(type(exc)):
                    p._runtime_param._coerce_value(value, param=p, ctx=None)
                continue
            got = p._runtime_param._coerce_value(value, param=p, ctx=None)
            assert type(got) is type(want) and (got == want or (got != got and want != want)), (d.annotation, value)
    assert seen == set(SAMPLES)


def test_only_common_spellings_skip_typer() -> None:
    assert read_plain(int, "-12") == (True, -12)
    assert read_plain(int, "12.0") == (False, None)  # typer's coercion decides
    assert read_plain(float, "1e-3") == (True, 0.001)
    assert read_plain(float, "inf") == (False, None)
    assert read_plain(list[str], ("a", "b")) == (True, ["a", "b"])
    assert read_plain(bool, None) == (False, None)
    assert read_plain(int, 3) == (True, 3) and read_plain(float, 3) == (True, 3.0)  # defaults


def test_a_command_reads_its_values_without_pydantic() -> None:
    import subprocess
    import sys

    code = ("import sys, tapology.cli as c; c.main(['playouts', 'tictactoe', '--count', '2']); "
            "c.main(['perft', 'checkers', '--depth', '2']); print('pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "False"
