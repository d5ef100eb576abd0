"""Hostile and heavy input (issue 13): each finding as a regression test — limits measured when input is read,
non-regular files, file modes and links, stale outputs, format mismatches, option parsing, exit codes."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from tapology import limits
from tapology.cli import main
from tapology.errors import LimitError, OptionError
from tapology.play.analysis.predicate import parse_predicate, tree_depth
from tests.fuzz import run_checked

ROOT = Path(__file__).resolve().parent.parent
CHECKERS = (ROOT / "tapology/games/data/checkers.toml").read_text()
TICTACTOE = (ROOT / "tapology/games/data/tictactoe.toml").read_text()
STRIP = (ROOT / "examples/boards/strip7.toml").read_text()


def refused(tmp_path: Path, line: list[str], *needles: str) -> str:
    """Run a command that must be refused: exit 2, one line naming ``needles``, nothing changed on disk."""
    res = run_checked(line, tmp_path)
    assert res.problems == [], res.problems
    assert res.code == 2, (res.code, res.out, res.err)
    for n in needles:
        assert n in res.err, (n, res.err)
    return res.err


# ---- limits at the edge ---------------------------------------------------------------------------------
def test_deeply_nested_toml_board_is_one_line(tmp_path):
    (tmp_path / "deep.toml").write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    (tmp_path / "deep2.toml").write_text("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n")
    refused(tmp_path, ["check", "deep.toml"], "deep.toml", "nesting=32")
    refused(tmp_path, ["check", "deep2.toml"], "deep2.toml", "nesting")


def test_deeply_nested_rule_file_and_dotted_keys(tmp_path):
    (tmp_path / "r.toml").write_text(TICTACTOE + "\nx = " + "[" * 100 + "]" * 100 + "\n")
    refused(tmp_path, ["rules", "r.toml"], "r.toml", "nesting")
    (tmp_path / "d.toml").write_text("layout = '1 2'\n" + ".".join(["k"] * 200) + " = 1\n")
    refused(tmp_path, ["check", "d.toml"], "d.toml", "nested 200 deep")


def test_deeply_nested_json_transcript_and_record(tmp_path):
    (tmp_path / "t.jsonl").write_text("[" * 100000 + "]" * 100000 + "\n")
    refused(tmp_path, ["referee", "tictactoe", "t.jsonl"], "t.jsonl:1", "nesting")
    (tmp_path / "n.jsonl").write_text("9" * 5000 + "\n")
    refused(tmp_path, ["referee", "tictactoe", "n.jsonl"], "n.jsonl:1")


def test_nesting_measure_skips_strings_and_comments():
    assert limits.nesting_depth('a = "[[[[["\n# {{{{{\nb = [[1]]\n') == 2
    assert limits.nesting_depth("a = '''\n[[[[\n'''\n") == 0
    assert limits.nesting_depth('["[\\"[", [[]]]', json_like=True) == 3


def test_predicate_nesting_and_length(tmp_path):
    refused(tmp_path, ["verify", "tictactoe", "--reach", "(" * 3000 + "line(X)" + ")" * 3000], "predicate",
            "predicate_depth")
    refused(tmp_path, ["verify", "tictactoe", "--reach", "not " * 2000 + "line(X)"], "predicate")
    refused(tmp_path, ["verify", "tictactoe", "--reach", "not " * 100 + "line(X)"], "predicate_depth=64")
    refused(tmp_path, ["verify", "tictactoe", "--reach", "9" * 50 + " > 1"], "digits")
    # a long chain of and stays shallow, so it is accepted
    node = parse_predicate(" and ".join(["line(X)"] * 800))
    assert tree_depth(node) <= 12
    with limits.raised(predicate_depth=200):
        parse_predicate("(" * 150 + "empty" + ")" * 150)


def test_builtin_with_thousands_of_digits(tmp_path):
    err = refused(tmp_path, ["check", "torus:" + "9" * 5000 + "x3"], "size_digits")
    assert len(err) < 400


def test_far_link_anchor_refused_before_memory(tmp_path):
    (tmp_path / "far.toml").write_text(CHECKERS.replace("at = [2, 2], forced", "at = [50, 50], forced"))
    for cmd in (["moves", "far.toml"], ["perft", "far.toml", "--depth", "2"], ["rules", "far.toml"]):
        t0 = time.perf_counter()
        refused(tmp_path, cmd, "far.toml:", "[50, 50]", "coordinate=8")
        assert time.perf_counter() - t0 < 5


def test_big_pattern_refused_and_raised_by_option(tmp_path):
    row = "  ".join(["."] * 10)
    pattern = "\n".join(["  ".join(["."] * 9 + ["any"])] + [row] * 8 + ["*empty  " + "  ".join(["."] * 9)])
    after = "\n".join(["  ".join(["."] * 9 + ["_"])] + [row] * 8 + ["*own:mark  " + "  ".join(["."] * 9)])
    text = TICTACTOE.replace('*empty  =>  *own:mark', "\n".join(
        f"{a}  =>  {b}" for a, b in zip(pattern.split("\n"), after.split("\n"), strict=True)))
    (tmp_path / "big.toml").write_text(text)
    refused(tmp_path, ["rules", "big.toml"], "big.toml", "pattern", "coordinate=8")
    res = run_checked(["--limit", "coordinate=9", "--limit", "domain_cells=400", "rules", "big.toml"], tmp_path)
    assert res.code == 0 and not res.problems, (res.err, res.problems)


def test_domain_and_chart_entry_limits(tmp_path):
    (tmp_path / "dom.toml").write_text("layout = '1 2'\ndomain = " + json.dumps(
        [[x, y] for x in range(-9, 10) for y in range(-9, 10)]) + "\n")
    refused(tmp_path, ["check", "dom.toml"], "domain_cells=289")
    refused(tmp_path, ["check", "torus:400x400", "--domain", "box:4"], "chart_entries")
    refused(tmp_path, ["--limit", "tiles=8", "check", "torus:3x3"], "tiles=8")
    assert main(["--limit", "tiles=9", "check", "torus:3x3"]) == 0
    assert limits.limit("tiles") == limits.LIMITS["tiles"].default  # a --limit holds for one command


def test_canonical_form_limit(tmp_path):
    refused(tmp_path, ["signature", "klein:300x300"], "klein:300x300", "canonical_tiles=10000")
    refused(tmp_path, ["same", "torus:300x300", "klein:300x300"], "canonical_tiles")
    assert main(["same", "torus:300x300", "klein:3x3"]) == 1  # different sizes: told apart at once
    refused(tmp_path, ["classify", "plane:2000x300"], "tiles=250000")


def test_limit_option_and_environment(tmp_path, monkeypatch):
    refused(tmp_path, ["--limit", "nosuch=3", "check", "torus:3x3"], "--limit", "nosuch")
    refused(tmp_path, ["--limit", "tiles=-3", "check", "torus:3x3"], "--limit")
    monkeypatch.setenv("TAPOLOGY_LIMITS", "tiles=4")
    refused(tmp_path, ["check", "torus:3x3"], "tiles=4")
    monkeypatch.setenv("TAPOLOGY_LIMITS", "tiles")
    refused(tmp_path, ["check", "torus:3x3"], "TAPOLOGY_LIMITS")
    monkeypatch.delenv("TAPOLOGY_LIMITS")
    with pytest.raises(OptionError):
        limits.set_limits({"bogus": 1})
    with pytest.raises(LimitError, match="limit coordinate=8"):
        limits.check("coordinate", 9, "x")


def test_verify_depth_bounded(tmp_path):
    t0 = time.perf_counter()
    res = run_checked(["verify", "tictactoe", "--reach", "line(X) and line(O)", "--depth", "100000",
                       "--method", "z3"], tmp_path)
    assert res.code == 1 and "within 9 turns" in res.out, (res.out, res.err)
    assert time.perf_counter() - t0 < 20
    refused(tmp_path, ["verify", "checkers", "--reach", "true", "--depth", "100000"], "--depth 100000", "depth=")


# ---- files --------------------------------------------------------------------------------------------
def test_fifo_and_folder_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "adir").mkdir()
    t0 = time.perf_counter()
    refused(tmp_path, ["check", "fifo"], "fifo", "FIFO")
    refused(tmp_path, ["rules", "fifo"], "fifo")
    refused(tmp_path, ["referee", "tictactoe", "fifo"], "fifo")
    refused(tmp_path, ["check", "adir"], "adir", "folder")
    refused(tmp_path, ["tape", "plane:3x3", "1.up=2.down", "-o", "fifo"], "fifo")
    assert time.perf_counter() - t0 < 5


def test_utf8_bom_files_accepted(tmp_path):
    (tmp_path / "b.toml").write_bytes(b"\xef\xbb\xbf" + STRIP.encode())
    (tmp_path / "r.toml").write_bytes(b"\xef\xbb\xbf" + TICTACTOE.encode())
    (tmp_path / "t.jsonl").write_bytes(b'\xef\xbb\xbf"5"\n"1"\n')
    assert main(["check", "b.toml".join([str(tmp_path) + "/", ""])]) == 0
    assert main(["rules", str(tmp_path / "r.toml")]) == 0
    assert main(["referee", "tictactoe", str(tmp_path / "t.jsonl")]) == 0


def test_written_file_keeps_mode_new_file_gets_umask(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text("x")
    old.chmod(0o640)
    assert main(["tape", "plane:3x4", "4.right=1.left", "-o", str(old)]) == 0
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
    mask = os.umask(0o022)
    try:
        assert main(["tape", "plane:3x4", "4.right=1.left", "-o", str(tmp_path / "new.toml")]) == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.toml").stat().st_mode) == 0o644


def test_output_through_symlink_keeps_link(tmp_path):
    real = tmp_path / "real.toml"
    real.write_text("old")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    assert main(["tape", "plane:3x4", "4.right=1.left", "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert '"1.left=4.right"' in real.read_text()


def test_synthesize_out_dir_removes_only_its_stale_boards(tmp_path):
    out = tmp_path / "syn"
    assert main(["synthesize", "--tiles", "2", "--closed", "-o", str(out)]) == 0
    many = sorted(p.name for p in out.iterdir())
    (out / "notes.txt").write_text("mine")
    (out / "board-999.toml").write_text("stale")
    assert main(["synthesize", "--tiles", "1", "--closed", "-o", str(out)]) == 0
    now = sorted(p.name for p in out.iterdir())
    assert "notes.txt" in now and "board-999.toml" not in now
    assert len(now) - 1 < len(many)
    assert all(n.startswith("board-") for n in now if n != "notes.txt")


def test_picture_format_must_match_extension(tmp_path):
    refused(tmp_path, ["view", "klein:3x3", "--from", "1", "--format", "svg", "-o", "v.png"], "v.png", "svg")
    refused(tmp_path, ["view", "klein:3x3", "--from", "1", "--format", "ascii", "-o", "v.svg"], "v.svg")
    refused(tmp_path, ["net", "klein:3x3", "--format", "svg", "-o", "n.txt.png"], "n.txt.png")
    assert main(["net", "klein:3x3", "--format", "svg", "-o", str(tmp_path / "n.svg")]) == 0


# ---- smaller findings -------------------------------------------------------------------------------------
def test_unknown_mandatory_class_names_the_known_ones(tmp_path):
    (tmp_path / "m.toml").write_text(CHECKERS.replace('mandatory = ["capture"]', 'mandatory = ["capturre"]'))
    refused(tmp_path, ["rules", "m.toml"], "m.toml:", "'capturre'", "classes: capture")


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "0", "-inf"])
def test_timeout_refused_everywhere(tmp_path, value):
    for cmd in (["synthesize", "--tiles", "2", "--count"], ["compare", "tictactoe", "--boards", "torus:3x3"],
                ["verify", "tictactoe", "--properties"]):
        refused(tmp_path, [*cmd, "--timeout", value], "--timeout")


def test_verify_reach_exit_codes(tmp_path):
    res = run_checked(["verify", "tictactoe", "--reach", "line(X) and line(O)", "--depth", "9"], tmp_path)
    assert res.code == 1 and "not reachable" in res.out
    res = run_checked(["verify", "tictactoe", "--reach", "line(X)", "--depth", "5"], tmp_path)
    assert res.code == 0 and "reachable in 5 turns" in res.out


def test_play_save_record_is_accepted_by_referee(tmp_path, monkeypatch):
    import io

    rec = tmp_path / "rec.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n2\n4\n5\n7\n"))
    assert main(["play", "tictactoe", "--x", "human", "--o", "human", "--save", str(rec), "--board", "torus:3x3"]) == 0
    assert json.loads(rec.read_text())["format"] == "tapology-game/1"
    res = run_checked(["referee", "tictactoe", str(rec), "--json"], tmp_path)
    assert res.code == 0, res.err
    assert json.loads(res.out)["valid"] is True


def test_version_and_short_help(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("tapology ")
    assert main(["-h"]) == 0
    assert "Usage" in capsys.readouterr().out
    for cmd in ("check", "verify", "play", "synthesize"):
        assert main([cmd, "-h"]) == 0
        assert "Usage: tapology " + cmd in " ".join(capsys.readouterr().out.split())


def test_net_labels_drawn_whole_on_big_boards():
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["net", "torus:30x30"]) == 0
    text = out.getvalue()
    picture, legend = text.split("taped sides")
    for line in legend.splitlines()[1:]:
        label = line.split(":")[0].strip()
        assert picture.count(label) >= 2 or len(label) == 1, label
    assert "a2 " in picture and " a2" in picture


def test_show_big_board_is_linear_and_bounded(tmp_path):
    t0 = time.perf_counter()
    res = run_checked(["show", "torus:300x300"], tmp_path, deadline=30)
    assert res.code == 0 and not res.problems
    assert "89900 more tiles" in res.out
    assert time.perf_counter() - t0 < 15


def test_tictactopology_menu_keeps_board_on_screen():
    import io

    from tapology.games.registry import load_game
    from tapology.play.playing.session import MENU_LINES, PlaySession

    lg = load_game("tictactopology")
    out = io.StringIO()
    s = PlaySession(lg.game, [None, None], io.StringIO("m 9.down\nq\n"), out, game_name="tictactopology")
    s.run()
    text = out.getvalue()
    first = text.split("to move>")[0]
    menu = first.split("o-------o-------o-------o\nturns:")[1]
    assert len(menu.strip().splitlines()) <= MENU_LINES + 3  # claims, the lines, how many more, the prompt
    assert "more: 'm' lists them all" in menu
    after = text.split("to move>")[1]
    assert "9.down" in after and "1.up=2.up" not in after


def test_kinrow_past_62_tiles(tmp_path):
    refused(tmp_path, ["solve", "tictactoe", "--board", "torus:8x8"], "64 tiles", "62")
    res = run_checked(["verify", "tictactoe", "--board", "torus:8x8", "--reach", "line(X)", "--depth", "1"],
                      tmp_path, deadline=30)
    assert res.code == 1 and not res.problems, (res.err, res.problems)
    res = run_checked(["moves", "tictactoe", "--board", "torus:8x8"], tmp_path)
    assert res.code == 0


def test_player_budgets_bounded(tmp_path):
    refused(tmp_path, ["match", "tictactoe", "--a", "alphabeta:99999999999", "--b", "random", "--games", "1"],
            "alphabeta:99999999999", "depth=10000")
    refused(tmp_path, ["match", "tictactoe", "--a", "mcts:10@inf", "--b", "random", "--games", "1"], "finite")
    t0 = time.perf_counter()  # deepening stops at the free tiles of a claim game
    res = run_checked(["match", "tictactoe", "--a", "alphabeta:10000", "--b", "random", "--games", "1",
                       "--workers", "1"], tmp_path)
    assert res.code == 0 and not res.problems, (res.err, res.problems)
    assert time.perf_counter() - t0 < 10


def test_docs_list_every_limit_with_its_value():
    import re

    text = (ROOT / "docs/limits.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([\d,]+) \|", text, re.M))
    assert {k: int(v.replace(",", "")) for k, v in rows.items()} == {k: v.default for k, v in limits.LIMITS.items()}
