"""A small predicate language over positions, for ``verify --reach``.

Grammar (keywords are case-insensitive; ``&&``, ``||``, ``!`` may stand for and, or, not)::

    pred  := and ('or' and)*
    and   := not ('and' not)*
    not   := 'not' not | cmp
    cmp   := sum (('=='|'='|'!='|'<'|'<='|'>'|'>=') sum)?
    sum   := atom (('+'|'-') atom)*
    atom  := INT | NAME | NAME '(' ARG ')' | 'prev' '(' pred ')' | '(' pred ')'

Terms (a player is ``X`` or ``O`` or a player name; a state is a state name or number):

=================  =========================================================================
``count(S)``       tiles in state S (``count(X)``, ``count(empty)``, ``count(0)``)
``empty``          empty tiles
``line(P)``        true when player P holds a whole line
``lines(P)``       number of whole lines P holds
``dead``           dead lines: lines holding marks of both players (seed 003's dead ends)
``live(P)``        lines holding none of the other player's marks
``lines``          number of lines on the board
``ply``            turns played
``turn(P)``        true when P is to move
``over``           the game has ended
``drawn``          early draw: not over, and no line can still be filled (see ``KInARow.dead_draw``)
``winnable``       not over, and some player can still fill a line
``pieces``         tiles not empty; ``pieces(P)``: tiles holding P's states
``open``           sides of the board glued to nothing
``closed``         no open side
``consistent``     the board's atlas is consistent
``manifold``       the board is a surface (no mirror, cone point or singular vertex)
``orientable``     the board is orientable
``euler``          the board's Euler characteristic
=================  =========================================================================

``prev(E)`` is the value of E in the position before (invariants only: ``verify --invariant``
checks a predicate with ``prev`` across every turn, e.g. ``pieces <= prev(pieces)``).

Booleans count as 0/1 in sums and comparisons; numbers as true when non-zero.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any, Protocol

from tapology.errors import PredicateError
from tapology.limits import LIMITS, limit

TERMS_WITH_ARG = {"count", "line", "lines", "live", "turn", "pieces"}
BOARD_TERMS = {"open", "closed", "consistent", "manifold", "orientable", "euler"}
TERMS_BARE = {"empty", "dead", "lines", "ply", "over", "drawn", "winnable", "true", "false", "pieces"} | BOARD_TERMS
BOOL_TERMS = {"line", "turn", "over", "drawn", "winnable", "true", "false", "closed", "consistent", "manifold",
              "orientable"}

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_\-]*)|(==|!=|<=|>=|&&|\|\||[=<>()+\-!]))")


@dataclass(frozen=True)
class Node:
    """A parsed predicate: ``op`` with children ``args`` (``num``: value; ``term``: name and argument)."""

    op: str
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        if self.op == "num":
            return str(self.args[0])
        if self.op == "term":
            name, arg = self.args
            return name if arg is None else f"{name}({arg})"
        if self.op == "not":
            return f"not {self.args[0]}"
        return f"({self.args[0]} {self.op} {self.args[1]})"


def _balanced(op: str, items: list[Node]) -> Node:
    """A chain of ``and`` (or ``or``) as a balanced tree, so that long chains stay shallow."""
    if len(items) == 1:
        return items[0]
    mid = len(items) // 2
    return Node(op, (_balanced(op, items[:mid]), _balanced(op, items[mid:])))


def _short(text: str) -> str:
    """The predicate quoted for a one-line message (long ones cut in the middle)."""
    return repr(text) if len(text) <= 80 else repr(text[:50] + " … " + text[-20:])


def _tokens(text: str) -> list[tuple[str, int]]:
    out = []
    i = 0
    end = len(text.rstrip())
    while i < end:
        m = _TOKEN.match(text, i)
        if not m or m.end() == i:
            j = len(text) - len(text[i:].lstrip())
            raise PredicateError(f"predicate {_short(text)}: cannot read {text[j:][:12]!r} at column {j + 1}")
        tok = m.group(1) or m.group(2) or m.group(3)
        out.append((tok, m.start(m.lastindex or 0) + 1))
        i = m.end()
    return out


PARSE_FRAMES = 6  # calls of the parser per level of parentheses (atom, or, and, not, comparison, sum)


def parse_predicate(text: str) -> Node:
    """Parse a predicate; :class:`PredicateError` naming the column of the first problem, or the limit on its
    length or nesting depth (:mod:`tapology.limits`) that it exceeds.  The parser goes a bounded number of calls deep
    whatever the input or the limit says: ``predicate_depth`` is at most 256 levels, and the stack for them is
    granted for the parse."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(before + PARSE_FRAMES * min(limit("predicate_depth"), LIMITS["predicate_depth"].most or 0))
    try:
        return _parse(text)
    finally:
        sys.setrecursionlimit(before)


