"""The reachable positions of a game as a graph: exhaustive search with a budget, and what can be read off it.

A :class:`Space` says which positions are the same for the rules (its ``key``): for a
k-in-a-row game one representative per orbit of the game's symmetry group (bitmask keys
reduced as the solver reduces them), for any other game the tile states, frames, gluing and
player to move, plus the ply, counters and history only where an end rule reads them — so a
play that comes back to a position has a cycle in the graph even though its ply grew.

:func:`explore` walks the graph breadth first from the start position (so the parent links
give shortest paths), up to a number of positions or a deadline, and marks the result
``complete`` only when every reachable position was expanded.  The analyses below read it:
cycles (with the shortest lasso: a play that never ends), positions where no end rule says
how a game without turns ends, shortest paths to a predicate, the longest play, and the
positions from which a player can force a win (the attractor, which is sound on a partial
graph: only expanded positions count).  Witnesses are replayed on real positions
(:func:`replay`), so a symmetry-reduced path becomes a transcript the referee accepts.
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tapology.errors import ReachError
from tapology.game import ClaimGame, Game, Position, Turn
from tapology.play.playing.transcript import position_json
from tapology.play.solving.solve import canon_one, key_luts
from tapology.play.solving.symmetry import game_symmetries
from tapology.rules.engine import RuleGame
from tapology.rules.model import EndRule

Score = dict[str, int]
Progress = Callable[[str, int, int], None]


class Space:
    """How a game's positions are compared and expanded (the generic form: no symmetry)."""

    symmetry = "none"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = tuple(game.players)

    def key(self, pos: Position) -> Hashable:
        """The position's identity for the rules."""
        return pos

    def turns(self, pos: Position) -> list[Turn]:
        """The legal turns."""
        return self.game.turns(pos)

    def outcome(self, pos: Position) -> Score | None:
        """The game's outcome (None while it goes on)."""
        return self.game.outcome(pos)

    def unscored(self, pos: Position) -> bool:
        """True when the player to move has no turn and no end rule says how the game ends (the engine's fallback
        draw decides it)."""
        return False


class KinrowSpace(Space):
    """A k-in-a-row game by bitmask keys, one per orbit of its symmetry group (``symmetry=False``: every position)."""

    def __init__(self, game: ClaimGame, symmetry: bool = True) -> None:
        super().__init__(game)
        self.kr = game
        n = game.n
        if symmetry:
            perms, group = game_symmetries(game.board, game.lines)
            lut = key_luts(perms, n).tolist()
            chunks = len(lut[0]) if lut else 0
            self._canon: Callable[[int], int] = lambda k: canon_one(k, lut, chunks)
            self.symmetry = f"{group} group of order {len(perms)}"
            self.order = len(perms)
        else:
            self._canon = lambda k: k
            self.order = 1

    def key(self, pos: Position) -> Hashable:
        x, o = self.kr.masks_of(pos)
        return self._canon(x | o << self.kr.n)


class RuleSpace(Space):
    """A rule engine game; the key drops the ply, counters and history unless some end rule reads them."""

    def __init__(self, game: RuleGame) -> None:
        super().__init__(game)
        self.rg = game
        self._fallback: RuleGame | None = None

    def key(self, pos: Position) -> Hashable:
        return self.rg.search_key(pos)

    def unscored(self, pos: Position) -> bool:
        if self.game.turns(pos):
            return False
        if self._fallback is None:
            # the same rules with one more rule at the end: a win for the player without turns; where the outcome
            # changes, no rule of the rule set scored the position (the engine's fallback draw did)
            rules = self.rg.rules
            probe = dataclasses.replace(rules, ends=(*rules.ends, EndRule("no-turns", result="win")))
            self._fallback = RuleGame(probe, self.rg.board_name, optional_ends=self.rg.optional_ends)
        return self._fallback.outcome(pos) != self.game.outcome(pos)


def space_of(game: Game, symmetry: bool = True) -> Space:
    """The space fitting a game: bitmask orbits for k-in-a-row, rule keys for the rule engine, positions otherwise."""
    if isinstance(game, ClaimGame):
        return KinrowSpace(game, symmetry)
    if isinstance(game, RuleGame):
        return RuleSpace(game)
    return Space(game)


