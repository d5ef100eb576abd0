"""A game position on the cover: what :func:`tapology.render.svg.view_svg` needs to draw the pieces of a position
on every copy of their tiles.

Chess (a rule set with chess notation) is drawn as a chess diagram would be: light and dark squares named by their
square (``e4``), the pieces as their Unicode signs (white ♔♕♖♗♘♙ over a white ♚♛♜♝♞♟, black ♚♛♜♝♞♟).  Any
other rule set's pieces are drawn as their state's name on a disc of their player's colour.  A piece is turned,
and mirrored, as the copy of its tile is drawn and as its own frame says relative to the frame it starts in (a
black pawn starts facing down and is drawn upright there; one that has crossed a Möbius seam is drawn upside
down), so the copies of a Klein bottle show mirrored pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from tapology.game import Position
from tapology.games.chess import ChessNotation, squares
from tapology.render.svg import Piece
from tapology.rules.engine import RuleGame

FILLED = {"king": "♚", "queen": "♛", "rook": "♜", "bishop": "♝", "knight": "♞", "pawn": "♟"}
OUTLINED = {"king": "♔", "queen": "♕", "rook": "♖", "bishop": "♗", "knight": "♘", "pawn": "♙"}
BASE = {"passer": "pawn", "castle-rook": "rook", "castle-king": "king"}
LIGHT, DARK = "#f0d9b5", "#b58863"  # the usual diagram colours
DISCS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f")  # other games: a disc per player


@dataclass(frozen=True)
class Drawing:
    """Per tile: the piece on it, the square's fill, the tile's name."""

    pieces: dict[int, Piece]
    fills: dict[int, str]
    labels: tuple[str, ...]


def position_drawing(game: RuleGame, pos: Position) -> Drawing:
    """The pieces, fills and names to draw ``pos`` with.  Cost O(tiles)."""
    chess = isinstance(game.notation, ChessNotation)
    comp = game.compiled(pos.board)
    h = game.h
    codes = game.codes(pos)
    pieces: dict[int, Piece] = {}
    grp = game.rules.grid.group
    defaults = dict(game.rules.initial.frames)
    for t, c in enumerate(codes):
        s = c // h
        if not s:
            continue
        sd = game.rules.by_value[s]
        owner = comp.owner[c]
        kind = BASE.get(sd.kind or "", sd.kind or "")
        # turned relative to the frame the piece starts in (a black pawn starts facing down: drawn upright there)
        start = defaults.get(sd.name, defaults.get(sd.symbol or "", 0))
        frame = grp.mul[grp.inv[start]][c % h]
        if chess and kind in FILLED:
            if owner == 0:  # white: the outlined sign over the filled one in white
                pieces[t] = Piece(OUTLINED[kind], "#111111", frame=frame, back=FILLED[kind])
            else:
                pieces[t] = Piece(FILLED[kind], "#111111", frame=frame)
            continue
        disc = DISCS[owner % len(DISCS)] if owner >= 0 else "#888888"
        pieces[t] = Piece((sd.symbol or sd.name)[:2], "#ffffff", frame=frame, back="●", back_fill=disc, size=0.5)
    fills: dict[int, str] = {}
    labels: tuple[str, ...] = tuple(pos.board.tiles)
    if chess:
        sq = squares(game)
        labels = sq.names
        if sq.ranks is not None:
            for t, name in enumerate(sq.names):
                fills[t] = LIGHT if (ord(name[0]) - 97 + int(name[1:])) % 2 == 0 else DARK
    return Drawing(pieces, fills, labels)
