"""Bounded reachability: can a position satisfying a predicate be reached within K turns?

Two methods that must agree (the tests run both):

* **exhaustive** — breadth-first over the game's positions, one layer per turn.  For
  k-in-a-row games it runs on bitmasks, one representative per orbit of the game's
  symmetry group (every term of the predicate language is invariant under it), so the
  first layer holding a match gives a shortest witness; the witness is then replayed on
  real tiles.  Any other game is searched through its ``turns``.
* **z3** — bounded model checking of a k-in-a-row game: K+1 frames of Boolean claims, each
  step a legal claim by the player whose turn it is or (once play has stopped) nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import PredicateError, ReachError
from tapology.game import ClaimGame, Game, Position
from tapology.games.kinrow import PLAYERS, popcount
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.topology import classify
from tapology.play.analysis.predicate import BOARD_TERMS, Node, evaluate, parse_predicate, term_names, to_z3, uses_prev
from tapology.play.playing.transcript import position_json, state_names
from tapology.play.solving.solve import canon_one, key_luts
from tapology.play.solving.symmetry import game_symmetries


@dataclass
class ReachResult:
    """The answer: reachable or not within ``depth`` turns, with a shortest witness when found."""

    predicate: str
    depth: int
    reachable: bool
    method: str
    witness: list[str] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    explored: int | None = None
    complete: bool = True
    game: Game | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """``{"reachable": …, "witness": [turn labels], "transcript": [positions], …}``."""
        out: dict[str, Any] = {"predicate": self.predicate, "depth": self.depth, "reachable": self.reachable,
                               "method": self.method}
        if self.reachable:
            out["turns"] = len(self.witness)
            out["witness"] = list(self.witness)
            if self.game is not None:
                out["transcript"] = [position_json(self.game, p) for p in self.positions]
        if self.explored is not None:
            out["explored"] = self.explored
        out["complete"] = self.complete
        return out


# ---- terms on k-in-a-row bitmasks ---------------------------------------------------
def _by_name(arg: str, names: dict[int, str]) -> int | None:
    """The key whose name is ``arg`` exactly, else the only one equal to it ignoring case."""
    exact = [k for k, v in names.items() if v == arg]
    if exact:
        return exact[0]
    loose = [k for k, v in names.items() if v.lower() == arg.lower()]
    return loose[0] if len(loose) == 1 else None


def _player_arg(arg: str | None, players: tuple[str, ...], term: str) -> int:
    if arg is not None:
        got = _by_name(arg, dict(enumerate(players)))
        if got is not None:
            return got
    raise PredicateError(f"{term}({arg}): {arg!r} is not a player ({', '.join(players)})")


def _state_arg(arg: str | None, names: dict[int, str]) -> int:
    if arg is not None:
        if arg.isdigit() and int(arg) in names:
            return int(arg)
        got = _by_name(arg, names)
        if got is not None:
            return got
    raise PredicateError(f"count({arg}): {arg!r} is not a tile state ({', '.join(names.values())} or their numbers)")


_BOARD_CACHE: dict[tuple, dict[str, Any]] = {}


def board_terms(board: Board) -> dict[str, Any]:
    """The board terms of the predicate language (open, closed, consistent, manifold, orientable, euler), cached by
    gluing.  Cost: a closure and a classification per new board."""
    key = (board.glue, board.extra, board.domain.cells)
    got = _BOARD_CACHE.get(key)
    if got is None:
        opened = sum(1 for row in board.glue for c in row if c < 0)
        consistent = Atlas.of(board).conflict is None
        topo = classify(board)
        got = {"open": opened, "closed": opened == 0, "consistent": consistent, "manifold": topo.manifold,
               "orientable": topo.orientable, "euler": topo.euler_characteristic}
        if len(_BOARD_CACHE) > 4096:
            _BOARD_CACHE.clear()
        _BOARD_CACHE[key] = got
    return got


def player_index(arg: str | None, players: tuple[str, ...], term: str) -> int:
    """The index of the player a term's argument names; :class:`PredicateError` otherwise."""
    return _player_arg(arg, players, term)


def state_value(arg: str | None, names: dict[int, str]) -> int:
    """The state value a ``count`` argument names; :class:`PredicateError` otherwise."""
    return _state_arg(arg, names)


