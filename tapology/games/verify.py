"""Static checks of a rule set: findings with file, line and entry.

A rule file that does not parse is one finding (the parser's message names the file, line
and entry: undefined states, links to missing moves, unknown keys, …).  A rule set that
parses is checked for:

* ``never-fits`` — a move that fits nowhere on the board (no tile and orientation where its
  cells land as the pattern asks), for any player allowed to make it;
* ``after-state`` — an after-state naming no state, or several, for some player;
* ``outside-domain`` — pattern cells or link anchors outside the board's chart domain;
* ``anchor`` — a link anchored at a cell that is not a cell of the move's own pattern;
* ``unreachable-move`` — a move that is not a starting move and no move links to;
* ``never-produced`` — a state no move or clean-up writes and the start position lacks;
* ``cleanup-cycle`` — clean-up rewrites whose state changes form a cycle, so running them
  to a fixpoint need not terminate (when the changes are acyclic every rewrite moves a
  tile up a finite order, so the fixpoint is reached);
* ``not-subgroup`` — a move's orientation set that is not closed under composition and
  inverses although the move repeats or is a follow-up read in its own frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from tapology.errors import TapologyError
from tapology.games.kinrow import game_lines
from tapology.games.registry import LoadedGame
from tapology.model.atlas import Atlas
from tapology.rules.model import ANY, COPY, DONTCARE, OFF, RuleSet


@dataclass(frozen=True)
class Finding:
    """One problem found: severity (error, warning, info), a code, the message, and where."""

    severity: str
    code: str
    message: str
    file: str = ""
    line: int = 0
    entry: str = ""

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {"severity": self.severity, "code": self.code, "message": self.message, "file": self.file,
                "line": self.line, "entry": self.entry}

    def text(self) -> str:
        """``file:line: severity: [entry] message``."""
        where = f"{self.file}:{self.line}: " if self.file and self.line else f"{self.file}: " if self.file else ""
        entry = f"[{self.entry}] " if self.entry else ""
        return f"{where}{self.severity}: {entry}{self.message} ({self.code})"


def _is_subgroup(orients: tuple[int, ...], mul: Sequence[Sequence[int]], inv: Sequence[int]) -> bool:
    s = set(orients)
    return bool(s) and all(mul[a][b] in s for a in s for b in s) and all(inv[a] in s for a in s)


Emit: TypeAlias = Callable[[str, str, str, int, str], None]  # (severity, code, message, line, entry)


def static_checks(lg: LoadedGame) -> list[Finding]:
    """Every finding for the loaded game's rule set ([] for the built-in k-in-a-row games, which have no rule file)."""
    rules = lg.rules
    if rules is None:
        return []
    out: list[Finding] = []

    def f(sev: str, code: str, msg: str, line: int, entry: str) -> None:
        out.append(Finding(sev, code, msg, rules.source, line, entry))

    _move_findings(lg, rules, f)
    _state_findings(lg, rules, f)
    _cleanup_findings(rules, f)
    return out


def _move_findings(lg: LoadedGame, rules: RuleSet, f: Emit) -> None:
    """Each move: cells outside the chart domain, stray link anchors, moves nothing reaches, orientation sets that
    are no subgroup where frames chain, and moves that fit nowhere on the game's board."""
    grid = rules.grid
    grp = grid.group
    mul, inv = grp.mul, grp.inv
    generic = lg.generic
    board = generic.initial().board if generic is not None else None
    comp = generic.compiled(board) if generic is not None and board is not None else None
    dom = board.domain if board is not None else rules.domain
    linked: set[str] = set()
    for m in rules.moves:
        for lk in m.links:
            linked.update(lk.moves)
    self_frame: set[str] = set()
    for m in rules.moves:
        for lk in m.links:
            if not lk.orientations:
                self_frame.update(lk.moves)
    for mi, m in enumerate(rules.moves):
        entry = f"move {m.name}"
        outside = [pc.cell for pc in m.cells if pc.cell not in dom.index]
        outside += [lk.anchor for lk in m.links if lk.anchor is not None and lk.anchor not in dom.index]
        if outside:
            f("error", "outside-domain", f"cells {sorted(set(outside))} lie outside the chart domain {dom.spec()}", m.line, entry)
        cells = {pc.cell for pc in m.cells}
        for lk in m.links:
            if lk.anchor is not None and lk.anchor not in cells:
                f("warning", "anchor", f"a link to {', '.join(lk.moves)} is anchored at {list(lk.anchor)}, "
                                      "not a cell of this move's pattern", m.line, entry)
        if not m.start and m.name not in linked:
            f("warning", "unreachable-move", "not a starting move, and no move links to it: it can never be played",
              m.line, entry)
        repeats = any(m.name in lk.moves for lk in m.links)
        if (repeats or m.name in self_frame) and not _is_subgroup(m.orientations, mul, inv):
            f("warning", "not-subgroup", f"orientations {list(m.orientations)} are not a subgroup of the "
                                        f"{grid.name} group, but the move "
              + ("repeats" if repeats else "is a follow-up read in its own frame")
              + ": chained frames leave the set", m.line, entry)
        if comp is not None and not outside:
            try:
                fits = any(comp.place(mi, p, t, g) >= 0 for p in m.players for t in range(comp.n)
                           for g in range(grp.order))
            except TapologyError as exc:
                f("error", "after-state", str(exc), m.line, entry)
                fits = True
            if not fits:
                f("warning", "never-fits", f"fits nowhere on board {lg.board_name!r}: no tile and orientation where every "
                                          "cell lands as the pattern asks", m.line, entry)


