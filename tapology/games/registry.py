"""The game registry: every way of naming a game, resolved in one place.

GAME is

* a shipped rule set by name: ``tictactoe``, ``checkers``, ``chinese-checkers``,
  ``tictactopology``, ``chess`` (files in ``tapology/games/data/``);
* ``tictactoe:K`` (K in a row on the rule set's board, or ``--board``) or ``tictactoe:M,N,K``
  (K in a row on ``plane:MxN``); ``tic-tac-toe`` and ``mnk`` are other names for it;
* a shipped rule set by RBG's name for it (``foxAndHounds``, ``chess_kingCapture``: case, ``-`` and ``_`` do not
  matter), and ``NAME:MxN`` (or RBG's ``NAME_MxN``) for the rule sets set up by regions (``breakthrough:10x10``);
* the path of a rule file.

:func:`open_game` gives the rule engine's game (:class:`RuleGame`, with the rule set's notation,
e.g. chess's UCI/SAN); :func:`load_game` gives what play, solve, referee and verify use: the
compiled k-in-a-row engine where the rule set is a plain claim game, else the rule engine.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from tapology.errors import GameError, PositionError, RuleError, TapologyError
from tapology.files import read_text
from tapology.game import ClaimGame, Game, Position
from tapology.games.kinrow import MAX_TILES as KINROW_TILES
from tapology.games.kinrow import KInARow, kinrow_k, kinrow_of_rules
from tapology.limits import LIMITS, check, limit
from tapology.model.builtins import is_builtin, parse_builtin
from tapology.rules.engine import Notation, RuleGame
from tapology.rules.model import RuleSet
from tapology.rules.parse import load_rules as load_rule_file
from tapology.rules.position import position_from_table, read_position_file

DATA = Path(__file__).resolve().parent / "data"
_FIRST = ("tictactoe", "checkers", "chinese-checkers", "tictactopology", "chess")
SHIPPED = (*_FIRST, *sorted(p.stem for p in DATA.glob("*.toml") if p.stem not in _FIRST))
NOTATIONS: dict[str, tuple[str, str]] = {"chess": ("tapology.games.chess", "ChessNotation")}  # module, class
_TTT = re.compile(r"^(?:tictactoe|tic-tac-toe|mnk)(?::(\d+)(?:,(\d+),(\d+))?)?$")


def load_rules(spec: str) -> RuleSet:
    """The rule set GAME names (see the module docstring); :class:`RuleError` naming it otherwise."""
    text = spec.strip()
    m = _TTT.match(text)
    if m:
        base = load_shipped("tictactoe")
        if m.group(1) is None:
            return base
        if any(g is not None and len(g) > 6 for g in m.groups()):
            raise RuleError(f"game {spec[:40]!r}{'…' if len(spec) > 40 else ''}: M, N and K have at most 6 digits")
        if m.group(2) is not None:
            rows, cols, k = int(m.group(1)), int(m.group(2)), int(m.group(3))
        else:
            rows = cols = 0
            k = int(m.group(1))
        if (m.group(2) is not None and min(rows, cols) < 1) or k < 2:
            raise RuleError(f"game {spec!r}: M and N must be at least 1 and K at least 2")
        ends = tuple(dataclasses.replace(e, k=k) if e.kind == "line" else e for e in base.ends)
        board = f"plane:{rows}x{cols}" if rows else base.board
        return dataclasses.replace(base, name=text, board=board, boards=(board,), ends=ends)
    shipped = shipped_name(text)
    if shipped is not None:
        return load_shipped(shipped)
    m = _SIZED.match(text)
    if m and shipped_name(m.group(1)) is not None and not Path(text).exists():
        return sized_rules(load_shipped(str(shipped_name(m.group(1)))), text, m.group(2), m.group(3))
    if not Path(text).exists():
        raise RuleError(f"{spec}: no such rule file or built-in game (built-in: {', '.join(SHIPPED)}, "
                        "tictactoe:K, tictactoe:M,N,K, NAME:MxN)")
    return load_rule_file(text)


def load_shipped(name: str) -> RuleSet:
    """A shipped rule set by its file name: read once per process and limits (rule sets are frozen values, and the
    shipped files are the package's own)."""
    try:
        limits = tuple(limit(n) for n in LIMITS)
    except TapologyError:  # a malformed environment: the reader's first limit check says so
        return load_rule_file(DATA / f"{name}.toml")
    return _shipped(name, limits)


@functools.cache
def _shipped(name: str, limits: tuple[int, ...]) -> RuleSet:
    """:func:`load_shipped` once per (name, limits); ``limits`` is part of the key only (the reader checks them)."""
    del limits
    return load_rule_file(DATA / f"{name}.toml")


def _squash(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "")


_SQUASHED = {_squash(n): n for n in SHIPPED}
_SIZED = re.compile(r"^(.+?)[:_](\d{1,4})x(\d{1,4})$")


def shipped_name(name: str) -> str | None:
    """The shipped rule set a name means: its file name, or RBG's (``foxAndHounds``, ``chess_kingCapture``) in any
    case with or without ``-`` and ``_``; None when no shipped rule set has it."""
    return _SQUASHED.get(_squash(name))


def sized_rules(rules: RuleSet, spec: str, rows: str, cols: str) -> RuleSet:
    """A shipped rule set on its boards' kinds in another size (``breakthrough:10x10`` is breakthrough on
    ``plane:10x10``, ``reversi:6x6`` reversi on ``plane:6x6``), where its start position fits: set up by regions
    (``[initial] fill``), or a ``[[setup]]`` for that size."""
    r, c = int(rows), int(cols)
    if r < 1 or c < 1:
        raise RuleError(f"game {spec!r}: sizes must be at least 1")
    kind, _, size = rules.board.partition(":")
    board = f"{kind}:{r}x{c}"
    if (rules.initial.layout or rules.initial.tiles) and rules.setup_for(board) is None and f"{r}x{c}" != size:
        sizes = sorted({p.rpartition(":")[2] for s in rules.setups for p in s.boards if "x" in p.rpartition(":")[2]})
        raise RuleError(f"game {spec!r}: {rules.name} has no start position for {r}x{c} (sizes: "
                        f"{', '.join([size, *sizes])})")
    boards = tuple(dict.fromkeys(f"{b.partition(':')[0]}:{r}x{c}" for b in rules.boards))
    return dataclasses.replace(rules, name=f"{rules.name}:{r}x{c}", board=board, boards=boards)


def notation_of(rules: RuleSet) -> Notation | None:
    """The notation a rule set names (``notation = "chess"``), if any."""
    where = NOTATIONS.get(rules.notation) if rules.notation else None
    if where is None:
        return None
    return getattr(importlib.import_module(where[0]), where[1])()


def open_game(spec: str, board: str | None = None, *, optional_ends: bool = True) -> RuleGame:
    """The game GAME names on ``board`` (default: the rule set's own), played by the rule engine."""
    rules = load_rules(spec)
    name = board or rules.board
    if kinrow_k(rules) is not None and is_builtin(name):  # refused before its board is built (250,000 tiles: seconds)
        _kind, rows, cols = parse_builtin(name)
        check("turn_tiles", (rows * cols) ** 2, f"{rules.name} on {name}: {rows * cols} turns of {rows * cols} tiles "
              "each at the start")
    game = RuleGame(rules, board, optional_ends=optional_ends, notation=notation_of(rules))
    if kinrow_k(rules) is not None:  # a claim game starts with a turn per tile, each holding a whole position
        n = len(game.board.tiles)
        check("turn_tiles", n * n, f"{rules.name} on {game.board_name}: {n} turns of {n} tiles each at the start")
    return game


@dataclass
class LoadedGame:
    """A game ready to play: ``game`` (the k-in-a-row engine when it applies, else ``generic``), names, the rules."""

    game: Game
    name: str
    board_name: str
    generic: RuleGame
    rules: RuleSet

    @property
    def kinrow(self) -> ClaimGame | None:
        """The compiled k-in-a-row game, when this is one."""
        return self.game if isinstance(self.game, ClaimGame) else None


def load_game(spec: str, board: str | None = None, *, fast: bool = True, stop_at_line: bool = True,
              optional_ends: bool = True) -> LoadedGame:
    """GAME on ``board`` for play, solve, referee and verify: the k-in-a-row engine where the rule set is a plain
    claim game (``fast``), else the rule engine.  ``stop_at_line=False`` plays k-in-a-row games to a full board."""
    generic = open_game(spec, board, optional_ends=optional_ends)
    rules = generic.rules
    game: Game = generic
    board_tiles = len(generic.initial().board.tiles)
    if not stop_at_line and board_tiles > KINROW_TILES:
        raise GameError(f"{spec}: play to a full board needs the k-in-a-row engine, which holds at most {KINROW_TILES} "
                        f"tiles; board {generic.board_name!r} has {board_tiles}")
    if fast and board_tiles <= KINROW_TILES:  # bigger boards: the rule engine plays the same game
        kr = kinrow_of_rules(rules, generic.initial().board)
        if kr is not None:
            game = kr if stop_at_line else KInARow(kr.board, kr.k, name=kr.name, lines=list(kr.lines),
                                                   stop_at_line=False)
    if not stop_at_line and not isinstance(game, ClaimGame):
        raise GameError(f"{spec}: play to a full board is only for k-in-a-row games")
    return LoadedGame(game, rules.name, generic.board_name, generic, rules)


def open_position(spec: str, board: str | None = None, position: str | None = None) -> tuple[RuleGame, Position]:
    """GAME on ``board`` (or the board a position file names) at ``position``: a position file (TOML), or for games
    with chess notation a FEN string or a file holding one; the start position when None."""
    if position is None:
        game = open_game(spec, board)
        return game, game.initial()
    rules = load_rules(spec)
    text = None
    if notation_of(rules) is not None and "/" in position and not Path(position).is_file():
        text = position
    else:
        raw = read_text(position, "position file or FEN", PositionError)
        first = next((ln.strip() for ln in raw.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
        if notation_of(rules) is not None and "/" in first and "=" not in first:
            text = first
    if text is not None:
        game = RuleGame(rules, board, notation=notation_of(rules))
        from tapology.games.chess import position_from_fen  # loads only when needed: a FEN (start-up of the others)

        return game, position_from_fen(game, text)
    data = read_position_file(position)
    name = board if board is not None else str(data["board"]) if "board" in data else None
    try:
        game = RuleGame(rules, name, notation=notation_of(rules))
    except TapologyError as exc:  # the board the position file names: say which file named it
        if board is None and "board" in data:
            raise PositionError(f"{position}: {exc}") from None
        raise
    return game, position_from_table(game, data, position)
