"""Rule files and ASCII patterns: the seed's drawings, cell lists, one-line errors with file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tapology.cli import main
from tapology.model.grid import HEX, SQUARE
from tapology.rules import RuleError, parse_rules
from tapology.rules.pattern import parse_pattern

SEED_STEP = """
                o-------o        ==>                o-------o
                |       |        ==>                |       |
                |  (0)  |        ==>                |  (1)  |
                |       |        ==>                |       |
        o-------o-------o        ==>        o-------o-------o
        |   *   |                ==>        |   *   |
        | *(1)* |                ==>        | *(0)* |
        |   *   |                ==>        |   *   |
        o-------o                ==>        o-------o
"""

SEED_JUMP = """
        o-------o                        ==>        o-------o
        |       |                        ==>        |       |
        |  (0)  |                        ==>        |  (2)  |
        |       |                        ==>        |       |
        o-------o-------o                ==>        o-------o-------o
                |       |                ==>                |       |
                |  (1)  |                ==>                |  (0)  |
                |       |                ==>                |       |
                o-------o-------o        ==>                o-------o-------o
                        |   *   |        ==>                        |   *   |
                        | *(2)* |        ==>                        | *(0)* |
                        |   *   |        ==>                        |   *   |
                        o-------o        ==>                        o-------o
