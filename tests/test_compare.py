"""compare across surfaces and boards chosen for a game value: exact values agree with solve (and with the
retrograde analysis of the properties), playout estimates carry intervals, the chart is SVG."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from tapology.cli import main
from tapology.games.kinrow import KInARow
from tapology.games.registry import load_rules
from tapology.model.builtins import builtin_board
from tapology.play.analysis import metrics
from tapology.play.analysis.metrics import boards_for_value, census, compare, mean_interval, wilson
from tapology.play.solving.solve import solve_kinrow
from tapology.play.solving.statespace import KinrowSpace, attractors, explore
from tapology.reports.design import value_boards_report
from tapology.solver.synthesis import Request


def test_intervals():
    e = wilson(50, 100)
    assert e.value == 0.5 and 0.40 < e.low < 0.41 and 0.59 < e.high < 0.60
    assert wilson(0, 10).low == 0.0 and wilson(10, 10).high == pytest.approx(1.0)
    m = mean_interval([1.0, 2.0, 3.0])
    assert m.value == 2.0 and m.low < 2.0 < m.high


def _census_values_agree_with_solve(monkeypatch, every: int) -> None:
    """Each value of compare's census of tictactoe on 9 tiles is solve's (and the attractors' on some boards)."""
    # the attractors of the exhaustive graph (an independent method, a third of a second a board): on the drawn boards
    # and every ``every``-th other
    boards: dict = {}  # the boards compare's census gave it (not a second census: seconds)

    def recorded(*args, **kwargs):
        found, done = census(*args, **kwargs)
        boards.update(found)
        return found, done

    monkeypatch.setattr(metrics, "census", recorded)
    res = compare("tictactoe", "census:9", playouts=50)
    # regression pins: 33 closed 9-tile boards (the census's own count, cross-checked in test_census.py), 3 of them drawn
    assert res.complete and len(res.boards) == 33 and res.census == {"tiles": 9, "boards": 33, "complete": True}
    assert sorted(boards) == sorted(b.name for b in res.boards)
    for i, b in enumerate(res.boards):
        kr = KInARow(boards[b.name], 3)
        sol = solve_kinrow(kr)
        assert b.value == sol.value and b.exact["plies"] == sol.plies
        assert b.playouts == 50 and b.first_win.low <= b.first_win.value <= b.first_win.high
        if b.value == 0 or i % every == 0:
            # an independent method: who can force a win, read off the exhaustive graph
            vals = attractors(explore(KinrowSpace(kr)))
            first, second = vals.win[0][0], vals.win[1][0]
            assert (first is not None, second is not None) == (sol.value == 1, sol.value == -1)
    assert sum(1 for b in res.boards if b.value == 0) == 3


def test_census_values_agree_with_solve(monkeypatch):
    _census_values_agree_with_solve(monkeypatch, every=8)  # the attractors on the drawn boards and every 8th


@pytest.mark.slow
def test_census_values_agree_with_solve_and_the_attractors_everywhere(monkeypatch):
    _census_values_agree_with_solve(monkeypatch, every=1)


@pytest.mark.slow
def test_census_compare_in_under_a_minute():
    res = compare("tictactoe", "census:9")
    assert res.complete and res.seconds < 60
    assert all(b.playouts == 1000 for b in res.boards)


def test_named_boards_and_the_chart(tmp_path, capsys):
    svg = tmp_path / "c.svg"
    assert main(["compare", "tictactoe", "--boards", "plane:3x3,torus:3x3,klein:3x3", "--playouts", "200", "--json",
                 "--svg", str(svg)]) == 0
    data = json.loads(capsys.readouterr().out)
    got = {b["board"]: (b["exact"]["value"], b["exact"]["plies"]) for b in data["boards"]}
    assert got == {"plane:3x3": ("draw", 9), "torus:3x3": ("first player wins", 7),
                   "klein:3x3": ("first player wins", 5)}
    p = data["boards"][0]["playouts"]
    assert p["games"] == 200 and set(p) >= {"first_player_wins", "draws", "decisiveness", "length", "branching_factor"}
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and data["written"] == [str(svg)]
    texts = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text")]
    for name in ("plane:3x3", "torus:3x3", "klein:3x3", "torus", "klein bottle"):  # board names and surfaces
        assert name in texts
    for key in ("first player wins", "draws", "second player wins", "95% interval of the first player's rate"):
        assert key in texts  # the legend
    png = tmp_path / "c.png"  # PNG in-process, no external program
    assert main(["compare", "tictactoe", "--boards", "plane:3x3", "--playouts", "20", "--png", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    assert main(["compare", "tictactoe", "--boards", "plane:3x3", "--playouts", "20"]) == 0
    assert "exact value" in capsys.readouterr().out
    assert main(["compare", "tictactoe", "--boards", "census:x"]) == 2


def test_rule_engine_boards():
    res = compare("examples/games/king-hunt.toml", "plane:3x3,torus:3x3", playouts=20, max_plies=50)
    b = res.boards[0]
    # the broken game can repeat positions: the retrograde analysis gives the value
    assert b.exact["complete"] and "repeat" in b.exact["method"] and b.value == 0
    assert b.playouts == 20 and b.length is not None and b.unfinished <= 20


def test_boards_for_a_value(tmp_path):
    rules = load_rules("tictactoe")
    # the report's search (boards_for_value, the census and a solve a board) read here too: seconds, once
    rep = value_boards_report("tictactoe", Request.make(tiles=9, closed=True, domain=rules.domain), "draw",
                              out_dir=str(tmp_path))
    res = rep.result
    assert res.complete and len(res.boards) == 3 and res.examined == 33
    assert {b.surface for b in res.boards} == {"torus", "klein bottle", "sphere (orbifold)"}
    assert res.longest is not None and res.longest.exact["plies"] == 7 and res.longest.surface == "torus"
    # completions of the plane board on which the first player needs 7 plies: the torus
    base = builtin_board("plane:3x3", rules.domain)
    got = boards_for_value("tictactoe", Request.make(base=base, closed=True), "first", plies=7)
    assert [b.surface for b in got.boards] == ["torus"]
    # the report writes the boards
    assert rep.exit_code == 0 and len(rep.written) == 3
    assert "3 boards on which tictactoe is a draw" in rep.text()
    # a written board plays the same game
    from tapology.games.registry import load_game

    lg = load_game("tictactoe", rep.written[0])
    assert solve_kinrow(lg.kinrow).value == 0
