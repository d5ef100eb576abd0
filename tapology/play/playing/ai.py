"""Computer players: choose a turn from the legal ones, at a given strength.

Strength is ``random`` (any legal turn), a search depth in plies, or ``perfect``.  On
k-in-a-row games a depth means negamax with alpha-beta, a heuristic counting open lines at
the horizon and early draw detection cutting dead branches; ``perfect`` plays from the solved
game when the board has at most :data:`TABLE_TILES` tiles (else it searches 6 plies).  On
other games a depth means memoised maximin over the game's turns (outcomes only, no
heuristic), and ``perfect`` searches :data:`GENERIC_PERFECT_DEPTH` plies.  Ties are broken at
random from a seeded generator, so a game is reproducible from its seed.

Stronger players for every two-player game, named by a player spec (:func:`parse_player`):
``alphabeta:D`` (:class:`AlphaBetaAgent`: iterative deepening to D plies, alpha-beta with a
transposition table, a heuristic at the horizon) and ``mcts:N`` (:class:`MCTSAgent`: N
simulations of UCT with random playouts, played by the native engine where it runs; ``mcts-python:N`` plays them
turn by turn through the game, as MCTS did before, for comparisons); ``@S`` adds a time limit of S seconds per move
(``mcts:5000@2``, ``alphabeta:12@0.5``).  Both search k-in-a-row games on bitmasks and other
games through their turns.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tapology.errors import StrengthError
from tapology.game import ClaimGame, Game, Position, Turn
from tapology.games.kinrow import popcount
from tapology.limits import check
from tapology.play.solving.solve import WIN, KinrowTable, solve_kinrow
from tapology.rules.engine import RuleGame
from tapology.rules.native import why_not as native_why_not
from tapology.rules.playouts import playout_end

TABLE_TILES = 20
PERFECT = 99
GENERIC_PERFECT_DEPTH = 4  # "perfect" on a game without a solved table: this many plies



def parse_strength(text: str, where: str = "--strength") -> int:
    """0 for ``random``, :data:`PERFECT` for ``perfect``, else the depth."""
    t = text.strip().lower()
    if t == "random":
        return 0
    if t == "perfect":
        return PERFECT
    try:
        d = int(t)
    except ValueError:
        raise StrengthError(f"{where}: {text!r} is not random, perfect or a search depth") from None
    if d < 0:
        raise StrengthError(f"{where}: {text!r}: the depth must be 0 (random) or more")
    return d


class _Timeout(Exception):
    """A search's time is up."""


class Agent(Protocol):
    """A computer player."""

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """Index of the chosen turn in ``turns``."""
        ...


class _SearchAgent:
    """What the computer players share: a strength (0: any turn), a seeded choice among equally good turns."""

    def __init__(self, game: Any, strength: int = PERFECT, seed: int | None = None) -> None:
        self.game = game
        self.strength = strength
        self.rng = random.Random(seed)

    def values(self, pos: Position, turns: Sequence[Turn]) -> list[int]:
        """The value of each turn for the mover (higher is better)."""
        raise NotImplementedError

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """A best turn (random among equals; any turn at strength 0)."""
        if not turns:
            raise StrengthError("no legal turn to choose from")
        if self.strength == 0:
            return self.rng.randrange(len(turns))
        vals = self.values(pos, turns)
        best = max(vals)
        return self.rng.choice([i for i, v in enumerate(vals) if v == best])