def _state_values(rules: RuleSet, tok: str, player: int) -> list[int]:
    """The state values a pattern token stands for when ``player`` moves."""
    if tok in rules.state_index:
        return [rules.state_index[tok].value]
    rel, _, kind = tok.partition(":")
    return [s.value for s in rules.states if s.owner is not None and (s.owner == player) == (rel == "own")
            and (not kind or s.kind == kind)]


def _state_findings(lg: LoadedGame, rules: RuleSet, f: Emit) -> None:
    """States that no move or clean-up writes and the start position does not hold."""
    produced: set[int] = {0}
    if lg.generic is not None:
        produced.update(lg.generic.initial().states)
    writers = [(m, m.players) for m in rules.moves] + [(c.move, tuple(range(len(rules.players)))) for c in rules.cleanups]
    for m, players in writers:
        for pc in m.cells:
            if pc.after is None or pc.after == COPY:  # '@' moves a piece that is already there
                continue
            for p in players:
                produced.update(_state_values(rules, pc.after, p))
    for s in rules.states:
        if s.value not in produced:
            f("warning", "never-produced", f"state {s.name!r} ({s.value}) is never produced: no move or clean-up writes it "
                                          "and the start position has none", 0, f"state {s.name}")


def _cleanup_findings(rules: RuleSet, f: Emit) -> None:
    """Clean-ups that may not terminate: a cycle in the graph of the state changes they make."""
    edges: dict[int, set[int]] = {}
    where: dict[tuple[int, int], tuple[int, str]] = {}
    for c in rules.cleanups:
        m = c.move
        for pc in m.cells:
            if pc.after is None or pc.after == COPY or pc.before.kind in (OFF, DONTCARE):
                continue
            for p in range(len(rules.players)):
                before = [s.value for s in rules.states] if pc.before.kind == ANY else \
                    [v for tok in pc.before.tokens for v in _state_values(rules, tok, p)]
                for a in before:
                    for b in _state_values(rules, pc.after, p):
                        if a != b:
                            edges.setdefault(a, set()).add(b)
                            where.setdefault((a, b), (m.line, f"cleanup {m.name}"))
    cyc = _find_cycle(edges)
    if cyc:
        names = {s.value: s.name for s in rules.states}
        line, entry = where[(cyc[0], cyc[1])]
        f("warning", "cleanup-cycle", "clean-ups may not terminate: they can rewrite "
          + " → ".join(names.get(v, str(v)) for v in cyc), line, entry)


def _find_cycle(edges: dict[int, set[int]]) -> list[int] | None:
    """A cycle a → … → a in a directed graph, or None."""
    color: dict[int, int] = {}
    stack: list[int] = []

    def dfs(v: int) -> list[int] | None:
        color[v] = 1
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if color.get(w) == 1:
                return [*stack[stack.index(w):], w]
            if color.get(w) is None:
                got = dfs(w)
                if got:
                    return got
        stack.pop()
        color[v] = 2
        return None

    for v in sorted(edges):
        if color.get(v) is None:
            got = dfs(v)
            if got:
                return got
    return None


def lines_of_game(lg: LoadedGame) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The k-in-a-row lines of the game's first line end rule on its board, and each player's mark state."""
    if lg.kinrow is not None:
        return lg.kinrow.lines, (1, 2)
    rules = lg.rules
    if rules is None or lg.generic is None:
        return (), (1, 2)
    ps = []
    for p in range(len(rules.players)):
        owned = [s.value for s in rules.states if s.owner == p]
        ps.append(owned[0] if owned else -1)
    end = next((e for e in rules.ends if e.kind == "line"), None)
    if end is None:
        return (), tuple(ps)

    board = lg.generic.initial().board
    return tuple(game_lines(Atlas.of(board), end.k)), tuple(ps)
