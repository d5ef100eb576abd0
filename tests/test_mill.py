"""The mill game (RBG ``theMillGame``) and the mechanics it needs: the morris board as tiles glued side to side,
conditions on moves (``if``), conditions on lines (``line``, ``outside``) and on the tile a move starts or ends on
(``here``), and end rules and counters of the regular play only (``after-phases``).  Counts against RBG:
tests/data/perft/the-mill-game.perft."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tapology.errors import RuleError
from tapology.games import open_game
from tapology.games.registry import DATA, open_position
from tapology.rules import RuleGame, native
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end

PERFT = Path(__file__).parent / "data" / "perft"
BOARD = DATA / "boards" / "nine-mens-morris.toml"


def _position(name: str):
    return open_position("the-mill-game", None, str(PERFT / f"the-mill-game-{name}.toml"))


def _labels(g, pos) -> set[str]:
    return {t.label for t in g.turns(pos)}


def test_the_board_is_24_points_and_its_lines_are_the_16_mills() -> None:
    g = open_game("the-mill-game")
    assert len(g.board.tiles) == 24
    comp = g.compiled(g.board)
    mills = {line for per in comp.side_lines(3) for line in per}
    assert len(mills) == 16
    names = {frozenset(g.board.tiles[t] for t in line) for line in mills}
    assert frozenset({"a1", "a4", "a7"}) in names and frozenset({"b4", "a4", "c4"}) in names
    assert frozenset({"c4", "d4", "e4"}) not in names  # the centre is no point


def test_the_board_file_is_consistent_only_with_unit_charts(tmp_path: Path) -> None:
    """Two steps round a corner of the board reach different points in the two orders: a box of charted cells
    would have to hold both, so the board charts only the unit steps (``domain = "plus"``)."""
    from tapology.reports.boards import check_report  # what `tapology check` prints

    boxed = tmp_path / "box.toml"
    boxed.write_text(BOARD.read_text().replace('domain = "plus"', 'domain = "box"'))
    assert check_report(str(BOARD)).consistent
    assert not check_report(str(boxed)).consistent


def test_placing_a_mill_removes_a_man_and_only_then() -> None:
    g = open_game("the-mill-game")
    pos = g.initial()
    for lab in ("a1", "b2", "a4", "d2"):
        pos = g.parse_turn(pos, lab).result
    labels = _labels(g, pos)
    assert {"a7xb2", "a7xd2"} <= labels and "a7" not in labels  # closing a1-a4-a7 must remove
    assert "g7" in labels and not any(lab.startswith("g7x") for lab in labels)


def test_a_man_in_a_mill_is_removed_only_when_every_man_is_in_one() -> None:
    g, pos = _position("moving")  # black: a1-d1-g1 a mill; b2, f4, e5 in none
    taken = {lab.partition("x")[2] for lab in _labels(g, pos) if "x" in lab}
    assert taken == {"b2", "f4", "e5"}
    rules = g.rules
    states = list(pos.board.states)
    for name in ("b2", "f4", "e5"):
        states[g.board.tiles.index(name)] = 0
    only_mill = g.make_position(g.board, states, [0] * len(states), pos.to_move, pos.ply)
    taken = {lab.partition("x")[2] for lab in _labels(g, only_mill) if "x" in lab}
    assert taken == {"a1", "d1", "g1"}
    assert rules.move_index["remove-any"].conditions[0].outside


def test_three_men_fly_and_more_step() -> None:
    g, pos = _position("flying")  # white has three men
    labels = _labels(g, pos)
    assert "c3-g7xf4" in labels and "a7-b6" in labels  # flying anywhere
    g2, pos2 = _position("moving")
    assert all(lab.split("x")[0] in {"a7-a4", "d7-d6", "g7-g4", "b4-b6", "c4-c5", "b4-a4", "c4-c3"}
               for lab in _labels(g2, pos2))


def test_fewer_than_three_men_lose_only_after_the_placement() -> None:
    g = open_game("the-mill-game")
    pos = g.initial()
    assert g.outcome(pos) is None and g.outcome(g.turns(pos)[0].result) is None
    g, pos = _position("last-men")
    ended = g.parse_turn(pos, "g4-g7xa1").result
    assert g.outcome(ended) == {"white": 1, "black": -1}


def test_the_stagnation_counter_counts_the_moving_phase_only() -> None:
    g = open_game("the-mill-game")
    pos = g.initial()
    for _ in range(18):
        pos = g.turns(pos)[0].result
    assert pos.ply == 18 and pos.counters == (0,)
    pos = g.turns(pos)[0].result
    assert pos.counters == (1,)
    g, pos = _position("stagnation")  # the counter at 18: two quiet turns draw
    quiet = g.parse_turn(g.parse_turn(pos, "d7-d6").result, "e5-d5").result
    assert g.outcome(quiet) == {"white": 0, "black": 0}


def test_move_conditions_are_read_before_the_move_and_here_is_its_origin() -> None:
    rules = parse_rules((DATA / "the-mill-game.toml").read_text(), str(DATA / "the-mill-game.toml"))
    step = rules.move_index["step"]
    assert step.conditions and step.conditions[0].op == ">"
    g, pos = _position("flying")
    free = dataclasses.replace(rules, moves=tuple(dataclasses.replace(m, conditions=()) for m in rules.moves))
    from tapology.rules import RuleGame

    g2 = RuleGame(free, "nine-mens-morris")
    pos2 = g2.make_position(g2.board, list(pos.board.states), [0] * 24, pos.to_move, pos.ply)
    assert len(g2.turns(pos2)) > len(g.turns(pos))  # without the conditions, three men also step


@pytest.mark.parametrize("name", ["moving", "flying", "stagnation"])
def test_csp_reads_move_and_line_conditions(name: str) -> None:
    g, pos = _position(name)
    assert _labels(g, pos) == {t.label for t in g.turns(pos, "csp")}


def test_z3_declines_by_name() -> None:
    g, pos = _position("moving")
    with pytest.raises(RuleError, match="with count conditions"):
        g.turns(pos, "z3")


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
@pytest.mark.parametrize("name", ["moving", "flying", "stagnation", "last-men"])
def test_the_native_engine_reads_line_and_here_conditions(name: str) -> None:
    """Mills through the tile a man ended on (a link's ``here``), men in no mill (a move's ``here``), men off every
    line (``outside``): the native turns of each position and of its children are the chain walk's."""
    g, pos = _position(name)
    chains = g.chains(pos.board)
    eng = native.engine(chains)
    assert eng is not None
    for p in [pos, *(t.result for t in g.turns(pos))]:
        codes, phase = g.codes(p), g.rules.phase_at(p.ply)
        assert set(eng.turns(chains, codes, p.to_move, phase) or ()) == set(chains.turns(codes, p.to_move,
                                                                                           phase=phase))
    start = g.initial()  # the placement: a man placed into a mill removes one
    for p in [start, *(t.result for t in g.turns(start)[:3])]:
        codes = g.codes(p)
        assert set(native.turn_keys(chains, codes, p.to_move, 0)) == set(chains.turns(codes, p.to_move, phase=0))