# ---- the graph --------------------------------------------------------------------------
@dataclass
class Graph:
    """Reachable positions by breadth-first search: node i is ``nodes[i]`` (a representative), reached from
    ``parent[i]`` (node, turn label) at ``depth[i]`` turns; ``succ[i]`` is None until node i is expanded."""

    space: Space
    nodes: list[Position] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)
    parent: list[tuple[int, str] | None] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    succ: list[list[tuple[int, str]] | None] = field(default_factory=list)
    outcome: list[Score | None] = field(default_factory=list)
    complete: bool = False
    stopped: str = ""  # why the search stopped early: "positions", "deadline", "depth", "interrupted", "found"
    seconds: float = 0.0
    found: tuple[int | None, int] | None = None  # the edge (parent, node) a visitor stopped at

    @property
    def expanded(self) -> int:
        """Positions whose turns are known."""
        return sum(1 for s in self.succ if s is not None)

    def full_depth(self) -> int:
        """Every play of up to this many turns was expanded (-1 when not even the start was)."""
        unexpanded = [self.depth[i] for i, s in enumerate(self.succ) if s is None]
        return (min(unexpanded) - 1) if unexpanded else max(self.depth, default=0)

    def add(self, pos: Position, parent: tuple[int, str] | None, depth: int) -> int:
        """The node of a position, added if new."""
        k = self.space.key(pos)
        got = self.index.get(k)
        if got is not None:
            return got
        i = len(self.nodes)
        self.index[k] = i
        self.nodes.append(pos)
        self.parent.append(parent)
        self.depth.append(depth)
        self.succ.append(None)
        self.outcome.append(None)
        return i

    def path(self, i: int) -> list[int]:
        """Nodes from the start to node i along parent links (a shortest path)."""
        out = [i]
        while self.parent[out[-1]] is not None:
            out.append(self.parent[out[-1]][0])  # type: ignore[index]
        return out[::-1]

    def bound(self) -> dict[str, Any]:
        """What was explored, for 'unknown within the bound' answers."""
        out: dict[str, Any] = {"positions": len(self.nodes), "expanded": self.expanded,
                               "depth": max(self.depth, default=0), "complete": self.complete,
                               "symmetry": self.space.symmetry}
        if self.stopped:
            out["stopped"] = self.stopped
        return out


Visit = Callable[[Graph, int | None, int], bool]


def explore(space: Space, *, max_positions: int = 200_000, deadline: float | None = None, max_depth: int | None = None,
            progress: Progress | None = None, visit: Visit | None = None) -> Graph:
    """Breadth-first search of the reachable positions.  Cost: one ``turns`` call per position expanded.

    Stops (``complete`` False, ``stopped`` saying why) past ``max_positions`` positions, at the ``deadline``
    (a ``time.monotonic()`` value), past ``max_depth`` turns, or on Ctrl-C.  ``visit(graph, i, j)`` sees the
    start (``i`` None, ``j`` 0) and then every turn i → j as it is found, in breadth-first order; when it returns
    True the search stops there (``stopped`` "found", ``found`` (i, j)).
    """
    t0 = time.monotonic()
    g = Graph(space)
    g.add(space.game.initial(), None, 0)
    queue = deque([0])
    if visit is not None and visit(g, None, 0):
        g.stopped, g.found = "found", (None, 0)
        g.seconds = time.monotonic() - t0
        return g
    try:
        while queue:
            i = queue.popleft()
            if max_depth is not None and g.depth[i] >= max_depth:
                g.stopped = "depth"
                continue
            if len(g.nodes) > max_positions:
                g.stopped = "positions"
                break
            if deadline is not None and time.monotonic() > deadline:
                g.stopped = "deadline"
                break
            pos = g.nodes[i]
            turns = space.turns(pos)
            if not turns:
                g.outcome[i] = space.outcome(pos)
                g.succ[i] = []
                continue
            kids: list[tuple[int, str]] = []
            seen: set[int] = set()
            stop = False
            for t in turns:
                before = len(g.nodes)
                j = g.add(t.result, (i, t.label), g.depth[i] + 1)
                if j >= before:
                    queue.append(j)
                if j not in seen:
                    seen.add(j)
                    kids.append((j, t.label))
                    if visit is not None and visit(g, i, j):
                        g.found = (i, j)
                        stop = True
                        break
            g.succ[i] = kids
            if stop:
                g.stopped = "found"
                break
            if progress and len(g.nodes) % 500 < len(kids):
                progress("positions", len(g.nodes), 0)
    except KeyboardInterrupt:
        g.stopped = "interrupted"
    g.complete = not g.stopped and all(s is not None for s in g.succ)
    g.seconds = time.monotonic() - t0
    return g


