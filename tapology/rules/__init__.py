"""The rule language: rule sets as values, rule files, ASCII patterns, the move engine and its backends."""

from tapology.errors import PositionError, RuleError, TurnError
from tapology.rules.engine import RuleGame
from tapology.rules.model import RuleSet
from tapology.rules.parse import load_rules, parse_rules

__all__ = ["PositionError", "RuleError", "RuleGame", "RuleSet", "TurnError", "load_rules", "parse_rules"]
