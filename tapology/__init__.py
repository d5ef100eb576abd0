"""tapology: board games on taped-together surfaces.

The library in a few names (each loads its module when first used, so ``import tapology`` stays quick)::

    import tapology

    board = tapology.builtin_board("plane:3x4")            # or tapology.load_board("board.toml").board
    atlas = tapology.Atlas.of(board)                        # the charts, closed by propagation
    taping = tapology.parse_tape("4.right=1.left", board)   # TAPE text -> a Taping
    atlas.tape([taping])                                    # None, or the Conflict that refuses it (nothing changed)
    klein = tapology.builtin_board("klein:3x3")
    tapology.classify(klein).orientable                     # False
    tapology.same(klein, tapology.builtin_board("torus:3x3"))   # False: not isomorphic

    lg = tapology.load_game("tictactoe", "torus:3x3")       # lg.game keeps the Game contract
    tapology.solve_game(lg.game).value                      # 1: the first player wins
    tapology.perft("checkers", 6).nodes                     # 36768 (split into tasks on any executor)

Boards and charts: :class:`Board`, :class:`Atlas`, :func:`builtin_board`, :func:`load_board`,
:func:`parse_tape`; topology: :func:`classify`, :func:`signature`, :func:`same`, :func:`automorphisms`;
games: :func:`load_game`, :func:`open_game`, :func:`load_rules`, :class:`RuleGame`, :class:`KInARow`,
:class:`Game`, :class:`Position`, :class:`Turn`; questions: :func:`perft`, :func:`solve_game`,
:func:`solve_kinrow`, :func:`referee`; errors: :class:`TapologyError` (a ``ValueError``; every error a user can
see is one).  The command line (``tapology --help``) calls the same functions.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# name -> (module, attribute): the curated API, loaded on first use
_API: dict[str, tuple[str, str]] = {
    "Board": ("tapology.model.board", "Board"),
    "Atlas": ("tapology.model.atlas", "Atlas"),
    "builtin_board": ("tapology.model.builtins", "builtin_board"),
    "load_board": ("tapology.model.boardfile", "load_board"),
    "parse_tape": ("tapology.model.tape", "parse_tape"),
    "classify": ("tapology.model.topology", "classify"),
    "signature": ("tapology.model.isomorphism", "signature"),
    "same": ("tapology.model.isomorphism", "same"),
    "automorphisms": ("tapology.model.isomorphism", "automorphisms"),
    "Game": ("tapology.game", "Game"),
    "Position": ("tapology.game", "Position"),
    "Turn": ("tapology.game", "Turn"),
    "load_game": ("tapology.games.registry", "load_game"),
    "open_game": ("tapology.games.registry", "open_game"),
    "load_rules": ("tapology.games.registry", "load_rules"),
    "RuleGame": ("tapology.rules.engine", "RuleGame"),
    "KInARow": ("tapology.games.kinrow", "KInARow"),
    "perft": ("tapology.games.perft", "run_perft"),
    "solve_game": ("tapology.play.solving.solve", "solve_game"),
    "solve_kinrow": ("tapology.play.solving.solve", "solve_kinrow"),
    "referee": ("tapology.play.playing.referee", "referee"),
    "TapologyError": ("tapology.errors", "TapologyError"),
}

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    """The curated names, imported when first asked for."""
    if name not in _API:
        raise AttributeError(f"module 'tapology' has no attribute {name!r}")
    module, attr = _API[name]
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
