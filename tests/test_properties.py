"""verify --properties: termination, playability, weak and strong winnability, goal uniqueness and monotonicity,
decided on the shipped games and on a deliberately broken rule set, with counterexamples the referee replays;
and the repairs of the broken one, re-verified."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tapology.games.registry import load_game
from tapology.play.analysis.properties import PROPERTIES, check_properties, goals_holding
from tapology.play.analysis.repair import loaded_from_rules, repair
from tapology.play.playing.referee import referee
from tapology.play.playing.transcript import Entry
from tapology.play.solving.solve import solve_game, solve_kinrow
from tapology.play.solving.statespace import RuleSpace, attractors, explore

ROOT = Path(__file__).resolve().parent.parent
HUNT = str(ROOT / "examples" / "games" / "king-hunt.toml")
SURFACES = ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"]


def replays(game, witness) -> object:
    """The witness's turns are a valid transcript; the final position is the witness's last."""
    rep = referee(game, [Entry(i + 1, turn=t) for i, t in enumerate(witness.turns)])
    assert rep.valid, rep.reason
    assert rep.final == witness.positions[-1]
    return rep


@cache
def ttt(board: str, fast: bool = True):
    lg = load_game("tictactoe", board, fast=fast)
    return lg, check_properties(lg, timeout=30)


@pytest.mark.parametrize("board", SURFACES)
def test_tictactoe_on_every_3x3_surface(board):
    lg, res = ttt(board)
    assert res.complete and res.explored["complete"]
    for prop in ("termination", "playability", "goal-uniqueness", "goal-monotonicity"):
        assert res.get(prop).verdict == "proved", res.get(prop).text()
    assert "ranking" in res.get("termination").method and "exhaustive" in res.get("termination").also
    for p in ("X", "O"):
        v = res.get("weak-winnability", p)
        assert v.verdict == "proved" and v.method.startswith("exhaustive")
        rep = replays(lg.game, v.witness)
        assert rep.outcome[p] == 1
    # strong winnability for the first player exactly where solve says the first player wins
    sol = solve_kinrow(lg.kinrow)
    x, o = res.get("strong-winnability", "X"), res.get("strong-winnability", "O")
    assert (x.verdict == "proved") == (sol.value == 1)
    assert o.verdict == "refuted"
    assert "exhaustive (retrograde)" in x.also
    replays(lg.game, x.witness)


@pytest.mark.parametrize("board", ["plane:3x3", "klein:3x3"])
def test_rule_engine_path_agrees(board):
    """The same verdicts through the rule engine (no symmetry) as through the k-in-a-row engine."""
    _lg, fast = ttt(board)
    lg, slow = ttt(board, False)
    assert lg.kinrow is None and slow.explored["symmetry"] == "none"
    for a, b in zip(fast.verdicts, slow.verdicts, strict=True):
        assert (a.property, a.player, a.verdict) == (b.property, b.player, b.verdict)
    assert fast.explored["positions"] < slow.explored["positions"]


@pytest.mark.parametrize("board", ["plane:3x3", "torus:3x3", "mobius:3x3"])
def test_attractors_agree_with_solve(board):
    lg = load_game("tictactoe", board, fast=False)
    g = explore(RuleSpace(lg.game))
    vals = attractors(g)
    sol = solve_game(lg.game)
    x, o = vals.win[0][0], vals.win[1][0]
    assert (x is not None) == (sol.value == 1) and (o is not None) == (sol.value == -1)
    if x is not None:
        assert x == sol.plies


def test_checkers_termination_by_the_plies_rule():
    res = check_properties(load_game("checkers"), properties=["termination", "playability", "goal-uniqueness",
                                                              "goal-monotonicity"], timeout=3, max_positions=2_000)
    t = res.get("termination")
    assert t.verdict == "proved" and t.method == "ranking function (plies rule)" and t.bound == {"turns": 400}
    assert res.get("playability").method == "static (no-turns rule)"
    assert res.get("goal-uniqueness").verdict == res.get("goal-monotonicity").verdict == "proved"


def test_tictactopology_static_proofs():
    res = check_properties(load_game("tictactopology"), properties=["termination", "playability"], timeout=2,
                           max_positions=500)
    t = res.get("termination")
    # each turn claims an empty tile or closes open sides: at most 9 + 12 turns
    assert t.verdict == "proved" and t.bound["turns"] == 21 and "open sides" in t.bound["measure"]
    assert res.get("playability").verdict == "proved"


@pytest.mark.slow
def test_tictactopology_properties():
    lg = load_game("tictactopology")
    res = check_properties(lg, timeout=60)
    assert res.get("termination").verdict == res.get("playability").verdict == "proved"
    for p in ("X", "O"):
        v = res.get("weak-winnability", p)
        assert v.verdict == "proved"
        assert replays(lg.game, v.witness).outcome[p] == 1
    u = res.get("goal-uniqueness")
    assert u.verdict == "refuted"  # a taping can give both players a line at once
    replays(lg.game, u.witness)
    held = goals_holding(lg.generic, u.witness.positions[-1])
    assert {p for _r, p, _s in held} == {0, 1}
    for p in ("X", "O"):
        assert res.get("strong-winnability", p).verdict == "unknown"


# ---- the broken rule set ----------------------------------------------------------------------------
@cache
def hunt():
    lg = load_game(HUNT)
    return lg, check_properties(lg, timeout=30)


def test_broken_never_ends():
    lg, res = hunt()
    v = res.get("termination")
    assert v.verdict == "refuted" and v.witness.loop is not None
    w = v.witness
    replays(lg.game, w)
    space = RuleSpace(lg.generic)
    # the play comes back to the position at loop_from: it can go round for ever
    assert space.key(w.positions[-1]) == space.key(w.positions[w.loop])
    assert len(w.turns) == 4  # the shortest: both pieces step out and back


def test_broken_player_without_turns():
    lg, res = hunt()
    v = res.get("playability")
    assert v.verdict == "refuted"
    rep = replays(lg.game, v.witness)
    final = v.witness.positions[-1]
    assert lg.game.turns(final) == [] and rep.outcome == {"hunter": 0, "king": 0}  # the engine's fallback draw
    assert RuleSpace(lg.generic).unscored(final)


def test_broken_goal_undone():
    lg, res = hunt()
    v = res.get("goal-monotonicity")
    assert v.verdict == "refuted"
    replays(lg.game, v.witness)
    before, after = v.witness.positions[-2], v.witness.positions[-1]
    assert goals_holding(lg.generic, before, mind_check=False) and not goals_holding(lg.generic, after, mind_check=False)
    assert lg.game.outcome(before) is None  # the goal held while play went on (masked by its check condition)


def test_broken_other_properties():
    _lg, res = hunt()
    assert res.get("weak-winnability", "hunter").verdict == "proved"
    assert res.get("weak-winnability", "king").verdict == "refuted"  # the king has no goal at all
    assert res.get("goal-uniqueness").verdict == "proved"
    assert [v.property for v in res.verdicts if v.player is None] == [p for p in PROPERTIES if "winnability" not in p]


def test_repairs_pass_reverification():
    lg, before = hunt()
    rep = repair(lg, before=before, check_timeout=10)
    assert rep.complete and rep.passes
    kinds = {f.property: f.best.change.kind for f in rep.failures if f.best is not None}
    assert kinds["termination"] == "end-at" and kinds["playability"] == "no-turns"
    assert kinds["goal-monotonicity"] == "drop-check"
    # every suggestion for a failure repairs it on its own
    for f in rep.failures:
        assert f.best is not None and f.best.fixes
        assert f.best.after.get(f.property, f.player).verdict == "proved"
    # the combined repair, rebuilt from its rule set and verified afresh
    fixed = loaded_from_rules(rep.changes[-1].rules, lg.board_name)
    again = check_properties(fixed, timeout=20)
    for f in rep.failures:
        assert again.get(f.property, f.player).verdict == "proved"
    assert "kind = \"plies\"" in rep.changes[0].toml


@pytest.mark.slow
def test_docs_examples_run_as_written():
    """The Python examples of docs/play.md's 'Designing rule sets' run and print what the page shows."""
    import re
    import subprocess
    import sys

    text = (ROOT / "docs" / "play.md").read_text()
    sec = text[text.index("## Designing rule sets"):text.index("## Library")]
    blocks = re.findall(r"```python\n(.*?)```\n\n```\n(.*?)```", sec, re.S)
    assert len(blocks) == 4
    for code, shown in blocks:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
        for line in shown.splitlines():
            if line.strip() and "…" not in line:
                assert line.rstrip() in out, line
