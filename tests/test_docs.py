"""The shell examples of README.md and docs/*.md run as written: exit codes, promised output, transcripts.

A fenced block labelled ``sh`` holds commands, one a line, each with an optional ``# comment``: a comment
that is JSON (``# {"depth": 6, "nodes": 36768}``) must be a part of the command's JSON output, a prose
comment is checked through ``PROSE`` below, and ``(exit N)`` names the exit code (0 otherwise).  A block
labelled ``console`` is a transcript: ``$ tapology ...`` lines followed by what they print, compared with
the output after timings are normalised; ``…`` (or ``...``) stands for left-out text, a whole ``…`` line
for left-out lines, and JSON is compared as a part of the command's JSON.  Synopses and terminal sessions
are ``text`` blocks; an unlabelled block may not hold a command.  Each command runs in-process in a fresh
folder holding ``examples/`` (so ``-o`` writes nowhere in the repository), with an empty standard input.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tapology.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# Commands the test does not run, and why.
SKIP: dict[str, str] = {
    "python -m pytest -q": "the test suite itself",
    "pip install -e '.[openspiel]'": "installs a package",
    "pip install -e '.[ray]'": "installs a package",
    "pip install -e '.[web]'": "installs a package",
    "tapology serve --open": "a server that runs until Ctrl-C and opens a browser: tests/test_browser.py drives the page in "
                             "chromium",
    "python examples/roguelike/play.py": "not a tapology command: tests/test_roguelike.py::test_play_script_runs runs it",
    "tapology play tictactoe:4 --board torus:5x5 --x mcts:2000 --o alphabeta:6@2":
        "computer against computer on 25 tiles at up to 2 s a move: minutes",
}

# Commands run only with -m slow, and why.
SLOW: dict[str, str] = {
    "tapology perft checkers --depth 10 --workers 2": "perft depth 10 on a pool of 2 processes (about 5 s)",
    "tapology solve tictactoe:4 --board torus:5x5 --timeout 30": "runs until its 30 s timeout",
    "tapology match tictactoe --board torus:3x3 --a mcts:1000 --b random --games 200": "200 MCTS games (30-40 s)",
    "tapology match tictactoe --board plane:3x3 --a mcts:1000 --b random --games 200 --workers 2":
        "200 MCTS games (30-40 s)",
}

# Transcripts whose figures vary from run to run (timings, random games, machine speed): checked by a
# substring instead of the printed text.
VARYING: dict[str, str] = {
    "tapology solve tictactoe:4 --board torus:5x5 --timeout 30": "tictactoe:4 on torus:5x5: partial: timed out after 30 s",
    "tapology match tictactoe --board plane:3x3 --a mcts:1000 --b random --games 200 --workers 2":
        "results for A, 95% Wilson intervals:",
}

# What a prose comment promises, as text the output (standard output or error) must contain.
PROSE: dict[str, tuple[str, ...]] = {
    "pip install -e '.[dev]' && tapology tape examples/boards/strip7.toml 3.up=4.down --chart 4": ("|   4   |   5   |   6   |",),
    "tapology group square": ("quarter turn clockwise", "flip across the downward diagonal"),
    "tapology tape examples/boards/L.toml 1.up=3.right": ("refused: 1.up=3.right", "tile 2 turned 0 vs tile 2 turned 3"),
    "tapology tape examples/boards/L.toml 1.up=3.right --backend z3 --explain --json":
        ('"because": [\n      "1.right=2.left",\n      "1.down=3.up",\n      "1.up=3.right"\n    ]',),
    "tapology classify examples/boards/cube.toml": ("sphere: 6 tiles",),
    "tapology classify examples/boards/hemicube.toml": ("projective plane: 3 tiles",),
    "tapology same torus:3x3 klein:3x3": ("not isomorphic",),
    "tapology synthesize --tiles 6 --closed --json": ('"complete": true',),
    "tapology rules checkers": ("move man-jump", "domain"),
    "tapology perft checkers --depth 10 --workers 2": ("perft 10: 18391564", "pool of 2"),
    "tapology solve tictactoe --board torus:3x3 --json": ('"value": "first player wins"',),
    "tapology solve tictactoe:4 --board torus:5x5 --timeout 30": ("partial: timed out after 30 s",),
    "tapology solve checkers": ("beyond exhaustive solving", "Instead: 'tapology perft checkers --depth D'"),
    "tapology play tictactopology --x human --o ai": ("X (human) to move>", "e.g. m 3.up"),
    "tapology play chinese-checkers --o alphabeta:6@2": ("south (human) to move>",),
    'tapology verify tictactoe --reach "line(X) and line(O)" --depth 9': ("not reachable within 9 turns",),
    "tapology verify tictactoe --board klein:3x3 --properties":
        ("termination: proved", "playability: proved", "strong-winnability (O): refuted"),
    "tapology compare tictactoe --boards census:9": ("tictactoe on 33 boards",),
    "tapology match tictactoe --board torus:3x3 --a mcts:1000 --b random --games 200": ("95% Wilson intervals",),
    "tapology moves chess --board mobius:8x8": ("24 legal turns for white", "a1h8  Rxh8"),
    "tapology fen --board torus:12x8": ("8/8/8/8/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",),
    "tapology referee chess --pgn examples/games/opera.pgn": ("game 1: valid: 17 moves (33 plies), checkmate",),
    "tapology walk klein:3x3 --from 5 --steps right,right,right --json": ('"tile": "5"', '"mirrored": true'),
    "tapology view klein:3x3 --from 5 --radius 4 -o klein-view.png": ("written to klein-view.png",),
    "tapology view klein:12x8 --from e4 --radius 7 --game chess -o cover.png": ("written to cover.png",),
    "tapology play chess --x human --o human": ("white (human) to move>", "    a  b  c  d  e  f  g  h"),
    "tapology net klein:3x3": ("taped sides", "b: 1.left = 9.right (flipped)"),
    "tapology play tictactoe --board torus:3x3": ("X (human) to move>",),
    "tapology play tictactoe --x ai --o ai --seed 7": ("game over after",),
    "tapology play tictactoe --load game.json --save game.json": ("X (human) to move>",),
    "tapology play checkers --o alphabeta:8 --save game.json": ("black (human) to move>",),
    "tapology play checkers --resume game.json": ("black (human) to move>",),
    "tapology referee tictactoe game.jsonl --json": ('"valid": true',),
    "tapology referee tictactoe game.json": ("valid: 3 turns",),
}

# Files a command reads that the doc leaves to the reader: written into its folder before it runs.
_RECORD = """{"format": "tapology-game/1", "game": "tictactoe", "board": "torus:3x3",
 "players": {"X": "human", "O": "ai"}, "turns": ["5", "3", "1"],
 "result": null, "final": {"states": [1, 0, 2, 0, 1, 0, 0, 0, 0], "to_move": "O", "ply": 3}}
