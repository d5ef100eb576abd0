"""C generated for one rule set on one board: the native engine (``engine.c``) compiled with that board's tables as
constants and its hot inner functions unrolled, cached as its own module.

The generated source is ``engine.c`` itself with a prelude after its ``#include "engine.h"``:

- every table of ``tp_tables`` as a ``static const`` array and the struct as a ``static const`` the compiler folds
  (``TABLES(E)``): sizes are constants (a row of ``nd`` codes is a constant stride), every pointer a fixed address;
- ``TP_GEN_PATTERN``: each application's pattern checks as one expression over constant mask rows, the most
  selective first (as ``tp_new`` packs them for the interpreter);
- ``TP_GEN_WRITES``: each application's new values, a constant or the code read where the map is constant or the
  identity;
- ``TP_GEN_ENTRIES`` (after the engine): a node's entry moves per (entry set, tile, code), the checks on the entry
  tile itself decided here, at generation, since its code is the row's (an entry set per player in the regular
  play and in each phase, as the interpreter reads them: :func:`_sets`), and per entry set the codes and tiles of
  its rows with an entry move that is not quiet (``TP_GEN_OTHER_CODES``): all a node's walk scans where the quiet
  moves run apart (a perft's or playout's own), in chess the unmoved king's tile (castling), not every piece;
- where the quiet moves are proved distinct turns (:func:`_quiet_moves`), ``TP_GEN_PERFT`` and ``TP_GEN_PLAYOUT``:
  perft and a playout's turn with the quiet moves made or listed straight from their new values (a move's line or
  liberty captures read by gen_captured), no keys, a node without a turn passing where the rule set says so (the
  playout picks the interpreter's turn from the same stream: the same games); the walk for the mandatory turns
  only where one of their entry moves fits, and from the tiles where one fits only (bit sets where their checks sit
  at fixed offsets: ``TP_GEN_OTHER_MASK``); the last ply's quiet
  moves counted, and a playout's placements picked, as bit sets where each writes a constant on its own tile; where
  every quiet move changes a tile wherever it fits, a playout lists them by their fits alone and gathers only the
  picked one's changes; a made leaf (perft --no-bulk) written on the board's codes only, its piece
  counts and tile sets, which nothing reads at the last ply, left as they are; a capture that changes a tile
  wherever it fits counted on the last ply by whether it fits (its lines' runs counted up to its need, none
  copied);
- there too, an entry move with links (a slide, a chain of moves) as its walk unrolled (:mod:`.walks`): every
  chain the interpreter's step may take from it as nested tests over constant tiles (a slide's ray one test a
  step, a tile the chain wrote read as the constant it wrote), each chain's turn counted on the last ply or made,
  in the order step finishes them (a playout lists them as the interpreter's walk finds them: the same games);
  forced links read as the interpreter reads them; a link to another slide (amazons' arrow) walked once per
  landing tile as a shared continuation every chain reaching that tile calls (a playout's listing counts a call's
  turns as one entry and lists them only where the pick falls: :func:`_gen_cont_at`); taken where the tables prove each
  move of a chain writes on a tile a code it has not held in the chain (no position repeats) and two turns of an
  entry row that end on one tile cannot both fit or leave some tile with different codes (``walks.clash``; with
  turn clean-ups, also a tile no clean-up rewrites: :class:`_Distinct`); on a wrapped board two rays from a tile
  may reach one end: declined by name, as the moves it cannot walk are.
- end rules of plies, of lines (through the changed tiles) and of counts (over constant tiles or the position's
  counts of constant codes) as constants (``gen_ended``); other end rules: engine.c's ``ended``.
- Phases, the pass at any time and counters as the interpreter runs them: the phase's entry set read from the ply,
  the next player from next_player, the pass counted by pass_always_turn and drawn in a playout first (the same
  stream), a quiet move's counters moved on by next_counters as a key of one chain (gen_counters).
- where the rule set has a royal rule, turn clean-ups or other entry moves without links beside the quiet ones
  (castling's safe cells), ``TP_GEN_PERFT`` only (:func:`_gen_settled_perft`): the walk makes the node's memos and
  keys the other moves, and each quiet move and each chain of an unrolled walk is settled as the walk's finish
  settles a turn (the clean-ups' net writes merged where the node's memo answers, memo_merge, else run; the
  interpreter's royal test, leaf_safe) and counted or listed without a key, the quiet moves and walks run as a
  program of ints (``gen_run``) rather than code per tile; on the last ply of a bulk count where the node's memos
  answer, the same walks run as items in any order (``gen_count``: the moves of one tile whose masks accept no code
  in common a group, the tile read once and the move that fits its code found in a table), and a move whose changes
  touch nothing the node's clean-ups or royal test read is counted as the node's memos answer (leaf_plan,
  change_as_node: 1 where the node's royal tiles are safe, 0 where attacked), not settled; on the last ply of a
  perft that makes its leaves each turn made on the board's codes where it is settled (gen_leaf_made), none listed;
  and ``TP_GEN_PLAYOUT`` where each entry row's moves walked with keys come after its quiet ones
  (:func:`_others_last`; else playouts run the interpreter's turn picking over the generated entries): without a
  royal rule a playout's node counted tile by tile as the last ply of a bulk count counts it (gen_play_quiet), the
  stream's pick found by merging the keys with those counts, a tile's quiet turns first, which is the interpreter's
  order (:func:`_gen_settled_playout`: the same games), and only the picked tile's turns listed, up to the pick
  (gen_pick); under a royal rule the node listed as that perft lists it, the turns listed before the royal test and
  drawn as the interpreter draws them (engine.c draw_legal), only the turns drawn tested; a listed turn whose
  changes no clean-up can undo is listed without running them (gen_listed_raw), the clean-ups run for the turn
  picked.

Everything else (the walk, clean-ups, royal rule, keys, perft, playouts) is the interpreter's code, so the two agree
by construction on what they share and are tested against each other and the Python chain walk on what they do not
(``tests/test_native_specialised.py``).  The module is named after a hash of the tables, ``engine.c``,
``engine.h``, this generator and the compiler flags: a changed rule set, board or engine is a new module, compiled
once (seconds) into the same cache folder as the interpreter (:mod:`tapology.rules.native.build`), loaded after.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from tapology.rules.native import build
from tapology.rules.native.tables import BYTES, Tables
from tapology.rules.native.walks import (
    Cont,
    Need,
    Step,
    Turn,
    Walks,
    apart,
    calls_shared,
    clash,
    new_values,
    walk_functions,
    walk_most,
    walk_tree,
)

HERE = Path(__file__).resolve().parent
VERSION = "2"  # bump when the generated code changes in a way the hash of this file would not show
MAX_APPS = 40_000  # more applications than this: the generated switch is left to the interpreter (compile time)
MAX_ENTRIES = 60_000
# what a compile of generated C costs at FLAGS, in seconds of CPU: checkers' 2.0 MB of source some 40 s, tic-tac-toe's
# 165 kB some 3 s (cffi's own steps and the engine's headers besides)
COMPILE_START = 1.0  # seconds
COMPILE_RATE = 40_000  # bytes of source a second
FLAGS = ["-O1", "-std=c99"]  # -O2 takes ten times as long on the generated switches (75 s for checkers), runs no faster


def declines(tabs: Tables) -> str:
    """Why this board's tables are not specialised ("" when they are): past the size limits, or a rule set whose
    perft needs turn keys (:func:`_quiet_moves` names the feature; phases, the pass at any time and counters it
    runs, and a royal rule and turn clean-ups it settles per turn), where the generated C measured no faster than
    the interpreter (chess perft 5) for a compile of a minute (chess, 10,104 applications).  Moves that may not end a
    chain (final = false) are no reason: the parser refuses one without links, so none is a quiet move, and the
    interpreter's walk the generated C keeps drops a chain ending on one.  Cost: a hash of the tables where compiled
    already, else one pass over the entry rows (amazons' walks: some 2 s)."""
    if cached(tabs):
        return ""  # compiled already: this generator took these tables (the module's name hashes both)
    f = tabs.fields
    if int(f["napps"]) > MAX_APPS:
        return f"more than {MAX_APPS:,} applications ({int(f['napps']):,}) for the generated C"
    if int(f["nent"]) > MAX_ENTRIES:
        return f"more than {MAX_ENTRIES:,} entry moves ({int(f['nent']):,}) for the generated C"
    for name, why in (("steps", "step budgets ([steps])"), ("ncond_any", "disjunctions of counts (any)")):
        if int(f[name]):
            return f"the generated C runs no {why}, and this rule set has them"
    if int(f["has_maximum"]):
        return "the generated C runs no maximum rule (its turns need keys), and this rule set has one"
    if np.asarray(f["cond_around"]).any():
        return "the generated C runs no conditions around a tile, and this rule set has them"
    if int(np.asarray(f["mgrp_off"])[-1]) > int(np.asarray(f["mgrp_off"])[0]):
        return 'the generated C runs no clean-ups after each move (when = "move"), and this rule set has them'
    shape = _Shape(tabs)
    found = shape.quiet
    if isinstance(found, str):
        return f"the generated C counts quiet moves without keys, and {found}"
    if _settled(shape.sizes, found):
        for name, what in (("nphases", "phases"), ("nctr", "counters"), ("pass_always", "passing at any time")):
            if int(f[name]):
                return (f"the generated C settles a royal rule, turn clean-ups and moves walked with keys without "
                        f"{what}, and this rule set has them")
    return ""


def plays(tabs: Tables) -> bool:
    """Whether the generated C of these tables plays playouts itself (``TP_GEN_PLAYOUT``): taken, and, for the settled
    perft of a royal rule, turn clean-ups or moves walked with keys, each entry row's keyed moves after its quiet ones
    (:func:`_others_last`; else its playouts are the interpreter's turn picking, so a compile would not pay for
    them).  Cost: as :func:`declines`."""
    shape = _Shape(tabs)
    found = shape.quiet
    return not isinstance(found, str) and (not _settled(shape.sizes, found) or _others_last(shape, found[0]))


class _Shape:
    """What the generator reads of the tables: the arrays, the sizes, each application's checks and the quiet moves
    (:func:`_quiet_moves`)."""

    def __init__(self, tabs: Tables) -> None:
        f = tabs.fields
        self.arrays = {k: np.asarray(v) for k, v in f.items() if isinstance(v, np.ndarray)}
        self.sizes = {k: int(v) for k, v in f.items() if not isinstance(v, np.ndarray)}
        nd = self.sizes["nd"]
        self.masks = self.arrays["masks"].reshape(-1, nd) if self.sizes["nmasks"] else np.zeros((0, nd), np.uint8)
        self.pop = self.masks.sum(axis=1).tolist() if len(self.masks) else []
        self.full = [bool(row.all()) for row in self.masks]
        self.chk_off, self.chk_tile, self.chk_mask, self.app_tile = (
            self.arrays[k].tolist() for k in ("chk_off", "chk_tile", "chk_mask", "app_tile"))
        self.walks: dict[tuple[int, int], Step] = {}  # the unrolled walks of entry moves with links, by (row, move)
        self.alike: set[int] = set()  # quiet moves left out as another's turn (the same checks and writes)
        self.quiet = _quiet_moves(self.sizes, self.arrays, self.masks, self.checks, self.walks, self.alike)

    def checks(self, a: int) -> list[tuple[int, int]]:
        """(tile, mask row) of a's checks in the order the interpreter reads them (selective first, own tile last);
        masks accepting every code left out."""
        nd, tile = self.sizes["nd"], self.app_tile[a]
        got = [(self.chk_tile[k], self.chk_mask[k]) for k in range(self.chk_off[a], self.chk_off[a + 1])
               if not self.full[self.chk_mask[k]]]
        got.sort(key=lambda c: ((c[0] == tile) * (nd + 1) + self.pop[c[1]]))
        return got


def digest(tabs: Tables) -> str:
    """A hash of everything the generated module depends on."""
    h = hashlib.sha256(VERSION.encode())
    for part in ((HERE / "engine.h").read_bytes(), (HERE / "engine.c").read_bytes(), Path(__file__).read_bytes(),
                 (HERE / "walks.py").read_bytes(),
                 " ".join(FLAGS + build._extra_flags()).encode()):
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
    shape = _Shape(tabs)
    arrays, sizes, masks, checks = shape.arrays, shape.sizes, shape.masks, shape.checks
    n, nd, napps = sizes["n"], sizes["nd"], sizes["napps"]
    maps = arrays["maps"].reshape(-1, nd) if sizes["nmaps"] else np.zeros((0, nd), np.int32)
    wr_off, wr_src, wr_map = (arrays[k].tolist() for k in ("wr_off", "wr_src", "wr_map"))
    app_tile = shape.app_tile
    extra = [int(arrays["app_ray_off"][a + 1] > arrays["app_ray_off"][a]) or int(arrays["app_gc"][a] >= 0)
             for a in range(napps)]
    co = arrays["app_cond_off"].tolist()
    conditioned = frozenset(a for a in range(napps) if co[a + 1] > co[a])  # moves with count conditions (if)
    walks = shape.walks

    def test(cs: list[tuple[int, int]]) -> str:
        return " && ".join(f"k_masks[{m * nd}+codes[{u}]]" for u, m in cs) or "1"

    out = ["/* generated by tapology/rules/native/specialise.py: one rule set on one board */\n",
           "#define TABLES(E) (&tp_k)\n#define TP_GEN_PATTERN gen_pattern\n#define TP_GEN_WRITES gen_writes\n",
           "#define TP_GEN_ENTRIES gen_entries\n"]
    for name, arr in arrays.items():
        out.append(_array(name, arr))
    fields = [f".{k} = {v}" for k, v in sizes.items()] + [f".{k} = k_{k}" for k in arrays]
    out.append("static const tp_tables tp_k = {" + ", ".join(fields) + "};\n")

    out.append("static inline int gen_pattern(const int32_t *codes, int32_t a) {\n    switch (a) {\n")
    for a in range(napps):
        cs = checks(a)
        if cs:
            out.append(f"    case {a}: return {test(cs)};\n")
    out.append("    default: return 1;\n    }\n}\n")

    def value(k: int) -> str:
        """The C expression of write k's new value."""
        row = maps[wr_map[k]]
        if (row == row[0]).all():
            return str(int(row[0]))
        if (row == np.arange(nd)).all():
            return f"codes[{wr_src[k]}]"
        return f"k_maps[{wr_map[k] * nd}+codes[{wr_src[k]}]]"

    out.append("static inline int32_t gen_writes(int32_t *nv, const int32_t *codes, int32_t a) {\n    switch (a) {\n")
    for a in range(napps):
        parts = [f"nv[{i}]={value(k)};" for i, k in enumerate(range(wr_off[a], wr_off[a + 1]))]
        out.append(f"    case {a}: {''.join(parts)} return {wr_off[a + 1] - wr_off[a]};\n")
    out.append("    default: return 0;\n    }\n}\n")

    engine = (HERE / "engine.c").read_text()
    marker = '#include "engine.h"\n'
    head, sep, tail = engine.partition(marker)
    if not sep:
        raise AssertionError("engine.c lost its include of engine.h")
    src = [head, sep, "".join(out), tail]

    ent_off, ent_app = arrays["ent_off"].tolist(), arrays["ent_app"].tolist()
    found = None if isinstance(shape.quiet, str) else shape.quiet
    quiet = None if found is None else found[0]
    if found is not None:
        src.insert(2, "#define TP_GEN_PERFT gen_perft\n")
    other: dict[int, list[str]] = {}  # per entry row, the tests of its entry moves that are not quiet
    other_apps: dict[int, list[int]] = {}  # and those moves
    body = ["\nstatic int gen_entries(tp_engine *E, Walk *W, int32_t row) {\n",
            "    const int32_t *codes = W->b->codes;\n    int r;\n    (void)codes;\n    (void)r;\n    switch (row) {\n"]
    for ps in range(_sets(sizes)):
        for t in range(n):
            for c in range(nd):
                r = (ps * n + t) * nd + c
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
                    if a in conditioned:
                        cond = f"{cond} && app_conds_hold(E, W->b, {a})"
                    if quiet is not None and (a in quiet.get(r, ()) or a in shape.alike):
                        cond = f"!E->quiet_apart && {cond}"
                    else:
                        other.setdefault(r, []).append(cond)
                        other_apps.setdefault(r, []).append(a)
                    lines.append(f"        if ({cond}) {{ W->start = {app_tile[a]}; r = step(E, W, {a}, {app_tile[a]}, 0);"
                                 " if (r < 0) return r; }\n")
                if lines:
                    body.append(f"    case {r}:\n{''.join(lines)}        break;\n")
    body.append("    default: break;\n    }\n    return 0;\n}\n")
    src.append("".join(body))
    src.insert(2, _gen_other_scan(sizes, other))
    if found is not None and found[1] and not _settled(sizes, found):
        bits = _others_groups(sizes, other_apps, checks, extra)
        src.append(_gen_others_fit(sizes, other) if bits is None else _gen_others_bits(sizes, bits, masks))
        if bits is not None:  # the walk of the mandatory turns scans only the tiles some such move fits at
            src.insert(2, "#define TP_GEN_OTHER_MASK gen_others_mask\n"
                          "static inline uint64_t gen_others_mask(const uint64_t *bits, int32_t ps);\n")
    if found is not None:
        captured = {a for row in found[0].values() for a in row if extra[a]}
        most = max([_most_changes(arrays, sizes["n"], {a for row in found[0].values() for a in row})]
                   + [walk_most(w) for w in walks.values()])
        if captured:
            src.append(_gen_lines(sizes, arrays, captured, value, wr_off) + _GEN_CAPTURED)
    ends = {k: arrays[k].tolist() for k in ("end_kind", "end_check", "end_value", "end_pmask", "end_k", "end_line_off",
                                             "line_tiles", "end_exact", "app_need", "app_gc", "app_ray_off", "gc_lib",
                                             "gc_own", "gc_suicide", "nbr_off", "nbr", "app_tile", "masks", "end_after",
                                             "end_cond_off", "end_conds", "cond_kind", "cond_around", "cond_here",
                                             "cond_line", "cond_mask", "cond_tile_off", "cond_tiles", "cond_op",
                                             "cond_value", "cond_code_off", "cond_codes")}
    if found is not None and _settled(sizes, found):
        walker = Walks(sizes, arrays, masks, checks)
        kept = None if sizes["has_royal"] else _Distinct(arrays, masks, checks).kept
        src.append(_gen_settled_perft(sizes, found, checks, test, value, wr_off, arrays["wr_tile"].tolist(), ends,
                                      captured, most, walks, conditioned, walker, kept))
        if _others_last(shape, found[0]):
            src.insert(2, "#define TP_GEN_PLAYOUT gen_playout\n#define TP_GEN_PLAYOUT_ENDED gen_playout_ended\n")
            src.append(_gen_settled_playout(sizes, found[0], checks, test, value, wr_off, arrays["wr_tile"].tolist(),
                                            captured, most, walks, conditioned, walker, kept))
    elif found is not None:
        wr_tile = arrays["wr_tile"].tolist()
        walked = {a for _r, a in walks}
        counting, single = _placements(sizes, found[0], checks, value, wr_off, wr_tile, captured | walked | conditioned)
        placing = {q: g for q, g in counting.items() if q in single}
        if counting:
            src.append(_gen_place_mask(sizes, counting, single, masks))
        changes = _always_changes(sizes, arrays, found[0], captured, value)
        src.append(_gen_perft(sizes, found, checks, test, value, wr_off, wr_tile, ends, counting, captured, most,
                              changes, walks, conditioned))
        src.insert(2, "#define TP_GEN_PLAYOUT gen_playout\n#define TP_GEN_PLAYOUT_ENDED gen_playout_ended\n")
        fit = _lazy_fits(sizes, found[0], value, wr_off, wr_tile, captured, changes,
                         lambda a: _fit_only(sizes, ends, a, value, wr_off, wr_tile), walked,
                         conditioned)
        src.append(_gen_playout(sizes, found, checks, test, value, wr_off, wr_tile, placing, captured, most, walks,
                                conditioned, fit))
    return "".join(src)


def _gen_other_scan(sizes: dict[str, int], other: dict[int, list[str]]) -> str:
    """The C tables of what a node scans where the quiet moves run apart (engine.c's node_turns_in): per entry set,
    the codes and the tiles of its rows with an entry move that is not quiet (the quiet rows walk nothing then)."""
    n, nd = int(sizes["n"]), int(sizes["nd"])
    words = (n + 63) // 64
    off, codes, tiles = [0], [], []
    for ps in range(_sets(sizes)):
        rows = [divmod(r - ps * n * nd, nd) for r in other if ps * n * nd <= r < (ps + 1) * n * nd]
        codes += sorted({c for _t, c in rows})
        off.append(len(codes))
        bits = sum(1 << t for t in {t for t, _c in rows})
        tiles += [(bits >> (64 * w)) & (2 ** 64 - 1) for w in range(words)]
    return ("#define TP_GEN_OTHER_CODES k_other_codes\n#define TP_GEN_OTHER_CODE_OFF k_other_code_off\n"
            "#define TP_GEN_OTHER_TILES k_other_tiles\n"
            + _array("other_codes", np.asarray(codes, np.int32)) + _array("other_code_off", np.asarray(off, np.int32))
            + f"static const uint64_t k_other_tiles[{len(tiles)}] = {{{','.join(f'{v}ULL' for v in tiles)}}};\n")


def _most_changes(arrays: dict[str, np.ndarray], n: int, apps: set[int]) -> int:
    """The most tiles one of these moves changes: its writes, the tiles of its lines (a line capture) and every tile
    (a capture by liberties); at least 1."""
    wo, ro, rt, gc = (arrays[k].tolist() for k in ("wr_off", "app_ray_off", "ray_tile_off", "app_gc"))
    return max([wo[a + 1] - wo[a] + rt[ro[a + 1]] - rt[ro[a]] + (n if gc[a] >= 0 else 0) for a in apps] or [1])


_GEN_CAPTURED = """
/* The changes of quiet move a with a line capture or a capture by liberties, its pattern checks passed (the rest of
   fits read here): as step makes them, its writes, then the runs its lines take, then the groups without a liberty,
   the last value put on a tile kept and a tile left as it was dropped; (tile, new value) pairs into ch, their number,
   or -1 when it does not fit (too few runs; no capture and no liberty of its own where suicide is not allowed). */
static inline int32_t gen_keep(tp_engine *E, const int32_t *codes, uint32_t g, int32_t u, int32_t v, int32_t *ch,
                               int32_t m) {
    /* gen_captured's last value put on tile u (the changes are read from the last): kept where it is the first seen
       and differs from the tile's code; the number of changes after it */
    if (E->tstamp[u] == g) return m;
    E->tstamp[u] = g;
    if (v != codes[u]) ch[2 * m] = u, ch[2 * m + 1] = v, m++;
    return m;
}

static int32_t gen_captured(tp_engine *E, const int32_t *codes, int32_t a, int32_t *ch) {
    const tp_tables *T = TABLES(E);
    int32_t nw, ncap = 0, ngc = 0, m = 0, s = T->app_gc[a];
    if (T->app_ray_off[a + 1] > T->app_ray_off[a] && gen_lines(codes, a, ch ? E->capbuf : NULL, &ncap) < T->app_need[a])
        return -1;
    if (!ch) return s < 0 || T->gc_suicide[s] || group_fits(E, codes, a) ? 1 : -1; /* gen_fits */
    if (s >= 0) {
        int free = 0;
        ngc = group_captures(E, codes, a, E->gcbuf, T->gc_suicide[s] ? NULL : &free);
        if (!T->gc_suicide[s] && ngc == 0 && !free) return -1;
    }
    nw = TP_GEN_WRITES(E->nv, codes, a);
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)T->n);
    for (int32_t k = ngc - 1; k >= 0; k--) m = gen_keep(E, codes, g, E->gcbuf[k], T->gc_becomes[s], ch, m);
    for (int32_t k = ncap - 1; k >= 0; k--) m = gen_keep(E, codes, g, E->capbuf[2 * k], E->capbuf[2 * k + 1], ch, m);
    for (int32_t k = nw - 1; k >= 0; k--) m = gen_keep(E, codes, g, T->wr_tile[T->wr_off[a] + k], E->nv[k], ch, m);
    return m;
}

/* Whether quiet move a with captures fits, its pattern checks passed (gen_captured without its changes). */
static inline int gen_fits(tp_engine *E, const int32_t *codes, int32_t a) {
    return gen_captured(E, codes, a, NULL) > 0;
}
"""


_GEN_COUNTERS = """
/* Quiet move a as the key of one chain, as next_counters reads it: a's classes reset, and the piece on its start
   tile. */
static inline Key gen_key(const tp_engine *E, int32_t a) {
    const Key K = {.reset_or = TABLES(E)->app_reset[a], .reset_and = TABLES(E)->app_reset[a],
                   .start = TABLES(E)->app_tile[a]};
    return K;
}

/* next_counters after quiet move a. */
static inline int gen_counters(tp_engine *E, const Board *B, int32_t a, int32_t ply) {
    const Key K = gen_key(E, a);
    return next_counters(E, B, &K, ply);
}
"""


def _always_changes(sizes: dict[str, int], arrays: dict[str, np.ndarray], quiet: dict[int, list[int]],
                    captured: set[int], value: Callable[[int], str]) -> frozenset[int]:
    """The moves of ``captured`` that change a tile wherever they fit: on each entry row a constant other than the
    row's code written on their own tile, which none of their lines passes through and their capture by liberties
    cannot take (its foe's mask refuses that constant)."""
    nd = sizes["nd"]
    masks = arrays["masks"].reshape(-1, nd) if sizes["nmasks"] else np.zeros((0, nd), np.uint8)
    wo, wt, tile = (arrays[k].tolist() for k in ("wr_off", "wr_tile", "app_tile"))
    ro, rt, rays, gc = (arrays[k].tolist() for k in ("app_ray_off", "ray_tile_off", "ray_tiles", "app_gc"))
    foe = arrays["gc_foe"].tolist()
    out, spoilt = set(), set()
    for r, row in quiet.items():
        for a in row:
            if a not in captured:
                continue
            t = tile[a]
            own = [value(k) for k in range(wo[a], wo[a + 1]) if wt[k] == t]
            v = int(own[0]) if len(own) == 1 and own[0].isdigit() else -1
            if v < 0 or v == r % nd or any(t in rays[rt[x]:rt[x + 1]] for x in range(ro[a], ro[a + 1])) \
                    or (gc[a] >= 0 and masks[foe[gc[a]]][v]):
                spoilt.add(a)
            out.add(a)
    return frozenset(out - spoilt)


def _fit_only(sizes: dict[str, int], ends: dict[str, list[int]], a: int, value: Callable[[int], str],
              wr_off: list[int], wr_tile: list[int]) -> str:
    """The C of whether quiet move a with captures fits, its pattern checks passed: its lines' runs against its need
    (lines only); a liberty next to its tile or gen_fits (a capture by liberties only, suicide not allowed, the piece
    it puts of its own group: a liberty of its own is all it needs); else gen_fits."""
    gc = ends["app_gc"][a]
    if gc < 0:
        return f"gen_fit_{a}(codes)"
    if ends["app_ray_off"][a + 1] > ends["app_ray_off"][a] or ends["gc_suicide"][gc]:
        return f"gen_fits(E, codes, {a})"
    written: dict[int, str] = {}
    for k in range(wr_off[a], wr_off[a + 1]):
        written.setdefault(wr_tile[k], value(k))
    t, nd = ends["app_tile"][a], sizes["nd"]
    own = written.get(t, "")
    if not own.isdigit() or not ends["masks"][ends["gc_own"][gc] * nd + int(own)]:
        return f"gen_fits(E, codes, {a})"  # its own group does not start at its tile: a liberty there is none of its
    near = [_mask_at(ends["gc_lib"][gc] * nd, written, v) for v in ends["nbr"][ends["nbr_off"][t]:ends["nbr_off"][t + 1]]]
    return "(" + " || ".join([*near, f"gen_fits(E, codes, {a})"]) + ")"


def _mask_at(row: int, written: dict[int, str], u: int) -> str:
    """The C of mask row ``row`` (offset) read at tile u's code after a move's pattern (``written``: its new values)."""
    return f"k_masks[{row}+{written.get(u, f'codes[{u}]')}]"


def _gen_lines(sizes: dict[str, int], arrays: dict[str, np.ndarray], captured: set[int], value: Callable[[int], str],
               wr_off: list[int]) -> str:
    """gen_lines: engine.c's captures for the moves of ``captured`` with lines, each line unrolled over its constant
    tiles (a tile the move's pattern writes read as its new value), a run copied from the line's tiles and codes
    (counted only, its lines read up to the move's need, where the caller asks whether it fits: out NULL); and per
    such move gen_fit_A(codes), whether it fits, its runs counted inline the same way.  Cost: a mask read per tile
    of a line up to its first tile that is not the foe's."""
    nd = sizes["nd"]
    ro, rt, tiles, loop = (arrays[k].tolist() for k in ("app_ray_off", "ray_tile_off", "ray_tiles", "ray_loop"))
    over, until, wt, need = (arrays[k].tolist() for k in ("app_over", "app_until", "wr_tile", "app_need"))
    cases, fits = [], []
    for a in sorted(captured):
        if ro[a + 1] == ro[a]:
            continue
        written: dict[int, str] = {}
        for k in range(wr_off[a], wr_off[a + 1]):
            written.setdefault(wt[k], value(k))  # after_pattern: the first write of a tile
        orow, urow = over[a] * nd, until[a] * nd
        body, fit = [], []
        for r in range(ro[a], ro[a + 1]):
            t0, ln = rt[r], rt[r + 1] - rt[r]
            last = ln - 1 if loop[r] else ln
            steps, counts = [], []
            for j in range(last):
                u = tiles[t0 + j]
                run = f" if ({_mask_at(urow, written, u)}) {{ if (out) m = gen_run(out, m, {t0}, {j}); runs++; }}" if j else ""
                steps.append(f"if (!{_mask_at(orow, written, u)}) {{{run} break; }}")
                counts.append(f"if (!{_mask_at(orow, written, u)}) {{"
                              + (f" if ({_mask_at(urow, written, u)}) runs++;" if j else "") + " break; }")
            if 0 < last < ln:
                u = tiles[t0 + last]
                steps.append(f"if ({_mask_at(urow, written, u)}) {{ if (out) m = gen_run(out, m, {t0}, {last}); "
                             "runs++; }")
                counts.append(f"if ({_mask_at(urow, written, u)}) runs++;")
            body.append("        do { " + " ".join(steps) + " } while (0);\n")
            fit.append("    do { " + " ".join(counts) + f" }} while (0);\n    if (runs >= {need[a]}) return 1;\n")
            if r < ro[a + 1] - 1:
                body.append(f"        if (!out && runs >= {need[a]}) break;\n")
        cases.append(f"    case {a}:\n{''.join(body)}        break;\n")
        fits.append(f"static inline int gen_fit_{a}(const int32_t *codes) {{\n    int32_t runs = 0;\n{''.join(fit)}"
                    "    return 0;\n}\n")
    return """
/* The run of a line: its first len tiles (line tiles from off) with the codes they take, into out from pair m. */
static inline int32_t gen_run(int32_t *out, int32_t m, int32_t off, int32_t len) {
    for (int32_t k = 0; k < len; k++) {
        out[2 * (m + k)] = k_ray_tiles[off + k];
        out[2 * (m + k) + 1] = k_ray_code[off + k];
    }
    return m + len;
}

/* captures(T, codes, a, out, nout) for a quiet move with lines (generated): the runs, their (tile, code) pairs;
   with out NULL only whether it fits: the runs counted, none copied, stopping once they reach the move's need. */
static int32_t gen_lines(const int32_t *codes, int32_t a, int32_t *out, int32_t *nout) {
    int32_t runs = 0, m = 0;
    switch (a) {
""" + "".join(cases) + """    default: break;
    }
    *nout = m;
    return runs;
}

/* Whether quiet move a with lines fits, its pattern checks passed (gen_lines counting its runs, inline). */
""" + "".join(fits)


def _others_groups(sizes: dict[str, int], other_apps: dict[int, list[int]], checks: Callable[[int], list[tuple[int, int]]],
                   extra: list[int]) -> dict[int, Groups] | None:
    """The entry moves that are not quiet, per player in groups of one code and the same checks (mask row, offset
    from the entry tile): the group's tiles; None where a move reads more than its pattern (line captures, captures
    by liberties), the board has more than one word of tiles or a player more than :data:`MAX_GROUPS` groups."""
    n, nd = sizes["n"], sizes["nd"]
    if n > 64:
        return None
    out: dict[int, Groups] = {}
    for r, apps in other_apps.items():
        q, t, c = r // (n * nd), (r // nd) % n, r % nd
        groups = out.setdefault(q, {})
        for a in apps:
            if extra[a]:
                return None
            tiles = groups.setdefault((c, tuple(sorted((m, u - t) for u, m in checks(a) if u != t))), [])
            if t not in tiles:
                tiles.append(t)
        if len(groups) > MAX_GROUPS:
            return None
    return out


def _gen_others_bits(sizes: dict[str, int], groups: dict[int, Groups], masks: np.ndarray) -> str:
    """gen_others_fit (as :func:`_gen_others_fit`) over bit sets, and gen_others_mask, the tiles it finds (the only
    ones node_turns_in's walk then starts from): some group's tiles holding its code where each check's mask accepts
    the tile at its offset.  Cost: a few instructions a group."""
    nd = sizes["nd"]

    def accepts(m: int) -> str:
        return "(" + (" | ".join(f"bits[{c}]" for c in range(nd) if masks[m][c]) or "0") + ")"

    cases = []
    for q, by in sorted(groups.items()):
        merged: dict[tuple[tuple[tuple[int, int], ...], int], list[int]] = {}
        for (c, offsets), tiles in sorted(by.items()):
            merged.setdefault((offsets, sum(1 << t for t in tiles)), []).append(c)
        terms = []
        for (offsets, mask), codes in merged.items():
            term = ["(" + " | ".join(f"bits[{c}]" for c in codes) + ")", f"{mask}ULL"]
            term += [f"({accepts(m)} >> {d})" if d > 0 else f"({accepts(m)} << {-d})" for m, d in offsets]
            terms.append("(" + " & ".join(term) + ")")
        cases.append(f"    case {q}: return {' | '.join(terms) or '0'};\n")
    return """
/* The tiles where some entry move of entry set ps that is not quiet fits (its checks; one word of tiles). */
static inline uint64_t gen_others_mask(const uint64_t *bits, int32_t ps) {
    switch (ps) {
""" + "".join(cases) + """    default: return 0;
    }
}

static int gen_others_fit(tp_engine *E, const Board *B, int32_t ps) {
    (void)E;
    return gen_others_mask(B->bits, ps) != 0;
}
"""


def _gen_others_fit(sizes: dict[str, int], other: dict[int, list[str]]) -> str:
    """gen_others_fit(E, B, ps): 1 when some entry move of entry set ps (:func:`_sets`) that is not quiet fits (its
    pattern; a chain of the walk starts from one), 0 when none does and the walk for the mandatory turns may be
    skipped.  Cost: a switch per tile holding a code such a move starts from."""
    n, nd = sizes["n"], sizes["nd"]
    words = (n + 63) // 64
    codes_of = [sorted({r % nd for r in other if r // (n * nd) == q}) for q in range(_sets(sizes))]
    out = ["""
static int gen_others_fit(tp_engine *E, const Board *B, int32_t ps) {
    const int32_t *codes = B->codes;
    (void)E;
""" + _scan_codes(codes_of, words, n, nd)]
    for r, conds in sorted(other.items()):
        out.append(f"            case {r}: if ({' || '.join(f'({c})' for c in conds)}) return 1; break;\n")
    out.append("""            default: break;
            }
        }
    }
    return 0;
}
""")
    return "".join(out)


def _quiet_moves(f: dict[str, int], arrays: dict[str, np.ndarray], masks: np.ndarray,
                 checks: Callable[[int], list[tuple[int, int]]],
                 walks: dict[tuple[int, int], Step] | None = None,
                 alike: set[int] | None = None) -> tuple[dict[int, list[int]], bool] | str:
    """The quiet moves of each entry row and whether other entry moves exist, where the rule set proves perft may
    count them without keys (else what stops it).

    A quiet move is an entry move that is a whole turn (no links, safe cells; each tile written once; a line capture
    or a capture by liberties, read where it fits, only on a move without conditions) and not of a mandatory class.
    A turn's key is (start, end, its changes after the turn clean-ups), so the quiet moves need no de-duplication
    when the rule set keys by start and end and any two turns of an entry row (quiet moves, chains of unrolled walks,
    other entry moves without links) that end on one tile cannot both fit or put different constants on a tile no
    clean-up rewrites (:class:`_Distinct`: promotions, one per piece); two quiet moves that check and write alike
    are one turn, listed once.  The royal rule filters turns, it does not merge them: the generated perft tests
    each turn as the interpreter's walk does (the node's memos, else the move made and the mover's royal tiles
    tested).  The other entry moves are walked with keys: in a rule set with a mandatory class they must all be of
    it (their turns then leave out every quiet one whenever there is one); else they need no links (castling: safe
    cells).  Passing when stuck needs none of it: a node where no turn was found passes as the interpreter's
    does."""
    if int(f["keyed_by_changes"]):
        why = "this rule set places several pieces a turn (turns keyed by changes)"
        moves = _quiet_rows(f, arrays, masks, checks, walks, alike)
        return "; ".join([why] + ([moves] if isinstance(moves, str) else []))
    return _quiet_rows(f, arrays, masks, checks, walks, alike)


def _quiet_rows(f: dict[str, int], arrays: dict[str, np.ndarray], masks: np.ndarray,
                checks: Callable[[int], list[tuple[int, int]]],
                walks: dict[tuple[int, int], Step] | None = None,
                alike: set[int] | None = None) -> tuple[dict[int, list[int]], bool] | str:
    """:func:`_quiet_moves`' reading of the entry rows: their quiet moves (one of each set of moves alike), or the first
    move that stops it.  An entry move with links is quiet where its walk unrolls (:func:`walk_tree`, put in
    ``walks`` by (row, move)) and the row's turns, its quiet moves', its walks' chains' and its other moves', are
    proved distinct: two that end on the same tile cannot both fit or change a tile to different codes that no
    clean-up rewrites (on a wrapped board two slides from one tile may reach the same end: one turn, which needs
    keys)."""
    n, nd = int(f["n"]), int(f["nd"])
    lo, so, ro, gc, co = (arrays[k].tolist() for k in ("lnk_off", "safe_off", "app_ray_off", "app_gc", "app_cond_off"))
    wo, wt, flag = arrays["wr_off"].tolist(), arrays["wr_tile"].tolist(), arrays["app_flag"].tolist()
    slide, to, tile = arrays["app_slide"].tolist(), arrays["app_to"].tolist(), arrays["app_tile"].tolist()
    ent_off, ent_app = arrays["ent_off"].tolist(), arrays["ent_app"].tolist()
    mandatory = bool(int(f["has_mandatory"]))
    walker = Walks(f, arrays, masks, checks)
    walks = {} if walks is None else walks
    distinct = _Distinct(arrays, masks, checks)
    out: dict[int, list[int]] = {}
    others = False
    for r in range(_sets(f) * n * nd):
        c = r % nd
        chains: list[Turn] = []  # the row's turns, quiet moves' and walks'
        keyed: list[Turn] = []  # its other entry moves' turns (a rule set without a mandatory class: walked with keys)
        ends: dict[int, list[int]] = {}  # its quiet moves by end
        row: list[int] = []
        for a in ent_app[ent_off[r]:ent_off[r + 1]]:
            if any(u == tile[a] and not masks[m][c] for u, m in checks(a)):
                continue  # never fits on this row
            if slide[a] >= 0 and to[a] == tile[a]:
                continue  # a slide onto its own start: never a turn
            whole = (lo[a + 1] == lo[a] and so[a + 1] == so[a] and len(set(wt[wo[a]:wo[a + 1]])) == wo[a + 1] - wo[a]
                     and ((ro[a + 1] == ro[a] and gc[a] < 0) or co[a + 1] == co[a]))
            end = to[a] if to[a] >= 0 else tile[a]
            if whole and not (mandatory and flag[a]):
                if any(distinct.same(a, b) for b in ends.get(end, [])):
                    if alike is not None:
                        alike.add(a)  # left out of the walk beside the quiet moves too (gen_entries)
                    continue  # another move of the row with the same checks and writes: the one turn, listed once
                ends.setdefault(end, []).append(a)
                chains.append(_turn(walker, checks, masks, a, end, c))
                row.append(a)
            elif lo[a + 1] > lo[a] and not (mandatory and flag[a]):
                walk = walk_tree(walker, r, a, chains)
                if isinstance(walk, str):
                    return (f"entry move {a} from tile {tile[a]} is neither a whole turn nor of a mandatory class, and "
                            f"its walk (a slide, a chain of moves) does not unroll: {walk}")
                if walk is not None:
                    walks[r, a] = walk
                    row.append(a)
            elif not (mandatory and flag[a]):
                taking = co[a + 1] > co[a] and (ro[a + 1] > ro[a] or gc[a] >= 0)
                if mandatory:
                    what = ("safe cells" if so[a + 1] > so[a] else "a capture and conditions" if taking
                            else "a tile written twice")
                    return (f"entry move {a} from tile {tile[a]} is neither a whole turn nor of a mandatory class (it "
                            f"has {what})")
                keyed.append(_turn(walker, checks, masks, a, end, c))
                others = True
            else:
                others = True
        end = clash(walker, chains, (r // nd) % n, c)
        if end < 0 and (distinct.rewrite or keyed):  # turn clean-ups may rewrite a tile that tells two turns apart
            if any(x.cont >= 0 for x in chains):
                return (f"a walk from tile {(r // nd) % n} calls a shared continuation, and this rule set has turn "
                        "clean-ups or moves walked with keys beside it (they are settled per chain)")
            for i, x in enumerate(chains + keyed):
                for y in chains[:i]:
                    if x.end == y.end and not apart(x.need, y.need) and not distinct.unlike(x.new, y.new):
                        end = x.end
        if end >= 0:
            return (f"two turns from tile {(r // nd) % n} end on tile {end} and may both fit with the same changes "
                    "(one turn twice: two slides of a wrapped board may reach one tile)")
        out[r] = row
    if (int(f["has_royal"]) or int(f["ngroups"]) or (others and not mandatory)) \
            and any(calls_shared(w) for w in walks.values()):
        return ("a walk calls a shared continuation, and this rule set's turns are settled per chain (a royal rule, "
                "turn clean-ups or moves walked with keys beside the walks)")
    return out, others


def _sets(sizes: dict[str, int]) -> int:
    """The entry sets of the tables: the regular play's, one per player, then each phase's (entry set ``(phase + 1)
    * np + player``, phase -1 the regular play, as engine.c's node_turns_in reads the rows)."""
    return (int(sizes["nphases"]) + 1) * int(sizes["np"])


def _turn(walker: Walks, checks: Callable[[int], list[tuple[int, int]]], masks: np.ndarray, a: int, end: int,
          c: int) -> Turn:
    """Entry move a's turn (a whole turn from its tile holding code c) for the proof that a row's turns are distinct:
    its end, node checks and new values."""
    need: Need = {}
    for u, m in checks(a):
        need[u] = need[u] & masks[m] if u in need else masks[m].astype(bool)
    return Turn(end, need, new_values(walker, a, walker.tile[a], c, {}))


class _Distinct:
    """What tells two turns of one row that end on one tile apart where the rule set has turn clean-ups (a turn's key
    is its changes after them), and which quiet moves are one turn (the same checks and writes)."""

    def __init__(self, arrays: dict[str, np.ndarray], masks: np.ndarray,
                 checks: Callable[[int], list[tuple[int, int]]]) -> None:
        self.masks, self.checks = masks, checks
        self.wo, self.wt, self.wm, self.ws = (arrays[k].tolist() for k in ("wr_off", "wr_tile", "wr_map", "wr_src"))
        co, ct, cm = (arrays[k].tolist() for k in ("chk_off", "chk_tile", "chk_mask"))
        ro, gc = arrays["app_ray_off"].tolist(), arrays["app_gc"].tolist()
        self.plain = [ro[a + 1] == ro[a] and gc[a] < 0 for a in range(len(gc))]  # no line capture, no liberties
        self.rewrite: dict[int, list[list[int]]] = {}  # per tile, each clean-up writing it: its mask rows there
        for g in sorted(set(arrays["grp_app"].tolist())):
            for k in range(self.wo[g], self.wo[g + 1]):
                u = self.wt[k]
                self.rewrite.setdefault(u, []).append([cm[j] for j in range(co[g], co[g + 1]) if ct[j] == u])

    def same(self, a: int, b: int) -> bool:
        """Whether a and b check and write alike (chess's promotion on the last rank by two rules): one turn."""
        def writes(x: int) -> list[tuple[int, int, int]]:
            return [(self.wt[k], self.ws[k], self.wm[k]) for k in range(self.wo[x], self.wo[x + 1])]
        return (writes(a) == writes(b) and sorted(self.checks(a)) == sorted(self.checks(b))
                and self.plain[a] and self.plain[b])

    def kept(self, u: int, v: int) -> bool:
        """Whether tile u, given code v by a turn, keeps it through the turn clean-ups: each clean-up writing u checks
        u with a mask refusing v (so none fires there, and a change to v stays a change)."""
        return all(any(not self.masks[m][v] for m in rows) for rows in self.rewrite.get(u, []))

    def unlike(self, x: dict[int, str], y: dict[int, str]) -> bool:
        """Whether two turns' new values (:func:`new_values`) differ wherever both fit: some tile both put different
        constants on that no turn clean-up rewrites from either (each clean-up writing it checks it
        with a mask refusing both), so that their changes after the clean-ups differ."""
        for u, v in x.items():
            w = y.get(u)
            if w is None or not (v.isdigit() and w.isdigit() and v != w):
                continue
            if all(any(not self.masks[m][int(v)] and not self.masks[m][int(w)] for m in rows)
                   for rows in self.rewrite.get(u, [])):
                return True
        return False


def _gen_ended(sizes: dict[str, int], ends: dict[str, list[int]]) -> str:
    """gen_ended(codes, ply, chg, nchg): engine.c's ``ended`` after a turn whose changes are chg, for strict end rules
    of plies, of lines (each line through a changed tile read with its tiles as constants) and of counts over regions
    (each count a sum over its tiles as constants) or over the board (the position's counts of constant codes);
    another end rule: ``ended`` itself."""
    nd, np_ = sizes["nd"], sizes["np"]
    body: list[str] = []
    fallback = "#define gen_ended(codes, ply, chg, nchg) ended(E, B, p, ply, chg, nchg)\n"
    for e in range(sizes["nends"]):
        kind, check = ends["end_kind"][e], ends["end_check"][e]
        if check >= 0 or kind not in (1, 2, 3) or (kind == 2 and ends["end_exact"][e]) \
                or (sizes["nphases"] and ends["end_after"][e]):
            return fallback
        if kind == 1:
            body.append(f"    if (ply >= {ends['end_value'][e]}) return 1;\n")
            continue
        if kind == 3:
            counts = _gen_counts_end(sizes, ends, e)
            if counts is None:
                return fallback
            body.append(counts)
            continue
        k, off, tiles = ends["end_k"][e], ends["end_line_off"], ends["line_tiles"]
        through: dict[int, list[list[int]]] = {}
        for line_start in range(off[e], off[e + 1], k):
            line = tiles[line_start:line_start + k]
            for u in line:
                through.setdefault(u, []).append(line)
        for q in range(np_):
            m = ends["end_pmask"][e * np_ + q]
            if m < 0:
                continue
            cases = []
            for u, lines in sorted(through.items()):
                tests = " || ".join("(" + (" && ".join(f"k_masks[{m * nd}+codes[{v}]]" for v in line if v != u) or "1")
                                    + ")" for line in lines)
                cases.append(f"        case {u}: if (k_masks[{m * nd}+codes[{u}]] && ({tests})) return 1; break;\n")
            body.append("    for (int32_t c = 0; c < nchg; c++) {\n        switch (chg[2 * c]) {\n" + "".join(cases)
                        + "        default: break;\n        }\n    }\n")
    return ("static inline int gen_ended_at(const Board *B, const int32_t *codes, int32_t ply, const int32_t *chg,\n"
            "                               int32_t nchg) {\n"
            "    (void)B; (void)codes; (void)ply; (void)chg; (void)nchg;\n" + "".join(body) + "    return 0;\n}\n"
            "#define gen_ended(codes, ply, chg, nchg) gen_ended_at(B, codes, ply, chg, nchg)\n")


def _gen_counts_end(sizes: dict[str, int], ends: dict[str, list[int]], e: int) -> str | None:
    """End rule e of counts (engine.c's END_COUNT: for a player it applies to, all its conditions hold) as C over
    constant tiles or codes; None where a condition is neither a count of a mask over a region nor of codes over the
    board (the tiles around or in line with a move, a disjunction: ``ended`` reads those)."""
    nd, np_ = sizes["nd"], sizes["np"]
    out = []
    for q in range(np_):
        i = e * np_ + q
        if not ends["end_pmask"][i]:
            continue
        terms = []
        for c in ends["end_conds"][ends["end_cond_off"][i]:ends["end_cond_off"][i + 1]]:
            if ends["cond_kind"][c] not in (0, 1) or ends["cond_around"][c] or ends["cond_here"][c] \
                    or ends["cond_line"][c]:
                return None
            if ends["cond_kind"][c] == 0:  # COND_BOARD: the position's counts of its codes
                total = " + ".join(f"B->count[{k}]" for k in
                                   ends["cond_codes"][ends["cond_code_off"][c]:ends["cond_code_off"][c + 1]]) or "0"
            else:  # COND_REGION: its mask over its tiles
                m = ends["cond_mask"][c] * nd
                tiles = ends["cond_tiles"][ends["cond_tile_off"][c]:ends["cond_tile_off"][c + 1]]
                total = " + ".join(f"k_masks[{m}+codes[{t}]]" for t in tiles) or "0"
            terms.append(f"compare({total}, {ends['cond_op'][c]}, {ends['cond_value'][c]})")
        out.append(f"    if ({' && '.join(terms) or '1'}) return 1;\n")
    return "".join(out)


def _settled(sizes: dict[str, int], found: tuple[dict[int, list[int]], bool]) -> bool:
    """Whether the generated perft settles each quiet move as the walk would (:func:`_gen_settled_perft`): a royal
    rule, turn clean-ups, or other entry moves walked beside the quiet ones (no mandatory class)."""
    return bool(sizes["has_royal"] or sizes["ngroups"] or (found[1] and not sizes["has_mandatory"]))


_GEN_SETTLE = """
/* A quiet move of p (its changes ch: tile, new value, each a change; nc of them) settled as the walk's finish settles
   a turn, at a node whose memos node_turns made: its changes into E->tmp (tile, new, old) sorted by tile, the turn
   clean-ups' net writes merged where the node's memo answers (step_leaf's test), else run on the board with the move
   written; then the royal test (leaf_safe).  The number of the turn's changes, 0 when it is no turn (nothing
   changed, or the mover's royal piece attacked), < 0 an error. */
static __thread int gen_royal_later; /* a playout's listing: the royal test left to the turn drawn (gen_playout) */

static __attribute__((noinline)) int32_t gen_settle(tp_engine *E, Board *B, int32_t p, const int32_t *ch,
                                                    int32_t nc) {
    const tp_tables *T = TABLES(E);
    for (int32_t c = 0; c < nc; c++) {
        int32_t u = ch[2 * c];
        int32_t *x = E->tmp + 3 * c;
        int32_t i = c;
        for (; i > 0 && x[-3] > u; i--, x -= 3) memcpy(x, x - 3, 3 * sizeof *x);
        x[0] = u;
        x[1] = ch[2 * c + 1];
        x[2] = B->codes[u];
    }
    if (T->grp_off[p + 1] > T->grp_off[p]) {
        if (memo_merge(E, nc)) { /* the clean-ups' net writes merged, as step_leaf merges them */
            nc += E->cn_len;
        } else { /* as finish: the clean-ups run on the board with the move written (or a run alike, memo_turn) */
            nc = memo_turn(E, B, p, nc);
            if (nc < 0) return nc;
        }
    }
    if (nc == 0) return 0;
    if (gen_royal_later) return nc;
    Walk W = {B, p, WALK_TURNS, E->path_top, E->undo_top, E->seq_top, -1, NULL, NULL, 0};
    int r = leaf_safe(E, &W, nc);
    return r < 0 ? r : r ? nc : 0;
}

/* A leaf turn of a perft that makes every leaf (--no-bulk) at a settled node, as quiet_leaf makes one: its nc
   changes x (tile, new value, old value; each tile once, as gen_settle leaves them in E->tmp) written on the board's
   codes and taken back (the piece counts, tile sets and hash left as they are: nothing reads them at the last ply;
   a compiler barrier between, the position's codes in memory as made). */
static inline void gen_leaf_made(Board *B, const int32_t *x, int32_t nc) {
    int32_t *codes = B->codes;
    for (int32_t c = 0; c < nc; c++) codes[x[3 * c]] = x[3 * c + 1];
    __asm__ __volatile__("" ::: "memory");
    for (int32_t c = 0; c < nc; c++) codes[x[3 * c]] = x[3 * c + 2];
}

/* gen_settle's turn counted (a bulk count's last ply), made where it is settled (the last ply of a perft that makes
   its leaves: gen_leaf_made) or listed after the node's keys in E->chg as [nc, 0] and its nc (tile, new value)
   pairs; *listed += 1 for each turn (1 where a listing reaches *listed == 0: gen_pick's turn, else 0 or < 0 an
   error).  On a bulk count's last ply, a move that touches nothing the node's memos read is counted as leaf_plan
   says, not settled.  Called, not inlined, from each of the thousands of quiet moves and
   chains (inlined: a third more of gcc's time for no speed). */
static __attribute__((noinline)) int gen_quiet_turn(tp_engine *E, Board *B, int32_t p, int32_t depth,
                                                    const int32_t *ch, int32_t nc, int64_t *listed) {
    if (depth == 1 && E->lq >= 0 && quiet_as_node(E, B, p, ch, nc)) { /* E->lq >= 0: a bulk count's last ply */
        *listed += E->lq;
        return 0;
    }
    int32_t m = gen_settle(E, B, p, ch, nc);
    if (m <= 0) return m;
    (*listed)++;
    if (depth == 1) {
        if (E->make_leaves) gen_leaf_made(B, E->tmp, m); /* E->tmp: the turn as gen_settle left it */
        return 0;
    }
    if (E->nchg + m + 1 > E->chg_cap) return TP_ERR_CAP;
    int32_t *o = E->chg + 2 * (size_t)E->nchg;
    o[0] = m;
    o[1] = 0;
    for (int32_t c = 0; c < m; c++) {
        o[2 + 2 * c] = E->tmp[3 * c];
        o[3 + 2 * c] = E->tmp[3 * c + 1];
    }
    E->nchg += m + 1;
    return *listed == 0; /* 1: the turn gen_pick seeks, as gen_listed_raw */
}
"""


def _gen_settled_perft(sizes: dict[str, int], found: tuple[dict[int, list[int]], bool],
                       checks: Callable[[int], list[tuple[int, int]]], test: Callable[[list[tuple[int, int]]], str],
                       value: Callable[[int], str], wr_off: list[int], wr_tile: list[int], ends: dict[str, list[int]],
                       captured: set[int], maxw: int, walks: dict[tuple[int, int], Step],
                       conditioned: frozenset[int], walker: Walks, kept: Callable[[int, int], bool] | None) -> str:
    """gen_perft for a rule set with a royal rule, turn clean-ups or other entry moves beside the quiet ones: the
    walk (node_turns, the quiet moves and unrolled walks left out) makes the node's memos and keys the other moves;
    each quiet move that fits, and each chain of an unrolled walk (:func:`walk_functions`, settled), is settled
    (gen_settle: clean-ups, royal test) and counted, or listed and made below, without a key.  The quiet moves (as
    walks of one move) and the walks are a program of ints a generic loop runs (:func:`_programs`, gen_run), not
    code per tile: chess's 8x8 C is a few megabytes of tables, not ten of switches.  Without a royal rule, a turn
    with a change no clean-up undoes (``kept``: :meth:`_Distinct.kept`) is counted on the last ply of a bulk count
    unsettled."""
    n, nd, np_ = sizes["n"], sizes["nd"], sizes["np"]
    quiet, _ = found
    mandatory = bool(sizes["has_mandatory"])
    words = (n + 63) // 64
    steps: dict[int, list[Step]] = {}
    prog, off, held, deepest = _programs(sizes, walker, quiet, walks, captured, conditioned, kept, steps)
    cprog, coff, calt = _count_program(sizes, steps, ends["masks"], kept)
    rest = {r: [a for a in row if (r, a) not in held] for r, row in quiet.items()}
    cases = _quiet_cases(sizes, rest, checks, test, value, wr_off, wr_tile,
                         " if (nc && (r = gen_quiet_turn(E, B, p, depth, ch, nc, listed)) < 0) return r;", "ch",
                         captured, walks=walks, conditioned=conditioned,
                         walk_call="if ((r = gen_walk_{name}(E, B, p, ply, depth, listed, &moves)) < 0) return r;")
    out = [_gen_ended(sizes, ends), _GEN_SETTLE,
           f"#define GEN_DEPTH {deepest}\n#define GEN_MAXW {maxw}\n#define GEN_N {n}\n#define GEN_ND {nd}\n"
           f"#define GEN_WORDS {words}\n#define GEN_SURE {int(kept is not None)} /* 0: no move is sure */\n",
           _array("qprog", np.asarray(prog, np.int32)), _array("qoff", np.asarray(off, np.int32)), _GEN_RUN,
           _array("cprog", np.asarray(cprog, np.int32)), _array("coff", np.asarray(coff, np.int32)),
           _array("calt", np.asarray(calt, np.int32)), _GEN_COUNT,
           walk_functions({k: w for k, w in walks.items() if k not in held}, maxw, conditioned, False, settled=True),
           """
/* The quiet moves and walks' chains of p that fit, settled, counted into *listed (and listed in E->chg unless
   counted only): the program (gen_count on a bulk count's last ply, else each row's: gen_run), then the moves it
   does not hold. */
static int gen_quiet(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, int64_t *listed) {
    const int32_t *codes = B->codes;
    int32_t ch[""" + str(2 * maxw) + """], nc, v, r;
    int64_t moves = 0;
    const int quick = depth == 1 && E->lq >= 0 && !E->make_leaves; /* a bulk count's last ply: gen_count */
    if (quick && (r = gen_count(E, B, p, listed)) < 0) return r;
""" + ("    if (quick) return 0; /* no move beside the program's */\n" if not cases.strip() else "")
           + """    for (size_t w = 0; w < """ + str(words) + """; w++) {
        uint64_t m = 0;
        for (int32_t k = E->ent_code_off[p]; k < E->ent_code_off[p + 1]; k++) m |= B->bits[(size_t)E->ent_codes[k] * """
           + str(words) + """ + w];
        for (; m; m &= m - 1) {
            int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
            int32_t row = (p * """ + str(n) + """ + t) * """ + str(nd) + """ + codes[t];
            if (!quick && k_qoff[row + 1] > k_qoff[row] && (r = gen_run(E, B, p, depth, listed, k_qprog + k_qoff[row],
                                                                       k_qprog + k_qoff[row + 1])) < 0) {
                return r;
            }
            switch (row) {
"""]
    out.append(cases)
    out.append("""            default: break;
            }
        }
    }
    (void)v;
    (void)r;
    (void)moves;
    (void)ply;
    return 0;
}

static int64_t gen_perft(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *last,
                         int32_t nlast) {
    int r = last ? gen_ended(B->codes, ply, last, nlast) : ended(E, B, p, ply, last, nlast);
    if (r) return r < 0 ? r : 0;
    int32_t k0 = E->nkeys, c0 = E->nchg;
    E->quiet_apart = 1;
    int64_t legal = node_turns(E, B, p); /* the node's memos; the other moves' turns as keys */
    E->quiet_apart = 0;
    E->lq = -1;
    if (legal >= 0 && depth == 1 && !E->make_leaves) leaf_plan(E, p); /* the quiet moves counted from the memos */
    int64_t nq = 0, total = 0;
    int32_t k1 = E->nkeys, q0 = E->nchg;
    if (legal >= 0 && """ + ("legal == 0" if mandatory else "1") + """) {
        r = gen_quiet(E, B, p, ply, depth, &nq);
        if (r < 0) legal = r;
    }
    int32_t q1 = E->nchg;
    if (legal < 0) {
        total = legal;
    } else if (depth == 1 && !E->make_leaves) {
        total = legal + nq;
    } else {
        if (depth == 1) total = nq; /* made where gen_quiet_turn settled them, none listed */
        for (int32_t k = k0; k < k1 && total >= 0; k++) {
            if (!E->keys[k].legal) continue;
            int32_t mark = E->undo_top;
            const Key *K = &E->keys[k];
            if (depth == 1) { /* a made leaf: on the codes only, as gen_quiet_turn makes the quiet ones */
                for (int32_t c = 0; c < K->len; c++) {
                    int32_t u = E->chg[2 * (size_t)(K->off + c)];
                    E->tmp[3 * c] = u;
                    E->tmp[3 * c + 1] = E->chg[2 * (size_t)(K->off + c) + 1];
                    E->tmp[3 * c + 2] = B->codes[u];
                }
                gen_leaf_made(B, E->tmp, K->len);
                total++;
                continue;
            }
            int64_t sub = apply_key(E, B, K);
            if (sub == 0) sub = depth == 1 ? 1 : perft(E, B, (p + 1) % """ + str(np_) + """, ply + 1, depth - 1,
                                                       E->chg + 2 * (size_t)K->off, K->len);
            restore(E, B, mark);
            total = sub < 0 ? sub : total + sub;
        }
        for (int32_t o = q0; o < q1 && total >= 0; o += E->chg[2 * (size_t)o] + 1) {
            int32_t m = E->chg[2 * (size_t)o], mark = E->undo_top;
            const int32_t *x = E->chg + 2 * (size_t)(o + 1);
            if (E->undo_top + m > E->undo_cap) {
                total = TP_ERR_CAP;
                break;
            }
            for (int32_t c = 0; c < m; c++) put(E, B, x[2 * c], x[2 * c + 1]);
            int64_t sub = depth == 1 ? 1 : perft(E, B, (p + 1) % """ + str(np_) + """, ply + 1, depth - 1, x, m);
            restore(E, B, mark);
            total = sub < 0 ? sub : total + sub;
        }
    }
    if (total == 0 && legal == 0 && nq == 0 && TABLES(E)->passing) total = pass_turn(E, B, p, ply, depth, k0, c0);
    E->nkeys = k0;
    E->nchg = c0;
    return total;
}
""")
    return "".join(out)


_TEST = re.compile(r"k_masks\[(\d+)\+codes\[(\d+)\]\]")
_VALUE = re.compile(r"(!?)(\d+)")


def _tests(s: Step) -> list[int] | None:
    """A move's checks as (mask offset, tile) pairs, flat, or None where some check is not a mask over a node's
    code."""
    tests: list[int] = []
    if s.test != "1":
        for term in s.test.split(" && "):
            m = _TEST.fullmatch(term)
            if m is None:
                return None
            tests += [int(m.group(1)), int(m.group(2))]
    return tests


def _changes(s: Step, kept: Callable[[int, int], bool] | None) -> tuple[int, list[int]] | None:
    """A move's sure flag and changes as (tile, value, compared) triples, flat (see :func:`_program`), or None where
    some new value is not a constant."""
    changes: list[int] = []
    sure = 0
    for u, v in s.changes:
        m = _VALUE.fullmatch(v)
        if m is None:
            return None
        changes += [u, int(m.group(2)), int(bool(m.group(1)))]
        sure |= int(kept is not None and not m.group(1) and kept(u, int(m.group(2))))
    return sure, changes


def _program(s: Step, conditioned: frozenset[int], kept: Callable[[int, int], bool] | None) -> list[int] | None:
    """A walk (:func:`walk_tree`) as gen_run's program, or None where some check or new value is not a mask over a
    node's code or a constant (the walk's C function then runs it).  A move is ``[size, sure, nt, (mask offset,
    tile) * nt, nc, (tile, value, compared) * nc, its follow-ups' moves...]`` (size: of the move and its follow-ups;
    compared: a change only where the node's code differs; sure: 1 where its turn is a turn whatever the clean-ups
    do, a change ``kept`` says no clean-up undoes: counted on the last ply without settling; None: never, a royal
    rule), in the walk's order."""
    tests = _tests(s)
    got = _changes(s, kept)
    if tests is None or got is None or s.app in conditioned:
        return None
    sure, changes = got
    kids: list[int] = []
    for x in s.then:
        sub = _program(x, conditioned, kept) if isinstance(x, Step) else None  # a shared continuation's call: none
        if sub is None:
            return None
        kids += sub
    body = [sure, len(tests) // 2, *tests, len(changes) // 3, *changes, *kids]
    return [len(body) + 1, *body]


def _count_items(steps: list[Step], nd: int, masks: list[int], kept: Callable[[int, int], bool] | None,
                 combos: dict[tuple[tuple[int, ...], ...], int], t: int, code: int) -> list[int]:
    """Moves of one level of walks (each one :func:`_program` takes) as gen_count's items, in any order.  Each move is
    keyed by one of its checks (a tile and the codes its mask accepts; of a move of several checks, one another move
    of the level is keyed by already where there is one, else its first in :func:`_likely_last`'s order); the moves
    of one key are a class, read together; on one tile, classes whose codes are disjoint are one group, its tile read
    once: ``[size, 1, tile, k_calt offset, k, (class offset from the item) * k, classes...]`` (``combos``: each group's
    classes' codes, in order, to its offset in k_calt, whose entry per code is the 1-based class that takes it or 0).
    A class of one move and no other check is its body (offset > 0); another, its moves as a list ``[size, (size, 0,
    nt, (mask offset, tile) * nt, body) * moves]`` (offset < 0; nt: the move's other checks, in
    :func:`_likely_last`'s order).  A move of no check is an item ``[size, 0, 0, body]``.  A body ``[size, sure, tv,
    5 + 2 * np, 5 + 2 * (np + nq), (tile, value) * (np + nq), its follow-ups' items...]``: tv the value it writes on
    the entry tile t (whose code is ``code``), or -1 where it writes none there or one compared and equal to
    ``code``; then its changes on other tiles (those two offsets from the body: where each kind ends), the np made
    always, the nq compared (made only where the node's code differs).  Cost: linear in the
    moves (times the codes, for the keys)."""
    def codes(off: int) -> tuple[int, ...]:
        return tuple(c for c in range(nd) if masks[off + c])

    classes: dict[tuple[int, tuple[int, ...]], list[tuple[Step, list[int]]]] = {}
    free: list[Step] = []  # moves of no check: items of their own
    for s in steps:
        tests = _tests(s)
        assert tests is not None
        if not tests:
            free.append(s)
            continue
        pairs = _likely_last(s, tests, masks)
        keys = [(pairs[i + 1], codes(pairs[i])) for i in range(0, len(pairs), 2)]
        i = next((j for j, k in enumerate(keys) if k in classes), 0)
        classes.setdefault(keys[i], []).append((s, pairs[:2 * i] + pairs[2 * i + 2:]))
    groups: dict[int, list[list[tuple[int, ...]]]] = {}
    for tile, acc in classes:
        for g in groups.setdefault(tile, []):
            if not any(set(acc) & set(x) for x in g):
                g.append(acc)
                break
        else:
            groups[tile].append([acc])

    def body(s: Step) -> list[int]:
        got = _changes(s, kept)
        assert got is not None
        kids = _count_items([x for x in s.then if isinstance(x, Step)], nd, masks, kept, combos, t, code)
        tv = -1
        plain: list[int] = []
        compared: list[int] = []
        for i in range(0, len(got[1]), 3):
            u, v, c = got[1][i:i + 3]
            if u == t:
                assert tv == -1
                tv = -1 if c and v == code else v
            else:
                (compared if c else plain).extend((u, v))
        inner = [got[0], tv, 5 + len(plain), 5 + len(plain) + len(compared), *plain, *compared, *kids]
        return [len(inner) + 1, *inner]

    def move(s: Step, rest: list[int]) -> list[int]:
        item = [0, len(rest) // 2, *rest, *body(s)]
        return [len(item) + 1, *item]

    out = [v for s in free for v in move(s, [])]
    for tile, gs in groups.items():
        for g in gs:
            key = tuple(g)
            if key not in combos:
                combos[key] = len(combos) * nd
            runs: list[list[int]] = []
            sign: list[int] = []
            for acc in g:
                moves = classes[(tile, acc)]
                if len(moves) == 1 and not moves[0][1]:  # one move, no other check: its body
                    runs.append(body(moves[0][0]))
                    sign.append(1)
                else:
                    run = [v for s, rest in moves for v in move(s, rest)]
                    runs.append([len(run) + 1, *run])
                    sign.append(-1)
            head = 5 + len(g)
            rel = [sign[i] * (head + sum(len(r) for r in runs[:i])) for i in range(len(g))]
            item = [1, tile, combos[key], len(g), *rel, *[v for r in runs for v in r]]
            out += [len(item) + 1, *item]
    return out


def _likely_last(s: Step, tests: list[int], masks: list[int]) -> list[int]:
    """A move's checks (:func:`_tests`) in the order gen_count runs them (any: they only read), those whose mask takes
    a code the move itself writes (as the empty tile a piece leaves: common on a board) after the others, so that a
    move that does not fit stops at its rarer check (en passant's passer before its empty tile)."""
    wrote = {int(m.group(2)) for _, v in s.changes if (m := _VALUE.fullmatch(v)) is not None}
    pairs = sorted(range(0, len(tests), 2), key=lambda i: any(masks[tests[i] + c] for c in wrote))
    return [v for i in pairs for v in tests[i:i + 2]]


def _count_program(sizes: dict[str, int], steps: dict[int, list[Step]], masks: list[int],
                   kept: Callable[[int, int], bool] | None) -> tuple[list[int], list[int], list[int]]:
    """The walks :func:`_programs` holds (``steps``, per entry row) as gen_count's items (:func:`_count_items`): the
    ints, each row's offset into them and k_calt (per group of classes, the 1-based class that takes each code, or
    0).  Cost: linear in the walks' moves (times the codes, for the classes' keys)."""
    nd = sizes["nd"]
    rows = _sets(sizes) * sizes["n"] * nd
    prog: list[int] = []
    off = [0] * (rows + 1)
    combos: dict[tuple[tuple[int, ...], ...], int] = {}
    for r in range(rows):
        off[r] = len(prog)
        prog += _count_items(steps.get(r, []), nd, masks, kept, combos, r // nd % sizes["n"], r % nd)
    off[rows] = len(prog)
    calt = [0] * max(1, len(combos) * nd)
    for classes, base in combos.items():
        for i, acc in enumerate(classes):
            for c in acc:
                calt[base + c] = i + 1
    return prog, off, calt


def _depth(s: Step) -> int:
    """The most moves of one chain of a walk."""
    return 1 + max([_depth(x) for x in s.then if isinstance(x, Step)], default=0)  # (a program calls no continuation)


def _programs(sizes: dict[str, int], walker: Walks, quiet: dict[int, list[int]], walks: dict[tuple[int, int], Step],
              captured: set[int], conditioned: frozenset[int], kept: Callable[[int, int], bool] | None,
              steps: dict[int, list[Step]] | None = None) -> tuple[list[int], list[int], set[tuple[int, int]], int]:
    """The quiet moves (each a walk of one move, :func:`walk_tree`) and unrolled walks of every entry row as one
    program (:func:`_program`): its ints, each row's offset into them, the (row, move) pairs it holds and the
    deepest chain (``steps``, when given: each row's walks it holds, in order).  Cost: linear in the walks' moves;
    the program is data, which gcc reads in a fraction of the time the same walks take as code."""
    prog: list[int] = []
    rows = _sets(sizes) * sizes["n"] * sizes["nd"]
    off = [0] * (rows + 1)
    held: set[tuple[int, int]] = set()
    deepest = 1
    for r in range(rows):
        off[r] = len(prog)
        for a in quiet.get(r, ()):
            step: Step | str | None = walks.get((r, a))
            if step is None and a not in captured and walker.lo[a + 1] == walker.lo[a]:
                step = walk_tree(walker, r, a, [])
            if not isinstance(step, Step):
                continue
            got = _program(step, conditioned, kept)
            if got is not None:
                prog += got
                held.add((r, a))
                if steps is not None:
                    steps.setdefault(r, []).append(step)
                deepest = max(deepest, _depth(step))
    off[rows] = len(prog)
    return prog, off, held, deepest


_GEN_RUN = """
/* A program move's changes w ([nc, (tile, value, compared) * nc]) as (tile, new value) pairs in ch, those compared
   and equal to the node's code left out; how many. */
static inline int32_t gen_changes(const int32_t *codes, const int32_t *w, int32_t *ch) {
    int32_t nc = 0;
    for (int32_t j = 0; j < w[0]; j++) {
        const int32_t *c = w + 1 + 3 * j;
        if (!c[2] || c[1] != codes[c[0]]) {
            ch[2 * nc] = c[0];
            ch[2 * nc + 1] = c[1];
            nc++;
        }
    }
    return nc;
}

/* A playout's listing (gen_run at depth 0): a turn whatever the clean-ups do, listed as gen_quiet_turn lists one but
   unsettled, its tile word marked GEN_RAW (gen_playout settles the one it picks).  1 where *listed reaches 0 (gen_pick
   counts up to the turn it seeks from below 0; a listing's count from 0 never does: gen_run stops there), else 0. */
#define GEN_RAW 0x20000000
static int gen_listed_raw(tp_engine *E, const int32_t *ch, int32_t nc, int64_t *listed) {
    if (E->nchg + nc + 1 > E->chg_cap) return TP_ERR_CAP;
    int32_t *o = E->chg + 2 * (size_t)E->nchg;
    o[0] = nc;
    o[1] = GEN_RAW;
    memcpy(o + 2, ch, 2 * (size_t)nc * sizeof *ch);
    E->nchg += nc + 1;
    return ++*listed == 0; /* 1: the turn gen_pick seeks (its count from below 0) */
}

/* The chains of the walks at q (up to end; specialise._program) that fit, each settled by gen_quiet_turn in the
   walk's order: a move's follow-ups, then its own turn. */
static int gen_run(tp_engine *E, Board *B, int32_t p, int32_t depth, int64_t *listed, const int32_t *q,
                   const int32_t *end) {
    const int32_t *codes = B->codes;
    const int32_t *stack[GEN_DEPTH];
    int32_t sp = 0, ch[2 * GEN_MAXW];
    const int quick = depth == 1 && E->lq >= 0; /* a bulk count's last ply where leaf_plan answers */
    const uint8_t *mine = TABLES(E)->royal_mine + (size_t)p * (size_t)TABLES(E)->nd;
    for (;;) {
        while (sp && q == stack[sp - 1] + stack[sp - 1][0]) { /* a move whose follow-ups are done: its turn */
            const int32_t *x = stack[--sp];
            if (x[1] && depth == 1 && !E->make_leaves) { /* a turn whatever the clean-ups do: counted */
                (*listed)++;
                continue;
            }
            const int32_t *w = x + 3 + 2 * x[2];
            int32_t nc = 0, k = 0;
            for (; quick && k < w[0]; k++) { /* its changes touch nothing the node's memos read: leaf_plan's count */
                const int32_t *c = w + 1 + 3 * k;
                if (c[2] && c[1] == codes[c[0]]) continue;
                if (!change_as_node(E, codes, mine, c[0], c[1])) break;
                nc++;
            }
            if (quick && k == w[0]) {
                if (nc) *listed += E->lq;
                continue;
            }
            nc = gen_changes(codes, w, ch);
            if (nc) {
                int r = x[1] && depth == 0 ? gen_listed_raw(E, ch, nc, listed)
                                           : gen_quiet_turn(E, B, p, depth, ch, nc, listed);
                if (r) return r < 0 ? r : 0; /* > 0: the turn gen_pick seeks is listed */
            }
        }
        if (q >= end) return 0;
        int32_t i = 0, nt = q[2];
        while (i < nt && k_masks[q[3 + 2 * i] + codes[q[4 + 2 * i]]]) i++;
        if (i == nt) { /* it fits: its follow-ups next */
            stack[sp++] = q;
            q += 4 + 2 * nt + 3 * q[3 + 2 * nt];
        } else {
            q += q[0];
        }
    }
}
"""

_GEN_COUNT = """
/* gen_run on a bulk count's last ply where leaf_plan answers (E->lq >= 0), from the same walks as items
   (specialise._count_items), for each entry tile t of p's entry codes in turn: the chains of its row that fit counted
   into *listed, in any order; a group's tile read once and the class that takes its code found in k_calt (a class of
   several moves, keyed by one check alike, run as a list).  A move's turn is counted as gen_run counts it: sure, or
   each change as the node (change_as_node; t's change, which every move of a piece shares, tested once per value),
   else settled (gen_settle, as gen_quiet_turn counts it). */
static int gen_count(tp_engine *E, Board *B, int32_t p, int64_t *listed) {
    const int32_t *codes = B->codes;
    const int32_t *next[2 * GEN_DEPTH], *ends[2 * GEN_DEPTH]; /* per level: a class's list, its follow-ups */
    int32_t ch[2 * GEN_MAXW];
    const uint8_t *mine = TABLES(E)->royal_mine + (size_t)p * (size_t)TABLES(E)->nd;
    const int64_t lq = E->lq;
    int64_t n = 0;
    for (size_t w = 0; w < GEN_WORDS; w++) {
        uint64_t m = 0;
        for (int32_t k = E->ent_code_off[p]; k < E->ent_code_off[p + 1]; k++)
            m |= B->bits[(size_t)E->ent_codes[k] * GEN_WORDS + w];
        for (; m; m &= m - 1) {
            const int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m)), row = (p * GEN_N + t) * GEN_ND + codes[t];
            const int32_t *q = k_cprog + k_coff[row], *end = k_cprog + k_coff[row + 1];
            int32_t sp = 0, tv = -1, tok = 0;
            for (;;) {
                if (q >= end) {
                    if (!sp) break;
                    sp--;
                    q = next[sp];
                    end = ends[sp];
                    continue;
                }
                const int32_t *x = q, *b;
                q += q[0];
                if (x[1]) { /* a group: the class that takes the tile's code, if any */
                    int32_t a = k_calt[x[3] + codes[x[2]]];
                    if (!a) continue;
                    int32_t r = x[4 + a];
                    if (r < 0) { /* a class of several moves, or of other checks: run as a list, then the next item */
                        next[sp] = q;
                        ends[sp] = end;
                        sp++;
                        q = x - r + 1;
                        end = x - r + x[-r];
                        continue;
                    }
                    b = x + r; /* one move of no other check: its body */
                } else {
                    int32_t i = 0, nt = x[2];
                    while (i < nt && k_masks[x[3 + 2 * i] + codes[x[4 + 2 * i]]]) i++;
                    if (i < nt) continue;
                    b = x + 3 + 2 * nt;
                }
                const int32_t *c = b + 5, *cp = b + b[3], *ce = b + b[4];
                if (GEN_SURE && b[1]) { /* a turn whatever the clean-ups do */
                    n++;
                } else {
                    int32_t nc = 0, ok = 1;
                    if (b[2] >= 0) { /* its change on t */
                        if (b[2] != tv) {
                            tv = b[2];
                            tok = change_as_node(E, codes, mine, t, tv);
                        }
                        ok = tok;
                        nc = 1;
                    }
                    for (; ok && c < cp; c += 2, nc++) ok = change_as_node(E, codes, mine, c[0], c[1]);
                    for (; ok && c < ce; c += 2) {
                        if (c[1] == codes[c[0]]) continue;
                        ok = change_as_node(E, codes, mine, c[0], c[1]);
                        nc++;
                    }
                    if (ok) {
                        if (nc) n += lq;
                    } else { /* its changes settled */
                        nc = 0;
                        if (b[2] >= 0) {
                            ch[0] = t;
                            ch[1] = b[2];
                            nc = 1;
                        }
                        for (c = b + 5; c < ce; c += 2) {
                            if (c >= cp && c[1] == codes[c[0]]) continue;
                            ch[2 * nc] = c[0];
                            ch[2 * nc + 1] = c[1];
                            nc++;
                        }
                        int32_t got = gen_settle(E, B, p, ch, nc); /* as gen_quiet_turn counts it, quiet_as_node 0 */
                        if (got < 0) return got;
                        n += got > 0;
                        tv = -1; /* (the node's memos stay; asked again all the same) */
                    }
                }
                const int32_t *kend = b + b[0];
                if (ce < kend) { /* its follow-ups next, then its next sibling */
                    next[sp] = q;
                    ends[sp] = end;
                    sp++;
                    q = ce;
                    end = kend;
                }
            }
        }
    }
    *listed += n;
    return 0;
}
"""


def _gen_perft(sizes: dict[str, int], found: tuple[dict[int, list[int]], bool],
               checks: Callable[[int], list[tuple[int, int]]], test: Callable[[list[tuple[int, int]]], str],
               value: Callable[[int], str], wr_off: list[int], wr_tile: list[int], ends: dict[str, list[int]],
               counting: dict[int, Groups], captured: set[int], maxw: int, changes: frozenset[int],
               walks: dict[tuple[int, int], Step], conditioned: frozenset[int]) -> str:
    """gen_perft: engine.c's perft with the quiet moves counted (or made) straight from their new values; on the
    last ply, a player's quiet moves counted by the population of bit sets where :func:`_placements` finds them; a
    node where none is found passes (pass = "when-stuck") through the interpreter's pass_turn.  The entry set is
    the phase's of the ply (:func:`_sets`), the next player the interpreter's next_player, a turn's counters moved on
    by its next_counters (gen_counters: the quiet move as a key of one chain) and the pass at any time added by its
    pass_always_turn."""
    n, nd, np_ = sizes["n"], sizes["nd"], sizes["np"]
    quiet, others = found
    ctr = bool(sizes["nctr"])
    below = "perft_below" if ctr else "perft"  # perft_below: the counters next_counters put in the next row
    fit = {a: _fit_only(sizes, ends, a, value, wr_off, wr_tile) for a in changes}
    out = [_gen_ended(sizes, ends), _GEN_COUNTERS if ctr else "", """
/* set_tile of a tile whose code is known (o), without the position's hash and the undo stack: a quiet move is
   taken back by quiet_turn itself (a playout's by the undo stack its caller keeps), and no walk is under way
   (the walks' hashes are relative to their own start) */
static inline __attribute__((always_inline)) void leaf_set(Board *B, int32_t u, int32_t o, int32_t v) {
    uint64_t bit = 1ULL << (u & 63);
    B->count[o]--;
    B->count[v]++;
    B->bits[(size_t)o * """ + str((n + 63) // 64) + """ + (size_t)(u >> 6)] &= ~bit;
    B->bits[(size_t)v * """ + str((n + 63) // 64) + """ + (size_t)(u >> 6)] |= bit;
    B->codes[u] = v;
}

/* leaf_set of a tile whose code is read from the board */
static inline void quiet_set(Board *B, int32_t u, int32_t v) {
    leaf_set(B, u, B->codes[u], v);
}

/* A leaf turn of a perft that makes every leaf (--no-bulk): made on the board's codes and taken back (the piece
   counts and tile sets left as they are: nothing reads them at the last ply; a compiler barrier between, the
   position's codes in memory as made). */
static void quiet_leaf(Board *B, const int32_t *ch, int32_t nc) {
    int32_t old[""" + str(maxw) + """];
    for (int32_t c = 0; c < nc; c++) {
        old[c] = B->codes[ch[2 * c]];
        B->codes[ch[2 * c]] = ch[2 * c + 1];
    }
    __asm__ __volatile__("" ::: "memory");
    for (int32_t c = nc - 1; c >= 0; c--) B->codes[ch[2 * c]] = old[c];
}

static inline int quiet_turn(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *ch,
                             int32_t nc, int32_t qa, int64_t *total) {
    (void)qa;
    if (depth == 1 && !E->make_leaves) {
        (*total)++;
        return 0;
    }
""" + ("""    if (depth > 1) {
        int r = gen_counters(E, B, qa, ply);
        if (r < 0) return r;
    }
""" if ctr else "") + """    int32_t old[""" + str(maxw) + """];
    for (int32_t c = 0; c < nc; c++) {
        old[c] = B->codes[ch[2 * c]];
        quiet_set(B, ch[2 * c], ch[2 * c + 1]);
    }
    int64_t sub = depth == 1 ? 1 : """ + below + """(E, B, next_player(TABLES(E), p, ply), ply + 1, depth - 1, ch, nc);
    for (int32_t c = nc - 1; c >= 0; c--) quiet_set(B, ch[2 * c], old[c]);
    if (sub < 0) return (int)sub;
    *total += sub;
    return 0;
}

/* A quiet move's (qa: its application, read by the counters) or an unrolled walk's turn (changes ch, nc of
   them; none: no turn) counted, made as a leaf or made
   and walked below into *total; *moves += 1 where it is not the last ply. */
static int gen_walk_turn(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *ch,
                         int32_t nc, int32_t qa, int64_t *total, int64_t *moves) {
    if (!nc) return 0;
    if (depth == 1) {
        if (E->make_leaves) quiet_leaf(B, ch, nc);
        (*total)++;
        return 0;
    }
    int r = quiet_turn(E, B, p, ply, depth, ch, nc, qa, total);
    if (r < 0) return r;
    (*moves)++;
    return 0;
}

""" + walk_functions(walks, maxw, conditioned, False) + """
/* The quiet moves of p (entry set ps) counted (or made) into *total; *moves += how many there are. */
static int gen_quiet(tp_engine *E, Board *B, int32_t p, int32_t ps, int32_t ply, int32_t depth, int64_t *total,
                     int64_t *moves) {
    const int32_t *codes = B->codes;
    int32_t ch[""" + str(2 * maxw) + """], nc, v, r, qa = -1;
    const int made = E->make_leaves;
    for (size_t w = 0; w < """ + str((n + 63) // 64) + """; w++) {
        uint64_t m = 0;
        for (int32_t k = E->ent_code_off[ps]; k < E->ent_code_off[ps + 1]; k++) m |= B->bits[(size_t)E->ent_codes[k] * """
           + str((n + 63) // 64) + """ + w];
        for (; m; m &= m - 1) {
            int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
            switch ((ps * """ + str(n) + """ + t) * """ + str(nd) + """ + codes[t]) {
"""]
    out.append(_quiet_cases(sizes, quiet, checks, test, value, wr_off, wr_tile, " if ((r = gen_walk_turn(E, B, p, ply, "
                            "depth, ch, nc, qa, total, moves)) < 0) return r;", "ch", captured, leaf="depth == 1",
                            fit=fit, walks=walks, conditioned=conditioned,
                            walk_call="if ((r = gen_walk_{name}(E, B, p, ply, depth, total, moves)) < 0) return r;"))
    out.append("""            default: break;
            }
        }
    }
    (void)v;
    (void)r;
    (void)qa;
    return 0;
}

/* The leaves below an unfinished node (the pass at any time aside). */
static int64_t gen_perft_turns(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth) {
    const int32_t phase = phase_at(TABLES(E), ply), ps = (phase + 1) * """ + str(np_) + """ + p;
    int r;
    int64_t total = 0;
    (void)phase;
""")
    if others:
        out.append("""    if (gen_others_fit(E, B, ps)) { /* else no walk finds a turn: every entry it starts from fails */
    int32_t k0 = E->nkeys, c0 = E->nchg;
    E->quiet_apart = 1;
    int64_t legal = node_turns_in(E, B, p, phase); /* every turn the walk finds is of a mandatory class */
    E->quiet_apart = 0;
    if (legal != 0) {
        if (legal > 0 && (depth > 1 || E->make_leaves)) {
            int32_t k1 = E->nkeys;
            legal = 0;
            for (int32_t k = k0; k < k1; k++) {
                if (!E->keys[k].legal) continue;
                int32_t mark = E->undo_top;
                const Key *K = &E->keys[k];
                int64_t sub = depth > 1 ? next_counters(E, B, K, ply) : 0;
                if (sub == 0) sub = apply_key(E, B, K);
                if (sub == 0) sub = depth == 1 ? 1 : perft_below(E, B, next_player(TABLES(E), p, ply), ply + 1,
                                                                 depth - 1, E->chg + 2 * (size_t)K->off, K->len);
                restore(E, B, mark);
                if (sub < 0) {
                    legal = sub;
                    break;
                }
                legal += sub;
            }
        }
        E->nkeys = k0;
        E->nchg = c0;
        return legal;
    }
    E->nkeys = k0;
    E->nchg = c0;
    }
""")
    if counting:
        words = (n + 63) // 64
        out.append("""    if (depth == 1 && !E->make_leaves) {
        uint64_t mw[""" + str(words) + """], cnt[""" + str(words) + """];
        switch (ps) {
""" + "".join(f"        case {q}:\n" for q in sorted(counting)) + """            total = (int64_t)gen_place_mask(B, ps, mw, cnt);
            if (total || !TABLES(E)->passing) return total;
            return pass_turn(E, B, p, ply, depth, E->nkeys, E->nchg);
        default: break;
        }
    }
""")
    out.append("""    int64_t moves = 0;
    r = gen_quiet(E, B, p, ps, ply, depth, &total, &moves);
    if (r < 0) return r;
    if (TABLES(E)->passing && (depth == 1 ? total : moves) == 0) return pass_turn(E, B, p, ply, depth, E->nkeys, E->nchg);
    return total;
}

static int64_t gen_perft(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *last,
                         int32_t nlast) {
    int r = last ? gen_ended(B->codes, ply, last, nlast) : ended(E, B, p, ply, last, nlast);
    if (r) return r < 0 ? r : 0;
    int64_t total = gen_perft_turns(E, B, p, ply, depth);
    return total < 0 || !TABLES(E)->pass_always ? total : pass_always_turn(E, B, p, ply, depth, total);
}
""")
    return "".join(out)


def _leaf(value: Callable[[int], str], wr_off: list[int], wr_tile: list[int], a: int) -> str | None:
    """A last-ply quiet move of a perft counted, and with ``made`` made and taken back in place: its tiles and new
    values read first, each tile's code set straight from its constant index, then set back in reverse (a compiler
    barrier between: the position's codes are in memory as made; its piece counts and tile sets, which nothing reads
    at the last ply, left as they are).  Counted when a write changes its tile, as the listing does; None when the
    move writes a tile twice (its listing's order then matters).  Cost: two stores per write."""
    ks = range(wr_off[a], wr_off[a + 1])
    tiles = [wr_tile[k] for k in ks]
    if not tiles or len(set(tiles)) != len(tiles):
        return None
    read = ", ".join(f"n{i} = {value(k)}, o{i} = codes[{wr_tile[k]}]" for i, k in enumerate(ks))
    changed = " || ".join(f"n{i} != o{i}" for i in range(len(tiles)))
    make = " ".join(f"B->codes[{u}] = n{i};" for i, u in enumerate(tiles))
    back = " ".join(f"B->codes[{u}] = o{i};" for i, u in reversed(list(enumerate(tiles))))
    return (f"{{ const int32_t {read}; if ({changed}) {{ if (made) {{ {make} __asm__ __volatile__(\"\" ::: \"memory\"); "
            f"{back} }} (*total)++; }} }}")


def _quiet_cases(sizes: dict[str, int], quiet: dict[int, list[int]], checks: Callable[[int], list[tuple[int, int]]],
                 test: Callable[[list[tuple[int, int]]], str], value: Callable[[int], str], wr_off: list[int],
                 wr_tile: list[int], then: str, into: str, captured: set[int], leaf: str | None = None,
                 fit: dict[int, str] | None = None, walks: dict[tuple[int, int], Step] | None = None,
                 conditioned: frozenset[int] = frozenset(), walk_call: str = "") -> str:
    """The cases of a switch on the entry row: each quiet move that fits (its count conditions too: ``conditioned``)
    writes its changes (tile, new value) into ``into`` (``nc`` of them, tiles it leaves as they are skipped; a move
    of ``captured`` through gen_captured), then runs ``then``; with ``leaf`` (the C of the last ply's test), on the
    last ply the move is counted or made in place instead (:func:`_leaf`; a move of ``fit``, which changes a tile
    wherever it fits, counted where its C there holds: :func:`_fit_only`); an entry move with links, each chain of
    its walk (``walks``: ``walk_call``, the C that calls its function, :func:`walk_functions`, ``{name}`` its
    row and move).  Where the rule set has counters, ``qa`` is the move's application before ``then``."""
    fit, walks = fit or {}, walks or {}
    n, nd = sizes["n"], sizes["nd"]
    out = []
    base = then
    for r, row in quiet.items():
        if not row:
            continue
        t = (r // nd) % n
        lines = []
        for a in row:
            if (r, a) in walks:
                lines.append(f"                {walk_call.replace('{name}', f'{r}_{a}')}\n")
                continue
            then = f" qa = {a};{base}" if sizes["nctr"] else base  # the move the counters read (gen_counters)
            cond = test([(u, m) for u, m in checks(a) if u != t])
            if a in conditioned:
                cond = f"{cond} && app_conds_hold(E, B, {a})"
            if a in captured:
                full = f"nc = gen_captured(E, codes, {a}, {into}); if (nc < 0) nc = 0;{then}"
                if leaf is not None and a in fit:  # the last ply of a bulk count: whether it fits
                    full = f"if ({leaf} && !made) {{ if ({fit[a]}) (*total)++; }} else {{ {full} }}"
                lines.append(f"                if ({cond}) {{ {full} }}\n")
                continue
            writes = "".join(f" v = {value(k)}; if (v != codes[{wr_tile[k]}]) {{ {into}[2 * nc] = {wr_tile[k]}; "
                             f"{into}[2 * nc + 1] = v; nc++; }}" for k in range(wr_off[a], wr_off[a + 1]))
            here = None if leaf is None else _leaf(value, wr_off, wr_tile, a)
            if here is not None:
                lines.append(f"                if ({cond}) {{ if ({leaf}) {here} else {{ nc = 0;{writes}{then} }} }}\n")
                continue
            lines.append(f"                if ({cond}) {{ nc = 0;{writes}{then} }}\n")
        out.append(f"            case {r}:\n{''.join(lines)}                break;\n")
    return "".join(out)


_PASS_DRAW = """    *pass = draw_pass(TABLES(E), s, LEGAL); /* playout_turn's draw of the pass */
    if (*pass) return (int32_t)LEGAL;
"""
_COUNTERS_ON = """    const Key K = gen_key(E, QA);
    int r = playout_counters(E, B, &K, q); /* playout_turn's counters */
    if (r < 0) return r;
"""
PLAYOUT_STACK = 1 << 16  # ints of quiet moves one playout node may list on the stack; more: on the heap
PLAYOUT_HEAP = 1 << 22  # ints of quiet moves one playout node may list on the heap (a buffer per thread, made once);
# more: the interpreter's listing


def _scan_codes(codes_of: list[list[int]], words: int, n: int, nd: int) -> str:
    """The head of a generated walk over the tiles holding one of entry set ps's codes ``codes_of[ps]`` (their bit
    sets OR-ed a word at a time), opening a switch on the placed code of each such tile (``(ps * n + t) * nd +
    code``)."""
    cases = "".join(f"        case {q}: m = {' | '.join(f'B->bits[{k * words} + w]' for k in ks) or '0'}; break;\n"
                    for q, ks in enumerate(codes_of))
    return ("    for (size_t w = 0; w < " + str(words) + "; w++) {\n        uint64_t m = 0;\n        switch (ps) {\n" + cases
            + "        default: break;\n        }\n        for (; m; m &= m - 1) {\n"
            "            int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));\n"
            "            switch ((ps * " + str(n) + " + t) * " + str(nd) + " + codes[t]) {\n")


def _gen_playout(sizes: dict[str, int], found: tuple[dict[int, list[int]], bool],
                 checks: Callable[[int], list[tuple[int, int]]], test: Callable[[list[tuple[int, int]]], str],
                 value: Callable[[int], str], wr_off: list[int], wr_tile: list[int], placing: dict[int, Groups],
                 captured: set[int], maxw: int, walks: dict[tuple[int, int], Step],
                 conditioned: frozenset[int], fit: dict[int, str] | None) -> str:
    """gen_playout: engine.c's playout_turn with the quiet moves listed straight from their new values, in the order
    the interpreter's walk finds them (tile, then entry move), so that the same stream picks the same turn (the pass
    at any time drawn first, as playout_turn draws it; the counters moved on by gen_counters); where every quiet
    move changes a tile wherever it fits (``fit``: :func:`_lazy_fits`), listed by their fits alone and only the
    picked one's changes gathered; and gen_playout_ended, ``ended`` after a turn as gen_ended reads it.  Cost of the
    listing: linear in the quiet moves of the node."""
    n, nd, np_ = sizes["n"], sizes["nd"], sizes["np"]
    quiet, others = found
    most: dict[int, int] = {}
    for r, row in quiet.items():
        t = (r // nd) % n
        most[t] = max(most.get(t, 0), sum(walks[r, a].turns if (r, a) in walks else 1 for a in row))
    ctr = bool(sizes["nctr"])
    stride, words = 2 * maxw + 1 + ctr, (n + 63) // 64  # with counters, the move's application last
    codes_of: list[list[int]] = [sorted({r % nd for r, row in quiet.items() if row and r // (n * nd) == q})
                                 for q in range(_sets(sizes))]  # per entry set, the codes some quiet move starts from
    cap = max(1, sum(most.values()))
    conts = _listed_conts(walks)
    cont_cap = max([c.turns for c in conts.values()], default=0) * stride  # ints of one continuation's listing
    out = ["""
static int gen_playout_ended(tp_engine *E, Board *B, int32_t p, int32_t ply, const int32_t *last, int32_t nlast) {
    return last ? gen_ended(B->codes, ply, last, nlast) : ended(E, B, p, ply, last, nlast);
}
"""]
    if fit is not None:
        out.append(_gen_quiet_fits(sizes, quiet, checks, test, value, wr_off, wr_tile, captured, fit, codes_of, words))
    elif cap * stride > PLAYOUT_HEAP:
        out.append("""
static int32_t gen_playout(tp_engine *E, Board *B, int32_t p, int32_t q, uint64_t *s, const int32_t **last,
                           int32_t *nlast, int *pass) {
    return playout_turn(E, B, p, q, s, last, nlast, pass);
}
""")
        return "".join(out)
    if fit is None:
        out.append("""
/* A turn of an unrolled walk listed at o (its changes ch, nc of them, copied after nc unless written there); the
   next turn's place. */
static inline int32_t *gen_listed(int32_t *o, const int32_t *ch, int32_t nc) {
    if (ch != o + 1) memcpy(o + 1, ch, 2 * (size_t)nc * sizeof *ch);
    o[0] = nc;
    return o + """ + str(stride) + """;
}
""" + (_gen_cont_at(conts, stride) if conts else "\n") + walk_functions(walks, maxw, conditioned, True) + """
/* The quiet moves of player p that fit, each as [nc, (tile, new value) * nc] at a stride of """ + str(stride)
               + """ ints; returns how many. */
static int32_t gen_quiet_list(tp_engine *E, const Board *B, int32_t ps, int32_t *list) {
    const int32_t *codes = B->codes;
    int32_t nq = 0, nc, v, qa = -1;
    int32_t *o = list;
""" + _scan_codes(codes_of, words, n, nd))
        out.append(_quiet_cases(sizes, quiet, checks, test, value, wr_off, wr_tile,
                                " if (nc) { o[0] = nc;" + (f" o[{stride - 1}] = qa;" if ctr else "") + " o += "
                                + str(stride) + "; nq++; }", "(o + 1)", captured, walks=walks,
                                conditioned=conditioned, walk_call="o = gen_walk_list_{name}(E, B, o, &nq);"))
        out.append("""            default: break;
            }
        }
    }
    (void)v;
    (void)qa;
    (void)E;
    return nq;
}
""")
    out.append("""

static int32_t gen_playout(tp_engine *E, Board *B, int32_t p, int32_t q, uint64_t *s, const int32_t **last,
                           int32_t *nlast, int *pass) {
    const int32_t ps = (phase_at(TABLES(E), q) + 1) * """ + str(np_) + """ + p;
    *pass = 0;
""")
    if others:
        out.append("""    if (gen_others_fit(E, B, ps)) {
        int32_t k0 = E->nkeys, c0 = E->nchg;
        uint64_t s0 = *s;
        E->quiet_apart = 1;
        int32_t legal = playout_turn(E, B, p, q, s, last, nlast, pass); /* every turn found is of a mandatory class */
        E->quiet_apart = 0;
        E->nkeys = k0;
        E->nchg = c0;
        if (legal != 0) return legal;
        *s = s0; /* none: the quiet moves are the node's turns, drawn from the stream as it was */
        *pass = 0;
    }
""")
    if placing:
        out.insert(1, _gen_placement(sizes, quiet, placing, checks, test, value, wr_off, wr_tile, maxw, captured,
                                     conditioned))
        out.append("    switch (ps) {\n" + "".join(f"    case {q}: return gen_place(E, B, p, ps, q, s, last, nlast, pass);\n"
                                                   for q in sorted(placing))
                   + "    default: break;\n    }\n")
    if fit is not None:
        out.append("""    int32_t list[""" + str(cap) + """];
    int32_t nq = gen_quiet_fits(E, B, ps, list);
""" + _PASS_DRAW.replace("LEGAL", "nq") * bool(sizes["pass_always"]) + """    if (nq == 0) return 0;
    int32_t a = list[splitmix(s) % (uint64_t)nq];
    if (E->nchg + """ + str(maxw) + """ > E->chg_cap || E->undo_top + """ + str(maxw) + """ > E->undo_cap) return TP_ERR_CAP;
""" + _COUNTERS_ON.replace("QA", "a") * ctr + """    int32_t *ch = E->chg + 2 * (size_t)E->nchg;
    int32_t nc = gen_quiet_changes(E, B->codes, a, ch);
    for (int32_t c = 0; c < nc; c++) { /* put without the hash: walks read it relative to their own start */
        E->undo_tile[E->undo_top] = ch[2 * c];
        E->undo_old[E->undo_top++] = B->codes[ch[2 * c]];
        quiet_set(B, ch[2 * c], ch[2 * c + 1]);
    }
    *last = ch;
    *nlast = nc;
    return nq;
}
""")
        return "".join(out)
    out.append(("""    int32_t list[""" + str(cap * stride) + """];
""") if cap * stride <= PLAYOUT_STACK else ("""    static __thread int32_t *list; /* the walks' turns, too many for the stack */
    if (!list && !(list = malloc(""" + str(cap * stride) + """ * sizeof *list))) return TP_ERR_CAP;
"""))
    out.append("""    int32_t nq = gen_quiet_list(E, B, ps, list);
""" + _PASS_DRAW.replace("LEGAL", "nq") * bool(sizes["pass_always"]) + """    if (nq == 0) return 0;
""" + (("""    const int32_t *m = list + (size_t)(splitmix(s) % (uint64_t)nq) * """ + str(stride) + """;
""") if not conts else ("""    int32_t k = (int32_t)(splitmix(s) % (uint64_t)nq), cont[""" + str(cont_cap) + """];
    const int32_t *m = list;
    for (; k >= (m[0] > 0 ? 1 : m[1]); m += """ + str(stride) + """) k -= m[0] > 0 ? 1 : m[1];
    if (m[0] < 0) m = gen_cont_pick(E, B, m, k, cont); /* a shared continuation's turns: listed only now */
""")) + """    int32_t nc = m[0];
    if (E->nchg + nc > E->chg_cap || E->undo_top + nc > E->undo_cap) return TP_ERR_CAP;
""" + _COUNTERS_ON.replace("QA", f"m[{stride - 1}]") * ctr + """    int32_t *ch = E->chg + 2 * (size_t)E->nchg;
    for (int32_t c = 0; c < nc; c++) { /* put without the hash: walks read it relative to their own start */
        int32_t u = m[1 + 2 * c];
        ch[2 * c] = u;
        ch[2 * c + 1] = m[2 + 2 * c];
        E->undo_tile[E->undo_top] = u;
        E->undo_old[E->undo_top++] = B->codes[u];
        quiet_set(B, u, ch[2 * c + 1]);
    }
    *last = ch;
    *nlast = nc;
    return nq;
}
""")
    return "".join(out)


def _others_last(shape: _Shape, quiet: dict[int, list[int]]) -> bool:
    """Whether in every entry row the moves walked with keys (neither quiet nor alike, fitting on the row's code, not
    a slide onto its own start) come after all its quiet moves, so that a settled playout lists a tile's quiet turns,
    then its keyed ones, in the order the interpreter's walk finds them (:func:`_gen_settled_playout`).  Cost: one
    pass over the entry rows."""
    sizes, arrays, masks = shape.sizes, shape.arrays, shape.masks
    n, nd = sizes["n"], sizes["nd"]
    ent_off, ent_app = arrays["ent_off"].tolist(), arrays["ent_app"].tolist()
    slide, to, tile = (arrays[k].tolist() for k in ("app_slide", "app_to", "app_tile"))
    for r in range(_sets(sizes) * n * nd):
        t, c, keyed = (r // nd) % n, r % nd, False
        mine = set(quiet.get(r, ()))
        for a in ent_app[ent_off[r]:ent_off[r + 1]]:
            if any(u == t and not masks[m][c] for u, m in shape.checks(a)) or a in shape.alike \
                    or (slide[a] >= 0 and to[a] == tile[a]):
                continue
            if a not in mine:
                keyed = True
            elif keyed:
                return False
    return True


def _gen_settled_playout(sizes: dict[str, int], quiet: dict[int, list[int]],
                         checks: Callable[[int], list[tuple[int, int]]], test: Callable[[list[tuple[int, int]]], str],
                         value: Callable[[int], str], wr_off: list[int], wr_tile: list[int], captured: set[int],
                         maxw: int, walks: dict[tuple[int, int], Step], conditioned: frozenset[int],
                         walker: Walks, kept: Callable[[int, int], bool] | None) -> str:
    """gen_playout of a settled rule set (after :func:`_gen_settled_perft`, whose functions it calls): the node's
    memos and its other moves' keys made by the walk (node_turns, the quiet moves left out), then each tile's quiet
    moves and walks' chains settled (gen_settle: clean-ups, royal test) and listed in the row's order (gen_run over
    the program of each run of moves it holds, the others as the perft's cases), the tile written beside each turn;
    the turn the stream picks is found by merging the listed turns with the legal keys by tile, a tile's keyed turns
    after its quiet ones (:func:`_others_last`): the interpreter's order, the same games.  Without a royal rule the
    rows a program holds whole are counted, not listed (gen_play_quiet), and only the picked tile's turns listed up
    to the pick (gen_pick).  Cost: the perft's count (royal: listing) of one node, no key for a quiet move."""
    n, nd = sizes["n"], sizes["nd"]
    words = (n + 63) // 64
    prog, off, held, _deepest = _programs(sizes, walker, quiet, walks, captured, conditioned, kept)
    then = " if (nc && (r = gen_quiet_turn(E, B, p, 2, ch, nc, listed)) < 0) return r;"
    call = "if ((r = gen_walk_{name}(E, B, p, ply, 2, listed, &moves)) < 0) return r;"
    cases = []
    for r, row in quiet.items():
        if all((r, a) in held for a in row):
            continue  # the row's program in order: the default case
        pos, lines = off[r], []
        for a in row:
            if (r, a) in held:
                size = prog[pos]
                lines.append(f"                if ((r = gen_run(E, B, p, 0, listed, k_qprog + {pos}, k_qprog + "
                             f"{pos + size})) < 0) return r;\n")
                pos += size
            else:
                got = _quiet_cases(sizes, {r: [a]}, checks, test, value, wr_off, wr_tile, then, "ch", captured,
                                   walks=walks, conditioned=conditioned, walk_call=call).splitlines(keepends=True)
                lines += got[1:-1]  # the move's lines, without the case label and break of its own switch
        cases.append(f"            case {r}:\n{''.join(lines)}                break;\n")
    mandatory = bool(sizes["has_mandatory"])
    draws = int(bool(sizes["has_royal"]) and not mandatory and not sizes["has_maximum"] and not sizes["pass_always"])
    ok = "legal == 0" if mandatory else "1"
    return """
static int gen_playout_ended(tp_engine *E, Board *B, int32_t p, int32_t ply, const int32_t *last, int32_t nlast) {
    return last ? gen_ended(B->codes, ply, last, nlast) : ended(E, B, p, ply, last, nlast);
}

/* The quiet moves and walks' chains of p that fit, settled, tile by tile, each tile's in its row's order; *listed +=
   how many.  at NULL: each listed in E->chg (gen_quiet_turn: [nc, tile] and nc (tile, new value) pairs).  Else (no
   royal test drawn) a row its program holds whole counted as a bulk count's last ply counts it (gen_run at depth 1,
   E->lq < 0: each turn settled where it may be none, none listed), another row listed; at[3 i ..]: a tile with
   turns, how many, and where they are listed (-1: counted only; gen_pick lists them if the pick falls there), *nat
   tiles. */
static int gen_play_quiet(tp_engine *E, Board *B, int32_t p, int32_t ply, int64_t *listed, int32_t *at,
                          int32_t *nat) {
    const int32_t *codes = B->codes;
    int32_t ch[""" + str(2 * maxw) + """], nc, v, r, depth = at != NULL;
    int64_t moves = 0;
    E->lq = -1;
    for (size_t w = 0; w < """ + str(words) + """; w++) {
        uint64_t m = 0;
        for (int32_t k = E->ent_code_off[p]; k < E->ent_code_off[p + 1]; k++) m |= B->bits[(size_t)E->ent_codes[k] * """ \
        + str(words) + """ + w];
        for (; m; m &= m - 1) {
            int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
            int32_t row = (p * """ + str(n) + """ + t) * """ + str(nd) + """ + codes[t], o = E->nchg;
            int64_t before = *listed;
            switch (row) {
""" + "".join(cases) + """            default:
                if (k_qoff[row + 1] > k_qoff[row] && (r = gen_run(E, B, p, depth, listed, k_qprog + k_qoff[row],
                                                                  k_qprog + k_qoff[row + 1])) < 0) return r;
                break;
            }
            for (int32_t x = o; x < E->nchg; x += E->chg[2 * (size_t)x] + 1) E->chg[2 * (size_t)x + 1] |= t; /* its tile */
            if (at && *listed > before) {
                at[3 * *nat] = t;
                at[3 * *nat + 1] = (int32_t)(*listed - before);
                at[3 * *nat + 2] = E->nchg > o ? o : -1;
                (*nat)++;
            }
        }
    }
    (void)v;
    (void)nc;
    (void)ch;
    (void)moves;
    (void)ply;
    return 0;
}

/* The turn j (from 0) of a node gen_play_quiet counted (at), in the interpreter's order: the legal keys from k (to
   k1, by tile) merged with the tiles of at, a tile's quiet turns before its keys (gen_nth's order).  *key its key, or -1
   with *o its listed turn's offset (a tile counted only listed now, after the node's listing, by its row's program:
   gen_run at depth 0, the order gen_play_quiet lists, up to the turn sought).  0, or < 0 an error.  Cost: part of
   one row listed, not the node. */
static int gen_pick(tp_engine *E, Board *B, int32_t p, int32_t k, int32_t k1, const int32_t *at, int32_t nat,
                    int32_t j, int32_t *key, int32_t *o) {
    int32_t i = 0;
    for (;;) {
        while (k < k1 && !E->keys[k].legal) k++;
        if (k < k1 && (i >= nat || E->keys[k].start < at[3 * i])) {
            if (j == 0) {
                *key = k;
                return 0;
            }
            j--;
            k++;
        } else if (i >= nat) {
            return TP_ERR_ARG;
        } else if (j < at[3 * i + 1]) {
            break;
        } else {
            j -= at[3 * i + 1];
            i++;
        }
    }
    int32_t x = at[3 * i + 2];
    if (x < 0) {
        int32_t t = at[3 * i], row = (p * """ + str(n) + """ + t) * """ + str(nd) + """ + B->codes[t];
        int64_t got = -1 - (int64_t)j; /* 0 at turn j: gen_run stops there */
        x = E->nchg;
        int r = gen_run(E, B, p, 0, &got, k_qprog + k_qoff[row], k_qprog + k_qoff[row + 1]);
        if (r < 0) return r;
        if (got != 0) return TP_ERR_ARG; /* the listing is the count's */
    }
    for (; j > 0; j--) x += E->chg[2 * (size_t)x] + 1;
    *key = -1;
    *o = x;
    return 0;
}

""" + f"#define GEN_DRAWS {draws}\n#define GEN_MANDATORY_OK {ok}\n" + """#define GEN_SAFE 0x40000000
#define GEN_TILE 0x1fffffff

/* The turn j (from 0) of the node in the interpreter's order: the keys from k (to k1, by tile; all, or with `legal`
   the legal ones) merged with the listed turns from o (to q1), a tile's listed turns before its keys.  Its key, or
   -1 with *at its listed turn's offset. */
static int32_t gen_nth(const tp_engine *E, int32_t k, int32_t k1, int32_t o, int32_t q1, int32_t j, int legal,
                       int32_t *at) {
    for (;; j--) {
        while (legal && k < k1 && !E->keys[k].legal) k++;
        int key = k < k1 && (o >= q1 || E->keys[k].start < (E->chg[2 * (size_t)o + 1] & GEN_TILE));
        if (j == 0) {
            *at = o;
            return key ? k : -1;
        }
        if (key)
            k++;
        else
            o += abs(E->chg[2 * (size_t)o]) + 1;
    }
}

/* The royal test of the turn listed at o, as gen_settle's (leaf_safe, its changes after the clean-ups, by tile),
   kept in its listing (nc negated: not safe; GEN_SAFE in its tile word: safe): 1 safe, 0 not, < 0 an error. */
static int gen_listed_safe(tp_engine *E, Board *B, int32_t p, int32_t o) {
    int32_t *h = E->chg + 2 * (size_t)o;
    if (h[0] < 0) return 0;
    if (h[1] & GEN_SAFE) return 1;
    for (int32_t c = 0; c < h[0]; c++) {
        E->tmp[3 * c] = h[2 + 2 * c];
        E->tmp[3 * c + 1] = h[3 + 2 * c];
        E->tmp[3 * c + 2] = B->codes[h[2 + 2 * c]];
    }
    Walk W = {B, p, WALK_TURNS, E->path_top, E->undo_top, E->seq_top, -1, NULL, NULL, 0};
    int r = leaf_safe(E, &W, h[0]);
    if (r < 0) return r;
    if (r)
        h[1] |= GEN_SAFE;
    else
        h[0] = -h[0];
    return r;
}

/* playout_turn for a settled rule set: the turns of the node as the settled perft lists them, in the interpreter's
   order (a tile's quiet turns, then its keyed ones: the walk's order); the one the stream picks made (without
   GEN_DRAWS counted tile by tile, gen_play_quiet's at, and only the picked one's tile listed: gen_pick).  GEN_DRAWS
   (royal_draws): listed before the royal test, drawn as draw_legal draws among the interpreter's keys, only the
   turns drawn tested (gen_listed_safe).  A turn gen_run listed unsettled (GEN_RAW: a turn whatever the clean-ups
   do) is settled only if picked.  Returns how many turns the node has (> 0: one made), 0 none, < 0 an
   error. */
static int32_t gen_playout(tp_engine *E, Board *B, int32_t p, int32_t q, uint64_t *s, const int32_t **last,
                           int32_t *nlast, int *pass) {
    int32_t k0 = E->nkeys, c0 = E->nchg;
    *pass = 0;
    E->quiet_apart = 1;
    int64_t legal = node_turns(E, B, p); /* the node's memos; the other moves' turns as keys */
    E->quiet_apart = 0;
    int64_t nq = 0;
    int32_t k1 = E->nkeys, q0 = E->nchg, k = -1, o = -1, r = 0, at[""" + str(3 * n) + """], nat = 0;
    if (legal >= 0 && GEN_MANDATORY_OK) {
        gen_royal_later = GEN_DRAWS; /* the royal test where a turn is drawn */
        r = gen_play_quiet(E, B, p, q, &nq, GEN_DRAWS ? NULL : at, &nat);
        gen_royal_later = 0;
        if (r < 0) legal = r;
    }
    int32_t q1 = E->nchg;
    if (legal >= 0 && GEN_DRAWS) { /* draw_legal's draws among all the turns */
        int32_t all = k1 - k0 + (int32_t)nq, found = 0;
        for (int32_t d = 0; d < all && !found; d++) {
            k = gen_nth(E, k0, k1, q0, q1, (int32_t)(splitmix(s) % (uint64_t)all), 0, &o);
            found = k >= 0 ? E->keys[k].legal : (r = gen_listed_safe(E, B, p, o));
            if (r < 0) break;
        }
        if (r >= 0 && all && !found) { /* every draw missed: the legal ones counted, one drawn */
            int32_t safe = 0;
            for (int32_t i = k0; i < k1; i++) safe += E->keys[i].legal;
            for (int32_t i = q0; i < q1 && r >= 0; i += abs(E->chg[2 * (size_t)i]) + 1)
                safe += r = gen_listed_safe(E, B, p, i);
            if (r >= 0 && safe) {
                int32_t pick = (int32_t)(splitmix(s) % (uint64_t)safe);
                for (int32_t j = 0; found < 1 + pick; j++) {
                    k = gen_nth(E, k0, k1, q0, q1, j, 0, &o);
                    found += k >= 0 ? E->keys[k].legal : E->chg[2 * (size_t)o] > 0;
                }
            }
        }
        if (r < 0) legal = r;
        legal = legal < 0 ? legal : found ? all : 0;
    } else if (legal >= 0) {
        legal += nq;
        if (legal > 0 && (r = gen_pick(E, B, p, k0, k1, at, nat, (int32_t)(splitmix(s) % (uint64_t)legal), &k,
                                       &o)) < 0) legal = r;
        q1 = E->nchg; /* after a row listed for the pick */
    }
    if (legal > 0) {
        const int32_t *x = k >= 0 ? E->chg + 2 * (size_t)E->keys[k].off : E->chg + 2 * (size_t)(o + 1);
        int32_t nc = k >= 0 ? E->keys[k].len : E->chg[2 * (size_t)o];
        if (k < 0 && (E->chg[2 * (size_t)o + 1] & GEN_RAW)) { /* listed unsettled: its clean-ups now, after q1 */
            nc = gen_settle(E, B, p, x, nc);
            if (nc > 0 && q1 + nc > E->chg_cap) nc = TP_ERR_CAP;
            for (int32_t c = 0; c < nc; c++) {
                E->chg[2 * ((size_t)q1 + c)] = E->tmp[3 * c];
                E->chg[2 * ((size_t)q1 + c) + 1] = E->tmp[3 * c + 1];
            }
            x = E->chg + 2 * (size_t)q1;
            if (nc <= 0) legal = nc < 0 ? nc : TP_ERR_ARG; /* a sure turn is a turn */
        }
        if (legal > 0 && E->undo_top + nc > E->undo_cap) {
            legal = TP_ERR_CAP;
        } else if (legal > 0) {
            for (int32_t c = 0; c < nc; c++) put(E, B, x[2 * c], x[2 * c + 1]);
            *last = x; /* kept until the next node's listing writes there */
            *nlast = nc;
        }
    }
    E->nkeys = k0;
    E->nchg = c0;
    return (int32_t)legal;
}
"""


def _listed_conts(walks: dict[tuple[int, int], Step]) -> dict[int, Cont]:
    """The shared continuations the walks call in a playout's listing, by name."""
    out: dict[int, Cont] = {}
    todo = list(walks.values())
    while todo:
        s = todo.pop()
        for x in s.then:
            if isinstance(x, Step):
                todo.append(x)
            else:
                out[x.cont.name] = x.cont
    return out


def _gen_cont_at(conts: dict[int, Cont], stride: int) -> str:
    """gen_cont_at: a playout listing's call of a shared continuation as one entry (``[-1 - name, its turns, pnc, the
    caller's pnc changes]`` at the listing's stride), its turns counted by the perft's function of the same arms
    (``gen_cont_{counted}``, as the last ply of a bulk count counts them) rather than listed; gen_cont_pick: turn k
    of such an entry, its continuation's turns listed then (``gen_cont_list_{name}``: the interpreter's order).
    Cost: a count per landing tile and one listing per node (amazons: an arrow's tiles counted, not some 2,000
    turns written)."""
    cases = "".join(f"    case {k}: gen_cont_list_{k}(E, B, B->codes, into, &n, m + 3, m[2]); break;\n"
                    for k in sorted(conts))
    ahead = "".join(f"static int32_t *gen_cont_list_{k}(tp_engine *E, const Board *B, const int32_t *board, int32_t *o, "
                    "int32_t *nq, const int32_t *pch, int32_t pnc);\n" for k in sorted(conts))
    return ahead + """
typedef int (*gen_counter)(tp_engine *, Board *, const int32_t *, int32_t, int32_t, int32_t, int64_t *, int64_t *,
                           const int32_t *, int32_t);

static int32_t *gen_cont_at(tp_engine *E, const Board *B, const int32_t *board, int32_t *o, int32_t *nq,
                            int32_t name, gen_counter count, const int32_t *pch, int32_t pnc) {
    int64_t turns = 0, moves = 0;
    int32_t made = E->make_leaves;
    E->make_leaves = 0; /* counted as a bulk count's last ply counts */
    count(E, (Board *)B, board, 0, 0, 1, &turns, &moves, pch, pnc);
    E->make_leaves = made;
    if (!turns) return o;
    o[0] = -1 - name;
    o[1] = (int32_t)turns;
    o[2] = pnc;
    memcpy(o + 3, pch, 2 * (size_t)pnc * sizeof *pch);
    *nq += (int32_t)turns;
    return o + """ + str(stride) + """;
}

static const int32_t *gen_cont_pick(tp_engine *E, const Board *B, const int32_t *m, int32_t k, int32_t *into) {
    int32_t n = 0;
    switch (-1 - m[0]) {
""" + cases + """    default: break;
    }
    return into + (size_t)k * """ + str(stride) + """;
}

"""


def _lazy_fits(sizes: dict[str, int], quiet: dict[int, list[int]], value: Callable[[int], str], wr_off: list[int],
               wr_tile: list[int], captured: set[int], changes: frozenset[int], fit_only: Callable[[int], str],
               walked: set[int], conditioned: frozenset[int]) -> dict[int, str] | None:
    """Where every quiet move changes a tile wherever it fits (a move of ``captured`` in ``changes``; another writes
    on its own tile a constant other than its row's code), is one turn (none of ``walked``: an entry move with links
    is a walk of many) and has no count conditions (none of ``conditioned``: gen_quiet_list reads them), the C of
    each one's fit beyond its pattern ("1": none); else None."""
    n, nd = sizes["n"], sizes["nd"]
    out: dict[int, str] = {}
    for r, row in quiet.items():
        t, c = (r // nd) % n, r % nd
        for a in row:
            if a in walked or a in conditioned:
                return None
            if a in captured:
                if a not in changes:
                    return None
                out[a] = fit_only(a)
            else:
                own = [value(k) for k in range(wr_off[a], wr_off[a + 1]) if wr_tile[k] == t]
                if not any(v.isdigit() and int(v) != c for v in own):
                    return None
                out[a] = "1"
    return out or None


def _gen_quiet_fits(sizes: dict[str, int], quiet: dict[int, list[int]], checks: Callable[[int], list[tuple[int, int]]],
                    test: Callable[[list[tuple[int, int]]], str], value: Callable[[int], str], wr_off: list[int],
                    wr_tile: list[int], captured: set[int], fit: dict[int, str], codes_of: list[list[int]],
                    words: int) -> str:
    """gen_quiet_fits: the quiet moves of entry set ps that fit, their applications in the order the walk finds them
    (each a turn: :func:`_lazy_fits`); gen_quiet_changes: one move's changes, as gen_quiet_list gathers them."""
    n, nd = sizes["n"], sizes["nd"]
    out = ["""
/* The quiet moves of entry set ps that fit, their applications into list; how many. */
static int32_t gen_quiet_fits(tp_engine *E, const Board *B, int32_t ps, int32_t *list) {
    const int32_t *codes = B->codes;
    int32_t nq = 0, nc;
""" + _scan_codes(codes_of, words, n, nd)]
    moves: set[int] = set()
    for r, row in quiet.items():
        if not row:
            continue
        t = (r // nd) % n
        lines = "".join(f"                if ({test([(u, m) for u, m in checks(a) if u != t])} && {fit[a]}) "
                        f"list[nq++] = {a};\n" for a in row)
        moves.update(row)
        out.append(f"            case {r}:\n{lines}                break;\n")
    out.append("""            default: break;
            }
        }
    }
    (void)nc;
    (void)E;
    return nq;
}

/* The changes of quiet move a, its fit read (tile, new value pairs into ch); how many. */
static int32_t gen_quiet_changes(tp_engine *E, const int32_t *codes, int32_t a, int32_t *ch) {
    int32_t nc = 0, v;
    switch (a) {
""")
    for a in sorted(moves):
        if a in captured:
            out.append(f"    case {a}: nc = gen_captured(E, codes, {a}, ch); return nc < 0 ? 0 : nc;\n")
            continue
        writes = "".join(f" v = {value(k)}; if (v != codes[{wr_tile[k]}]) {{ ch[2 * nc] = {wr_tile[k]}; "
                         f"ch[2 * nc + 1] = v; nc++; }}" for k in range(wr_off[a], wr_off[a + 1]))
        out.append(f"    case {a}:{writes} return nc;\n")
    out.append("""    default: break;
    }
    (void)v;
    (void)E;
    return nc;
}
""")
    return "".join(out)


def _placements(sizes: dict[str, int], quiet: dict[int, list[int]], checks: Callable[[int], list[tuple[int, int]]],
                value: Callable[[int], str], wr_off: list[int], wr_tile: list[int],
                captured: set[int]) -> tuple[dict[int, Groups], set[int]]:
    """The players whose quiet moves can be counted as bit sets: each writes on its own tile a constant other than
    the row's code (so it is a turn wherever it fits), its other checks on tiles at a fixed offset from its own (on
    a board of one word of tiles, read as shifts of the tiles a mask accepts).  Per such player, its moves in
    groups of one code and the same checks (mask row, offset): the group's tiles (at most :data:`MAX_GROUPS`, no
    tile twice); and the players whose moves are placements besides, one move per entry row (their bits' order is
    the interpreter's listing's)."""
    n, nd = sizes["n"], sizes["nd"]
    out: dict[int, Groups] = {}
    single: set[int] = set()
    for q in range(_sets(sizes)):
        groups: Groups = {}
        ok, one = True, True
        for r, row in quiet.items():
            if not row or r // (n * nd) != q:
                continue
            t, c = (r // nd) % n, r % nd
            one = one and len(row) == 1
            for a in row:
                own = [value(k) for k in range(wr_off[a], wr_off[a + 1]) if wr_tile[k] == t]
                offsets = tuple(sorted((m, u - t) for u, m in checks(a) if u != t))
                tiles = groups.setdefault((c, offsets), [])
                if a in captured or not any(v.isdigit() and int(v) != c for v in own) or (offsets and n > 64) \
                        or len(groups) > MAX_GROUPS or t in tiles:
                    ok = False
                    break
                tiles.append(t)
            if not ok:
                break
        if ok and groups:
            out[q] = groups
            if one:
                single.add(q)
    return out, single


Groups = dict[tuple[int, tuple[tuple[int, int], ...]], list[int]]  # (code, ((mask row, offset), ...)): tiles
MAX_GROUPS = 16  # groups of placements a player's bit sets are read in; more (offsets varying by tile): the listing


def _gen_place_mask(sizes: dict[str, int], counting: dict[int, Groups], single: set[int], masks: np.ndarray) -> str:
    """gen_place_mask(B, p, mw, cnt): for a player whose quiet moves :func:`_placements` reads as bit sets, the tiles
    where one fits as bit sets mw (the tiles holding its code, and for each check the tiles its mask accepts shifted
    by the check's offset; for placements (a tile in one group at most: ``single``) their union in tile order, with
    cnt their populations; for the others only the sum); returns how many.  Cost: a few instructions a word and
    group."""
    n, nd = sizes["n"], sizes["nd"]
    words = (n + 63) // 64
    full = (1 << 64) - 1

    def word(tiles: list[int], w: int) -> int:
        return sum(1 << (t - 64 * w) for t in tiles if 64 * w <= t < 64 * w + 64)

    def accepts(m: int) -> str:
        return "(" + (" | ".join(f"B->bits[{c}]" for c in range(nd) if masks[m][c]) or "0") + ")"

    cases = []
    for q, groups in sorted(counting.items()):
        body = []
        for w in range(words):
            parts = []
            merged: dict[tuple[tuple[tuple[int, int], ...], int], list[int]] = {}  # codes of the same checks and tiles
            for (c, offsets), tiles in sorted(groups.items()):
                mask = word(tiles, w)
                if mask:
                    merged.setdefault((offsets, mask), []).append(c)
            for (offsets, mask), codes in merged.items():
                every = full if w < words - 1 or n % 64 == 0 else (1 << (n % 64)) - 1
                held = " | ".join(f"B->bits[{c * words + w}]" for c in codes)  # a tile holds one code: a union
                term = [f"({held})"] + ([] if mask == every else [f"{mask}ULL"])
                term += [f"({accepts(m)} >> {d})" if d > 0 else f"({accepts(m)} << {-d})" for m, d in offsets]
                parts.append("(" + " & ".join(term) + ")")
            if q in single:
                body.append(f"        mw[{w}] = {' | '.join(parts) or '0'};\n")
            else:
                body.extend(f"        total += gen_popcount{part};\n" for part in parts)
        if q in single:
            body.append(f"        for (size_t w = 0; w < {words}; w++) total += cnt[w] = gen_popcount(mw[w]);\n")
        cases.append(f"    case {q}:\n{''.join(body)}        break;\n")
    return """
/* The set bits of x (without the popcnt instruction, which the target may lack: no library call either). */
static inline uint64_t gen_popcount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (x * 0x0101010101010101ULL) >> 56;
}

static inline uint64_t gen_place_mask(const Board *B, int32_t ps, uint64_t *mw, uint64_t *cnt) {
    uint64_t total = 0;
    switch (ps) {
""" + "".join(cases) + """    default: break;
    }
    (void)mw;
    (void)cnt;
    return total;
}
"""


def _gen_placement(sizes: dict[str, int], quiet: dict[int, list[int]], placing: dict[int, Groups],
                   checks: Callable[[int], list[tuple[int, int]]], test: Callable[[list[tuple[int, int]]], str],
                   value: Callable[[int], str], wr_off: list[int], wr_tile: list[int], maxw: int,
                   captured: set[int], conditioned: frozenset[int]) -> str:
    """gen_place: a playout's turn for a player whose quiet moves are placements (:func:`_placements`): the tiles
    where one fits (gen_place_mask), the picked one found by its rank among them (tile order: the interpreter's
    listing's) and only its new values computed.  Cost: a few instructions a word of tiles and group."""
    n, nd = sizes["n"], sizes["nd"]
    words = (n + 63) // 64
    rows = {r: row for r, row in quiet.items() if row and r // (n * nd) in placing}
    apply = _quiet_cases(sizes, rows, checks, test, value, wr_off, wr_tile, "", "ch", captured,
                         conditioned=conditioned)
    apply = apply.replace("            case ", "    case ")
    return """
/* The changes of the placement of entry row `row` (as gen_quiet_list writes them), its application in *app;
   returns how many. */
static int32_t gen_place_changes(const Board *B, int32_t row, int32_t *ch, int32_t *app) {
    const int32_t *codes = B->codes;
    int32_t nc = 0, v, qa = -1;
    switch (row) {
""" + apply + """    default: break;
    }
    (void)v;
    *app = qa;
    return nc;
}

static int32_t gen_place(tp_engine *E, Board *B, int32_t p, int32_t ps, int32_t q, uint64_t *s, const int32_t **last,
                         int32_t *nlast, int *pass) {
    uint64_t mw[""" + str(words) + """], cnt[""" + str(words) + """];
    uint64_t total = gen_place_mask(B, ps, mw, cnt);
    (void)p;
    (void)q;
    (void)pass;
""" + _PASS_DRAW.replace("LEGAL", "total") * bool(sizes["pass_always"]) + """    if (total == 0) return 0;
    uint64_t pick = splitmix(s) % total;
    size_t w = 0;
    while (pick >= cnt[w]) pick -= cnt[w++];
    uint64_t m = mw[w];
    for (; pick; pick--) m &= m - 1;
    int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
    if (E->nchg + """ + str(maxw) + """ > E->chg_cap || E->undo_top + """ + str(maxw) + """ > E->undo_cap) return TP_ERR_CAP;
    int32_t *ch = E->chg + 2 * (size_t)E->nchg, qa;
    int32_t nc = gen_place_changes(B, (ps * """ + str(n) + """ + t) * """ + str(nd) + """ + B->codes[t], ch, &qa);
""" + _COUNTERS_ON.replace("QA", "qa") * bool(sizes["nctr"]) + """    (void)qa;
    for (int32_t c = 0; c < nc; c++) {
        E->undo_tile[E->undo_top] = ch[2 * c];
        E->undo_old[E->undo_top++] = B->codes[ch[2 * c]];
        quiet_set(B, ch[2 * c], ch[2 * c + 1]);
    }
    *last = ch;
    *nlast = nc;
    return (int32_t)total;
}
"""


def cached(tabs: Tables) -> bool:
    """True when the specialised module of these tables is compiled already.  Cost: a hash of the tables."""
    return build.built_path(module_name(tabs)).exists()


def compile_seconds(source: str) -> float:
    """About how long compiling ``source`` takes (:data:`COMPILE_RATE`)."""
    return COMPILE_START + len(source) / COMPILE_RATE


def load(tabs: Tables, source: str | None = None) -> ModuleType:
    """The specialised module of these tables (``source``: their :func:`generate`, when made already), compiled into
    the cache on first use (raises as :func:`tapology.rules.native.build.load` does).  Cost: an import when cached,
    else a C compile (seconds)."""
    name = module_name(tabs)
    if build.built_path(name).exists():
        return build.load_built(name)
    return build.load_built(name, source if source is not None else generate(tabs), FLAGS)


def compile_later(tabs: Tables, source: str) -> bool:
    """Compile the specialised module of these tables in a process of its own, for a later run
    (:func:`tapology.rules.native.build.compile_later`); False when it is compiled or compiling already."""
    return build.compile_later(module_name(tabs), source, FLAGS)
