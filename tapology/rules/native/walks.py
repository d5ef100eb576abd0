"""The walks of entry moves with links (slides, chains of moves) as the generated C unrolls them
(:mod:`tapology.rules.native.specialise`): every chain the interpreter's step may take from an entry move over one
board's constant tiles, the proof that a row's turns are distinct without keys, and the C of each walk, a function
per walk."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np


class Step(NamedTuple):
    """One move of a walk the generated C unrolls (:func:`walk_tree`): its application, the C of its checks left to
    run time (``"1"``: none), the changes of the chain up to it as (tile, C of the new value; after a "!" where the
    node's code may be that value: compared at run time), the chain's end tile, its
    follow-ups in the walk's order and how many turns its subtree holds (one per move: each is a turn)."""

    app: int
    test: str
    changes: tuple[tuple[int, str], ...]
    end: int
    then: tuple[Step, ...]
    turns: int


MAX_WALK_STEPS = 40_000  # moves of the walks of all entry rows the generated C unrolls; more: the interpreter's walk


class Walks:
    """What :func:`walk_tree` reads of the tables, and how many moves it has unrolled so far."""

    def __init__(self, f: dict[str, int], arrays: dict[str, np.ndarray], masks: np.ndarray,
                 checks: Callable[[int], list[tuple[int, int]]]) -> None:
        self.nd, self.masks, self.checks = int(f["nd"]), masks, checks
        self.mandatory, self.flies = bool(int(f["has_mandatory"])), bool(int(f["flies_over"]))  # flies: slides
        # may fly over the chain's stops (chains.py), where a position is compared with the path's otherwise
        self.maps = arrays["maps"].reshape(-1, self.nd) if int(f["nmaps"]) else np.zeros((0, self.nd), np.int32)
        (self.lo, self.so, self.ro, self.gc, self.co, self.wo, self.wt, self.ws, self.wm, self.flag, self.slide,
         self.to, self.tile, self.to_off, self.tgt, self.forced, self.ltab, self.lcond, self.lline) = (
            arrays[k].tolist() for k in ("lnk_off", "safe_off", "app_ray_off", "app_gc", "app_cond_off", "wr_off",
                                         "wr_tile", "wr_src", "wr_map", "app_flag", "app_slide", "app_to", "app_tile",
                                         "tgt_off", "tgt", "lnk_forced", "lnk_table", "lnk_cond_off", "lnk_line"))
        self.counters = bool(int(f["nctr"]))
        self.steps = 0


Need = dict[int, np.ndarray]  # per tile, the node's codes a chain's checks accept there (tiles it reads unwritten)
Turn = tuple[int, Need, dict[int, str]]  # a chain's end, node checks and new values (C; a constant as its digits)


def code_at(env: dict[int, str], t: int, c: int, u: int) -> str:
    """The C of tile u's code in a chain from tile t holding code c whose new values are ``env`` (a constant as its
    digits)."""
    return env[u] if u in env else str(c) if u == t else f"codes[{u}]"


def new_values(w: Walks, b: int, t: int, c: int, env: dict[int, str]) -> dict[int, str]:
    """``env`` (a chain's new values by tile, from tile t holding code c) after move b, its new values read before
    it writes (new_values), the last write of a tile kept."""
    nd, new = w.nd, dict(env)
    for k in range(w.wo[b], w.wo[b + 1]):
        row, inner = w.maps[w.wm[k]], code_at(env, t, c, w.ws[k])
        new[w.wt[k]] = (str(int(row[0])) if (row == row[0]).all() else inner if (row == np.arange(nd)).all()
                        else str(int(row[int(inner)])) if inner.isdigit() else f"k_maps[{w.wm[k] * nd}+{inner}]")
    return new


def walk_tree(w: Walks, r: int, a: int, turns: list[Turn]) -> Step | str | None:
    """The walk of entry move a on entry row r (player, tile, code) as the generated C unrolls it: every chain the
    interpreter's step may take from it (follow-ups in link order, a slide cut where it revisits a tile: chains'
    revisits), each move's checks and new values read against the node's codes (the start tile's code is the
    row's), checks decided at generation where a tile holds a constant the chain wrote; None where it never fits.
    Each chain's (end, node checks) appended to ``turns`` for the proof that the row's turns are distinct.  A reason
    (str) where the walk needs what the generated C does not run: a link with conditions, an until-line or a table,
    a forced link, safe cells, captures, conditions after the entry move, a flying slide, a mandatory class, or a
    move whose position may repeat an earlier one of its chain (it must write on a tile no earlier move wrote a
    constant its checks prove new).  Cost: linear in the chains' moves (at most :data:`MAX_WALK_STEPS`)."""
    nd, t, c = w.nd, w.tile[a], r % w.nd

    def grow(b: int, seq: tuple[int, ...], env: dict[int, str], need: Need, end: int) -> Step | str | None:
        if w.slide[b] >= 0 and w.to[b] >= 0:  # chains.revisits: the slide onto a tile it passed, its start included
            if w.tile[b] == w.to[b]:
                return None
            for x in reversed(seq):
                if w.slide[x] != w.slide[b]:
                    break
                if w.to[b] in (w.to[x], w.tile[x]):
                    return None
        w.steps += 1
        if w.steps > MAX_WALK_STEPS:
            return f"more than {MAX_WALK_STEPS:,} moves in the walks to unroll"
        if w.so[b + 1] > w.so[b] or w.ro[b + 1] > w.ro[b] or w.gc[b] >= 0:
            return f"move {b} of a walk from tile {t} has safe cells or captures"
        if seq and w.co[b + 1] > w.co[b]:
            return f"move {b} of a walk from tile {t} has conditions"
        if w.mandatory and w.flag[b]:
            return f"move {b} of a walk from tile {t} is of a mandatory class"
        if w.flies:
            return f"move {b} of a walk from tile {t} may fly over the chain's stops (a slide over a stop)"
        if w.counters:
            return f"move {b} of a walk from tile {t} moves counters on (a chain's counters are the interpreter's)"

        need = dict(need)
        terms = []
        for u, m in w.checks(b):
            now = code_at(env, t, c, u)
            if now.isdigit():
                if not w.masks[m][int(now)]:
                    return None  # a constant the chain wrote (or the row's code) fails it: never fits
                continue
            if u not in env:
                need[u] = need[u] & w.masks[m] if u in need else w.masks[m].astype(bool)
                if not need[u].any():
                    return None
            terms.append(f"k_masks[{m * nd}+{now}]")
        new = new_values(w, b, t, c, env)

        def fresh(u: int) -> bool:
            v = new[u]
            if u in env or not v.isdigit():
                return False
            return int(v) != c if u == t else u in need and not need[u][int(v)]
        if not any(fresh(u) for u in w.wt[w.wo[b]:w.wo[b + 1]]):
            return f"move {b} of a walk from tile {t} may repeat a position of its chain"
        end = w.to[b] if w.to[b] >= 0 else end
        then: list[Step] = []
        for li in range(w.lo[b], w.lo[b + 1]):
            if w.ltab[li] >= 0 or w.lcond[li + 1] > w.lcond[li] or w.lline[li] >= 0 or w.forced[li]:
                return (f"move {b} of a walk from tile {t} has a link the generated C does not walk (forced, with "
                        "conditions, until a line or anywhere)")
            for x in w.tgt[w.to_off[li]:w.to_off[li + 1]]:
                got = grow(x, (*seq, b), new, need, end)
                if isinstance(got, str):
                    return got
                if got is not None:
                    then.append(got)
        turns.append((end, need, new))
        changes = []  # (tile, C of its new value), "!" before it where the node's code may be that value
        for u, v in sorted(new.items()):
            known = {c} if u == t else set(np.flatnonzero(need[u]).tolist()) if u in need else None
            if v.isdigit() and known == {int(v)}:
                continue  # put back on a tile whose code the chain proved: no change
            sure = v.isdigit() and known is not None and int(v) not in known
            changes.append((u, v if sure else f"!{v}"))
        return Step(b, " && ".join(terms) or "1", tuple(changes), end, tuple(then), 1 + sum(s.turns for s in then))

    return grow(a, (), {}, {}, t)


def unlike(x: dict[int, str], y: dict[int, str]) -> bool:
    """True when two chains' changes differ wherever they fit: some tile both put different constants on (a change
    of one at most, or two different changes)."""
    return any(u in y and v.isdigit() and y[u].isdigit() and v != y[u] for u, v in x.items())


def apart(x: Need, y: Need) -> bool:
    """True when two chains' node checks cannot both pass: some tile both read with no code in common."""
    return any(u in y and not (m & y[u]).any() for u, m in x.items())


def walk_most(s: Step) -> int:
    """The most changes one chain of a walk makes."""
    return max([len(s.changes)] + [walk_most(x) for x in s.then])


def walk_functions(walks: dict[tuple[int, int], Step], maxw: int, conditioned: frozenset[int], listing: bool,
                   settled: bool = False) -> str:
    """A function per unrolled walk (:func:`walk_code`; one each keeps gcc's time linear in the walks): for perft
    ``gen_walk_{row}_{move}``, its turns counted or made (gen_walk_turn; ``settled``: each settled by gen_quiet_turn,
    the royal rule and turn clean-ups, even on the last ply); for a playout's listing ``gen_walk_list_{row}_{move}``,
    its turns listed at o as gen_quiet_list lists them (gen_listed)."""
    out = []
    for (r, a), s in walks.items():
        if listing:
            body = walk_code(s, "if ({nc}) { o = gen_listed(o, {ch}, {nc}); (*nq)++; }", "(o + 1)", None, conditioned)
            out.append(f"static int32_t *gen_walk_list_{r}_{a}(tp_engine *E, const Board *B, int32_t *o, int32_t *nq) {{\n"
                       f"    const int32_t *codes = B->codes;\n    int32_t nc, v;\n    {body}\n"
                       "    (void)E; (void)codes; (void)nc; (void)v;\n    return o;\n}\n")
            continue
        body = (walk_code(s, "if ({nc} && (r = gen_quiet_turn(E, B, p, depth, {ch}, {nc}, total)) < 0) return r;",
                          "ch", None, conditioned) if settled else
                walk_code(s, "if ((r = gen_walk_turn(E, B, p, ply, depth, {ch}, {nc}, -1, total, moves)) < 0) return r;",
                          "ch", "depth == 1", conditioned))
        out.append(f"static int gen_walk_{r}_{a}(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, "
                   f"int64_t *total, int64_t *moves) {{\n    const int32_t *codes = B->codes;\n"
                   f"    int32_t ch[{2 * maxw}], nc, v;\n    int r;\n    const int made = E->make_leaves;\n    {body}\n"
                   "    (void)codes; (void)ch; (void)nc; (void)v; (void)r; (void)made; (void)ply; (void)moves;\n"
                   "    return 0;\n}\n")
    return "".join(out)


def walk_code(s: Step, turn: str, into: str, leaf: str | None, conditioned: frozenset[int]) -> str:
    """The C of a walk's chains from move s on (:func:`walk_tree`), in the order the interpreter's step finishes
    them: where s fits, its follow-ups' chains, then its own turn: ``turn`` with its changes ``{ch}`` (a constant
    array where each is known to change its tile, else written into ``into``) and their number ``{nc}`` (with
    ``leaf``, on the last ply of a bulk count only counted: it changes a tile, as the walk proved).  Cost: a check
    per move of each chain tried, no key."""
    test = s.test + (f" && app_conds_hold(E, B, {s.app})" if s.app in conditioned else "")
    if all(not v.startswith("!") for _u, v in s.changes):
        pairs = ",".join(f"{u},{v}" for u, v in s.changes)
        own = ("{ static const int32_t w[] = {" + pairs + "}; "
               + turn.replace("{ch}", "w").replace("{nc}", str(len(s.changes))) + " }")
    else:
        writes = "".join(f" v = {v[1:]}; if (v != codes[{u}]) {{ {into}[2 * nc] = {u}; {into}[2 * nc + 1] = v; nc++; }}"
                         if v.startswith("!") else f" {into}[2 * nc] = {u}; {into}[2 * nc + 1] = {v}; nc++;"
                         for u, v in s.changes)
        own = f"{{ nc = 0;{writes} {turn.replace('{ch}', into).replace('{nc}', 'nc')} }}"
    if leaf is not None:
        own = f"if ({leaf} && !made) (*total)++; else {own}"
    kids = " ".join(walk_code(x, turn, into, leaf, conditioned) for x in s.then)
    return f"if ({test}) {{ {kids} {own} }}"