"""
_BAD_RULES = """name = "bad"
grid = "square"
players = ["X", "O"]
board = "plane:3x3"

[states]
empty = 0
X = { value = 1, owner = "X", kind = "mark" }
O = { value = 2, owner = "O", kind = "mark" }

[[move]]
name = "jump"
pattern = "*empty => *own:mark"
links = [{ moves = ["jmp"], at = [0, 0] }]
"""
_BIG_RULES = _BAD_RULES.replace('name = "bad"', 'name = "big"\ndomain = [[10, 10]]').replace(
    '\nlinks = [{ moves = ["jmp"], at = [0, 0] }]', "")
FILES: dict[str, dict[str, str]] = {
    "tapology play tictactoe --load game.json --save game.json": {"game.json": _RECORD},
    "tapology referee tictactoe game.json": {"game.json": _RECORD},
    "tapology referee tictactoe game.jsonl --json": {"game.jsonl": '"5"\n"1"\n"9"\n'},
    "tapology rules bad.toml": {"bad.toml": _BAD_RULES},
    "tapology verify my-rules.toml --board torus:4x4 --json":
        {"my-rules.toml": (ROOT / "tapology/games/data/tictactoe.toml").read_text()},
    "tapology --limit coordinate=12 --limit domain_cells=625 rules my-big-moves.toml": {"my-big-moves.toml": _BIG_RULES},
    'TAPOLOGY_LIMITS="coordinate=12,domain_cells=625" tapology rules my-big-moves.toml': {"my-big-moves.toml": _BIG_RULES},
}

# Commands that read what an earlier example of the same doc wrote: those run first, in the same folder.
BEFORE: dict[str, list[str]] = {
    "tapology play checkers --resume game.json": ["tapology play checkers --o alphabeta:8 --save game.json"],
}

@dataclass(frozen=True)
class Example:
    """One command of a doc: where it is, its comment, and for a transcript what it prints."""

    file: str
    line: int
    command: str
    comment: str = ""
    output: str | None = None

    @property
    def id(self) -> str:
        """FILE:LINE, the test's id."""
        return f"{self.file}:{self.line}"

    def _words(self) -> list[str]:
        """The words of the line's last command (after any ``&&``)."""
        words = shlex.split(self.command)
        return words[len(words) - words[::-1].index("&&"):] if "&&" in words else words

    def environment(self) -> dict[str, str]:
        """The ``NAME=VALUE`` words before the command."""
        env = {}
        for w in self._words():
            if not re.fullmatch(r"[A-Z_]+=.*", w):
                break
            name, _, value = w.partition("=")
            env[name] = value
        return env

    def argv(self) -> list[str] | None:
        """The arguments after ``tapology``, or None when the line runs something else."""
        words = self._words()[len(self.environment()):]
        return words[1:] if words and words[0] == "tapology" else None

    def exit_code(self) -> int:
        """The exit code the doc implies: ``exit N`` in the comment, 2 for an error transcript, else 0."""
        m = re.search(r"\bexit (\d+)", self.comment)
        if m:
            return int(m.group(1))
        if self.output is not None and self.output.startswith("tapology: error:"):
            return 2
        return 0


