"""The reports behind the commands, called as library functions: the same text, JSON and exit code as the
command line prints (the golden files), and timings left out on request."""

from __future__ import annotations

import json

import pytest

from tapology.reports.base import Report
from tapology.reports.boards import check_report, group_report, show_report, tape_report
from tapology.reports.games import perft_report
from tapology.reports.play import referee_report, solve_report, verify_report
from tapology.reports.topology import classify_report, same_report, signature_report, synthesize_report
from tapology.reports.views import net_report, view_report, walk_report
from tests.golden import HERE, ROOT, expected_codes

INPUTS = "tests/golden/inputs"
LIBRARY = {
    "group-square": lambda: group_report("square"),
    "show-klein": lambda: show_report("klein:3x3"),
    "check-inconsistent-explain": lambda: check_report(f"{INPUTS}/inconsistent.toml", explain=True),
    "tape-strip7": lambda: tape_report("examples/boards/strip7.toml", ["3.up=4.down"], charts=["4"]),
    "tape-L-refused": lambda: tape_report("examples/boards/L.toml", ["1.up=3.right"]),
    "classify-orbifold": lambda: classify_report(f"{INPUTS}/orbifold.toml"),
    "signature-torus": lambda: signature_report("torus:3x3"),
    "same-torus-klein": lambda: same_report("torus:3x3", "klein:3x3"),
    "synthesize-2-closed": lambda: synthesize_report(2, closed=True),
    "referee-pgn": lambda: referee_report("chess", pgn=f"{INPUTS}/fools-mate.pgn"),
    "verify-reach": lambda: verify_report("tictactoe", reach="line(X) and line(O)", depth=9, play_to_full=True),
    "walk-klein": lambda: walk_report("klein:3x3", "1", "right,right,right"),
    "view-klein": lambda: view_report("klein:3x3", "5", radius=2),
    "net-klein": lambda: net_report("klein:3x3"),
}


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_library_reports_are_what_the_commands_print(name, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    rep = LIBRARY[name]()
    assert isinstance(rep, Report)
    assert rep.text() + "\n" == (HERE / f"{name}.txt").read_text()
    assert json.dumps(rep.to_json(), indent=2, ensure_ascii=False) + "\n" == (HERE / f"{name}.json").read_text()
    assert rep.exit_code == expected_codes()[f"{name}.txt"]


def test_timings_can_be_left_out() -> None:
    rep = perft_report("tictactoe", 3)
    assert "leaf turns/s" in rep.text()
    rep.timings = False
    assert rep.text().splitlines()[0] == "perft 3: 504" and rep.text().splitlines()[1].startswith("engine: ")
    solved = solve_report("tictactoe", "plane:3x3")
    assert "seconds" in solved.to_json() and " s (" in solved.text()
    solved.timings = False
    assert "seconds" not in solved.to_json() and " s (" not in solved.text()
