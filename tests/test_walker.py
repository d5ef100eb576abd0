"""Walkers (seed 004): named steps read in the walker's frame, turns and mirrorings, paths, the walk command."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tapology.cli import main
from tapology.errors import TapologyError, WalkError
from tapology.model.atlas import Atlas
from tapology.model.boardfile import load_board
from tapology.model.builtins import builtin_board
from tapology.model.group import SQUARE_D4
from tapology.model.walk import step as core_step
from tapology.model.walker import SQUARE_STEPS, Walker, parse_move, parse_moves, start_walker, walk_path
from tests.helpers import atlas_of

from .strategies import boards


def walk(at: Atlas, start: str, steps: str, frame: int = 0):
    return walk_path(at, start_walker(at, start, frame), parse_moves(at.grid, steps))


# ---- the acceptance cases -------------------------------------------------------------------
@pytest.mark.parametrize("m,n", [(1, 1), (2, 3), (3, 3), (3, 5), (4, 2)])
def test_torus_round_trip_keeps_frame(m, n):
    at = atlas_of(f"torus:{m}x{n}")
    for t in range(m * n):
        for f in range(8):
            w = Walker(t, f)
            # the walker's right is the tile's f(right): a row (n steps) or a column (m steps)
            axis = SQUARE_D4.act(f, (1, 0))
            k = n if axis[1] == 0 else m
            p = walk_path(at, w, parse_moves(at.grid, ",".join(["right"] * k)))
            assert p.end == w and p.blocked is None
            assert len(set(p.tiles[:-1])) == k


@pytest.mark.parametrize("kind", ["klein", "mobius"])
@pytest.mark.parametrize("m,n", [(1, 2), (3, 3), (4, 5), (5, 2)])
def test_going_round_the_flipped_direction_comes_back_mirrored(kind, m, n):
    at = atlas_of(f"{kind}:{m}x{n}")
    for t in range(m * n):
        row, col = divmod(t, n)
        p = walk_path(at, Walker(t, 0), parse_moves(at.grid, ",".join(["right"] * n)))
        end = p.end
        assert p.blocked is None
        assert end.mirrored(at.grid)
        assert end.frame == 6  # flip across the horizontal axis: up and down swap, right stays right
        assert end.tile == (m - 1 - row) * n + col  # row r comes back as row M+1-r
        twice = walk_path(at, Walker(t, 0), parse_moves(at.grid, ",".join(["right"] * (2 * n))))
        assert twice.end == Walker(t, 0)


def test_mobius_round_trip_in_the_cli(capsys):
    code = main(["walk", "mobius:3x4", "--from", "6", "--steps", "right,right,right,right", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["path"] == ["6", "7", "8", "5", "6"] and data["tile"] == "6"
    assert data["frame"] == 6 and data["mirrored"] is True


def test_walk_json_shape(capsys):
    code = main(["walk", "torus:3x3", "--from", "5", "--steps", "up,up,right", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["path"] == ["5", "2", "8", "9"] and data["tile"] == "9" and data["frame"] == 0
    assert data["blocked"] is None and data["frames"] == [0, 0, 0, 0]


def test_hex_walks():
    at = atlas_of("hex-torus:4x3")
    for t in range(12):
        assert walk_path(at, Walker(t, 0), parse_moves(at.grid, "e,e,e")).end == Walker(t, 0)
    at = atlas_of("hex-mobius:3x4")
    p = walk(at, "6", "e,e,e,e")
    assert p.end.tile == at.tiles.index("6") and p.end.mirrored(at.grid)
    assert walk_path(at, p.end, parse_moves(at.grid, "e,e,e,e")).end == Walker(at.tiles.index("6"), 0)


# ---- steps, turns, mirrors --------------------------------------------------------------------
def test_diagonals_are_single_chart_cells():
    at = atlas_of("torus:3x3")
    assert walk(at, "5", "up-right").end == Walker(at.tiles.index("3"), 0)
    assert walk(at, "5", "down-left").end == Walker(at.tiles.index("7"), 0)
    assert walk(at, "1", "ul").end == Walker(at.tiles.index("9"), 0)
    plus = load_board("torus:3x3", "plus").atlas()
    with pytest.raises(WalkError, match="outside the chart domain"):
        walk(plus, "5", "up-right")


def test_turns_compose_as_in_the_seed():
    at = atlas_of("torus:4x4")
    g = at.grid
    five = start_walker(at, "6")
    # turning right then stepping up goes where a plain step right goes
    assert five.turn(g, 1).step(at, (0, 1)) == Walker(at.tiles.index("7"), 1)
    assert walk(at, "6", "turn-right,up").end.tile == at.tiles.index("7")
    # four right turns, two turn-arounds, two mirrors are nothing
    for steps in ("turn-right,turn-right,turn-right,turn-right", "turn-around,turn-around", "mirror,mirror",
                  "turn-left,turn-right"):
        assert walk(at, "6", steps).end == five
    # mirrored, a turn to the right turns the other way in the tile's frame (seed: rotateBy adds rotation·mirrored)
    m = walk(at, "6", "mirror,turn-right,up").end
    assert m.tile == at.tiles.index("5")
    # mirror swaps left and right but keeps up
    assert walk(at, "6", "mirror,right").end.tile == at.tiles.index("5")
    assert walk(at, "6", "mirror,up").end.tile == at.tiles.index("2")


def test_seed_position_model_agrees():
    """Seed 004's (rotatedBy, mirrored) on direction numbers 0 = down, counter-clockwise, as a naive reference."""
    at = atlas_of("torus:5x5")
    seed_dirs = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
    rnd = random.Random(4)
    for _ in range(200):
        rot = 2 * rnd.randrange(4)
        mir = rnd.choice((1, -1))
        # the frame that maps seed direction d to m*d + R
        frame = next(f for f in range(8)
                     if all(SQUARE_D4.act(f, seed_dirs[d]) == seed_dirs[(d * mir + rot) % 8] for d in range(8)))
        w = Walker(rnd.randrange(25), frame)
        for _k in range(6):
            op = rnd.choice(["move", "rotate", "reflect"])
            if op == "move":
                d = rnd.randrange(8)
                real = (d * mir + rot) % 8  # on a torus every connection is plain
                w2 = w.step(at, seed_dirs[d])
                assert w2 is not None and w2.frame == w.frame
                assert w2 == Walker(w.step(at, seed_dirs[d]).tile, frame)  # type: ignore[union-attr]
                assert core_step(at, w.tile, 0, seed_dirs[real]) == (w2.tile, 0)
                w = w2
            elif op == "rotate":
                r = 2 * rnd.randrange(4)  # seed: rotatedBy += r * mirrored (r counter-clockwise eighths)
                rot = (rot + r * mir) % 8
                g = {0: 0, 2: 3, 4: 2, 6: 1}[r]  # counter-clockwise quarter turns as elements
                w = w.turn(at.grid, g)
            else:
                mir = -mir
                w = w.turn(at.grid, 4)
            frame = next(f for f in range(8)
                         if all(SQUARE_D4.act(f, seed_dirs[d]) == seed_dirs[(d * mir + rot) % 8] for d in range(8)))
            assert w.frame == frame