def _parse(text: str) -> Node:
    if len(text) > limit("predicate_length"):
        raise PredicateError(f"predicate {_short(text)}: {len(text)} characters is more than the limit "
                             f"predicate_length={limit('predicate_length')} (raise it with --limit predicate_length=N)")
    toks = _tokens(text)
    pos = 0
    depth = 0

    def peek() -> str | None:
        return toks[pos][0] if pos < len(toks) else None

    def col() -> int:
        return toks[pos][1] if pos < len(toks) else len(text) + 1

    def take(expected: str | None = None) -> str:
        nonlocal pos
        if pos >= len(toks):
            raise PredicateError(f"predicate {_short(text)}: ends too soon" + (f" (expected {expected!r})" if expected else ""))
        tok = toks[pos][0]
        if expected is not None and tok.lower() != expected:
            raise PredicateError(f"predicate {_short(text)}: expected {expected!r} at column {col()}, found {tok!r}")
        pos += 1
        return tok

    def kw(tok: str | None, *words: str) -> bool:
        return tok is not None and tok.lower() in words

    def p_or() -> Node:
        items = [p_and()]
        while kw(peek(), "or", "||"):
            take()
            items.append(p_and())
        return _balanced("or", items)

    def p_and() -> Node:
        items = [p_not()]
        while kw(peek(), "and", "&&"):
            take()
            items.append(p_not())
        return _balanced("and", items)

    def deeper() -> None:
        nonlocal depth
        depth += 1
        if depth > limit("predicate_depth"):
            raise PredicateError(f"predicate {_short(text)}: nested more than {limit('predicate_depth')} deep at column "
                                 f"{col()}, more than the limit predicate_depth={limit('predicate_depth')} "
                                 "(raise it with --limit predicate_depth=N)")

    def p_not() -> Node:
        nonlocal depth
        if kw(peek(), "not", "!"):
            take()
            deeper()
            node = Node("not", (p_not(),))
            depth -= 1
            return node
        return p_cmp()

    def p_cmp() -> Node:
        a = p_sum()
        if peek() in ("==", "=", "!=", "<", "<=", ">", ">="):
            op = take()
            a = Node("==" if op == "=" else op, (a, p_sum()))
        return a

    def p_sum() -> Node:
        a = p_atom()
        while peek() in ("+", "-"):
            op = take()
            a = Node(op, (a, p_atom()))
        return a

    def p_atom() -> Node:
        nonlocal depth
        c = col()
        tok = take()
        if tok == "(":
            deeper()
            a = p_or()
            take(")")
            depth -= 1
            return a
        if tok.isdigit():
            if len(tok) > 18:
                raise PredicateError(f"predicate {_short(text)}: number at column {c} has {len(tok)} digits (at most 18)")
            return Node("num", (int(tok),))
        name = tok.lower()
        if name == "prev" and peek() == "(":
            take("(")
            deeper()
            a = p_or()
            take(")")
            depth -= 1
            return Node("prev", (a,))
        if name in ("and", "or", "not"):
            raise PredicateError(f"predicate {_short(text)}: {tok!r} at column {c} needs something before it")
        if peek() == "(":
            take("(")
            if name not in TERMS_WITH_ARG:
                raise PredicateError(f"predicate {_short(text)}: {tok!r} at column {c} takes no argument "
                                     f"(terms with one: {', '.join(sorted(TERMS_WITH_ARG))})")
            arg = take()
            take(")")
            return Node("term", (name, arg))
        if name in TERMS_WITH_ARG - TERMS_BARE:
            raise PredicateError(f"predicate {_short(text)}: {tok!r} at column {c} needs an argument, e.g. {name}(X)")
        if name not in TERMS_BARE:
            raise PredicateError(f"predicate {_short(text)}: unknown term {tok!r} at column {c} "
                                 f"(known: {', '.join(sorted(TERMS_BARE | TERMS_WITH_ARG))})")
        return Node("term", (name, None))

    if not toks:
        raise PredicateError("predicate is empty")
    tree = p_or()
    if pos != len(toks):
        raise PredicateError(f"predicate {_short(text)}: unexpected {toks[pos][0]!r} at column {col()}")
    if tree_depth(tree) > limit("predicate_depth"):
        raise PredicateError(f"predicate {_short(text)}: its terms nest {tree_depth(tree)} deep, more than the limit "
                             f"predicate_depth={limit('predicate_depth')} (raise it with --limit predicate_depth=N)")
    return tree


