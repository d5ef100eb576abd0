"""The CLI's foundation commands: group, show, check, tape — answers, JSON, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapology.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples" / "boards"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_group_json(capsys):
    code, out, _ = run(capsys, "group", "square", "--json")
    data = json.loads(out)
    assert code == 0 and data["order"] == 8 and data["table"][1][4] == 7
    code, out, _ = run(capsys, "group", "hex", "--json")
    assert json.loads(out)["order"] == 12


def test_show_json(capsys):
    code, out, _ = run(capsys, "show", str(EXAMPLES / "tictactoe-turned.toml"), "--json", "--chart", "5")
    data = json.loads(out)
    assert code == 0 and data["grid"] == "square" and data["tiles"] == [str(i) for i in range(1, 10)]
    cells = {tuple(c["cell"]): (c["tile"], c["orientation"]) for c in data["charts"]["5"]}
    assert cells[(1, 0)] == ("4", 4) and cells[(-1, -1)] == ("9", 5) and len(cells) == 9


def test_show_ascii(capsys):
    code, out, _ = run(capsys, "show", "torus:2x2")
    assert code == 0 and "* 1 *" in out and "chart 4" in out


def test_check(capsys):
    code, out, _ = run(capsys, "check", "klein:3x3", "--json")
    assert code == 0 and json.loads(out) == {"consistent": True, "tiles": 9, "conflict": None}


def test_check_inconsistent_file(capsys, tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("layout = '''\n1 2\n3 .\n'''\ntapes = ['1.up=3.right']\n")
    code, out, _ = run(capsys, "check", str(f), "--json")
    assert code == 1 and json.loads(out)["consistent"] is False


def test_tape_refused_json_matches_the_issue(capsys, tmp_path):
    out_file = tmp_path / "out.toml"
    code, out, _ = run(capsys, "tape", str(EXAMPLES / "L.toml"), "1.up=3.right", "-o", str(out_file), "--json")
    data = json.loads(out)
    assert code == 1 and data["allowed"] is False
    c = data["conflict"]
    assert c["tile"] == "3" and c["cell"] == [1, 1]
    assert [(x["tile"], x["orientation"]) for x in c["claims"]] == [("2", 0), ("2", 3)]
    assert c["because"] == ["1.up=3.right"]
    assert not out_file.exists()


def test_tape_allowed_writes_the_board(capsys, tmp_path):
    out_file = tmp_path / "strip.toml"
    code, out, _ = run(capsys, "tape", str(EXAMPLES / "strip7.toml"), "3.up=4.down", "-o", str(out_file), "--json")
    assert code == 0 and json.loads(out)["allowed"] is True
    code, out, _ = run(capsys, "show", str(out_file), "--chart", "4", "--json")
    cells = {tuple(c["cell"]): c["tile"] for c in json.loads(out)["charts"]["4"]}
    assert [[cells[(x, y)] for x in (-1, 0, 1)] for y in (1, 0, -1)] == [["4", "5", "6"], ["3", "4", "5"], ["2", "3", "4"]]


def test_tape_onto_an_occupied_side_names_the_occupant(capsys):
    code, out, _ = run(capsys, "tape", "plane:3x3", "1.right=3.left")
    assert code == 1 and "tile 2" in out and "tile 3" in out


def test_flipped_and_cell_tapings(capsys):
    code, out, _ = run(capsys, "tape", "plane:3x3", "3.right=1.left~", "--json")
    assert code == 0  # a half-twisted slit band: only the top row meets, and consistently
    code, out, _ = run(capsys, "tape", "plane:1x3", "3.right=1.left~", "--json")
    assert code == 0 and json.loads(out)["tapes"] == ["3.right=1.left~"]
    code, out, _ = run(capsys, "tape", "plane:3x3", "3@1,1=7/0", "--json")
    assert code == 0


@pytest.mark.parametrize("args,needle", [
    (["show", "donut:3x3"], "unknown built-in board 'donut:3x3'"),
    (["show", "nowhere.toml"], "nowhere.toml"),
    (["tape", "plane:3x3", "1.up=12.down"], "unknown tile '12'"),
    (["tape", "plane:3x3", "1.north=2.down"], "unknown side 'north'"),
    (["tape", "plane:3x3", "1@1,1=2/9"], "orientation 9 out of range"),
    (["tape", "plane:3x3", "1@5,5=2/0"], "outside the chart domain"),
    (["show", "plane:3x3", "--colour"], "No such option: --colour"),
    (["group", "octagon"], "unknown grid 'octagon'"),
    (["show", "plane:3x3", "--chart", "99"], "unknown tile '99'"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, needle):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_input_writes_nothing(capsys, tmp_path):
    target = tmp_path / "keep.toml"
    target.write_text("layout = '1 2'\n")
    code, _, _ = run(capsys, "tape", str(target), "1.up=9.down", "-o", str(target))
    assert code == 2 and target.read_text() == "layout = '1 2'\n"
    code, _, _ = run(capsys, "tape", str(target), "1.right=2.left~", "-o", str(target))
    assert code == 1 and target.read_text() == "layout = '1 2'\n"


def test_malformed_file_is_one_line(capsys, tmp_path):
    f = tmp_path / "m.toml"
    f.write_text("layout = '''\n1 2\n3 %\n'''\n")
    code, _, err = run(capsys, "check", str(f))
    assert code == 2 and "layout line 3" in err and str(f) in err
