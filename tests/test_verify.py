"""verify: the predicate language, bounded reachability (exhaustive and z3 agree), the worked answers to
seeds 002 and 003, and static checks of rule sets."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapology.cli import main
from tapology.errors import PredicateError
from tapology.games.kinrow import KInARow
from tapology.model.builtins import builtin_board
from tapology.play.analysis.predicate import evaluate, parse_predicate
from tapology.play.analysis.reach import KinrowTerms, reach_game, reach_kinrow, reach_z3
from tapology.play.playing.referee import referee
from tapology.play.playing.transcript import Entry
from tests.helpers import examples


@cache
def game(board: str = "plane:3x3", stop: bool = True) -> KInARow:
    return KInARow(builtin_board(board), 3, stop_at_line=stop)


# ---- the language -------------------------------------------------------------------------
def test_parse_and_evaluate():
    g = game()
    # X on 1 and 5, O on 2: row 1-2-3 and column 2-5-8 hold both marks
    terms = KinrowTerms(g, 0b10001, 0b10)
    assert evaluate(parse_predicate("count(X) == 2 and count(O) = 1 and empty == 6"), terms)
    assert evaluate(parse_predicate("dead == 2 and live(X) == 6 and live(O) == 2"), terms)
    assert evaluate(parse_predicate("not line(X) && !over || false"), terms)
    assert evaluate(parse_predicate("ply + 1 == 4 and turn(O) and not turn(X)"), terms)
    assert evaluate(parse_predicate("lines == 8 and lines(X) == 0 and winnable and not drawn"), terms)
    assert evaluate(parse_predicate("(dead >= 1) + line(O) == 1 and dead - 1 == 1"), terms)
    assert evaluate(parse_predicate("count(empty) == count(0)"), terms)


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("line(X) and", "ends too soon"),
    ("dead >", "ends too soon"),
    ("line", "needs an argument"),
    ("frogs > 1", "unknown term 'frogs' at column 1"),
    ("dead(X)", "takes no argument"),
    ("dead == 7 7", "unexpected '7' at column 11"),
    ("dead ~ 7", "cannot read '~ 7' at column 6"),
    ("(dead == 7", "ends too soon"),
])
def test_bad_predicates(text, message):
    with pytest.raises(PredicateError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_predicate(text)


def test_unknown_player_or_state():
    with pytest.raises(PredicateError, match="'Z' is not a player"):
        reach_kinrow(game(), "line(Z)", 3)
    with pytest.raises(PredicateError, match="'purple' is not a tile state"):
        reach_z3(game(), "count(purple) > 0", 3)


# ---- worked answers -----------------------------------------------------------------------
def _check_witness(g: KInARow, res) -> None:
    """The witness is a legal game (by the referee) ending in a position that satisfies the predicate."""
    assert res.reachable and len(res.positions) == len(res.witness) + 1
    rep = referee(g, [Entry(i + 1, turn=t) for i, t in enumerate(res.witness)])
    assert rep.valid and rep.final == res.positions[-1]
    x, o = g.masks_of(res.positions[-1])
    assert evaluate(parse_predicate(res.predicate), KinrowTerms(g, x, o))


def _all_methods(g: KInARow, pred: str, depth: int = 9, generic: bool = False) -> bool:
    """Exhaustive with and without symmetry, z3, and (``generic``) search through the Game contract agree."""
    runs = [reach_kinrow(g, pred, depth), reach_kinrow(g, pred, depth, symmetry=False), reach_z3(g, pred, depth)]
    if generic:
        runs.append(reach_game(g, pred, depth, lines=g.lines))
    assert len({r.reachable for r in runs}) == 1, pred
    assert len({len(r.witness) for r in runs}) == 1  # every method gives a shortest witness
    if runs[0].reachable:
        for r in runs:
            _check_witness(g, r)
    return runs[0].reachable


def test_seed002_both_lines():
    """Can both players show a line?  Not when play stops at the first line; yes (in 6 turns) when it goes on."""
    assert not _all_methods(game(), "line(X) and line(O)", generic=True)
    assert _all_methods(game(stop=False), "line(X) and line(O)", generic=True)
    assert len(reach_kinrow(game(stop=False), "line(X) and line(O)", 9).witness) == 6
    # the same on every built-in 3x3 surface
    for b in ("cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"):
        assert not reach_kinrow(game(b), "line(X) and line(O)", 9).reachable


# seed 003's five questions (plane 3x3, play stopping at the first line) and the answers found
SEED003 = [
    ("dead == 7 and empty == 1", True, 8),   # 1. seven dead ends and one space: yes (the seed guessed no)
    ("dead == 7 and empty >= 3", True, 6),   # 2. seven dead ends and three or more spaces: yes
    ("empty == 2 and dead < 7", True, 7),    # 3. two spaces and fewer than seven dead ends: yes
    ("dead == 8 and empty >= 1", True, 8),   # 4. eight dead ends with a space left: yes
    ("dead == 7 and empty == 2 and winnable", True, 7),  # 5. seven dead ends, two spaces, still winnable: yes
]


@pytest.mark.parametrize(("pred", "answer", "turns"), SEED003)
def test_seed003_questions(pred, answer, turns):
    assert _all_methods(game(), pred) == answer
    assert len(reach_kinrow(game(), pred, 9).witness) == turns


def test_seed003_bounds():
    # never more than three spaces with seven dead ends; eight dead ends leave at most one space
    assert not _all_methods(game(), "dead == 7 and empty >= 4")
    assert not _all_methods(game(), "dead == 8 and empty >= 2")
    # the seed's rule "seven dead ends and two spaces means unwinnable" fails, but its converse holds:
    # every early draw with two spaces has seven dead ends or more
    assert not _all_methods(game(), "drawn and empty == 2 and dead < 7")


def test_depth_bound_matters():
    assert not reach_kinrow(game(), "dead == 7 and empty == 1", 7).reachable
    assert not reach_z3(game(), "dead == 7 and empty == 1", 7).reachable
    assert reach_kinrow(game(), "empty == 9", 0).reachable


PREDICATES = ["line(O)", "lines(X) >= 2", "dead >= 5 and not over", "drawn", "winnable and empty <= 2",
              "live(O) == 0 and not over", "count(X) == 3 and turn(O) and dead == 0", "over and not line(X) and not line(O)"]


@pytest.mark.parametrize("board", ["torus:3x3", "klein:3x3", "mobius:3x3"])
def test_methods_agree_on_other_surfaces(board):
    rng = random.Random(board)
    for pred in rng.sample(PREDICATES, 4):
        depth = rng.randrange(3, 10)
        a = reach_kinrow(game(board), pred, depth)
        c = reach_z3(game(board), pred, depth)
        assert a.reachable == c.reachable, (pred, depth)
        if c.reachable:
            _check_witness(game(board), c)


# ---- the command -----------------------------------------------------------------------
def test_cli_verify_reach(capsys):
    assert main(["verify", "tictactoe", "--reach", "line(X) and line(O)", "--depth", "9", "--json"]) == 1  # no
    data = json.loads(capsys.readouterr().out)
    assert data["reach"]["reachable"] is False and data["findings"] == []
    assert main(["verify", "tictactoe", "--reach", "line(X) and line(O)", "--play-to-full", "--method", "z3"]) == 0
    out = capsys.readouterr().out
    assert "reachable in 6 turns" in out and "witness:" in out
    assert main(["verify", "tictactoe", "--reach", "dead == 7 and empty == 1", "--board", "plane:3x3"]) == 0
    assert "reachable in 8 turns" in capsys.readouterr().out
    assert main(["verify", "tictactoe", "--reach", "dead >", "--depth", "3"]) == 2
    assert "ends too soon" in capsys.readouterr().err
    assert main(["verify", "tictactoe", "--reach", "dead > 1", "--method", "smt"]) == 2
    assert main(["verify", "tictactoe", "--reach", "dead > 1", "--depth", "-1"]) == 2


# ---- static checks of rule files ----------------------------------------------------------
RULES = '''
name = "flawed"
grid = "square"
players = ["X", "O"]
board = "plane:3x3"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "mark" }
O = { value = 2, owner = "O", kind = "mark" }
ghost = 3
a = 4
b = 5

[[move]]
name = "claim"
orientations = "identity"
pattern = """
*empty  =>  *own:mark
"""

[[move]]
name = "orphan"
start = false
orientations = "identity"
cells = [[0, 0, "empty", "a"]]

[[move]]
name = "spin"
orientations = [0, 1]
cells = [[0, 0, "own", "own:mark"], [1, 0, "empty", "empty"]]
links = [{ moves = ["spin"], at = [1, 0] }]

[[move]]
name = "long"
orientations = "identity"
cells = [[0, 0, "empty", "own:mark"], [1, 0, "empty"], [2, 0, "empty"], [3, 0, "empty"]]

[[cleanup]]
name = "ab"
cells = [[0, 0, "a", "b"]]

[[cleanup]]
name = "ba"
cells = [[0, 0, "b", "a"]]

[[end]]
kind = "line"
k = 3

[[end]]
kind = "no-turns"
result = "draw"
'''


def _rules_file(tmp_path, text=RULES):
    p = tmp_path / "flawed.toml"
    p.write_text(text)
    return p


def test_static_checks(tmp_path, capsys):
    p = _rules_file(tmp_path)
    code = main(["verify", str(p), "--json"])
    data = json.loads(capsys.readouterr().out)
    by_code = {}
    for f in data["findings"]:
        by_code.setdefault(f["code"], []).append(f)
        assert f["file"] == str(p)
    assert code == 0  # warnings only
    assert by_code["unreachable-move"][0]["entry"] == "move orphan"
    assert {f["entry"] for f in by_code["never-produced"]} == {"state ghost"}
    assert by_code["cleanup-cycle"][0]["entry"].startswith("cleanup ")
    assert by_code["not-subgroup"][0]["entry"] == "move spin"
    assert by_code["never-fits"][0]["entry"] == "move long"
    lines = RULES.splitlines()
    for f in data["findings"]:
        if f["entry"].startswith("move "):
            assert lines[f["line"] - 1].strip() == "[[move]]"
            assert f'name = "{f["entry"].split()[1]}"' in lines[f["line"]]
    # on a wider board the long move fits
    code = main(["verify", str(p), "--board", "plane:3x4", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert "never-fits" not in {f["code"] for f in data["findings"]}
    # text form names file, line and entry
    main(["verify", str(p)])
    out = capsys.readouterr().out
    assert f"{p}:" in out and "[move orphan]" in out and "(unreachable-move)" in out


def test_clean_rule_sets_have_no_findings(capsys):
    for name in ("tictactoe", "checkers"):
        code = main(["verify", name, "--json"])
        data = json.loads(capsys.readouterr().out)
        assert code == 0 and data["findings"] == [], (name, data["findings"])


def test_unloadable_rule_file_is_a_finding(tmp_path, capsys):
    p = _rules_file(tmp_path, RULES.replace('"orphan"', '"claim"'))
    code = main(["verify", str(p), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["findings"][0]["severity"] == "error" and "used twice" in data["findings"][0]["message"]


def test_reach_through_the_rule_engine(tmp_path):
    from tapology.games.registry import load_game
    from tapology.games.verify import lines_of_game

    lg = load_game("tictactoe", "plane:3x3", fast=False)
    lines, ps = lines_of_game(lg)
    assert len(lines) == 8 and ps == (1, 2)
    for pred, answer, turns in SEED003[:3]:
        r = reach_game(lg.game, pred, 9, lines=lines, player_states=ps)
        assert r.reachable == answer and len(r.witness) == turns


# ---- property tests: random predicates, exhaustive search against z3 ------------------------

_INT_TERMS = ["count(X)", "count(O)", "empty", "dead", "live(X)", "live(O)", "lines(X)", "lines(O)", "ply"]
_BOOL_TERMS = ["line(X)", "line(O)", "over", "drawn", "winnable", "turn(X)"]


@st.composite
def predicates(draw, depth: int = 2) -> str:
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            return draw(st.sampled_from(_BOOL_TERMS))
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return f"{draw(st.sampled_from(_INT_TERMS))} {op} {draw(st.integers(0, 8))}"
    kind = draw(st.sampled_from(["and", "or", "not"]))
    if kind == "not":
        return f"not ({draw(predicates(depth - 1))})"
    return f"({draw(predicates(depth - 1))}) {kind} ({draw(predicates(depth - 1))})"


@settings(max_examples=examples(0.5), suppress_health_check=[HealthCheck.too_slow])  # z3 per example
@given(pred=predicates(), board=st.sampled_from(["plane:3x3", "torus:3x3", "klein:3x3"]), depth=st.integers(0, 9))
def test_random_predicates_exhaustive_vs_z3(pred, board, depth):
    a = reach_kinrow(game(board), pred, depth)
    c = reach_z3(game(board), pred, depth)
    assert a.reachable == c.reachable, (pred, board, depth)
    if a.reachable:
        assert len(a.witness) == len(c.witness)
        _check_witness(game(board), c)


def test_state_names_of_a_rule_set_are_case_sensitive():
    """checkers has states b (man) and B (king): count(B) is the kings, not the men."""
    from tapology.games.registry import load_game

    lg = load_game("checkers")
    assert reach_game(lg.game, "count(b) == 12 and count(B) == 0 and count(w) == 12", 0).reachable
    assert not reach_game(lg.game, "count(B) > 0", 2).reachable
    r = reach_game(lg.game, "count(w) <= 11", 3)
    assert r.reachable and len(r.witness) == 3 and "x" in r.witness[-1]  # the first capture is black's third turn
    with pytest.raises(PredicateError, match="'Q' is not a tile state"):
        reach_game(lg.game, "count(Q) > 0", 1)
