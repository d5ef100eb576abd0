"""Flattening a :class:`Chains` (its :class:`Compiled` board tables, clean-ups, royal rule, attack index and strict
end rules) into the arrays of ``engine.h``'s ``tp_tables``.

Every table the walk may read is built first (entries for every player, tile and valid code, the
links of every application reached, the clean-ups, the attack index), so the C engine never asks
Python for more.  Codes are renumbered densely (``valid_codes`` in order); a mask over codes
becomes a row of bytes, interned.  Cost: the Python tables' own build (O(n·|codes|·entries) for
the attack index) plus one pass over the applications.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import cast

import numpy as np

from tapology.rules.cache import gc_paused
from tapology.rules.chains import Chains, separators
from tapology.rules.compiled import Compiled
from tapology.rules.ends import EndRules, connect_regions
from tapology.rules.model import Condition, EndRule, RuleSet

OPS = (">=", "<=", "==", "!=", ">", "<")
END_PLIES, END_LINE, END_COUNT, END_CONNECT, END_CHAIN, END_COUNTER = 1, 2, 3, 4, 5, 6
COND_BOARD, COND_REGION, COND_MISSING, COND_ANY = 0, 1, 2, 3


class Unsupported(Exception):
    """The rule set uses something the native engine does not run (the message says what)."""


def _csr(rows: Iterable[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, items) of a list of rows."""
    rows = rows if isinstance(rows, list) else list(rows)
    off = np.zeros(len(rows) + 1, np.int32)
    off[1:] = np.cumsum(np.fromiter(map(len, rows), np.int64, len(rows)))
    return off, np.fromiter(chain.from_iterable(rows), np.int32, int(off[-1]))


BYTES = frozenset({"masks", "app_flag", "lnk_forced", "grp_always", "grp_indexed", "royal_mine", "royal_any",
                   "ray_loop", "app_block", "end_after", "app_final", "cond_outside", "cond_here", "own_code",
                   "cond_around", "app_max"})


def lengths(f: dict[str, np.ndarray | int]) -> dict[str, int]:
    """The length every array of ``tp_tables`` must have, from the sizes (engine.h's comments)."""
    g = {k: int(v) for k, v in f.items() if not isinstance(v, np.ndarray)}
    n, nd, np_ = g["n"], g["nd"], g["np"]
    out = {"raw_code": nd, "masks": g["nmasks"] * nd, "maps": g["nmaps"] * nd, "royal_mine": np_ * nd, "royal_any": nd,
           "probe": np_, "ent_off": (g["nphases"] + 1) * np_ * n * nd + 1, "grp_off": np_ + 1, "att_off": np_ * n + 1,
           "grp_tile_off": g["ngroups"] * (n + 1), "end_pmask": g["nends"] * np_, "end_cond_off": g["nends"] * np_ + 1}
    rows = {"napps": ("app_tile", "app_to", "app_flag", "app_slide", "app_max", "app_sep"), "nchk": ("chk_tile", "chk_mask"),
            "nwr": ("wr_tile", "wr_src", "wr_map"), "nlinks": ("lnk_forced",), "ntgt": ("tgt",), "nsafe": ("safe_tile",),
            "nent": ("ent_app",), "ngroups": ("grp_always", "grp_indexed"), "ngrp_cond": ("grp_cond",),
            "ngrp_app": ("grp_app",), "ngrp_trig": ("grp_trig",), "nconds": ("cond_kind", "cond_op", "cond_value", "cond_mask"),
            "ncond_codes": ("cond_codes",), "ncond_tiles": ("cond_tiles",), "natt": ("att_tile", "att_mask"),
            "natt_apps": ("att_app", "att_app_mask"), "nends": ("end_kind", "end_check", "end_value", "end_k"),
            "nend_conds": ("end_conds",), "nline_tiles": ("line_tiles",),
            "nrays": ("ray_loop",), "nray_tiles": ("ray_tiles", "ray_code")}
    out.update({name: g["napps"] for name in ("app_over", "app_until", "app_need")})
    out.update({"conn_bits": g["nends"] * np_ * n, "conn_full": g["nends"], "nbr_off": n + 1, "nbr": g["nnbr"],
                "end_exact": g["nends"], "lnk_cond_off": g["nlinks"] + 1, "lnk_cond": g["nlnk_cond"],
                "app_cond_off": g["napps"] + 1, "app_cond": g["napp_cond"],
                "app_gc": g["napps"], "app_block": g["napps"], "lnk_line": g["nlinks"],
                "end_app_off": g["nends"] * np_ + 1, "end_apps": g["nend_apps"], "end_op": g["nends"],
                "end_mover": g["nends"], "phase_plies": g["nphases"], "phase_order_off": g["nphases"] + 1,
                "phase_order": g["nphase_order"], "end_after": g["nends"], "app_final": g["napps"],
                "cond_line": g["nconds"], "cond_outside": g["nconds"], "cond_here": g["nconds"], "cond_lset": g["nconds"],
                "lset_off": g["nlsets"] * n + 1, "lset_line": g["nlset_line"], "lset_tiles": g["nlset_tiles"],
                "app_reset": g["napps"], "code_reset": nd, "end_counter": g["nends"], "app_block_sig": g["napps"],
                "own_code": np_ * nd, "cond_around": g["nconds"], "cond_any_off": g["nconds"] + 1,
                "cond_any": g["ncond_any"], "ar_off": n + 1, "ar": g["nar"], "app_cost": g["napps"],
                "mgrp_off": np_ + 1, "lnk_table": g["nlinks"], "ltab_off": g["nltab"] * n * nd + 1,
                "ltab_app": g["nltab_app"]})
    out.update({name: g["ngc"] for name in ("gc_foe", "gc_lib", "gc_own", "gc_becomes", "gc_suicide")})
    for size, names in rows.items():
        out.update({name: g[size] for name in names})
    offsets = {"napps": ("chk_off", "wr_off", "lnk_off", "safe_off"), "nlinks": ("tgt_off",),
               "ngroups": ("grp_cond_off", "grp_app_off", "grp_trig_off"), "nconds": ("cond_code_off", "cond_tile_off"),
               "natt": ("att_app_off",), "nends": ("end_line_off",), "nrays": ("ray_tile_off",)}
    out["app_ray_off"] = g["napps"] + 1
    for size, names in offsets.items():
        out.update({name: g[size] + 1 for name in names})
    return out


