"""Chess notation for rule sets that say ``notation = "chess"``: square names, UCI labels, SAN, FEN and PGN.

Nothing here moves a piece: turns come from the rule engine; this module names them and reads
positions and games written the way chess players write them.  It relies on the state
conventions of ``games/data/chess.toml``: kinds ``pawn knight bishop rook queen king`` with
single-letter names (upper case White, lower case Black), ``passer`` (a pawn that has just
made a double step), ``castle-rook`` and ``castle-king`` (unmoved pieces that may castle).

Squares: on a board drawn in rows and columns (built-ins, board files with a layout) a tile is
named by its file letter (``a`` … by column from the left) and rank (1 at the bottom row), as
FEN and SAN need; other boards use the tile ids.  FEN works on boards drawn as full rectangles
of at most 26 files (``plane:8x8``, ``cylinder:8x8``, ``torus:12x8`` — a twelve-rank FEN lists
twelve ranks); castling rights name the rook's file when it is not the outermost rook.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from tapology.errors import NotationError, TurnError
from tapology.game import Position, Turn
from tapology.model.walk import step
from tapology.rules.chains import Found
from tapology.rules.compiled import Key

if TYPE_CHECKING:
    from tapology.rules.engine import RuleGame

PIECES = ("pawn", "knight", "bishop", "rook", "queen", "king")
LETTER = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q", "king": "k"}
BASE_KIND = {"passer": "pawn", "castle-rook": "rook", "castle-king": "king"}
_SAN = re.compile(r"^([KQRBN])?([a-z])?(\d+)?(x)?([a-z]\d+)(?:=?([QRBN]))?$")
_UCI = re.compile(r"^([a-z]\d+)([a-z]\d+)([qrbn])?$")


@dataclass(frozen=True)
class Squares:
    """Square names of a board: tile -> name, name -> tile, and the board's ranks (top first) when it is a full
    rectangle."""

    names: tuple[str, ...]
    index: dict[str, int]
    ranks: tuple[tuple[int, ...], ...] | None  # tiles rank by rank from the top, files left to right
    # a turn label's (start, end, promotion), read once: SAN reads every turn of a position for each turn it names
    parts: dict[str, tuple[int, int, str]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, game: RuleGame) -> Squares:
        """The squares of the game's board."""
        board = game.board
        placement = board.placement
        if placement is None or any(p is None for p in placement):
            names = tuple(board.tiles)
            return cls(names, {n: i for i, n in enumerate(names)}, None)
        rc = [board.grid.layout_row_col(p[0]) for p in placement if p is not None]
        rows = sorted({r for r, _ in rc})
        cols = sorted({c for _, c in rc})
        if len(cols) > 26:
            names = tuple(board.tiles)
            return cls(names, {n: i for i, n in enumerate(names)}, None)
        nrows = len(rows)
        names = tuple(f"{chr(97 + cols.index(c))}{nrows - rows.index(r)}" for r, c in rc)
        at = {(r, c): t for t, (r, c) in enumerate(rc)}
        full = len(at) == len(rows) * len(cols)
        ranks = tuple(tuple(at[(r, c)] for c in cols) for r in rows) if full else None
        return cls(names, {n: i for i, n in enumerate(names)}, ranks)


