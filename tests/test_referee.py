"""The referee: valid_transition on bitmasks and on any game, transcripts in every format, single-cell mutations."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapology.cli import main
from tapology.errors import TranscriptError
from tapology.game import Game, Position
from tapology.games.kinrow import KInARow, popcount
from tapology.model.builtins import builtin_board
from tapology.play.playing.referee import RefereeReport, kinrow_transition, referee, valid_transition
from tapology.play.playing.transcript import read_transcript, write_transcript
from tests.helpers import examples

SURFACES = ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"]

# seed 002's example game, as (crosses, noughts) with tile i at bit 2**(8-i)
SEED002 = [(0, 0), (0b100000000, 0), (0b100000000, 0b000010000), (0b100000001, 0b000010000),
           (0b100000001, 0b000011000), (0b100100001, 0b000011000), (0b100100001, 0b000011100),
           (0b101100001, 0b000011100), (0b101100001, 0b010011100), (0b101100011, 0b010011100)]


@cache
def game(board: str, k: int = 3) -> KInARow:
    return KInARow(builtin_board(board), k)


class Generic:
    """The same game seen only through the Game contract (so the generic referee path runs)."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.name = g.name
        self.players = g.players

    def initial(self):
        return self.g.initial()

    def turns(self, pos):
        return self.g.turns(pos)

    def outcome(self, pos):
        return self.g.outcome(pos)


def playout(g: Game, rng: random.Random) -> tuple[list[Position], list[str]]:
    pos = g.initial()
    out, labels = [pos], []
    while True:
        turns = g.turns(pos)
        if not turns:
            return out, labels
        t = rng.choice(turns)
        pos = t.result
        out.append(pos)
        labels.append(t.label)


def legal(g: Game, prev: Position, nxt: Position) -> bool:
    """Brute force: is nxt among the results of prev's legal turns?"""
    return any(t.result == nxt for t in g.turns(prev))


def test_seed002_game_is_valid():
    g = game("plane:3x3")
    text = "".join(json.dumps({"crosses": c, "noughts": n}) + "\n" for c, n in SEED002)
    rep = referee(g, read_transcript(g, text))
    assert rep.valid and rep.steps == 9 and rep.outcome == {"X": 0, "O": 0}
    assert rep.turns == ["1", "5", "9", "6", "4", "7", "3", "2", "8"]


@pytest.mark.parametrize("board", [*SURFACES, "torus:4x4"])
def test_random_playouts_are_accepted(board):
    k = 4 if board == "torus:4x4" else 3
    g = game(board, k)
    rng = random.Random(board)
    for _ in range(30):
        positions, labels = playout(g, rng)
        rep = referee(g, read_transcript(g, write_transcript(g, positions)))
        assert rep.valid and rep.turns == labels and rep.outcome == g.outcome(positions[-1])
        rep = referee(g, read_transcript(g, "".join(json.dumps(lab) + "\n" for lab in labels)))
        assert rep.valid and rep.final == positions[-1]
        # the generic path agrees
        assert referee(Generic(g), read_transcript(Generic(g), write_transcript(g, positions))).valid


def _mutations(g: KInARow, positions: list[Position]):
    """Every single-cell change of every position after the start."""
    for i in range(1, len(positions)):
        p = positions[i]
        for t in range(g.n):
            for s in (0, 1, 2):
                if s != p.states[t]:
                    st = list(p.states)
                    st[t] = s
                    yield i, Position(p.board.with_states(tuple(st)), p.to_move, p.extra, p.ply)


@pytest.mark.parametrize("board", SURFACES)
def test_single_cell_mutations(board):
    """A mutated transcript is accepted iff both steps around the change are legal turns (by brute force),
    and otherwise refused at the first step that is not: every mutation of three random games (six with -m slow)."""
    _single_cell_mutations(board, 3)


@pytest.mark.slow
@pytest.mark.parametrize("board", SURFACES)
def test_single_cell_mutations_of_more_games(board):
    _single_cell_mutations(board, 6)


def _single_cell_mutations(board: str, games: int) -> None:
    g = game(board)
    rng = random.Random(7)
    checked = refused = 0
    for _ in range(games):
        positions, _ = playout(g, rng)
        for i, bad in _mutations(g, positions):
            seq = [*positions[:i], bad, *positions[i + 1:]]
            expect_first = next((j for j in range(1, len(seq)) if not legal(g, seq[j - 1], seq[j])), None)
            rep = referee(g, read_transcript(g, write_transcript(g, seq)))
            checked += 1
            if expect_first is None:
                assert rep.valid
            else:
                refused += 1
                assert not rep.valid and rep.step == expect_first, (i, rep.reason)
                assert rep.reason
            # the fast and the generic referee agree step by step
            for j in (i, i + 1):
                if j < len(seq):
                    fast = kinrow_transition(g, seq[j - 1], seq[j]).valid
                    assert fast == valid_transition(Generic(g), seq[j - 1], seq[j]).valid
    assert refused > 0.9 * checked


