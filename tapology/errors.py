"""Errors, all in one place: every bad input raises a :class:`TapologyError` (a ``ValueError``) whose message is
one line naming the input and where it is; the command line prints it and exits with code 2.

The hierarchy follows the layers: boards and their parts, rule sets and games, play, pictures,
and the solvers.  Catch :class:`TapologyError` for all of them.
"""

from __future__ import annotations


class TapologyError(ValueError):
    """Base class: a bad input, named in the message."""


class LimitError(TapologyError):
    """An input beyond one of the documented limits of :mod:`tapology.limits`; names the input, measure and limit."""


# ---- boards (tapology.model) ------------------------------------------------------------
class BoardError(TapologyError):
    """A board refers to an unknown tile, side or orientation, or is malformed."""


class GroupError(BoardError):
    """An orientation group breaks a group law."""


class GridError(BoardError):
    """A reference grid breaks a law, or a cell or direction is not of the grid."""


class DomainError(BoardError):
    """A chart domain is malformed (no origin, not closed under the orientations)."""


class TapeSyntaxError(BoardError):
    """A TAPE string does not parse."""


class BoardFileError(BoardError):
    """A board file is unreadable or malformed."""


class BuiltinError(BoardError):
    """An unknown or malformed built-in board name."""


class WalkError(BoardError):
    """A bad step name, frame or start tile for a walk."""


# ---- solvers (tapology.solver) ------------------------------------------------------------
class SynthesisError(TapologyError):
    """A synthesis request that cannot be met as asked (bad option combination)."""


class Undecided(TapologyError):
    """A solver answered "unknown" (a time or resource limit): the question stays open."""


# ---- rule sets and games (tapology.rules, tapology.games) ------------------------------------
class RuleError(TapologyError):
    """A rule set is malformed; the message names the file, line and entry."""


class TurnError(TapologyError):
    """A turn label does not name a legal turn of the position."""


class PositionError(TapologyError):
    """A position file or value does not fit the game or board."""


class GameError(TapologyError):
    """A bad game name, game parameter or position for a game."""


class NotationError(TapologyError):
    """A game notation (FEN, SAN, UCI, PGN) that does not parse or does not fit the game; names the field."""


# ---- play (tapology.play) --------------------------------------------------------------------
class SolveError(TapologyError):
    """A game the solvers cannot handle (cycles, too many tiles, more than two players)."""


class StrengthError(TapologyError):
    """A computer player that is not ``random``, ``perfect``, a depth, or a known search."""


class RecordError(TapologyError):
    """A game record that cannot be read or does not fit the game."""


class TranscriptError(TapologyError):
    """A transcript or game-record line that cannot be read."""


class PredicateError(TapologyError):
    """A predicate that does not parse or names an unknown term, player or state."""


class ReachError(TapologyError):
    """A reachability question that cannot be asked (bad depth, method or game)."""


# ---- pictures (tapology.render) -------------------------------------------------------------
class RenderError(TapologyError):
    """A picture cannot be made or written (no converter, bad output path, bad format)."""


class ViewError(RenderError):
    """A bad radius or window for a view."""


# ---- the command line ---------------------------------------------------------------------
class OptionError(TapologyError):
    """A bad command-line option value."""


# ---- executors (tapology.parallel) ----------------------------------------------------------------
class ExecutorError(OptionError):
    """An executor that cannot be used as asked: a bad worker count, Ray missing or unreachable."""
