"""Errors: every bad input raises a ``TapologyError`` (a ``ValueError``) naming the input and where."""

from __future__ import annotations


class TapologyError(ValueError):
    """Base class: a bad input, named in the message."""


class GroupError(TapologyError):
    """An orientation group breaks a group law."""


class GridError(TapologyError):
    """A reference grid breaks a law, or a cell or direction is not of the grid."""


class DomainError(TapologyError):
    """A chart domain is malformed (no origin, not closed under the orientations)."""


class BoardError(TapologyError):
    """A board refers to an unknown tile, side or orientation, or is malformed."""


class TapeSyntaxError(TapologyError):
    """A TAPE string does not parse."""


class BoardFileError(TapologyError):
    """A board file is unreadable or malformed."""


class BuiltinError(TapologyError):
    """An unknown or malformed built-in board name."""
