"""Hostile input from outside (issue 20, items 6–10): each example as a regression test — one line on stderr, exit 2
(or the documented code), no traceback, nothing changed on disk, no process left behind, an answer within 10 s.

The examples that need a process of their own (signals, closed streams, ``/dev/full``, a file size limit) run as
scenes of :mod:`tests.fuzz.outside`; the rest run in-process through :func:`tests.fuzz.run_checked`."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tapology import limits
from tapology.cli import main
from tapology.errors import OptionError
from tapology.play.analysis.predicate import parse_predicate
from tests.fuzz import run_checked
from tests.fuzz.outside import Scene, lay_out, run_scene

ROOT = Path(__file__).resolve().parent.parent
CHECKERS = (ROOT / "tapology/games/data/checkers.toml").read_text()
BIG = "999999999"


def refused(tmp_path: Path, line: list[str], *needles: str, deadline: float = 10.0) -> str:
    """Run a command that must be refused: exit 2, one line naming ``needles``, nothing changed on disk."""
    t0 = time.monotonic()
    res = run_checked(line, tmp_path, deadline=deadline)
    assert res.problems == [], res.problems
    assert res.code == 2, (res.code, res.out, res.err)
    for n in needles:
        assert n in res.err, (n, res.err)
    assert time.monotonic() - t0 < deadline
    return res.err


def scene(tmp_path: Path, sc: Scene):
    lay_out(sc, tmp_path)
    res = run_scene(sc, tmp_path)
    assert res.problems == [], (res.problems, res.err[-500:])
    return res


# ---- 6. tracebacks --------------------------------------------------------------------------------------------
def test_custom_grid_without_directions(tmp_path):
    (tmp_path / "g.toml").write_text("grid = { name = 'none', directions = [], names = [], orientations = "
                                     "[[[1, 0], [0, 1]]] }\nlayout = 'a b'\n")
    (tmp_path / "h.toml").write_text("grid = { name = 'none', directions = [[0, 1]], names = ['n'], orientations "
                                     "= [] }\nlayout = 'a b'\n")
    for cmd in ("check", "net"):
        refused(tmp_path, [cmd, "g.toml"], "g.toml", "at least one direction")
        refused(tmp_path, [cmd, "h.toml"], "h.toml", "orientation")


def test_big_claim_game_refused_by_the_limits(tmp_path):
    refused(tmp_path, ["moves", "tictactoe:500,500,5"], "turn_tiles")
    refused(tmp_path, ["moves", "tictactoe", "--board", "torus:300x300"], "turn_tiles")
    assert run_checked(["moves", "tictactoe:10,10,5"], tmp_path).code == 0


def test_end_value_beyond_c_long(tmp_path):
    (tmp_path / "c.toml").write_text(CHECKERS.replace("value = 400", "value = 99999999999999999999"))
    refused(tmp_path, ["perft", "c.toml", "--depth", "1"], "c.toml:", "0..2147483647")
    (tmp_path / "d.toml").write_text(CHECKERS.replace("value = 400", "value = 2147483647"))
    assert run_checked(["perft", "d.toml", "--depth", "1"], tmp_path).code == 0


def test_predicate_depth_bounded_whatever_the_limit(tmp_path):
    deep = "(" * 5000 + "line(X)" + ")" * 5000
    refused(tmp_path, ["--limit", f"predicate_depth={BIG}", "verify", "tictactoe", "--reach", deep], "at most 256")
    with pytest.raises(OptionError):
        limits.set_limits({"predicate_depth": 257})
    limits.reset_limits()
    with limits.raised(predicate_depth=256):  # the most: parsed within the stack it is granted
        node = parse_predicate("(" * 256 + "empty" + ")" * 256)
        assert node.op == "term"
        parse_predicate("not " * 255 + "empty")
    res = run_checked(["--limit", "predicate_depth=256", "verify", "tictactoe", "--depth", "2", "--reach",
                       "(" * 250 + "line(X)" + ")" * 250], tmp_path)
    assert res.code in (0, 1) and not res.problems, res.problems


def test_mcts_with_a_tiny_time_limit(tmp_path):
    res = run_checked(["match", "tictactoe", "--a", "mcts:10@1e-9", "--b", "random", "--games", "2", "--workers",
                       "1"], tmp_path)
    assert res.code == 0 and not res.problems, (res.err, res.problems)


@pytest.mark.parametrize("seed", ["-1", "12345678901234567890123"])
def test_match_seed_out_of_range(tmp_path, seed):
    refused(tmp_path, ["match", "tictactoe", "--seed", seed, "--games", "1"], f"--seed {seed}")


def test_match_biggest_seed_plays(tmp_path):
    res = run_checked(["match", "tictactoe", "--seed", str(2**63 - 1), "--a", "mcts:5", "--b", "random", "--games",
                       "1", "--workers", "1"], tmp_path)
    assert res.code == 0 and not res.problems, (res.err, res.problems)


def test_perft_estimate_of_a_huge_depth(tmp_path):
    res = run_checked(["perft", "chess", "--depth", "10000", "--timeout", "2", "--json"], tmp_path)
    assert not res.problems, res.problems
    data = json.loads(res.out)
    assert data["complete"] is False and data["estimate"] in (None, int(1e30))  # None: stopped while estimating
    from tapology.games.perft import estimate_leaves
    from tapology.games.registry import open_position

    g, pos = open_position("chess")
    assert estimate_leaves(g, pos, 10_000) == (int(1e30), 4)


def test_ray_address_where_nothing_listens(tmp_path):
    pytest.importorskip("ray")
    refused(tmp_path, ["perft", "tictactoe", "--depth", "2", "--ray-address", "127.0.0.1:1"], "127.0.0.1:1",
            "nothing answers", deadline=10.0)


def test_ray_start_up_error_is_one_line(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")

    def timed_out(*_a, **_k):
        raise TimeoutError("Timed out after 60 s waiting for the GCS\n  at node 10.0.0.2\n  see the logs")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    refused(tmp_path, ["perft", "tictactoe", "--depth", "3", "--ray"], "cannot start or reach Ray: Timed out after 60 s")


def test_raised_nesting_limit_runs_out_of_stack_in_one_line(tmp_path):
    (tmp_path / "deep.toml").write_text("a = " + "[" * 200_000 + "]" * 200_000 + "\nlayout = '1 2'\n")
    refused(tmp_path, ["--limit", f"nesting={BIG}", "check", "deep.toml"], "nesting=999999999", "lower")


def test_memory_running_out_names_the_raised_limits(tmp_path, monkeypatch):
    from tapology.reports import boards

    def exhausted(*_a, **_k):
        raise MemoryError

    monkeypatch.setattr(boards, "open_board", exhausted)
    err = refused(tmp_path, ["--limit", "tiles=100000000", "check", "torus:3x3"], "memory ran out", "tiles=100000000")
    assert "lower" in err
    err = refused(tmp_path, ["check", "torus:3x3"], "memory ran out")
    assert "smaller" in err


# ---- 7. hangs -------------------------------------------------------------------------------------------------
def test_board_file_past_the_tiles_limit_refused_up_front(tmp_path):
    n = 548  # 300,304 tiles, with a tiles list (quadratic to check before)
    ids = [str(i + 1) for i in range(n * n)]
    rows = "\n".join(" ".join(ids[r * n:(r + 1) * n]) for r in range(n))
    (tmp_path / "big.toml").write_text("tiles = [" + ",".join(f'"{i}"' for i in ids) + "]\nlayout = '''\n" + rows
                                       + "\n'''\n")
    t0 = time.monotonic()
    for cmd in ("check", "net"):
        refused(tmp_path, [cmd, "big.toml"], "big.toml", "tiles=250000")
    assert time.monotonic() - t0 < 15


@pytest.mark.slow
def test_board_file_as_fast_as_the_builtin(tmp_path):
    n = 500
    ids = [str(i + 1) for i in range(n * n)]
    rows = "\n".join(" ".join(ids[r * n:(r + 1) * n]) for r in range(n))
    (tmp_path / "b.toml").write_text("tiles = [" + ",".join(f'"{i}"' for i in ids) + "]\nlayout = '''\n" + rows
                                     + "\n'''\n")
    t0 = time.perf_counter()
    assert main(["check", "b.toml"]) == 0
    t_file = time.perf_counter() - t0
    t0 = time.perf_counter()
    assert main(["check", "plane:500x500"]) == 0
    t_builtin = time.perf_counter() - t0
    assert t_file < 5 * t_builtin + 2, (t_file, t_builtin)


def test_solve_of_a_game_that_repeats_is_refused_at_once(tmp_path):
    refused(tmp_path, ["solve", str(ROOT / "examples/games/king-hunt.toml")], "repeat a position")


def test_huge_domain_with_raised_limits_refused_at_once(tmp_path):
    refused(tmp_path, ["--limit", "coordinate=1000", "--limit", "domain_cells=100000000", "--limit",
                       "chart_entries=10000000000", "show", "--domain", "box:1000", "torus:3x3"], "domain_table")


# ---- 8. clobbers ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["loop1", "self", "dir/", "new.toml/", "."])
def test_output_onto_a_loop_or_a_folder_name_refused(tmp_path, target):
    os.symlink("loop2", tmp_path / "loop1")
    os.symlink("loop1", tmp_path / "loop2")
    os.symlink("self", tmp_path / "self")
    (tmp_path / "dir").mkdir()
    refused(tmp_path, ["tape", "plane:3x4", "4.right=1.left", "-o", target], target)
    assert os.readlink(tmp_path / "loop1") == "loop2" and os.readlink(tmp_path / "self") == "self"
    assert not (tmp_path / "new.toml").exists()


def test_output_through_a_dangling_link_is_written(tmp_path):
    os.symlink("real.toml", tmp_path / "link.toml")
    assert main(["tape", "plane:3x4", "4.right=1.left", "-o", str(tmp_path / "link.toml")]) == 0
    assert (tmp_path / "link.toml").is_symlink() and (tmp_path / "real.toml").is_file()


def test_save_and_autosave_onto_a_loop_refused(tmp_path, monkeypatch):
    os.symlink("self", tmp_path / "self")
    refused(tmp_path, ["play", "tictactoe", "--x", "ai", "--o", "ai", "--save", "self"], "loops")
    monkeypatch.setenv("TAPOLOGY_AUTOSAVE", str(tmp_path / "self"))
    refused(tmp_path, ["play", "tictactoe", "--x", "ai", "--o", "ai"], "loops")
    assert os.readlink(tmp_path / "self") == "self"


# ---- 9. orphans and 10. exit codes, partial output --------------------------------------------------------------
def test_sigterm_ends_match_workers_and_reports(tmp_path):
    res = scene(tmp_path, Scene("signal", ["match", "tictactoe:4,4,4", "--a", "random", "--b", "random",
                                           "--games", "100000", "--workers", "2"], signal=signal.SIGTERM, after=4.0))
    assert "partial" in res.out


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("argv", [["perft", "chess", "--depth", "6", "--json", "--workers", "2"],
                                  ["solve", "tictactoe:4,4,4", "--workers", "2", "--force", "--json"]])
def test_signals_end_long_commands_cleanly(tmp_path, sig, argv):
    scene(tmp_path, Scene("signal", argv, signal=sig, after=3.0, json=True))


def test_sigint_of_python_perft_prints_partial_json(tmp_path):
    res = scene(tmp_path, Scene("signal", ["perft", "chess", "--depth", "5", "--json", "--workers", "1"],
                                signal=signal.SIGINT, after=3.0, json=True, env={"TAPOLOGY_NATIVE": "0"}))
    assert json.loads(res.out)["complete"] is False


def test_bad_input_is_exit_2(tmp_path):
    os.symlink("self", tmp_path / "self")
    refused(tmp_path, ["referee", "tictactoe", "--pgn", str(ROOT / "examples/games/opera.pgn")], "chess notation")
    refused(tmp_path, ["check", "self"], "self")
    refused(tmp_path, ["play", "tictactoe", "--x", "nobody"], "--x")
    refused(tmp_path, ["match", "tictactoe", "--a", "mcts:x"], "--a")


def test_full_output_is_one_line(tmp_path):
    scene(tmp_path, Scene("full", ["rules", "tictactoe", "--json"], stdout="full", codes=(2,),
                          error="write error: no space left on device"))


def test_file_that_cannot_be_written_whole(tmp_path):
    scene(tmp_path, Scene("full", ["tape", "plane:3x4", "4.right=1.left", "-o", "out.toml"], fsize=10, codes=(2,),
                          error="write error"))
    assert not (tmp_path / "out.toml").exists()


def test_closed_standard_streams(tmp_path):
    scene(tmp_path, Scene("stream", ["referee", "tictactoe", "-"], stdin="closed", codes=(2,),
                          error="standard input is closed"))
    scene(tmp_path, Scene("stream", ["play", "tictactoe"], stdin="closed", codes=(2,), error="standard input"))
