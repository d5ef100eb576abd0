"""The propagator: closure properties, incremental taping, and the vectorised path against the worklist."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapology.model.atlas import Atlas, tape_board
from tapology.model.board import Board, Taping
from tapology.model.builtins import builtin_board
from tapology.model.tape import board_tapings, format_fact, parse_tape

from .strategies import boards, plane_cutouts, random_glue_boards, tapings

SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])


def naive_closure(board: Board) -> tuple[bool, dict]:
    """The least fixpoint by brute force: apply every transition to every pair of facts until nothing changes."""
    grp = board.grid.group
    dom = board.domain
    facts = {(t, (0, 0)): (t, 0) for t in range(len(board.tiles))}
    todo = [(f.tile, f.cell, f.other, f.orientation) for f in board.base_facts()]
    for t, c, u, o in todo:
        if facts.setdefault((t, c), (u, o)) != (u, o):
            return False, {}
    changed = True
    while changed:
        changed = False
        for (t, c), (u, o) in list(facts.items()):
            oi = grp.inv[o]
            for (t2, p), (v, r) in list(facts.items()):
                if t2 != t:
                    continue
                q = grp.act(oi, board.grid.translate(c, p))
                if q not in dom.index:
                    continue
                new = (v, grp.mul[r][oi])
                old = facts.get((u, q))
                if old is None:
                    facts[(u, q)] = new
                    changed = True
                elif old != new:
                    return False, {}
    return True, facts


def atlas_facts(atlas: Atlas) -> dict:
    return {(t, c): v for t in range(len(atlas.tiles)) for c, v in atlas.chart_of(t).items()}


@SETTINGS
@given(random_glue_boards())
def test_vectorised_worklist_and_naive_agree(board):
    auto = Atlas.of(board)
    work = Atlas.of(board, method="worklist")
    ok, facts = naive_closure(board)
    assert auto.consistent == work.consistent == ok
    if ok:
        assert (auto.chart == work.chart).all()
        assert atlas_facts(work) == facts


@SETTINGS
@given(plane_cutouts())
def test_a_board_cut_from_the_plane_is_consistent(board):
    assert Atlas.of(board).consistent


@SETTINGS
@given(plane_cutouts(), st.randoms(use_true_random=False))
def test_cut_and_retaped_as_drawn_is_the_same_board(board, rnd):
    loose = Board(board.grid, board.domain, board.tiles, board.states,
                  tuple(tuple([-1] * len(board.grid.directions)) for _ in board.tiles))
    tps = board_tapings(board)
    rnd.shuffle(tps)
    atlas = Atlas.of(loose)
    for tp in tps:
        assert atlas.tape([tp]) is None
    assert atlas.board() == board


@SETTINGS
@given(boards(), st.data())
def test_reorienting_every_tile_keeps_consistency(board, data):
    turns = data.draw(st.lists(st.integers(0, board.order - 1), min_size=len(board.tiles), max_size=len(board.tiles)))
    perm = data.draw(st.permutations(list(range(len(board.tiles)))))
    other = board.relabel(perm, turns)
    a, b = Atlas.of(board), Atlas.of(other)
    assert a.consistent and b.consistent
    # the same number of facts, and relabelling back gives the board again
    assert (a.chart >= 0).sum() == (b.chart >= 0).sum()
    inv = [0] * len(perm)
    for t, p in enumerate(perm):
        inv[p] = t
    back_turns = [board.grid.group.inv[turns[inv[t]]] for t in range(len(perm))]
    assert other.relabel(inv, back_turns).glue == board.glue


@SETTINGS
@given(boards(), st.data())
def test_closure_does_not_depend_on_taping_order(board, data):
    tps = data.draw(tapings(board))
    order = data.draw(st.permutations(tps))
    a = Atlas.of(board)
    b = Atlas.of(board)
    ca = a.tape(tps)
    cb = b.tape(order)
    assert (ca is None) == (cb is None)
    if ca is None:
        assert (a.chart == b.chart).all()
    # one at a time gives the same verdict as all at once when every step is allowed
    c = Atlas.of(board)
    steps = [c.tape([tp]) for tp in tps]
    if all(s is None for s in steps):
        assert ca is None and (c.chart == a.chart).all()


@SETTINGS
@given(boards(), st.data())
def test_a_refused_taping_changes_nothing(board, data):
    tps = data.draw(tapings(board))
    atlas = Atlas.of(board)
    before = atlas.chart.copy()
    before_board = atlas.board()
    conflict = atlas.tape(tps)
    if conflict is not None:
        assert np.array_equal(atlas.chart, before)
        assert atlas.board() == before_board
        assert set(conflict.because) <= {t.label for t in tps}
    new, c2 = tape_board(board, tps)
    assert (c2 is None) == (conflict is None)
    if c2 is not None:
        assert new is board


@SETTINGS
@given(boards(), st.data())
def test_taped_and_unexplained_refusals_agree_with_tape(board, data):
    """``taped`` gives the board that ``copy().tape()`` then ``board()`` give (None on a refusal) and leaves the atlas
    as it was; a refusal not explained names the same cell and the same two claims."""
    tps = data.draw(tapings(board))
    atlas = Atlas.of(board)
    before = atlas.chart.copy()
    got = atlas.taped(tps)
    assert np.array_equal(atlas.chart, before)
    full = atlas.copy()
    conflict = full.tape(tps)
    assert (got is None) == (conflict is not None)
    if conflict is None:
        assert got is not None and (got, got.glue, got.extra) == (full.board(), full.board().glue, full.board().extra)
    else:
        quiet = atlas.copy().tape(tps, explain=False)
        assert quiet is not None and (quiet.tile, quiet.cell) == (conflict.tile, conflict.cell)
        assert [(c.other, c.orientation) for c in quiet.claims] == [(c.other, c.orientation) for c in conflict.claims]
        assert quiet.because == []


@SETTINGS
@given(boards(), st.data())
def test_incremental_taping_equals_closing_from_scratch(board, data):
    tps = data.draw(tapings(board, max_size=2))
    atlas = Atlas.of(board)
    if atlas.tape(tps) is None:
        fresh = Atlas.of(atlas.board(), method="worklist")
        assert fresh.consistent
        assert (fresh.chart == atlas.chart).all()


def test_occupied_side_is_refused_naming_the_occupant():
    b = builtin_board("plane:3x3")
    atlas = Atlas.of(b)
    conflict = atlas.tape([parse_tape("1.right=3.left", b)])
    assert conflict is not None
    assert conflict.tile == 0 and conflict.cell == (1, 0)
    assert {b.tiles[c.other] for c in conflict.claims} == {"2", "3"}


def test_retaping_what_is_there_is_allowed_and_changes_nothing():
    b = builtin_board("plane:3x3")
    atlas = Atlas.of(b)
    assert atlas.tape([parse_tape("1.right=2.left", b)]) is None
    assert atlas.board() == b


def test_cell_fact_portal():
    b = builtin_board("plane:3x3")
    atlas = Atlas.of(b)
    # a corner paste: tile 9 seen diagonally up-right of tile 1 is refused (7... no: 1's up-right is empty)
    tp = parse_tape("3@1,1=7/0", b)
    assert tp.label == "3@1,1=7/0"
    assert atlas.tape([tp]) is None
    assert atlas.at(6, (-1, -1)) == (2, 0)
    assert tp.fact in atlas.board().extra


def test_taping_labels_round_trip():
    b = builtin_board("klein:3x3")
    for tp in board_tapings(b):
        again = parse_tape(tp.label, b)
        assert again.fact == tp.fact
        assert format_fact(b, again.fact) == tp.label
    assert isinstance(board_tapings(b)[0], Taping)


def test_large_torus_closes_by_the_vectorised_path():
    b = builtin_board("torus:30x30")
    atlas = Atlas.of(b)
    assert atlas.consistent
    assert (atlas.chart >= 0).all()