class KinrowAgent(_SearchAgent):
    """A computer player for a :class:`KInARow` game."""

    def __init__(self, game: ClaimGame, strength: int = PERFECT, seed: int | None = None,
                 seconds: float | None = None) -> None:
        super().__init__(game, strength, seed)
        self._table: KinrowTable | None = None
        self.seconds = seconds
        self.reached = 0
        self._deadline: float | None = None

    def table(self) -> KinrowTable | None:
        """The solved table (built on first use) when the board is small enough."""
        if self._table is None and self.game.n <= TABLE_TILES:
            self._table = solve_kinrow(self.game, keep_table=True).table
        return self._table

    def scores(self, x: int, o: int) -> dict[int, int]:
        """Score of each claim (tile -> score for the mover) at this agent's strength."""
        g = self.game
        kids = g.children(x, o)
        if self.strength >= PERFECT and (tab := self.table()) is not None:
            return {t: -tab.score(cx, co) for t, cx, co in kids}
        depth = self.strength if self.strength < PERFECT else 6
        if self.seconds is None:
            self.reached = depth
            return {t: -self._negamax(cx, co, depth - 1, -WIN - 1, WIN + 1) for t, cx, co in kids}
        # a time limit: iterative deepening, the deepest search finished in time decides
        self._deadline = time.monotonic() + self.seconds
        best = {t: 0 for t, _cx, _co in kids}
        self.reached = 0
        try:
            for d in range(1, depth + 1):
                best = {t: -self._negamax(cx, co, d - 1, -WIN - 1, WIN + 1) for t, cx, co in kids}
                self.reached = d
        except _Timeout:
            pass
        finally:
            self._deadline = None
        return best

    def values(self, pos: Position, turns: Sequence[Turn]) -> list[int]:
        """Each turn's score from :meth:`scores`."""
        x, o = self.game.masks_of(pos)
        by_label = {self.game.label(t): s for t, s in self.scores(x, o).items()}
        return [by_label.get(tr.label, -2 * WIN) for tr in turns]

    # a score from the side to move; wins and losses are WIN − plies as in the solver
    def _negamax(self, x: int, o: int, depth: int, alpha: int, beta: int) -> int:
        g = self.game
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _Timeout
        st = g.status(x, o)
        if st.over:
            if st.winner is None:
                return 0
            return WIN if st.winner == st.to_move else -WIN
        if g.dead_draw(x, o):
            return 0
        if depth <= 0:
            return self._heuristic(x, o)
        best = -2 * WIN
        for _t, cx, co in g.children(x, o):
            v = -self._negamax(cx, co, depth - 1, -beta, -alpha)
            v = v - 1 if v > 0 else v + 1 if v < 0 else 0
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def _heuristic(self, x: int, o: int) -> int:
        """Open lines weighted by how full they are, from the side to move; well inside ±WIN/2."""
        return open_lines(self.game, x, o)


