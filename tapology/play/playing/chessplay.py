"""Chess at the terminal: a diagram with files and ranks that fits 80×24, the last move and check marked, pieces
coloured (ANSI) when colour is on, moves listed and echoed in SAN, and the game as PGN.

Any rule set with chess notation played on a board drawn as a full rectangle of squares is drawn this way (the
rule set's square names label the files and ranks: ``a``–``h`` and ``1``–``8`` on ``plane:8x8``, twelve ranks
on ``torus:12x8``); other boards keep the seed-style drawing.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapology.errors import NotationError
from tapology.game import Game, Position, Turn
from tapology.games.chess import ChessNotation, pgn_result, san, squares, write_pgn
from tapology.rules.engine import RuleGame

# ANSI 256-colour backgrounds: light and dark squares, the last move's squares, a king in check
_BG = {"light": 187, "dark": 137, "last-light": 186, "last-dark": 143, "check": 167}
_FG_WHITE = "\x1b[1;38;5;231m"
_FG_BLACK = "\x1b[1;38;5;16m"
_RESET = "\x1b[0m"


def chess_game(game: Game) -> RuleGame | None:
    """The game as a chess rule game when it names its turns in chess notation, else None."""
    if isinstance(game, RuleGame) and isinstance(game.notation, ChessNotation):
        return game
    return None


def diagram_fits(game: Game) -> bool:
    """True when the game is drawn as a chess diagram: chess notation on a full rectangle of squares."""
    g = chess_game(game)
    return g is not None and squares(g).ranks is not None


def last_squares(game: RuleGame, label: str | None) -> tuple[int, ...]:
    """The origin and target tiles of a UCI turn label (none for a tape turn or no turn)."""
    if not label:
        return ()
    sq = squares(game)
    for cut in range(2, min(len(label), 6)):
        a, b = label[:cut], label[cut:].rstrip("qrbn")
        if a in sq.index and b in sq.index:
            return (sq.index[a], sq.index[b])
    return ()


def diagram(game: RuleGame, pos: Position, last: str | None = None, color: bool = False) -> str:
    """The position as a chess diagram: ranks from the top, files left to right, named as the rule set names its
    squares; pieces by their letters (upper case White), ``.`` for an empty square; the last move's squares in
    brackets (``[.]`` … ``[P]``) and a king in check as ``*K*`` — or, with ``color``, coloured squares instead."""
    sq = squares(game)
    ranks = sq.ranks
    assert ranks is not None
    h = game.h
    codes = game.codes(pos)
    moved = set(last_squares(game, last))
    checked: set[int] = set()
    if game.rules.royal and game.in_check(pos):
        checked = game.chains(pos.board).royal_tiles(codes, pos.to_move)
    owner = game.compiled(pos.board).owner
    width = max(len(sq.names[t]) - 1 for row in ranks for t in row)
    files = [sq.names[t][0] for t in ranks[-1]]
    head = (" " * (width + 2) + "".join(f" {f} " for f in files)).rstrip()
    lines = [head]
    for r, row in enumerate(ranks):
        rank = sq.names[row[0]][1:]
        cells = []
        for c, t in enumerate(row):
            s = codes[t] // h
            sd = game.rules.by_value.get(s) if s else None
            letter = (sd.symbol or sd.name)[:1] if sd is not None else "."
            if color:
                light = (r + c) % 2 == 0
                bg = _BG["check"] if t in checked else _BG[("last-" if t in moved else "") + ("light" if light else "dark")]
                fg = _FG_WHITE if s and owner[codes[t]] == 0 else _FG_BLACK
                cells.append(f"\x1b[48;5;{bg}m{fg} {letter if s else ' '} {_RESET}")
            elif t in checked:
                cells.append(f"*{letter}*")
            elif t in moved:
                cells.append(f"[{letter}]")
            else:
                cells.append(f" {letter} ")
        lines.append(f" {rank:>{width}} " + "".join(cells) + f" {rank}")
    lines.append(head)
    return "\n".join(lines)


def status(game: RuleGame, pos: Position) -> str:
    """``check`` when the player to move is in check, else empty."""
    if game.rules.royal and game.outcome(pos) is None and game.in_check(pos):
        return f"{game.players[pos.to_move]} is in check"
    return ""


def san_of(game: RuleGame, pos: Position, turn: Turn, turns: Sequence[Turn] | None = None) -> str:
    """A turn's SAN, or its label where SAN cannot name it (a tape turn)."""
    try:
        return san(game, pos, turn, turns)
    except NotationError:  # a turn that is not a piece's move (a taping) keeps its label
        return turn.label


def record_pgn(game: RuleGame, labels: Sequence[str], players: dict[str, str] | None = None,
               outcome: dict[str, int] | None = None, ending: str | None = None) -> str:
    """A played game as PGN (players as ``White``/``Black`` tags, how it ended as a ``Termination`` tag)."""
    tags: dict[str, str] = {"Event": "tapology play"}
    for p, tag in zip(game.players, ("White", "Black"), strict=False):
        if players and p in players:
            tags[tag] = f"{p} ({players[p]})"
    if ending:
        tags["Termination"] = ending
    return write_pgn(game, labels, tags, pgn_result(game, outcome))


def chess_end(game: RuleGame, pos: Position, result: dict[str, int]) -> str:
    """How the rules ended a chess game: ``white wins by checkmate``, ``draw by stalemate``, ``draw by the
    fifty-move rule``, ``draw by threefold repetition``, ``draw by insufficient material``."""
    end = chess_ending(game, pos, result)
    winners = [p for p, v in result.items() if v > 0]
    if winners:
        return f"{winners[0]} wins by {end}" if end else f"{winners[0]} wins"
    return f"draw by {end}"


def chess_ending(game: RuleGame, pos: Position, result: dict[str, int]) -> str:
    """The rule that ended a game: ``checkmate``, ``stalemate``, ``the fifty-move rule``, ``threefold
    repetition``, ``insufficient material`` (empty for a win by another rule)."""
    winners = [p for p, v in result.items() if v > 0]
    no_turn = not game.turn_keys(pos)
    if winners:
        return "checkmate" if no_turn and game.in_check(pos) else ""
    if no_turn:
        return "stalemate"
    kinds = {e.kind for e in game.rules.ends if e.result == "draw"}
    for e in game.rules.ends:
        if e.kind == "counter" and e.result == "draw":
            i = [c.name for c in game.rules.counters].index(e.counter)
            if i < len(pos.counters) and pos.counters[i] >= e.value:
                return "the fifty-move rule" if e.value == 100 else f"the {e.counter} counter"
    if "repetition" in kinds and game._repeats(pos) >= 3:
        return "threefold repetition"
    return "insufficient material"