@dataclass
class Tables:
    """The arrays of ``tp_tables`` by field name (sizes as ints), and what the wrapper needs to read results."""

    fields: dict[str, np.ndarray | int] = field(default_factory=dict)
    dense: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # code -> dense code, -1 invalid
    perft_reason: str = ""  # why perft cannot run natively ("" when it can)


class _Builder:
    def __init__(self, chains: Chains) -> None:
        self.chains = chains
        self.comp = chains.comp
        self.valid = list(self.comp.valid_codes)
        self.nd = len(self.valid)
        self.dense = np.full(self.comp.n_codes, -1, np.int32)
        self.dense[self.valid] = np.arange(self.nd, dtype=np.int32)
        self.mask_rows: list[bytes] = []
        self.mask_id: dict[bytes, int] = {}
        self.by_bits: dict[int, int] = {}
        self.conds: list[tuple[int, int, int, int, list[int], list[int], int, int, int, int, int, list[int]]] = []
        self.cond_ids: dict[tuple[Condition, int], int] = {}  # conditions read alike share one id
        self.lsets: dict[int, int] = {}  # line length -> the line set of the conditions on lines of that length

    def mask(self, codes: Iterable[int]) -> int:
        """The interned mask row accepting these (raw) codes."""
        bits = 0
        for c in codes:
            bits |= 1 << c
        return self.mask_bits(bits)

    def mask_bits(self, bits: int) -> int:
        """The interned mask row of a bitmask over (raw) codes; invalid codes are left out.  Cached by bitmask."""
        got = self.by_bits.get(bits)
        if got is None:
            row = bytes((bits >> c) & 1 for c in self.valid)
            got = self.mask_id.get(row)
            if got is None:
                got = len(self.mask_rows)
                self.mask_rows.append(row)
                self.mask_id[row] = got
            self.by_bits[bits] = got
        return got

    def bits(self, mask: int) -> list[int]:
        """The valid codes of a bitmask over codes."""
        return [c for c in self.valid if (mask >> c) & 1]

    def condition(self, cond: Condition, player: int) -> int:
        """The id of a count condition resolved for ``player`` (chains.count_tiles), with its line set (``line``)."""
        key = (cond, player)
        got = self.cond_ids.get(key)
        if got is None:
            got = self.cond_ids[key] = self._condition(cond, player)
        return got

    def _condition(self, cond: Condition, player: int) -> int:
        """A new condition id of ``cond`` for ``player`` (:meth:`condition`)."""
        comp = self.comp
        if cond.any:  # a disjunction: its alternatives first, then the condition listing them
            alts = [self.condition(a, player) for a in cond.any]
            self.conds.append((COND_ANY, 0, 0, self.mask(()), [], [], 0, 0, 0, -1, 0, alts))
            return len(self.conds) - 1
        wanted = comp.state_codes(cond.states, player)
        dense = sorted(int(self.dense[c]) for c in wanted)
        tiles: list[int] = []
        kind = COND_BOARD
        if cond.region:
            name = cond.region.replace("{player}", comp.rules.players[player])
            region = comp.regions.get(name)
            kind = COND_MISSING if region is None else COND_REGION
            tiles = sorted(region or ())
        lset = self.lsets.setdefault(cond.line, len(self.lsets)) if cond.line else -1
        self.conds.append((kind, OPS.index(cond.op), cond.value, self.mask(wanted), dense, tiles, cond.line,
                           int(cond.outside and bool(cond.line)), int(cond.here), lset, int(cond.around), []))
        return len(self.conds) - 1


