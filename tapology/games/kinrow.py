"""A compiled k-in-a-row claim game (m,n,k games such as tic-tac-toe) on any board.

Players X and O (tile states 1 and 2; 0 is empty) claim one empty tile per turn, X first.
A player who completes a line of k tiles (read on the board's topology with
:func:`tapology.model.lines.board_lines`) wins and the game stops there; a full board with
no line is a draw.  ``stop_at_line=False`` gives the variant where play goes on until the
board is full (used to ask what such a rule would allow; its outcome is still decided by
the first line made, which the position alone cannot tell, so positions of that variant
are scored by who holds a line).

The state of a position is two bitmasks, as in seed 002: bit t of ``x`` (``o``) is set
when tile t (index in the board's tile order) holds an X (an O).  Win masks are the
board's lines as bitmasks.  The class implements the :class:`tapology.game.Game` contract
and a bitmask interface used by the solver, the referee and the verifier.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from tapology.errors import GameError, TurnError
from tapology.game import ClaimStatus, Position, Turn
from tapology.model.atlas import Atlas
from tapology.model.board import Board
from tapology.model.lines import board_lines
from tapology.rules.ends import connect_regions
from tapology.rules.model import RuleSet

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas
    from tapology.rules.engine import RuleGame

EMPTY, X_MARK, O_MARK = 0, 1, 2
PLAYERS = ("X", "O")
STATE_NAMES = {EMPTY: "empty", X_MARK: "X", O_MARK: "O"}



def popcount(v: int) -> int:
    """Number of set bits."""
    return v.bit_count()


def bits(v: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while v:
        low = v & -v
        out.append(low.bit_length() - 1)
        v ^= low
    return out


def game_lines(atlas: Atlas, k: int) -> list[tuple[int, ...]]:
    """Every line of k distinct tiles on the board (see :func:`tapology.model.lines.board_lines`)."""

    return board_lines(atlas, k)


Status = ClaimStatus  # where a bitmask position stands (the ClaimGame capability's value)


MAX_TILES = 62  # a position is two int64 bitmasks in the exact solver (docs/limits.md)



def _holds_one(mask: int, masks: tuple[int, ...]) -> bool:
    """Does ``mask`` hold one of ``masks`` whole?  (A plain loop: twice as fast as ``any`` over a generator, and the
    solver and the playouts ask it at every position.)"""
    for m in masks:
        if mask & m == m:
            return True
    return False

class KInARow:
    """k-in-a-row on a board: claims, lines as bitmasks (the :class:`~tapology.game.ClaimGame` capability), the
    :class:`~tapology.game.Game` contract.  Building costs O(n·k·lines)."""

    players: tuple[str, ...] = PLAYERS
    tile_claims = True

    def __init__(self, board: Board, k: int = 3, *, name: str = "tictactoe",
                 lines: list[tuple[int, ...]] | None = None, stop_at_line: bool = True) -> None:
        if k < 1:
            raise GameError(f"{name}: k must be at least 1, got {k}")
        n = len(board.tiles)
        if n > MAX_TILES:
            raise GameError(f"{name}: {n} tiles is more than the {MAX_TILES} a bitmask position holds (play, referee and "
                            "verify use the rule engine on bigger boards)")
        if lines is None:

            atlas = Atlas.of(board)
            if atlas.conflict is not None:
                raise GameError(f"{name}: the board is inconsistent: {atlas.conflict.describe(board)}")
            lines = game_lines(atlas, k)
        self.name = name
        self.k = k
        self.board = board.with_states((EMPTY,) * n)
        self.n = n
        self.full = (1 << n) - 1
        self.stop_at_line = stop_at_line
        self.lines: tuple[tuple[int, ...], ...] = tuple(sorted(tuple(sorted(ln)) for ln in lines))
        self.masks: tuple[int, ...] = tuple(sum(1 << t for t in ln) for ln in self.lines)
        # masks of the lines through each tile: a move at t can only complete one of these
        self.masks_at: tuple[tuple[int, ...], ...] = tuple(
            tuple(m for m in self.masks if m >> t & 1) for t in range(n))
        self.lines_o = self.lines  # O's win sets and masks: the same lines (a connection game has its own per player)
        self.masks_o = self.masks

    # ---- bitmask interface ----------------------------------------------------------
    def won(self, mask: int) -> bool:
        """Does ``mask`` hold a whole line?  Cost O(lines)."""
        return _holds_one(mask, self.masks)

    def won_at(self, mask: int, t: int) -> bool:
        """Does ``mask`` hold a whole line through tile t?"""
        return _holds_one(mask, self.masks_at[t])

    def lines_of(self, mask: int) -> list[int]:
        """Indices of the lines wholly inside ``mask``."""
        return [i for i, m in enumerate(self.masks) if mask & m == m]

    def to_move_of(self, x: int, o: int) -> int:
        """Whose turn it is by the counts (X first); :class:`GameError` when the counts cannot alternate."""
        d = popcount(x) - popcount(o)
        if d not in (0, 1) or x & o:
            raise GameError(f"{self.name}: {popcount(x)} X and {popcount(o)} O marks"
                            + (" on a shared tile" if x & o else " cannot come from alternating turns"))
        return d

    def status(self, x: int, o: int) -> Status:
        """Whether the game is over and who won.  The last mover's line is read first."""
        mover = popcount(x) - popcount(o)  # 0: X to move, so O moved last
        xw, ow = _holds_one(x, self.masks), _holds_one(o, self.masks_o)
        if self.stop_at_line and (xw or ow):
            if xw and ow:
                return Status(True, 1 - mover if mover in (0, 1) else 0, mover)
            return Status(True, 0 if xw else 1, mover)
        if (x | o) == self.full:
            if xw or ow:
                return Status(True, 0 if xw and not ow else 1 if ow and not xw else None, mover)
            return Status(True, None, mover)
        return Status(False, None, mover)

    def children(self, x: int, o: int) -> list[tuple[int, int, int]]:
        """(tile, x', o') for each legal claim, tiles in order; [] when the game is over."""
        if self.status(x, o).over:
            return []
        free = self.full & ~(x | o)
        if popcount(x) == popcount(o):
            return [(t, x | 1 << t, o) for t in bits(free)]
        return [(t, x, o | 1 << t) for t in bits(free)]

    def dead_lines(self, x: int, o: int) -> int:
        """Number of lines holding marks of both players (seed 003's dead ends)."""
        return sum(1 for m in self.masks if m & x and m & o)

    def can_still_win(self, x: int, o: int, player: int) -> bool:
        """Can ``player`` (0 X, 1 O) still fill a line in the claims left to them, whatever the other does?

        A line is live for a player when it holds none of the other's marks; it can be filled
        when its empty tiles are no more than the claims the player still gets before the
        board is full (X gets ⌈e/2⌉ of e empty tiles when X moves next, ⌊e/2⌋ otherwise).
        This is exact for "some continuation of play completes this line" (the other player
        can always claim elsewhere: there are enough tiles off the line).  Cost O(lines).
        """
        empties = self.n - popcount(x | o)
        to_move = popcount(x) - popcount(o)
        claims = (empties + 1) // 2 if to_move == player else empties // 2
        mine, theirs = (x, o) if player == 0 else (o, x)
        for m in self.masks:
            if m & theirs:
                continue
            if popcount(m & ~mine) <= claims:
                return True
        return False

    def dead_draw(self, x: int, o: int) -> bool:
        """Early draw detection: the game is not over and no live line can still be filled by either player."""
        if self.status(x, o).over:
            return False
        return not self.can_still_win(x, o, 0) and not self.can_still_win(x, o, 1)

    # ---- positions ------------------------------------------------------------------
    def masks_of(self, pos: Position, where: str = "position") -> tuple[int, int]:
        """(x, o) bitmasks of a position; :class:`GameError` naming ``where`` for foreign states or boards."""
        st = pos.states
        if len(st) != self.n:
            raise GameError(f"{where}: {len(st)} tile states for a board of {self.n} tiles")
        x = o = 0
        for t, s in enumerate(st):
            if s == X_MARK:
                x |= 1 << t
            elif s == O_MARK:
                o |= 1 << t
            elif s != EMPTY:
                raise GameError(f"{where}: tile {self.board.tiles[t]!r} has state {s}, not 0 (empty), 1 (X) or 2 (O)")
        return x, o

    def position(self, x: int, o: int) -> Position:
        """The Position value of bitmasks (x, o)."""
        states = tuple(X_MARK if x >> t & 1 else O_MARK if o >> t & 1 else EMPTY for t in range(self.n))
        return Position(self.board.with_states(states), popcount(x) - popcount(o), (), popcount(x | o))

    def label(self, t: int) -> str:
        """A claim's turn label: the tile's id."""
        return self.board.tiles[t]

    @cached_property
    def label_index(self) -> dict[str, int]:
        """Turn label -> tile index."""
        return {tid: t for t, tid in enumerate(self.board.tiles)}

    # ---- Game contract --------------------------------------------------------------
    def initial(self) -> Position:
        """The empty board, X to move."""
        return self.position(0, 0)

    def turns(self, pos: Position) -> list[Turn]:
        """One turn per empty tile (labelled by the tile id); [] when the game is over."""
        x, o = self.masks_of(pos)
        return [Turn(self.label(t), self.position(cx, co)) for t, cx, co in self.children(x, o)]

    def outcome(self, pos: Position) -> dict[str, int] | None:
        """None while play goes on; else +1/0/−1 per player."""
        x, o = self.masks_of(pos)
        st = self.status(x, o)
        if not st.over:
            return None
        if st.winner is None:
            return {"X": 0, "O": 0}
        return {PLAYERS[st.winner]: 1, PLAYERS[1 - st.winner]: -1}

    def line_text(self, idx: int) -> str:
        """Line ``idx`` as its tile ids joined by ``-`` (``1-2-3``)."""
        return "-".join(self.board.tiles[t] for t in self.lines[idx])

    def win_detail(self, pos: Position, player: str) -> str:
        """``the line 1-2-3``: the first line ``player`` holds; "" when none."""
        x, o = self.masks_of(pos)
        got = self.lines_of(x if player == PLAYERS[0] else o)
        return f"the line {self.line_text(got[0])}" if got else ""

    def end_reason(self, pos: Position) -> str:
        """``X has the line 1-2-3`` or ``the board is full`` when the game is over; else ""."""
        x, o = self.masks_of(pos)
        st = self.status(x, o)
        if not st.over:
            return ""
        if st.winner is not None:
            detail = self.win_detail(pos, PLAYERS[st.winner])
            if detail:
                return f"{PLAYERS[st.winner]} has {detail}"
        return "the board is full"

    def parse_turn(self, pos: Position, text: str) -> Turn:
        """The claim a tile id names; :class:`TurnError` when the game is over, the tile is taken or not a tile."""
        label = text.strip()
        if self.outcome(pos) is not None:
            raise TurnError(f"the game was already over: {self.end_reason(pos)}")
        tile = self.label_index.get(label)
        if tile is None:
            raise TurnError(f"{label!r} is not a tile of the board")
        x, o = self.masks_of(pos)
        if (x | o) >> tile & 1:
            raise TurnError(f"tile {label} is already taken by {'X' if x >> tile & 1 else 'O'}")
        cx, co = (x | 1 << tile, o) if popcount(x) == popcount(o) else (x, o | 1 << tile)
        return Turn(label, self.position(cx, co))

    def drawn_early(self, pos: Position) -> bool:
        """:meth:`dead_draw` of a position."""
        return self.dead_draw(*self.masks_of(pos))

    def intro(self) -> str:
        """``8 lines of 3``."""
        return f"{len(self.lines)} lines of {self.k}"

    def __repr__(self) -> str:
        return f"KInARow({self.name!r}, n={self.n}, k={self.k}, lines={len(self.lines)})"