def check_terms(node: Node, players: tuple[str, ...], names: dict[int, str], *, allow_prev: bool = False) -> None:
    """Raise :class:`PredicateError` for unknown players or states (and ``prev`` unless allowed), before any search."""
    if not allow_prev and uses_prev(node):
        raise PredicateError("prev(...) compares with the position before a turn: it is only for invariants "
                             "(verify --invariant)")
    for name, arg in term_names(node):
        if name in ("line", "lines", "live", "turn", "pieces") and arg is not None:
            _player_arg(arg, players, name)
        elif name == "count":
            _state_arg(arg, names)


class KinrowTerms:
    """Term values of one bitmask position of a :class:`KInARow` game."""

    def __init__(self, game: ClaimGame, x: int, o: int, before: KinrowTerms | None = None) -> None:
        self.g, self.x, self.o = game, x, o
        self.before = before

    def previous(self) -> KinrowTerms:
        """The position before the turn (invariants with ``prev``)."""
        if self.before is None:
            raise PredicateError("prev(...) compares with the position before a turn: it is only for invariants")
        return self.before

    def term(self, name: str, arg: str | None) -> Any:
        g, x, o = self.g, self.x, self.o
        marks = (x, o)
        if name == "count":
            s = _state_arg(arg, {0: "empty", 1: "X", 2: "O"})
            return g.n - popcount(x | o) if s == 0 else popcount(marks[s - 1])
        if name == "empty":
            return g.n - popcount(x | o)
        if name == "pieces":
            return popcount(x | o) if arg is None else popcount(marks[_player_arg(arg, PLAYERS, name)])
        if name in BOARD_TERMS:
            return board_terms(g.board)[name]
        if name in ("line", "lines") and arg is not None:
            p = _player_arg(arg, PLAYERS, name)
            return g.won(marks[p]) if name == "line" else len(g.lines_of(marks[p]))
        if name == "lines":
            return len(g.masks)
        if name == "live":
            p = _player_arg(arg, PLAYERS, name)
            return sum(1 for m in g.masks if not m & marks[1 - p])
        if name == "dead":
            return g.dead_lines(x, o)
        if name == "ply":
            return popcount(x | o)
        if name == "turn":
            return _player_arg(arg, PLAYERS, name) == popcount(x) - popcount(o)
        if name == "over":
            return g.status(x, o).over
        if name == "drawn":
            return g.dead_draw(x, o)
        if name == "winnable":
            return not g.status(x, o).over and (g.can_still_win(x, o, 0) or g.can_still_win(x, o, 1))
        if name in ("true", "false"):
            return name == "true"
        raise PredicateError(f"unknown term {name!r}")


def _canoniser(game: ClaimGame, symmetry: bool) -> Callable[[int], int]:
    if not symmetry:
        return lambda k: k

    perms, _ = game_symmetries(game.board, game.lines)
    lut = key_luts(perms, game.n).tolist()
    chunks = len(lut[0]) if lut else 0
    return lambda key: canon_one(key, lut, chunks)


def reach_kinrow(game: ClaimGame, predicate: str, depth: int, *, symmetry: bool = True,
                 progress: Callable[[str, int, int], None] | None = None) -> ReachResult:
    """Exhaustive search of a k-in-a-row game, layer by layer, up to ``depth`` turns."""
    node = parse_predicate(predicate)
    check_terms(node, PLAYERS, {0: "empty", 1: "X", 2: "O"})
    if depth < 0:
        raise ReachError(f"--depth {depth}: must be 0 or more")
    n = game.n
    canon = _canoniser(game, symmetry)
    layer: dict[int, int | None] = {0: None}  # canonical key -> parent canonical key
    parents: list[dict[int, int | None]] = [layer]
    explored = 0
    found: int | None = None
    complete = True
    low = (1 << n) - 1
    try:
        for d in range(depth + 1):
            for key in layer:
                explored += 1
                if evaluate(node, KinrowTerms(game, key & low, key >> n)):
                    found = key
                    break
            if found is not None or d == depth:
                break
            nxt: dict[int, int | None] = {}
            for key in layer:
                for _t, cx, co in game.children(key & low, key >> n):
                    c = canon(cx | co << n)
                    if c not in nxt:
                        nxt[c] = key
            if not nxt:
                break
            parents.append(nxt)
            layer = nxt
            if progress:
                progress(f"turns: {len(nxt):,} positions {d + 1} turns deep, {explored:,} checked", d + 1, depth)
    except KeyboardInterrupt:
        complete = False
    res = ReachResult(predicate, depth, found is not None, "exhaustive" + (" + symmetry" if symmetry else ""),
                      explored=explored, complete=complete, game=game)
    if found is None:
        return res
    chain = [found]
    for i in range(len(parents) - 1, 0, -1):
        chain.append(parents[i][chain[-1]])  # type: ignore[arg-type]
    chain.reverse()
    # replay on real tiles: at each step pick a claim whose class is the next one
    x = o = 0
    res.positions = [game.position(0, 0)]
    for rep in chain[1:]:
        for t, cx, co in game.children(x, o):
            if canon(cx | co << n) == rep:
                x, o = cx, co
                res.witness.append(game.label(t))
                res.positions.append(game.position(x, o))
                break
        else:  # pragma: no cover - a class reached by search is reached by some claim
            raise ReachError("witness replay failed")
    return res