@pytest.mark.parametrize(("cond", "msg"), [
    ('{ states = ["own"], outside = true }', "needs line"),
    ('{ states = ["own"], line = 1 }', "line must be"),
])
def test_bad_line_conditions_are_refused(cond: str, msg: str) -> None:
    text = (DATA / "the-mill-game.toml").read_text().replace('if = [{ states = ["own"], op = ">", value = 3 }]',
                                                             f"if = [{cond}]")
    with pytest.raises(RuleError, match=msg):
        parse_rules(text, "mill.toml")


def test_here_is_refused_in_end_rules() -> None:
    text = (DATA / "the-mill-game.toml").read_text() + '\n[[end]]\nkind = "count"\nall = [{ states = ["own"], here = true }]\n'
    with pytest.raises(RuleError, match="here = true"):
        parse_rules(text, "mill.toml")


def test_move_conditions_hold_in_every_perft_path() -> None:
    """Each side may drop a man while it has fewer than two: the fifth ply has no turn (the straight-line kernels,
    the chain walk and the native engine's decline must all read the condition)."""
    from tapology.rules import RuleGame

    toy = parse_rules("""
name = "toy"
players = ["a", "b"]
board = "plane:3x3"
[states]
empty = 0
x = { value = 1, owner = "a", kind = "man" }
o = { value = 2, owner = "b", kind = "man" }
[[move]]
name = "drop"
orientations = "identity"
cells = [[0, 0, "empty", "own:man"]]
if = [{ states = ["own"], op = "<", value = 2 }]
""")
    g = RuleGame(toy)
    pos = g.initial()
    assert [g.perft(pos, d) for d in (1, 2, 3, 4, 5)] == [9, 72, 504, 3024, 0]
    from tapology.rules.perft import count_leaves

    assert [count_leaves(g, pos, d, native=False, bulk=False) for d in (4, 5)] == [3024, 0]
    assert g.perft(pos, 5, rbg=True) == 0


