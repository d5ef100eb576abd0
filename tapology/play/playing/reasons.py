"""Why a move is not legal, worked out by the rule engine: no piece there, not your piece, the square is taken, not
a move of that piece, the piece is pinned, the king would be in check, castling through check, a capture is
mandatory; for a tape turn: a side already taped, a flip the rules forbid, the atlas's refusal.

The move is read as its origin and target (UCI ``e2e4``, SAN ``Nf3`` — whose origin is every piece that could have
meant it — or a tile path ``22x15``), then the engine is asked three questions: which chains the piece has with
the royal rule left out, which of those the royal rule keeps, and which the mandatory-class rule keeps.  The first
that loses the move says why.  Nothing is guessed from the text of another message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from tapology.errors import TapologyError
from tapology.game import Game, Position
from tapology.games.chess import BASE_KIND, ChessNotation, read_san, squares
from tapology.model.atlas import Atlas
from tapology.model.tape import parse_tape
from tapology.rules.compiled import Key
from tapology.rules.engine import RuleGame


@dataclass(frozen=True)
class Intent:
    """What a move's text asks for: the tiles it may start from (None: any), the tile it ends on, the piece it names
    (chess SAN), and whether it castles (``"O-O"``/``"O-O-O"``)."""

    starts: tuple[int, ...] | None
    end: int | None
    piece: str | None = None
    castle: str = ""


def _names(game: RuleGame) -> tuple[str, ...]:
    if isinstance(game.notation, ChessNotation):
        return squares(game).names
    return game.board.tiles


def _index(game: RuleGame) -> dict[str, int]:
    if isinstance(game.notation, ChessNotation):
        return squares(game).index
    return game.board.tile_index


def piece_name(game: RuleGame, value: int) -> str:
    """A state's piece name for messages (``knight``; castling and en-passant states by their piece)."""
    sd = game.rules.by_value.get(value)
    if sd is None:
        return "piece"
    kind = sd.kind or sd.name
    return BASE_KIND.get(kind, kind)


