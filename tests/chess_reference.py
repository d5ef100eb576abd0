"""A slow, independent reference move generator for chess on taped surfaces (docs/chess.md).

It reads nothing but a built-in board's gluing table and the square group's tables: no rule
engine, no charts.  A walker is a (tile, frame) pair; a unit step by a vector read in the frame
goes through the side ``act(frame, v)`` of the tile and arrives with the frame composed with the
inverse of the orientation the gluing gives (as :func:`tapology.model.walk.step`).  A longer
vector is walked as unit steps, horizontal ones first, each read in the current frame.

Pieces: ``PNBRQK`` white, ``pnbrqk`` black.  Pawns carry a frame (white starts facing up,
frame 0; black facing down, frame 2), kept modulo the pawn's mirror symmetry {0, 4}; the other
pieces have no frame and read their moves in frame 0 of their tile.  Unmoved kings and rooks
(which may castle) are a set of tiles; the pawn that has just made a double step is the
``passer``.  Two walks that give the same resulting position are one move.

Where docs/chess.md leaves room, this module chooses: a double step never promotes; a castling
needs the king, the tiles between and the rook on distinct tiles, and the rook must be the
mover's own; the crossed and landing tiles are tested for attack with a king of the mover put on
them (so pawn diagonals count); FEN castling letters name the outermost rook on that side of
the king on its home rank (rank 1 for white, min(R, 8) for black).

Everything is recomputed from scratch at every node: it is meant to be obviously right, not
fast (perft 4 of a start position takes minutes).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from tapology.model.builtins import builtin_board, parse_builtin
from tapology.model.group import SQUARE_D4

Vector = tuple[int, int]
Spot = tuple[int, int]  # (tile, frame)

DIRECTIONS: tuple[Vector, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))  # side index: 0 up, 1 right, 2 down, 3 left
ORTHOGONAL: tuple[Vector, ...] = DIRECTIONS
DIAGONAL: tuple[Vector, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KING_STEPS: tuple[Vector, ...] = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS: tuple[Vector, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
SLIDES: dict[str, tuple[Vector, ...]] = {"R": ORTHOGONAL, "B": DIAGONAL, "Q": KING_STEPS}
FORWARD: Vector = (0, 1)
PAWN_CAPTURES: tuple[Vector, ...] = ((-1, 1), (1, 1))
PAWN_MIRROR = 4  # the pawn's symmetry: frame f and 4 -> f are the same pawn
PROMOTIONS = "QRBN"
WHITE_PAWN_FRAME = 0
BLACK_PAWN_FRAME = 2
FILES = "abcdefghijklmnopqrstuvwxyz"
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def canonical_frame(frame: int) -> int:
    """A pawn's frame modulo its mirror symmetry {0, 4}: the smaller of f and 4 -> f."""
    return min(frame, SQUARE_D4.mul[PAWN_MIRROR][frame])


