"""Digests of a board's built tables (the native engine's arrays and the :class:`Compiled` tables' content), for
pinning how they are built: ``python -m tests.table_digest`` rewrites ``tests/data/tables/digests.json``."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tapology.games.registry import open_game
from tapology.rules.native import tables as native_tables

GOLDEN = Path(__file__).parent / "data" / "tables" / "digests.json"
FAST = (("checkers", None), ("the-mill-game", None), ("connect6:7x7", None), ("go", "plane:9x9"))  # the default run's
SLOW = (("amazons", None), ("chess", "plane:8x8"), ("chess", "torus:12x8"), ("chess", "klein:8x8"),
        ("arimaa-fixed-position", None), ("connect6", None), ("chinese-checkers", None), ("reversi", None),
        ("breakthrough", "torus:8x8"), ("gess", None), ("paper-soccer", None),
        ("double-chess", "mobius:12x16"))  # -m slow: seconds each


def _h(obj: Any) -> str:
    return hashlib.sha256(repr(obj).encode()).hexdigest()[:16]


def _sorted(d: dict) -> list:
    return sorted(d.items(), key=repr)


def digest(name: str, board: str | None) -> dict[str, str]:
    """Per field of the native tables and per table of the Compiled board: a short hash of its content (the
    Compiled tables' dicts compared by content, not by the order they were filled in; the attack index where the
    rule set has royal states)."""
    g = open_game(name, board)
    chains = g.chains(g.board)
    comp = chains.comp
    out: dict[str, str] = {}
    try:
        tabs = native_tables.build(chains)
    except native_tables.Unsupported as exc:
        out["unsupported"] = str(exc)
    else:
        for k, v in sorted(tabs.fields.items()):
            out[f"native.{k}"] = _h((v.dtype.str, v.tobytes())) if isinstance(v, np.ndarray) else _h(int(v))
        out["native.dense"] = _h(tabs.dense.tobytes())
        out["native.perft_reason"] = tabs.perft_reason
    out["apps"] = _h(comp.apps)
    out["maps"] = _h((comp.maps, comp.const_of))
    out["app_key"] = _h(_sorted(comp._app_key))
    out["entries"] = _h(_sorted({k: v for k, v in comp._entry_tables.items()}))
    out["links"] = _h([comp.links(i) for i in range(len(comp.apps))])
    out["cleanups"] = _h(_sorted(comp._cleanups))
    if chains.royal_values:  # built only where there are royal states (elsewhere a walk of every chain: minutes)
        out["attack"] = _h([_sorted(comp.attack_index(p)) for p in range(comp.np)])
    return out


def key(name: str, board: str | None) -> str:
    return f"{name}@{board or ''}"


if __name__ == "__main__":
    which = FAST + SLOW if len(sys.argv) < 2 else [tuple(a.split("@")) for a in sys.argv[1:]]
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    for name, board in which:
        golden[key(name, board or None)] = digest(name, board or None)
        print(key(name, board or None), file=sys.stderr)
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