COUNTED = """
name = "counted"
players = ["a", "b"]
board = "plane:1x6"
[states]
empty = 0
x = { value = 1, owner = "a" }
y = { value = 2, owner = "b" }
[initial]
layout = "x . . y . ."
[[move]]
name = "step"
orientations = "identity"
cells = [[0, 0, "own", "empty"], [1, 0, "empty", "@"]]
[[move]]
name = "hop"
class = "capture"
orientations = "identity"
cells = [[0, 0, "own", "empty"], [1, 0, "empty", "@"]]
[[counter]]
name = "calm"
reset-classes = ["capture"]
[[end]]
kind = "counter"
counter = "calm"
op = ">="
value = 2
result = "draw"
"""


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_carries_the_counters() -> None:
    """The stagnation counter natively, from positions that hold it (the draw two quiet turns away), and the
    counters of a playout's end; where a turn's chains disagree on what their classes reset (a step and a capture
    to one result: the least label, the step's, decides), the native engine leaves the count to Python."""
    g, pos = _position("stagnation")
    assert pos.counters == (18,) and native.engine_used(g.chains(pos.board), perft=True) == ("native", "")
    assert [count_leaves(g, pos, d) for d in (1, 2, 3)] == [count_leaves(g, pos, d, native=False) for d in (1, 2, 3)]
    assert count_leaves(g, pos, 3) == 183  # RBG's, the draw read on the second ply
    end = playout_end(g, pos, seed=1, max_plies=1)
    assert end.counters in ((19,), (0,)) and end.ply == pos.ply + 1
    toy = RuleGame(parse_rules(COUNTED))
    start = toy.initial()
    eng = native.engine(toy.chains(toy.board))
    assert eng is not None and eng.perft(toy.codes(start), 0, 0, 3) is None  # the step's label is the least
    assert count_leaves(toy, start, 3) == count_leaves(toy, start, 3, native=False) == 0  # drawn after two plies


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_after_phases_ends_are_not_read_at_the_start_even_without_phases() -> None:
    """An end rule read after the phases skips ply 0, phases or not (fewer than three men would end the empty
    board at once): the native engine as the chain walk."""
    g = RuleGame(dataclasses.replace(open_game("the-mill-game").rules, phases=()), "nine-mens-morris")
    start = g.initial()
    assert [count_leaves(g, start, d) for d in (1, 2)] == [count_leaves(g, start, d, native=False) for d in (1, 2)]
    assert count_leaves(g, start, 1) == 24


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
@pytest.mark.parametrize("name", ["moving", "stagnation"])
def test_each_ply_of_a_moving_playout_is_one_of_the_walks_turns(name: str) -> None:
    """A native playout's picked step counted unwritten (engine.c step_cond_leaf's shut steps) is made from its
    entry's writes without a walk (sstep_pick): each ply of a playout from the moving phase, its codes, player and
    counters, one of the turns the chain walk lists."""
    g, pos = _position(name)
    for index in range(4):
        prev = pos
        for k in range(1, 13):
            end = playout_end(g, pos, seed=3, index=index, max_plies=k)
            if end.ply == prev.ply:
                break
            got = (tuple(g.codes(end)), end.to_move, end.counters)
            assert got in {(tuple(g.codes(t.result)), t.result.to_move, t.result.counters) for t in g.perft_turns(prev)}
            prev = end
