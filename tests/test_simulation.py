"""Every shipped game, random playouts to the end on each built-in board it supports: no error, and the turns
listed are legal under the z3 enumeration (every position for small games, a sample of positions for the large
ones in the default run; with -m slow every position, Chinese checkers every 5th: a z3 enumeration of its
jump chains takes seconds)."""

from __future__ import annotations

import random

import pytest

from tapology.games import SHIPPED, load_rules
from tapology.rules import RuleGame

# positions cross-checked with z3 in the default run: every k-th ply (1 = all)
SAMPLE = {"tictactoe": 1, "tictactopology": 1, "checkers": 15, "chinese-checkers": 150, "chess": 150,
          "chess-king-capture": 150, "chinese-checkers-6": 1000,
          "paper-soccer": 1000}  # a shipped game not named here: every 20th
PLAYOUTS = {"tictactoe": 3, "tictactopology": 2, "checkers": 1, "chinese-checkers": 1, "chess": 1}
# the placement games: z3 on the start position only where its encoding is big (every ply with -m slow)
SAMPLE.update({"reversi": 1000, "connect4": 7, "hex": 40, "gomoku-free-style": 1000, "gomoku-standard": 1000,
               "connect6": 1000, "yavalath": 20,
               "go-nopass": 1000, "go": 1000})
# z3 does not model links with count conditions, captures by liberties nor move conditions: python-constraint
# cross-checks these
CROSS = {"connect6": "csp", "go-nopass": "csp", "go": "csp", "the-mill-game": "csp", "chessQuick5x6_kingCapture": "csp"}
CROSS["pentago"] = "csp"  # nor block moves (pentago's quadrant turn, gess's footprints)
SAMPLE["pentago"] = 10
CROSS["gess"] = "csp"
SAMPLE["gess"] = 1000
SAMPLE["skirmish"] = 50  # its random games run to the 100-ply limit: z3 (about a second a position) at plies 0, 50, 100
# played out with -m slow only: connect6 (tens of thousands of two-stone turns a ply), go (hundreds of plies on 19x19)
SLOW_GAMES = {"connect6", "go-nopass", "go", "gess", "breakthru"}  # gess: 458 turns a ply, a chain end rule read in Python
PLANE_ONLY = {"amazons"}
# python-constraint and z3 do not model a slide flying over the chain's stops (breakthru: played out unchecked);
# amazons' chains of up to 18 moves over 100 tiles are beyond a z3 encoding per ply: tests/test_shots.py checks both
# enumerations against the walk on 4x4 boards
CROSS.update({"breakthru": "", "amazons": ""})
PLAYOUTS.update({"reversi": 1, "connect4": 2, "hex": 1, "gomoku-free-style": 1, "gomoku-standard": 1, "connect6": 1,
                 "yavalath": 2, "go-nopass": 1, "go": 1})


# chess and skirmish on the 96-tile closed boards: z3's encoding of one position takes seconds, so the default run cross-checks
# the start position and plays on to the end (every ply with -m slow, and tests/test_chess_surfaces.py -m slow
# compares z3 and python-constraint at depth 1 and 2 there)
SAMPLE_ON = {(g, b): 1000 for g in ("chess", "skirmish") for b in ("torus:12x8", "klein:12x8")}
HEAVY = {"double-chess"}  # a random game on 192 tiles takes minutes: -m slow only, sampled
# arimaa: thousands to tens of thousands of four-step turns a ply, listed natively in a fraction of a second but
# labelled in Python (a second or more a ply: every chain's label path is read for the least), so a random game of
# up to 200 turns would take most of an hour: played for a bounded number of plies (its set-up, then a few turns
# of play: one for each side after the set-up, one for each side from the fixed position; more with -m slow), not
# to the end; python-constraint and z3 cannot pose its anywhere chains of four
# steps per ply (tests/test_arimaa.py checks its turns against a brute-force reading of RBG's rules, the native
# engine and python-constraint against the walk on a small rule set with a step budget)
PLIES = {"arimaa": 34, "arimaa-fixed-position": 2}
PLIES_SLOW = {"arimaa": 52, "arimaa-fixed-position": 20}
CROSS.update({"arimaa": "", "arimaa-fixed-position": ""})


def _cases(slow: bool) -> list:
    out = []
    for name in SHIPPED:
        if slow and name in HEAVY:
            continue
        for board in load_rules(name).boards:
            away = name in PLANE_ONLY and not board.startswith("plane")
            away = away or (name in PLIES and not board.startswith("plane"))
            marks = [pytest.mark.slow] if slow or name in HEAVY or name in SLOW_GAMES or away else []
            out.append(pytest.param(name, board, slow, id=f"{name}-{board}{'-every-ply' if slow else ''}", marks=marks))
    return out


def _z3_labels(g: RuleGame, pos) -> set[str]:
    backend = CROSS.get(g.rules.name.partition(":")[0], "z3")
    return {t.label for t in g.turns(pos, backend) if not t.label.startswith("tape ")}


def _z3_tape_ok(turn) -> bool:
    """A tape turn's board is consistent for z3 too (the taping z3 encoding of the solver package)."""
    from tapology.solver.z3backend import z3_consistent

    return z3_consistent(turn.result.board)


@pytest.mark.parametrize(("name", "board", "every_ply"), _cases(False) + _cases(True))
def test_random_playouts_to_the_end(name: str, board: str, every_ply: bool) -> None:
    g = RuleGame(load_rules(name), board)
    rng = random.Random(f"{name}/{board}")
    every = (5 if name.startswith("chinese-checkers") else 1) if every_ply else SAMPLE_ON.get((name, board), SAMPLE.get(name, 20))
    checked = 0
    for _ in range(PLAYOUTS.get(name, 1)):
        pos = g.initial()
        while True:
            turns = g.turns(pos)
            labels = [t.label for t in turns]
            assert len(labels) == len(set(labels))
            if pos.ply % every == 0:
                moves = {lab for lab in labels if not lab.startswith("tape ")}
                if CROSS.get(name, "z3"):
                    assert moves == _z3_labels(g, pos)  # every listed turn is legal for z3, and z3 finds no other
                tapes = [t for t in turns if t.label.startswith("tape ")]
                if tapes and (every_ply or checked < 2):
                    assert _z3_tape_ok(rng.choice(tapes))
                checked += 1
            if not turns:
                break
            assert g.outcome(pos) is None
            pos = rng.choice(turns).result
            if pos.ply >= (PLIES_SLOW if every_ply else PLIES).get(name, pos.ply + 1):
                break
        if name in PLIES:
            continue  # stopped after a bounded number of plies (see PLIES)
        out = g.outcome(pos)
        assert out is not None and set(out) == set(g.players)
        n = len(g.players)
        assert sorted(out.values()) in ([0] * n, [-1] * (n - 1) + [1])  # a draw, or one winner (the others lose)
    assert checked >= 1