def _force(chains: Chains) -> None:
    """Build every table the walk can read: entries (of the regular play and of each phase), links (to a closure),
    clean-ups, attack index."""
    comp = chains.comp
    for p in range(comp.np):
        for phase in range(-1, len(chains.rules.phases)):
            for t in range(comp.n):
                for c in comp.valid_codes:
                    comp.entries(p, t, c, phase)
        chains._cleanup_groups(p, "turn")
        chains._cleanup_groups(p, "move")
    done = 0
    while done < len(comp.apps):  # links may place new applications, whose links are built in turn
        comp.links(done)
        done += 1
    if chains.royal_values:
        for p in range(comp.np):
            comp.attack_index(p)


def _connect_rows(comp: Compiled, e: EndRule) -> list[list[int]]:
    """Per player, each tile's regions of a connect rule as bits (all 0 where the board lacks a region)."""
    out = []
    for p in range(comp.np):
        regions = connect_regions(comp, e, p)
        row = [0] * comp.n
        if regions and all(regions):
            for i, r in enumerate(regions):
                for t in r:
                    row[t] |= 1 << i
        out.append(row)
    return out


def _group_captures(b: _Builder, f: dict[str, np.ndarray | int]) -> None:
    """The applications' captures by liberties (Compiled.group_captures): one spec per distinct capture."""
    specs: dict[tuple, int] = {}
    app_gc = []
    for a in b.comp.apps:
        if a.groups is None:
            app_gc.append(-1)
            continue
        gr = a.groups
        key = (b.mask_bits(gr.foe), b.mask_bits(gr.liberty), b.mask_bits(gr.own), int(b.dense[gr.becomes]),
               int(gr.suicide))
        if key[3] < 0:
            raise Unsupported("a capture by liberties writes a code that no state stands for")
        app_gc.append(specs.setdefault(key, len(specs)))
    rows = list(specs)
    f["app_gc"] = np.asarray(app_gc, np.int32)
    for i, name in enumerate(("gc_foe", "gc_lib", "gc_own", "gc_becomes", "gc_suicide")):
        f[name] = np.asarray([r[i] for r in rows], np.int32)
    f["ngc"] = len(rows)


def _line_captures(b: _Builder, f: dict[str, np.ndarray | int]) -> None:
    """The applications' line captures (Compiled.captures): rays per application, tiles and written codes per ray."""
    apps = b.comp.apps
    rays = [a.lines.runs if a.lines is not None else () for a in apps]
    f["app_ray_off"], _ = _csr([range(len(r)) for r in rays])
    f["app_over"] = np.asarray([b.mask_bits(a.lines.over) if a.lines is not None else 0 for a in apps], np.int32)
    f["app_until"] = np.asarray([b.mask_bits(a.lines.until) if a.lines is not None else 0 for a in apps], np.int32)
    f["app_need"] = np.asarray([a.lines.need if a.lines is not None else 0 for a in apps], np.int32)
    runs = [run for r in rays for run in r]
    f["ray_tile_off"], f["ray_tiles"] = _csr([tiles for tiles, _new, _loops in runs])
    codes = [int(b.dense[c]) for _tiles, new, _loops in runs for c in new]
    if any(c < 0 for c in codes):
        raise Unsupported("a line capture writes a code that no state stands for")
    f["ray_code"] = np.asarray(codes, np.int32)
    f["ray_loop"] = np.asarray([loops for _tiles, _new, loops in runs], np.uint8)


def _native_end(rules: RuleSet, e: EndRule) -> bool:
    """Whether the engine reads this strict end rule itself: plies, line, count, connect, counter, and a chain of a
    move that links nowhere (so the longest chain is 1 where some application fits, else 0: gess's ring)."""
    if e.kind in ("plies", "line", "count", "connect", "counter"):
        return True
    if e.kind != "chain":
        return False
    m = next(m for m in rules.moves if m.name == e.move)
    return not m.links and m.lines is None and m.captures is None


