"""C generated for one rule set on one board: the native engine (``engine.c``) compiled with that board's tables as
constants and its hot inner functions unrolled, cached as its own module.

The generated source is ``engine.c`` itself with a prelude after its ``#include "engine.h"``:

- every table of ``tp_tables`` as a ``static const`` array and the struct as a ``static const`` the compiler folds
  (``TABLES(E)``): sizes are constants (a row of ``nd`` codes is a constant stride), every pointer a fixed address;
- ``TP_GEN_PATTERN``: each application's pattern checks as one expression over constant mask rows, the most
  selective first (as ``tp_new`` packs them for the interpreter);
- ``TP_GEN_WRITES``: each application's new values, a constant or the code read where the map is constant or the
  identity;
- ``TP_GEN_ENTRIES`` (after the engine): a node's entry moves per (player, tile, code), the checks on the entry
  tile itself decided here, at generation, since its code is the row's.

Everything else (the walk, clean-ups, royal rule, keys, perft, playouts) is the interpreter's code, so the two agree
by construction on what they share and are tested against each other and the Python chain walk on what they do not
(``tests/test_native_specialised.py``).  The module is named after a hash of the tables, ``engine.c``,
``engine.h``, this generator and the compiler flags: a changed rule set, board or engine is a new module, compiled
once (seconds) into the same cache folder as the interpreter (:mod:`tapology.rules.native.build`), loaded after.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import ModuleType

import numpy as np

from tapology.rules.native import build
from tapology.rules.native.tables import BYTES, Tables

HERE = Path(__file__).resolve().parent
VERSION = "1"  # bump when the generated code changes in a way the hash of this file would not show
MAX_APPS = 40_000  # more applications than this: the generated switch is left to the interpreter (compile time)
MAX_ENTRIES = 60_000


def declines(tabs: Tables) -> str:
    """Why this board's tables are not specialised ("" when they are)."""
    f = tabs.fields
    if int(f["napps"]) > MAX_APPS:
        return f"more than {MAX_APPS:,} applications ({int(f['napps']):,}) for the generated C"
    if int(f["nent"]) > MAX_ENTRIES:
        return f"more than {MAX_ENTRIES:,} entry moves ({int(f['nent']):,}) for the generated C"
    return ""