def is_white(piece: str) -> bool:
    """True for a white piece letter."""
    return piece.isupper()


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True, eq=False)
class Arena:
    """A built-in board's gluing table, square names and the four regions of docs/chess.md.

    Compared by identity: use :func:`arena` to get the one shared instance per board name.
    """

    name: str
    rows: int
    cols: int
    glue: tuple[tuple[int, ...], ...]
    start_white: frozenset[int]
    start_black: frozenset[int]
    promotion_white: frozenset[int]
    promotion_black: frozenset[int]
    _walks: dict[tuple[int, int, Vector], Spot | None] = field(default_factory=dict, repr=False)
    _rays: dict[tuple[int, Vector], tuple[int, ...]] = field(default_factory=dict, repr=False)
    _ray_sets: dict[tuple[int, Vector], frozenset[int]] = field(default_factory=dict, repr=False)
    _reach: dict[tuple[Spot, tuple[Vector, ...]], frozenset[int]] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        """Number of tiles."""
        return self.rows * self.cols

    # tiles are numbered row by row from the top left; rank 1 is the bottom row
    def tile_at(self, file: int, rank: int) -> int:
        """The tile at ``file`` (0 = a) and ``rank`` (1 = bottom row)."""
        if not (0 <= file < self.cols and 1 <= rank <= self.rows):
            raise ValueError(f"{self.name}: no square at file {file}, rank {rank}")
        return (self.rows - rank) * self.cols + file

    def file_rank(self, tile: int) -> tuple[int, int]:
        """(file, rank) of a tile: file 0 = a, rank 1 = bottom row."""
        row, col = divmod(tile, self.cols)
        return col, self.rows - row

    def square(self, tile: int) -> str:
        """The square name of a tile, e.g. ``a1``."""
        file, rank = self.file_rank(tile)
        return f"{FILES[file]}{rank}"

    def tile(self, square: str) -> int:
        """The tile of a square name such as ``e4``."""
        file = FILES.find(square[:1])
        if file < 0 or not square[1:].isdigit():
            raise ValueError(f"{self.name}: bad square name {square!r}")
        return self.tile_at(file, int(square[1:]))

    def rank_tiles(self, rank: int) -> frozenset[int]:
        """Every tile of one rank (empty when the board has no such rank)."""
        if not 1 <= rank <= self.rows:
            return frozenset()
        return frozenset(self.tile_at(f, rank) for f in range(self.cols))

    def step(self, spot: Spot, unit: Vector) -> Spot | None:
        """One unit step by ``unit`` read in the walker's frame, or None off the board."""
        tile, frame = spot
        side = DIRECTIONS.index(SQUARE_D4.act(frame, unit))
        code = self.glue[tile][side]
        if code < 0:
            return None
        other, orientation = divmod(code, SQUARE_D4.order)
        return other, SQUARE_D4.mul[frame][SQUARE_D4.inv[orientation]]

    def walk(self, spot: Spot, vector: Vector) -> Spot | None:
        """Walk ``vector`` as unit steps (horizontal first, then vertical), or None if it leaves the board."""
        key = (spot[0], spot[1], vector)
        if key not in self._walks:
            x, y = vector
            units = [(1 if x > 0 else -1, 0)] * abs(x) + [(0, 1 if y > 0 else -1)] * abs(y)
            here: Spot | None = spot
            for unit in units:
                here = self.step(here, unit)
                if here is None:
                    break
            self._walks[key] = here
        return self._walks[key]

    def ray(self, tile: int, direction: Vector) -> tuple[int, ...]:
        """The tiles a frameless slider on ``tile`` passes going in ``direction`` (read in frame 0).

        The frame is carried across seams; the ray stops at the board's edge and before any tile it
        has already passed, its starting tile included.
        """
        key = (tile, direction)
        if key not in self._rays:
            seen = {tile}
            out: list[int] = []
            here: Spot | None = (tile, 0)
            while True:
                here = self.walk(here, direction)
                if here is None or here[0] in seen:
                    break
                seen.add(here[0])
                out.append(here[0])
            self._rays[key] = tuple(out)
        return self._rays[key]

    def ray_set(self, tile: int, direction: Vector) -> frozenset[int]:
        """The tiles of :meth:`ray` as a set."""
        key = (tile, direction)
        if key not in self._ray_sets:
            self._ray_sets[key] = frozenset(self.ray(tile, direction))
        return self._ray_sets[key]

    def reach(self, spot: Spot, vectors: tuple[Vector, ...]) -> frozenset[int]:
        """The tiles where walking each of ``vectors`` from ``spot`` ends (a quick filter for attack tests)."""
        key = (spot, vectors)
        if key not in self._reach:
            self._reach[key] = frozenset(s[0] for v in vectors if (s := self.walk(spot, v)) is not None)
        return self._reach[key]


@cache
def arena(board_name: str) -> Arena:
    """The arena of a built-in square board ``kind:RxC`` with the default regions.

    Regions: with ``top = min(R, 8)``, white starts on rank 2 and promotes on rank ``top``, black
    starts on rank ``top - 1`` and promotes on rank 1 (docs/chess.md on 8 and 12 ranks).
    """
    kind, rows, cols = parse_builtin(board_name)
    if kind.startswith("hex"):
        raise ValueError(f"{board_name}: chess needs a square board")
    if cols > len(FILES):
        raise ValueError(f"{board_name}: at most {len(FILES)} files")
    board = builtin_board(board_name)
    if tuple(board.grid.directions) != DIRECTIONS or board.grid.group.order != SQUARE_D4.order:
        raise ValueError(f"{board_name}: unexpected grid {board.grid.name!r}")
    if board.tiles != tuple(str(i + 1) for i in range(rows * cols)):
        raise ValueError(f"{board_name}: tiles are not numbered 1.. row by row")
    if board.placement is not None:
        for i, placed in enumerate(board.placement):
            row, col = divmod(i, cols)
            if placed != ((col, -row), 0):
                raise ValueError(f"{board_name}: tile {i + 1} is drawn at {placed}, not row {row} column {col}")
    top = min(rows, 8)
    shell = Arena(board_name, rows, cols, board.glue, frozenset(), frozenset(), frozenset(), frozenset())
    return Arena(board_name, rows, cols, board.glue,
                 start_white=shell.rank_tiles(2), start_black=shell.rank_tiles(top - 1),
                 promotion_white=shell.rank_tiles(top), promotion_black=shell.rank_tiles(1))


