"""Hostile inputs for the fuzzer: mutations of the shipped files, and Hypothesis strategies for board files, rule
files, TAPE strings, FEN positions, transcripts, predicates and whole command lines.

Each generator yields a *case*: the files to write into an empty folder, and the command line to run there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent.parent
RULE_FILES = sorted([*(ROOT / "tapology/games/data").glob("*.toml"), *(ROOT / "examples/games").glob("*.toml"),
                     *(ROOT / "tests/data/games").glob("*.toml")])
BOARD_FILES = sorted((ROOT / "examples/boards").glob("*.toml"))
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
TTT_GAME = ["5", "1", "9", "3", "2", "8", "7", "4", "6"]


@dataclass
class Case:
    """Files (name → text or bytes) and the command line that reads them; ``kind``: which generator made it."""

    kind: str
    argv: list[str]
    files: dict[str, str | bytes] = field(default_factory=dict)

    def write(self, folder: Path) -> None:
        """Write the case's files into ``folder``."""
        for name, data in self.files.items():
            path = folder / name
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))


# ---- text mutations --------------------------------------------------------------------------------
HOSTILE_NUMBERS = ["0", "-1", "-999999999", "999999999", "9" * 40, "9" * 5000, "1e308", "nan", "inf", "-0",
                   "3.5", "0x10", "true", '""', "[]", "{}"]
HOSTILE_STRINGS = ["", " ", "\x00", "\u202e", "ü", "🂡", "a" * 10_000, "../../etc/passwd", "/dev/zero", "-", "--help",
                   "torus:9999999x9999999", "box:999", "'", '"', "\\", "${x}", "%s", "\n"]


def _deep(n: int, open_: str = "[", close: str = "]") -> str:
    return open_ * n + close * n


def mutate(text: str, rnd: random.Random) -> str | bytes:
    """One random hostile change to a TOML or JSON text."""
    lines = text.split("\n")
    op = rnd.randrange(16)
    i = rnd.randrange(len(lines)) if lines else 0
    if op == 0 and lines:
        del lines[i]
    elif op == 1 and lines:
        lines.insert(i, lines[i])
    elif op == 2 and len(lines) > 1:
        j = rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        digits = [k for k, ch in enumerate(text) if ch.isdigit()]
        if digits:
            k = rnd.choice(digits)
            return text[:k] + rnd.choice(HOSTILE_NUMBERS) + text[k + 1:]
    elif op == 4:
        return text[:rnd.randrange(len(text) + 1)]
    elif op == 5:
        return "\ufeff" + text
    elif op == 6:
        lines.insert(i, "x = " + _deep(rnd.choice([40, 1000, 5000])))
    elif op == 7:
        lines.insert(i, "y = " + "{a = " * rnd.choice([40, 3000]) + "1" + "}" * 3000)
    elif op == 8:
        k = rnd.randrange(len(text) + 1)
        return text[:k].encode() + bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 8))) + text[k:].encode()
    elif op == 9 and lines:
        line = lines[i]
        if "=" in line:
            key, _, _val = line.partition("=")
            lines[i] = key + "= " + json.dumps(rnd.choice(HOSTILE_STRINGS))
    elif op == 10 and lines:
        line = lines[i]
        if "=" in line:
            key, _, val = line.partition("=")
            lines[i] = key.rstrip() + "e = " + val.strip() if rnd.random() < 0.5 else key[:-2] + " = " + val
    elif op == 11 and lines:
        lines[i] = lines[i] * rnd.choice([2, 50])
    elif op == 12:
        lines.insert(i, f"[[{rnd.choice(['move', 'end', 'cleanup', 'tape', 'states', 'x'])}]]")
    elif op == 13:
        cell = rnd.choice(["[50, 50]", "[9, 0]", "[-9, -9]", "[999999999999, 0]", "[0]", "[0, 0, 0]", "[true, 1]"])
        for k, line in enumerate(lines):
            if "at = [" in line or (line.strip().startswith("[") and "," in line):
                lines[k] = line.replace(line[line.index("["):line.index("]") + 1], cell, 1) if "]" in line else line
                break
    elif op == 14:
        return text.replace("\n", "\r\n")
    else:
        lines.insert(i, rnd.choice(["mandatory = [\"capturre\"]", "domain = 'box:99'", "domain = [[40, 40]]",
                                    "grid = 'triangle'", "players = []", "board = 'torus:0x3'", "k = 0",
                                    "[states]", "name = 5"]))
    return "\n".join(lines)