def _blocks(path: Path) -> list[tuple[str, int, list[str]]]:
    """The fenced blocks of a Markdown file: (label, number of the first line inside, lines)."""
    found, label, start, lines = [], None, 0, []
    for n, line in enumerate(path.read_text().split("\n"), 1):
        if line.startswith("```"):
            if label is None:
                label, start, lines = line[3:].strip(), n + 1, []
            else:
                found.append((label, start, lines))
                label = None
        elif label is not None:
            lines.append(line)
    return found


def _split_comment(line: str) -> tuple[str, str]:
    """A command line and its trailing ``# comment``."""
    m = re.search(r"\s#\s", line)
    return (line[:m.start()].strip(), line[m.end():].strip()) if m else (line.strip(), "")


def collect() -> list[Example]:
    """Every command in an ``sh`` or ``console`` block of the docs."""
    found: list[Example] = []
    for path in DOCS:
        name = str(path.relative_to(ROOT))
        for label, start, lines in _blocks(path):
            if label == "sh":
                for n, line in enumerate(lines, start):
                    if line.strip() and not line.lstrip().startswith("#"):
                        command, comment = _split_comment(line)
                        found.append(Example(name, n, command, comment))
            elif label == "console":
                current: list[Any] | None = None
                for n, line in enumerate(lines, start):
                    if line.startswith("$ "):
                        if current:
                            found.append(_transcript(*current))
                        command, comment = _split_comment(line[2:])
                        current = [name, n, command, comment, []]
                    elif current is not None:
                        current[4].append(line)
                if current:
                    found.append(_transcript(*current))
    return found


def _transcript(file: str, line: int, command: str, comment: str, output: list[str]) -> Example:
    text = "\n".join(output).strip("\n")
    return Example(file, line, command, comment, text or None)


EXAMPLES = collect()


def _marks(ex: Example) -> list[Any]:
    if ex.command in SKIP:
        return [pytest.mark.skip(reason=SKIP[ex.command])]
    if ex.command in SLOW:
        return [pytest.mark.slow]
    return []


_TIMING = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)? ?(?:s|ms|µs)\b|\d[\d,]*(?:\.\d+)? [\w ]+?/s\b")


