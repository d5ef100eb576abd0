"""Position files (TOML): a game position written as a layout of state names over the tiles.

::

    board = "plane:8x8"      # optional: the board (else --board or the game's own)
    to_move = "white"        # optional: the player to move (default: the game's first)
    ply = 0                  # optional: turns already played
    layout = '''
    . b . b . b . b
    ...
    '''                      # one token per tile in board order: a state name, '.' (state 0), NAME@F for a frame

Tiles may instead be listed by state: ``[tiles] b = ["2", "4"]``; ``[frames] b = 2`` gives a
state's default frame.  A state the file's ``frames`` does not name takes the rule set's default
(the ``frames`` of its set-up for the board, or of ``[initial]``): chess's black pawns face down
whether or not the file says ``frames = { p = 2 }``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tapology.errors import PositionError
from tapology.files import parse_toml, read_text
from tapology.game import Position

if TYPE_CHECKING:
    from tapology.rules.engine import RuleGame

KEYS = {"board", "to_move", "ply", "layout", "tiles", "frames", "counters"}


def read_position_file(path: str) -> dict[str, Any]:
    """The raw table of a position file; :class:`PositionError` naming the file otherwise."""
    text = read_text(path, "position file", PositionError)
    data = parse_toml(text, path, PositionError)
    bad = sorted(set(data) - KEYS)
    if bad:
        raise PositionError(f"{path}: unknown key {bad[0]!r} (known: {', '.join(sorted(KEYS))})")
    if "board" in data and not isinstance(data["board"], str):
        raise PositionError(f"{path}: board must be a board name or file, got {data['board']!r}")
    return data


def position_from_table(game: RuleGame, data: dict[str, Any], where: str) -> Position:
    """The position a position file describes, on the game's board."""
    rules = game.rules
    board = game.board
    n = len(board.tiles)
    states = [0] * n
    frames = [0] * n
    default_frames = game.start_frames()  # the rule set's, then the file's own entries over them
    fr = data.get("frames", {})
    if not isinstance(fr, dict):
        raise PositionError(f"{where}: frames must be a table state = orientation")
    for s, f in fr.items():
        if s not in rules.state_index or not isinstance(f, int) or not 0 <= f < game.h:
            raise PositionError(f"{where}: frames: bad entry {s} = {f!r}")
        default_frames[rules.state_index[s].name] = f
    layout = data.get("layout", "")
    if not isinstance(layout, str):
        raise PositionError(f"{where}: layout must be a string")
    toks = layout.split()
    if toks and len(toks) != n:
        raise PositionError(f"{where}: layout has {len(toks)} entries; board {game.board_name!r} has {n} tiles")
    for t, tok in enumerate(toks):
        name, _, f = tok.partition("@")
        if name == ".":
            continue
        sd = rules.state_index.get(name)
        if sd is None:
            raise PositionError(f"{where}: layout entry {t + 1} {tok!r}: unknown state {name!r}")
        states[t] = sd.value
        try:
            frames[t] = int(f) if f else game.frame_of(sd.name, default_frames)
        except ValueError:
            raise PositionError(f"{where}: layout entry {t + 1} {tok!r}: frame must be a number") from None
        if not 0 <= frames[t] < game.h:
            raise PositionError(f"{where}: layout entry {t + 1} {tok!r}: frame out of range 0..{game.h - 1}")
    tiles = data.get("tiles", {})
    if not isinstance(tiles, dict):
        raise PositionError(f"{where}: tiles must be a table state = [tile ids]")
    for name, tids in tiles.items():
        sd = rules.state_index.get(name)
        if sd is None or not isinstance(tids, list):
            raise PositionError(f"{where}: tiles: bad entry {name!r}")
        for tid in tids:
            try:
                t = board.tile(str(tid), f"{where}: tiles")
            except Exception as exc:
                raise PositionError(str(exc)) from None
            states[t] = sd.value
            frames[t] = game.frame_of(sd.name, default_frames)
    to_move = data.get("to_move", rules.players[rules.initial.to_move])
    if to_move not in rules.players:
        raise PositionError(f"{where}: to_move: unknown player {to_move!r} (players: {', '.join(rules.players)})")
    ply = data.get("ply", 0)
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise PositionError(f"{where}: ply must be a whole number ≥ 0")
    raw = data.get("counters", {})
    names = [c.name for c in rules.counters]
    if not isinstance(raw, dict) or any(k not in names for k in raw) \
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw.values()):
        raise PositionError(f"{where}: counters must be a table of the rule set's counters "
                            f"({', '.join(names) or 'none'}) = whole numbers ≥ 0")
    counters = tuple(raw.get(n, 0) for n in names)
    return game.make_position(board, states, frames, rules.players.index(to_move), ply, counters)


def dumps_position(game: RuleGame, pos: Position) -> str:
    """A position as a position file (layout in board order, ``NAME@F`` for a frame, the counters)."""
    rules = game.rules
    default = game.start_frames()
    canon = game.compiled(pos.board).canon
    toks = []
    for t, s in enumerate(pos.board.states):
        sd = rules.by_value.get(s)
        name = "." if s == 0 else (sd.name if sd else str(s))
        if pos.extra and sd is not None and sd.oriented and pos.extra[t] != canon[s][game.frame_of(sd.name, default)]:
            name += f"@{pos.extra[t]}"
        toks.append(name)
    width = max(map(len, toks))
    cols = _columns(game)
    rows = [" ".join(tok.ljust(width) for tok in toks[i:i + cols]).rstrip() for i in range(0, len(toks), cols)]
    out = (f'board = "{game.board_name}"\nto_move = "{rules.players[pos.to_move]}"\nply = {pos.ply}\n'
           f'layout = """\n' + "\n".join(rows) + '\n"""\n')
    if default:
        out += "frames = { " + ", ".join(f"{k} = {v}" for k, v in default.items()) + " }\n"
    if rules.counters:
        out += "counters = { " + ", ".join(f"{c.name} = {n}" for c, n in
                                           zip(rules.counters, pos.counters or (0,) * len(rules.counters),
                                               strict=True)) + " }\n"
    return out


def _columns(game: RuleGame) -> int:
    """Tiles per layout row: the board's drawn width when its tiles come row by row, else all on one row."""
    board = game.board
    if board.placement is None or any(p is None for p in board.placement):
        return len(board.tiles)
    rows = [board.grid.layout_row_col(p[0])[0] for p in board.placement if p is not None]
    width = rows.count(rows[0])
    return width if rows == sorted(rows) and all(rows.count(r) == width for r in set(rows)) else len(board.tiles)
