"""The contract between games and the tools that use them (play, solve, referee, verify, perft).

A game is anything with the methods of :class:`Game`.  Positions and turns are frozen, hashable
values, so positions can be memoised and turns listed once each.  A game whose turns claim one
free tile each may also offer the bitmask interface of :class:`ClaimGame`, which the exact
solver, the computer players and the referee use for speed (the k-in-a-row games do).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tapology.model.board import Board
from tapology.model.hashing import HashedOnce


@dataclass(frozen=True)
class Position(HashedOnce):
    """A game position: the board (its topology may change by taping), whose turn, and any extra state.

    ``board.states`` holds the tile states; ``extra`` is game-specific hashable data (the
    pieces' frames, one per tile, for rule sets with oriented pieces); ``ply`` counts turns
    played; ``counters`` are the rule set's counters (chess's fifty-move count); ``history``
    holds the earlier positions that a repetition rule compares with (without their own
    history and counters), since the last turn that reset the rule's counter.
    """

    board: Board
    to_move: int
    extra: tuple = ()
    ply: int = 0
    counters: tuple[int, ...] = ()
    history: tuple[Position, ...] = ()

    __hash__ = HashedOnce.__hash__  # kept: a position with a repetition history hashes every earlier position

    def _hash_value(self) -> int:
        return hash((self.board, self.to_move, self.extra, self.ply, self.counters, self.history))

    def bare(self) -> Position:
        """This position without its history and counters (what a repetition compares)."""
        if not self.history and not self.counters:
            return self
        return Position(self.board, self.to_move, self.extra, self.ply)

    @property
    def states(self) -> tuple[int, ...]:
        """The tile states."""
        return self.board.states


@dataclass(frozen=True)
class Turn:
    """One complete turn: a stable text label (for transcripts and menus) and the resulting position key."""

    label: str
    result: Position


@runtime_checkable
class Game(Protocol):
    """What every game offers."""

    name: str
    players: tuple[str, ...]

    def initial(self) -> Position:
        """The start position."""
        ...

    def turns(self, pos: Position) -> list[Turn]:
        """The legal turns, each once (two paths to the same result are one turn); [] when the game is over."""
        ...

    def outcome(self, pos: Position) -> dict[str, int] | None:
        """None while the game goes on; else a score per player name: 1 win, 0 draw, −1 loss."""
        ...

    @property
    def tile_claims(self) -> bool:
        """True when every turn claims one free tile and is labelled by the tile's id (a menu lists the free
        tiles; whose turn it is and the ply follow from the marks on the board)."""
        ...

    def parse_turn(self, pos: Position, text: str) -> Turn:
        """The legal turn a text names: its label, or another spelling the game reads (a taping in any TAPE
        spelling, SAN); a :class:`~tapology.errors.TapologyError` saying why not (the game is over, the tile is
        taken, the turn is ambiguous, or the legal turns)."""
        ...

    def end_reason(self, pos: Position) -> str:
        """Why the game is over at ``pos`` (``X has the line 1-2-3``, ``the board is full``); "" while it goes on
        or when the outcome says all there is."""
        ...

    def win_detail(self, pos: Position, player: str) -> str:
        """How ``player`` won at ``pos``, to follow "X wins with" (``the line 1-2-3``); "" when there is nothing to
        add."""
        ...

    def drawn_early(self, pos: Position) -> bool:
        """Early draw detection: the game goes on but no player can win any more (False where the game cannot
        tell)."""
        ...

    def intro(self) -> str:
        """One line for the start of a game (``8 lines of 3``), or ""."""
        ...


@runtime_checkable
class ClaimGame(Game, Protocol):
    """A claim game on bitmasks (bit t of ``x``/``o``: tile t holds X/O), for the solvers and players that run
    on them: the capability k-in-a-row games offer beside the :class:`Game` contract."""

    board: Board
    n: int
    k: int
    full: int
    lines: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    masks_at: tuple[tuple[int, ...], ...]
    lines_o: tuple[tuple[int, ...], ...]  # O's win sets and masks: ``lines``/``masks`` but in a connection game
    masks_o: tuple[int, ...]
    stop_at_line: bool

    def won(self, mask: int) -> bool:
        """Does ``mask`` hold a whole line?"""
        ...

    def won_at(self, mask: int, t: int) -> bool:
        """Does ``mask`` hold a whole line through tile t?"""
        ...

    def lines_of(self, mask: int) -> list[int]:
        """Indices of the lines wholly inside ``mask``."""
        ...

    def to_move_of(self, x: int, o: int) -> int:
        """Whose turn it is by the counts (X first)."""
        ...

    def status(self, x: int, o: int) -> ClaimStatus:
        """Whether the game is over and who won."""
        ...

    def children(self, x: int, o: int) -> list[tuple[int, int, int]]:
        """(tile, x', o') for each legal claim, tiles in order; [] when the game is over."""
        ...

    def dead_lines(self, x: int, o: int) -> int:
        """Number of lines holding marks of both players."""
        ...

    def can_still_win(self, x: int, o: int, player: int) -> bool:
        """Can ``player`` (0 X, 1 O) still fill a line?"""
        ...

    def dead_draw(self, x: int, o: int) -> bool:
        """:meth:`Game.drawn_early` on bitmasks."""
        ...

    def masks_of(self, pos: Position, where: str = "position") -> tuple[int, int]:
        """(x, o) bitmasks of a position."""
        ...

    def position(self, x: int, o: int) -> Position:
        """The Position value of bitmasks (x, o)."""
        ...

    def label(self, t: int) -> str:
        """A claim's turn label: the tile's id."""
        ...

    @property
    def label_index(self) -> dict[str, int]:
        """Turn label -> tile index."""
        ...


@dataclass(frozen=True)
class ClaimStatus:
    """Where a bitmask position stands: ``winner`` 0 (X) / 1 (O) / None, ``over``, ``to_move``."""

    over: bool
    winner: int | None
    to_move: int
