"""Surface-specific pitfalls of a rule set on a board, each with a witness.

Rules written with the plane in mind can mean something else on a taped surface.  The
checks (codes as in ``verify``'s findings):

* ``null-move`` — a piece that can return to its own tile by wrapping: a move whose landing
  cell lands on the tile it starts from (the engine drops such a placement: two pattern
  cells on one tile must agree), or a turn that ends on the tile it started from having
  changed nothing there but the piece's frame (round a non-orientable seam);
* ``seam-duplicate`` — two routes round a seam giving the same turn: different placements
  or chains with the same start, end and result (the engine lists the turn once);
* ``line-reuse`` — a line that reuses a tile on a small surface: a straight walk of k tiles
  that comes back to a tile it passed, so it is no line (k-in-a-row counts distinct tiles);
* ``dead-rule`` — a move whose pattern fits nowhere on the board, with the nearest miss
  (the placement where the fewest cells land wrongly, and why they do);
* ``chirality`` — a piece whose look has no mirror symmetry can come back mirrored on a
  non-orientable board; a warning when its moves then differ from its mirror image's
  (the rules assume it cannot), with a play that does it where a search finds one.

Positions for the dynamic checks are the start and those a breadth-first search reaches
within its budget.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import TapologyError
from tapology.game import Position
from tapology.games.registry import LoadedGame
from tapology.model.group import Cell
from tapology.model.lines import straight_walks
from tapology.model.topology import classify
from tapology.play.solving.statespace import Graph, RuleSpace, explore, replay
from tapology.rules.compiled import Compiled
from tapology.rules.engine import RuleGame
from tapology.rules.model import COPY, DONTCARE, OFF, Move


@dataclass
class Pitfall:
    """One pitfall found: code, severity, message, the rule-file entry, and a witness."""

    code: str
    severity: str
    message: str
    entry: str = ""
    line: int = 0
    witness: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {"code": self.code, "severity": self.severity, "message": self.message, "entry": self.entry,
                "line": self.line, "witness": self.witness}

    def text(self) -> str:
        """``line: severity: [entry] message (code)``."""
        where = f"{self.line}: " if self.line else ""
        entry = f"[{self.entry}] " if self.entry else ""
        return f"{where}{self.severity}: {entry}{self.message} ({self.code})"


def _cell(c: Cell) -> list[int]:
    return [int(c[0]), int(c[1])]


def _copy_cells(m: Move) -> list[Cell]:
    cells = [pc.cell for pc in m.cells if pc.after == COPY]
    if m.to is not None and m.to not in cells:
        cells.append(m.to)
    return [c for c in cells if any(c)]


def static_null_moves(rg: RuleGame, pos: Position) -> list[Pitfall]:
    """Moves whose landing cell wraps back onto the tile they start from."""
    comp = rg.compiled(pos.board)
    board = pos.board
    out = []
    for m in rg.rules.moves:
        hits = []
        # a piece carrying a frame can stand in any orientation; otherwise the move's own orientations
        orients = range(comp.h) if rg.rules.oriented else m.orientations
        for t in range(comp.n):
            for g in orients:
                for c in _copy_cells(m):
                    code = comp.land(t, g, c)
                    if code >= 0 and code // comp.h == t:
                        hits.append({"tile": board.tiles[t], "orientation": g, "cell": _cell(c)})
        if hits:
            h0 = hits[0]
            out.append(Pitfall("null-move", "warning",
                               f"its landing cell {h0['cell']} wraps back onto the tile it starts from (tile {h0['tile']}, "
                               f"orientation {h0['orientation']}; {len(hits)} placements): the move is dropped there",
                               f"move {m.name}", m.line, {"placements": hits[:12]}))
    return out


def _chains(rg: RuleGame, pos: Position) -> list[tuple[tuple, tuple, tuple]]:
    """(key, move sequence, path) of every complete chain of the player to move (before clean-ups and the royal rule)."""
    ch = rg.chains(pos.board)
    codes = rg.codes(pos)
    found: list[tuple[tuple, tuple, tuple]] = []

    def visit(work: list[int], diff: dict[int, int], start: int, path: tuple, flagged: bool, seq: tuple) -> bool:
        found.append(((start, path[-1][1], frozenset(diff.items())), seq, path))
        return False

    ch.walk(codes, pos.to_move, ch.entries(codes, pos.to_move), visit)
    return found


def _describe_seq(comp: Compiled, rg: RuleGame, seq: tuple[int, ...]) -> list[dict[str, Any]]:
    out = []
    for i in seq:
        a = comp.apps[i]
        name = rg.rules.moves[a.move].name if a.move >= 0 else "clean-up"
        out.append({"move": name, "tile": comp.board.tiles[a.tile], "orientation": a.g})
    return out


def _label_of(rg: RuleGame, pos: Position, key: tuple) -> str:
    new = list(rg.codes(pos))
    for u, v in key[2]:
        new[u] = v
    for t in rg.turns(pos):
        if list(rg.codes(t.result)) == new:
            return t.label
    return ""


def _path_text(board: Any, path: tuple) -> str:
    return "".join(sep + board.tiles[t] for sep, t in path)


def dynamic_pitfalls(rg: RuleGame, g: Graph) -> list[Pitfall]:
    """Null moves round a seam and duplicate routes, at the positions of a search graph (the first of each kind).
    Duplicate routes are reported on boards that are not a disk (where a seam can make them)."""
    out: list[Pitfall] = []
    null_done = False
    dup_done = classify(g.nodes[0].board).surface == "disk"
    h = rg.h
    for i, pos in enumerate(g.nodes):
        if null_done and dup_done:
            break
        try:
            chains = _chains(rg, pos)
        except TapologyError:
            continue
        comp = rg.compiled(pos.board)
        by_key: dict[tuple, list[tuple[tuple, tuple]]] = {}
        for key, seq, path in chains:
            by_key.setdefault(key, []).append((seq, path))
        for key, routes in by_key.items():
            start, end, changes = key
            if not null_done and start == end and len(changes) == 1:
                (u, v), = changes
                old = rg.codes(pos)[u]
                if u == start and old // h == v // h:
                    seq, path = routes[0]
                    w = replay(g.space, g, g.path(i))
                    out.append(Pitfall("null-move", "warning",
                                       f"a turn of {rg.players[pos.to_move]} goes round and ends on the tile it started "
                                       f"from (tile {pos.board.tiles[start]}), changing only the piece's frame "
                                       f"({old % h} → {v % h}) after {g.depth[i]} turns",
                                       witness={"turns": w.turns, "turn": _label_of(rg, pos, key),
                                                "moves": _describe_seq(comp, rg, seq)}))
                    null_done = True
            if not dup_done and len(routes) > 1:
                (s1, p1), (s2, p2) = routes[0], routes[1]
                w = replay(g.space, g, g.path(i))
                out.append(Pitfall("seam-duplicate", "info",
                                   f"two routes give the same turn after {g.depth[i]} turns: "
                                   f"{_path_text(pos.board, p1)} and {_path_text(pos.board, p2)} (the turn is listed "
                                   "once)",
                                   witness={"turns": w.turns, "turn": _label_of(rg, pos, key),
                                            "routes": [_describe_seq(comp, rg, s1), _describe_seq(comp, rg, s2)]}))
                dup_done = True
    return out


def line_reuse(rg: RuleGame, pos: Position) -> list[Pitfall]:
    """Straight walks of k tiles that come back to a tile they passed (no line there)."""
    ks = sorted({e.k for e in rg.ends.ends if e.kind == "line"})
    if not ks:
        return []
    comp = rg.compiled(pos.board)
    atlas = comp.atlas
    board = pos.board
    out = []
    for k in ks:
        hits: list[dict[str, Any]] = [
            {"tile": board.tiles[t], "direction": _cell(v), "walk": [board.tiles[u] for u in tiles]}
            for t, v, tiles in straight_walks(atlas, k) if len(set(tiles)) != k]
        if hits:
            e = next(e for e in rg.ends.ends if e.kind == "line" and e.k == k)
            h0 = hits[0]
            out.append(Pitfall("line-reuse", "warning",
                               f"a straight walk of {k} tiles from tile {h0['tile']} in direction {h0['direction']} comes "
                               f"back to a tile it passed ({'-'.join(h0['walk'])}): no line there ({len(hits)} walks)",
                               "end line", e.line, {"walks": hits[:12]}))
    return out


def _miss_reasons(comp: Compiled, m: Move, player: int, t: int, g: int) -> list[str]:
    """Why move m does not land at (t, g): a list of the cells that land wrongly."""
    h = comp.h
    out = []
    seen: dict[int, tuple] = {}
    for pc in m.cells:
        code = comp.land(t, g, pc.cell)
        b = pc.before
        if b.kind == OFF:
            if code >= 0:
                out.append(f"cell {_cell(pc.cell)} must be off the board but lands on tile {comp.board.tiles[code // h]}")
            continue
        if code < 0:
            if b.kind != DONTCARE:
                out.append(f"cell {_cell(pc.cell)} lands off the board")
            continue
        u = code // h
        if pc.region and not comp.in_region(pc.region, player, u):
            out.append(f"cell {_cell(pc.cell)} lands on tile {comp.board.tiles[u]}, not {pc.region}")
        key = (b.kind, b.tokens, pc.after)
        if u in seen and seen[u] != key:
            out.append(f"cell {_cell(pc.cell)} lands on tile {comp.board.tiles[u]} with another cell that asks for "
                       "something else")
        seen[u] = key
    return out


def dead_rules(rg: RuleGame, pos: Position) -> list[Pitfall]:
    """Moves that fit nowhere on the board, each with its nearest miss."""
    comp = rg.compiled(pos.board)
    out = []
    for mi, m in enumerate(rg.rules.moves):
        best: tuple[int, int, int, int, list[str]] | None = None
        fits = False
        for p in m.players:
            for t in range(comp.n):
                for g in range(comp.h):
                    try:
                        if comp.place(mi, p, t, g) >= 0:
                            fits = True
                            break
                    except TapologyError:
                        fits = True
                        break
                    why = _miss_reasons(comp, m, p, t, g)
                    if best is None or len(why) < best[0]:
                        best = (len(why), p, t, g, why)
                if fits:
                    break
            if fits:
                break
        if not fits and best is not None:
            _n, p, t, g, why = best
            out.append(Pitfall("dead-rule", "warning",
                               f"fits nowhere on this board; nearest miss at tile {comp.board.tiles[t]}, orientation {g}: "
                               + ("; ".join(why) or "the tiles it lands on cannot hold what it asks"),
                               f"move {m.name}", m.line,
                               {"tile": comp.board.tiles[t], "orientation": g, "player": rg.players[p], "reasons": why}))
    return out


def chirality(rg: RuleGame, pos: Position, g: Graph | None) -> list[Pitfall]:
    """Chiral pieces on a non-orientable board: they can come back mirrored."""
    rules = rg.rules
    grp = rules.grid.group
    board = pos.board
    if classify(board).orientable:
        return []
    out = []
    for s in rules.states:
        if not s.oriented or any(grp.is_reflection(a) for a in s.symmetry):
            continue
        carriers = [m for m in rules.moves if any(pc.after == COPY for pc in m.cells)
                    and (s.owner is None or s.owner in m.players)]
        if not carriers:
            continue
        refl = next(a for a in range(grp.order) if grp.is_reflection(a))
        differ = [m.name for m in carriers if {grp.mul[a][refl] for a in m.orientations} != set(m.orientations)
                  and {grp.mul[refl][a] for a in m.orientations} != set(m.orientations)]
        witness: dict[str, Any] = {}
        if g is not None:
            for i, p in enumerate(g.nodes):
                if any(st == s.value and grp.is_reflection(f) for st, f in zip(p.states, p.extra or (), strict=False)):
                    witness = {"turns": replay(g.space, g, g.path(i)).turns}
                    break
        sev = "warning" if differ else "info"
        msg = (f"state {s.name!r} has no mirror symmetry and board is non-orientable: a piece carried round the "
               "orientation-reversing seam comes back mirrored")
        if differ:
            msg += f"; moves {', '.join(differ)} then move it as their mirror image"
        if witness:
            msg += f" (after {len(witness['turns'])} turns in the witness)"
        out.append(Pitfall("chirality", sev, msg, f"state {s.name}", 0, witness))
    return out


def pitfall_checks(lg: LoadedGame, *, max_positions: int = 2_000, timeout: float = 10.0) -> list[Pitfall]:
    """Every pitfall of the loaded game on its board (see the module docstring).  Cost: the static checks, then a
    breadth-first search of up to ``max_positions`` positions within ``timeout`` seconds for the dynamic ones."""
    rg = lg.generic
    pos = rg.initial()
    out = static_null_moves(rg, pos) + line_reuse(rg, pos) + dead_rules(rg, pos)
    g = explore(RuleSpace(rg), max_positions=max_positions, deadline=time.monotonic() + timeout)
    out += dynamic_pitfalls(rg, g)
    out += chirality(rg, pos, g)
    return out