class ChessNotation:
    """UCI labels for turns, and SAN or UCI accepted when a turn is named (:class:`tapology.rules.labels.Notation`)."""

    def __init__(self) -> None:
        self.squares: Squares | None = None
        self.squares_of: RuleGame | None = None

    def label(self, game: RuleGame, pos: Position, key: Key, found: Found) -> str | None:
        """``e2e4``, ``e7e8q``; castling as the king's move (``e1g1``)."""
        sq = squares(game)
        start, end, changes = key
        h = game.h
        moved = _kind(game, game.codes(pos)[start] // h)
        after = dict(changes).get(end)
        promo = ""
        if moved == "pawn" and after is not None:
            k = _kind(game, after // h)
            if k not in ("pawn", "passer"):
                promo = LETTER.get(k or "", "")
        return f"{sq.names[start]}{sq.names[end]}{promo}"

    def parse(self, game: RuleGame, pos: Position, text: str, turns: Sequence[Turn]) -> Turn | None:
        """The turn a UCI (any case) or SAN string names, or None."""
        t = text.strip()
        low = t.lower()
        for tr in turns:
            if tr.label == low:
                return tr
        want = _clean_san(t)
        if not want:
            return None
        matches = [tr for tr in turns if _clean_san(san(game, pos, tr, turns, suffix=False)) == want]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise TurnError(f"turn {text!r} is ambiguous here ({', '.join(m.label for m in matches)})")
        return None


@dataclass(frozen=True)
class SanParts:
    """A SAN move as written: the piece (``pawn`` … ``king``), the origin's file and rank if given, the target
    square, the promotion letter, and ``O-O``/``O-O-O`` for castling."""

    piece: str
    file: str
    rank: str
    target: str
    promo: str = ""
    castle: str = ""


def read_san(text: str) -> SanParts | None:
    """The parts of a SAN move (check marks and annotations ignored), or None when the text is not SAN."""
    t = _clean_san(text)
    if t in ("O-O", "O-O-O"):
        return SanParts("king", "", "", "", castle=t)
    m = _SAN.match(t)
    if not m:
        return None
    letter, file, rank, _x, target, promo = m.groups()
    piece = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight"}.get(letter or "", "pawn")
    return SanParts(piece, file or "", rank or "", target, promo or "")


def _clean_san(text: str) -> str:
    """SAN without check marks, annotations and the capture sign's absence mattering (``0-0`` read as ``O-O``)."""
    t = text.strip().rstrip("+#!?").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    return t.replace("e.p.", "").strip()


def _kind(game: RuleGame, value: int) -> str | None:
    sd = game.rules.by_value.get(value)
    return None if sd is None else sd.kind


def _piece(game: RuleGame, value: int) -> str | None:
    """The chess piece a state is (``pawn`` … ``king``), None for an empty tile."""
    k = _kind(game, value)
    return BASE_KIND.get(k or "", k) if k else None


def squares(game: RuleGame) -> Squares:
    """The square names of a game's board (kept by the game's chess notation, if it has one)."""
    note = game.notation
    if isinstance(note, ChessNotation):
        if note.squares is None or note.squares_of is not game:
            note.squares, note.squares_of = Squares.of(game), game
        return note.squares
    return Squares.of(game)


# ---- SAN ------------------------------------------------------------------------------------------
def san(game: RuleGame, pos: Position, turn: Turn, turns: Sequence[Turn] | None = None, suffix: bool = True) -> str:
    """The turn in Standard Algebraic Notation (``Nbd7``, ``exd6``, ``O-O``, ``e8=Q+``, ``Qh7#``)."""
    sq = squares(game)
    h = game.h
    codes = game.codes(pos)
    start, end, promo = _uci_parts(sq, turn.label)
    piece = _piece(game, codes[start] // h)
    new = game.codes(turn.result)
    owner = game.compiled(pos.board).owner
    rook_from = [u for u in range(len(codes)) if u != start and codes[u] // h and new[u] // h == 0
                 and _piece(game, codes[u] // h) == "rook" and owner[codes[u]] == pos.to_move]
    if piece == "king" and rook_from:  # the king moves and a rook of the mover leaves its tile: castling
        text = "O-O" if sq.names[rook_from[0]][0] > sq.names[start][0] else "O-O-O"
    else:
        capture = any(codes[u] // h and owner[codes[u]] != pos.to_move and (new[u] // h == 0 or owner[new[u]] == pos.to_move)
                      for u in range(len(codes)))
        if piece == "pawn":
            text = (sq.names[start][0] + "x" if capture else "") + sq.names[end]
            if promo:
                text += "=" + promo.upper()
        else:
            letter = LETTER[piece or "pawn"].upper()
            others = []
            for tr in turns if turns is not None else game.turns(pos):
                if tr is turn or tr.label == turn.label:
                    continue
                s2, e2, _p = _uci_parts(sq, tr.label)
                if e2 == end and s2 != start and _piece(game, codes[s2] // h) == piece:
                    others.append(s2)
            dis = ""
            if others:
                f, r = sq.names[start][0], sq.names[start][1:]
                if all(sq.names[o][0] != f for o in others):
                    dis = f
                elif all(sq.names[o][1:] != r for o in others):
                    dis = r
                else:
                    dis = sq.names[start]
            text = letter + dis + ("x" if capture else "") + sq.names[end]
    if suffix and game.in_check(turn.result):
        text += "#" if not game.turn_keys(turn.result) else "+"
    return text


def _uci_parts(sq: Squares, label: str) -> tuple[int, int, str]:
    got = sq.parts.get(label)
    if got is None:
        m = _UCI.match(label.split("=")[0].split("#")[0])
        if not m:
            raise NotationError(f"turn {label!r} is not a UCI move")
        got = sq.parts[label] = (sq.index[m.group(1)], sq.index[m.group(2)], m.group(3) or "")
    return got


# ---- FEN ------------------------------------------------------------------------------------------
@dataclass
class _Sets:
    """The chess states of a rule set by letter and role."""

    game: RuleGame

    @cached_property
    def by_letter(self) -> dict[str, int]:
        out = {}
        for s in self.game.rules.states:
            if len(s.name) == 1 and s.kind in PIECES:
                out[s.name] = s.value
        return out

    def special(self, kind: str, white: bool) -> int | None:
        for s in self.game.rules.states:
            if s.kind == kind and (s.owner == 0) == white:
                return s.value
        return None


def _fen_error(fen: str, field: str, msg: str) -> NotationError:
    return NotationError(f"FEN {fen!r}: {field}: {msg}")


def position_from_fen(game: RuleGame, fen: str) -> Position:
    """The position a FEN string describes on the game's board; :class:`NotationError` naming the field otherwise."""
    sq = squares(game)
    if sq.ranks is None:
        raise NotationError(f"FEN: board {game.board_name!r} is not drawn as a full rectangle of files and ranks")
    parts = fen.split()
    if len(parts) not in (4, 6) and len(parts) != 5:
        raise NotationError(f"FEN {fen!r}: expected 6 fields (pieces, side, castling, en passant, halfmove, fullmove), "
                            f"got {len(parts)}")
    placement, side, castling, ep = parts[:4]
    half = parts[4] if len(parts) > 4 else "0"
    full = parts[5] if len(parts) > 5 else "1"
    sets = _Sets(game)
    rows = placement.split("/")
    nfiles = len(sq.ranks[0])
    if len(rows) != len(sq.ranks):
        raise _fen_error(fen, "field 1 (pieces)", f"{len(rows)} ranks; board {game.board_name!r} has {len(sq.ranks)}")
    n = len(game.board.tiles)
    states = [0] * n
    frames = [0] * n
    default = dict(game.rules.initial.frames)
    for r, text in enumerate(rows):
        col = 0
        for m in re.finditer(r"\d+|.", text):
            tok = m.group(0)
            if tok.isdigit():
                col += int(tok) if len(tok) <= 6 else nfiles + 1  # longer: more empty squares than the rank holds
                continue
            if tok not in sets.by_letter:
                raise _fen_error(fen, "field 1 (pieces)", f"rank {len(rows) - r}: unknown piece {tok!r}")
            if col >= nfiles:
                break
            t = sq.ranks[r][col]
            states[t] = sets.by_letter[tok]
            frames[t] = default.get(tok, 0)
            col += 1
        if col != nfiles:
            raise _fen_error(fen, "field 1 (pieces)", f"rank {len(rows) - r} has {col} squares; the board has {nfiles} files")
    if side not in ("w", "b"):
        raise _fen_error(fen, "field 2 (side to move)", f"{side!r}: use w or b")
    to_move = 0 if side == "w" else 1
    _set_castling(game, fen, castling, states, sq, sets)
    if ep != "-":
        _set_passer(game, fen, ep, states, frames, sq, sets, to_move)
    try:
        halfmove, fullmove = int(half), int(full)
    except ValueError:
        raise _fen_error(fen, "fields 5-6 (move counters)", f"{half!r} {full!r}: whole numbers expected") from None
    if halfmove < 0 or fullmove < 1:
        raise _fen_error(fen, "fields 5-6 (move counters)", "halfmove ≥ 0 and fullmove ≥ 1")
    ply = 2 * (fullmove - 1) + to_move
    counters = tuple(halfmove if c.name == "quiet" else 0 for c in game.rules.counters)
    pos = game.make_position(game.board, states, frames, to_move, ply, counters)
    kings = [t for t, s in enumerate(states) if _piece(game, s) == "king"]
    if sorted(game.compiled(game.board).owner[states[t] * game.h] for t in kings) != [0, 1]:
        raise _fen_error(fen, "field 1 (pieces)", "each side needs exactly one king")
    if game.chains(pos.board).in_check(game.codes(pos), 1 - to_move):
        raise _fen_error(fen, "field 2 (side to move)", "the side not to move is in check")
    return pos


def _set_castling(game: RuleGame, fen: str, field: str, states: list[int], sq: Squares, sets: _Sets) -> None:
    """Mark the pieces each castling letter names as unmoved.  A right is one the position can hold: the king on
    the tile where the set-up of this board puts the unmoved king, the rook on the tile where it puts the unmoved
    rook on that side (``K``/``Q``, or that rook's file letter); anything else is refused, as python-chess calls it
    invalid (a king moved off its square, or a rook elsewhere, has no right left)."""
    if field == "-":
        return
    ranks = sq.ranks
    assert ranks is not None
    start = game.codes(game.initial())
    h = game.h
    for ch in field:
        white = ch.isupper()
        side = "white" if white else "black"
        king = sets.by_letter.get("K" if white else "k")
        rook = sets.by_letter.get("R" if white else "r")
        kc, rc = sets.special("castle-king", white), sets.special("castle-rook", white)
        if kc is None or rc is None:
            raise _fen_error(fen, "field 3 (castling)", "the rule set has no castling states")
        if not ch.isalpha():
            raise _fen_error(fen, "field 3 (castling)", f"{ch!r}: not a castling letter (KQkq or a rook's file)")
        homes = [(r, c) for r, row in enumerate(ranks) for c, t in enumerate(row) if start[t] // h == kc]
        if len(homes) != 1:
            raise _fen_error(fen, "field 3 (castling)", f"{ch!r}: the set-up on {game.board_name!r} has no single "
                                                        f"unmoved {side} king")
        kr, kcol = homes[0]
        row = ranks[kr]
        if states[row[kcol]] not in (king, kc):
            raise _fen_error(fen, "field 3 (castling)", f"{ch!r}: the {side} king is not on {sq.names[row[kcol]]}, "
                                                        "where it starts: the position cannot hold this right")
        rooks = [c for c in range(len(row)) if start[row[c]] // h == rc]
        if ch.upper() == "K":
            cands = [c for c in rooks if c > kcol][-1:]
        elif ch.upper() == "Q":
            cands = [c for c in rooks if c < kcol][:1]
        else:
            cands = [c for c in rooks if c == ord(ch.lower()) - 97]
        if not cands:
            where = "that side of the king" if ch.upper() in "KQ" else f"the {ch.lower()}-file"
            raise _fen_error(fen, "field 3 (castling)", f"{ch!r}: no {side} rook starts on {where} on "
                                                        f"{game.board_name!r}")
        t = row[cands[0]]
        if states[t] not in (rook, rc):
            raise _fen_error(fen, "field 3 (castling)", f"{ch!r}: no {side} rook on {sq.names[t]}, where it starts: "
                                                        "the position cannot hold this right")
        states[t] = rc
        states[row[kcol]] = kc


def _set_passer(game: RuleGame, fen: str, field: str, states: list[int], frames: list[int], sq: Squares,
                sets: _Sets, to_move: int) -> None:
    t = sq.index.get(field)
    if t is None:
        raise _fen_error(fen, "field 4 (en passant)", f"{field!r} is not a square of the board")
    # the pawn that passed stands one step beyond the square, in its own forward direction
    white_moved = to_move == 1
    pawn = sets.by_letter["P" if white_moved else "p"]
    passer = sets.special("passer", white_moved)
    atlas = game.compiled(game.board).atlas
    for u in range(len(states)):
        if states[u] == pawn:
            back = step(atlas, u, frames[u], (0, -1))
            if back is not None and back[0] == t:
                assert passer is not None
                states[u] = passer
                return
    raise _fen_error(fen, "field 4 (en passant)", f"{field!r}: no pawn of the side that just moved stands beyond it")


def fen(game: RuleGame, pos: Position) -> str:
    """The FEN of a position (the en passant square only where an en passant capture is legal, as python-chess
    writes it); :class:`NotationError` where FEN cannot say it (a pawn facing the other way)."""
    sq = squares(game)
    if sq.ranks is None:
        raise NotationError(f"FEN: board {game.board_name!r} is not drawn as a full rectangle of files and ranks")
    h = game.h
    codes = game.codes(pos)
    default = dict(game.rules.initial.frames)
    rows = []
    for row in sq.ranks:
        out, empty = "", 0
        for t in row:
            s = codes[t] // h
            if s == 0:
                empty += 1
                continue
            sd = game.rules.by_value[s]
            letter = sd.symbol or sd.name
            if sd.oriented and codes[t] % h != game.compiled(pos.board).canon[s][default.get(letter, 0)]:
                raise NotationError(f"FEN: the pawn on {sq.names[t]} faces the other way; FEN cannot say so")
            if empty:
                out += str(empty)
                empty = 0
            out += letter
        rows.append(out + (str(empty) if empty else ""))
    side = "w" if pos.to_move == 0 else "b"
    rights = _castling_field(game, pos, sq)
    ep = _ep_field(game, pos, sq)
    quiet = next((n for c, n in zip(game.rules.counters, pos.counters, strict=False) if c.name == "quiet"), 0)
    return f"{'/'.join(rows)} {side} {rights} {ep} {quiet} {pos.ply // 2 + 1}"


def _castling_field(game: RuleGame, pos: Position, sq: Squares) -> str:
    """The castling letters of the unmoved pieces (``K``/``Q``, or the rook's file where another rook stands
    further out); :class:`NotationError` for an unmoved king or rook off the tile where the set-up puts it, which
    FEN cannot say (see :func:`_set_castling`)."""
    sets = _Sets(game)
    ranks = sq.ranks
    assert ranks is not None
    h = game.h
    codes = game.codes(pos)
    start = game.codes(game.initial())
    out = ""
    for white in (True, False):
        kc, rc = sets.special("castle-king", white), sets.special("castle-rook", white)
        rook = sets.by_letter.get("R" if white else "r")
        for t, c in enumerate(codes):
            if c // h in (kc, rc) and start[t] // h != c // h:
                raise NotationError(f"FEN: the unmoved {'king' if c // h == kc else 'rook'} on {sq.names[t]} is not "
                                    "where the set-up puts one; FEN cannot give it a castling right")
        for row in ranks:
            cols = [c for c, t in enumerate(row) if codes[t] // h == kc]
            if not cols:
                continue
            kcol = cols[0]
            for side, span in (("K", range(len(row) - 1, kcol, -1)), ("Q", range(0, kcol))):
                rooks = [c for c in span if codes[row[c]] // h in (rook, rc)]
                mine = [c for c in rooks if codes[row[c]] // h == rc]
                if mine:
                    letter = side if mine[0] == rooks[0] else chr(97 + mine[0]).upper()
                    out += letter if white else letter.lower()
    return out or "-"


def _ep_field(game: RuleGame, pos: Position, sq: Squares) -> str:
    h = game.h
    codes = game.codes(pos)
    atlas = game.compiled(pos.board).atlas
    for u, c in enumerate(codes):
        if _kind(game, c // h) == "passer":
            back = step(atlas, u, c % h, (0, -1))
            if back is None:
                continue
            target = back[0]
            for tr in game.turns(pos):
                new = game.codes(tr.result)
                _s, end, _p = _uci_parts(sq, tr.label)
                if new[u] // h == 0 and end == target:
                    return sq.names[target]
    return "-"


# ---- PGN ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PgnGame:
    """A game read from PGN: its tags, its moves as written, and the result it claims."""

    tags: dict[str, str]
    moves: tuple[str, ...]
    result: str


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def read_pgn(text: str, where: str = "PGN") -> list[PgnGame]:
    """The games of a PGN text (comments, variations, NAGs and move numbers skipped); :class:`NotationError` naming
    the line otherwise."""
    games: list[PgnGame] = []
    tags: dict[str, str] = {}
    movetext: list[str] = []

    def flush() -> None:
        nonlocal tags, movetext
        if tags or movetext:
            games.append(_parse_movetext(" ".join(movetext), tags, where))
        tags, movetext = {}, []

    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("%"):
            continue
        if s.startswith("["):
            if movetext:
                flush()
            m = _TAG.match(s)
            if not m:
                raise NotationError(f"{where}:{i}: bad tag line {s!r}")
            tags[m.group(1)] = m.group(2).replace('\\"', '"')
        elif s:
            movetext.append(line)
    flush()
    if not games:
        raise NotationError(f"{where}: no game found")
    return games


def _parse_movetext(text: str, tags: dict[str, str], where: str) -> PgnGame:
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    depth = 0
    flat = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise NotationError(f"{where}: unbalanced ')' in the moves")
        elif depth == 0:
            flat.append(ch)
    if depth:
        raise NotationError(f"{where}: unbalanced '(' in the moves")
    moves = []
    result = tags.get("Result", "*")
    for tok in "".join(flat).split():
        if re.fullmatch(r"\d+\.(\.\.)?|\d+\.\.\.", tok) or tok.startswith("$"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if not tok:
            continue
        if tok in ("1-0", "0-1", "1/2-1/2", "*"):
            result = tok
            continue
        moves.append(tok)
    return PgnGame(tags, tuple(moves), result)


def write_pgn(game: RuleGame, labels: Sequence[str], tags: dict[str, str] | None = None, result: str = "*",
              start: Position | None = None) -> str:
    """A game as PGN: the seven-tag roster (``?`` where unknown; ``FEN``/``SetUp`` when ``start`` is not the
    initial position; ``Variant`` naming the board when it is not ``plane:8x8``) and the moves in SAN, numbered as
    PGN numbers them, wrapped at 79 columns.  :class:`NotationError` at a label that is not a legal turn."""
    pos = start if start is not None else game.initial()
    roster = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
              "Result": result}
    roster.update(tags or {})
    roster["Result"] = result
    if start is not None and start != game.initial():
        roster["SetUp"], roster["FEN"] = "1", fen(game, start)
    if game.board_name != "plane:8x8":
        roster.setdefault("Variant", f"tapology chess on {game.board_name}")
    words: list[str] = []
    for k, label in enumerate(labels):
        turns = game.turns(pos)
        turn = next((t for t in turns if t.label == label), None)
        if turn is None:
            raise NotationError(f"PGN: move {k + 1} {label!r} is not a legal turn")
        if pos.to_move == 0:
            words.append(f"{pos.ply // 2 + 1}.")
        elif k == 0:
            words.append(f"{pos.ply // 2 + 1}...")
        words.append(san(game, pos, turn, turns))
        pos = turn.result
    words.append(result)
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    head = "".join(f'[{k} "{v.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]\n'
                   for k, v in roster.items())
    return head + "\n" + "\n".join(lines) + "\n"


def pgn_result(game: RuleGame, outcome: dict[str, int] | None) -> str:
    """The PGN result of an outcome (``1-0``, ``0-1``, ``1/2-1/2``; ``*`` while the game goes on)."""
    if outcome is None:
        return "*"
    w = outcome.get(game.players[0], 0)
    return "1-0" if w > 0 else "0-1" if w < 0 else "1/2-1/2"
