"""view --game: a game position drawn on the cover — chess as a diagram (squares, Unicode pieces), pieces on every
copy of their tiles, turned and mirrored as the copy and their frame say; PNG without an external program."""

from __future__ import annotations

import io
import re
import sys
import xml.etree.ElementTree as ET

from tapology.cli import main
from tapology.render.svg import PNG_MAGIC

MATRIX = re.compile(r"matrix\(([-\d.e]+) ([-\d.e]+) ([-\d.e]+) ([-\d.e]+) 0 0\)")


def _pieces(svg: str) -> list[tuple[str, tuple[float, ...]]]:
    root = ET.fromstring(svg.split("\n", 1)[1])
    out = []
    for el in root.iter("{http://www.w3.org/2000/svg}text"):
        if el.get("class") == "piece":
            m = MATRIX.search(el.get("transform", ""))
            assert m
            out.append((el.text or "", tuple(float(x) for x in m.groups())))
    return out


def test_the_start_of_chess_as_a_diagram(tmp_path, capsys):
    out = tmp_path / "c.svg"
    assert main(["view", "plane:8x8", "--from", "e4", "--game", "chess", "-o", str(out)]) == 0
    svg = out.read_text()
    pieces = _pieces(svg)
    assert len(pieces) == 32
    assert sorted(g for g, _ in pieces).count("♟") == 8 and sorted(g for g, _ in pieces).count("♙") == 8
    assert {m for _, m in pieces} == {(1.0, 0.0, 0.0, 1.0)}  # on the plane every piece stands upright
    assert ">e4<" in svg and "#f0d9b5" in svg and "#b58863" in svg  # squares named and coloured
    capsys.readouterr()


def test_a_game_record_on_the_klein_bottle_shows_mirrored_copies(tmp_path, capsys, monkeypatch):
    rec = tmp_path / "k.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("e4\ne5\nNf3\nNc6\nquit\n"))
    assert main(["play", "chess", "--board", "klein:12x8", "--x", "human", "--o", "human", "--save", str(rec)]) == 0
    out = tmp_path / "k.svg"
    assert main(["view", "klein:12x8", "--from", "e4", "--radius", "7", "--game", "chess", "--position", str(rec),
                 "-o", str(out)]) == 0
    pieces = _pieces(out.read_text())
    dets = {round(a * d - b * c) for _, (a, b, c, d) in pieces}
    assert dets == {1, -1}  # copies across the flipped seam are mirrored
    assert len(pieces) > 32  # pieces drawn on every copy of their tiles in the window
    png = tmp_path / "k.png"
    assert main(["view", "klein:12x8", "--from", "e4", "--game", "chess", "--position", str(rec), "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == PNG_MAGIC
    capsys.readouterr()


def test_fen_positions_and_other_games(tmp_path, capsys):
    out = tmp_path / "f.svg"
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert main(["view", "plane:8x8", "--from", "e1", "--radius", "7", "--game", "chess", "--position", fen,
                 "-o", str(out)]) == 0
    assert len(_pieces(out.read_text())) == 3
    assert main(["view", "plane:8x8", "--from", "1", "--game", "checkers", "-o", str(tmp_path / "k.svg")]) == 0
    assert len(_pieces((tmp_path / "k.svg").read_text())) > 0
    assert main(["view", "plane:8x8", "--from", "e4", "--position", fen]) == 2
    assert "--position goes with --game" in capsys.readouterr().err