# --------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class Position:
    """A chess position on an arena.

    ``pieces[t]`` is a piece letter or None; ``frames[t]`` is a pawn's canonical frame (None for
    every other tile); ``unmoved`` holds the tiles of kings and rooks that have not moved;
    ``passer`` is the tile of the pawn that has just made a double step (it belongs to the side
    that just moved), or None.
    """

    arena: Arena
    pieces: tuple[str | None, ...]
    frames: tuple[int | None, ...]
    unmoved: frozenset[int]
    passer: int | None
    white_to_move: bool

    def check(self) -> Position:
        """Self, or :class:`ValueError` naming what is inconsistent (sizes, letters, frames, flags, passer)."""
        n = self.arena.size
        if len(self.pieces) != n or len(self.frames) != n:
            raise ValueError(f"{self.arena.name}: {n} tiles, got {len(self.pieces)} pieces and {len(self.frames)} frames")
        for t, (piece, frame) in enumerate(zip(self.pieces, self.frames, strict=True)):
            if piece is not None and (len(piece) != 1 or piece not in "PNBRQKpnbrqk"):
                raise ValueError(f"{self.arena.square(t)}: bad piece {piece!r}")
            pawn = piece is not None and piece in "Pp"
            if pawn != (frame is not None) or (pawn and frame != canonical_frame(frame)):
                raise ValueError(f"{self.arena.square(t)}: piece {piece!r} with frame {frame!r}")
        for t in self.unmoved:
            if self.pieces[t] is None or self.pieces[t] not in "KRkr":
                raise ValueError(f"{self.arena.square(t)}: unmoved flag on {self.pieces[t]!r}")
        if self.passer is not None:
            mover_pawn = "p" if self.white_to_move else "P"
            if self.pieces[self.passer] != mover_pawn:
                raise ValueError(f"{self.arena.square(self.passer)}: the passer must be a {mover_pawn!r}")
        return self

    def own(self, tile: int) -> bool:
        """True when a piece of the side to move stands on ``tile``."""
        piece = self.pieces[tile]
        return piece is not None and is_white(piece) == self.white_to_move

    def foe(self, tile: int) -> bool:
        """True when a piece of the side not to move stands on ``tile``."""
        piece = self.pieces[tile]
        return piece is not None and is_white(piece) != self.white_to_move

    def placement(self) -> str:
        """The FEN piece-placement field (top rank first)."""
        out = []
        for rank in range(self.arena.rows, 0, -1):
            text, empty = "", 0
            for file in range(self.arena.cols):
                piece = self.pieces[self.arena.tile_at(file, rank)]
                if piece is None:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + piece
                empty = 0
            out.append(text + (str(empty) if empty else ""))
        return "/".join(out)

    def __str__(self) -> str:
        side = "w" if self.white_to_move else "b"
        unmoved = ",".join(sorted(self.arena.square(t) for t in self.unmoved)) or "-"
        passer = "-" if self.passer is None else self.arena.square(self.passer)
        odd = [f"{self.arena.square(t)}:{f}" for t, f in enumerate(self.frames)
               if f is not None and f != (WHITE_PAWN_FRAME if self.pieces[t] == "P" else BLACK_PAWN_FRAME)]
        return f"{self.arena.name} {self.placement()} {side} unmoved={unmoved} passer={passer} frames={','.join(odd) or '-'}"