# ---- witnesses ------------------------------------------------------------------------------
@dataclass
class Witness:
    """A replayable play: turn labels from the start and the positions they pass (``loop``: the index in
    ``positions`` where the play comes back to at its end, for a play that never ends)."""

    turns: list[str]
    positions: list[Position]
    loop: int | None = None
    note: str = ""

    def to_json(self, game: Game) -> dict[str, Any]:
        """Turns, positions as transcript lines, and the loop."""
        start = self.positions[0].board if self.positions else None
        out: dict[str, Any] = {"turns": list(self.turns), "length": len(self.turns),
                               "transcript": [position_json(game, p, start) for p in self.positions]}
        if self.loop is not None:
            out["loop_from"] = self.loop
        if self.note:
            out["note"] = self.note
        return out

    def jsonl(self) -> str:
        """The turns as transcript lines (one JSON string per line), as ``tapology referee`` reads them."""
        import json  # only for writing the lines

        return "".join(json.dumps(t) + "\n" for t in self.turns)


def replay(space: Space, g: Graph, nodes: Sequence[int]) -> Witness:
    """Real turns along a path of nodes (representatives): at each step a turn whose result is the next node."""
    game = space.game
    pos = game.initial()
    if space.key(pos) != space.key(g.nodes[nodes[0]]):
        raise ReachError("witness replay: the path does not start at the start position")
    labels: list[str] = []
    positions = [pos]
    for nxt in nodes[1:]:
        want = space.key(g.nodes[nxt])
        for t in space.turns(pos):
            if space.key(t.result) == want:
                labels.append(t.label)
                pos = t.result
                positions.append(pos)
                break
        else:  # pragma: no cover - a node reached by search is reached by some turn
            raise ReachError("witness replay failed")
    return Witness(labels, positions)


def replay_labels(game: Game, labels: Sequence[str]) -> Witness:
    """The positions a sequence of turn labels passes (each label must name a legal turn)."""
    pos = game.initial()
    positions = [pos]
    for lab in labels:
        for t in game.turns(pos):
            if t.label == lab:
                pos = t.result
                positions.append(pos)
                break
        else:
            raise ReachError(f"witness replay: turn {lab!r} is not legal at ply {pos.ply}")
    return Witness(list(labels), positions)


# ---- analyses -----------------------------------------------------------------------------
def first_node(g: Graph, test: Callable[[int], bool]) -> int | None:
    """The first node in breadth-first order passing ``test`` (so one at the least depth)."""
    for i in range(len(g.nodes)):
        if test(i):
            return i
    return None


def shortest_lasso(g: Graph, limit: int = 2000) -> tuple[list[int], int] | None:
    """The shortest play that comes back to a position it passed: (nodes from the start to the repeated position
    and round the loop back to it, index where the loop starts), or None when the expanded graph has no cycle.

    Strongly connected components of the expanded nodes; within each, a breadth-first search from its nodes
    nearest the start (up to ``limit`` of them) finds the shortest cycle back.  Cost O(limit · edges).
    """
    n = len(g.nodes)
    succ = g.succ
    # Tarjan, iteratively
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    stack: list[int] = []
    comp = [-1] * n
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            kids = succ[v] or []
            if k < len(kids):
                work.append((v, k + 1))
                w = kids[k][0]
                if index[w] == -1:
                    work.append((w, 0))
                elif on[w]:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    sizes: dict[int, int] = {}
    for c in comp:
        sizes[c] = sizes.get(c, 0) + 1
    cyclic = [v for v in range(n) if sizes[comp[v]] > 1 or any(w == v for w, _ in succ[v] or [])]
    if not cyclic:
        return None
    cyclic.sort(key=lambda v: g.depth[v])
    best: tuple[int, list[int]] | None = None
    for v in cyclic[:limit]:
        if best is not None and g.depth[v] + 1 >= best[0]:
            break
        # shortest cycle through v: breadth first inside v's component back to v
        prev = {v: -1}
        q = deque([v])
        found = None
        while q and found is None:
            u = q.popleft()
            for w, _lab in succ[u] or []:
                if comp[w] != comp[v]:
                    continue
                if w == v:
                    found = u
                    break
                if w not in prev:
                    prev[w] = u
                    q.append(w)
        if found is None:
            continue
        loop = [found]
        while loop[-1] != v:
            loop.append(prev[loop[-1]])
        loop.reverse()  # v ... found
        total = g.depth[v] + len(loop)
        if best is None or total < best[0]:
            best = (total, loop)
    assert best is not None
    loop = best[1]
    head = g.path(loop[0])
    return head + loop[1:] + [loop[0]], len(head) - 1


