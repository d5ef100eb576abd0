"""The roguelike example: a house bigger inside than outside, a staircase, a portal opened in play, field of view."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np

from tapology.model.boardfile import load_board
from tapology.model.tape import parse_tape
from tapology.model.walker import parse_moves, start_walker, walk_path
from tapology.render.fov import draw_glyphs, field_of_view, opaque_states
from tapology.render.unfold import unfold

EX = Path(__file__).parent.parent / "examples" / "roguelike"
VILLAGE = str(EX / "village.toml")


def atlas():
    at = load_board(VILLAGE).atlas()
    assert at.conflict is None
    return at


def walk(at, start, steps):
    return walk_path(at, start_walker(at, start), parse_moves(at.grid, steps))


def reachable(at, start, avoid):
    seen = {start}
    todo = [start_walker(at, start)]
    while todo:
        w = todo.pop()
        for v in at.grid.directions:
            n = w.step(at, v)
            if n is not None and at.tiles[n.tile] not in seen | avoid:
                seen.add(at.tiles[n.tile])
                todo.append(n)
    return seen


def test_house_is_bigger_inside_than_outside():
    at = atlas()
    b = at.board()
    p = walk(at, "g53", "up,up,up")
    assert [b.tiles[t] for t in p.tiles] == ["g53", "D", "H", "h43"] and p.end.frame == 0
    # outside: the footprint is the hole the door faces (3 x 2 cells, no tiles)
    cells = {pl[0] for pl in b.placement if pl is not None}  # type: ignore[union-attr]
    footprint = {(x, y) for x in (2, 3, 4) for y in (-2, -3)}
    assert not footprint & cells
    inside = reachable(at, "H", {"D", "s1"})
    assert len(inside) == 29 > len(footprint)
    # and the way out is the way in
    assert walk(at, "h43", "down,down,down").end.tile == b.tiles.index("g53")


def test_staircase_with_ordinary_steps():
    at = atlas()
    b = at.board()
    p = walk(at, "h26", "right,right,right,right,right")
    assert [b.tiles[t] for t in p.tiles] == ["h26", "s1", "s2", "t1", "t2", "u00"] and p.blocked is None
    back = walk(at, "u00", "left,left,left,left,left")
    assert b.tiles[back.end.tile] == "h26"


def test_portal_opened_in_play_and_refusals():
    at = atlas()
    b = at.board()
    before = at.chart.copy()
    # a portal onto a side that is already taped is refused, and changes nothing
    conflict = at.tape([parse_tape("g27.up=A.up", b)])
    assert conflict is not None and "g27" in conflict.describe(b)
    assert np.array_equal(at.chart, before)
    # a portal between two dead-end alcoves is allowed
    assert at.tape([parse_tape("P.up=A.up", b)]) is None
    p = walk(at, "g17", "up,up,up")
    assert [at.tiles[t] for t in p.tiles] == ["g17", "P", "A", "u02"]
    assert p.positions[2].frame == 2  # through a half-turn taping the walker comes out turned round
    # now A.up is used: a second portal onto it is refused
    assert at.tape([parse_tape("g16.up=A.up", at.board())]) is not None
    # the view from P looks through the portal into the upstairs room
    v = unfold(at, start_walker(at, "P"), 3)
    assert at.tiles[v.lookup[(0, 2)][0]] == "u02"


def test_field_of_view_through_the_door():
    at = atlas()
    b = at.board()
    trees = opaque_states(b, {4})
    w = start_walker(at, "g53")
    fov = field_of_view(at, w, 5, trees)
    seen = {b.tiles[t] for t in fov.tiles}
    assert {"D", "H", "h43", "h33"} <= seen  # through the door into the house
    assert "g13" not in seen  # the house (a hole in the map) hides the green behind it
    # the tree at g12 hides what lies straight behind it
    w = start_walker(at, "g11")
    fov3 = field_of_view(at, w, 3, trees)
    assert fov3.lookup.get((1, 0)) is not None and (2, 0) not in fov3.lookup and (3, 0) not in fov3.lookup
    # the breadth-first view is not flat here (the room overlaps the green); the rays pick what is seen
    assert unfold(at, start_walker(at, "g53"), 5).branched
    pic = draw_glyphs(fov, b, {0: ".", 1: "+", 4: "T"})
    assert "@" in pic and "+" in pic


def test_play_script_runs(capsys):
    runpy.run_path(str(EX / "play.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "inside there are 29 tiles" in out
    assert "opened: P.up=A.up" in out and out.count("refused") == 2
    assert "h26 -> s1 -> s2 -> t1 -> t2 -> u00" in out
