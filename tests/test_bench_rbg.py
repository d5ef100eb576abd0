"""benchmarks/bench_rbg.py's table of games: every row names a game tapology ships and a file of RBG's catalogue, and
every catalogue game tapology ships has a row.  Nothing here runs RBG; the checks on its files skip without them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tapology.errors import TapologyError
from tapology.games import load_rules

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_rbg.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rbg", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_rbg", module)
    spec.loader.exec_module(module)
    return module


bench = _bench()
ROWS = bench.ROWS
GAMES = bench.RBG.parent / "rbgGames" / "games"
needs_rbg_files = pytest.mark.skipif(not GAMES.is_dir(), reason=f"no RBG catalogue at {GAMES}")
# rows that set one of tapology's own rule sets against RBG's (the rest load the rule set RBG's name means)
OWN = {"checkers": "englishDraughts"}


def test_rows_are_named_once() -> None:
    names = [r.name for r in ROWS]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert all(r.depth >= 1 for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_every_row_names_a_game_tapology_ships(row) -> None:
    rules = load_rules(row.game)  # raises when the registry does not know the name
    if row.name in OWN or Path(row.rbg).suffix == ".rbg":
        return
    assert load_rules(row.rbg).source == rules.source, f"{row.name}: {row.game} is not the rule set {row.rbg} loads"
    assert load_rules(row.rbg).board == rules.board


@needs_rbg_files
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_every_row_names_a_file_of_rbg(row) -> None:
    assert Path(row.rbg).is_file() or (GAMES / f"{row.rbg}.rbg").is_file(), f"{row.name}: no RBG game {row.rbg!r}"


@needs_rbg_files
def test_every_catalogue_game_tapology_ships_has_a_row() -> None:
    rows = {r.rbg for r in ROWS}
    missing = []
    for path in sorted(GAMES.glob("*.rbg")):
        try:
            load_rules(path.stem)
        except TapologyError:
            continue
        if path.stem not in rows:
            missing.append(path.stem)
    assert not missing, f"catalogue games tapology ships without a row in bench_rbg.py: {missing}"