def digest(tabs: Tables) -> str:
    """A hash of everything the generated module depends on."""
    h = hashlib.sha256(VERSION.encode())
    for part in ((HERE / "engine.h").read_bytes(), (HERE / "engine.c").read_bytes(), Path(__file__).read_bytes(),
                 " ".join(build.FLAGS + build._extra_flags()).encode()):
        h.update(part)
        h.update(b"\0")
    for name in sorted(tabs.fields):
        value = tabs.fields[name]
        h.update(name.encode() + b"=")
        h.update(np.ascontiguousarray(value).tobytes() if isinstance(value, np.ndarray) else str(int(value)).encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def module_name(tabs: Tables) -> str:
    """The specialised module's name."""
    return f"_tapology_spec_{digest(tabs)}"


def _array(name: str, value: np.ndarray) -> str:
    ctype = "uint8_t" if name in BYTES else "int32_t"
    items = value.tolist() if value.size else [0]
    body = ",".join(map(str, items))
    return f"static const {ctype} k_{name}[{len(items)}] = {{{body}}};\n"


def generate(tabs: Tables) -> str:
    """The C source of the specialised engine of these tables.  Cost: linear in the tables."""
    f = tabs.fields
    arrays = {k: np.asarray(v) for k, v in f.items() if isinstance(v, np.ndarray)}
    sizes = {k: int(v) for k, v in f.items() if not isinstance(v, np.ndarray)}
    n, nd, np_, napps = sizes["n"], sizes["nd"], sizes["np"], sizes["napps"]
    masks = arrays["masks"].reshape(-1, nd) if sizes["nmasks"] else np.zeros((0, nd), np.uint8)
    maps = arrays["maps"].reshape(-1, nd) if sizes["nmaps"] else np.zeros((0, nd), np.int32)
    pop = masks.sum(axis=1).tolist() if len(masks) else []
    chk_off, chk_tile, chk_mask = arrays["chk_off"].tolist(), arrays["chk_tile"].tolist(), arrays["chk_mask"].tolist()
    wr_off, wr_src, wr_map = (arrays[k].tolist() for k in ("wr_off", "wr_src", "wr_map"))
    app_tile = arrays["app_tile"].tolist()
    extra = [int(arrays["app_ray_off"][a + 1] > arrays["app_ray_off"][a]) or int(arrays["app_gc"][a] >= 0)
             for a in range(napps)]
    full = [bool(row.all()) for row in masks]

    def checks(a: int) -> list[tuple[int, int]]:
        """(tile, mask row) of a's checks in the order the interpreter reads them (selective first, own tile last);
        masks accepting every code left out."""
        got = [(chk_tile[k], chk_mask[k]) for k in range(chk_off[a], chk_off[a + 1]) if not full[chk_mask[k]]]
        got.sort(key=lambda c: ((c[0] == app_tile[a]) * (nd + 1) + pop[c[1]]))
        return got

    def test(cs: list[tuple[int, int]]) -> str:
        return " && ".join(f"k_masks[{m * nd}+codes[{u}]]" for u, m in cs) or "1"

    out = ["/* generated by tapology/rules/native/specialise.py: one rule set on one board */\n",
           "#define TABLES(E) (&tp_k)\n#define TP_GEN_PATTERN gen_pattern\n#define TP_GEN_WRITES gen_writes\n",
           "#define TP_GEN_ENTRIES gen_entries\n"]
    for name, value in arrays.items():
        out.append(_array(name, value))
    fields = [f".{k} = {v}" for k, v in sizes.items()] + [f".{k} = k_{k}" for k in arrays]
    out.append("static const tp_tables tp_k = {" + ", ".join(fields) + "};\n")

    out.append("static inline int gen_pattern(const int32_t *codes, int32_t a) {\n    switch (a) {\n")
    for a in range(napps):
        cs = checks(a)
        if cs:
            out.append(f"    case {a}: return {test(cs)};\n")
    out.append("    default: return 1;\n    }\n}\n")

    out.append("static inline int32_t gen_writes(int32_t *nv, const int32_t *codes, int32_t a) {\n    switch (a) {\n")
    for a in range(napps):
        parts = []
        for i, k in enumerate(range(wr_off[a], wr_off[a + 1])):
            row = maps[wr_map[k]]
            if (row == row[0]).all():
                parts.append(f"nv[{i}]={int(row[0])};")
            elif (row == np.arange(nd)).all():
                parts.append(f"nv[{i}]=codes[{wr_src[k]}];")
            else:
                parts.append(f"nv[{i}]=k_maps[{wr_map[k] * nd}+codes[{wr_src[k]}]];")
        out.append(f"    case {a}: {''.join(parts)} return {wr_off[a + 1] - wr_off[a]};\n")
    out.append("    default: return 0;\n    }\n}\n")

    engine = (HERE / "engine.c").read_text()
    marker = '#include "engine.h"\n'
    head, sep, tail = engine.partition(marker)
    if not sep:
        raise AssertionError("engine.c lost its include of engine.h")
    src = [head, sep, "".join(out), tail]

    ent_off, ent_app = arrays["ent_off"].tolist(), arrays["ent_app"].tolist()
    body = ["\nstatic int gen_entries(tp_engine *E, Walk *W, int32_t row) {\n",
            "    const int32_t *codes = W->b->codes;\n    int r;\n    (void)codes;\n    (void)r;\n    switch (row) {\n"]
    for p in range(np_):
        for t in range(n):
            for c in range(nd):
                r = (p * n + t) * nd + c
                apps = ent_app[ent_off[r]:ent_off[r + 1]]
                if not apps:
                    continue
                lines = []
                for a in apps:
                    cs = checks(a)
                    if any(u == t and not masks[m][c] for u, m in cs):
                        continue  # its own tile's check fails on this row's code: never fits here
                    cond = test([(u, m) for u, m in cs if u != t])
                    if extra[a]:
                        cond = f"fits(E, codes, {a})"
                    lines.append(f"        if ({cond}) {{ W->start = {app_tile[a]}; r = step(E, W, {a}, {app_tile[a]}, 0);"
                                 " if (r < 0) return r; }\n")
                if lines:
                    body.append(f"    case {r}:\n{''.join(lines)}        break;\n")
    body.append("    default: break;\n    }\n    return 0;\n}\n")
    src.append("".join(body))
    return "".join(src)


def cached(tabs: Tables) -> bool:
    """True when the specialised module of these tables is compiled already.  Cost: a hash of the tables."""
    return build.built_path(module_name(tabs)).exists()


def load(tabs: Tables) -> ModuleType:
    """The specialised module of these tables, compiled into the cache on first use (raises as
    :func:`tapology.rules.native.build.load` does).  Cost: an import when cached, else a C compile (seconds)."""
    name = module_name(tabs)
    return build.load_built(name, None if build.built_path(name).exists() else generate(tabs))