def _castling_tiles(a: Arena, pieces: list[str | None], letter: str) -> tuple[int, int]:
    """(king tile, rook tile) named by a FEN castling letter: the king on its home rank, the outermost rook on that side."""
    white = letter.isupper()
    rank = 1 if white else min(a.rows, 8)
    king, rook = ("K", "R") if white else ("k", "r")
    kings = [f for f in range(a.cols) if pieces[a.tile_at(f, rank)] == king]
    if len(kings) != 1:
        raise ValueError(f"castling {letter!r}: no single {king!r} on rank {rank}")
    files = range(a.cols - 1, kings[0], -1) if letter in "Kk" else range(kings[0])
    rooks = [f for f in files if pieces[a.tile_at(f, rank)] == rook]
    if not rooks:
        raise ValueError(f"castling {letter!r}: no {rook!r} on rank {rank} on that side of the king")
    return a.tile_at(kings[0], rank), a.tile_at(rooks[0], rank)


def from_fen(fen: str, board_name: str = "plane:8x8") -> Position:
    """A position from FEN on a built-in board with as many ranks as the placement field has.

    Castling letters flag the king on its home rank (1 for white, min(R, 8) for black) and the
    outermost rook on that side as unmoved.  The en-passant square is the one the passer crossed:
    the passer stands one rank below it when white is to move, one rank above it otherwise.
    Pawns get the standard frames (white facing up, black facing down).
    """
    a = arena(board_name)
    fields = fen.split()
    if len(fields) < 2:
        raise ValueError(f"FEN {fen!r}: need at least placement and side to move")
    ranks = fields[0].split("/")
    if len(ranks) != a.rows:
        raise ValueError(f"FEN {fen!r}: {len(ranks)} ranks for {board_name} with {a.rows}")
    pieces: list[str | None] = [None] * a.size
    for i, text in enumerate(ranks):
        rank, file, digits = a.rows - i, 0, ""
        for ch in text + "/":
            if ch.isdigit():
                digits += ch
                continue
            file += int(digits or 0)
            digits = ""
            if ch == "/":
                break
            if ch not in "PNBRQKpnbrqk" or file >= a.cols:
                raise ValueError(f"FEN {fen!r}: bad rank {text!r}")
            pieces[a.tile_at(file, rank)] = ch
            file += 1
        if file != a.cols:
            raise ValueError(f"FEN {fen!r}: rank {text!r} has {file} files, the board {a.cols}")
    if fields[1] not in ("w", "b"):
        raise ValueError(f"FEN {fen!r}: side to move must be w or b")
    white = fields[1] == "w"
    unmoved: set[int] = set()
    rights = fields[2] if len(fields) > 2 else "-"
    for letter in "" if rights == "-" else rights:
        if letter not in "KQkq":
            raise ValueError(f"FEN {fen!r}: bad castling letter {letter!r}")
        unmoved.update(_castling_tiles(a, pieces, letter))
    passer = None
    ep = fields[3] if len(fields) > 3 else "-"
    if ep != "-":
        file, rank = a.file_rank(a.tile(ep))
        passer = a.tile_at(file, rank - 1 if white else rank + 1)
    frames = tuple(WHITE_PAWN_FRAME if p == "P" else BLACK_PAWN_FRAME if p == "p" else None for p in pieces)
    return Position(a, tuple(pieces), frames, frozenset(unmoved), passer, white).check()


def standard(board_name: str) -> Position:
    """The set-up of docs/chess.md: the standard 8×8 one, with any ranks above 8 empty (8 files)."""
    a = arena(board_name)
    if a.cols != 8 or a.rows < 8:
        raise ValueError(f"{board_name}: the standard set-up needs 8 files and at least 8 ranks")
    placement, rest = START_FEN.split(" ", 1)
    return from_fen("/".join(["8"] * (a.rows - 8) + [placement]) + " " + rest, board_name)


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Move:
    """A legal move: the moving piece's tile before and after (the king's for castling), the promotion, the result."""

    frm: int
    to: int
    promotion: str | None
    after: Position

    def uci(self) -> str:
        """UCI-style text: from and to squares, and the promotion piece in lower case (e.g. ``e7e8q``)."""
        a = self.after.arena
        return a.square(self.frm) + a.square(self.to) + (self.promotion.lower() if self.promotion else "")


def _play(pos: Position, changes: dict[int, tuple[str | None, int | None]], touched: set[int],
          passer: int | None) -> Position:
    """The position after writing ``changes`` (tile -> (piece, frame)), clearing the unmoved flags of
    ``touched`` tiles, setting the new passer and passing the turn."""
    pieces = list(pos.pieces)
    frames = list(pos.frames)
    for tile, (piece, frame) in changes.items():
        pieces[tile] = piece
        frames[tile] = frame
    return Position(pos.arena, tuple(pieces), tuple(frames), pos.unmoved - touched, passer, not pos.white_to_move)


