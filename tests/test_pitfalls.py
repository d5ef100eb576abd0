"""Surface pitfalls with witnesses: null moves by wrapping, two routes to one turn, lines that reuse a tile, moves
that fit nowhere, pieces that come back mirrored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapology.games.registry import load_game
from tapology.play.analysis.pitfalls import pitfall_checks
from tapology.play.playing.referee import referee
from tapology.play.playing.transcript import Entry

SPINNER = str(Path(__file__).resolve().parent / "data" / "games" / "spinner.toml")


def codes(spec: str, board: str | None = None) -> dict[str, list]:
    out: dict[str, list] = {}
    for p in pitfall_checks(load_game(spec, board)):
        out.setdefault(p.code, []).append(p)
    return out


@pytest.mark.parametrize("board", ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"])
def test_tictactoe_has_none(board):
    assert codes("tictactoe", board) == {}


def test_line_reuse():
    got = codes("tictactoe:4", "torus:3x3")["line-reuse"]
    w = got[0].witness["walks"][0]
    assert len(w["walk"]) == 4 and len(set(w["walk"])) < 4
    assert "line-reuse" in codes("tictactoe", "torus:2x2")


def test_dead_rule_with_nearest_miss():
    got = codes("checkers", "torus:8x8")["dead-rule"]
    assert [p.entry for p in got] == ["move man-step-crown", "move man-jump-crown"]
    assert "must be off the board" in got[0].witness["reasons"][0]


def test_null_move_by_wrapping():
    got = codes(SPINNER, "torus:1x3")["null-move"]
    assert {p.entry for p in got} == {"move forward", "move sidestep"}
    place = got[0].witness["placements"][0]
    assert place["tile"] == "1"


def test_two_routes_to_one_turn():
    got = codes(SPINNER, "torus:2x2")["seam-duplicate"]
    routes = got[0].witness["routes"]
    assert len(routes) == 2 and routes[0] != routes[1]
    assert got[0].witness["turn"] == "1-3"


@pytest.mark.parametrize("board", ["klein:3x3", "mobius:3x3"])
def test_chirality_on_non_orientable_boards(board):
    got = codes(SPINNER, board)["chirality"][0]
    assert got.severity == "warning"
    lg = load_game(SPINNER, board)
    rep = referee(lg.game, [Entry(i + 1, turn=t) for i, t in enumerate(got.witness["turns"])])
    assert rep.valid
    grp = lg.rules.grid.group
    assert any(s == 1 and grp.is_reflection(f) for s, f in zip(rep.final.states, rep.final.extra, strict=True))
    assert "chirality" not in codes(SPINNER, "torus:3x3")