@pytest.mark.parametrize(("seq", "reason"), [
    ([(0, 0), (0b100000000, 0), (0, 0b000010000)], "tile 1: its X was erased"),
    ([(0, 0), (0b100000000, 0), (0, 0b110000000)], "tile 1: its X was changed to O"),
    ([(0, 0), (0b110000000, 0)], "2 marks were made (tiles 1, 2)"),
    ([(0, 0), (0b100000000, 0), (0b100000000, 0)], "no mark was made"),
    ([(0, 0), (0, 0b100000000)], "O claimed tile 1, but it is X's turn"),
    ([(0, 0), (0b100000000, 0), (0b100000000, 0b010000000), (0b100000000, 0b011000000)], "it is X's turn"),
])
def test_reasons(seq, reason):
    g = game("plane:3x3")
    text = "\n".join(json.dumps({"crosses": c, "noughts": n}) for c, n in seq)
    rep = referee(g, read_transcript(g, text))
    assert not rep.valid and reason in rep.reason, rep.reason
    data = rep.to_json()
    assert data["valid"] is False and data["step"] == len(seq) - 1 and data["reason"] == rep.reason


def test_overlapping_masks_are_refused():
    g = game("plane:3x3")
    with pytest.raises(TranscriptError, match="share a tile"):
        read_transcript(g, json.dumps({"crosses": 1, "noughts": 1}))


def test_play_after_the_end_is_refused():
    g = game("plane:3x3")
    rep = referee(g, read_transcript(g, "\n".join(json.dumps(s) for s in ["1", "4", "2", "5", "3", "6"])))
    assert not rep.valid and rep.step == 6 and "already over: X has the line 1-2-3" in rep.reason
    rep = referee(g, read_transcript(g, '"5"\n"5"'))
    assert rep.step == 2 and rep.reason == "tile 5 is already taken by X"
    rep = referee(g, read_transcript(g, '"zz"'))
    assert rep.step == 1 and "not a tile" in rep.reason


def test_start_must_be_the_start():
    g = game("plane:3x3")
    rep = referee(g, read_transcript(g, '{"cells": "X.. ... ..."}\n"5"'))
    assert not rep.valid and rep.step == 0
    rep = referee(g, read_transcript(g, '{"cells": "X.. ... ..."}\n"5"'), any_start=True)
    assert rep.valid and rep.steps == 1


def test_report_json_shape():
    ok = RefereeReport(True, 3, turns=["1", "2", "3"])
    assert ok.to_json()["valid"] is True
    bad = RefereeReport(False, 5, 5, 6, "no mark was made")
    assert bad.to_json() == {"valid": False, "step": 5, "line": 6, "reason": "no mark was made"}


def test_transcript_errors():
    g = game("plane:3x3")
    with pytest.raises(TranscriptError, match=r"transcript:1: not JSON"):
        read_transcript(g, "{oops")
    with pytest.raises(TranscriptError, match=r"transcript:2: 8 tile states"):
        read_transcript(g, '{"cells": "........."}\n{"states": [0,0,0,0,0,0,0,0]}')
    with pytest.raises(TranscriptError, match="to_move 'Z'"):
        read_transcript(g, '{"cells": ".........", "to_move": "Z"}')
    with pytest.raises(TranscriptError, match="cell character"):
        read_transcript(g, '{"cells": "....?...."}')