def longest_path_nodes(g: Graph) -> list[int]:
    """The nodes of a longest play from the start in an acyclic graph (empty if it has a cycle)."""
    n = len(g.nodes)
    memo: dict[int, int] = {}
    # longest distance to an end, computed in reverse topological order
    indeg = [0] * n
    for s in g.succ:
        for w, _ in s or []:
            indeg[w] += 1
    topo = [v for v in range(n) if indeg[v] == 0]
    k = 0
    while k < len(topo):
        v = topo[k]
        k += 1
        for w, _ in g.succ[v] or []:
            indeg[w] -= 1
            if indeg[w] == 0:
                topo.append(w)
    if len(topo) != n:
        return []
    for v in reversed(topo):
        memo[v] = max((memo[w] + 1 for w, _ in g.succ[v] or []), default=0)
    path = [0]
    while g.succ[path[-1]]:
        v = path[-1]
        path.append(max(g.succ[v] or [], key=lambda wl: (memo[wl[0]], -wl[0]))[0])
    return path


@dataclass
class Values:
    """Retrograde values on the explored graph: ``win[p][i]`` is the number of turns in which player p can force a
    win from node i (None: p cannot force one on what was explored)."""

    win: list[list[int | None]]


def attractors(g: Graph) -> Values:
    """For each player, the nodes from which they can force a win, with the fewest turns (the winner hurries,
    the others delay).  Only expanded nodes count, so a forced win on a partial graph is a proof.  Two or more
    players: the others are one coalition.  Cost O(players · edges)."""
    players = g.space.players
    n = len(g.nodes)
    preds: list[list[int]] = [[] for _ in range(n)]
    for v, s in enumerate(g.succ):
        for w, _ in s or []:
            preds[w].append(v)
    out: list[list[int | None]] = []
    for p, name in enumerate(players):
        dist: list[int | None] = [None] * n
        left = [len(s) if s is not None else -1 for s in g.succ]  # children not yet known to be wins (others to move)
        worst = [0] * n
        q: deque[int] = deque()
        for v in range(n):
            o = g.outcome[v]
            if g.succ[v] is not None and not g.succ[v] and o is not None and o.get(name, 0) > 0:
                dist[v] = 0
                q.append(v)
        while q:
            w = q.popleft()
            for v in preds[w]:
                if dist[v] is not None or g.succ[v] is None:
                    continue
                mover = g.nodes[v].to_move
                if mover == p:
                    dist[v] = dist[w] + 1  # type: ignore[operator]
                    q.append(v)
                else:
                    left[v] -= 1
                    worst[v] = max(worst[v], dist[w] + 1)  # type: ignore[operator]
                    if left[v] == 0:
                        dist[v] = worst[v]
                        q.append(v)
        out.append(dist)
    return Values(out)


def forcing_line(g: Graph, vals: Values, p: int, limit: int = 400) -> list[int]:
    """A play from the start along which player p wins as fast as they can and the others delay (p must be able
    to force the win from the start)."""
    dist = vals.win[p]
    path = [0]
    while g.succ[path[-1]] and len(path) <= limit:
        v = path[-1]
        kids = [w for w, _ in g.succ[v] or [] if dist[w] is not None]
        if g.nodes[v].to_move == p:
            nxt = min(kids, key=lambda w: (dist[w], w))
        else:
            nxt = max(kids, key=lambda w: (dist[w], -w))
        path.append(nxt)
    return path


def defence_line(g: Graph, vals: Values, p: int, limit: int = 400) -> list[int]:
    """A play from the start in which player p never reaches a position they could force a win from (p tries to,
    turn by turn, by the fewest nodes the others can still escape to; the others stay out of p's reach)."""
    dist = vals.win[p]
    path = [0]
    seen = {0}
    while g.succ[path[-1]] and len(path) <= limit:
        v = path[-1]
        kids = [w for w, _ in g.succ[v] or []]
        safe = [w for w in kids if dist[w] is None]
        if not safe:
            break
        fresh = [w for w in safe if w not in seen] or safe
        nxt = min(fresh, key=lambda w: (g.depth[w], w))
        path.append(nxt)
        if nxt in seen:
            break
        seen.add(nxt)
    return path