"""


def test_seed_forward_right_move_drawing() -> None:
    cells = sorted(parse_pattern(SEED_STEP, SQUARE, "t"))
    assert cells == [((0, 0), "1", "0"), ((1, 1), "0", "1")]


def test_seed_jump_drawing() -> None:
    cells = sorted(parse_pattern(SEED_JUMP, SQUARE, "t"))
    assert cells == [((-2, 2), "0", "2"), ((-1, 1), "1", "0"), ((0, 0), "2", "0")]


def test_compact_grid_equals_seed_drawing() -> None:
    compact = """
    .    0   =>  .   1
    *1   .   =>  *0  .
    """
    assert sorted(parse_pattern(compact, SQUARE, "t")) == sorted(parse_pattern(SEED_STEP, SQUARE, "t"))


def test_compact_grid_on_hexes_uses_offset_rows() -> None:
    cells = dict((c, b) for c, b, _ in parse_pattern("*a b c", HEX, "t"))
    assert cells == {(0, 0): "a", (1, 0): "b", (2, 0): "c"}
    two_rows = dict((c, b) for c, b, _ in parse_pattern("*a b\n c", HEX, "t"))
    assert two_rows[(0, 0)] == "a" and two_rows[(1, -1)] == "c"  # row 1 sits half a cell right: south-east


def test_pattern_errors() -> None:
    with pytest.raises(RuleError, match="origins"):
        parse_pattern("a b => c d", SQUARE, "here")
    with pytest.raises(RuleError, match="different cells"):
        parse_pattern("*a b => *c", SQUARE, "here")


BASE = """
name = "t"
players = ["X", "O"]
[states]
empty = 0
X = { value = 1, owner = "X", kind = "mark" }
O = { value = 2, owner = "O", kind = "mark" }
"""


def test_cells_list_and_pattern_agree() -> None:
    a = parse_rules(BASE + '[[move]]\nname = "m"\npattern = "*empty X => *own:mark _"\n', "a.toml")
    b = parse_rules(BASE + '[[move]]\nname = "m"\ncells = [[0, 0, "empty", "own:mark"], [1, 0, "X"]]\n', "b.toml")
    assert a.moves[0].cells == b.moves[0].cells
    assert a.domain == b.domain


@pytest.mark.parametrize(
    ("extra", "line", "needle"),
    [
        ('[[move]]\nname = "m"\npattern = "*nothing => *X"\n', 10, "unknown state 'nothing'"),
        ('[[move]]\nname = "m"\npattern = "*empty => *X"\nlinks = [{ moves = ["jmp"] , at = [0, 0]}]\n', 11,
         "unknown move 'jmp'"),
        ('[[move]]\nname = "m"\ncolour = 3\npattern = "*empty => *X"\n', 10, "unknown key 'colour'"),
        ('[[move]]\nname = "m"\norientations = [9]\npattern = "*empty => *X"\n', 10, "out of range"),
        ('[[end]]\nkind = "lines"\n', 9, "kind 'lines'"),
        ('[[move]]\nname = "m"\npattern = "*empty => *X"\n[[move]]\nname = "m"\npattern = "*X => *O"\n', 12,
         "used twice"),
    ],
)
def test_errors_name_file_line_and_entry(extra: str, line: int, needle: str) -> None:
    with pytest.raises(RuleError) as exc:
        parse_rules(BASE + extra, "bad.toml")
    msg = str(exc.value)
    assert msg.startswith(f"bad.toml:{line}:"), msg
    assert needle in msg
    assert "\n" not in msg


def test_bad_rule_file_is_exit_2_with_one_line(tmp_path, capsys) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(BASE + '[[move]]\nname = "m"\npattern = "*empty => *Y"\n')
    assert main(["rules", str(p)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{p}:10:" in err and "'Y'" in err
    assert main(["moves", str(tmp_path / "missing.toml")]) == 2


def test_not_toml_and_missing_players() -> None:
    with pytest.raises(RuleError, match="not valid TOML"):
        parse_rules("name = ", "x.toml")
    with pytest.raises(RuleError, match="players"):
        parse_rules('[states]\nempty = 0\n', "x.toml")


def test_orientation_specs() -> None:
    r = parse_rules(BASE + '[[move]]\nname = "m"\norientations = "fix:0,1"\npattern = "*empty => *X"\n', "o.toml")
    assert r.moves[0].orientations == (0, 4)
    r = parse_rules(BASE + '[[move]]\nname = "m"\norientations = "rotations"\npattern = "*empty => *X"\n', "o.toml")
    assert r.moves[0].orientations == (0, 1, 2, 3)


def test_derived_domain_is_closed_and_covers_moves() -> None:
    from tapology.games import load_rules

    r = load_rules("checkers")
    cells = set(r.domain.cells)
    for m in r.moves:
        assert {pc.cell for pc in m.cells} <= cells
    grp = r.grid.group
    assert all(grp.act(g, c) in cells for c in cells for g in range(grp.order))
    assert len(cells) == 45
    assert len(load_rules("tictactoe").domain.cells) == 9


_TOKENS = ["empty", "X", "O", "own", "foe:mark", "any", "X|O"]


@given(st.dictionaries(st.tuples(st.integers(-2, 2), st.integers(-2, 2)),
                       st.tuples(st.sampled_from(_TOKENS), st.sampled_from([None, "empty", "X", "@"])),
                       min_size=0, max_size=6))
def test_drawn_patterns_parse_back(cells: dict) -> None:
    from tapology.rules.pattern import draw_pattern

    cells = dict(cells)
    cells.setdefault((0, 0), ("own", "empty"))
    raw = [(c, b, a) for c, (b, a) in cells.items()]
    back = parse_pattern(draw_pattern(raw), SQUARE, "drawn")
    assert sorted(back) == sorted(raw)


_BASE = '''name = "base"
players = ["a", "b"]
board = "plane:3x3"
[states]
empty = 0
x = { value = 1, owner = "a", kind = "stone" }
o = { value = 2, owner = "b", kind = "stone" }
[[move]]
name = "put"
cells = [[0, 0, "empty", "own:stone"]]
[[move]]
name = "other"
cells = [[0, 0, "empty", "own:stone"], [1, 0, "empty", "empty"]]
[[end]]
name = "three"
kind = "line"
k = 3
result = "win"
'''


def _unlined(x: object) -> str:
    """A value's repr without the rule-file lines it was read from (a variant's entries read from its base keep the
    variant's ``extends`` line)."""
    return re.sub(r"line=\d+", "line=_", repr(x))


def test_a_variant_extends_a_base_entry_by_entry(tmp_path) -> None:
    """Top-level tables replace the base's; entries follow the base's, a named one replacing its namesake in place."""
    (tmp_path / "base.toml").write_text(_BASE)
    (tmp_path / "v.toml").write_text('extends = "base.toml"\nname = "v"\nboard = "plane:4x4"\n'
                                     '[[move]]\nname = "put"\n'
                                     'cells = [[0, 0, "empty", "own:stone"], [0, 1, "empty", "own:stone"]]\n'
                                     '[[move]]\nname = "more"\ncells = [[0, 0, "own", "empty"]]\n'
                                     '[[end]]\nname = "three"\nkind = "line"\nk = 4\nresult = "win"\n')
    from tapology.rules.parse import load_rules

    base, v = load_rules(tmp_path / "base.toml"), load_rules(tmp_path / "v.toml")
    assert (v.name, v.board, v.players, v.states) == ("v", "plane:4x4", base.players, base.states)
    assert [m.name for m in v.moves] == ["put", "other", "more"]
    assert len(v.moves[0].cells) == 2 and _unlined(v.moves[1]) == _unlined(base.moves[1])
    assert [(e.name, e.k) for e in v.ends] == [("three", 4)]