def tree_depth(node: Node) -> int:
    """The depth of a parsed predicate (without recursion: a long chain of ``and`` nests deep)."""
    best = 0
    stack = [(node, 1)]
    while stack:
        n, d = stack.pop()
        best = max(best, d)
        stack.extend((a, d + 1) for a in n.args if isinstance(a, Node))
    return best


class Terms(Protocol):
    """What a predicate is evaluated against: the value of each term."""

    def term(self, name: str, arg: str | None) -> Any:
        """The term's value (int or bool, or a solver expression)."""
        ...


def _previous(terms: Terms) -> Terms:
    """The terms of the position before (``prev``); :class:`PredicateError` where there is none."""
    prev = getattr(terms, "previous", None)
    if prev is None:
        raise PredicateError("prev(...) compares with the position before a turn: it is only for invariants")
    return prev()


def uses_prev(node: Node) -> bool:
    """True when the predicate reads the position before (``prev``)."""
    return node.op == "prev" or (node.op not in ("num", "term") and any(uses_prev(a) for a in node.args))


def evaluate(node: Node, terms: Terms) -> bool | int:
    """Value of a predicate on plain Python values."""
    op = node.op
    if op == "num":
        return node.args[0]
    if op == "term":
        return terms.term(*node.args)
    if op == "not":
        return not evaluate(node.args[0], terms)
    if op == "prev":
        return evaluate(node.args[0], _previous(terms))
    if op == "and":
        return bool(evaluate(node.args[0], terms)) and bool(evaluate(node.args[1], terms))
    if op == "or":
        return bool(evaluate(node.args[0], terms)) or bool(evaluate(node.args[1], terms))
    a, b = int(evaluate(node.args[0], terms)), int(evaluate(node.args[1], terms))
    return {"+": a + b, "-": a - b, "==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def to_z3(node: Node, terms: Terms) -> Any:
    """The predicate as a z3 expression (terms give z3 Bool or Int expressions)."""
    import z3

    def as_int(e: Any) -> Any:
        return z3.If(e, 1, 0) if z3.is_bool(e) else e

    def as_bool(e: Any) -> Any:
        return e if z3.is_bool(e) else e != 0

    def rec(n: Node, terms: Terms = terms) -> Any:
        op = n.op
        if op == "num":
            return z3.IntVal(n.args[0])
        if op == "prev":
            return rec(n.args[0], _previous(terms))
        if op == "term":
            v = terms.term(*n.args)
            if isinstance(v, bool):
                return z3.BoolVal(v)
            if isinstance(v, int):
                return z3.IntVal(v)
            return v
        if op == "not":
            return z3.Not(as_bool(rec(n.args[0], terms)))
        if op == "and":
            return z3.And(as_bool(rec(n.args[0], terms)), as_bool(rec(n.args[1], terms)))
        if op == "or":
            return z3.Or(as_bool(rec(n.args[0], terms)), as_bool(rec(n.args[1], terms)))
        a, b = as_int(rec(n.args[0], terms)), as_int(rec(n.args[1], terms))
        return {"+": lambda: a + b, "-": lambda: a - b, "==": lambda: a == b, "!=": lambda: a != b,
                "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b}[op]()

    return as_bool(rec(node))


def term_names(node: Node) -> set[tuple[str, str | None]]:
    """Every (term, argument) a predicate uses."""
    if node.op == "term":
        return {node.args}
    if node.op == "num":
        return set()
    out: set[tuple[str, str | None]] = set()
    for a in node.args:
        out |= term_names(a)
    return out