def rule_case(rnd: random.Random) -> Case:
    """A mutated shipped rule file, read by rules, moves, perft or verify."""
    src = rnd.choice(RULE_FILES)
    text = src.read_text(encoding="utf-8")
    for _ in range(rnd.choice([1, 1, 2, 3])):
        out = mutate(text, rnd)
        if isinstance(out, bytes):
            return Case("rules", _rule_cmd(rnd, "g.toml"), {"g.toml": out})
        text = out
    return Case("rules", _rule_cmd(rnd, "g.toml"), {"g.toml": text})


def _rule_cmd(rnd: random.Random, name: str) -> list[str]:
    return rnd.choice([["rules", name], ["moves", name], ["perft", name, "--depth", "1"], ["verify", name],
                       ["rules", name, "--json"]])


def board_case(rnd: random.Random) -> Case:
    """A mutated example board file, read by check, show, classify, tape or signature."""
    src = rnd.choice(BOARD_FILES)
    text = src.read_text(encoding="utf-8")
    for _ in range(rnd.choice([1, 1, 2])):
        out = mutate(text, rnd)
        if isinstance(out, bytes):
            text = out.decode("utf-8", "replace")
            break
        text = out
    cmd = rnd.choice([["check", "b.toml"], ["show", "b.toml"], ["classify", "b.toml"], ["signature", "b.toml"],
                      ["tape", "b.toml", "1.up=2.down", "-o", "out.toml"], ["check", "b.toml", "--json"]])
    return Case("boards", cmd, {"b.toml": text})


# ---- Hypothesis strategies ---------------------------------------------------------------------------
SIDES = ["up", "down", "left", "right", "e", "ne", "nw", "w", "sw", "se", "north", "", "UP"]
TILES = ["1", "2", "3", "9", "10", "0", "-1", "a", "", "99999999999999999999"]
nums = st.one_of(st.integers(-3, 12), st.sampled_from(["9" * 30, "-0", "", "x", "1.5"]))


@st.composite
def tapes(draw: Callable) -> str:
    """TAPE strings: side form, cell form, and near misses."""
    if draw(st.booleans()):
        t, u = draw(st.sampled_from(TILES)), draw(st.sampled_from(TILES))
        s1, s2 = draw(st.sampled_from(SIDES)), draw(st.sampled_from(SIDES))
        return f"{t}.{s1}={u}.{s2}" + draw(st.sampled_from(["", "~", "~~", " "]))
    t, u = draw(st.sampled_from(TILES)), draw(st.sampled_from(TILES))
    xs = draw(st.lists(nums, min_size=0, max_size=3))
    return f"{t}@{','.join(map(str, xs))}={u}/{draw(nums)}"


PRED_TERMS = ["line(X)", "line(O)", "empty", "dead", "count(X)", "count(b)", "ply", "true", "false", "prev(empty)",
              "line(Z)", "nosuch", "1", "9" * 40, "count()", "line"]


