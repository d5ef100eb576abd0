"""Count conditions on moves (``if``), with ``{choice}`` per promotion variant: RBG's quick chess, where a pawn
promotes only to a piece its side has lost and may not enter the last rank while it has lost none."""

from __future__ import annotations

import pytest

from tapology.errors import RuleError
from tapology.games import open_game
from tapology.games.chess import position_from_fen
from tapology.games.registry import DATA, notation_of, shipped_name
from tapology.rules import RuleGame, native
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves

SOURCE = (DATA / "chess-quick-5x6-king-capture.toml").read_text()
PROMOTE = "r1qkn/1P3/2p2/5/Pp1PP/R1QK1 w - - 0 1"  # White has lost B and N, Black its b
NOLOST = "rbqkn/1P3/5/5/p4/RBQKN w - - 0 1"  # nobody has lost a piece


def _labels(g: RuleGame, fen: str, black: bool = False) -> set[str]:
    pos = position_from_fen(g, fen.replace(" w ", " b ") if black else fen)
    return {t.label for t in g.turns(pos)}


def test_a_pawn_promotes_only_to_a_piece_its_side_has_lost() -> None:
    g = open_game("chessQuick5x6_kingCapture")
    assert shipped_name("chessQuick5x6_kingCapture") == "chess-quick-5x6-king-capture"
    got = _labels(g, PROMOTE)
    assert {lab for lab in got if lab.startswith("b5")} == {f"b5{to}{p}" for to in ("a6", "b6", "c6") for p in "nb"}
    assert {lab for lab in _labels(g, PROMOTE, black=True) if lab.startswith("b2")} == {"b2a1b", "b2b1b", "b2c1b"}


def test_with_nothing_lost_no_pawn_enters_the_last_rank() -> None:
    g = open_game("chess-quick-5x6-king-capture")
    assert not any(lab.startswith("b5") for lab in _labels(g, NOLOST))
    assert not any(lab.startswith("a2") for lab in _labels(g, NOLOST, black=True))
    # without the move conditions the pawn would promote to anything: the test fails if `if` is dropped
    rules = parse_rules(SOURCE.replace('if = [{ states = ["{choice}"], op = "==", value = 0 }]\n', ""),
                        str(DATA / "chess-quick-5x6-king-capture.toml"))
    bare = RuleGame(rules, notation=notation_of(rules))
    assert {lab for lab in _labels(bare, NOLOST) if lab.startswith("b5")} == {f"b5{to}{p}" for to in ("a6", "c6")
                                                                           for p in "qrbn"}


def test_python_constraint_agrees_and_z3_refuses() -> None:
    g = open_game("chess-quick-5x6-king-capture")
    for fen in (PROMOTE, NOLOST):
        pos = position_from_fen(g, fen)
        assert {t.label for t in g.turns(pos, "csp")} == {t.label for t in g.turns(pos)}
        for t in g.turns(pos)[:4]:  # depth 2 too
            assert {u.label for u in g.turns(t.result, "csp")} == {u.label for u in g.turns(t.result)}
    with pytest.raises(RuleError, match="does not model moves with count conditions"):
        g.turns(g.initial(), "z3")


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_reads_move_conditions_as_python_does() -> None:
    g = open_game("chess-quick-5x6-king-capture")
    chains = g.chains(g.board)
    assert native.why_not(chains) == ""
    for fen in (PROMOTE, NOLOST):
        pos = position_from_fen(g, fen)
        for p in (pos, *(t.result for t in g.turns(pos))):
            assert native.turn_keys(chains, g.codes(p), p.to_move).keys() == chains.turns(g.codes(p), p.to_move).keys()
        assert count_leaves(g, pos, 3) == count_leaves(g, pos, 3, native=False)


PUSH = 'cells = [[0, 0, "own:pawn", "empty"], [0, 1, "empty", "@"], [0, 2, "any"]]\n'
IF = 'if = [{ states = ["{choice}"], op = "==", value = 0 }]\n'


@pytest.mark.parametrize(("old", "new", "match"), [
    (PUSH, PUSH + IF, "no cell lists alternatives"),
    (IF, IF.replace("{choice}", "queen"), "queen"),
    (IF, "if = 3\n", "write a list of conditions"),
    (IF, "if = []\n", "write a list of conditions")])
def test_bad_move_conditions_are_refused(old: str, new: str, match: str) -> None:
    assert old in SOURCE
    with pytest.raises(RuleError, match=match):
        parse_rules(SOURCE.replace(old, new, 1), str(DATA / "chess-quick-5x6-king-capture.toml"))


def test_rules_describe_the_move_conditions() -> None:
    from tapology.rules.describe import rules_json, rules_text

    rules = open_game("chess-quick-5x6-king-capture").rules
    assert "only where count of own:knight == 0" in rules_text(rules)
    moves = {m["name"]: m for m in rules_json(rules)["moves"]}
    assert moves["promote=rook"]["if"] == [{"states": ["own:rook"], "op": "==", "value": 0, "region": None}]
    assert "if" not in moves["pawn-push"]


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_move_conditions_with_royal_states_are_declined_by_name() -> None:
    rules = parse_rules(SOURCE.replace('notation = "chess"', 'notation = "chess"\nroyal = ["K", "k"]', 1),
                        str(DATA / "chess-quick-5x6-king-capture.toml"))
    g = RuleGame(rules, notation=notation_of(rules))
    assert "moves with count conditions in a rule set with royal states" in native.why_not(g.chains(g.board))


LINES = """
name = "lines"
grid = "square"
players = ["X", "O"]
board = "plane:3x3"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "stone" }
O = { value = 2, owner = "O", kind = "stone" }

[[move]]
name = "place"
orientations = "identity"
cells = [[0, 0, "empty", "own:stone"]]
if = [{ states = ["X", "O"], line = 2, outside = true, op = "OP", value = VALUE }]

[[end]]
kind = "no-turns"
result = "draw"
"""


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
@pytest.mark.parametrize("op", [">=", "<=", "==", "!=", ">", "<"])
@pytest.mark.parametrize("value", [0, 1, 2])
def test_a_count_of_stones_outside_lines_stops_where_it_decides_as_python_counts(tmp_path, op: str,
                                                                                  value: int) -> None:
    """A condition counting the whole board's tiles (stones in no line of two) is read until its count decides the
    comparison (engine.c count_tiles): each comparison and value counts the turns as the Python walk does."""
    path = tmp_path / "lines.toml"
    path.write_text(LINES.replace("OP", op).replace("VALUE", str(value)))
    g = open_game(str(path))
    pos = g.initial()
    for d in (3, 4):
        want = count_leaves(g, pos, d, native=False)
        assert count_leaves(g, pos, d) == want, (op, value, d)
        assert count_leaves(g, pos, d, bulk=False) == want, (op, value, d)