def kinrow_of_rules(rules: RuleSet, board: Board) -> KInARow | None:
    """The compiled game for a rule set that is a plain k-in-a-row claim game on ``board``, else None: two players,
    one claim move (an empty tile becomes the mover's mark), k in a row wins, a full board is a draw."""
    k = kinrow_k(rules)
    return None if k is None else KInARow(board.with_states((0,) * len(board.tiles)), k, name=rules.name)


def kinrow_k(rules: RuleSet) -> int | None:
    """k when the rule set is a plain k-in-a-row claim game (see :func:`kinrow_of_rules`), else None."""
    if not _plain_claims(rules, ("own:mark", "own")):
        return None
    kinds = sorted(e.kind for e in rules.ends)
    if kinds != ["line", "no-turns"]:
        return None
    line = next(e for e in rules.ends if e.kind == "line")
    nt = next(e for e in rules.ends if e.kind == "no-turns")
    if line.states or line.player is not None or line.result != "win" or nt.result != "draw" or line.exact \
            or any(e.check is not None or e.optional for e in rules.ends):
        return None
    return line.k


def _plain_claims(rules: RuleSet, afters: tuple[str, ...] | None) -> bool:
    """Two players claiming one empty tile a turn (the claimed tile becomes one of ``afters``, or any ``own`` state
    where None), X first from an empty board, nothing else in the rules but their end rules."""
    if rules.tape is not None or rules.cleanups or len(rules.players) != 2 or len(rules.moves) != 1:
        return False
    mv = rules.moves[0]
    if mv.links or mv.lines is not None or mv.fall is not None or mv.captures is not None or rules.passing:
        return False
    if len(mv.cells) != 1 or any(mv.cells[0].cell) or set(mv.players) != {0, 1}:
        return False
    cell = mv.cells[0]
    after = cell.after or ""
    after_ok = after in afters if afters is not None else after == "own" or after.startswith("own:")
    if cell.before.kind != "states" or tuple(cell.before.tokens) != ("empty",) or not after_ok:
        return False
    by = {s.value: s for s in rules.states}
    if set(by) != {0, 1, 2} or by[0].name != "empty" or by[1].owner != 0 or by[2].owner != 1:
        return False
    if by[1].oriented or by[2].oriented:
        return False
    if rules.initial.layout or rules.initial.tiles or rules.initial.fill or rules.initial.to_move != 0:
        return False
    if rules.counters or rules.setups or rules.mandatory or rules.royal or mv.conditions or rules.phases:
        return False
    return True


