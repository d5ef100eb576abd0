"""Bad input on every CLI command: one line on stderr naming the input, exit code 2, no traceback, nothing
written or overwritten on disk; refusals leave files as they were; every question's ``--json`` parses."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tapology.cli import main

L_BOARD = "layout = '''\n1 2\n3 .\n'''\n"
RECORD = '{{"format": "tapology-game/1", "game": "{game}", "board": "plane:3x3", "turns": {turns}{more}}}'

FILES: dict[str, str | bytes] = {
    # boards
    "ok.toml": L_BOARD,
    "incons.toml": L_BOARD + "tapes = ['1.up=3.right']\n",
    "bin.toml": b"\xff\xfe\x00garbage\x80",
    "badtoml.toml": "layout = '''\n1 2\n",
    "unknownkey.toml": "layot = '1 2'\n",
    "badtile.toml": "layout = '''\n1 2$\n'''\n",
    "badorient.toml": "layout = '''\n1@9 2\n'''\n",
    "badtape.toml": "layout = '1 2'\ntapes = ['1.up=7.down']\n",
    "badside.toml": "layout = '1 2'\ntapes = ['1.north=2.down']\n",
    "badgrid.toml": "grid = 'triangle'\nlayout = '1 2'\n",
    "baddomain.toml": "domain = 'box:-1'\nlayout = '1 2'\n",
    "badstates.toml": "layout = '1 2'\n[states]\n9 = 1\n",
    "duptile.toml": "layout = '1 1'\n",
    "empty.toml": "",
    # position files (tictactoe on plane:3x3)
    "pos_bad.toml": "layout = 'x\n",
    "pos_key.toml": "foo = 1\n",
    "pos_len.toml": "layout = 'X O'\n",
    "pos_state.toml": "layout = '''\nQ . .\n. . .\n. . .\n'''\n",
    "pos_tomove.toml": "to_move = 'zed'\n",
    "pos_ply.toml": "ply = -3\n",
    "pos_board.toml": "board = 'nope:3'\n",
    "pos_boardint.toml": "board = 5\n",
    # rule files
    "rules_bad.toml": "name = 'x'\n[[move]\n",
    "rules_key.toml": "name = 'x'\nfoo = 1\n",
    "rules_domain.toml": "name = 'x'\nplayers = ['A', 'B']\ndomain = 'box:9'\n"
                         "[states]\nempty = 0\n[[move]]\nname = 'm'\npattern = '*empty => *empty'\n",
    # transcripts (tictactoe unless said)
    "tr_bad.jsonl": "{not json\n",
    "tr_list.jsonl": "[1,2]\n",
    "tr_short.jsonl": '{"cells": "XXXXX"}\n',
    "tr_states.jsonl": '{"states": ["a"]}\n',
    "tr_state9.jsonl": '{"states": [0,0,0,0,0,0,0,0,9]}\n"1"\n',
    "tr_tomove.jsonl": '{"cells": ".........", "to_move": 7}\n',
    "tr_turnnull.jsonl": '{"turn": null}\n',
    "tr_extra.jsonl": '{"states": [0,0,0,0,0,0,0,0,0], "extra": [1]}\n',
    "tr_ck_state.jsonl": json.dumps({"states": [99] + [0] * 63}) + '\n"18-25"\n',
    "tr_ck_extra.jsonl": json.dumps({"states": [0] * 64, "extra": [[1, 2], "x"]}) + '\n"18-25"\n',
    "tr_ck_frame.jsonl": json.dumps({"states": [0] * 64, "extra": [9] * 64}) + '\n"18-25"\n',
    "tr_facts.jsonl": json.dumps({"states": [0] * 9, "extra_facts": [[0, [0, 1], 99, 0]]}) + '\n"1"\n',
    "tr_facts_cell.jsonl": json.dumps({"states": [0] * 9, "extra_facts": [[0, [5, 5], 1, 0]]}) + '\n"1"\n',
    # game records
    "rec_bad.json": "{oops",
    "rec_fmt.json": '{"format": "other"}',
    "rec_turn.json": RECORD.format(game="tictactoe", turns='["zz"]', more=""),
    "rec_players.json": RECORD.format(game="tictactoe", turns="[]", more=', "players": 5'),
    "rec_other.json": RECORD.format(game="checkers", turns="[]", more=""),
    # something to (not) overwrite
    "existing.txt": "KEEP ME\n",
}

# (argv, exit code, a substring the one-line error must contain)
BAD: list[tuple[str, str]] = [
    # group / show / check / tape
    ("group triangle", "'triangle'"),
    ("group square --bogus", "--bogus"),
    ("show nosuch.toml", "nosuch.toml"),
    ("show nosuch:3x3", "'nosuch:3x3'"),
    ("show torus:0x3", "'torus:0x3'"),
    ("show torus:99999x99999", "'torus:99999x99999'"),
    ("show adir", "adir"),
    ("show bin.toml", "bin.toml: cannot read"),
    ("show badtoml.toml", "badtoml.toml: not valid TOML"),
    ("show unknownkey.toml", "'layot'"),
    ("show badtile.toml", "badtile.toml: layout line 2"),
    ("show badorient.toml", "orientation 9 out of range"),
    ("show badtape.toml", "unknown tile '7'"),
    ("show badside.toml", "unknown side 'north'"),
    ("show badgrid.toml", "'triangle'"),
    ("show baddomain.toml", "'box:-1'"),
    ("show badstates.toml", "badstates.toml: states"),
    ("show duptile.toml", "drawn twice"),
    ("show empty.toml --json", "empty.toml"),
    ("show ok.toml --chart 9", "--chart 9"),
    ("show ok.toml --domain box:99", "'box:99'"),
    ("check ok.toml --backend foo", "--backend 'foo'"),
    ("check bin.toml --json", "bin.toml"),
    ("tape ok.toml 1.up=9.down -o existing.txt", "TAPE 1 '1.up=9.down'"),
    ("tape ok.toml 1.up", "TAPE 1 '1.up'"),
    ("tape ok.toml 1@0,1=2/99 -o existing.txt", "orientation 99 out of range"),
    ("tape ok.toml 1@5,5=2/0", "outside the chart domain"),
    ("tape ok.toml 1.up=2.down --backend nope -o existing.txt", "--backend 'nope'"),
    ("tape ok.toml 1.up=2.down -o missing/x.toml", "missing/x.toml"),
    ("tape ok.toml 1.up=2.down -o adir", "-o adir"),
    ("tape ok.toml 1.up=3.right -o adir", "-o adir"),
    ("tape ok.toml 1.up=2.down --chart 9 -o existing.txt", "--chart 9"),
    ("tape ok.toml", "TAPE"),
    # topology
    ("classify nosuch.toml", "nosuch.toml"),
    ("classify incons.toml", "incons.toml: the board is inconsistent"),
    ("signature bin.toml", "bin.toml"),
    ("same ok.toml nosuch.toml", "nosuch.toml"),
    ("synthesize --tiles -1", "--tiles -1"),
    ("synthesize --tiles 2 --grid triangle", "'triangle'"),
    ("synthesize --tiles 2 --domain zz", "'zz'"),
    ("synthesize --tiles 2 --domain badtoml.toml", "--domain badtoml.toml"),
    ("synthesize --tiles 2 --limit 0", "--limit 0"),
    ("synthesize --tiles 2 --timeout -1", "--timeout"),
    ("synthesize --tiles 2 --engine foo", "--engine 'foo'"),
    ("synthesize --tiles 2 --boundary -1", "--boundary -1"),
    ("synthesize --tiles 2 --from incons.toml", "incons.toml"),
    ("synthesize --tiles 2 -o existing.txt", "-o existing.txt"),
    ("synthesize", "--tiles"),
    # rule sets: moves, perft, rules
    ("moves nosuchgame", "nosuchgame"),
    ("moves adir", "adir"),
    ("moves rules_bad.toml", "rules_bad.toml: not valid TOML"),
    ("moves rules_key.toml", "rules_key.toml:2: unknown key 'foo'"),
    ("moves rules_domain.toml", "rules_domain.toml:3: domain"),
    ("moves ok.toml", "ok.toml:1: unknown key 'layout'"),
    ("moves tictactoe:3,3,1", "'tictactoe:3,3,1'"),
    ("moves tictactoe --board nosuch:3x3", "'nosuch:3x3'"),
    ("moves tictactoe --board incons.toml", "incons.toml"),
    ("moves tictactoe --board hex-plane:3x3", "hex-plane:3x3"),
    ("moves tictactoe --backend foo", "--backend 'foo'"),
    ("moves tictactoe --position nosuch.toml", "nosuch.toml: no such position file"),
    ("moves tictactoe --position pos_bad.toml", "pos_bad.toml: not valid TOML"),
    ("moves tictactoe --position pos_key.toml", "pos_key.toml: unknown key 'foo'"),
    ("moves tictactoe --position pos_len.toml", "pos_len.toml: layout has 2 entries"),
    ("moves tictactoe --position pos_state.toml", "pos_state.toml: layout entry 1 'Q'"),
    ("moves tictactoe --position pos_tomove.toml", "pos_tomove.toml: to_move"),
    ("moves tictactoe --position pos_ply.toml", "pos_ply.toml: ply"),
    ("moves tictactoe --position pos_board.toml", "pos_board.toml: board 'nope:3'"),
    ("moves tictactoe --position pos_boardint.toml", "pos_boardint.toml: board must be"),
    ("moves checkers --board torus:3x3", "'torus:3x3' has 9 tiles"),
    ("playouts tictactoe --count -1", "--count -1"),
    ("playouts nosuch --count 2", "nosuch"),
    ("playouts tictactoe", "--seconds or --count"),
    ("perft tictactoe --depth -1", "--depth -1"),
    ("perft tictactoe --depth x", "--depth"),
    ("perft tictactoe", "--depth"),
    ("fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1'", "field 4 (en passant)"),
    ("fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1'", "field 1 (pieces)"),
    ("fen --game checkers", "no chess notation"),
    ("fen nosuch.toml", "nosuch.toml"),
    ("moves chess --position 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'", "field 2 (side to move)"),
    ("moves chess --fen --board mobius:8x8 --position pos_bad.toml", "pos_bad.toml"),
    ("moves tictactoe --fen", "--fen"),
    ("referee chess --pgn nosuch.pgn", "nosuch.pgn: no such PGN file"),
    ("referee chess", "--pgn"),
    ("rules nosuch", "nosuch"),
    ("rules bin.toml", "bin.toml"),
    ("rules tictactoe --json --bogus", "--bogus"),
    # play, solve, referee, verify
    ("play nosuch", "nosuch"),
    ("play tictactoe --x robot", "--x 'robot'"),
    ("play tictactoe --strength -2", "--strength"),
    ("play tictactoe --strength strong", "'strong'"),
    ("play tictactoe --seed x", "--seed"),
    ("play tictactoe:3,3,1", "'tictactoe:3,3,1'"),
    ("play tictactoe --load nosuch.json", "nosuch.json: no such game record"),
    ("play tictactoe --load rec_bad.json", "rec_bad.json:1: not JSON"),
    ("play tictactoe --load rec_fmt.json", "rec_fmt.json: not a game record"),
    ("play tictactoe --load rec_turn.json", "--load rec_turn.json: turn 1 ('zz')"),
    ("play tictactoe --load rec_players.json", "rec_players.json: 'players'"),
    ("play tictactoe --load rec_other.json", "--load rec_other.json: a record of checkers"),
    ("play tictactoe --load adir", "adir"),
    ("play tictactoe --x ai --o ai --strength random --save missing/dir/rec.json", "missing/dir/rec.json"),
    ("play tictactoe --x ai --o ai --strength random --save adir", "adir: is a folder"),
    ("solve nosuch", "nosuch"),
    ("solve tictactoe --board incons.toml", "incons.toml"),
    ("solve rules_bad.toml", "rules_bad.toml"),
    ("referee tictactoe nosuch.jsonl", "nosuch.jsonl: no such transcript"),
    ("referee tictactoe adir", "adir"),
    ("referee tictactoe bin.toml", "bin.toml: cannot read"),
    ("referee tictactoe tr_bad.jsonl", "tr_bad.jsonl:1: not JSON"),
    ("referee tictactoe tr_list.jsonl", "tr_list.jsonl:1"),
    ("referee tictactoe tr_short.jsonl", "tr_short.jsonl:1: 5 tile states"),
    ("referee tictactoe tr_states.jsonl", "tr_states.jsonl:1: 'states'"),
    ("referee tictactoe tr_state9.jsonl --any-start", "tr_state9.jsonl:1: tile '9' has state 9"),
    ("referee tictactoe tr_tomove.jsonl", "tr_tomove.jsonl:1: to_move 7"),
    ("referee tictactoe tr_turnnull.jsonl", "tr_turnnull.jsonl:1: 'turn'"),
    ("referee tictactoe tr_extra.jsonl", "tr_extra.jsonl:1: 'extra'"),
    ("referee checkers tr_ck_state.jsonl --any-start", "tr_ck_state.jsonl:1: tile '1' has state 99"),
    ("referee checkers tr_ck_extra.jsonl --any-start", "tr_ck_extra.jsonl:1: 'extra'"),
    ("referee checkers tr_ck_frame.jsonl --any-start", "tr_ck_frame.jsonl:1: 'extra' entry 1"),
    ("referee tictactopology tr_facts.jsonl --any-start", "tr_facts.jsonl:1: 'extra_facts' entry 1"),
    ("referee tictactopology tr_facts_cell.jsonl --any-start", "tr_facts_cell.jsonl:1: 'extra_facts' entry 1"),
    ("referee nosuch tr_bad.jsonl", "nosuch"),
    ("verify nosuch", "nosuch"),
    ("verify tictactoe --method foo", "--method 'foo'"),
    ("verify tictactoe --reach 'line(X) and'", "'line(X) and'"),
    ("verify tictactoe --reach 'line(Q)'", "'Q'"),
    ("verify tictactoe --reach 'count(X) > x' --depth 1", "'x'"),
    ("verify tictactoe --reach ''", "predicate"),
    ("verify tictactoe --reach 'line(X)' --depth -1", "--depth -1"),
    ("verify checkers --reach 'line(X)' --depth 1 --method z3", "--method z3"),
    ("verify checkers --play-to-full", "checkers"),
    ("verify tictactoe --properties --reach 'line(X)'", "one of --reach"),
    ("verify tictactoe --repair", "--repair"),
    ("verify tictactoe --properties --timeout 0", "--timeout 0"),
    ("verify tictactoe --invariant 'line(X) and'", "'line(X) and'"),
    ("synthesize --tiles 4 --closed --game tictactoe", "--game and --value"),
    ("synthesize --tiles 4 --closed --game tictactoe --value maybe", "maybe"),
    ("synthesize --tiles 4 --closed --game nosuch --value draw", "nosuch"),
    # compare
    ("compare nosuch --boards plane:3x3", "nosuch"),
    ("compare tictactoe --boards nope:3", "nope:3"),
    ("compare tictactoe --boards incons.toml", "incons.toml"),
    ("compare tictactoe --boards census:x", "census:x"),
    ("compare tictactoe --boards ,", "--boards"),
    ("compare tictactoe --boards plane:3x3 --playouts -1", "--playouts -1"),
    ("compare tictactoe --boards plane:3x3 --svg nodir/c.svg", "nodir"),
    ("compare tictactoe", "--boards"),
    # walk, view, net
    ("walk ok.toml --from 9 --steps up", "--from '9'"),
    ("walk ok.toml --from 1 --steps north", "'north'"),
    ("walk ok.toml --from 1 --steps ,,", "--steps"),
    ("walk ok.toml --from 1 --steps up --frame 9", "--frame 9"),
    ("walk ok.toml --from 1 --steps up-left --domain plus", "'up-left'"),
    ("walk incons.toml --from 1 --steps up", "incons.toml"),
    ("walk ok.toml --steps up", "--from"),
    ("view ok.toml --from 1 --frame 8 -o existing.txt", "--frame 8"),
    ("view ok.toml --from 1 --radius -1 -o existing.txt", "--radius -1"),
    ("view ok.toml --from 9 -o existing.txt", "--from '9'"),
    ("view ok.toml --from 1 --format jpg", "--format 'jpg'"),
    ("view ok.toml --from 1 --format png", "--format png"),
    ("view ok.toml --from 1 -o missing/x.svg", "missing/x.svg"),
    ("view ok.toml --from 1 -o adir", "adir"),
    ("view ok.toml --from 1 -o out.jpg", "-o out.jpg"),
    ("view ok.toml --from 1 --opaque x -o existing.txt", "--opaque item 1 'x'"),
    ("view incons.toml --from 1 -o existing.txt", "incons.toml"),
    ("net nosuch.toml -o existing.txt", "nosuch.toml"),
    ("net ok.toml --format bmp -o existing.txt", "--format 'bmp'"),
    ("net ok.toml --format png", "--format png"),
    ("net ok.toml -o missing/x.svg", "missing/x.svg"),
    ("net ok.toml -o adir", "adir"),
    ("net incons.toml -o existing.txt", "incons.toml"),
    # serve (checked before a server starts)
    ("serve --port 99999", "--port 99999"),
    ("serve --data-dir ok.toml", "--data-dir ok.toml"),
    ("serve --port x", "--port"),
    ("match nosuch", "nosuch"),
    ("match tictactoe --a wizard", "--a"),
    ("match tictactoe --games 0", "--games 0"),
    ("match tictactoe --workers 0", "--workers 0"),
    ("match tictactoe --engine magic", "--engine 'magic'"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli-errors")
    for name, text in FILES.items():
        if isinstance(text, bytes):
            (d / name).write_bytes(text)
        else:
            (d / name).write_text(text, encoding="utf-8")
    (d / "adir").mkdir()
    return d


def snapshot(d: Path) -> dict[str, bytes]:
    """Every file under ``d`` (folders included, as empty markers) with its bytes."""
    return {str(p.relative_to(d)): (p.read_bytes() if p.is_file() else b"<dir>") for p in sorted(d.rglob("*"))}


def run(capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = __import__("io").StringIO(stdin)
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, needle: str) -> None:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tapology: error: "), err
    assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"


@pytest.mark.parametrize(("cmd", "needle"), BAD, ids=[c for c, _ in BAD])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(cmd: str, needle: str, folder: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    before = snapshot(folder)
    code, out, err = run(capsys, shlex.split(cmd))
    assert code == 2, (code, out, err)
    assert_one_line_error(err, needle)
    assert out == ""
    assert snapshot(folder) == before


def test_every_command_is_covered() -> None:
    from typer.main import get_command

    from tapology.cli import app

    commands = set(get_command(app).commands)  # type: ignore[attr-defined]
    covered = {shlex.split(c)[0] for c, _ in BAD}
    assert commands <= covered, commands - covered


PROCESS = [
    ("show nosuch.toml", "nosuch.toml"),
    ("tape ok.toml 1.up=2.down --chart 9 -o existing.txt", "--chart 9"),
    ("referee checkers tr_ck_state.jsonl --any-start", "tr_ck_state.jsonl:1"),
    ("view ok.toml --from 1 -o out.jpg", "out.jpg"),
    ("group square --bogus", "--bogus"),
]


@pytest.mark.parametrize(("cmd", "needle"), PROCESS, ids=[c for c, _ in PROCESS])
def test_bad_input_in_a_real_process(cmd: str, needle: str, folder: Path) -> None:
    before = snapshot(folder)
    p = subprocess.run([sys.executable, "-m", "tapology.cli", *shlex.split(cmd)], cwd=folder, capture_output=True,
                       text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert p.returncode == 2, p
    assert_one_line_error(p.stderr, needle)
    assert p.stdout == ""
    assert snapshot(folder) == before


# ---- refusals and writes ----------------------------------------------------------------------------------


def test_refused_taping_leaves_the_output_file_alone(folder: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(folder)
    target = tmp_path / "out.toml"
    target.write_bytes(b"old bytes\n")
    code, out, err = run(capsys, ["tape", "ok.toml", "1.up=3.right", "-o", str(target), "--json"])
    assert code == 1 and err == "" and json.loads(out)["allowed"] is False
    assert target.read_bytes() == b"old bytes\n"
    # an inconsistent board refuses every taping, and writes nothing either
    code, out, _ = run(capsys, ["tape", "incons.toml", "1.right=2.left", "-o", str(target), "--json"])
    assert code == 1 and json.loads(out)["allowed"] is False
    assert target.read_bytes() == b"old bytes\n"


def test_allowed_taping_writes_the_board(folder: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(folder)
    target = tmp_path / "out.toml"
    target.write_bytes(b"old bytes\n")
    code, out, _ = run(capsys, ["tape", "ok.toml", "2.right=1.left", "--chart", "2", "-o", str(target)])
    assert code == 0 and "written to" in out and "chart 2" in out
    code, out, _ = run(capsys, ["check", str(target), "--json"])
    assert code == 0 and json.loads(out)["tiles"] == 3
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".tapology-")]


def test_bad_save_target_is_refused_before_the_game(folder: Path, capsys, monkeypatch) -> None:
    """The game is not played (so never lost) when --save cannot be written."""
    monkeypatch.chdir(folder)
    code, out, err = run(capsys, ["play", "tictactoe", "--x", "human", "--save", "missing/rec.json"], stdin="5\n")
    assert code == 2 and out == "" and "missing/rec.json" in err
    assert not (folder / "missing").exists()


def test_save_and_load_round_trip(tmp_path: Path, capsys) -> None:
    rec = tmp_path / "rec.json"
    code, out, _ = run(capsys, ["play", "tictactoe", "--x", "ai", "--o", "ai", "--strength", "random", "--seed", "3",
                                "--save", str(rec), "--json"])
    assert code == 0 and json.loads(out)
    saved = json.loads(rec.read_text())
    assert saved["game"] == "tictactoe" and saved["board"] == "plane:3x3" and saved["turns"]
    code, out, _ = run(capsys, ["play", "tictactoe", "--load", str(rec), "--x", "human", "--o", "human", "--json"],
                       stdin="quit\n")
    assert code == 0 and json.loads(out)
    code, _, err = run(capsys, ["play", "tictactoe", "--load", str(rec), "--board", "torus:3x3"])
    assert code == 2 and "not tictactoe on torus:3x3" in err


def test_synthesize_writes_nothing_on_bad_input(tmp_path: Path, capsys) -> None:
    out_dir = tmp_path / "found"
    code, _, _ = run(capsys, ["synthesize", "--tiles", "2", "--engine", "foo", "-o", str(out_dir)])
    assert code == 2 and not out_dir.exists()


# ---- --json answers parse --------------------------------------------------------------------------------

JSON_OK = [
    ("group square", 0),
    ("show ok.toml", 0),
    ("check ok.toml", 0),
    ("check incons.toml", 1),
    ("tape ok.toml 2.right=1.left", 0),
    ("tape ok.toml 1.up=3.right", 1),
    ("classify torus:2x2", 0),
    ("signature klein:2x2", 0),
    ("same torus:2x2 torus:2x2", 0),
    ("same torus:2x2 klein:2x2", 1),
    ("synthesize --tiles 1", 0),
    ("synthesize --tiles 1 --count", 0),
    ("moves tictactoe", 0),
    ("perft tictactoe --depth 2", 0),
    ("playouts tictactoe --count 3", 0),
    ("rules tictactoe", 0),
    ("fen", 0),
    ("solve tictactoe:2,2,2", 0),
    ("referee tictactoe -", 0),
    ("verify tictactoe --reach line(X) --depth 5", 0),
    ("compare tictactoe --boards plane:3x3,torus:3x3 --playouts 50", 0),
    ("play tictactoe --x ai --o ai --strength random --seed 1", 0),
    ("walk klein:3x3 --from 1 --steps up,up,up", 0),
    ("view torus:2x2 --from 1 --radius 1", 0),
    ("net torus:2x2", 0),
    ("match tictactoe --a random --b random --games 2 --workers 1", 0),
]


@pytest.mark.parametrize(("cmd", "expected"), JSON_OK, ids=[c for c, _ in JSON_OK])
def test_json_answers_parse(cmd: str, expected: int, folder: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(folder)
    code, out, _ = run(capsys, [*shlex.split(cmd), "--json"], stdin='"5"\n"1"\n')
    assert code == expected
    assert isinstance(json.loads(out), dict)


def test_every_question_has_json() -> None:
    from typer.main import get_command

    from tapology.cli import app

    questions = {n: c for n, c in get_command(app).commands.items() if n not in SERVES}  # type: ignore[attr-defined]
    for name, cmd in questions.items():
        opts = {o for p in cmd.params for o in getattr(p, "opts", ())}
        assert "--json" in opts, name
    assert {shlex.split(c)[0] for c, _ in JSON_OK} == set(questions)


# commands that answer no question: they serve until stopped (tests/test_browser.py drives serve's page)
SERVES = {"serve"}