@st.composite
def predicates(draw: Callable) -> str:
    """Predicates: random expressions over the terms, plus deep nesting and junk."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        n = draw(st.sampled_from([10, 63, 65, 1000, 5000]))
        return "(" * n + "line(X)" + ")" * n
    if kind == 1:
        return "not " * draw(st.sampled_from([3, 64, 65, 3000])) + "line(X)"
    if kind == 2:
        return draw(st.text(max_size=40))
    if kind == 3:
        return " and ".join(draw(st.lists(st.sampled_from(PRED_TERMS), min_size=1, max_size=400)))

    def expr(depth: int) -> str:
        if depth > 3 or draw(st.booleans()):
            return draw(st.sampled_from(PRED_TERMS))
        op = draw(st.sampled_from(["and", "or", "==", ">=", "<", "+", "-", "not", "()", "&&", "||", "!"]))
        if op == "not" or op == "!":
            return f"{op} {expr(depth + 1)}"
        if op == "()":
            return f"({expr(depth + 1)})"
        return f"{expr(depth + 1)} {op} {expr(depth + 1)}"

    return expr(0)


@st.composite
def fens(draw: Callable) -> str:
    """FEN strings: the start position with fields mutated."""
    fields = START_FEN.split(" ")
    k = draw(st.integers(0, len(fields) - 1))
    fields[k] = draw(st.one_of(st.text(alphabet="rnbqkpRNBQKP12345678/-wb0 ", max_size=80),
                               st.sampled_from(["9" * 5000, "", "w", "KQkq", "-", "8/8/8/8/8/8/8/8", "99", "-1"])))
    if draw(st.booleans()):
        fields = fields[:draw(st.integers(0, len(fields)))]
    return " ".join(fields)


@st.composite
def transcripts(draw: Callable) -> str:
    """JSON-lines transcripts for tictactoe: prefixes of a game, positions, and broken lines."""
    n = draw(st.integers(0, 9))
    lines: list[str] = [json.dumps(t) for t in TTT_GAME[:n]]
    junk = st.sampled_from(['{"turn": null}', "[" * 5000 + "]" * 5000, '{"states": [0,0,0]}', '"99"', "9" * 5000,
                            '{"cells": "........."}', "{not json", '{"states": [0,0,0,0,0,0,0,0,0], "to_move": "O"}',
                            '{"turn": ' + "[" * 100 + "]" * 100 + "}", "\ufeff\"1\"", "# comment", ""])
    for _ in range(draw(st.integers(0, 3))):
        lines.insert(draw(st.integers(0, len(lines))), draw(junk))
    return "\n".join(lines) + "\n"


BUILTIN_KINDS = ["plane", "strip", "torus", "klein", "mobius", "cylinder", "hex-torus", "hex-plane", "nosuch"]


@st.composite
def builtins(draw: Callable) -> str:
    """Built-in board names with sizes from tiny to absurd."""
    size = st.one_of(st.integers(0, 6).map(str), st.sampled_from(["9" * 5000, "99999999", "2000", "300", "01", "-3"]))
    kind = draw(st.sampled_from(BUILTIN_KINDS))
    if kind == "strip":
        return f"strip:{draw(size)}"
    return f"{kind}:{draw(size)}x{draw(size)}"


OPT_VALUES = ["nan", "inf", "-inf", "-1", "0", "1", "2", "1e9", "9" * 30, "abc", ""]


@st.composite
def command_lines(draw: Callable) -> list[str]:
    """Whole command lines: a command, a board or game, and options with hostile values."""
    board = draw(st.one_of(builtins(), st.sampled_from(["torus:3x3", "plane:3x3", "klein:3x3"])))
    small = draw(st.sampled_from(["torus:3x3", "plane:3x3", "klein:3x3", "plane:2x2", "strip:3"]))
    game = draw(st.sampled_from(["tictactoe", "tictactoe:4", "tictactoe:3,3,3", "tictactoe:0", "tictactoe:99,99,99",
                                 "checkers", "chinese-checkers", "tictactopology", "chess", "nosuch", "g.toml"]))
    opt = st.sampled_from(OPT_VALUES)
    choices = [
        ["check", board], ["show", board, "--chart", draw(st.sampled_from(["1", "0", "99", "x"]))],
        ["classify", board], ["signature", board], ["same", board, small],
        ["tape", small, draw(tapes())], ["tape", small, draw(tapes()), "-o", "out.toml"],
        ["walk", small, "--from", draw(st.sampled_from(["1", "0", "x", "99"])),
         "--steps", draw(st.sampled_from(["right,right", "up", "", "nowhere", "right," * 200]))],
        ["view", small, "--from", "1", "--radius", draw(opt)],
        ["view", small, "--from", "1", "--format", draw(st.sampled_from(["svg", "ascii", "png", "gif"])), "-o",
         draw(st.sampled_from(["v.svg", "v.png", "v.txt", "v.gif", "v"]))],
        ["net", small, "--format", draw(st.sampled_from(["svg", "ascii", "x"]))],
        ["rules", game], ["moves", game, "--board", small],
        ["perft", game, "--board", small, "--depth", draw(st.sampled_from(["0", "1", "-1", "x", "99999999999"]))],
        ["verify", "tictactoe", "--reach", draw(predicates()), "--depth", draw(st.sampled_from(["0", "2", "-1"]))],
        ["verify", "tictactoe", "--invariant", draw(predicates()), "--depth", "2"],
        ["synthesize", "--tiles", draw(st.sampled_from(["1", "2", "0", "-1", "99999"])), "--count", "--timeout",
         draw(opt)],
        ["compare", "tictactoe", "--boards", draw(st.sampled_from(["torus:3x3", "", "x", "census:0"])), "--timeout",
         draw(st.sampled_from(["nan", "-1", "inf", "0"]))],
        ["fen", draw(fens())],
        ["group", draw(st.sampled_from(["square", "hex", "triangle", ""]))],
        [draw(st.sampled_from(["--version", "-h", "--limit", "nosuch", "--help"]))],
        ["--limit", draw(st.sampled_from(["tiles=1", "tiles=0", "x=1", "coordinate=" + "9" * 30, "nesting"])), "check",
         small],
    ]
    return draw(st.sampled_from(choices))


def tape_case(tape: str) -> Case:
    """A TAPE string applied to a small board, written to a file."""
    return Case("tape", ["tape", "plane:3x3", tape, "-o", "out.toml"])


def predicate_case(pred: str, invariant: bool = False) -> Case:
    """A predicate asked of tictactoe."""
    return Case("predicate", ["verify", "tictactoe", "--invariant" if invariant else "--reach", pred, "--depth", "2"])


def fen_case(fen: str) -> Case:
    """A FEN string read by the chess position commands."""
    return Case("fen", ["fen", fen])


def transcript_case(text: str) -> Case:
    """A transcript refereed for tictactoe."""
    return Case("transcript", ["referee", "tictactoe", "t.jsonl"], {"t.jsonl": text})


def command_case(argv: list[str]) -> Case:
    """A whole command line (with a small rule file at hand as g.toml)."""
    return Case("command", argv, {"g.toml": (ROOT / "tapology/games/data/tictactoe.toml").read_text()})


def draw_values(strat: st.SearchStrategy, n: int, seed: int) -> list[object]:
    """Up to ``n`` values of a strategy, reproducible from ``seed`` (Hypothesis run outside a test)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    out: list[object] = []

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strat)
    def collect(value: object) -> None:
        out.append(value)

    collect()
    return out[:n]


def random_cases(n: int, seed: int) -> list[Case]:
    """About ``n`` cases, spread over every generator, reproducible from ``seed`` (the slow set and the benchmark)."""
    rnd = random.Random(seed)
    per = max(1, n // 7)
    out: list[Case] = [rule_case(rnd) for _ in range(per)] + [board_case(rnd) for _ in range(per)]
    out += [tape_case(v) for v in draw_values(tapes(), per, seed)]  # type: ignore[arg-type]
    out += [predicate_case(v, k % 4 == 0) for k, v in enumerate(draw_values(predicates(), per, seed))]  # type: ignore[arg-type]
    out += [fen_case(v) for v in draw_values(fens(), per, seed)]  # type: ignore[arg-type]
    out += [transcript_case(v) for v in draw_values(transcripts(), per, seed)]  # type: ignore[arg-type]
    out += [command_case(v) for v in draw_values(command_lines(), n - len(out), seed)]  # type: ignore[arg-type]
    return out