def normalise(text: str) -> str:
    """Timings and rates replaced by a mark; trailing blanks and blank end lines dropped."""
    lines = [_TIMING.sub("<time>", line).rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n")


def _pattern(doc: str) -> re.Pattern[str]:
    """The doc's printed text as a pattern: ``…``/``...`` match any text, a ``…`` line any lines."""
    parts = []
    for line in normalise(doc).split("\n"):
        if line.strip() in ("…", "..."):
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = re.split(r"…|\.\.\.", line)
            parts.append(".*?".join(re.escape(p) for p in pieces) + "\n")
    return re.compile("".join(parts))


_MORE = "\0more"


def loose_json(text: str) -> Any:
    """JSON where ``…`` stands for left-out members or items and ``"…"`` for any value."""
    out: list[str] = []
    stack: list[str] = []
    in_string, i = False, 0
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c in "{[":
            stack.append(c)
            out.append(c)
        elif c in "}]":
            stack.pop()
            out.append(c)
        elif c == "…" or text.startswith("...", i):
            out.append('"\\u0000more": 0' if stack[-1] == "{" else '"\\u0000more"')
            i += 0 if c == "…" else 2
        else:
            out.append(c)
        i += 1
    return json.loads("".join(out))


def json_part(want: Any, got: Any) -> bool:
    """Whether ``got`` is ``want`` up to its left-out parts."""
    if want == "…":
        return True
    if isinstance(want, dict):
        keys = set(want) - {_MORE}
        return (isinstance(got, dict) and (keys <= set(got) if _MORE in want else keys == set(got))
                and all(json_part(want[k], got[k]) for k in keys))
    if isinstance(want, list):
        if not isinstance(got, list):
            return False
        if want and want[-1] == _MORE:
            return len(got) >= len(want) - 1 and all(json_part(w, g) for w, g in zip(want[:-1], got, strict=False))
        return len(want) == len(got) and all(json_part(w, g) for w, g in zip(want, got, strict=True))
    return type(want) is type(got) and want == got


def run(ex: Example, folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """(exit code, standard output, standard error) of the example run in ``folder``."""
    argv = ex.argv()
    assert argv is not None, f"{ex.id}: not a tapology command; add it to SKIP with a reason"
    (folder / "examples").symlink_to(ROOT / "examples")
    for name, text in FILES.get(ex.command, {}).items():
        (folder / name).write_text(text)
    monkeypatch.chdir(folder)
    for name, value in ex.environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    out, err = io.StringIO(), io.StringIO()
    for earlier in BEFORE.get(ex.command, []):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(shlex.split(earlier)[1:]) == 0, f"{ex.command}: {earlier} failed"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("ex", [pytest.param(e, id=e.id, marks=_marks(e)) for e in EXAMPLES])
def test_example(ex: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example exits as the doc says and prints what its comment or transcript shows."""
    start = time.perf_counter()
    code, out, err = run(ex, tmp_path, monkeypatch)
    assert "Traceback" not in out + err, f"{ex.command}\n{err}"
    assert code == ex.exit_code(), f"{ex.command}: exit {code}, the doc implies {ex.exit_code()}\n{out}{err}"
    both = out + err
    if ex.comment.startswith("{"):
        want = loose_json(ex.comment)
        assert json_part(want, json.loads(out)), f"{ex.command} prints\n{out}\nnot {ex.comment}"
    for needle in PROSE.get(ex.command, ()):
        assert needle in both, f"{ex.command}: {needle!r} not in\n{both}"
    if ex.output is not None:
        if ex.command in VARYING:
            assert VARYING[ex.command] in both, f"{ex.command}: {VARYING[ex.command]!r} not in\n{both}"
        elif ex.output.startswith(("{", "[")):
            assert json_part(loose_json(ex.output), json.loads(out)), f"{ex.command} prints\n{out}\nnot\n{ex.output}"
        else:
            shown = err if ex.output.startswith("tapology: error:") else out
            text = normalise(shown) + "\n"
            assert _pattern(ex.output).fullmatch(text), f"{ex.command} prints\n{shown}\nthe doc shows\n{ex.output}"
    argv = ex.argv() or []
    if "-o" in argv:
        target = argv[argv.index("-o") + 1]
        assert (tmp_path / target).exists(), f"{ex.command}: nothing written to {target}"
    assert time.perf_counter() - start < 30 or ex.command in SLOW, f"{ex.command}: too slow for the default run"


def test_the_docs_have_examples() -> None:
    """The extraction finds the examples of every doc with commands (a broken parser finds none)."""
    files = {e.file for e in EXAMPLES}
    assert {"README.md", "docs/play.md", "docs/views.md", "docs/topology.md", "docs/rules.md"} <= files
    assert len(EXAMPLES) >= 60
    assert sum(e.output is not None for e in EXAMPLES) >= 15


def test_no_unlabelled_commands() -> None:
    """A command is in an ``sh`` or ``console`` block (run here), or a ``text`` block (a synopsis or a session)."""
    loose = [f"{p.relative_to(ROOT)}:{start + i}" for p in DOCS for label, start, lines in _blocks(p) if label == ""
             for i, line in enumerate(lines) if re.match(r"(\$ )?tapology ", line)]
    assert not loose, f"commands in unlabelled blocks (label them sh, console or text): {loose}"


@pytest.mark.parametrize("table", ["SKIP", "SLOW", "VARYING", "PROSE", "FILES", "BEFORE"])
def test_tables_name_doc_commands(table: str) -> None:
    """Every command the tables name is still in the docs (a renamed example leaves no stale entry)."""
    commands = {e.command for e in EXAMPLES}
    named = set(globals()[table]) | {c for earlier in BEFORE.values() for c in earlier} if table == "BEFORE" \
        else set(globals()[table])
    stale = named - commands
    assert not stale, f"{table} names commands no doc has: {sorted(stale)}"


def test_json_part_can_fail() -> None:
    """The JSON comparison refuses a wrong value, a missing key and an extra key without ``…``."""
    assert json_part(loose_json('{"a": 1, …}'), {"a": 1, "b": 2})
    assert not json_part(loose_json('{"a": 1}'), {"a": 1, "b": 2})
    assert not json_part(loose_json('{"a": 2, …}'), {"a": 1})
    assert not json_part(loose_json('{"a": true}'), {"a": 1})
    assert json_part(loose_json('{"a": [{"b": "…"}, …]}'), {"a": [{"b": 3}, 4]})


def test_transcript_pattern_can_fail() -> None:
    """The text comparison ignores timings and left-out parts, nothing else."""
    assert _pattern("took 0.2 s\nx…z\n…\nend").fullmatch(normalise("took 13.5 s\nxyz\na\nb\nend") + "\n")
    assert not _pattern("one\ntwo").fullmatch("one\nthree\n")


# ---- Python blocks and the package's own namespace ----------------------------------------------------------
NEEDS = {"pyspiel": "openspiel", "ray": "ray"}  # an import in a block -> the optional extra it needs


def _python_blocks() -> list:
    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            line = text[: m.start()].count("\n") + 1
            out.append(pytest.param(m.group(1), id=f"{path.relative_to(ROOT)}:{line}"))
    return out


@pytest.mark.parametrize("code", _python_blocks())
def test_python_block_runs(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```python block of the README and docs/ runs as written (as a script: ``__name__`` is ``__main__``),
    from the repository's root; a block that imports an optional extra needs it installed."""
    for module, extra in NEEDS.items():
        if re.search(rf"^\s*import {module}\b", code, re.M):
            pytest.importorskip(module, reason=f"the {extra} extra is not installed")
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<doc block>", "exec"), {"__name__": "__main__"})


def test_the_docs_have_python_blocks() -> None:
    assert len(_python_blocks()) >= 8


def test_the_package_namespace_is_the_curated_api() -> None:
    """``import tapology; help(tapology)`` shows the curated names, each loads, and the docstring's example holds."""
    import pydoc

    import tapology

    text = pydoc.render_doc(tapology, renderer=pydoc.plaintext)
    for name in ("Board", "Atlas", "parse_tape", "classify", "load_game", "perft", "solve_game", "TapologyError"):
        assert name in text and getattr(tapology, name) is not None, name
    board = tapology.builtin_board("plane:3x4")
    assert tapology.Atlas.of(board).tape([tapology.parse_tape("4.right=1.left", board)]) is None
    klein = tapology.builtin_board("klein:3x3")
    assert not tapology.classify(klein).orientable and not tapology.same(klein, tapology.builtin_board("torus:3x3"))
    assert tapology.solve_game(tapology.load_game("tictactoe", "torus:3x3").game).value == 1
    assert tapology.perft("checkers", 6).nodes == 36768
    with pytest.raises(AttributeError):
        tapology.no_such_name  # noqa: B018
