"""The package's layers point one way: every import of a tapology module (at the top or inside a function) goes to
the same layer or one below, no module imports itself round a circle, and every import inside a function says
why on its line or the line above (an optional dependency or start-up time)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tapology"

# lowest first; a module may import from its own layer and the layers below it
LAYERS = [
    ["tapology", "tapology.errors", "tapology.files", "tapology.parallel"],
    ["tapology.model", "tapology.game"],
    ["tapology.solver"],
    ["tapology.rules"],
    ["tapology.games"],
    ["tapology.render"],
    ["tapology.play"],
    ["tapology.adapters"],
    ["tapology.reports", "tapology.commands", "tapology.web"],
    ["tapology.cli", "tapology.__main__"],
]


# the command modules import what a command needs when it runs, so that starting the CLI stays fast
DEFERRED = ("tapology.commands", "tapology.cli")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(mod: str) -> int:
    best, rank = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (mod == p or mod.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    assert rank >= 0, f"module {mod} belongs to no layer"
    return rank


def _imports() -> dict[str, list[tuple[str, int, bool, bool]]]:
    """module -> [(imported module, line, inside a function, has a reason comment)]."""
    out: dict[str, list[tuple[str, int, bool, bool]]] = {}
    modules = {_module(p) for p in ROOT.rglob("*.py")}
    for path in sorted(ROOT.rglob("*.py")):
        mod = _module(path)
        lines = path.read_text().split("\n")
        tree = ast.parse("\n".join(lines))
        found: list[tuple[str, int, bool, bool]] = []
        funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        inner_lines = {node.lineno for f in funcs for node in ast.walk(f) if isinstance(node, ast.Import | ast.ImportFrom)}
        type_only = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                type_only |= {n.lineno for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level > 0:
                base = mod.split(".")[: len(mod.split(".")) - node.level + (1 if path.name == "__init__.py" else 0)]
                names = [".".join(base + ([node.module] if node.module else []))]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if node.lineno in type_only:
                continue
            targets = {n for n in names if n in modules}
            inner = node.lineno in inner_lines
            text = lines[node.lineno - 1]
            reason = "#" in text or "#" in lines[node.lineno - 2] or mod.startswith(DEFERRED)
            for t in sorted(targets):
                if t != mod:
                    found.append((t, node.lineno, inner, reason))
        out[mod] = found
    return out


def test_imports_point_down() -> None:
    bad = []
    for mod, deps in _imports().items():
        for t, line, _inner, _r in deps:
            if _layer(t) > _layer(mod):
                bad.append(f"{mod}:{line} imports {t} (layer {_layer(t)} above {_layer(mod)})")
    assert not bad, "\n".join(bad)


def test_no_import_circles() -> None:
    graph = {m: {t for t, *_ in deps} for m, deps in _imports().items()}
    graph = {m: {t for t in ts if t != "tapology"} for m, ts in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                cycles.append([*stack[stack.index(t):], t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_imports_inside_functions_say_why() -> None:
    bad = [f"{mod}:{line} imports {t} inside a function without a reason"
           for mod, deps in _imports().items() for t, line, inner, reason in deps if inner and not reason]
    assert not bad, "\n".join(bad)
