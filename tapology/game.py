"""The contract between games and the tools that use them (play, solve, referee, verify, perft).

A game is anything with these methods.  Positions and turns are frozen, hashable values,
so positions can be memoised and turns listed once each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tapology.model.board import Board


@dataclass(frozen=True)
class Position:
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
