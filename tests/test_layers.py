"""The package's layers point one way: every import of a tapology module (at the top, inside a function, or for type
checking only) goes to the same layer or one below, no module imports itself round a circle (type-only imports
included: a circle that only type checking closes is still one design knot), every module is named in the layer table,
and every import inside a function says why on its line (a module that loads only when asked for, for start-up time
or an optional dependency)."""

from __future__ import annotations

import ast
import re
from functools import cache
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tapology"

# lowest first; a module may import from its own layer and the layers below it.  An entry is a module, or a package
# written with a trailing ".*" (its modules and sub-packages); a module that no entry names belongs to no layer.
LAYERS = [
    ["tapology.errors", "tapology.files", "tapology.limits", "tapology.parallel"],
    ["tapology.model", "tapology.model.*", "tapology.game"],
    ["tapology.solver", "tapology.solver.*"],
    ["tapology.rules", "tapology.rules.*"],
    ["tapology.games", "tapology.games.*"],
    ["tapology.render", "tapology.render.*"],
    ["tapology.play", "tapology.play.*"],
    ["tapology.adapters", "tapology.adapters.*"],
    ["tapology.reports", "tapology.reports.*", "tapology.commands", "tapology.commands.*", "tapology.web",
     "tapology.web.*"],
    ["tapology.cli", "tapology.__main__", "tapology"],  # the package's own namespace gathers the library for users
]

# the command modules import what a command needs when it runs, so that starting the CLI stays fast
DEFERRED = ("tapology.commands", "tapology.cli", "tapology")
# what a reason for an import inside a function says
REASON = re.compile(r"#.*(loads only when|only when (first )?needed|start-up|optional (extra|dependency)|the extra )")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(mod: str) -> int | None:
    """The layer of a module by the table (an exact entry first, then the nearest enclosing ``pkg.*``), or None."""
    for i, entries in enumerate(LAYERS):
        if mod in entries:
            return i
    best, rank = -1, None
    for i, entries in enumerate(LAYERS):
        for e in entries:
            if e.endswith(".*") and mod.startswith(e[:-1]) and len(e) > best:
                best, rank = len(e), i
    return rank


def _layer(mod: str) -> int:
    rank = layer_of(mod)
    assert rank is not None, f"module {mod} belongs to no layer"
    return rank


@cache
def _imports() -> dict[str, list[tuple[str, int, bool, bool, bool]]]:
    """module -> [(imported module, line, inside a function, has a reason on its line, for type checking only)]; read
    once for the tests of this file (each reads it without changing it)."""
    out: dict[str, list[tuple[str, int, bool, bool, bool]]] = {}
    modules = {_module(p) for p in ROOT.rglob("*.py")}
    for path in sorted(ROOT.rglob("*.py")):
        mod = _module(path)
        lines = path.read_text().split("\n")
        tree = ast.parse("\n".join(lines))
        found: list[tuple[str, int, bool, bool, bool]] = []
        # one walk over the tree: each import with whether it is inside a function and inside an ``if TYPE_CHECKING``
        imports: list[tuple[ast.Import | ast.ImportFrom, bool, bool]] = []
        todo: list[tuple[ast.AST, bool, bool]] = [(tree, False, False)]
        while todo:
            node, in_func, type_only = todo.pop()
            if isinstance(node, ast.Import | ast.ImportFrom):
                imports.append((node, in_func, type_only))
                continue
            if isinstance(node, ast.expr):  # no import below an expression
                continue
            in_func = in_func or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            type_only = type_only or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
            todo.extend((child, in_func, type_only) for child in ast.iter_child_nodes(node))
        for node, inner, type_only in sorted(imports, key=lambda i: (i[0].lineno, i[0].col_offset)):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
                # ``from tapology import files`` imports the module tapology.files (and runs the package's __init__,
                # which the layer of the package's own namespace does not hold against it)
                names = subs if subs and len(subs) == len(node.names) else [node.module, *subs]
            elif isinstance(node, ast.ImportFrom) and node.level > 0:
                base = mod.split(".")[: len(mod.split(".")) - node.level + (1 if path.name == "__init__.py" else 0)]
                names = [".".join(base + ([node.module] if node.module else []))]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            targets = {n for n in names if n in modules}
            reason = bool(REASON.search(lines[node.lineno - 1])) or mod.startswith(DEFERRED)
            for t in sorted(targets):
                if t != mod:
                    found.append((t, node.lineno, inner, reason, type_only))
        out[mod] = found
    return out


def test_every_module_is_in_a_layer() -> None:
    missing = sorted(m for m in _imports() if layer_of(m) is None)
    assert not missing, "modules in no layer (add them to LAYERS): " + ", ".join(missing)


def test_a_module_in_no_layer_is_reported() -> None:
    assert layer_of("tapology.newthing") is None and layer_of("tapology.rules.native.build") == 3
    assert layer_of("tapology") == len(LAYERS) - 1 and layer_of("tapology.model") == 1


def test_imports_point_down() -> None:
    bad = []
    for mod, deps in _imports().items():
        for t, line, _inner, _r, type_only in deps:
            if _layer(t) > _layer(mod):
                bad.append(f"{mod}:{line} imports {t}{' (type only)' if type_only else ''} (layer {_layer(t)} above "
                           f"{_layer(mod)})")
    assert not bad, "\n".join(bad)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle a depth-first search meets (each as the path round it)."""
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                found.append([*stack[stack.index(t):], t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def test_circles_are_found_type_only_too() -> None:
    assert circles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]] and circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    deps = _imports()
    graph = {m: {t for t, *_ in ds} for m, ds in deps.items()}
    kinds = {(m, t): ty for m, ds in deps.items() for t, _l, _i, _r, ty in ds}
    found = circles(graph)
    text = [" -> ".join(c) + (" (closed by a type-only import)" if any(kinds.get(e) for e in pairwise(c))
                              else "") for c in found]
    assert not found, "\n".join(text)


def test_imports_inside_functions_say_why() -> None:
    bad = [f"{mod}:{line} imports {t} inside a function without a reason on its line"
           for mod, deps in _imports().items() for t, line, inner, reason, _ty in deps if inner and not reason]
    assert not bad, "\n".join(bad)