def test_a_variant_of_a_variant_and_errors_in_the_file_they_come_from(tmp_path) -> None:
    from tapology.rules.parse import load_rules

    (tmp_path / "base.toml").write_text(_BASE)
    (tmp_path / "mid.toml").write_text('extends = "base.toml"\nname = "mid"\n[[move]]\nname = "jump"\n'
                                       'cells = [[0, 0, "own", "empty"], [0, 2, "empty", "own:stone"]]\n')
    (tmp_path / "top.toml").write_text('extends = "mid.toml"\nname = "top"\n')
    assert [m.name for m in load_rules(tmp_path / "top.toml").moves] == ["put", "other", "jump"]
    # states without kinds: base.toml's first move (its cells on line 10) no longer reads
    (tmp_path / "top.toml").write_text('extends = "mid.toml"\nname = "top"\n[states]\nempty = 0\n'
                                       'x = { value = 1, owner = "a" }\no = { value = 2, owner = "b" }\n')
    with pytest.raises(RuleError, match=r"^" + str(tmp_path / "base.toml") + r":10: \[\[move\]\] 'put'"):
        load_rules(tmp_path / "top.toml")
    # an error in the variant's own entry: its own file and line
    (tmp_path / "top.toml").write_text('extends = "mid.toml"\nname = "top"\n[[move]]\nname = "new"\n'
                                       'cells = [[0, 0, "own", "bogus"]]\n')
    with pytest.raises(RuleError, match=r"^" + str(tmp_path / "top.toml") + r":5: \[\[move\]\] 'new'"):
        load_rules(tmp_path / "top.toml")


@pytest.mark.parametrize(("files", "needle"), [
    ({"a.toml": 'extends = "b.toml"\n', "b.toml": 'extends = "a.toml"\n'}, "a circle (a.toml -> b.toml -> a.toml)"),
    ({"a.toml": 'extends = "missing.toml"\n'}, "missing.toml"),
    ({"a.toml": "extends = 3\n"}, "extends: expected the path of a rule file, got 3"),
])
def test_bad_extends_is_one_line_naming_the_file(tmp_path, files: dict[str, str], needle: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(RuleError) as err:
        parse_rules((tmp_path / "a.toml").read_text(), str(tmp_path / "a.toml"))
    assert needle in str(err.value) and "\n" not in str(err.value), err.value


def test_arimaa_is_the_fixed_position_game_with_its_set_up() -> None:
    """The shipped variant names only what differs: the set-up phases and placements, the start, the end rules."""
    from tapology.games.registry import load_rules as load_game_rules

    fixed, full = load_game_rules("arimaa-fixed-position"), load_game_rules("arimaa")
    assert "extends" in (Path(full.source).read_text())
    placed = {m.name for m in full.moves} - {m.name for m in fixed.moves}
    assert placed == {"place-one=elephant", "place-one=camel", "place-two=horse", "place-two=dog", "place-two=cat",
                      "place-rabbit-gold", "place-rabbit-silver"}
    assert _unlined([m for m in full.moves if m.name not in placed]) == _unlined(list(fixed.moves))
    assert _unlined(full.cleanups) == _unlined(fixed.cleanups) and full.steps == fixed.steps
    assert full.states == fixed.states and full.regions[:len(fixed.regions)] == fixed.regions
    assert [e.name for e in full.ends] == [e.name for e in fixed.ends] and full.phases and not fixed.phases
    assert not full.initial.layout and fixed.initial.layout


def test_text_not_read_from_a_file_may_not_extend(tmp_path, monkeypatch) -> None:
    """An uploaded rule set (the server parses its text) reads no file of the server's."""
    (tmp_path / "base.toml").write_text(_BASE)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuleError, match="only a rule file on disk may extend another"):
        parse_rules('extends = "base.toml"\nname = "x"\n', "uploaded rules")