# ---- z3 bounded model checking ------------------------------------------------------
class Z3Terms:
    """Term values of one frame of Boolean claims (z3 expressions); ``before`` is the frame before (``prev``)."""

    def __init__(self, game: ClaimGame, xs: list[Any], os: list[Any], ply: Any, before: Z3Terms | None = None) -> None:
        self.g, self.xs, self.os, self.ply = game, xs, os, ply
        self.before = before

    def previous(self) -> Z3Terms:
        """The frame before (invariants with ``prev``)."""
        if self.before is None:
            raise PredicateError("prev(...) compares with the position before a turn: it is only for invariants")
        return self.before

    def _line(self, marks: list[Any]) -> Any:
        import z3

        return z3.Or([z3.And([marks[t] for t in ln]) for ln in self.g.lines]) if self.g.lines else z3.BoolVal(False)

    def _count(self, vals: list[Any]) -> Any:
        import z3

        return z3.Sum([z3.If(v, 1, 0) for v in vals]) if vals else z3.IntVal(0)

    def over(self) -> Any:
        import z3

        full = z3.And([z3.Or(a, b) for a, b in zip(self.xs, self.os, strict=True)])
        if self.g.stop_at_line:
            return z3.Or(self._line(self.xs), self._line(self.os), full)
        return full

    def _can_fill(self, p: int) -> Any:
        import z3

        mine, theirs = (self.xs, self.os) if p == 0 else (self.os, self.xs)
        empties = self._count([z3.Not(z3.Or(a, b)) for a, b in zip(self.xs, self.os, strict=True)])
        to_move_p = (self.ply % 2) == p
        claims = z3.If(to_move_p, (empties + 1) / 2, empties / 2)
        opts = []
        for ln in self.g.lines:
            opts.append(z3.And(z3.Not(z3.Or([theirs[t] for t in ln])), self._count([z3.Not(mine[t]) for t in ln]) <= claims))
        return z3.Or(opts) if opts else z3.BoolVal(False)

    def term(self, name: str, arg: str | None) -> Any:
        import z3

        g, xs, os = self.g, self.xs, self.os
        marks = (xs, os)
        if name == "count":
            s = _state_arg(arg, {0: "empty", 1: "X", 2: "O"})
            if s == 0:
                return self._count([z3.Not(z3.Or(a, b)) for a, b in zip(xs, os, strict=True)])
            return self._count(marks[s - 1])
        if name == "empty":
            return self._count([z3.Not(z3.Or(a, b)) for a, b in zip(xs, os, strict=True)])
        if name == "pieces":
            if arg is None:
                return self._count([z3.Or(a, b) for a, b in zip(xs, os, strict=True)])
            return self._count(marks[_player_arg(arg, PLAYERS, name)])
        if name in BOARD_TERMS:
            v = board_terms(g.board)[name]
            return z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)
        if name in ("line", "lines") and arg is not None:
            p = _player_arg(arg, PLAYERS, name)
            if name == "line":
                return self._line(marks[p])
            return self._count([z3.And([marks[p][t] for t in ln]) for ln in g.lines])
        if name == "lines":
            return z3.IntVal(len(g.lines))
        if name == "live":
            p = _player_arg(arg, PLAYERS, name)
            return self._count([z3.Not(z3.Or([marks[1 - p][t] for t in ln])) for ln in g.lines])
        if name == "dead":
            return self._count([z3.And(z3.Or([xs[t] for t in ln]), z3.Or([os[t] for t in ln])) for ln in g.lines])
        if name == "ply":
            return self.ply
        if name == "turn":
            return (self.ply % 2) == _player_arg(arg, PLAYERS, name)
        if name == "over":
            return self.over()
        if name == "drawn":
            return z3.And(z3.Not(self.over()), z3.Not(self._can_fill(0)), z3.Not(self._can_fill(1)))
        if name == "winnable":
            return z3.And(z3.Not(self.over()), z3.Or(self._can_fill(0), self._can_fill(1)))
        if name in ("true", "false"):
            return z3.BoolVal(name == "true")
        raise PredicateError(f"unknown term {name!r}")


