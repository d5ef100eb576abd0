"""Chess skirmish (RBG ``skirmish``): a score-based end — after 100 turns, or when the player to move has no turn,
the side with more pieces wins — and a king that is only a piece.  Counts against RBG: tests/data/perft."""

from __future__ import annotations

from pathlib import Path

from tapology.games import open_game
from tapology.games.registry import open_position

PLY97 = str(Path(__file__).parent / "data" / "perft" / "skirmish-ply97.toml")


def _play(g, pos, *labels: str):
    for lab in labels:
        pos = g.parse_turn(pos, lab).result
    return pos


def test_the_game_stops_after_the_hundredth_turn_and_the_piece_counts_decide() -> None:
    g, pos = open_position("skirmish", None, PLY97)
    pos = _play(g, pos, "e4", "d5")
    assert pos.ply == 99 and g.outcome(pos) is None and g.turns(pos)
    even = _play(g, pos, "a3")  # the 100th turn takes nothing: 16 pieces each
    assert even.ply == 100 and not g.turns(even)
    assert g.outcome(even) == {"white": 0, "black": 0}
    took = _play(g, pos, "exd5")  # the 100th turn takes a pawn: White has more pieces
    assert g.outcome(took) == {"white": 1, "black": -1}


def test_taking_the_king_does_not_end_the_game() -> None:
    g = open_game("skirmish")
    pos = _play(g, g.initial(), "f3", "e5", "g4", "Qh4", "a3", "Qxe1")
    assert g.outcome(pos) is None and g.turns(pos)
    assert g.perft(g.initial(), 3) == 8902


def test_a_side_with_no_turn_ends_the_game_by_the_piece_counts() -> None:
    g = open_game("skirmish")
    sd = g.rules.state_index
    b = g.board
    states = [0] * len(b.tiles)  # Black keeps only a pawn blocked by a white pawn; White that pawn and its king
    e4, e5 = b.tiles.index("37"), b.tiles.index("29")
    h1 = b.tiles.index("64")
    states[e4], states[e5], states[h1] = sd["P"].value, sd["p"].value, sd["K"].value
    frames = [0] * len(states)
    frames[e5] = 2
    pos = g.make_position(b, states, frames, 1, 10)
    assert not g.turns(pos)
    assert g.outcome(pos) == {"white": 1, "black": -1}