def _chain_apps(chains: Chains) -> dict[int, list[list[int]]]:
    """For each strict chain end rule the engine reads (by its index among the rules it reads), per player, the
    applications of its move at every tile and orientation."""
    comp = chains.comp
    rules = chains.rules
    out: dict[int, list[list[int]]] = {}
    strict = [e for e in EndRules(rules, optional=False).ends if e.kind != "no-turns" and _native_end(rules, e)]
    for i, e in enumerate(strict):
        if e.kind == "chain":
            mi = comp.move_index[e.move]
            out[i] = [[a for t in range(comp.n) for g in rules.moves[mi].orientations
                       if (a := comp.place(mi, q, t, g)) >= 0] for q in range(comp.np)]
    return out


def _blocks(chains: Chains, f: dict[str, np.ndarray | int], strict: list) -> None:
    """Block moves and links that stop at a line (chains.py): which applications are block moves (with the least one
    placing the same writes at the same tile: a way of playing, for perft --rbg), and per link the strict line end
    rule (of the same length, read for every state the mover owns) whose lines stop it."""
    comp = chains.comp
    apps = comp.apps
    block = chains.rules.block_moves
    f["app_block"] = np.asarray([a.move in block for a in apps], np.uint8)
    sig: dict[tuple, int] = {}  # perft --rbg tells block moves apart by where they are placed and what they move where
    f["app_block_sig"] = np.asarray([sig.setdefault((a.tile, a.writes), a.ident) if a.move in block else -1
                                     for a in apps], np.int32)
    rows: list[int] = []
    for a in apps:
        for li in range(len(comp.links(a.ident))):
            k = a.link_lines[li] if a.link_lines else 0
            if not k:
                rows.append(-1)
                continue
            e = next((i for i, r in enumerate(strict) if r.kind == "line" and r.k == k and not r.exact and not r.states
                      and r.check is None), -1)
            if e < 0:
                raise Unsupported(f"a link that stops at a line of {k} (until-line) with no strict line end rule of "
                                  f"{k} over every state the mover owns")
            rows.append(e)
    f["lnk_line"] = np.asarray(rows, np.int32)


def _phases(rules: RuleSet, f: dict[str, np.ndarray | int]) -> None:
    """The phases (RuleSet.phase_at, next_player): each one's plies and order, and who plays once they are over."""
    f["nphases"] = len(rules.phases)
    f["phase_plies"] = np.asarray([ph.plies for ph in rules.phases], np.int32)
    f["phase_order_off"], f["phase_order"] = _csr([ph.order for ph in rules.phases])
    f["nphase_order"] = len(cast("np.ndarray", f["phase_order"]))
    f["first_player"] = rules.initial.to_move


