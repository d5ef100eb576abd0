"""What a command line loads before it answers: each command imports what it uses when it runs, so the fixed cost of
a process (``tapology moves chess`` answers in a fraction of a second) is the library call's, not every area's."""

from __future__ import annotations

import os
import subprocess
import sys

# loaded by no listing of turns: drawing, solving, play, the browser workshop, the other enumerators, rich (progress
# bars and help only), the executors of big jobs
NOT_FOR_MOVES = ("rich", "z3", "ray", "pygments", "markdown_it", "multiprocessing", "concurrent", "asyncio", "http",
                 "pydantic", "tapology.render.", "tapology.play", "tapology.solver", "tapology.web",
                 "tapology.adapters", "tapology.rules.z3enum", "tapology.rules.cspenum", "tapology.model.isomorphism",
                 "tapology.model.topology")
# loaded by no perft on C generated for its board and compiled already: the generator (the module is loaded by the
# name the cache notes), chess notation for a game without it, the description of a rule set
NOT_FOR_PERFT = (*NOT_FOR_MOVES, "cffi", "tapology.rules.native.specialise", "tapology.rules.native.walks",
                 "tapology.games.chess", "tapology.rules.describe")
# what the command tree alone (--version, --help's list, a bad option) never needs
NOT_FOR_THE_TREE = ("numpy", "tapology.rules", "tapology.model", "tapology.game", "tapology.games")


def _loaded(*lines: str, env: dict[str, str] | None = None) -> list[str]:
    """The modules a fresh interpreter holds after running ``lines`` (``main`` is the command line's entry), after
    what the lines printed."""
    code = "\n".join(["import sys", "from tapology.cli import main", *lines, "print(' '.join(sorted(sys.modules)))"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    return [*out.splitlines()[:-1], *out.splitlines()[-1].split()]


def _matching(mods: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules among ``mods`` that ``names`` name: a package with its modules, or (ending in a dot) only the
    modules of a package."""
    return [m for m in mods if any(m.startswith(n) if n.endswith(".") else m == n or m.startswith(n + ".")
                                   for n in names)]


def test_moves_loads_only_what_it_uses() -> None:
    mods = _loaded("assert main(['moves', 'checkers']) == 0", "assert main(['moves', 'chess', '--json']) == 0")
    assert "tapology.rules.engine" in mods and "tapology.games.chess" in mods  # the check sees what was loaded
    assert _matching(mods, NOT_FOR_MOVES) == []


def test_perft_on_compiled_generated_c_loads_no_generator() -> None:
    env = dict(os.environ, TAPOLOGY_NATIVE_SPECIALISE="1")
    line = "assert main(['perft', 'tictactoe', '--depth', '3']) == 0"
    _loaded(line, env=env)  # compiled (seconds, once per engine version) and its name noted in the cache
    mods = _loaded(line, env=env)
    assert "engine: native-specialised" in mods and "perft 3: 504" in " ".join(mods)  # the count ran on it
    assert "tapology.rules.native" in mods and "_cffi_backend" in mods  # the check sees what was loaded
    assert _matching(mods, NOT_FOR_PERFT) == []


def test_the_command_tree_loads_no_engine() -> None:
    mods = _loaded("assert main(['--version']) == 0", "assert main(['moves', '--no-such-option']) == 2")
    assert "tapology.commands.games" in mods and "typer" in mods
    assert _matching(mods, NOT_FOR_THE_TREE) == []
