"""The report objects behind verify --properties / --invariant, compare and synthesize --game: JSON, text, exit
codes, budgets and partial answers."""

from __future__ import annotations

import json
from pathlib import Path

from tapology.games.registry import load_game
from tapology.play.analysis.properties import check_properties
from tapology.reports.design import compare_report, dumps, invariant_report, properties_report

HUNT = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "king-hunt.toml")


def test_properties_report_of_the_broken_game():
    rep = properties_report(HUNT, repairs=True, timeout=20)
    assert rep.exit_code == 1  # refuted properties
    data = json.loads(dumps(rep))
    verdicts = {(p["property"], p.get("player")): p for p in data["properties"]}
    t = verdicts[("termination", None)]
    assert t["verdict"] == "refuted" and t["witness"]["loop_from"] == 0 and len(t["witness"]["transcript"]) == 5
    assert t["method"].startswith("exhaustive")
    assert data["repairs"]["passes"] is True
    assert [c["kind"] for c in data["repairs"]["combined"]["changes"]] == ["end-at", "no-turns", "drop-check"]
    text = rep.text()
    assert "counterexample: 1-2 9-6 2-1 6-9" in text and "combined repair passes" in text


def test_properties_report_of_tictactoe():
    rep = properties_report("tictactoe", "klein:3x3", timeout=20)
    assert rep.exit_code == 1  # O cannot force a win: strong winnability is refuted for O
    assert rep.pitfalls == []
    data = rep.to_json()
    assert data["explored"]["complete"] and data["explored"]["symmetry"].startswith("lines group")
    strong = [p for p in data["properties"] if p["property"] == "strong-winnability"]
    assert [(p["player"], p["verdict"]) for p in strong] == [("X", "proved"), ("O", "refuted")]


def test_partial_search_gives_bounds():
    res = check_properties(load_game("checkers"), properties=["strong-winnability"], timeout=2, max_positions=3_000)
    assert not res.explored["complete"]
    for v in res.verdicts:
        assert v.verdict == "unknown" and v.bound["searched_turns"] >= 1 and "cannot force a win within" in v.detail


def test_invariant_report_exit_codes():
    ok = invariant_report("tictactoe", None, "count(X) >= count(O)")
    assert ok.exit_code == 0 and ok.to_json()["verdict"] == "proved" and ok.to_json()["agree"]
    bad = invariant_report("tictactoe", None, "dead < 3")
    assert bad.exit_code == 1 and bad.to_json()["witness"]["turns"]
    assert "counterexample" in bad.text()


def test_compare_stops_at_the_timeout():
    rep = compare_report("tictactoe", "plane:3x3,torus:3x3", timeout=0.0)
    assert rep.exit_code == 0 and not rep.result.complete and rep.result.boards == []
    assert "stopped early" in rep.text()
