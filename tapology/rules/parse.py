"""Rule files (TOML): read a rule set, checking every entry once; errors name the file, line and entry.

See docs/rules.md for the format.  Every error is a :class:`RuleError` whose message is one
line: ``FILE:LINE: [[move]] 'jump': links: unknown move 'jmp'``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from tapology.errors import TapologyError
from tapology.files import read_text
from tapology.model.grid import ReferenceGrid, get_grid
from tapology.model.group import Cell
from tapology.rules.model import (
    ANY,
    COPY,
    DONTCARE,
    OFF,
    Accept,
    Cleanup,
    EndRule,
    Initial,
    Link,
    Move,
    PatternCell,
    RuleError,
    RuleSet,
    StateDef,
    TapeRule,
)
from tapology.rules.pattern import parse_pattern

TOP_KEYS = {"name", "description", "grid", "players", "board", "boards", "states", "move", "cleanup", "tape", "end",
            "initial", "mandatory", "royal", "regions", "domain"}
MOVE_KEYS = {"name", "player", "pattern", "cells", "orientations", "to", "repeat", "links", "start", "class", "safe"}
CLEANUP_KEYS = {"name", "player", "pattern", "cells", "orientations", "when"}
END_KEYS = {"kind", "k", "states", "player", "result", "op", "value", "region", "move", "length"}
LINK_KEYS = {"move", "moves", "at", "orientations", "forced"}
RELATIVE = re.compile(r"^(own|foe)(?::([A-Za-z0-9_\-]+))?$")
OPS = (">=", "<=", "==", "!=", ">", "<")


class _Where:
    """Finds the line of an entry in the rule file's text (tomllib gives no positions)."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.split("\n")
        self.source = source

    def line(self, table: str | None = None, index: int = 0, key: str | None = None) -> int:
        """1-based line of ``key`` inside the ``index``-th ``[[table]]`` (or ``[table]``, or the top level)."""
        start, end = 0, len(self.lines)
        if table is not None:
            pat = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}\s*\]\]?\s*(#.*)?$")
            hits = [i for i, ln in enumerate(self.lines) if pat.match(ln)]
            if index < len(hits):
                start = hits[index]
                end = next((i for i in range(start + 1, len(self.lines)) if re.match(r"^\s*\[", self.lines[i])),
                           len(self.lines))
            else:
                return 1
        if key is None:
            return start + 1
        kpat = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=")
        for i in range(start, end):
            if kpat.match(self.lines[i]):
                return i + 1
        return start + 1

    def err(self, msg: str, table: str | None = None, index: int = 0, key: str | None = None) -> RuleError:
        """A one-line error at the entry's line."""
        return RuleError(f"{self.source}:{self.line(table, index, key)}: {msg}")


def _orientations(spec: Any, grid: ReferenceGrid, what: str) -> tuple[int, ...]:
    grp = grid.group
    if spec is None or spec == "all":
        return tuple(range(grp.order))
    if spec == "rotations":
        return tuple(g for g in range(grp.order) if not grp.is_reflection(g))
    if spec == "identity":
        return (0,)
    if isinstance(spec, str) and spec.startswith("fix:"):
        try:
            v = tuple(int(x) for x in spec[4:].split(","))
        except ValueError:
            raise RuleError(f"{what}: orientations {spec!r}: expected fix:x,y") from None
        return tuple(g for g in range(grp.order) if grp.act(g, v) == v)
    if isinstance(spec, list) and spec and all(isinstance(g, int) and not isinstance(g, bool) for g in spec):
        bad = [g for g in spec if not 0 <= g < grp.order]
        if bad:
            raise RuleError(f"{what}: orientation {bad[0]} out of range 0..{grp.order - 1}")
        return tuple(dict.fromkeys(spec))
    raise RuleError(f"{what}: orientations {spec!r}: use all, rotations, identity, fix:x,y or a list of numbers")


def _cell(v: Any, grid: ReferenceGrid, what: str) -> Cell:
    if (isinstance(v, list) and len(v) == len(grid.origin)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        return tuple(v)
    raise RuleError(f"{what}: expected a cell like [1, 0], got {v!r}")


def _players(spec: Any, names: tuple[str, ...], what: str) -> tuple[int, ...]:
    if spec is None or spec == "*":
        return tuple(range(len(names)))
    items = spec if isinstance(spec, list) else [spec]
    out = []
    for p in items:
        if p not in names:
            raise RuleError(f"{what}: unknown player {p!r} (players: {', '.join(names)})")
        out.append(names.index(p))
    return tuple(out)


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.where = _Where(text, source)
        self.source = source
        try:
            self.data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RuleError(f"{source}: not valid TOML: {exc}") from None

    def run(self) -> RuleSet:
        d, w = self.data, self.where
        unknown = sorted(set(d) - TOP_KEYS)
        if unknown:
            raise w.err(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(TOP_KEYS))})", key=unknown[0])
        name = d.get("name", Path(self.source).stem)
        try:
            self.grid = get_grid(str(d.get("grid", "square")))
        except TapologyError as exc:
            raise w.err(f"grid: {exc}", key="grid") from None
        players = d.get("players")
        if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)
                and len(set(players)) == len(players)):
            raise w.err(f"players: expected a list of distinct names, got {players!r}", key="players")
        self.players = tuple(players)
        self.states = self._states()
        moves = [self._move(m, i) for i, m in enumerate(self._list("move"))]
        names = [m.name for m in moves]
        for i, m in enumerate(moves):
            if m.name in names[:i]:
                raise w.err(f"[[move]] {m.name!r}: the name is used twice", "move", i, "name")
        cleanups = [self._cleanup(c, i) for i, c in enumerate(self._list("cleanup"))]
        for i, m in enumerate(moves):
            for lk in m.links:
                for t in lk.moves:
                    if t not in names:
                        raise w.err(f"[[move]] {m.name!r}: links: unknown move {t!r}", "move", i, "links")
        ends = [self._end(e, i, names) for i, e in enumerate(self._list("end"))]
        tape = self._tape()
        mandatory = self._names_list("mandatory")
        royal = self._names_list("royal")
        for r in royal:
            if r not in self.state_names:
                raise w.err(f"royal: unknown state {r!r}", key="royal")
        regions = self._regions()
        extra: list[Cell] = []
        if not isinstance(d.get("domain", []), list):
            raise w.err(f"domain: expected a list of extra cells like [[2, 0], [0, 2]], got {d['domain']!r}", key="domain")
        for c in d.get("domain", []):
            extra.append(_cell(c, self.grid, f"{self.source}:{w.line(key='domain')}: domain"))
        if not moves and tape is None:
            raise w.err("the rule set has no [[move]] and no [tape]: nobody could ever move")
        board = d.get("board", "plane:3x3")
        boards = d.get("boards", [board])
        if not isinstance(board, str) or not isinstance(boards, list) or not all(isinstance(b, str) for b in boards):
            raise w.err("board must be a board name and boards a list of names", key="boards")
        desc = d.get("description", "")
        return RuleSet(str(name), self.grid, self.players, self.states, tuple(moves), tuple(cleanups), tape,
                       tuple(ends), self._initial(), board, tuple(boards), mandatory, royal, regions, tuple(extra),
                       str(desc), self.source)

    # ---- pieces ------------------------------------------------------------------
    def _list(self, key: str) -> list[dict[str, Any]]:
        v = self.data.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            raise self.where.err(f"{key}: write each entry as a [[{key}]] table", key=key)
        return v

    def _names_list(self, key: str) -> tuple[str, ...]:
        v = self.data.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.where.err(f"{key}: expected a list of names, got {v!r}", key=key)
        return tuple(v)

    def _states(self) -> tuple[StateDef, ...]:
        w = self.where
        raw = self.data.get("states")
        if not isinstance(raw, dict) or not raw:
            raise w.err("[states]: give at least one named state, e.g. empty = 0", "states")
        out: list[StateDef] = []
        seen: dict[int, str] = {}
        for name, spec in raw.items():
            what = f"[states] {name!r}"
            if RELATIVE.match(name) or name in (ANY, OFF, DONTCARE, COPY, "_", "."):
                raise w.err(f"{what}: the name is reserved", "states", 0, name)
            if isinstance(spec, int) and not isinstance(spec, bool):
                spec = {"value": spec}
            if not isinstance(spec, dict):
                raise w.err(f"{what}: expected a number or a table {{ value = 1, owner = \"X\" }}", "states", 0, name)
            bad = sorted(set(spec) - {"value", "owner", "kind", "symmetry", "symbol"})
            if bad:
                raise w.err(f"{what}: unknown key {bad[0]!r}", "states", 0, name)
            val = spec.get("value")
            if not isinstance(val, int) or isinstance(val, bool) or not 0 <= val < 64:
                raise w.err(f"{what}: value must be a whole number 0..63, got {val!r}", "states", 0, name)
            if val in seen:
                raise w.err(f"{what}: value {val} is already state {seen[val]!r}", "states", 0, name)
            seen[val] = name
            owner = spec.get("owner")
            if owner is not None and owner not in self.players:
                raise w.err(f"{what}: unknown owner {owner!r} (players: {', '.join(self.players)})", "states", 0, name)
            sym: tuple[int, ...] = ()
            if "symmetry" in spec:
                try:
                    sym = _orientations(spec["symmetry"], self.grid, what)
                except RuleError as exc:
                    raise w.err(str(exc), "states", 0, name) from None
                if not self.grid.group.is_subgroup(sym):
                    raise w.err(f"{what}: symmetry {list(sym)} is not a subgroup", "states", 0, name)
                if len(sym) == self.grid.group.order:
                    sym = ()
            out.append(StateDef(name, val, None if owner is None else self.players.index(owner),
                                spec.get("kind"), tuple(sorted(sym)), str(spec.get("symbol", ""))))
        if 0 not in seen:
            raise w.err("[states]: some state must have value 0 (the state of a fresh tile)", "states")
        self.state_names = {s.name for s in out} | {s.symbol for s in out if s.symbol}
        self.state_by_value = {s.value: s.name for s in out}
        self.kinds = {s.kind for s in out if s.kind}
        return tuple(out)

    def _state_token(self, tok: str, what: str, allow_relative: bool = True) -> str:
        if tok in self.state_names:
            return tok
        if tok.isdigit() and int(tok) in self.state_by_value:
            return self.state_by_value[int(tok)]  # a state written by its number, as the seed's drawings do
        m = RELATIVE.match(tok)
        if m and allow_relative:
            if m.group(2) and m.group(2) not in self.kinds:
                raise RuleError(f"{what}: {tok!r}: no state has kind {m.group(2)!r}")
            return tok
        raise RuleError(f"{what}: unknown state {tok!r} (states: {', '.join(sorted(self.state_names))})")

    def _accept(self, tok: str, what: str) -> Accept:
        if tok in (ANY, OFF, DONTCARE):
            return Accept(tok)
        parts = tuple(self._state_token(p, what) for p in tok.split("|"))
        return Accept("states", parts)

    def _after(self, tok: str | None, what: str) -> str | None:
        if tok is None or tok == "_":
            return None
        if tok == COPY:
            return COPY
        t = self._state_token(tok, what)
        m = RELATIVE.match(t)
        if m and (m.group(1) != "own" or not m.group(2)):
            raise RuleError(f"{what}: after-state {tok!r}: write a state, own:KIND, '@' (the moving piece) or '_'")
        return t

    def _cells(self, spec: dict[str, Any], what: str, table: str, i: int) -> tuple[PatternCell, ...]:
        w = self.where
        raw: list[tuple[Cell, str, str | None]] = []
        if "pattern" in spec and "cells" in spec:
            raise w.err(f"{what}: give a pattern or cells, not both", table, i, "cells")
        if "pattern" in spec:
            if not isinstance(spec["pattern"], str):
                raise w.err(f"{what}: pattern must be a string drawing", table, i, "pattern")
            try:
                raw = parse_pattern(spec["pattern"], self.grid, what)
            except RuleError as exc:
                raise w.err(str(exc), table, i, "pattern") from None
        elif "cells" in spec:
            cl = spec["cells"]
            if not isinstance(cl, list) or not cl:
                raise w.err(f"{what}: cells must be a non-empty list", table, i, "cells")
            for c in cl:
                try:
                    if isinstance(c, dict):
                        raw.append((_cell(c.get("at"), self.grid, what), str(c.get("before", ANY)),
                                    None if c.get("after") is None else str(c["after"])))
                    elif isinstance(c, list) and len(c) in (3, 4):
                        raw.append((_cell(c[:2], self.grid, what), str(c[2]), None if len(c) == 3 else str(c[3])))
                    else:
                        raise RuleError(f"{what}: cell entry {c!r}: write [x, y, before, after] or "
                                        "{{ at = [x, y], before = ..., after = ... }}")
                except RuleError as exc:
                    raise w.err(str(exc), table, i, "cells") from None
        else:
            raise w.err(f"{what}: give a pattern (ASCII drawing) or a list of cells", table, i)
        seen: set[Cell] = set()
        out = []
        for cell, b, a in raw:
            if cell in seen:
                raise w.err(f"{what}: cell {list(cell)} is given twice", table, i)
            seen.add(cell)
            try:
                acc = self._accept(b, what)
                aft = self._after(a, what)
            except RuleError as exc:
                raise w.err(str(exc), table, i, "pattern" if "pattern" in spec else "cells") from None
            if acc.kind == OFF and aft is not None:
                raise w.err(f"{what}: cell {list(cell)} is off the board but is given an after-state", table, i)
            out.append(PatternCell(cell, acc, aft))
        if self.grid.origin not in seen:
            raise w.err(f"{what}: the pattern has no origin cell (mark it with '*' or give [0, 0])", table, i)
        origin = next(c for c in out if c.cell == self.grid.origin)
        if origin.before.kind in (OFF, DONTCARE):
            raise w.err(f"{what}: the origin must be on the board", table, i)
        return tuple(sorted(out, key=lambda c: self.grid.order_key(c.cell)))

    def _move(self, spec: dict[str, Any], i: int) -> Move:
        w = self.where
        name = spec.get("name")
        if not isinstance(name, str) or not name:
            raise w.err("[[move]]: every move needs a name", "move", i)
        what = f"[[move]] {name!r}"
        bad = sorted(set(spec) - MOVE_KEYS)
        if bad:
            raise w.err(f"{what}: unknown key {bad[0]!r} (known: {', '.join(sorted(MOVE_KEYS))})", "move", i, bad[0])
        cells = self._cells(spec, what, "move", i)
        try:
            orients = _orientations(spec.get("orientations"), self.grid, what)
            players = _players(spec.get("player"), self.players, what)
            to = _cell(spec["to"], self.grid, f"{what}: to") if "to" in spec else None
        except RuleError as exc:
            raise w.err(str(exc), "move", i, "orientations") from None
        if to is None:
            copies = [c.cell for c in cells if c.after == COPY]
            to = copies[0] if len(copies) == 1 else None
        if to is not None and to not in {c.cell for c in cells}:
            raise w.err(f"{what}: to {list(to)} is not a cell of the pattern", "move", i, "to")
        links: list[Link] = []
        rep = spec.get("repeat", False)
        if rep:
            if to is None:
                raise w.err(f"{what}: repeat needs a 'to' cell (where the piece lands)", "move", i, "repeat")
            if rep not in (True, "optional", "forced"):
                raise w.err(f"{what}: repeat must be true, \"optional\" or \"forced\"", "move", i, "repeat")
            links.append(Link((name,), to, (0,), rep == "forced"))
        raw_links = spec.get("links", [])
        if not isinstance(raw_links, list):
            raise w.err(f"{what}: links must be a list of tables", "move", i, "links")
        for lk in raw_links:
            try:
                links.append(self._link(lk, what, to))
            except RuleError as exc:
                raise w.err(str(exc), "move", i, "links") from None
        safe: list[Cell] = []
        for c in spec.get("safe", []):
            try:
                safe.append(_cell(c, self.grid, f"{what}: safe"))
            except RuleError as exc:
                raise w.err(str(exc), "move", i, "safe") from None
        klass = spec.get("class", "")
        start = spec.get("start", True)
        if not isinstance(start, bool) or not isinstance(klass, str):
            raise w.err(f"{what}: start must be true/false and class a name", "move", i, "start")
        return Move(name, cells, orients, players, to, tuple(links), start, klass, tuple(safe), w.line("move", i),
                    bool(rep))

    def _link(self, lk: Any, what: str, to: Cell | None) -> Link:
        if not isinstance(lk, dict):
            raise RuleError(f"{what}: links: each link is a table {{ moves = [...], at = [x, y] }}")
        bad = sorted(set(lk) - LINK_KEYS)
        if bad:
            raise RuleError(f"{what}: links: unknown key {bad[0]!r} (known: {', '.join(sorted(LINK_KEYS))})")
        names = lk.get("moves", lk.get("move"))
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not names or not all(isinstance(x, str) for x in names):
            raise RuleError(f"{what}: links: name the follow-up moves, e.g. moves = [\"jump\"]")
        at = _cell(lk["at"], self.grid, f"{what}: links: at") if "at" in lk else to
        if at is None:
            raise RuleError(f"{what}: links: give an anchor 'at' (the move has no 'to' cell)")
        orients = _orientations(lk["orientations"], self.grid, f"{what}: links") if "orientations" in lk else ()
        forced = lk.get("forced", True)
        if not isinstance(forced, bool):
            raise RuleError(f"{what}: links: forced must be true or false")
        return Link(tuple(names), at, orients, forced)

    def _cleanup(self, spec: dict[str, Any], i: int) -> Cleanup:
        w = self.where
        name = spec.get("name", f"cleanup-{i + 1}")
        what = f"[[cleanup]] {name!r}"
        bad = sorted(set(spec) - CLEANUP_KEYS)
        if bad:
            raise w.err(f"{what}: unknown key {bad[0]!r} (known: {', '.join(sorted(CLEANUP_KEYS))})", "cleanup", i, bad[0])
        cells = self._cells(spec, what, "cleanup", i)
        if any(c.after == COPY for c in cells):
            raise w.err(f"{what}: a clean-up has no moving piece ('@' is not allowed)", "cleanup", i)
        try:
            orients = _orientations(spec.get("orientations"), self.grid, what)
            players = _players(spec.get("player"), self.players, what)
        except RuleError as exc:
            raise w.err(str(exc), "cleanup", i) from None
        when = spec.get("when", "turn")
        if when not in ("turn", "move"):
            raise w.err(f"{what}: when must be \"turn\" or \"move\", got {when!r}", "cleanup", i, "when")
        mv = Move(str(name), cells, orients, players, None, (), False, "", (), w.line("cleanup", i))
        return Cleanup(mv, when)

    def _end(self, spec: dict[str, Any], i: int, moves: list[str]) -> EndRule:
        w = self.where
        kind = spec.get("kind")
        what = f"[[end]] {kind!r}"
        bad = sorted(set(spec) - END_KEYS)
        if bad:
            raise w.err(f"{what}: unknown key {bad[0]!r} (known: {', '.join(sorted(END_KEYS))})", "end", i, bad[0])
        if kind not in ("line", "no-turns", "count", "chain", "plies"):
            raise w.err(f"[[end]]: kind {kind!r}: use line, no-turns, count, chain or plies", "end", i, "kind")
        result = spec.get("result", "draw" if kind in ("no-turns", "plies") else "win")
        if result not in ("win", "loss", "draw"):
            raise w.err(f"{what}: result {result!r}: use win, loss or draw", "end", i, "result")
        player = spec.get("player", "*")
        if player != "*" and player not in self.players:
            raise w.err(f"{what}: unknown player {player!r}", "end", i, "player")
        pl = None if player == "*" else self.players.index(player)
        states = spec.get("states", [])
        if isinstance(states, str):
            states = [states]
        for s in states:
            try:
                self._state_token(s, what)
            except RuleError as exc:
                raise w.err(str(exc), "end", i, "states") from None
        op = spec.get("op", ">=")
        if op not in OPS:
            raise w.err(f"{what}: op {op!r}: use one of {' '.join(OPS)}", "end", i, "op")
        k = spec.get("k", 0)
        value = spec.get("value", spec.get("length", 0))
        for key, v in (("k", k), ("value", value)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise w.err(f"{what}: {key} must be a whole number ≥ 0, got {v!r}", "end", i, key)
        if kind == "line" and k < 2:
            raise w.err(f"{what}: k must be at least 2", "end", i, "k")
        mv = spec.get("move", "")
        if kind == "chain":
            if mv not in moves:
                raise w.err(f"{what}: unknown move {mv!r}", "end", i, "move")
            value = spec.get("length", value)
        region = spec.get("region", "")
        return EndRule(kind, k, tuple(states), pl, result, op, value, str(region), mv, w.line("end", i))

    def _tape(self) -> TapeRule | None:
        t = self.data.get("tape")
        if t is None:
            return None
        w = self.where
        if not isinstance(t, dict):
            raise w.err("[tape]: expected a table", "tape")
        bad = sorted(set(t) - {"player", "flip"})
        if bad:
            raise w.err(f"[tape]: unknown key {bad[0]!r} (known: player, flip)", "tape", 0, bad[0])
        flip = t.get("flip", "both")
        flips = {"both": (False, True), "no": (False,), "only": (True,)}.get(flip)
        if flips is None:
            raise w.err(f"[tape]: flip {flip!r}: use both, no or only", "tape", 0, "flip")
        try:
            players = _players(t.get("player"), self.players, "[tape]")
        except RuleError as exc:
            raise w.err(str(exc), "tape", 0, "player") from None
        return TapeRule(players, flips)

    def _regions(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        r = self.data.get("regions", {})
        if not isinstance(r, dict):
            raise self.where.err("[regions]: expected a table name = [tile ids]", "regions")
        out = []
        for k, v in r.items():
            if not isinstance(v, list) or not all(isinstance(x, str | int) for x in v):
                raise self.where.err(f"[regions] {k!r}: expected a list of tile ids", "regions", 0, k)
            out.append((k, tuple(str(x) for x in v)))
        return tuple(out)

    def _initial(self) -> Initial:
        w = self.where
        ini = self.data.get("initial", {})
        if not isinstance(ini, dict):
            raise w.err("[initial]: expected a table", "initial")
        bad = sorted(set(ini) - {"layout", "tiles", "frames", "to_move"})
        if bad:
            raise w.err(f"[initial]: unknown key {bad[0]!r} (known: layout, tiles, frames, to_move)", "initial", 0, bad[0])
        layout = ini.get("layout", "")
        if not isinstance(layout, str):
            raise w.err("[initial]: layout must be a string", "initial", 0, "layout")
        toks = tuple(layout.split())
        for t in toks:
            base = t.split("@")[0]
            if base != "." and base not in self.state_names:
                raise w.err(f"[initial]: layout: unknown state {t!r}", "initial", 0, "layout")
        tiles = ini.get("tiles", {})
        if not isinstance(tiles, dict):
            raise w.err("[initial]: tiles must be a table state = [tile ids]", "initial", 0, "tiles")
        for s in tiles:
            if s not in self.state_names:
                raise w.err(f"[initial]: tiles: unknown state {s!r}", "initial", 0, "tiles")
        frames = ini.get("frames", {})
        if not isinstance(frames, dict) or not all(isinstance(v, int) for v in frames.values()):
            raise w.err("[initial]: frames must be a table state = orientation", "initial", 0, "frames")
        for s, f in frames.items():
            if s not in self.state_names or not 0 <= f < self.grid.group.order:
                raise w.err(f"[initial]: frames: bad entry {s} = {f}", "initial", 0, "frames")
        to_move = ini.get("to_move", self.players[0])
        if to_move not in self.players:
            raise w.err(f"[initial]: to_move: unknown player {to_move!r}", "initial", 0, "to_move")
        return Initial(toks, tuple((s, tuple(str(x) for x in v)) for s, v in tiles.items()),
                       tuple(frames.items()), self.players.index(to_move))


def parse_rules(text: str, source: str = "<rules>") -> RuleSet:
    """Parse a rule file's text; :class:`RuleError` names ``source``, the line and the entry."""
    return _Reader(text, source).run()


def load_rules(path: str | Path) -> RuleSet:
    """Read a rule file from disk."""
    return parse_rules(read_text(path, "rule file or built-in game", RuleError), str(path))