def reach_z3(game: ClaimGame, predicate: str, depth: int, *, timeout_ms: int = 0) -> ReachResult:
    """Bounded model checking with z3: a run of at most ``depth`` claims ending in a position satisfying the predicate."""
    import z3

    node = parse_predicate(predicate)
    check_terms(node, PLAYERS, {0: "empty", 1: "X", 2: "O"})
    if depth < 0:
        raise ReachError(f"--depth {depth}: must be 0 or more")
    n = game.n
    xv = [[z3.Bool(f"x_{s}_{t}") for t in range(n)] for s in range(depth + 1)]
    ov = [[z3.Bool(f"o_{s}_{t}") for t in range(n)] for s in range(depth + 1)]
    moved = [z3.Bool(f"moved_{s}") for s in range(depth)]
    sol = z3.Solver()
    if timeout_ms:
        sol.set("timeout", timeout_ms)
    sol.add([z3.Not(v) for v in xv[0] + ov[0]])
    for s in range(depth):
        # a stop is for good: play moves at steps 0..d-1, then stands still
        if s + 1 < depth:
            sol.add(z3.Implies(z3.Not(moved[s]), z3.Not(moved[s + 1])))
        same = z3.And([xv[s + 1][t] == xv[s][t] for t in range(n)] + [ov[s + 1][t] == ov[s][t] for t in range(n)])
        frame = Z3Terms(game, xv[s], ov[s], z3.IntVal(s))
        mine, other = (xv, ov) if s % 2 == 0 else (ov, xv)
        claims = []
        for t in range(n):
            claims.append(z3.And(
                [z3.Not(xv[s][t]), z3.Not(ov[s][t]), mine[s + 1][t]]
                + [mine[s + 1][u] == mine[s][u] for u in range(n) if u != t]
                + [other[s + 1][u] == other[s][u] for u in range(n)]))
        sol.add(z3.If(moved[s], z3.And(z3.Not(frame.over()), z3.Or(claims)), same))
    # redundant counts (each frame holds as many marks as moves made so far): they make refutations fast
    for s in range(1, depth + 1):
        for marks, parity in ((xv, 0), (ov, 1)):
            made = [z3.If(moved[j], 1, 0) for j in range(s) if j % 2 == parity]
            sol.add(z3.Sum([z3.If(v, 1, 0) for v in marks[s]]) == (z3.Sum(made) if made else 0))
    ply = z3.Sum([z3.If(m, 1, 0) for m in moved]) if moved else z3.IntVal(0)
    sol.add(to_z3(node, Z3Terms(game, xv[depth], ov[depth], ply)))
    verdict = sol.check()
    if verdict == z3.sat:
        # a shortest witness: shorten while z3 finds one with fewer turns ("no move at step d" is ply <= d,
        # since moves are a prefix); the first refusal proves the last witness shortest
        best = sol.model()
        length = sum(1 for m in moved if z3.is_true(best.eval(m, model_completion=True)))
        while length > 0 and sol.check(z3.Not(moved[length - 1])) == z3.sat:
            best = sol.model()
            length = sum(1 for m in moved if z3.is_true(best.eval(m, model_completion=True)))
    res = ReachResult(predicate, depth, verdict == z3.sat, "z3", complete=verdict != z3.unknown, game=game)
    if verdict != z3.sat:
        return res
    m = best
    x = o = 0
    res.positions = [game.position(0, 0)]
    for s in range(depth):
        if not z3.is_true(m.eval(moved[s], model_completion=True)):
            break
        nx = sum(1 << t for t in range(n) if z3.is_true(m.eval(xv[s + 1][t], model_completion=True)))
        no = sum(1 << t for t in range(n) if z3.is_true(m.eval(ov[s + 1][t], model_completion=True)))
        t = ((nx | no) & ~(x | o)).bit_length() - 1
        x, o = nx, no
        res.witness.append(game.label(t))
        res.positions.append(game.position(x, o))
    return res


