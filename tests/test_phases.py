"""Phases (``[[phase]]``): turns before the regular play with their own order of players and their own entry
moves — Fox and Hounds' opening, where the fox places itself and then moves before the hounds' first turn."""

from __future__ import annotations

import pytest

from tapology.errors import RuleError
from tapology.games import open_game
from tapology.rules import RuleGame, native
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves
from tapology.rules.playouts import playout_end, run_playouts

TOY = """
name = "toy"
players = ["a", "b"]
board = "plane:1x5"

[states]
empty = 0
x = { value = 1, owner = "a", kind = "man" }
o = { value = 2, owner = "b", kind = "man" }

[[phase]]
name = "set-up"
plies = 3
order = ["b", "a", "a"]
moves = ["drop"]

[[move]]
name = "drop"
cells = [[0, 0, "empty", "own:man"]]

[[move]]
name = "step"
orientations = "rotations"
cells = [[0, 0, "own", "empty"], [1, 0, "empty", "@"]]
"""


def test_phase_order_then_rotation() -> None:
    r = parse_rules(TOY)
    assert [r.phase_at(p) for p in range(5)] == [0, 0, 0, -1, -1]
    # b, a, a in the phase; then the first player (a), then the players in rotation
    who = [r.phases[0].order[0]]
    for ply in range(6):
        who.append(r.next_player(who[-1], ply))
    assert who == [1, 0, 0, 0, 1, 0, 1]
    assert [r.previous_player(who[p], p) for p in range(1, 7)] == who[:6]


def test_phase_moves_start_turns_only_in_their_phase() -> None:
    g = RuleGame(parse_rules(TOY))
    pos = g.initial()
    assert pos.to_move == 1
    seen = []
    for _ in range(3):  # the set-up: drops only, by b, a, a
        turns = g.turns(pos)
        assert len(turns) == len([s for s in g.board.states if s == 0]) - len(seen)
        seen.append(g.players[pos.to_move])
        pos = turns[0].result
    assert seen == ["b", "a", "a"]
    assert pos.to_move == 0 and pos.ply == 3
    labels = [t.label for t in g.turns(pos)]  # the regular play: steps only, no drop
    assert labels and all("-" in lab for lab in labels)


def test_fox_and_hounds_opens_with_two_fox_turns() -> None:
    g = open_game("fox-and-hounds")
    pos = g.initial()
    movers = []
    for _ in range(4):
        movers.append(g.players[pos.to_move])
        pos = g.turns(pos)[0].result
    assert movers == ["fox", "fox", "hounds", "fox"]
    assert [g.perft(g.initial(), d) for d in (1, 2, 3)] == [4, 7, 49]


@pytest.mark.parametrize("backend", ["z3", "csp"])
def test_backends_read_the_phase(backend: str) -> None:
    g = open_game("fox-and-hounds")
    pos = g.initial()
    for _ in range(3):
        assert {t.label for t in g.turns(pos, backend)} == {t.label for t in g.turns(pos)}
        pos = g.turns(pos)[-1].result


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_reads_the_phase_from_the_ply() -> None:
    """Turns, perft and playouts natively, phase by phase, against the chain walk: the set-up's order and moves, then
    the first player and the rotation (a toy with an order of three), and Fox and Hounds' counts."""
    g = RuleGame(parse_rules(TOY))
    chains = g.chains(g.board)
    eng = native.engine(chains)
    assert eng is not None and native.why_not(chains, perft=True) == ""
    pos = g.initial()
    for _ in range(5):
        codes, phase = g.codes(pos), g.rules.phase_at(pos.ply)
        assert set(eng.turns(chains, codes, pos.to_move, phase) or ()) == set(chains.turns(codes, pos.to_move,
                                                                                           phase=phase))
        assert [count_leaves(g, pos, d) for d in (1, 2, 3, 4)] == [count_leaves(g, pos, d, native=False)
                                                                   for d in (1, 2, 3, 4)]
        turns = g.turns(pos)
        if not turns:
            break
        pos = turns[-1].result
    assert pos.ply >= 4  # past the set-up
    fox = open_game("fox-and-hounds")
    assert [count_leaves(fox, fox.initial(), d) for d in (1, 2, 3, 4)] == [4, 7, 49, 182]
    assert native.engine_used(fox.chains(fox.board), perft=True) == ("native", "")
    run = run_playouts(fox, fox.initial(), count=20, seed=3, max_plies=3)
    assert run.engine == "native" and run.plies == 60
    end = playout_end(fox, fox.initial(), seed=3, max_plies=2)  # the fox placed, then moved: hounds to move
    assert (end.ply, fox.players[end.to_move]) == (2, "hounds") and sum(s == 1 for s in end.board.states) == 1


@pytest.mark.parametrize(("entry", "msg"), [
    ('plies = 0\nmoves = ["drop"]', "plies must be"),
    ('plies = 1\nmoves = ["jump"]', "unknown move 'jump'"),
    ('plies = 1\norder = ["c"]\nmoves = ["drop"]', "unknown player 'c'"),
    ('plies = 1\nmoves = ["drop"]\nwhen = 3', "unknown key 'when'"),
])
def test_bad_phases_are_refused_naming_the_entry(entry: str, msg: str) -> None:
    text = TOY.split("[[phase]]")[0] + "[[phase]]\n" + entry + "\n" + TOY.split('moves = ["drop"]\n', 1)[1]
    with pytest.raises(RuleError, match=msg) as err:
        parse_rules(text, "toy.toml")
    assert "[[phase]]" in str(err.value) and "toy.toml:" in str(err.value)


def test_a_claim_game_with_a_phase_is_not_taken_for_plain_k_in_a_row(tmp_path) -> None:
    """X claims twice before O's first turn: the k-in-a-row engine (strict alternation) must not play it."""
    from tapology.games import load_game
    from tapology.games.registry import DATA

    text = (DATA / "tictactoe.toml").read_text()
    path = tmp_path / "x-twice.toml"
    path.write_text(text.replace('name = "tictactoe"', 'name = "x-twice"') + '\n[[phase]]\nplies = 1\norder = ["X"]\n')
    loaded = load_game(str(path))
    assert loaded.kinrow is None
    g = loaded.generic
    pos = g.turns(g.initial())[0].result
    assert g.players[pos.to_move] == "X" and len(g.turns(pos)) == 8  # a phase naming no moves plays the claims
    named = tmp_path / "x-first.toml"
    named.write_text(text + '\n[[phase]]\nplies = 1\norder = ["X"]\nmoves = ["claim"]\n')
    g = load_game(str(named)).generic
    assert g.turns(g.turns(g.initial())[0].result) == []  # a move a phase names starts turns only in it