def _counters(rules: RuleSet, comp: Compiled, b: _Builder, f: dict[str, np.ndarray | int]) -> None:
    """The counters (RuleGame._carry) as bits: those each application's class resets, those moving a piece of each
    code's kind resets, and those that stay 0 while the phases last; none where no strict end rule reads one (chess's
    counters serve optional rules only: perft and playouts leave them out)."""
    read = any(e.kind == "counter" for e in EndRules(rules, optional=False).ends)
    counters = rules.counters if read else ()
    if len(counters) > 31:
        raise Unsupported(f"more than 31 counters ({len(counters)})")
    f["nctr"] = len(counters)
    f["app_reset"] = np.asarray([sum(1 << i for i, c in enumerate(counters) if a.klass in c.classes)
                                 for a in comp.apps], np.int32)
    f["code_reset"] = np.asarray([sum(1 << i for i, c in enumerate(counters) if rules.by_value[v // comp.h].kind in c.kinds)
                                  for v in b.valid], np.int32)
    f["ctr_after"] = sum(1 << i for i, c in enumerate(counters) if c.after_phases)


def _line_sets(comp: Compiled, lsets: dict[int, int], f: dict[str, np.ndarray | int]) -> None:
    """The lines the conditions on lines read (Compiled.side_lines), per length: row s*n + u lists where the lines of
    set s through tile u start in ``lset_tiles``."""
    tiles: list[int] = []
    rows: list[list[int]] = []
    for k in sorted(lsets, key=lsets.__getitem__):
        start: dict[tuple[int, ...], int] = {}
        for u in range(comp.n):
            row = []
            for line in comp.side_lines(k)[u]:
                if line not in start:
                    start[line] = len(tiles)
                    tiles.extend(line)
                row.append(start[line])
            rows.append(row)
    f["nlsets"] = len(lsets)
    f["lset_off"], f["lset_line"] = _csr(rows)
    f["lset_tiles"] = np.asarray(tiles, np.int32)
    f["nlset_line"], f["nlset_tiles"] = len(cast("np.ndarray", f["lset_line"])), len(tiles)


def _link_tables(b: _Builder, links: list, f: dict[str, np.ndarray | int]) -> None:
    """The anywhere links read through a table (Compiled.link_table): lnk_table[l] is -1 or the table, whose row
    (table*n + tile)*nd + dense code lists the follow-ups placed on the tile whose origin accepts that code."""
    comp = b.comp
    index: dict[int, int] = {}
    tabs: list[list[dict[int, tuple[int, ...]]]] = []
    lnk_table: list[int] = []
    for a, ls in enumerate(links):
        for li in range(len(ls)):
            table = comp.link_table(a, li)
            if table is None:
                lnk_table.append(-1)
                continue
            if id(table) not in index:
                index[id(table)] = len(tabs)
                tabs.append(table)
            lnk_table.append(index[id(table)])
    f["lnk_table"] = np.asarray(lnk_table, np.int32)
    f["ltab_off"], f["ltab_app"] = _csr([list(tab[t].get(c, ())) for tab in tabs for t in range(comp.n)
                                         for c in b.valid])
    f["nltab"] = len(tabs)
    f["nltab_app"] = len(cast("np.ndarray", f["ltab_app"]))


def build(chains: Chains) -> Tables:
    """The flat tables of ``chains``; raises :class:`Unsupported` for what the engine does not run."""
    with gc_paused():  # some 10^5 tuples made, none of them garbage
        return _flatten(chains)


def _flatten(chains: Chains) -> Tables:
    """:func:`build`, the collector aside."""
    rules = chains.rules
    comp = chains.comp
    if rules.tape is not None:
        raise Unsupported("tape moves")
    if chains.has_move_cleanup and chains.royal_values:
        raise Unsupported('clean-ups run after each move (when = "move") in a rule set with royal states')
    if any(p.line or p.here or p.around for cu in rules.cleanups for c in cu.conditions for p in c.parts):
        raise Unsupported("conditions on lines or on the tile at hand in clean-ups (their memo reads counts only)")
    _force(chains)
    chain_apps = _chain_apps(chains)  # placed before the applications are flattened
    b = _Builder(chains)
    n, nd, np_, h = comp.n, b.nd, comp.np, comp.h
    apps = comp.apps
    f: dict[str, np.ndarray | int] = {"n": n, "nd": nd, "np": np_, "napps": len(apps)}

    # write maps over dense codes
    maps = np.zeros((len(comp.maps), nd), np.int32)
    for m, row in enumerate(comp.maps):
        for d, c in enumerate(b.valid):
            v = b.dense[row[c]]
            if v < 0:
                raise Unsupported(f"write map {m} gives the code {row[c]}, which no state stands for")
            maps[m, d] = v
    f["maps"], f["nmaps"] = maps.ravel(), len(comp.maps)
    f["raw_code"] = np.asarray(b.valid, np.int32)

    # applications
    mandatory = chains.mandatory
    f["app_tile"] = np.asarray([a.tile for a in apps], np.int32)
    f["app_to"] = np.asarray([a.to for a in apps], np.int32)
    f["app_flag"] = np.asarray([a.klass in mandatory for a in apps], np.uint8)
    f["has_maximum"] = int(bool(rules.maximum))
    f["app_max"] = np.asarray([a.klass in rules.maximum for a in apps], np.uint8)
    seps = separators(rules)
    f["nsep"], f["sep_comma"] = len(seps), seps.index(",")
    block = rules.block_moves
    f["app_sep"] = np.asarray([seps.index(f"-{rules.moves[a.move].name}-" if a.move >= 0 and a.move in block else
                                          "x" if a.klass == "capture" else "-") for a in apps], np.int32)
    f["app_final"] = np.asarray([a.move < 0 or chains.ends_chain[a.move] for a in apps], np.uint8)
    slides = rules.slide_groups  # a shot and its flight are one slide
    f["app_slide"] = np.asarray([slides[a.move] if a.move >= 0 else -1 for a in apps], np.int32)
    f["chk_off"], f["chk_tile"] = _csr([[u for u, _m in a.checks] for a in apps])
    f["chk_mask"] = np.asarray([b.mask_bits(m) for a in apps for _u, m in a.checks], np.int32)
    f["wr_off"], f["wr_tile"] = _csr([[u for u, _s, _m in a.writes] for a in apps])
    f["wr_src"] = np.asarray([s for a in apps for _u, s, _m in a.writes], np.int32)
    f["wr_map"] = np.asarray([m for a in apps for _u, _s, m in a.writes], np.int32)
    links = [comp.links(a.ident) for a in apps]
    f["lnk_off"], _ = _csr([range(len(ls)) for ls in links])
    f["lnk_forced"] = np.asarray([forced for ls in links for forced, _ids in ls], np.uint8)
    _link_tables(b, links, f)  # a link read through its table lists no targets of its own
    tabled = iter(cast("np.ndarray", f["lnk_table"]).tolist())
    f["tgt_off"], f["tgt"] = _csr([ids if next(tabled) < 0 else () for ls in links for _forced, ids in ls])
    f["safe_off"], f["safe_tile"] = _csr([a.safe for a in apps])
    if any(a.groups is not None for a in apps) and (chains.royal_values or rules.cleanups):
        raise Unsupported("captures by liberties in a rule set with royal states or clean-ups")
    _group_captures(b, f)
    _line_captures(b, f)
    if chains.royal_values and any(a.link_conds for a in apps):
        raise Unsupported("links with count conditions in a rule set with royal states")
    f["lnk_cond_off"], f["lnk_cond"] = _csr([[b.condition(c, a.player) for c in (a.link_conds[li] if a.link_conds else ())]
                                             for a, ls in zip(apps, links, strict=True) for li in range(len(ls))])
    f["nlnk_cond"] = len(cast("np.ndarray", f["lnk_cond"]))
    turn_cleanups = any(c.when == "turn" for c in rules.cleanups)
    if any(a.conds for a in apps) and (chains.royal_values or turn_cleanups):
        raise Unsupported("moves with count conditions in a rule set with royal states or turn clean-ups")
    f["app_cond_off"], f["app_cond"] = _csr([[b.condition(c, a.player) for c in a.conds] for a in apps])
    f["napp_cond"] = len(cast("np.ndarray", f["app_cond"]))
    f["steps"] = rules.steps
    costs = [m.cost for m in rules.moves]
    f["app_cost"] = np.asarray([costs[a.move] if a.move >= 0 else 0 for a in apps], np.int32)
    f["keyed_by_changes"] = int(rules.keyed_by_changes)
    f["flies_over"] = int(rules.flies_over_stops)
    f["passing"] = int(rules.passing == "when-stuck")
    f["pass_always"] = int(rules.passing == "always")
    f["pass_pieces"] = int(rules.rbg_pass == "pieces")
    f["own_code"] = np.asarray([[c // comp.h in comp.state_values(("own",), p) for c in b.valid] for p in range(np_)],
                               np.uint8).ravel()

    # entries: (set, player, tile, dense code) -> applications, the regular play's set first, then each phase's
    f["ent_off"], f["ent_app"] = _csr([comp.entries(p, t, c, phase) for phase in range(-1, len(rules.phases))
                                       for p in range(np_) for t in range(n) for c in b.valid])
    _phases(rules, f)

    # turn clean-ups: one group per clean-up, with its conditions and the codes that can trigger it
    app_rows: list[list[int]]
    grp_counts, cond_rows, app_rows, trig_rows, always, indexed, tile_rows = [], [], [], [], [], [], []
    for when, p in [("turn", p) for p in range(np_)] + [("move", p) for p in range(np_)]:
        groups = chains._cleanup_groups(p, when)
        grp_counts.append(len(groups))
        for conds, gapps in groups:
            cond_rows.append([b.condition(c, p) for c in conds])
            first = sum(len(r) for r in app_rows)
            app_rows.append([a.ident for a in gapps])
            # each application's key check, its most selective one: the group can fit only where some tile holds
            # one of the key checks' codes
            is_always = any(not a.checks for a in gapps)
            keys = [] if is_always else [min(a.checks, key=lambda um: um[1].bit_count()) for a in gapps]
            trig = {c for _u, m in keys for c in b.bits(m)}
            always.append(is_always)
            trig_rows.append(sorted(int(b.dense[c]) for c in trig))
            tiles = [u for u, _m in keys]
            indexed.append(not is_always and tiles == sorted(tiles))
            tile_rows.append([first + (bisect.bisect_left(tiles, u) if indexed[-1] else 0) for u in range(n + 1)])
    grp_off, _ = _csr([range(k) for k in grp_counts])  # the turn's groups per player, then those after each move
    f["grp_off"], f["mgrp_off"] = grp_off[:np_ + 1].copy(), grp_off[np_:].copy()
    f["grp_cond_off"], f["grp_cond"] = _csr(cond_rows)
    f["grp_app_off"], f["grp_app"] = _csr(app_rows)
    f["grp_trig_off"], f["grp_trig"] = _csr(trig_rows)
    f["grp_always"] = np.asarray(always, np.uint8)
    f["grp_indexed"] = np.asarray(indexed, np.uint8)
    f["grp_tile_off"] = np.asarray([u for row in tile_rows for u in row], np.int32)

    # royal rule and attack index
    royal = chains.royal_values
    f["has_royal"] = int(bool(royal))
    f["has_mandatory"] = int(bool(mandatory))
    f["royal_mine"] = np.asarray([[c // h in royal and comp.owner[c] == p for c in b.valid] for p in range(np_)],
                                 np.uint8).ravel()
    f["royal_any"] = np.asarray([c // h in royal for c in b.valid], np.uint8)
    probes = []
    for p in range(np_):
        mine = [r for r in rules.royal if rules.state_index[r].owner == p]
        probes.append(int(b.dense[chains.probe_code(p)]) if mine else -1)
    f["probe"] = np.asarray(probes, np.int32)
    att_rows: list[list[int]] = []
    att_tile: list[int]
    att_app_mask: list[int]
    att_tile, att_mask, att_app_rows, att_app_mask = [], [], [], []
    code_masks: dict[frozenset[int], int] = {}  # an entry's codes -> their mask (an entry's codes, one set per entry)
    for q in range(np_):
        index = comp.attack_index(q) if royal else {}
        for u in range(n):
            by_tile: dict[int, list[tuple[int, frozenset[int]]]] = {}
            for ident, codes in index.get(u, ()):
                by_tile.setdefault(apps[ident].tile, []).append((ident, codes))
            att_row = []
            for t in sorted(by_tile):
                att_row.append(len(att_tile))
                att_tile.append(t)
                att_mask.append(b.mask(set().union(*(cs for _i, cs in by_tile[t]))))
                att_app_rows.append([i for i, _cs in by_tile[t]])
                att_app_mask.extend(code_masks[cs] if cs in code_masks else code_masks.setdefault(cs, b.mask(cs))
                                    for _i, cs in by_tile[t])
            att_rows.append(att_row)
    f["att_off"], _ = _csr(att_rows)
    f["att_tile"] = np.asarray(att_tile, np.int32)
    f["att_mask"] = np.asarray(att_mask, np.int32)
    f["att_app_off"], f["att_app"] = _csr(att_app_rows)
    f["att_app_mask"] = np.asarray(att_app_mask, np.int32)
    if royal:
        for a in apps:
            if a.safe and probes[a.player] < 0:
                raise Unsupported(f"a move with safe cells is played by {rules.players[a.player]!r}, who has no "
                                  "royal state")

    # strict end rules (no-turns left out: a position without turns has no children anyway); a pass at any time is
    # added to the turns by the caller (perft and playouts here count it: pass_always)
    perft_reason = ""
    end_conds: list[list[int]]
    kinds: list[int] = []
    checks, values, ks, pmask, end_conds, lines = [], [], [], [], [], []
    conn_rows: list[list[list[int]]] = []
    exact: list[int] = []
    after: list[int] = []
    conn_full: list[int] = []
    chain_rows: list[list[int]] = []  # per (end rule, player): a chain rule's applications
    chain_op: list[int] = []
    chain_mover: list[int] = []
    end_counter: list[int] = []
    for e in EndRules(rules, optional=False).ends:
        if e.kind == "no-turns":
            continue
        if not _native_end(rules, e):
            perft_reason = f"a strict {e.kind!r} end rule"
            continue
        chain_op.append(OPS.index(e.op) if e.kind in ("chain", "counter") else 0)
        end_counter.append([c.name for c in rules.counters].index(e.counter) if e.kind == "counter" else -1)
        chain_mover.append(int(e.kind == "chain" and e.mover))
        chain_rows.extend(chain_apps[len(kinds)] if e.kind == "chain" else [[] for _ in range(np_)])
        kinds.append({"plies": END_PLIES, "line": END_LINE, "count": END_COUNT, "connect": END_CONNECT,
                      "chain": END_CHAIN, "counter": END_COUNTER}[e.kind])
        conn_rows.append(_connect_rows(comp, e) if e.kind == "connect" else [[0] * n for _ in range(np_)])
        conn_full.append((1 << len(e.regions)) - 1 if e.kind == "connect" else 0)
        checks.append(-1 if e.check is None else int(e.check))
        values.append(e.value)
        ks.append(e.k if e.kind == "line" else 0)
        if e.kind == "line" and e.exact:
            lines.append([t for before, line, after in comp.exact_lines(e.k) for t in (before, *line, after)])
        else:
            lines.append([t for line in comp.lines(e.k) for t in line] if e.kind == "line" else [])
        exact.append(int(e.kind == "line" and e.exact))
        after.append(int(e.after_phases))
        for p in range(np_):
            if e.kind == "line":
                vals = comp.state_values(e.states, p)
                pmask.append(b.mask(c for c in b.valid if c // h in vals) if vals else -1)
                end_conds.append([])
            elif e.kind == "connect":
                vals = comp.state_values(e.states, p)
                ok = bool(vals) and (e.player is None or e.player == p) and any(conn_rows[-1][p])
                pmask.append(b.mask(c for c in b.valid if c // h in vals) if ok else -1)
                end_conds.append([])
            elif e.kind == "chain":
                pmask.append(int(e.mover or e.player is None or e.player == p))
                end_conds.append([])
            elif e.kind == "count" and (e.player is None or e.player == p):
                pmask.append(1)
                end_conds.append([b.condition(c, p) for c in e.conditions])
            elif e.kind == "counter":
                pmask.append(1)
                end_conds.append([])
            else:
                pmask.append(0)
                end_conds.append([])
    f["end_kind"] = np.asarray(kinds, np.int32)
    f["end_check"] = np.asarray(checks, np.int32)
    f["end_value"] = np.asarray(values, np.int32)
    f["end_k"] = np.asarray(ks, np.int32)
    f["end_pmask"] = np.asarray(pmask, np.int32)
    f["end_cond_off"], f["end_conds"] = _csr(end_conds)
    f["end_line_off"], f["line_tiles"] = _csr(lines)
    f["nends"] = len(kinds)
    f["conn_bits"] = np.asarray([x for rows in conn_rows for row in rows for x in row], np.int32)
    f["conn_full"] = np.asarray(conn_full, np.int32)
    _blocks(chains, f, [e for e in EndRules(rules, optional=False).ends if e.kind != "no-turns" and _native_end(rules, e)])
    f["end_exact"] = np.asarray(exact, np.int32)
    f["end_after"] = np.asarray(after, np.uint8)
    f["end_app_off"], f["end_apps"] = _csr(chain_rows)
    f["nend_apps"] = len(cast("np.ndarray", f["end_apps"]))
    f["end_op"] = np.asarray(chain_op, np.int32)
    f["end_mover"] = np.asarray(chain_mover, np.int32)
    f["end_counter"] = np.asarray(end_counter, np.int32)
    _counters(rules, comp, b, f)
    f["nbr_off"], f["nbr"] = _csr([[c // h for c in row if c >= 0] for row in comp.board.glue])
    f["nnbr"] = len(cast("np.ndarray", f["nbr"]))

    # conditions (from clean-ups and end rules) and masks, last: both grew above
    kinds_c = [c[0] for c in b.conds]
    f["cond_kind"] = np.asarray(kinds_c, np.int32)
    f["cond_op"] = np.asarray([c[1] for c in b.conds], np.int32)
    f["cond_value"] = np.asarray([c[2] for c in b.conds], np.int32)
    f["cond_mask"] = np.asarray([c[3] for c in b.conds], np.int32)
    f["cond_code_off"], f["cond_codes"] = _csr([c[4] for c in b.conds])
    f["cond_tile_off"], f["cond_tiles"] = _csr([c[5] for c in b.conds])
    f["cond_line"] = np.asarray([c[6] for c in b.conds], np.int32)
    f["cond_outside"] = np.asarray([c[7] for c in b.conds], np.uint8)
    f["cond_here"] = np.asarray([c[8] for c in b.conds], np.uint8)
    f["cond_lset"] = np.asarray([c[9] for c in b.conds], np.int32)
    f["cond_around"] = np.asarray([c[10] for c in b.conds], np.uint8)
    f["cond_any_off"], f["cond_any"] = _csr([c[11] for c in b.conds])
    f["ncond_any"] = len(cast("np.ndarray", f["cond_any"]))
    f["ar_off"], f["ar"] = _csr(comp.around)
    f["nar"] = len(cast("np.ndarray", f["ar"]))
    f["nconds"] = len(b.conds)
    _line_sets(comp, b.lsets, f)
    f["masks"] = np.frombuffer(b"".join(b.mask_rows), np.uint8).copy() if b.mask_rows else np.zeros(0, np.uint8)
    f["nmasks"] = len(b.mask_rows)
    for size, arr in (("nchk", "chk_tile"), ("nwr", "wr_tile"), ("nlinks", "lnk_forced"), ("ntgt", "tgt"),
                      ("nsafe", "safe_tile"), ("nent", "ent_app"), ("ngroups", "grp_always"), ("ngrp_cond", "grp_cond"),
                      ("ngrp_app", "grp_app"), ("ngrp_trig", "grp_trig"), ("ncond_codes", "cond_codes"),
                      ("ncond_tiles", "cond_tiles"), ("natt", "att_tile"), ("natt_apps", "att_app"),
                      ("nend_conds", "end_conds"), ("nline_tiles", "line_tiles"), ("nrays", "ray_loop"),
                      ("nray_tiles", "ray_tiles")):
        f[size] = len(cast("np.ndarray", f[arr]))
    return Tables(f, b.dense, perft_reason)