MAX_WIN_SETS = 50_000  # minimal connecting sets a connection game may have to be solved on bitmasks


class ConnectClaim(KInARow):
    """A two-player claim game won by a connection (Hex on a small board) as bitmasks for the layered solver: each
    player's win masks are their **minimal connecting sets** (the tile sets of the simple paths from one of their
    regions to the other, none holding another), since a group touches both regions exactly where the player's
    tiles hold one.  Building costs the simple paths between the regions (refused past :data:`MAX_WIN_SETS`)."""

    def __init__(self, board: Board, name: str, players: tuple[str, ...], sets_x: list[tuple[int, ...]],
                 sets_o: list[tuple[int, ...]]) -> None:
        super().__init__(board, 1, name=name, lines=sets_x)
        self.players = players
        self.lines_o = tuple(sorted(tuple(sorted(s)) for s in sets_o))
        self.masks_o = tuple(sum(1 << t for t in s) for s in self.lines_o)


def minimal_connections(nbrs: list[list[int]], start: frozenset[int], goal: frozenset[int],
                        limit: int = MAX_WIN_SETS) -> list[tuple[int, ...]] | None:
    """The minimal tile sets joining a tile of ``start`` to a tile of ``goal`` through ``nbrs``, or None past ``limit``
    simple paths.  Every minimal connected set touching both is a simple path's tiles."""
    found: set[int] = set()
    paths = 0

    def walk(t: int, mask: int) -> bool:
        nonlocal paths
        if t in goal:
            found.add(mask)
            paths += 1
            return paths <= limit
        for u in nbrs[t]:
            if not mask >> u & 1 and u not in start and not walk(u, mask | 1 << u):
                return False
        return True

    for t in sorted(start):
        if not walk(t, 1 << t):
            return None
    masks = sorted(found, key=lambda m: bin(m).count("1"))
    minimal: list[int] = []
    for m in masks:
        if not any(k & m == k for k in minimal):
            minimal.append(m)
    return [tuple(bits(m)) for m in minimal]


