"""Games: the registry of game names (:mod:`tapology.games.registry`), the shipped rule sets in ``data/``, the
compiled k-in-a-row engine and chess notation."""

from tapology.games.registry import SHIPPED, LoadedGame, load_game, load_rules, open_game

__all__ = ["SHIPPED", "LoadedGame", "load_game", "load_rules", "open_game"]