# ---- any game: exhaustive over turns ------------------------------------------------
class GameTerms:
    """Term values of a position of any game: state counts by the game's state names, and lines when given."""

    def __init__(self, game: Game, pos: Position, lines: tuple[tuple[int, ...], ...] = (),
                 player_states: tuple[int, ...] = (1, 2), *,
                 lines_for: Callable[[Position], tuple[tuple[int, ...], ...]] | None = None,
                 before: GameTerms | None = None) -> None:
        self.game, self.pos, self.ps = game, pos, player_states
        self._lines, self._lines_for = lines, lines_for
        self.before = before

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The position's lines, found when a term first reads them (a board predicate reads none, and finding them
        compiles the rule set on the position's board)."""
        if self._lines_for is not None:
            self._lines, self._lines_for = self._lines_for(self.pos), None
        return self._lines

    def previous(self) -> GameTerms:
        """The terms of the position before the turn (invariants with ``prev``)."""
        if self.before is None:
            raise PredicateError("prev(...) compares with the position before a turn: it is only for invariants")
        return self.before

    def term(self, name: str, arg: str | None) -> Any:
        st = self.pos.states
        names = state_names(self.game)
        players = tuple(self.game.players)
        if name == "pieces":
            rules = getattr(self.game, "rules", None)
            if arg is None:
                return sum(1 for v in st if v != 0)
            p = _player_arg(arg, players, name)
            if rules is not None:
                owned = {s.value for s in rules.states if s.owner == p}
            else:
                owned = {self.ps[p]} if p < len(self.ps) else set()
            return sum(1 for v in st if v in owned)
        if name in BOARD_TERMS:
            return board_terms(self.pos.board)[name]
        if name == "count":
            s = _state_arg(arg, names)
            return sum(1 for v in st if v == s)
        if name == "empty":
            return sum(1 for v in st if v == 0)
        if name == "ply":
            return self.pos.ply
        if name == "turn":
            return _player_arg(arg, players, name) == self.pos.to_move
        if name == "over":
            return self.game.outcome(self.pos) is not None
        if name in ("true", "false"):
            return name == "true"
        if name == "lines" and arg is None:
            return len(self.lines)
        if name in ("line", "lines", "live"):
            p = _player_arg(arg, players, name)
            mine = self.ps[p]
            full = [ln for ln in self.lines if all(st[t] == mine for t in ln)]
            if name == "line":
                return bool(full)
            if name == "lines":
                return len(full)
            return sum(1 for ln in self.lines if not any(st[t] in self.ps and st[t] != mine for t in ln))
        if name == "dead":
            return sum(1 for ln in self.lines if len({st[t] for t in ln} & set(self.ps)) > 1)
        if name in ("drawn", "winnable"):
            # claim games: a player still gets ⌈e/2⌉ or ⌊e/2⌋ of the e empty tiles
            if self.game.outcome(self.pos) is not None:
                return False
            e = sum(1 for v in st if v == 0)
            fill = False
            for p, mine in enumerate(self.ps):
                claims = (e + 1) // 2 if p == self.pos.to_move else e // 2
                for ln in self.lines:
                    if all(st[t] in (0, mine) for t in ln) and sum(1 for t in ln if st[t] == 0) <= claims:
                        fill = True
            return fill if name == "winnable" else not fill
        raise PredicateError(f"term {name!r} is not available for {self.game.name}")


def reach_game(game: Game, predicate: str, depth: int, *, lines: tuple[tuple[int, ...], ...] = (),
               player_states: tuple[int, ...] = (1, 2),
               progress: Callable[[str, int, int], None] | None = None) -> ReachResult:
    """Breadth-first search of any game through its ``turns``, up to ``depth`` turns."""
    node = parse_predicate(predicate)
    check_terms(node, tuple(game.players), state_names(game))
    if depth < 0:
        raise ReachError(f"--depth {depth}: must be 0 or more")
    start = game.initial()
    parent: dict[Position, tuple[Position, str] | None] = {start: None}
    layer = [start]
    found: Position | None = None
    explored = 0
    complete = True
    try:
        for d in range(depth + 1):
            for p in layer:
                explored += 1
                if evaluate(node, GameTerms(game, p, lines, player_states)):
                    found = p
                    break
            if found is not None or d == depth:
                break
            nxt = []
            for p in layer:
                for t in game.turns(p):
                    if t.result not in parent:
                        parent[t.result] = (p, t.label)
                        nxt.append(t.result)
            layer = nxt
            if progress:
                progress(f"turns: {len(nxt):,} positions {d + 1} turns deep, {explored:,} checked", d + 1, depth)
            if not layer:
                break
    except KeyboardInterrupt:
        complete = False
    res = ReachResult(predicate, depth, found is not None, "exhaustive", explored=explored, complete=complete, game=game)
    if found is not None:
        path = [found]
        labels = []
        while parent[path[-1]] is not None:
            p, lab = parent[path[-1]]  # type: ignore[misc]
            labels.append(lab)
            path.append(p)
        res.positions = path[::-1]
        res.witness = labels[::-1]
    return res