def _placed(pos: Position, extra: dict[int, str | None]) -> Position:
    """The same position with frameless pieces put on some tiles (for attack tests; the turn does not pass)."""
    pieces = list(pos.pieces)
    frames = list(pos.frames)
    for tile, piece in extra.items():
        pieces[tile] = piece
        frames[tile] = None
    return replace(pos, pieces=tuple(pieces), frames=tuple(frames))


def _pawn_arrival(pos: Position, frm: int, landing: Spot, extra: dict[int, tuple[str | None, int | None]]) -> list[Move]:
    """The move(s) of the pawn on ``frm`` arriving at ``landing`` (tile, frame): a pawn, or the four promotions."""
    a = pos.arena
    tile, frame = landing
    region = a.promotion_white if pos.white_to_move else a.promotion_black
    pawn = pos.pieces[frm]
    assert pawn is not None
    base = {frm: (None, None), **extra}
    if a.walk(landing, FORWARD) is None or tile in region:
        out = []
        for letter in PROMOTIONS:
            piece = letter if pos.white_to_move else letter.lower()
            out.append(Move(frm, tile, letter, _play(pos, {**base, tile: (piece, None)}, {frm, tile}, None)))
        return out
    return [Move(frm, tile, None, _play(pos, {**base, tile: (pawn, canonical_frame(frame))}, {frm, tile}, None))]


def _pawn_moves(pos: Position, t: int) -> list[Move]:
    """Pushes, double steps, captures and en passant of the side to move's pawn on ``t``."""
    a = pos.arena
    frame = pos.frames[t]
    assert frame is not None
    out: list[Move] = []
    one = a.walk((t, frame), FORWARD)
    if one is not None and pos.pieces[one[0]] is None:
        out += _pawn_arrival(pos, t, one, {})
        start = a.start_white if pos.white_to_move else a.start_black
        two = a.walk(one, FORWARD)
        if t in start and two is not None and pos.pieces[two[0]] is None:
            pawn = pos.pieces[t]
            changes = {t: (None, None), two[0]: (pawn, canonical_frame(two[1]))}
            out.append(Move(t, two[0], None, _play(pos, changes, {t, two[0]}, two[0])))
    for x, y in PAWN_CAPTURES:
        diagonal = a.walk((t, frame), (x, y))
        if diagonal is not None and pos.foe(diagonal[0]):
            out += _pawn_arrival(pos, t, diagonal, {})
        beside = a.walk((t, frame), (x, 0))
        if (pos.passer is not None and beside is not None and beside[0] == pos.passer
                and diagonal is not None and pos.pieces[diagonal[0]] is None):
            out += _pawn_arrival(pos, t, diagonal, {pos.passer: (None, None)})
    return out


def _targets(pos: Position, t: int) -> list[int]:
    """Where the frameless piece on ``t`` may go, castling aside: empty tiles or tiles of its foes,
    by king steps, knight jumps or slides."""
    a = pos.arena
    piece = pos.pieces[t]
    assert piece is not None
    kind = piece.upper()
    white = is_white(piece)
    out: list[int] = []

    def open_to(u: int) -> bool:
        other = pos.pieces[u]
        return other is None or is_white(other) != white

    if kind in ("K", "N"):
        for v in KING_STEPS if kind == "K" else KNIGHT_JUMPS:
            spot = a.walk((t, 0), v)
            if spot is not None and open_to(spot[0]):
                out.append(spot[0])
    else:
        for v in SLIDES[kind]:
            for u in a.ray(t, v):
                if open_to(u):
                    out.append(u)
                if pos.pieces[u] is not None:
                    break
    return out


def _reaches(pos: Position, t: int, tile: int) -> bool:
    """True when the piece on ``t`` could capture on ``tile`` (which holds one of its foes)."""
    a = pos.arena
    piece = pos.pieces[t]
    assert piece is not None
    kind = piece.upper()
    if kind in SLIDES:
        for v in SLIDES[kind]:
            if tile in a.ray_set(t, v):
                blocker = next(u for u in a.ray(t, v) if pos.pieces[u] is not None)
                if blocker == tile:
                    return True
        return False
    if kind == "P":
        frame = pos.frames[t]
        assert frame is not None
        return tile in a.reach((t, frame), PAWN_CAPTURES)
    return tile in a.reach((t, 0), KING_STEPS if kind == "K" else KNIGHT_JUMPS)


