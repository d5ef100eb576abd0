"""Rule files (TOML): read a rule set, checking every entry once; errors name the file, line and entry.

See docs/rules.md for the format.  Every error is a :class:`RuleError` whose message is one
line: ``FILE:LINE: [[move]] 'jump': links: unknown move 'jmp'``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tapology.errors import RuleError, TapologyError
from tapology.files import parse_toml, read_text
from tapology.limits import LIMITS, limit
from tapology.model.grid import ReferenceGrid, get_grid
from tapology.model.group import Cell
from tapology.model.lines import line_vectors
from tapology.rules.model import (
    ANY,
    COPY,
    DONTCARE,
    KEEP,
    OFF,
    Accept,
    Cleanup,
    Condition,
    Counter,
    EndRule,
    GroupCapture,
    Initial,
    LineCapture,
    Link,
    Move,
    PatternCell,
    Phase,
    RuleSet,
    Setup,
    StateDef,
    TapeRule,
)
from tapology.rules.pattern import parse_pattern

T = TypeVar("T")
TOP_KEYS = {"name", "description", "grid", "players", "board", "boards", "states", "move", "cleanup", "tape", "end",
            "initial", "mandatory", "royal", "regions", "domain", "setup", "counter", "notation", "refuse",
            "maximum", "pass", "rbg-pass", "phase", "steps", "extends"}
MOVE_KEYS = {"name", "player", "pattern", "cells", "orientations", "to", "repeat", "links", "start", "class", "safe",
             "final", "lines", "fall", "captures", "if", "cost"}
LINES_KEYS = {"over", "until", "becomes", "directions", "need"}
PASSING = ("when-stuck", "always")
CHOICE = "{choice}"  # in a move's ``if``: the after-state a variant of a choice writes (own:queen)
SCORES = ("pieces", "area")
CLEANUP_KEYS = {"name", "player", "pattern", "cells", "orientations", "when", "if"}
END_KEYS = {"kind", "k", "states", "player", "result", "op", "value", "region", "move", "length", "all", "check",
            "optional", "counter", "claim", "name", "score", "regions", "exact", "after-phases", "both"}
END_KINDS = ("line", "no-turns", "count", "chain", "plies", "counter", "repetition", "connect")
CONDITION_KEYS = {"states", "op", "value", "region", "line", "outside", "here", "around", "any"}
MAX_VALUE = 2**31 - 1  # an end rule's k or value, a condition's value: the native engine holds them in 32 bits
REGION_SPEC = re.compile(r"^(?:(row|column|parity):(-?\d+)|edge:[a-z]+(?:\+[a-z]+)*)$")
LINK_KEYS = {"move", "moves", "at", "orientations", "forced", "anywhere", "if", "until-line"}
RELATIVE = re.compile(r"^(own|foe)(?::([A-Za-z0-9_\-]+))?$")
OPS = (">=", "<=", "==", "!=", ">", "<")


class _Where:
    """Finds the line of an entry in the rule file's text (tomllib gives no positions); in a rule file that
    ``extends`` another, the entries and tables read from the base file are found there."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.split("\n")
        self.source = source
        self.entries: dict[tuple[str, int], tuple[_Where, int]] = {}  # merged [[table]] entry -> its file, index
        self.tables: dict[str, _Where] = {}  # a top-level key or table read from a base file -> that file
        self._headers: dict[str, list[int]] = {}  # table -> the lines of its headers (a file is read once per table)

    def _at(self, table: str | None, index: int, key: str | None) -> tuple[_Where, int]:
        if table is not None and (table, index) in self.entries:
            return self.entries[table, index]
        top = table if table is not None else key
        return (self.tables[top], index) if top in self.tables else (self, index)

    def line(self, table: str | None = None, index: int = 0, key: str | None = None) -> int:
        """1-based line of ``key`` inside the ``index``-th ``[[table]]`` (or ``[table]``, or the top level) in this
        file; for an entry read from a base file, the line of ``extends`` (values keep one file's lines)."""
        w, at = self._at(table, index, key)
        return w._text_line(table, at, key) if w is self else self._text_line(None, 0, "extends")

    def _text_line(self, table: str | None, index: int, key: str | None) -> int:
        """:meth:`line` in this file's own text (``index`` counts its own ``[[table]]`` entries)."""
        start, end = 0, len(self.lines)
        if table is not None:
            hits = self._headers.get(table)
            if hits is None:
                pat = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}\s*\]\]?\s*(#.*)?$")
                hits = self._headers[table] = [i for i, ln in enumerate(self.lines) if pat.match(ln)]
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
        """A one-line error at the entry's line (in the file it was read from)."""
        w, at = self._at(table, index, key)
        return RuleError(f"{w.source}:{w._text_line(table, at, key)}: {msg}")


ENTRY_TABLES = ("move", "cleanup", "end", "phase", "counter", "setup", "refuse")  # the [[table]] lists a file extends
EXTENDS_DEPTH = 8  # rule files extending rule files, at most this deep


def _extended(data: dict[str, Any], where: _Where, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """``data`` over the rule file it ``extends`` (a path beside it): its top-level keys and tables replace the
    base's, its ``[[move]]``, ``[[end]]``, … entries follow the base's, one with a base entry's ``name`` replacing
    that entry where it stands; ``where`` learns which file each merged entry came from.  Cost: reads each base once."""
    spec = data.get("extends")
    if spec is None:
        return data
    if not isinstance(spec, str) or not spec:
        raise where.err(f"extends: expected the path of a rule file, got {spec!r}", key="extends")
    if not Path(where.source).is_file():  # text not read from a file (an upload to the server): nothing to read beside it
        raise where.err(f"extends: {spec!r}: only a rule file on disk may extend another ({where.source!r} is not one)",
                        key="extends")
    base_path = (Path(where.source).parent / spec).resolve()
    if base_path in seen or len(seen) >= EXTENDS_DEPTH:
        chain = " -> ".join(p.name for p in (*seen, base_path))
        why = "a circle" if base_path in seen else f"deeper than {EXTENDS_DEPTH} files"
        raise where.err(f"extends: {spec!r}: rule files extending each other make {why} ({chain})", key="extends")
    text = read_text(base_path, f"{where.source}: extends: rule file", RuleError).removeprefix("\ufeff")
    bw = _Where(text, str(base_path))
    base = _extended(parse_toml(text, str(base_path), RuleError), bw, (*seen, base_path))
    out: dict[str, Any] = {}
    for k, v in base.items():
        if k != "extends":
            out[k] = v
            where.tables[k] = bw.tables.get(k, bw)
    for k, v in data.items():
        if k != "extends":
            out[k] = v
            where.tables.pop(k, None)
    for k in ENTRY_TABLES:
        if isinstance(base.get(k), list):
            own = data.get(k, [])
            if isinstance(own, list):
                out[k] = _entries(k, base[k], own, bw, where)
    return out


def _entries(table: str, base: list[Any], own: list[Any], bw: _Where, where: _Where) -> list[Any]:
    """The ``[[table]]`` entries of a base file followed by a file's own, an own entry named as a base one replacing
    it in place; ``where.entries`` maps each to the file and index it was read from."""
    merged = [(e, bw.entries.get((table, i), (bw, i))) for i, e in enumerate(base)]
    named = {e.get("name"): j for j, (e, _o) in enumerate(merged) if isinstance(e, dict) and isinstance(e.get("name"), str)}
    for i, e in enumerate(own):
        j = named.get(e.get("name")) if isinstance(e, dict) else None
        if j is not None:
            merged[j] = (e, (where, i))
        else:
            merged.append((e, (where, i)))
    for j, (_e, origin) in enumerate(merged):
        where.entries[table, j] = origin
    return [e for e, _o in merged]


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


def _extent(cells: Any, what: str) -> None:
    """:class:`RuleError` naming ``what`` when a cell lies farther from the origin than the coordinate limit."""
    far = max((max(abs(x) for x in c) for c in cells), default=0)
    if far > limit("coordinate"):
        cell = next(list(c) for c in cells if max(abs(x) for x in c) == far)
        raise RuleError(f"{what}: cell {cell} lies {far} steps from the origin, more than the limit "
                        f"coordinate={limit('coordinate')} ({LIMITS['coordinate'].what}; raise it with --limit coordinate=N)")


def _cell(v: Any, grid: ReferenceGrid, what: str) -> Cell:
    if (isinstance(v, list) and len(v) == len(grid.origin)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        _extent([v], what)
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
        text = text.removeprefix("\ufeff")
        self.where = _Where(text, source)
        self.source = source
        me = () if source.startswith("<") else (Path(source).resolve(),)
        self.data = _extended(parse_toml(text, source, RuleError), self.where, me)

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
        self.variants: dict[str, tuple[str, ...]] = {}
        indexed = [(i, mv) for i, m in enumerate(self._list("move")) for mv in self._move(m, i)]
        moves = [mv for _i, mv in indexed]
        names = [m.name for m in moves]
        for i, m in enumerate(moves):
            if m.name in names[:i]:
                raise w.err(f"[[move]] {m.name!r}: the name is used twice", "move", i, "name")
        cleanups = [self._cleanup(c, i) for i, c in enumerate(self._list("cleanup"))]
        moves = [self._expand_links(m) for m in moves]
        for (i, _m), m in zip(indexed, moves, strict=True):
            for lk in m.links:
                for t in lk.moves:
                    if t not in names:
                        raise w.err(f"[[move]] {m.name!r}: links: unknown move {t!r}", "move", i, "links")
        self.counters = self._counters(set(names))
        ends = [self._end(e, i, names) for i, e in enumerate(self._list("end"))]
        tape = self._tape()
        mandatory = self._names_list("mandatory")
        royal = self._names_list("royal")
        for r in royal:
            if r not in self.state_names:
                raise w.err(f"royal: unknown state {r!r}", key="royal")
        for i, m in indexed:
            if m.safe and not royal:
                raise w.err(f"[[move]] {m.name!r}: safe cells are tested as if a royal piece of the mover stood there, "
                            "but the rule set names no royal states", "move", i, "safe")
        self._check_mandatory(mandatory, moves)
        maximum = self._names_list("maximum")
        self._check_mandatory(maximum, moves, "maximum")
        regions = self._regions(self.data.get("regions", {}), "[regions]", "regions")
        setups = self._setups()
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
        phases = self._phases(names)
        budget, moves = self._steps(moves, phases)
        return RuleSet(str(name), self.grid, self.players, self.states, tuple(moves), tuple(cleanups), tape,
                       tuple(ends), self._initial(self.data.get("initial", {}), "initial"), board, tuple(boards),
                       mandatory, royal, regions, tuple(extra), str(desc), self.source, setups, self.counters,
                       self._notation(), self._refused(), maximum, self._passing(), self._rbg_pass(),
                       phases=phases, steps=budget)

    def _steps(self, moves: list[Move], phases: tuple[Phase, ...]) -> tuple[int, list[Move]]:
        """``[steps]``: the turn's step budget (0: none) and the moves with the continuation it gives: after every
        move that starts turns in the regular play, any such move may follow, anywhere, optionally, while the steps
        last and the ``while`` conditions hold (read on the position the chain has reached)."""
        w = self.where
        spec = self.data.get("steps")
        if spec is None:
            for m in moves:
                if m.cost != 1:
                    raise w.err(f"[[move]] {m.name!r}: cost {m.cost} spends steps of a budget, but the rule set has "
                                "no [steps] budget = N", key="steps")
            return 0, moves
        if not isinstance(spec, dict):
            raise w.err("[steps] must be a table: budget = N (the steps a turn spends at most), optional while = [...]",
                        key="steps")
        bad = sorted(set(spec) - {"budget", "while"})
        if bad:
            raise w.err(f"[steps]: unknown key {bad[0]!r} (known: budget, while)", key="steps")
        budget = spec.get("budget")
        if not isinstance(budget, int) or isinstance(budget, bool) or not 1 <= budget <= 64:
            raise w.err(f"[steps]: budget must be a whole number of steps 1..64, got {budget!r}", key="steps")
        conds: tuple[Condition, ...] = ()
        if "while" in spec:
            try:
                conds = self._conditions(spec["while"], "[steps]: while", here=True)
            except RuleError as exc:
                raise w.err(str(exc), key="steps") from None
        phased = {m for ph in phases for m in ph.moves}
        steps = [m.name for m in moves if m.start and m.name not in phased]
        if not steps:
            raise w.err("[steps]: no move starts turns in the regular play, so no step could follow another",
                        key="steps")
        for m in moves:
            if m.cost > budget:
                raise w.err(f"[[move]] {m.name!r}: cost {m.cost} is more than the turn's {budget} steps", key="steps")
        go_on = Link(tuple(steps), None, (), False, True, conds)
        return budget, [dataclasses.replace(m, links=(*m.links, go_on)) if m.name in steps else m for m in moves]

    def _phases(self, names: list[str]) -> tuple[Phase, ...]:
        """``[[phase]]``: turns before the regular play, each with its number of turns, order and entry moves."""
        out = []
        for i, ph in enumerate(self._list("phase")):
            what = f"[[phase]] {ph.get('name', i + 1)!r}"
            bad = sorted(set(ph) - {"name", "plies", "order", "moves"})
            if bad:
                raise self.where.err(f"{what}: unknown key {bad[0]!r} (known: moves, name, order, plies)", "phase", i,
                                     bad[0])
            plies = ph.get("plies")
            if not isinstance(plies, int) or isinstance(plies, bool) or plies < 1:
                raise self.where.err(f"{what}: plies must be a whole number of turns, at least 1, got {plies!r}",
                                     "phase", i, "plies")
            order = ph.get("order", list(self.players))
            if not isinstance(order, list) or not order:
                raise self.where.err(f"{what}: order must be a list of players, got {order!r}", "phase", i, "order")
            try:
                who = tuple(p for x in order for p in _players(x, self.players, f"{what}: order"))
            except RuleError as exc:
                raise self.where.err(str(exc), "phase", i, "order") from None
            moves = ph.get("moves", [])  # none: the moves of the regular play, in the phase's order
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise self.where.err(f"{what}: moves must be a list of move names, got {moves!r}", "phase", i, "moves")
            got: list[str] = []
            for m in moves:
                if m not in names and m not in self.variants:
                    raise self.where.err(f"{what}: moves: unknown move {m!r}", "phase", i, "moves")
                got.extend(self.variants.get(m, (m,)) if m not in names else (m,))
            out.append(Phase(str(ph.get("name", f"phase {i + 1}")), plies, who, tuple(got)))
        return tuple(out)

    def _refused(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """``[[refuse]]``: boards (fnmatch patterns) the game is not meaningful on, each with the reason."""
        out = []
        for i, r in enumerate(self._list("refuse")):
            bad = sorted(set(r) - {"boards", "reason"})
            if bad:
                raise self.where.err(f"[[refuse]]: unknown key {bad[0]!r} (known: boards, reason)", "refuse", i, bad[0])
            boards, reason = r.get("boards"), r.get("reason")
            if not isinstance(boards, list) or not boards or not all(isinstance(b, str) for b in boards):
                raise self.where.err("[[refuse]]: boards must be a list of board names or patterns", "refuse", i,
                                     "boards")
            if not isinstance(reason, str) or not reason.strip() or "\n" in reason:
                raise self.where.err("[[refuse]]: reason must be one line of text", "refuse", i, "reason")
            out.append((tuple(boards), reason.strip()))
        return tuple(out)

    def _passing(self) -> str:
        got = self.data.get("pass", "")
        if got not in ("", *PASSING):
            raise self.where.err(f"pass {got!r}: use {', '.join(repr(p) for p in PASSING)} (a player without a turn "
                                 "passes while another player has one; a player may always pass)", key="pass")
        return str(got)

    def _rbg_pass(self) -> str:
        """``rbg-pass``: how perft --rbg counts a pass ("once", the default, or "pieces": once per piece of the player
        to move, RBG's move that lifts a piece and puts it back)."""
        got = self.data.get("rbg-pass", "")
        if got not in ("", "once", "pieces"):
            raise self.where.err(f"rbg-pass {got!r}: use 'once' or 'pieces' (perft --rbg counts a pass once per piece "
                                 "of the player to move)", key="rbg-pass")
        if got and not self.data.get("pass"):
            raise self.where.err("rbg-pass: the rule set has no pass (set pass = \"always\" or \"when-stuck\")",
                                 key="rbg-pass")
        return "" if got == "once" else str(got)

    def _notation(self) -> str:
        note = self.data.get("notation", "")
        if note not in ("", "chess"):
            raise self.where.err(f"notation {note!r}: the known notation is \"chess\"", key="notation")
        return str(note)

    def _check_mandatory(self, mandatory: tuple[str, ...], moves: list[Move], key: str = "mandatory") -> None:
        classes = {m.klass for m in moves if m.klass}
        for c in mandatory:
            if c not in classes:
                raise self.where.err(f"{key}: no move has class {c!r} (classes: {', '.join(sorted(classes)) or 'none'})",
                                     key=key)

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
            bad = sorted(set(spec) - {"value", "owner", "kind", "symmetry", "symbol", "look"})
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
            look = spec.get("look", "")
            if not isinstance(look, str) or (look and look not in raw):
                raise w.err(f"{what}: look {look!r}: name another state", "states", 0, name)
            out.append(StateDef(name, val, None if owner is None else self.players.index(owner),
                                spec.get("kind"), tuple(sorted(sym)), str(spec.get("symbol", "")), look))
        if 0 not in seen:
            raise w.err("[states]: some state must have value 0 (the state of a fresh tile)", "states")
        self.state_names = {s.name for s in out} | {s.symbol for s in out if s.symbol}
        self.state_by_value = {s.value: s.name for s in out}
        self.kinds = {s.kind for s in out if s.kind}
        return tuple(out)

    def _state_token(self, tok: str, what: str, allow_relative: bool = True) -> str:
        if tok in self.state_names:
            return tok
        if tok.isdigit() and len(tok) <= 6 and int(tok) in self.state_by_value:
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
        if "|" in tok:
            parts = [self._after(p, what) for p in tok.split("|")]
            if COPY in parts or None in parts:
                raise RuleError(f"{what}: after-state {tok!r}: alternatives must be states")
            return "|".join(p for p in parts if p)
        keep = tok.endswith("^")
        t = self._state_token(tok[:-1] if keep else tok, what)
        m = RELATIVE.match(t)
        if m and (m.group(1) != "own" or not m.group(2)):
            raise RuleError(f"{what}: after-state {tok!r}: write a state, own:KIND, '@' (the moving piece) or '_'"
                            " (a state may end in '^' to keep the frame of the piece on the tile)")
        return t + "^" if keep else t

    def _cells(self, spec: dict[str, Any], what: str, table: str, i: int) -> tuple[PatternCell, ...]:
        w = self.where
        raw: list[tuple[Cell, str, str | None]] = []
        regions: dict[Cell, str] = {}
        sources: dict[Cell, Cell] = {}  # a block move's cells: cell -> the cell whose content it gets
        if "pattern" in spec and "cells" in spec:
            raise w.err(f"{what}: give a pattern or cells, not both", table, i, "cells")
        if "pattern" in spec:
            if not isinstance(spec["pattern"], str):
                raise w.err(f"{what}: pattern must be a string drawing", table, i, "pattern")
            try:
                raw = parse_pattern(spec["pattern"], self.grid, what)
                _extent([c for c, _b, _a in raw], f"{what}: pattern")
            except RuleError as exc:
                raise w.err(str(exc), table, i, "pattern") from None
        elif "cells" in spec:
            cl = spec["cells"]
            if not isinstance(cl, list) or not cl:
                raise w.err(f"{what}: cells must be a non-empty list", table, i, "cells")
            for c in cl:
                try:
                    if isinstance(c, dict):
                        bad = sorted(set(c) - {"at", "before", "after", "in", "not-in", "from"})
                        if bad:
                            raise RuleError(f"{what}: cell entry {c!r}: unknown key {bad[0]!r} "
                                            "(known: at, before, after, in, not-in, from)")
                        at = _cell(c.get("at"), self.grid, what)
                        if "from" in c:
                            if "after" in c:
                                raise RuleError(f"{what}: cell {list(at)}: give 'after' or 'from', not both")
                            sources[at] = _cell(c["from"], self.grid, f"{what}: cell {list(at)}: from")
                        raw.append((at, str(c.get("before", ANY)), None if c.get("after") is None else str(c["after"])))
                        for key, prefix in (("in", ""), ("not-in", "!")):
                            if key in c:
                                if not isinstance(c[key], str) or not c[key]:
                                    raise RuleError(f"{what}: cell {list(at)}: {key} must name a region")
                                regions[at] = prefix + c[key]
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
            if regions.get(cell) and acc.kind in (OFF, DONTCARE):
                raise w.err(f"{what}: cell {list(cell)} may be off the board, so it cannot require a region", table, i)
            out.append(PatternCell(cell, acc, aft, regions.get(cell, ""), sources.get(cell)))
        for cell, src in sources.items():
            if src not in seen:
                raise w.err(f"{what}: cell {list(cell)} reads from {list(src)}, which is not a cell of the pattern",
                            table, i, "cells")
            if next(c for c in out if c.cell == src).before.kind in (OFF, DONTCARE):
                raise w.err(f"{what}: cell {list(cell)} reads from {list(src)}, which may be off the board", table, i,
                            "cells")
        if self.grid.origin not in seen:
            raise w.err(f"{what}: the pattern has no origin cell (mark it with '*' or give [0, 0])", table, i)
        origin = next(c for c in out if c.cell == self.grid.origin)
        if origin.before.kind in (OFF, DONTCARE):
            raise w.err(f"{what}: the origin must be on the board", table, i)
        return tuple(sorted(out, key=lambda c: self.grid.order_key(c.cell)))

    def _move(self, spec: dict[str, Any], i: int) -> list[Move]:
        """The move, or one move per choice where a cell's after-state lists alternatives (``own:queen|own:rook``):
        the variants are named ``NAME=CHOICE``, and a link to NAME reaches every variant."""
        m = self._one_move(spec, i)
        choices = [(k, c.after.split("|")) for k, c in enumerate(m.cells) if c.after and "|" in c.after]
        if not choices:
            if any(CHOICE in c.states for c in m.conditions):
                raise self.where.err(f"[[move]] {m.name!r}: if: {CHOICE} names the chosen after-state, and no cell "
                                     "lists alternatives (own:queen|own:rook)", "move", i, "if")
            return self._shot(m, i)
        if m.slide:
            raise self.where.err(f"[[move]] {m.name!r}: a repeated move cannot list alternative after-states", "move", i)
        if len(choices) > 1:
            raise self.where.err(f"[[move]] {m.name!r}: only one cell may list alternative after-states", "move", i)
        k, alts = choices[0]
        out = []
        for a in alts:
            cells = list(m.cells)
            cells[k] = dataclasses.replace(cells[k], after=a)
            label = a.rpartition(":")[2].rstrip("^")
            conds = tuple(dataclasses.replace(c, states=tuple(a.rstrip("^") if x == CHOICE else x for x in c.states))
                          for c in m.conditions)
            out.append(dataclasses.replace(m, name=f"{m.name}={label}", cells=tuple(cells), conditions=conds))
        self.variants[m.name] = tuple(v.name for v in out)
        return out

    def _shot(self, m: Move, i: int) -> list[Move]:
        """A repeated move that leaves its origin as it is and writes a piece on ``to`` (an arrow) is a **shot**: the
        written piece flies on in the same direction over tiles that ``to`` accepts, as its flight ``NAME/flight``
        (a move that carries it one step, repeated as the shot is), one slide with the shot.  Other moves as they are."""
        if not m.slide or m.to is None:
            return [m]
        cell = next(c for c in m.cells if c.cell == m.to)
        if cell.after in (KEEP, COPY) or m.origin.after is not KEEP:
            return [m]
        what = f"[[move]] {m.name!r}: a shot (repeat, the origin kept, a piece written on 'to')"
        if cell.before.kind != "states" or len(cell.before.tokens) != 1 or RELATIVE.match(cell.before.tokens[0]):
            raise self.where.err(f"{what}: 'to' must accept one state (what the piece flies over, e.g. empty), "
                                 f"not {cell.before.text()!r}", "move", i, "repeat")
        if len(m.links) > 1:
            raise self.where.err(f"{what}: a shot takes no links (the flight ends the chain)", "move", i, "links")
        flight = f"{m.name}/flight"
        repeat = Link((flight,), m.to, (0,), m.links[0].forced)
        carried = (cell.after or "").rstrip("^")
        cells = (PatternCell(self.grid.origin, Accept("states", (carried,)), cell.before.tokens[0]),
                 PatternCell(m.to, cell.before, COPY, cell.region))
        fly = Move(flight, tuple(sorted(cells, key=lambda c: self.grid.order_key(c.cell))),
                   (0,), m.players, m.to, (repeat,), False, m.klass, (), m.line, True, True, flight_of=m.name)
        return [dataclasses.replace(m, links=(repeat,)), fly]

    def _one_move(self, spec: dict[str, Any], i: int) -> Move:
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
        final = spec.get("final", True)
        if not isinstance(final, bool):
            raise w.err(f"{what}: final must be true or false", "move", i, "final")
        if not final and not links and not rep:
            raise w.err(f"{what}: final = false needs links (or repeat): no chain could ever end", "move", i, "final")
        lines = self._move_part(spec, i, "lines", lambda v: self._lines(v, what))
        fall = self._move_part(spec, i, "fall", lambda v: _cell(v, self.grid, f"{what}: fall"))
        if fall is not None:
            if fall == self.grid.origin:
                raise w.err(f"{what}: fall [0, 0] is no direction (write the way pieces fall, e.g. [0, -1])", "move",
                            i, "fall")
            origin = next(c for c in cells if c.cell == self.grid.origin)
            if origin.before.kind != "states":
                raise w.err(f"{what}: fall needs an origin that accepts states (the states a piece falls through)",
                            "move", i, "fall")
        captures = self._move_part(spec, i, "captures", lambda v: self._captures(v, what))
        conds = self._move_part(spec, i, "if", lambda v: self._conditions(v, f"{what}: if", choice=True, here=True))
        cost = spec.get("cost", 1)
        if not isinstance(cost, int) or isinstance(cost, bool) or not 1 <= cost <= 64:
            raise w.err(f"{what}: cost must be a whole number of steps 1..64, got {cost!r}", "move", i, "cost")
        return Move(name, cells, orients, players, to, tuple(links), start, klass, tuple(safe), w.line("move", i),
                    bool(rep), final, lines, fall, captures, conds or (), cost=cost)

    def _move_part(self, spec: dict[str, Any], i: int, key: str, read: Callable[[Any], T]) -> T | None:
        """A move's optional ``key`` read by ``read`` (None when absent); its error named at the move's entry."""
        if key not in spec:
            return None
        try:
            return read(spec[key])
        except RuleError as exc:
            raise self.where.err(str(exc), "move", i, key) from None

    def _captures(self, spec: Any, what: str) -> GroupCapture:
        """Capture by liberties: ``{ groups = "foe", liberties = "empty", becomes = "empty", suicide = false }``."""
        what = f"{what}: captures"
        if not isinstance(spec, dict):
            raise RuleError(f"{what}: write a table {{ groups = \"foe\", liberties = \"empty\", becomes = \"empty\" }}")
        bad = sorted(set(spec) - {"groups", "liberties", "becomes", "suicide"})
        if bad:
            raise RuleError(f"{what}: unknown key {bad[0]!r} (known: becomes, groups, liberties, suicide)")
        toks = {}
        for key in ("groups", "liberties"):
            v = spec.get(key)
            acc = self._accept(v, f"{what}: {key}") if isinstance(v, str) and v else None
            if acc is None or acc.kind != "states":
                raise RuleError(f"{what}: {key} must name states, e.g. \"foe\", got {v!r}")
            toks[key] = acc.tokens
        raw = spec.get("becomes")
        becomes = self._after(raw, f"{what}: becomes") if isinstance(raw, str) else None
        if becomes is None or becomes == COPY or "|" in becomes or becomes.endswith("^"):
            raise RuleError(f"{what}: becomes must name one state, got {raw!r}")
        suicide = spec.get("suicide", False)
        if not isinstance(suicide, bool):
            raise RuleError(f"{what}: suicide must be true or false")
        return GroupCapture(toks["groups"], toks["liberties"], becomes, suicide)

    def _lines(self, spec: Any, what: str) -> LineCapture:
        """A move's line capture: ``{ over = "foe", until = "own", becomes = "own", directions = "lines", need = 1 }``."""
        what = f"{what}: lines"
        if not isinstance(spec, dict):
            raise RuleError(f"{what}: write a table {{ over = \"foe\", until = \"own\", becomes = \"own\" }}")
        bad = sorted(set(spec) - LINES_KEYS)
        if bad:
            raise RuleError(f"{what}: unknown key {bad[0]!r} (known: {', '.join(sorted(LINES_KEYS))})")
        toks = {}
        for key in ("over", "until"):
            v = spec.get(key)
            if not isinstance(v, str) or not v:
                raise RuleError(f"{what}: {key} must name the states of the run's tiles, e.g. \"foe\"")
            acc = self._accept(v, f"{what}: {key}")
            if acc.kind != "states":
                raise RuleError(f"{what}: {key} must name states, not {v!r}")
            toks[key] = acc.tokens
        becomes = self._after(spec.get("becomes"), f"{what}: becomes") if isinstance(spec.get("becomes"), str) else None
        if becomes is None or becomes == COPY or "|" in becomes or becomes.endswith("^"):
            raise RuleError(f"{what}: becomes must name one state (or own:KIND), got {spec.get('becomes')!r}")
        dirs = spec.get("directions", "lines")
        if dirs == "lines":
            base = line_vectors(self.grid)
            directions = tuple(dict.fromkeys([*base, *(self.grid.neg(v) for v in base)]))
        elif dirs == "sides":
            directions = tuple(self.grid.directions)
        elif isinstance(dirs, list) and dirs:
            directions = tuple(dict.fromkeys(_cell(c, self.grid, f"{what}: directions") for c in dirs))
            if self.grid.origin in directions:
                raise RuleError(f"{what}: directions: [0, 0] is no direction")
        else:
            raise RuleError(f"{what}: directions must be \"lines\" (rows, columns and diagonals both ways), "
                            f"\"sides\" (the unit directions) or a list of steps, got {dirs!r}")
        need = spec.get("need", 1)
        if not isinstance(need, int) or isinstance(need, bool) or need < 0:
            raise RuleError(f"{what}: need must be a whole number ≥ 0, got {need!r}")
        return LineCapture(toks["over"], toks["until"], becomes, directions, need)

    def _expand_links(self, m: Move) -> Move:
        """Links naming a move with alternatives reach each of its variants."""
        if not self.variants or not m.links:
            return m
        links = tuple(dataclasses.replace(lk, moves=tuple(v for t in lk.moves for v in self.variants.get(t, (t,))))
                      for lk in m.links)
        return dataclasses.replace(m, links=links)

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
        anywhere = lk.get("anywhere", False)
        if not isinstance(anywhere, bool):
            raise RuleError(f"{what}: links: anywhere must be true or false")
        conds: tuple[Condition, ...] = ()
        if "if" in lk:
            if not isinstance(lk["if"], list) or not lk["if"]:
                raise RuleError(f"{what}: links: if must be a non-empty list of count conditions")
            conds = tuple(self._condition(c, f"{what}: links: if", here=True) for c in lk["if"])
        until_line = lk.get("until-line", 0)
        if not isinstance(until_line, int) or isinstance(until_line, bool) or until_line < 0:
            raise RuleError(f"{what}: links: until-line must be a count of tiles in a row (e.g. 5), got {until_line!r}")
        if anywhere:
            if "at" in lk:
                raise RuleError(f"{what}: links: an anywhere link has no anchor 'at'")
            at = None
        else:
            at = _cell(lk["at"], self.grid, f"{what}: links: at") if "at" in lk else to
            if at is None:
                raise RuleError(f"{what}: links: give an anchor 'at' (the move has no 'to' cell)")
        orients = _orientations(lk["orientations"], self.grid, f"{what}: links") if "orientations" in lk else ()
        forced = lk.get("forced", True)
        if not isinstance(forced, bool):
            raise RuleError(f"{what}: links: forced must be true or false")
        return Link(tuple(names), at, orients, forced, anywhere, conds, until_line)

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
        raw_if = spec.get("if", [])
        if isinstance(raw_if, dict):
            raw_if = [raw_if]
        if not isinstance(raw_if, list):
            raise w.err(f"{what}: if must be a list of conditions {{ states = [...], op = \"==\", value = 0 }}",
                        "cleanup", i, "if")
        try:
            conds = tuple(self._condition(c, f"{what}: if") for c in raw_if)
        except RuleError as exc:
            raise w.err(str(exc), "cleanup", i, "if") from None
        return Cleanup(mv, when, conds)

    def _conditions(self, raw: Any, what: str, choice: bool = False, here: bool = False) -> tuple[Condition, ...]:
        """A list of count conditions (or one table); ``choice``: a state may be written ``{choice}``; ``here``
        allowed where a tile is at hand (a move's or a link's)."""
        if isinstance(raw, dict):
            raw = [raw]
        if not isinstance(raw, list) or not raw:
            raise RuleError(f"{what}: write a list of conditions {{ states = [...], op = \"==\", value = 0 }}")
        return tuple(self._condition(c, what, choice, here) for c in raw)

    def _condition(self, spec: Any, what: str, choice: bool = False, here: bool = False) -> Condition:
        """A count condition: states (names or own/foe tokens), op, value, optional region, line, outside, here."""
        if not isinstance(spec, dict):
            raise RuleError(f"{what}: each condition is a table {{ states = [...], op = \">=\", value = 1 }}")
        bad = sorted(set(spec) - CONDITION_KEYS)
        if bad:
            raise RuleError(f"{what}: unknown key {bad[0]!r} (known: {', '.join(sorted(CONDITION_KEYS))})")
        if "any" in spec:
            # a disjunction: the condition holds when one of its alternatives does
            alts = spec["any"]
            if set(spec) != {"any"}:
                raise RuleError(f"{what}: a condition with any = [...] has no other keys (write the counts inside it)")
            if not isinstance(alts, list) or len(alts) < 2:
                raise RuleError(f"{what}: any must list at least two conditions, one of which must hold")
            parts = tuple(self._condition(c, f"{what}: any", False, here) for c in alts)
            if any(p.any for p in parts):
                raise RuleError(f"{what}: any: an alternative is one count (any inside any is not read)")
            return Condition((), any=parts)
        states = spec.get("states", [])
        if isinstance(states, str):
            states = [states]
        if not isinstance(states, list) or not states or not all(isinstance(x, str) for x in states):
            raise RuleError(f"{what}: states must name at least one state")
        for x in states:
            if not (choice and x == CHOICE):
                self._state_token(x, what)
        op = spec.get("op", ">=")
        if op not in OPS:
            raise RuleError(f"{what}: op {op!r}: use one of {' '.join(OPS)}")
        value = spec.get("value", 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE:
            raise RuleError(f"{what}: value must be a whole number 0..{MAX_VALUE}, got {value!r}")
        region = spec.get("region", "")
        if not isinstance(region, str):
            raise RuleError(f"{what}: region must be a region name")
        line = spec.get("line", 0)
        if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line <= 64 or line == 1:
            raise RuleError(f"{what}: line must be the number of tiles in a row, 2..64, got {line!r}")
        flags = {k: spec.get(k, False) for k in ("outside", "here", "around")}
        for k, v in flags.items():
            if not isinstance(v, bool):
                raise RuleError(f"{what}: {k} must be true or false")
        if flags["outside"] and not line:
            raise RuleError(f"{what}: outside = true counts the tiles on no line: it needs line = K")
        if flags["here"] and not here:
            raise RuleError(f"{what}: here = true (the tile a move starts or ends on) is read only by a move's or a "
                            "link's if")
        if flags["around"] and not here:
            raise RuleError(f"{what}: around = true (the tiles next to the one a move starts or ends on) is read only "
                            "by a move's or a link's if")
        if flags["around"] and (flags["here"] or line):
            raise RuleError(f"{what}: around = true counts the tiles next to the tile at hand: not with here or line")
        return Condition(tuple(states), op, value, region, line, flags["outside"], flags["here"], flags["around"])

    def _counters(self, classes_known: set[str]) -> tuple[Counter, ...]:
        w = self.where
        out: list[Counter] = []
        for i, c in enumerate(self._list("counter")):
            name = c.get("name")
            if not isinstance(name, str) or not name:
                raise w.err("[[counter]]: every counter needs a name", "counter", i)
            bad = sorted(set(c) - {"name", "reset-classes", "reset-kinds", "after-phases"})
            if bad:
                raise w.err(f"[[counter]] {name!r}: unknown key {bad[0]!r} (known: after-phases, name, reset-classes, "
                            "reset-kinds)", "counter", i, bad[0])
            after = c.get("after-phases", False)
            if not isinstance(after, bool):
                raise w.err(f"[[counter]] {name!r}: after-phases must be true or false", "counter", i, "after-phases")
            lists = []
            for key in ("reset-classes", "reset-kinds"):
                v = c.get(key, [])
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise w.err(f"[[counter]] {name!r}: {key} must be a list of names", "counter", i, key)
                lists.append(tuple(v))
            if any(name == o.name for o in out):
                raise w.err(f"[[counter]] {name!r}: the name is used twice", "counter", i, "name")
            out.append(Counter(name, lists[0], lists[1], after))
        return tuple(out)

    def _end(self, spec: dict[str, Any], i: int, moves: list[str]) -> EndRule:
        w = self.where
        kind = spec.get("kind")
        what = f"[[end]] {kind!r}"
        bad = sorted(set(spec) - END_KEYS)
        if bad:
            raise w.err(f"{what}: unknown key {bad[0]!r} (known: {', '.join(sorted(END_KEYS))})", "end", i, bad[0])
        if kind not in END_KINDS:
            raise w.err(f"[[end]]: kind {kind!r}: use {', '.join(END_KINDS)}", "end", i, "kind")
        result = spec.get("result", "draw" if kind in ("no-turns", "plies", "counter", "repetition") else "win")
        if result not in ("win", "loss", "draw", "score"):
            raise w.err(f"{what}: result {result!r}: use win, loss, draw or score", "end", i, "result")
        score_kind = spec.get("score", "pieces" if result == "score" else "")
        if result == "score" and score_kind not in SCORES:
            raise w.err(f"{what}: score {score_kind!r}: use {', '.join(SCORES)}", "end", i, "score")
        if result != "score" and "score" in spec:
            raise w.err(f"{what}: score is read only with result = \"score\"", "end", i, "score")
        player = spec.get("player", "*")
        mover = player == "mover" and "mover" not in self.players
        if mover and kind != "chain":
            raise w.err(f"{what}: player = \"mover\" is read only by kind = \"chain\"", "end", i, "player")
        if player != "*" and player not in self.players and not mover:
            raise w.err(f"{what}: unknown player {player!r}", "end", i, "player")
        pl = None if player == "*" or mover else self.players.index(player)
        states = spec.get("states", [])
        if isinstance(states, str):
            states = [states]
        for x in states:
            try:
                self._state_token(x, what)
            except RuleError as exc:
                raise w.err(str(exc), "end", i, "states") from None
        op = spec.get("op", ">=")
        if op not in OPS:
            raise w.err(f"{what}: op {op!r}: use one of {' '.join(OPS)}", "end", i, "op")
        k = spec.get("k", 0)
        value = spec.get("value", spec.get("length", 0))
        for key, v in (("k", k), ("value", value)):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_VALUE:
                raise w.err(f"{what}: {key} must be a whole number 0..{MAX_VALUE}, got {v!r}", "end", i, key)
        if kind == "line" and k < 2:
            raise w.err(f"{what}: k must be at least 2", "end", i, "k")
        mv = spec.get("move", "")
        if kind == "chain":
            if mv not in moves:
                raise w.err(f"{what}: unknown move {mv!r}", "end", i, "move")
            value = spec.get("length", value)
        region = spec.get("region", "")
        if not isinstance(region, str):
            raise w.err(f"{what}: region must be a region name", "end", i, "region")
        conditions: tuple[Condition, ...] = ()
        if kind == "count":
            try:
                if "all" in spec:
                    if "states" in spec or not isinstance(spec["all"], list) or not spec["all"]:
                        raise RuleError(f"{what}: give either states/op/value or a non-empty list all = [...]")
                    conditions = tuple(self._condition(c, f"{what}: all") for c in spec["all"])
                else:
                    conditions = (self._condition({"states": states, "op": op, "value": value, "region": region},
                                                  what),)
            except RuleError as exc:
                raise w.err(str(exc), "end", i, "all" if "all" in spec else "states") from None
        regions: tuple[str, ...] = ()
        if kind == "connect":
            raw = spec.get("regions")
            if not isinstance(raw, list) or len(raw) < 2 or not all(isinstance(x, str) and x for x in raw):
                raise w.err(f"{what}: regions must list at least two region names (\"{{player}}\" stands for the "
                            "player), e.g. [\"top\", \"bottom\"]", "end", i, "regions")
            regions = tuple(raw)
        elif "regions" in spec:
            raise w.err(f"{what}: regions is read only by kind = \"connect\"", "end", i, "regions")
        exact = spec.get("exact", False)
        if not isinstance(exact, bool) or (exact and kind != "line"):
            raise w.err(f"{what}: exact must be true or false, and is read only by kind = \"line\"", "end", i, "exact")
        both = spec.get("both", "mover")
        if both not in ("mover", "draw") or (both != "mover" and kind != "line"):
            raise w.err(f"{what}: both must be \"mover\" or \"draw\", and is read only by kind = \"line\"", "end", i,
                        "both")
        check = spec.get("check")
        if check is not None and not isinstance(check, bool):
            raise w.err(f"{what}: check must be true or false", "end", i, "check")
        if check is not None and not self.data.get("royal"):
            raise w.err(f"{what}: check means a royal piece is capturable, but the rule set names no royal states",
                        "end", i, "check")
        optional = spec.get("optional", False)
        if not isinstance(optional, bool):
            raise w.err(f"{what}: optional must be true or false", "end", i, "optional")
        claim = spec.get("claim", False)
        if not isinstance(claim, bool):
            raise w.err(f"{what}: claim must be true or false", "end", i, "claim")
        if claim and kind == "no-turns":
            raise w.err(f"{what}: a no-turns rule cannot be a claim (the player to move has no turn to claim on)",
                        "end", i, "claim")
        name = spec.get("name", "")
        if not isinstance(name, str):
            raise w.err(f"{what}: name must be a string", "end", i, "name")
        counter = spec.get("counter", "")
        if kind == "counter" or (kind == "repetition" and counter):
            if counter not in {c.name for c in self.counters}:
                raise w.err(f"{what}: unknown counter {counter!r} (declare it in a [[counter]] table)", "end", i,
                            "counter")
        if kind == "repetition" and value < 2:
            raise w.err(f"{what}: value must be at least 2 (the number of times a position stands)", "end", i, "value")
        after = spec.get("after-phases", False)
        if not isinstance(after, bool):
            raise w.err(f"{what}: after-phases must be true or false", "end", i, "after-phases")
        return EndRule(kind, k, tuple(states), pl, result, op, value, mv, conditions, check, optional or claim,
                       str(counter), w.line("end", i), claim, name, str(score_kind), regions, exact, after, both, mover)

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

    def _regions(self, r: Any, what: str, table: str, index: int = 0) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Regions: name = tile ids and specs (``row:N``, ``column:N`` counted from 1, negative from the far end;
        ``parity:K``: tiles whose drawn x + y is K modulo 2)."""
        if not isinstance(r, dict):
            raise self.where.err(f"{what}: expected a table name = [tile ids or specs]", table, index)
        out = []
        for k, v in r.items():
            items = [v] if isinstance(v, str) else v
            if not isinstance(items, list) or not all(isinstance(x, str | int) and not isinstance(x, bool) for x in items):
                raise self.where.err(f"{what} {k!r}: expected a list of tile ids or specs like \"row:1\"", table, index, k)
            for x in items:
                x = str(x)
                if ":" in x and (not REGION_SPEC.match(x) or (x.endswith(":0") and not x.startswith("parity"))):
                    raise self.where.err(f"{what} {k!r}: bad spec {x!r} (use row:N, column:N, parity:0, parity:1 or "
                                         "edge:SIDE[+SIDE…])",
                                         table, index, k)
            out.append((k, tuple(str(x) for x in items)))
        return tuple(out)

    def _setups(self) -> tuple[Setup, ...]:
        out = []
        for i, st in enumerate(self._list("setup")):
            bad = sorted(set(st) - {"boards", "layout", "tiles", "frames", "to_move", "fill", "regions"})
            if bad:
                raise self.where.err(f"[[setup]]: unknown key {bad[0]!r} (known: boards, layout, tiles, frames, to_move, "
                                     "fill, regions)", "setup", i, bad[0])
            boards = st.get("boards")
            if not isinstance(boards, list) or not boards or not all(isinstance(b, str) for b in boards):
                raise self.where.err("[[setup]]: boards must be a list of board names or patterns", "setup", i, "boards")
            ini = {k: v for k, v in st.items() if k in ("layout", "tiles", "frames", "to_move", "fill")}
            out.append(Setup(tuple(boards), self._initial(ini, "setup", i),
                             self._regions(st.get("regions", {}), "[[setup]] regions", "setup", i)))
        return tuple(out)

    def _initial(self, ini: Any, table: str, index: int = 0) -> Initial:
        w = self.where
        what = f"[{table}]" if table == "initial" else f"[[{table}]]"
        if not isinstance(ini, dict):
            raise w.err(f"{what}: expected a table", table, index)
        bad = sorted(set(ini) - {"layout", "tiles", "frames", "to_move", "fill"})
        if bad:
            raise w.err(f"{what}: unknown key {bad[0]!r} (known: layout, tiles, frames, to_move, fill)", table, index,
                        bad[0])
        layout = ini.get("layout", "")
        if not isinstance(layout, str):
            raise w.err(f"{what}: layout must be a string", table, index, "layout")
        toks = tuple(layout.split())
        for t in toks:
            base = t.split("@")[0]
            if base != "." and base not in self.state_names:
                raise w.err(f"{what}: layout: unknown state {t!r}", table, index, "layout")
        tiles = ini.get("tiles", {})
        if not isinstance(tiles, dict):
            raise w.err(f"{what}: tiles must be a table state = [tile ids]", table, index, "tiles")
        for x in tiles:
            if x not in self.state_names:
                raise w.err(f"{what}: tiles: unknown state {x!r}", table, index, "tiles")
        frames = ini.get("frames", {})
        if not isinstance(frames, dict) or not all(isinstance(v, int) for v in frames.values()):
            raise w.err(f"{what}: frames must be a table state = orientation", table, index, "frames")
        for x, f in frames.items():
            if x not in self.state_names or not 0 <= f < self.grid.group.order:
                raise w.err(f"{what}: frames: bad entry {x} = {f}", table, index, "frames")
        to_move = ini.get("to_move", self.players[0])
        if to_move not in self.players:
            raise w.err(f"{what}: to_move: unknown player {to_move!r}", table, index, "to_move")
        fill = ini.get("fill", {})
        if not isinstance(fill, dict) or not all(isinstance(v, str) for v in fill.values()):
            raise w.err(f"{what}: fill must be a table state = region name", table, index, "fill")
        for x in fill:
            if x not in self.state_names:
                raise w.err(f"{what}: fill: unknown state {x!r}", table, index, "fill")
        return Initial(toks, tuple((x, tuple(str(v) for v in vs)) for x, vs in tiles.items()),
                       tuple(frames.items()), self.players.index(to_move), tuple(fill.items()))


def parse_rules(text: str, source: str = "<rules>") -> RuleSet:
    """Parse a rule file's text; :class:`RuleError` names ``source``, the line and the entry."""
    return _Reader(text, source).run()


def load_rules(path: str | Path) -> RuleSet:
    """Read a rule file from disk."""
    return parse_rules(read_text(path, "rule file or built-in game", RuleError), str(path))
