"""From a GAME argument and a board to a game: through the rule-set loader, with the compiled fast path.

GAME is a shipped rule set's name (``tictactoe``, ``checkers``, …), a rule file's path, or
``tictactoe:M,N,K`` / ``tictactoe:K`` (m,n,k tic-tac-toe: K in a row, on ``plane:MxN``
unless ``--board`` says otherwise).  A rule set that is a k-in-a-row claim game — one
claim move turning an empty tile into the mover's mark, ending on k in a row or a full
board, no tapes, links or clean-ups — is played by the compiled :class:`KInARow` engine
(``fast=False`` keeps the rule engine).  Without the rule-set loader, the built-in
``tictactoe`` family is still available.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tapology.errors import TapologyError
from tapology.game import Game
from tapology.play.kinrow import GameError, KInARow

_TTT = re.compile(r"^(tictactoe|tic-tac-toe|mnk)(?::(\d+)(?:,(\d+),(\d+))?)?$")


@dataclass
class LoadedGame:
    """A game ready to play: ``game`` (fast when it can be), the rule engine's game if any, and names."""

    game: Game
    name: str
    board_name: str
    generic: Game | None = None
    rules: Any = None

    @property
    def kinrow(self) -> KInARow | None:
        """The compiled k-in-a-row game, when this is one."""
        return self.game if isinstance(self.game, KInARow) else None


def _rule_loader() -> Any:
    """A rule-set loader (name or path -> RuleSet): :mod:`tapology.games`' own when it has one, else rule files
    by path and the shipped rule files by name; None without the rule language."""
    try:
        import tapology.games as games
    except ImportError:
        games = None  # type: ignore[assignment]
    for name in ("load_game_rules", "load_rules", "get_rules", "rules_for", "load"):
        fn = getattr(games, name, None)
        if callable(fn):
            return fn
    try:
        from tapology.rules import load_rules
    except ImportError:
        return None
    from pathlib import Path

    shipped = Path(__file__).resolve().parent.parent / "games" / "data"

    def load(spec: str) -> Any:
        p = Path(spec)
        if not p.is_file() and (shipped / f"{spec}.toml").is_file():
            p = shipped / f"{spec}.toml"
        return load_rules(p)

    return load


def kinrow_of_rules(rules: Any, board: Any) -> KInARow | None:
    """The compiled game for a rule set that is a plain k-in-a-row claim game on ``board``, else None."""
    try:
        if rules.tape is not None or rules.cleanups or len(rules.players) != 2 or len(rules.moves) != 1:
            return None
        mv = rules.moves[0]
        if mv.links or len(mv.cells) != 1 or any(mv.cells[0].cell) or set(mv.players) != {0, 1}:
            return None
        cell = mv.cells[0]
        if cell.before.kind != "states" or tuple(cell.before.tokens) != ("empty",) or cell.after not in ("own:mark", "own"):
            return None
        by = {s.value: s for s in rules.states}
        if set(by) != {0, 1, 2} or by[0].name != "empty" or by[1].owner != 0 or by[2].owner != 1:
            return None
        if by[1].oriented or by[2].oriented:
            return None
        if rules.initial.layout or rules.initial.tiles or rules.initial.to_move != 0:
            return None
        kinds = sorted(e.kind for e in rules.ends)
        if kinds != ["line", "no-turns"]:
            return None
        line = next(e for e in rules.ends if e.kind == "line")
        nt = next(e for e in rules.ends if e.kind == "no-turns")
        if line.states or line.player is not None or line.result != "win" or nt.result != "draw" \
                or any(e.check is not None or e.optional for e in rules.ends) or rules.counters or rules.setups:
            return None
        if rules.mandatory or rules.royal:
            return None
    except AttributeError:
        return None
    return KInARow(board.with_states((0,) * len(board.tiles)), line.k, name=rules.name)


def load_game(spec: str, board: str | None = None, *, fast: bool = True, stop_at_line: bool = True) -> LoadedGame:
    """Resolve GAME and ``--board``; errors name the argument."""
    m = _TTT.match(spec.strip())
    loader = _rule_loader()
    if loader is None:
        if m:
            return _builtin_tictactoe(spec, m, board, stop_at_line)
        raise GameError(f"unknown game {spec!r} (the rule-set loader is not available; use tictactoe or tictactoe:M,N,K)")
    try:
        from tapology.rules import RuleGame

        rules = loader(spec)
        generic = RuleGame(rules, board)
    except TapologyError:
        if m:  # the loader does not know this form: the built-in family
            return _builtin_tictactoe(spec, m, board, stop_at_line)
        raise
    board_name = board or getattr(generic, "board_name", "") or rules.board
    game: Game = generic
    if fast:
        kr = kinrow_of_rules(rules, generic.initial().board)
        if kr is not None:
            if not stop_at_line:
                kr = KInARow(kr.board, kr.k, name=kr.name, lines=list(kr.lines), stop_at_line=False)
            game = kr
    if not stop_at_line and not isinstance(game, KInARow):
        raise GameError(f"{spec}: play to a full board is only for k-in-a-row games")
    return LoadedGame(game, rules.name, board_name, generic, rules)


def _builtin_tictactoe(spec: str, m: re.Match[str], board: str | None, stop_at_line: bool) -> LoadedGame:
    from tapology.model.boardfile import load_board

    if m.group(3) is not None:
        rows, cols, k = int(m.group(2)), int(m.group(3)), int(m.group(4))
    else:
        rows = cols = 3
        k = int(m.group(2)) if m.group(2) is not None else 3
    if k < 2 or rows < 1 or cols < 1:  # as the rule-set loader: K = 1 would make every first claim a win
        raise GameError(f"game {spec!r}: M and N must be at least 1 and K at least 2")
    board_name = board or f"plane:{rows}x{cols}"
    src = load_board(board_name)
    at = src.atlas()
    if at.conflict is not None:
        raise GameError(f"board {board_name!r} is inconsistent: {at.conflict.describe(src.board).splitlines()[0]}")
    game = KInARow(at.board(), k, name="tictactoe", stop_at_line=stop_at_line)
    return LoadedGame(game, "tictactoe" if m.group(2) is None else spec, board_name)