def read_intent(game: RuleGame, pos: Position, text: str) -> Intent | None:
    """The origin(s) and target a move's text names, or None when it names no move (a typo, a command)."""
    t = text.strip()
    idx = _index(game)
    if isinstance(game.notation, ChessNotation):
        m = re.fullmatch(r"([a-z]+\d+)([a-z]+\d+)([qrbn])?", t.lower())
        if m and m.group(1) in idx and m.group(2) in idx:
            return Intent((idx[m.group(1)],), idx[m.group(2)])
        san = read_san(t)
        if san is None:
            return None
        if san.castle:
            return Intent(None, None, "king", san.castle)
        if san.target not in idx:
            return None
        sq = squares(game)
        h = game.h
        owner = game.compiled(pos.board).owner
        codes = game.codes(pos)
        starts = tuple(u for u, c in enumerate(codes) if c // h and owner[c] == pos.to_move
                       and piece_name(game, c // h) == san.piece
                       and (not san.file or sq.names[u][:1] == san.file)
                       and (not san.rank or sq.names[u][1:] == san.rank))
        return Intent(starts, idx[san.target], san.piece)
    parts = [p for p in re.split(r"[-x]", t) if p]
    if len(parts) >= 2 and all(p in idx for p in parts):
        return Intent((idx[parts[0]],), idx[parts[-1]])
    return None


def why_illegal(game: Game, pos: Position, text: str) -> str | None:
    """Why the move ``text`` is not legal at ``pos`` (the engine decides), or None when the text names no move of a
    rule-set game or the move is legal.  Cost: two listings of the mover's chains."""
    if not isinstance(game, RuleGame):
        return None
    if text.strip().startswith("tape "):
        return _tape_reason(game, pos, text.strip()[5:].strip())
    intent = read_intent(game, pos, text)
    if intent is None:
        return None
    me = game.players[pos.to_move]
    names = _names(game)
    h = game.h
    codes = game.codes(pos)
    comp = game.compiled(pos.board)
    ch = game.chains(pos.board)
    owner = comp.owner
    phase = game.rules.phase_at(pos.ply)  # a phase's turns start with its own moves
    pseudo = ch.turns(codes, pos.to_move, royal=False, phase=phase)
    kept = ch.turns(codes, pos.to_move, royal=True, phase=phase)
    legal = game.turn_keys(pos)
    in_check = bool(game.rules.royal) and game.in_check(pos)
    if intent.castle:
        return _castle_reason(game, pos, intent.castle, pseudo, kept, in_check)
    end = intent.end
    assert end is not None
    starts = intent.starts
    if starts is not None and len(starts) == 1 and intent.piece is None:
        s = starts[0]
        if codes[s] // h == 0:
            return f"there is no piece on {names[s]}"
        if owner[codes[s]] != pos.to_move:
            who = owner[codes[s]]
            whose = f"{game.players[who]}'s" if who >= 0 else "nobody's"
            return f"the {piece_name(game, codes[s] // h)} on {names[s]} is {whose}, and it is {me}'s turn"
    if starts is not None and not starts:
        return f"{me} has no {intent.piece} that could move to {names[end]}"
    if codes[end] // h and owner[codes[end]] == pos.to_move and not any(k[1] == end for k in pseudo):
        return f"{names[end]} is taken by {me}'s own {piece_name(game, codes[end] // h)}"

    def hits(keys: Mapping[Key, object]) -> list[Key]:
        return [k for k in keys if k[1] == end and (starts is None or k[0] in starts)]

    moves = hits(pseudo)
    if not moves:
        if starts is not None and len(starts) == 1:
            s = starts[0]
            return f"the {piece_name(game, codes[s] // h)} on {names[s]} cannot move to {names[end]}"
        what = intent.piece or "piece"
        on = ", ".join(names[s] for s in starts or ())
        return f"no {me} {what} can move to {names[end]}" + (f" ({what}s on {on})" if starts and len(starts) > 1 else
                                                             f" (the {what} is on {on})" if on else "")
    if not hits(kept):
        k = moves[0]
        s = k[0]
        piece = piece_name(game, codes[s] // h)
        after = list(codes)
        for u, v in k[2]:
            after[u] = v
        royal_moves = codes[s] // h in game.royal_values
        if royal_moves and not ch.in_check(after, pos.to_move):
            return ("castling out of check is not allowed" if in_check
                    else f"the {piece} would pass through an attacked square")
        if royal_moves:
            return f"the {piece} would be in check on {names[end]}"
        if in_check:
            return f"{me} is in check, and {piece} {names[s]}-{names[end]} does not end it"
        return f"the {piece} on {names[s]} is pinned: moving it would leave the king in check"
    if not hits(legal):
        classes = ", ".join(sorted(game.mandatory))
        return f"a move of class {classes} is mandatory here, and {text.strip()} is not one"
    return None


def _castle_reason(game: RuleGame, pos: Position, castle: str, pseudo: dict, kept: dict, in_check: bool) -> str:
    """Why castling (``O-O``, ``O-O-O``) is not legal: the rights, a piece between, check on the way."""
    me = game.players[pos.to_move]
    h = game.h
    codes = game.codes(pos)
    owner = game.compiled(pos.board).owner
    side = "kingside" if castle == "O-O" else "queenside"
    kings = [u for u, c in enumerate(codes) if c // h and owner[c] == pos.to_move and piece_name(game, c // h) == "king"]
    if not any(game.rules.by_value[codes[u] // h].kind == "castle-king" for u in kings):
        return f"{me} cannot castle: the king has moved"
    names = _names(game)

    def castles(keys: Mapping[Key, object]) -> list[Key]:
        out = []
        for k in keys:
            if k[0] not in kings:
                continue
            rook = [u for u, v in k[2] if u != k[0] and codes[u] // h and v // h == 0]
            if rook and (names[rook[0]][:1] > names[k[0]][:1]) == (castle == "O-O"):
                out.append(k)
        return out

    if not castles(pseudo):
        return f"{me} cannot castle {side}: that rook has moved or a piece stands between it and the king"
    if not castles(kept):
        return "castling out of check is not allowed" if in_check else \
            f"castling {side}: the king would pass through or land on an attacked square"
    return f"castling {side} is not legal here"


def _tape_reason(game: RuleGame, pos: Position, text: str) -> str | None:
    """Why a taping is not a legal turn: the player may not tape, the text names no taping, a side is already
    taped, a flip the rules forbid, or the atlas refuses it (the first conflict)."""
    me = game.players[pos.to_move]
    rule = game.rules.tape
    if rule is None or pos.to_move not in rule.players:
        return f"{me} may not tape in {game.name}"
    board = pos.board
    try:
        tp = parse_tape(text, board, "turn")
    except TapologyError as exc:
        return str(exc)
    f = tp.fact
    grid = board.grid
    d = grid.direction_index.get(f.cell)
    if d is not None and grid.group.signs:
        e = grid.dir_perm[grid.group.inv[f.orientation]][grid.opposite[d]]
        for t, side in ((f.tile, d), (f.other, e)):
            across = board.neighbour(t, side)
            if across is not None:
                return (f"{board.tiles[t]}.{grid.direction_names[side]} is already taped (to tile "
                        f"{board.tiles[across[0]]}): a tape turn joins two open sides")
        flipped = grid.group.is_reflection(f.orientation)
        if flipped not in rule.flips:
            return f"the rules of {game.name} allow no {'flipped' if flipped else 'unflipped'} tapings"
    at = Atlas.of(board)
    conflict = at.tape([tp])
    if conflict is not None:
        return "the atlas refuses the taping: " + conflict.describe(board).splitlines()[0]
    return None
