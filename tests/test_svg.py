"""SVG and PNG pictures of views and nets: valid XML (parsed here), what they draw, atomic -o, the net view."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

from tapology.cli import main
from tapology.model.boardfile import load_board
from tapology.model.walker import start_walker
from tapology.render.net import board_net, net_ascii, net_svg, pair_arrows
from tapology.render.svg import PNG_MAGIC, tile_colour, view_svg
from tapology.render.unfold import unfold

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == NS + "svg" and root.get("viewBox")
    return root


def layer(root: ET.Element, name: str) -> ET.Element:
    return next(g for g in root.iter(NS + "g") if g.get("class") == name)


def test_view_svg_draws_every_cell():
    at = load_board("klein:3x3").atlas()
    b = at.board().with_states([0, 1, 0, 0, 2, 0, 0, 0, 0])
    v = unfold(at, start_walker(at, "5"), 4)
    root = parse(view_svg(v, b, {1: "X", 2: "O"}))
    tiles = layer(root, "tiles").findall(NS + "polygon")
    assert len(tiles) == 81
    assert {p.get("fill") for p in tiles} == {tile_colour(str(i)) for i in range(1, 10)}
    labels = [t.text for t in layer(root, "labels").iter(NS + "text")]
    assert sorted(labels) == sorted(str(i) for i in range(1, 10) for _ in range(9))
    tokens = layer(root, "tokens")
    assert len(tokens.findall(NS + "circle")) == 18  # tiles 2 and 5, nine copies each
    assert {t.text for t in tokens.iter(NS + "text")} == {"X", "O"}
    assert layer(root, "walker").find(NS + "circle") is not None
    # two arrows (line + head) per tile
    assert len(layer(root, "marks").findall(NS + "line")) == 2 * 81
    assert "mirrored" not in root.find(NS + "title").text  # type: ignore[union-attr]


def test_view_svg_marks_the_edge():
    at = load_board("plane:3x3").atlas()
    root = parse(view_svg(unfold(at, start_walker(at, "5"), 4), at.board()))
    assert len(layer(root, "tiles").findall(NS + "polygon")) == 9
    assert len(layer(root, "edges").findall(NS + "line")) == 12


def test_hex_view_svg():
    at = load_board("hex-torus:4x4").atlas()
    root = parse(view_svg(unfold(at, start_walker(at, "6"), 3), at.board()))
    polys = layer(root, "tiles").findall(NS + "polygon")
    assert len(polys) == 37 and all(len(p.get("points", "").split()) == 6 for p in polys)


def test_tile_ids_are_escaped():
    at = load_board("torus:2x2").atlas()
    root = parse(view_svg(unfold(at, start_walker(at, "1"), 1), at.board(), {0: "<&>"}))
    assert root is not None


def test_net_of_a_torus_and_a_klein_bottle():
    for name, flips in (("torus:2x3", 0), ("klein:2x3", 2)):
        b = load_board(name).atlas().board()
        net = board_net(b)
        assert len(net.pairs) == 5 and sum(p.flip for p in net.pairs) == flips
        assert len(net.joined) == 2 * (12 - 5) and not net.edges
        for p in net.pairs:
            (_sa, a1, a2), (_sb, b1, b2) = pair_arrows(b, net, p)
            da = (a2[0] - a1[0], a2[1] - a1[1])
            db = (b2[0] - b1[0], b2[1] - b1[1])
            # the built-ins are laid out as the fundamental rectangle: plain pairs point the same way,
            # flipped pairs (the Klein bottle's glide) the opposite way
            assert db == ((-da[0], -da[1]) if p.flip else da)
        pic = net_ascii(b, net)
        for p in net.pairs:
            assert pic.count(f"  {p.label}: ") == 1
        root = parse(net_svg(b, net))
        texts = [t.text for t in layer(root, "labels").iter(NS + "text")]
        for p in net.pairs:
            assert texts.count(p.label) == 2


def test_net_of_a_plane_has_no_pairs_and_an_edge():
    b = load_board("plane:2x2").atlas().board()
    net = board_net(b)
    assert not net.pairs and len(net.edges) == 8
    assert "every taped side is drawn taped" in net_ascii(b, net)


def test_net_of_tapes_only_and_hex(capsys):
    code = main(["net", "hex-torus:2x3", "--format", "svg"])
    out = capsys.readouterr().out
    assert code == 0
    parse(out)
    code = main(["net", "examples/roguelike/village.toml", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {tuple(sorted(p["sides"])) for p in data["pairs"]} == {("D.up", "H.down"), ("s2.right", "t1.left")}


def test_net_ascii_labels_on_borders(capsys):
    code = main(["net", "torus:2x2"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.split("\n")
    top, bottom = lines[0], lines[8]
    assert "a<" in top and "a<" in bottom  # the same arrow on both sides of a plain pair


# ---- writing files ------------------------------------------------------------------------------
def test_svg_written_atomically(tmp_path, capsys):
    out = tmp_path / "k.svg"
    code = main(["view", "klein:3x3", "--from", "5", "-o", str(out)])
    assert code == 0 and out.exists()
    parse(out.read_text())
    before = out.read_text()
    code = main(["view", "klein:3x3", "--from", "nope", "-o", str(out)])
    assert code == 2 and out.read_text() == before
    code = main(["view", "klein:3x3", "--from", "5", "--radius", "999", "-o", str(tmp_path / "new.svg")])
    assert code == 2 and not (tmp_path / "new.svg").exists()
    code = main(["net", "nosuch.toml", "-o", str(tmp_path / "net.svg")])
    assert code == 2 and not (tmp_path / "net.svg").exists()
    code = main(["view", "klein:3x3", "--from", "5", "-o", str(tmp_path)])
    assert code == 2
    assert sorted(os.listdir(tmp_path)) == ["k.svg"]  # no temporary files left
    capsys.readouterr()


def test_net_written(tmp_path, capsys):
    out = tmp_path / "net.txt"
    assert main(["net", "klein:2x2", "-o", str(out)]) == 0
    assert "taped sides" in out.read_text()
    assert main(["net", "klein:2x2", "--format", "png"]) == 2  # a PNG needs a file
    capsys.readouterr()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_png_of_the_net_without_an_external_program(tmp_path, capsys, monkeypatch):
    """The PNG is drawn in-process: with no program on the PATH at all it is still written."""
    monkeypatch.setenv("PATH", str(tmp_path))
    out = tmp_path / "net.png"
    assert main(["net", "klein:3x3", "-o", str(out)]) == 0
    assert "written to" in capsys.readouterr().out
    w, h = _png_size(out.read_bytes())
    assert w > 200 and h > 200


def test_png_of_the_klein_bottle_view(tmp_path, capsys):
    out = tmp_path / "klein.png"
    code = main(["view", "klein:3x3", "--from", "5", "--radius", "4", "-o", str(out)])
    capsys.readouterr()
    assert code == 0
    data = out.read_bytes()
    assert data[:8] == PNG_MAGIC and len(data) > 1000
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    assert width > 300 and height > 300
    assert sorted(os.listdir(tmp_path)) == ["klein.png"]


def test_png_needs_a_file(capsys):
    assert main(["view", "klein:3x3", "--from", "5", "--format", "png"]) == 2
    assert "-o" in capsys.readouterr().err


def test_png_pixels_follow_the_svg(tmp_path):
    """The rasteriser draws what the SVG says: a red square is red in the middle, the white background at a corner."""
    import zlib

    from tapology.render.svg import svg_png_bytes

    data = svg_png_bytes('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
                         '<rect x="2" y="2" width="6" height="6" fill="#ff0000"/></svg>')
    w, h = _png_size(data)
    assert (w, h) == (20, 20)  # drawn at twice the SVG's size
    # decode the IDAT stream (8-bit RGBA, filter bytes per row) to read two pixels
    pos, idat = 8, b""
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    assert data[24] == 8 and data[25] in (2, 6)
    bpp = 4 if data[25] == 6 else 3
    stride = 1 + w * bpp
    rows: list[bytearray] = []
    for y in range(h):
        f, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        prev = rows[-1] if rows else bytearray(len(line))
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
    assert tuple(rows[10][10 * bpp:10 * bpp + 3]) == (255, 0, 0)
    assert tuple(rows[0][0:3]) == (255, 255, 255)