def attacked(pos: Position, tile: int, by_white: bool) -> bool:
    """True when some pseudo-legal capture of the side ``by_white`` would land on ``tile``.

    ``tile`` must hold a piece of the other side (a capture needs a victim).
    """
    victim = pos.pieces[tile]
    if victim is None or is_white(victim) == by_white:
        raise ValueError(f"{pos.arena.square(tile)}: attack test needs a piece of the other side there, not {victim!r}")
    for t, piece in enumerate(pos.pieces):
        if piece is not None and is_white(piece) == by_white and _reaches(pos, t, tile):
            return True
    return False


def kings_attacked(pos: Position, white: bool) -> bool:
    """True when some king of side ``white`` is attacked by the other side."""
    king = "K" if white else "k"
    return any(attacked(pos, t, not white) for t, piece in enumerate(pos.pieces) if piece == king)


def in_check(pos: Position) -> bool:
    """True when a king of the side to move is capturable."""
    return kings_attacked(pos, pos.white_to_move)


def _castlings(pos: Position, t: int) -> list[Move]:
    """Castlings of the unmoved king on ``t``: rook at (±3, 0) or (±4, 0) in frame 0, every tile between empty,
    the king's tile and the two it enters not attacked; the king lands at (±2, 0), the rook at (±1, 0)."""
    a = pos.arena
    if t not in pos.unmoved:
        return []
    rook = "R" if pos.white_to_move else "r"
    king = pos.pieces[t]
    out: list[Move] = []
    for sign in (1, -1):
        for reach in (3, 4):
            spots = [a.walk((t, 0), (sign * k, 0)) for k in range(1, reach + 1)]
            if any(s is None for s in spots):
                continue
            tiles = [s[0] for s in spots if s is not None]
            if len({t, *tiles}) != reach + 1:  # a cell met twice: the pattern does not apply
                continue
            *between, rook_tile = tiles
            if any(pos.pieces[u] is not None for u in between):
                continue
            if pos.pieces[rook_tile] != rook or rook_tile not in pos.unmoved:
                continue
            crossed, landing = tiles[0], tiles[1]
            probe = _placed(pos, {crossed: king, landing: king})
            if any(attacked(probe, u, not pos.white_to_move) for u in (t, crossed, landing)):
                continue
            changes = {t: (None, None), rook_tile: (None, None), landing: (king, None), crossed: (rook, None)}
            out.append(Move(t, landing, None, _play(pos, changes, {t, rook_tile}, None)))
    return out


def pseudo_legal_moves(pos: Position) -> list[Move]:
    """Every move of the side to move, ignoring whether it leaves a king capturable (castling's own
    safety test included)."""
    out: list[Move] = []
    for t, piece in enumerate(pos.pieces):
        if piece is None or not pos.own(t):
            continue
        if piece in "Pp":
            out += _pawn_moves(pos, t)
            continue
        for u in _targets(pos, t):
            changes = {t: (None, None), u: (piece, None)}
            out.append(Move(t, u, None, _play(pos, changes, {t, u}, None)))
        if piece in "Kk":
            out += _castlings(pos, t)
    return out


def legal_moves(pos: Position) -> list[Move]:
    """The legal moves, one per resulting position, in generation order."""
    seen: dict[Position, Move] = {}
    for move in pseudo_legal_moves(pos):
        if move.after in seen or kings_attacked(move.after, pos.white_to_move):
            continue
        seen[move.after] = move
    return list(seen.values())


def perft(pos: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` (leaf moves counted in bulk)."""
    if depth <= 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(m.after, depth - 1) for m in moves)


def main(argv: list[str] | None = None) -> None:
    """``python -m tests.chess_reference BOARD DEPTH``: print ``perft D N  # seconds`` for depths 1..DEPTH of the set-up."""
    import sys
    import time

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        raise SystemExit("usage: python -m tests.chess_reference BOARD DEPTH")
    pos = standard(args[0])
    print(f"board {args[0]}", flush=True)
    for depth in range(1, int(args[1]) + 1):
        began = time.perf_counter()
        count = perft(pos, depth)
        print(f"perft {depth} {count}  # {time.perf_counter() - began:.1f} s", flush=True)


if __name__ == "__main__":
    main()