def connect_claim(game: RuleGame) -> ConnectClaim | None:
    """The bitmask game of a plain two-player claim game won by one ``connect`` rule between two regions (Hex), a
    full board drawing, on the game's board; None for any other rule set, a board past :data:`MAX_TILES` tiles or
    with a region missing, or too many connecting sets."""
    rules = game.rules
    if not _plain_claims(rules, None) or sorted(e.kind for e in rules.ends) != ["connect", "no-turns"]:
        return None
    e = next(x for x in rules.ends if x.kind == "connect")
    nt = next(x for x in rules.ends if x.kind == "no-turns")
    if e.states or e.player is not None or e.result != "win" or nt.result != "draw" or len(e.regions) != 2 \
            or any(x.check is not None or x.optional for x in rules.ends):
        return None
    board = game.initial().board
    if len(board.tiles) > MAX_TILES:
        return None
    comp = game.chains(game.board).comp
    h = comp.h
    nbrs = [sorted({c // h for c in comp.board.glue[u] if c >= 0} - {u}) for u in range(comp.n)]
    sets = []
    for p in (0, 1):
        regions = connect_regions(comp, e, p)
        if not regions or any(not r for r in regions):
            return None
        got = minimal_connections(nbrs, regions[0], regions[1])
        if got is None:
            return None
        sets.append(got)
    return ConnectClaim(board, rules.name, rules.players, sets[0], sets[1])

