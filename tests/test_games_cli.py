"""The game commands: moves, perft, rules (JSON shapes, backends, errors)."""

from __future__ import annotations

import json

from tapology.cli import main


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_perft_json(capsys) -> None:
    from tapology.rules import native

    ran = {"engine": "native"} if native.available() else {"engine": "python", "engine_why": native.reason()}
    assert _json(capsys, ["perft", "tictactoe", "--depth", "3", "--json"]) == {"depth": 3, "nodes": 504, **ran}
    assert _json(capsys, ["perft", "checkers", "--depth", "4", "--json"]) == {"depth": 4, "nodes": 1469, **ran}
    assert _json(capsys, ["perft", "tictactoe", "--board", "torus:3x3", "--depth", "0", "--json"]) == {"depth": 0,
                                                                                                    "nodes": 1, **ran}


def test_moves_backends_agree(capsys) -> None:
    out = {b: _json(capsys, ["moves", "checkers", "--backend", b, "--json"]) for b in ("propagate", "z3", "csp")}
    assert out["propagate"]["turns"] == out["z3"]["turns"] == out["csp"]["turns"]
    assert out["propagate"]["count"] == 7 and out["propagate"]["to_move"] == "black"


def test_moves_from_a_position_file(capsys, tmp_path) -> None:
    p = tmp_path / "pos.toml"
    p.write_text('board = "torus:3x3"\nto_move = "O"\nlayout = "X . . . . . . . ."\n')
    got = _json(capsys, ["moves", "tictactoe", "--position", str(p), "--json"])
    assert got["board"] == "torus:3x3" and got["to_move"] == "O" and got["count"] == 8


def test_finished_position_has_no_moves(capsys, tmp_path) -> None:
    p = tmp_path / "won.toml"
    p.write_text('to_move = "O"\nlayout = "X X X O O . . . ."\n')
    got = _json(capsys, ["moves", "tictactoe", "--position", str(p), "--json"])
    assert got["count"] == 0 and got["outcome"] == {"X": 1, "O": -1}
    assert _json(capsys, ["perft", "tictactoe", "--position", str(p), "--depth", "2", "--json"])["nodes"] == 0


def test_rules_prints_moves_and_domain(capsys) -> None:
    assert main(["rules", "checkers"]) == 0
    out = capsys.readouterr().out
    assert "move man-jump" in out and "chart domain (45 cells)" in out
    got = _json(capsys, ["rules", "chinese-checkers", "--json"])
    assert got["grid"] == "hex" and len(got["domain"]) == 13


def test_bad_inputs_exit_2(capsys, tmp_path) -> None:
    assert main(["moves", "checkers", "--backend", "magic"]) == 2
    assert "--backend" in capsys.readouterr().err
    assert main(["perft", "nosuchgame", "--depth", "1"]) == 2
    assert main(["moves", "checkers", "--board", "plane:3x3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "64 entries" in err
    p = tmp_path / "pos.toml"
    p.write_text('to_move = "Z"\n')
    assert main(["moves", "tictactoe", "--position", str(p)]) == 2
    assert "'Z'" in capsys.readouterr().err