def klein_reference(m: int, n: int, start: int, vectors: list[tuple[int, int]]) -> tuple[list[int], bool]:
    """Tiles visited on klein:MxN computed in the plane with the built-in's deck group (a naive reference)."""
    x, y = start % n, -(start // n)
    flips = 0
    sign = 1  # the walker's vertical sense in the plane after glides
    out = [start]
    for vx, vy in vectors:
        x, y = x + vx, y + sign * vy
        while not 0 <= x < n:
            x += -n if x >= n else n
            y = -y - (m - 1)
            sign = -sign
            flips += 1
        y = -((-y) % m)
        out.append(-y * n + x)
    return out, flips % 2 == 1


def test_klein_walks_match_the_plane_reference():
    rnd = random.Random(7)
    for m, n in ((3, 3), (2, 5), (4, 3)):
        at = atlas_of(f"klein:{m}x{n}")
        for _ in range(60):
            names = [rnd.choice(list(SQUARE_STEPS)) for _ in range(rnd.randrange(1, 15))]
            start = rnd.randrange(m * n)
            p = walk_path(at, Walker(start, 0), parse_moves(at.grid, names))
            ref, mirrored = klein_reference(m, n, start, [SQUARE_STEPS[s] for s in names])
            assert p.tiles == ref
            assert p.end.mirrored(at.grid) == mirrored


@given(boards(), st.data())
def test_walking_back_returns(board, data):
    at = Atlas.of(board)
    if at.conflict is not None:
        return
    dirs = board.grid.directions
    t = data.draw(st.integers(0, len(board.tiles) - 1))
    f = data.draw(st.integers(0, board.order - 1))
    vecs = data.draw(st.lists(st.sampled_from(dirs), max_size=8))
    w = Walker(t, f)
    seen = [w]
    for v in vecs:
        nxt = w.step(at, v)
        if nxt is None:
            break
        seen.append(nxt)
        w = nxt
    for v in reversed(vecs[: len(seen) - 1]):
        w = w.step(at, (-v[0], -v[1]))  # type: ignore[assignment]
        assert w is not None
    assert w == seen[0]


def test_agrees_with_the_unfolded_view():
    """A step (the core ``walk.step``) lands where the view unfolded around the walker (its own tables) shows."""
    from tapology.render.unfold import unfold

    at = atlas_of("klein:3x4")
    for t in range(12):
        for f in range(8):
            view = unfold(at, Walker(t, f), 1)
            shown = {c: (u, g) for c, u, g in zip(view.cells, view.tiles, view.frames, strict=True)}
            for v in SQUARE_STEPS.values():
                got = Walker(t, f).step(at, v)
                assert (got.tile, got.frame) == core_step(at, t, f, v) == shown[v]  # type: ignore[union-attr]


# ---- paths that stop, bad input -------------------------------------------------------------------
def test_blocked_path(capsys):
    at = atlas_of("plane:3x3")
    p = walk(at, "5", "right,right,up")
    assert p.blocked == 1 and p.end.tile == at.tiles.index("6")
    assert p.to_json(at)["blocked"] == {"move": 2, "step": "right"}
    code = main(["walk", "plane:3x3", "--from", "5", "--steps", "right,right", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["path"] == ["5", "6"]


@pytest.mark.parametrize("args,needle", [
    (["--from", "55", "--steps", "up"], "'55'"),
    (["--from", "5", "--steps", "upp"], "'upp'"),
    (["--from", "5", "--frame", "8", "--steps", "up"], "--frame 8"),
    (["--from", "5", "--steps", ","], "at least one step"),
    (["--from", "5", "--steps", "up-right", "--domain", "plus"], "up-right"),
])
def test_walk_bad_input(capsys, args, needle):
    code = main(["walk", "torus:3x3", *args])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and err.count("\n") == 1


def test_move_names():
    g = builtin_board("torus:2x2").grid
    assert parse_move(g, "UR").vector == (1, 1) and parse_move(g, "cw").turn == 1
    h = builtin_board("hex-torus:2x2").grid
    assert parse_move(h, "ne").vector == (0, 1) and parse_move(h, "mirror").turn == 6
    with pytest.raises(TapologyError, match="unknown step"):
        parse_move(h, "up")