def open_lines(g: ClaimGame, x: int, o: int) -> int:
    """Open lines weighted by how full they are, from the side to move; well inside ±WIN/2."""
    mine, theirs = (x, o) if popcount(x) == popcount(o) else (o, x)
    s = 0
    for m in g.masks:
        a, b = m & mine, m & theirs
        if a and not b:
            s += 1 << (2 * popcount(a))
        elif b and not a:
            s -= 1 << (2 * popcount(b))
    return max(-WIN // 2, min(WIN // 2, s))


class GameAgent(_SearchAgent):
    """A computer player for any two-player :class:`Game`: depth-limited negamax over its turns; with ``seconds`` a
    time limit per move (iterative deepening: the deepest search finished in time decides)."""

    def __init__(self, game: Game, strength: int = PERFECT, seed: int | None = None,
                 seconds: float | None = None) -> None:
        super().__init__(game, strength, seed)
        self.seconds = seconds
        self.reached = 0
        self._deadline: float | None = None
        self._memo: dict[tuple[Position, int], tuple[int, ...]] = {}

    def values(self, pos: Position, turns: Sequence[Turn]) -> list[int]:
        """Each turn's value by search to this agent's depth (the deepest finished in time, with a limit)."""
        if self.seconds is None:
            self.reached = self.strength
            return [self._value(pos, t.result, self.strength - 1) for t in turns]
        self._deadline = time.monotonic() + self.seconds
        best = [0] * len(turns)
        self.reached = 0
        try:
            for d in range(1, self.strength + 1):
                best = [self._value(pos, t.result, d - 1) for t in turns]
                self.reached = d
        except _Timeout:
            pass
        finally:
            self._deadline = None
        return best

    def _value(self, parent: Position, pos: Position, depth: int) -> int:
        """Score of ``pos`` for the player who moved at ``parent``."""
        me = self.game.players[parent.to_move]
        return self._score(pos, depth)[me]

    def _score(self, pos: Position, depth: int) -> dict[str, int]:
        key = (pos, depth)
        hit = self._memo.get(key)
        if hit is not None:
            return dict(zip(self.game.players, hit, strict=True))
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _Timeout
        out = self.game.outcome(pos)
        if out is not None:
            res = {p: WIN * out.get(p, 0) for p in self.game.players}
        elif depth <= 0:
            res = {p: 0 for p in self.game.players}
        else:
            mover = self.game.players[pos.to_move]
            best: dict[str, int] | None = None
            for t in self.game.turns(pos):
                s = self._score(t.result, depth - 1)
                if best is None or s[mover] > best[mover]:
                    best = s
            if best is None:  # no turn and no outcome: score it as a draw
                best = {p: 0 for p in self.game.players}
            res = {p: (v - 1 if v > 0 else v + 1 if v < 0 else 0) for p, v in best.items()}
        self._memo[key] = tuple(res[p] for p in self.game.players)
        return res


def make_agent(game: Game, strength: int, seed: int | None = None, seconds: float | None = None) -> Agent:
    """The right computer player for a game; ``seconds`` limits each move's search (not the solve that builds a
    k-in-a-row table, on boards of up to :data:`TABLE_TILES` tiles)."""
    if isinstance(game, ClaimGame):
        return KinrowAgent(game, strength, seed, seconds)
    return GameAgent(game, strength if strength < PERFECT else GENERIC_PERFECT_DEPTH, seed, seconds)


# ---- search players for any two-player game ------------------------------------------------------
@dataclass(frozen=True)
class PlayerSpec:
    """A computer player by name: ``kind`` (random, perfect, depth, alphabeta, mcts), its budget (plies or
    simulations) and a time limit per move in seconds (None: none)."""

    kind: str
    budget: int = 0
    seconds: float | None = None
    text: str = field(default="", compare=False)


SEARCHES = ("alphabeta", "mcts", "mcts-python")
DEFAULT_BUDGET = {"alphabeta": 6, "mcts": 1000, "mcts-python": 1000}
SPECS = "random, perfect, a depth, alphabeta:D, mcts:N or mcts-python:N"


def parse_player(text: str, where: str = "player") -> PlayerSpec:
    """``random``, ``perfect``, a depth ``N``, ``alphabeta[:D]``, ``mcts[:N]``, ``mcts-python[:N]``, each with an
    optional ``@SECONDS`` time limit per move (``mcts:5000@2``); :class:`StrengthError` naming ``where`` otherwise."""
    t = text.strip().lower()
    body, _, limit = t.partition("@")
    seconds = None
    if limit:
        try:
            seconds = float(limit.rstrip("s"))
        except ValueError:
            raise StrengthError(f"{where}: {text!r}: the time limit after @ must be seconds") from None
        if not (math.isfinite(seconds) and seconds > 0):
            raise StrengthError(f"{where}: {text!r}: the time limit must be a positive, finite number of seconds")
    kind, _, arg = body.partition(":")
    if kind in SEARCHES:
        try:
            budget = int(arg) if arg else DEFAULT_BUDGET[kind]
        except ValueError:
            raise StrengthError(f"{where}: {text!r}: {kind}'s budget must be a whole number") from None
        if budget < 1:
            raise StrengthError(f"{where}: {text!r}: {kind}'s budget must be at least 1")
        check("depth" if kind == "alphabeta" else "playouts", budget, f"{where}: {text!r}: {kind}'s budget",
              StrengthError)
        return PlayerSpec(kind, budget, seconds, text.strip())
    if arg:
        raise StrengthError(f"{where}: {text!r}: use {SPECS}")
    try:
        depth = parse_strength(kind, where)
    except StrengthError:
        raise StrengthError(f"{where}: {text!r}: use {SPECS} (with @SECONDS for a time limit)") from None
    if seconds is not None:
        raise StrengthError(f"{where}: {text!r}: a time limit (@SECONDS) is for alphabeta, mcts and mcts-python")
    name = "random" if depth == 0 else "perfect" if depth == PERFECT else "depth"
    return PlayerSpec(name, depth, None, text.strip())


class SearchTree(Protocol):
    """What the search players need of a game: nodes (hashable), their children by turn label, scores."""

    def node(self, pos: Position) -> Hashable:
        """The node of a position."""
        ...

    def children(self, node: Any) -> list[tuple[str, Any]]:
        """(turn label, child node) in the game's turn order; [] when the game is over."""
        ...

    def score(self, node: Any) -> int | None:
        """WIN / −WIN / 0 from the side to move when the game is over (or decided), else None."""
        ...

    def heuristic(self, node: Any) -> int:
        """An estimate from the side to move, well inside ±WIN/2."""
        ...


class KinrowTree:
    """k-in-a-row positions as bitmask pairs; early draws are decided; open lines as the heuristic."""

    def __init__(self, game: ClaimGame) -> None:
        self.game = game

    def node(self, pos: Position) -> tuple[int, int]:
        """(x, o)."""
        return self.game.masks_of(pos)

    def children(self, node: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
        """Claims by tile."""
        g = self.game
        return [(g.label(t), (cx, co)) for t, cx, co in g.children(*node)]

    def score(self, node: tuple[int, int]) -> int | None:
        """The end of the game, or an early draw."""
        g = self.game
        st = g.status(*node)
        if st.over:
            return 0 if st.winner is None else WIN if st.winner == st.to_move else -WIN
        return 0 if g.dead_draw(*node) else None

    def heuristic(self, node: tuple[int, int]) -> int:
        """Open lines weighted by how full they are."""
        return open_lines(self.game, *node)


PIECE_VALUES = {"pawn": 1, "man": 1, "knight": 3, "bishop": 3, "rook": 5, "queen": 9, "king": 2}


class GameTree:
    """Any two-player game through its turns; material (pieces by kind, :data:`PIECE_VALUES`, royal pieces 0) as
    the heuristic for rule games."""

    def __init__(self, game: Game) -> None:
        if len(game.players) != 2:
            raise StrengthError(f"{game.name}: the search players play two-player games; this one has "
                                f"{len(game.players)}")
        self.game = game
        self.players = tuple(game.players)
        self.weights: dict[int, tuple[int, int]] = {}  # state value -> (owner, value)
        rules = getattr(game, "rules", None)
        if rules is not None:
            royal = set(rules.royal)
            for sd in rules.states:
                if sd.owner is not None:
                    v = 0 if sd.name in royal else PIECE_VALUES.get(sd.kind or "", 1)
                    self.weights[sd.value] = (sd.owner, v)

    def node(self, pos: Position) -> Position:
        """The position itself."""
        return pos

    def children(self, node: Position) -> list[tuple[str, Position]]:
        """The legal turns."""
        return [(t.label, t.result) for t in self.game.turns(node)]

    def score(self, node: Position) -> int | None:
        """The outcome from the side to move."""
        out = self.game.outcome(node)
        if out is None:
            return None
        return WIN * out.get(self.players[node.to_move], 0)

    def heuristic(self, node: Position) -> int:
        """Material difference for the side to move, ×10."""
        if not self.weights:
            return 0
        s = 0
        me = node.to_move
        for st in node.board.states:
            w = self.weights.get(st)
            if w is not None:
                s += w[1] if w[0] == me else -w[1]
        return max(-WIN // 2, min(WIN // 2, 10 * s))


def search_tree(game: Game) -> SearchTree:
    """Bitmasks for a k-in-a-row game, else the game's turns."""
    if isinstance(game, ClaimGame):
        return KinrowTree(game)
    return GameTree(game)


EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 2_000_000


def _closer(v: int) -> int:
    """A score one ply further from the end (wins and losses count plies)."""
    return v - 1 if v > 0 else v + 1 if v < 0 else 0


class AlphaBetaAgent:
    """Iterative-deepening negamax with alpha-beta and a transposition table, to ``depth`` plies or ``seconds`` per
    move (the deepest finished iteration decides); ties broken by a seeded shuffle of the root's turns."""

    def __init__(self, game: Game, depth: int = 6, seconds: float | None = None, seed: int | None = None) -> None:
        self.game = game
        self.tree = search_tree(game)
        self.depth = depth
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.table: dict[Hashable, tuple[int, int, int, int]] = {}  # node -> (depth, value, flag, best child)
        self.nodes = 0
        self.reached = 0
        self._deadline: float | None = None

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """The best turn found."""
        if not turns:
            raise StrengthError("no legal turn to choose from")
        labels = [t.label for t in turns]
        root = self.tree.node(pos)
        kids = self.tree.children(root)
        self.rng.shuffle(kids)
        self._deadline = None if self.seconds is None else time.monotonic() + self.seconds
        if len(self.table) > TT_LIMIT:
            self.table.clear()
        best = kids[0][0]
        depth = self.depth
        if isinstance(self.tree, KinrowTree):  # a claim game ends within one ply per free tile: no deeper search
            x, o = self.tree.node(pos)
            depth = min(depth, self.tree.game.n - popcount(x | o))
        for d in range(1, depth + 1):
            try:
                label, _v = self._root(kids, d)
            except _Timeout:
                break
            best = label
            self.reached = d
        return labels.index(best)

    def _root(self, kids: list[tuple[str, Any]], depth: int) -> tuple[str, int]:
        alpha, beta = -2 * WIN, 2 * WIN
        best_label, best = kids[0][0], -2 * WIN
        order = sorted(range(len(kids)), key=lambda i: self._hint(kids[i][1]))
        for i in order:
            label, child = kids[i]
            v = _closer(-self._search(child, depth - 1, -beta, -alpha))
            if v > best:
                best, best_label = v, label
            alpha = max(alpha, v)
        # the next iteration tries this one first
        kids.sort(key=lambda kv: kv[0] != best_label)
        return best_label, best

    def _hint(self, node: Any) -> int:
        """Order children by their stored value (best for the mover first)."""
        got = self.table.get(node)
        return got[1] if got is not None else 0

    def _search(self, node: Any, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self._deadline is not None and self.nodes % 256 == 0 and time.monotonic() > self._deadline:
            raise _Timeout
        tree = self.tree
        sc = tree.score(node)
        if sc is not None:
            return sc
        if depth <= 0:
            return tree.heuristic(node)
        entry = self.table.get(node)
        first = -1
        if entry is not None:
            d, v, flag, first = entry
            if d >= depth:
                if flag == EXACT:
                    return v
                if flag == LOWER and v >= beta:
                    return v
                if flag == UPPER and v <= alpha:
                    return v
        a0 = alpha
        kids = tree.children(node)
        order = list(range(len(kids)))
        if 0 <= first < len(kids):
            order.remove(first)
            order.insert(0, first)
        best, best_i = -2 * WIN, order[0] if order else -1
        for i in order:
            v = _closer(-self._search(kids[i][1], depth - 1, -beta, -alpha))
            if v > best:
                best, best_i = v, i
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        if not kids:  # no turn and no outcome: a draw
            best = 0
        flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
        self.table[node] = (depth, best, flag, best_i)
        return best


class _Node:
    __slots__ = ("children", "label", "node", "total", "visits")

    def __init__(self, label: str, node: Any) -> None:
        self.label = label
        self.node = node
        self.children: list[_Node] | None = None
        self.visits = 0
        self.total = 0.0  # sum of results for the player who moved into this node


PLAYOUT_PLIES = 400  # a native playout not ended by then counts as a draw


def native_playouts(game: Game) -> bool:
    """Whether the native engine plays random playouts of ``game`` (a rule game on codes whose tables it takes:
    built now, or read from the disk cache, before any clock runs)."""
    return isinstance(game, RuleGame) and not isinstance(game, ClaimGame) and \
        not native_why_not(game.chains(game.board), perft=True)


class MCTSAgent:
    """UCT with random playouts: ``simulations`` per move, or fewer when ``seconds`` run out; the most visited
    turn is played (a turn that wins at once is played without search).  On a rule game the native engine plays
    the playouts (:func:`tapology.rules.playouts.playout_end`, optional end rules left out, a draw after
    :data:`PLAYOUT_PLIES`) where it runs; ``fast_playouts=False`` plays them turn by turn through the game."""

    def __init__(self, game: Game, simulations: int = 1000, seconds: float | None = None, seed: int | None = None,
                 uct_c: float = 1.4, fast_playouts: bool = True) -> None:
        self.game = game
        self.tree = search_tree(game)
        self.simulations = simulations
        self.seconds = seconds
        self.uct_c = uct_c
        self.rng = random.Random(seed)
        self.done = 0
        self.fast = fast_playouts and isinstance(self.tree, GameTree) and native_playouts(game)

    def choose(self, pos: Position, turns: Sequence[Turn]) -> int:
        """The most visited turn after the search."""
        if not turns:
            raise StrengthError("no legal turn to choose from")
        labels = [t.label for t in turns]
        tree = self.tree
        root = _Node("", tree.node(pos))
        root.children = [_Node(lab, c) for lab, c in tree.children(root.node)]
        for ch in root.children:
            if tree.score(ch.node) == -WIN:  # the player to move there has lost: this turn wins now
                return labels.index(ch.label)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        self.done = 0
        for _ in range(self.simulations):
            if deadline is not None and time.monotonic() > deadline:
                break
            self._simulate(root)
            self.done += 1
        best = max(root.children, key=lambda c: (c.visits, c.total, self.rng.random()))
        return labels.index(best.label)

    def _simulate(self, root: _Node) -> None:
        tree = self.tree
        path = [root]
        node = root
        while node.children:
            parent = node
            kids = node.children
            unvisited = [c for c in kids if c.visits == 0]
            if unvisited:
                node = self.rng.choice(unvisited)
            else:
                log_n = math.log(parent.visits)
                node = max(kids,
                           key=lambda c: c.total / c.visits + self.uct_c * math.sqrt(log_n / c.visits))
            path.append(node)
            if node.visits == 0:
                break
        if node.children is None and node.visits > 0 and tree.score(node.node) is None:
            node.children = [_Node(lab, c) for lab, c in tree.children(node.node)]
            if node.children:
                node = self.rng.choice(node.children)
                path.append(node)
        result = self._playout(node.node)  # from the side to move at the leaf
        # the player who moved into path[-1] gets -result; signs alternate upwards
        r = -result
        for n in reversed(path):
            n.visits += 1
            n.total += r
            r = -r

    def _playout(self, node: Any) -> float:
        """A random game from ``node``: 1, 0 or −1 for the side to move there."""
        tree = self.tree
        if self.fast:
            assert isinstance(self.game, RuleGame)
            end = playout_end(self.game, node, self.rng.getrandbits(62), 0, PLAYOUT_PLIES)
            sc = tree.score(end)
            val = 0.0 if sc is None else 1.0 if sc > 0 else -1.0 if sc < 0 else 0.0
            return val if end.to_move == node.to_move else -val
        sign = 1.0
        while True:
            sc = tree.score(node)
            if sc is not None:
                return sign * (1.0 if sc > 0 else -1.0 if sc < 0 else 0.0)
            kids = tree.children(node)
            if not kids:
                return 0.0
            node = self.rng.choice(kids)[1]
            sign = -sign


def make_search_agent(game: Game, spec: PlayerSpec, seed: int | None = None) -> Agent:
    """The computer player a spec names (``mcts`` here is this module's own; ``mcts-python`` plays its playouts turn
    by turn through the game)."""
    if spec.kind == "alphabeta":
        return AlphaBetaAgent(game, spec.budget, spec.seconds, seed)
    if spec.kind in ("mcts", "mcts-python"):
        return MCTSAgent(game, spec.budget, spec.seconds, seed, fast_playouts=spec.kind == "mcts")
    return make_agent(game, spec.budget, seed)