def test_cli_referee(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    good.write_text("".join(json.dumps({"crosses": c, "noughts": n}) + "\n" for c, n in SEED002))
    assert main(["referee", "tictactoe", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True
    bad = tmp_path / "bad.jsonl"
    rows = [{"crosses": c, "noughts": n} for c, n in SEED002]
    rows[5]["noughts"] |= 0b001000000  # a second O (tile 3) in one turn
    bad.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["referee", "tictactoe", str(bad), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data == {"valid": False, "step": 5, "line": 6, "reason": data["reason"]} and "2 marks" in data["reason"]
    assert main(["referee", "tictactoe", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
    (tmp_path / "junk.jsonl").write_text("[1, 2]\n")
    assert main(["referee", "tictactoe", str(tmp_path / "junk.jsonl")]) == 2
    assert "junk.jsonl:1" in capsys.readouterr().err


def _rule_game(name: str, board: str | None = None):
    from tapology.games.registry import load_game
    from tapology.rules import RuleGame

    lg = load_game(name, board, fast=False)
    assert isinstance(lg.game, RuleGame)
    return lg.game


def test_rule_engine_playouts_and_mutations():
    """Through the rule engine (the generic referee): playouts are accepted, single-cell changes refused
    exactly where brute force says."""
    rg = _rule_game("tictactoe", "torus:3x3")
    rng = random.Random(11)
    for _ in range(5):
        positions, labels = playout(rg, rng)
        rep = referee(rg, read_transcript(rg, write_transcript(rg, positions)))
        assert rep.valid and rep.turns == labels
    positions, _ = playout(rg, rng)
    for i in range(1, len(positions)):
        p = positions[i]
        for t in range(len(p.states)):
            st = list(p.states)
            st[t] = (st[t] + 1) % 3
            bad = Position(p.board.with_states(tuple(st)), p.to_move, p.extra, p.ply)
            seq = [*positions[:i], bad, *positions[i + 1:]]
            expect = next((j for j in range(1, len(seq)) if not legal(rg, seq[j - 1], seq[j])), None)
            rep = referee(rg, read_transcript(rg, write_transcript(rg, seq)))
            assert rep.valid == (expect is None) and (expect is None or rep.step == expect)


def test_checkers_playouts_are_accepted():
    rg = _rule_game("checkers")
    rng = random.Random(3)
    for _ in range(2):
        pos = rg.initial()
        positions, labels = [pos], []
        for _ in range(30):
            turns = rg.turns(pos)
            if not turns:
                break
            t = rng.choice(turns)
            pos = t.result
            positions.append(pos)
            labels.append(t.label)
        text = write_transcript(rg, positions)
        rep = referee(rg, read_transcript(rg, text))
        assert rep.valid and rep.turns == labels
        # one piece moved back: refused with what changed
        rows = [json.loads(x) for x in text.splitlines()]
        rows[3]["states"] = rows[2]["states"]
        rep = referee(rg, read_transcript(rg, "\n".join(json.dumps(r) for r in rows)))
        assert not rep.valid and rep.step == 3 and "no legal turn of" in rep.reason


def test_tictactopology_transcripts():
    """Tape turns change the board: positions carry the new gluing table, and the referee reads it."""
    rg = _rule_game("tictactopology")
    rng = random.Random(2)
    pos = rg.initial()
    positions, labels = [pos], []
    for i in range(6):
        turns = rg.turns(pos)
        tapes = [t for t in turns if t.label.startswith("tape ")]
        t = rng.choice(tapes if i % 2 == 0 and tapes else turns)
        pos = t.result
        positions.append(pos)
        labels.append(t.label)
    assert any(lab.startswith("tape ") for lab in labels)
    text = write_transcript(rg, positions)
    assert '"glue"' in text
    rep = referee(rg, read_transcript(rg, text))
    assert rep.valid and rep.turns == labels
    rep = referee(rg, read_transcript(rg, "".join(json.dumps(lab) + "\n" for lab in labels)))
    assert rep.valid and rep.final == positions[-1]
    # forget the first taping in every later position: refused at the first step
    rows = [json.loads(x) for x in text.splitlines()]
    first_tape = labels.index(next(lab for lab in labels if lab.startswith("tape "))) + 1
    for r in rows[first_tape:]:
        r.pop("glue", None)
    rep = referee(rg, read_transcript(rg, "\n".join(json.dumps(r) for r in rows)))
    assert not rep.valid and rep.step == first_tape


# ---- property test: the bitmask referee against enumeration, on arbitrary pairs of positions ----


@settings(max_examples=examples(6))  # cheap, and invalid pairs are rare: many
@given(board=st.sampled_from(SURFACES), a=st.lists(st.integers(0, 2), min_size=9, max_size=9),
       b=st.lists(st.integers(0, 2), min_size=9, max_size=9), same=st.booleans(), flip=st.integers(0, 8))
def test_transition_property(board, a, b, same, flip):
    g = game(board)
    if same:  # mostly near pairs: b is a with one tile changed
        b = list(a)
        b[flip] = (b[flip] + 1) % 3
    x0 = sum(1 << i for i, s in enumerate(a) if s == 1)
    o0 = sum(1 << i for i, s in enumerate(a) if s == 2)
    x1 = sum(1 << i for i, s in enumerate(b) if s == 1)
    o1 = sum(1 << i for i, s in enumerate(b) if s == 2)
    if popcount(x0) - popcount(o0) not in (0, 1):
        return
    prev, nxt = g.position(x0, o0), g.position(x1, o1)
    if popcount(x1) - popcount(o1) not in (0, 1):
        nxt = Position(nxt.board, 0, (), nxt.ply)
    v = kinrow_transition(g, prev, nxt)
    assert v.valid == legal(g, prev, nxt)
    assert v.valid or v.reason
