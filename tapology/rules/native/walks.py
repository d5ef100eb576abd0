"""The walks of entry moves with links (slides, chains of moves) as the generated C unrolls them
(:mod:`tapology.rules.native.specialise`): every chain the interpreter's step may take from an entry move over one
board's constant tiles, the proof that a row's turns are distinct without keys, and the C of each walk, a function
per walk.  A link to another slide (an amazon's arrow after its queen move) is walked once per (targets, tile)
as a continuation shared by every chain that reaches it (:class:`Cont`), called with the chain's changes so far."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np


class Step(NamedTuple):
    """One move of a walk the generated C unrolls (:func:`walk_tree`): its application, the C of its checks left to
    run time (``"1"``: none), the changes of the chain up to it as (tile, C of the new value; after a "!" where the
    node's code may be that value: compared at run time), the chain's end tile, its follow-ups in the walk's order
    (a :class:`Call` where a shared continuation walks them), how many turns its subtree holds at most, and the C
    of the condition under which the chain may end with it (``"1"``; ``"0"`` never: a forced link's follow-up
    always fits; else no forced follow-up fits)."""

    app: int
    test: str
    changes: tuple[tuple[int, str], ...]
    end: int
    then: tuple[Step | Call, ...]
    turns: int
    own: str


class Cont(NamedTuple):
    """A continuation shared by the chains that reach one link's targets with the same constants on their tiles:
    walked once (its checks read the codes with the chain's changes so far written on them), its chains' turns
    the caller's changes followed by its own.  ``name`` numbers its C function; ``arms`` each target's walk in
    the continuation's order, numbered (an arm is walked and proved once, for every continuation holding it);
    ``most`` the changes it adds at most; ``n`` the board's tiles (the copy of the codes a call writes the chain's
    changes on)."""

    name: int
    arms: tuple[tuple[int, Step], ...]
    turns: int
    most: int
    n: int


class Call(NamedTuple):
    """A follow-up link walked by a shared continuation: the C calls it with the chain's changes so far, ``cont``
    (its arms in the link's order, the interpreter's) in a playout's listing, ``counted`` (its arms in the order of
    their applications: one function for every link with the same targets) in perft."""

    cont: Cont
    counted: Cont
    turns: int


MAX_WALK_STEPS = 40_000  # moves of the walks of all entry rows the generated C unrolls; more: the interpreter's walk

Need = dict[int, np.ndarray]  # per tile, the node's codes a chain's checks accept there (tiles it reads unwritten)
Hist = dict[int, "frozenset[int] | None"]  # per tile a chain wrote, every code it held along the chain (None: unknown)
Witness = tuple[tuple[int, int], ...]  # a move's (tile, new code) pairs that make its position new in its chain


class Turn(NamedTuple):
    """A row's turn (or, with ``cont`` >= 0, every turn of a shared continuation called after it): the chain's end,
    node checks, new values (C; a constant as its digits) and path (applications; a call's link after them as a
    negative number: a turn whose path is a prefix of another's is a position earlier in that chain)."""

    end: int
    need: Need
    new: dict[int, str]
    path: tuple[int, ...] = ()
    cont: int = -1


class _Info(NamedTuple):
    """What the distinctness proof reads of a shared continuation: its chains' ends and the tiles they may write
    with the constants (None: any code), and per tile the witnesses of its moves whose first witness is there."""

    ends: frozenset[int]
    writes: dict[int, frozenset[int] | None]
    risky: dict[int, list[Witness]]


class Walks:
    """What :func:`walk_tree` reads of the tables, how many moves it has unrolled so far and the shared
    continuations it has walked."""

    def __init__(self, f: dict[str, int], arrays: dict[str, np.ndarray], masks: np.ndarray,
                 checks: Callable[[int], list[tuple[int, int]]]) -> None:
        self.nd, self.n, self.masks, self.checks = int(f["nd"]), int(f["n"]), masks, checks
        self.mandatory, self.flies = bool(int(f["has_mandatory"])), bool(int(f["flies_over"]))  # flies: slides
        # may fly over the chain's stops (chains.py), where a position is compared with the path's otherwise
        self.maps = arrays["maps"].reshape(-1, self.nd) if int(f["nmaps"]) else np.zeros((0, self.nd), np.int32)
        (self.lo, self.so, self.ro, self.gc, self.co, self.wo, self.wt, self.ws, self.wm, self.flag, self.slide,
         self.to, self.tile, self.to_off, self.tgt, self.forced, self.ltab, self.lcond, self.lline) = (
            arrays[k].tolist() for k in ("lnk_off", "safe_off", "app_ray_off", "app_gc", "app_cond_off", "wr_off",
                                         "wr_tile", "wr_src", "wr_map", "app_flag", "app_slide", "app_to", "app_tile",
                                         "tgt_off", "tgt", "lnk_forced", "lnk_table", "lnk_cond_off", "lnk_line"))
        self.counters = bool(int(f["nctr"]))
        self.ok = [row.astype(bool) for row in masks]  # each mask row's codes, and the codes it refuses
        self.ko = [~row for row in self.ok]
        self.sets: dict[bytes, frozenset[int]] = {}  # node checks' codes as sets, by their bytes
        self.steps = 0
        self.conts: dict[tuple[tuple[int, ...], tuple[tuple[int, str], ...], int], Cont | str | None] = {}
        self.info: dict[int, _Info] = {}
        self.arms: dict[tuple[int, tuple[tuple[int, str], ...], int],
                        tuple[int, Step | str | None, list[Turn], list[Witness]]] = {}  # a target's walk, its proof


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


class _Ctx:
    """One walk's frame: the row's tile and code (-1 in a shared continuation: its caller's), the turns found,
    whether links to other slides become shared continuations, and (in a continuation) its moves' witnesses."""

    def __init__(self, t: int, c: int, share: bool, start: dict[int, str] | None = None) -> None:
        self.t, self.c, self.share = t, c, share
        self.start = start or {}  # a continuation's constants: its caller's changes, not its own
        self.turns: list[Turn] = []
        self.witnesses: list[Witness] = []


def _orig(w: Walks, need: Need, t: int, c: int, u: int) -> frozenset[int] | None:
    """The codes tile u may hold at the walk's start, as a chain's checks read them (None: any)."""
    if u == t:
        return frozenset((c,))
    if u not in need:
        return None
    key = need[u].tobytes()
    got = w.sets.get(key)
    if got is None:
        got = w.sets[key] = frozenset(np.flatnonzero(need[u]).tolist())
    return got


def _fits_first(w: Walks, ctx: _Ctx, x: int, seq: tuple[int, ...], env: dict[int, str], need: Need) -> str:
    """The C of whether follow-up x fits after the chain ``seq`` ("1" surely, "0" never): its checks, a slide's
    revisit refused (chains.revisits), checks an earlier one of the chain proved left out."""
    if w.slide[x] >= 0 and w.to[x] >= 0:
        if w.tile[x] == w.to[x]:
            return "0"
        for y in reversed(seq):
            if w.slide[y] != w.slide[x]:
                break
            if w.to[x] in (w.to[y], w.tile[y]):
                return "0"
    terms = []
    for u, m in w.checks(x):
        now = code_at(env, ctx.t, ctx.c, u)
        if now.isdigit():
            if not w.masks[m][int(now)]:
                return "0"
            continue
        if u in need and u not in env:
            if not (need[u] & w.ok[m]).any():
                return "0"
            if not (need[u] & w.ko[m]).any():
                continue
        terms.append(f"k_masks[{m * w.nd}+{now}]")
    return " && ".join(terms) or "1"


def _grow(w: Walks, ctx: _Ctx, b: int, seq: tuple[int, ...], env: dict[int, str], need: Need, hist: Hist, end: int,
          linked: bool) -> Step | str | None:
    """:func:`walk_tree` from move b after the chain ``seq`` (new values ``env``, node checks ``need``, the codes
    each written tile held ``hist``, end tile ``end``; ``linked``: b is a follow-up)."""
    t, c = ctx.t, ctx.c
    if w.slide[b] >= 0 and w.to[b] >= 0:  # chains.revisits: the slide onto a tile it passed, its start included
        if w.tile[b] == w.to[b]:
            return None
        for x in reversed(seq):
            if w.slide[x] != w.slide[b]:
                break
            if w.to[b] in (w.to[x], w.tile[x]):
                return None
    w.steps += 1
    where = f"move {b} of a walk from tile {w.tile[seq[0]] if seq else w.tile[b]}"
    if w.steps > MAX_WALK_STEPS:
        return f"more than {MAX_WALK_STEPS:,} moves in the walks to unroll"
    if w.so[b + 1] > w.so[b] or w.ro[b + 1] > w.ro[b] or w.gc[b] >= 0:
        return f"{where} has safe cells or captures"
    if linked and w.co[b + 1] > w.co[b]:
        return f"{where} has conditions"
    if w.mandatory and w.flag[b]:
        return f"{where} is of a mandatory class"
    if w.flies:
        return f"{where} may fly over the chain's stops (a slide over a stop)"
    if w.counters:
        return f"{where} moves counters on (a chain's counters are the interpreter's)"

    need = dict(need)
    terms = []
    for u, m in w.checks(b):
        now = code_at(env, t, c, u)
        if now.isdigit():
            if not w.masks[m][int(now)]:
                return None  # a constant the chain wrote (or the row's code) fails it: never fits
            continue
        if u not in env:
            if u in need and not (need[u] & w.ko[m]).any():
                continue  # an earlier check of the chain proved it
            need[u] = need[u] & w.ok[m] if u in need else w.ok[m]
            if not need[u].any():
                return None
        terms.append(f"k_masks[{m * w.nd}+{now}]")
    new = new_values(w, b, t, c, env)
    hist = dict(hist)
    witness = []  # (tile, code) of b's writes that no position of the chain before it held there
    for u in dict.fromkeys(w.wt[w.wo[b]:w.wo[b + 1]]):
        v = new[u]
        held = hist[u] if u in env else _orig(w, need, t, c, u)
        if v.isdigit() and held is not None and int(v) not in held:
            witness.append((u, int(v)))
        if u not in env:
            hist[u] = held
        was = hist[u]
        hist[u] = None if was is None or not v.isdigit() else was | {int(v)}
    if not witness:
        return f"{where} may repeat a position of its chain"
    if not ctx.share:
        ctx.witnesses.append(tuple(witness))
    end = w.to[b] if w.to[b] >= 0 else end
    path = (*seq, b)
    then: list[Step | Call] = []
    must: list[str] = []  # the C of each forced follow-up's fit
    for li in range(w.lo[b], w.lo[b + 1]):
        kinds = [what for what, has in (("anywhere", w.ltab[li] >= 0), ("with conditions", w.lcond[li + 1] > w.lcond[li]),
                                        ("until a line", w.lline[li] >= 0)) if has]
        if kinds:
            return f"{where} has a link the generated C does not walk ({', '.join(kinds)})"
        xs = w.tgt[w.to_off[li]:w.to_off[li + 1]]
        if w.forced[li]:
            must += [_fits_first(w, ctx, x, path, new, need) for x in xs]
        if ctx.share and xs and all(w.slide[x] >= 0 and w.slide[x] != w.slide[b] for x in xs):
            got = _call(w, xs, new, end, hist)
            if isinstance(got, str):
                return got
            if got is not None:
                then.append(got)
                ctx.turns.append(Turn(end, need, new, (*path, -1 - li), got.cont.name))
            continue
        for x in xs:
            kid = _grow(w, ctx, x, path, new, need, hist, end, True)
            if isinstance(kid, str):
                return kid
            if kid is not None:
                then.append(kid)
    own = "0" if "1" in must else " || ".join(x for x in must if x != "0")
    own = f"!({own})" if own and own != "0" else "1" if not own else "0"
    if own != "0":
        ctx.turns.append(Turn(end, need, new, path))
    changes = []  # (tile, C of its new value), "!" before it where the node's code may be that value
    for u, v in sorted(new.items()):
        known = _orig(w, need, t, c, u)
        if (v.isdigit() and known == {int(v)}) or ctx.start.get(u) == v:
            continue  # put back on a tile whose code the chain proved (or as its caller left it): no change
        sure = v.isdigit() and known is not None and int(v) not in known
        changes.append((u, v if sure else f"!{v}"))
    turns = (own != "0") + sum(s.turns for s in then)
    return Step(b, " && ".join(terms) or "1", tuple(changes), end, tuple(then), turns, own)


def _call(w: Walks, xs: list[int], env: dict[int, str], end: int, hist: Hist) -> Call | str | None:
    """The shared continuation of follow-ups xs after a chain with new values ``env`` (walked once per targets,
    constants on their tiles and end), checked against the chain's history ``hist``: each of its moves must still
    make a position the chain has not held (else named).  None where none of its chains fits."""
    anchors = {w.tile[x] for x in xs}
    consts = tuple(sorted((u, v) for u, v in env.items() if u in anchors and v.isdigit()))
    both = []
    for order in (tuple(xs), tuple(sorted(xs))):
        key = (order, consts, end)
        if key not in w.conts:
            w.conts[key] = _cont(w, list(order), dict(consts), end)
        both.append(w.conts[key])
    got, counted = both
    if not isinstance(got, Cont) or not isinstance(counted, Cont):
        return got if not isinstance(got, Cont) else counted  # type: ignore[return-value]
    for u in hist:
        for wit in w.info[got.name].risky.get(u, ()):
            if not any(x not in hist or (hist[x] is not None and v not in hist[x]) for x, v in wit):  # type: ignore[operator]
                return f"a move of the walk from tile {w.tile[xs[0]]} may repeat a position of its chain"
    return Call(got, counted, got.turns)


def _cont(w: Walks, xs: list[int], env: dict[int, str], end: int) -> Cont | str | None:
    """The shared continuation of follow-ups xs from constants ``env`` on their tiles (the rest read at run
    time), its turns proved distinct among themselves; a reason where it does not unroll, None where it never
    fits."""
    ctx = _Ctx(-1, -1, False, env)
    roots = []
    for x in xs:
        key = (x, tuple(sorted(env.items())), end)
        if key not in w.arms:
            one = _Ctx(-1, -1, False, env)
            got = _grow(w, one, x, (), env, {}, {u: None for u in env}, end, True)
            w.arms[key] = (len(w.arms), got, one.turns, one.witnesses)
        k, got, turns, witnesses = w.arms[key]
        if isinstance(got, str):
            return got
        ctx.turns += turns
        ctx.witnesses += witnesses
        if got is not None:
            roots.append((k, got))
    if not roots:
        return None
    hit = clash(w, ctx.turns, -1, -1)
    if hit >= 0:
        return (f"two turns of the walk from tile {w.tile[xs[0]]} end on tile {hit} and may both fit with the "
                "same changes")
    writes: dict[int, frozenset[int] | None] = {}
    for turn in ctx.turns:
        for u, v in turn.new.items():
            if u not in writes or writes[u] is not None:
                writes[u] = None if not v.isdigit() or (u in writes and writes[u] is None) else (
                    writes.get(u) or frozenset()) | {int(v)}
    risky: dict[int, list[Witness]] = {}
    for wit in ctx.witnesses:
        risky.setdefault(wit[0][0], []).append(wit)
    name = len(w.info)
    w.info[name] = _Info(frozenset(turn.end for turn in ctx.turns), writes, risky)
    return Cont(name, tuple(roots), sum(s.turns for _k, s in roots), max(walk_most(s) for _k, s in roots), w.n)


def walk_tree(w: Walks, r: int, a: int, turns: list[Turn]) -> Step | str | None:
    """The walk of entry move a on entry row r (player, tile, code) as the generated C unrolls it: every chain the
    interpreter's step may take from it (follow-ups in link order, a slide cut where it revisits a tile: chains'
    revisits; a chain ending where a forced follow-up fits left out), each move's checks and new values read against
    the node's codes (the start tile's code is the row's), checks decided at generation where a tile holds a
    constant the chain wrote or an earlier check proved them; a link to other slides walked as a shared
    continuation (:class:`Cont`).  None where it never fits.  Each chain's turn (a call's: its group of turns)
    appended to ``turns`` for the proof that the row's turns are distinct (:func:`clash`).  A reason (str) where the
    walk needs what the generated C does not run: a link with conditions, an until-line or a table, safe cells,
    captures, conditions after the entry move, a flying slide, a mandatory class, or a move whose position may
    repeat an earlier one of its chain (it must write on a tile a constant the tile has not held in the chain, as
    the checks prove).  Cost: linear in the chains' moves, a continuation's once (at most
    :data:`MAX_WALK_STEPS`)."""
    ctx = _Ctx(w.tile[a], r % w.nd, True)
    got = _grow(w, ctx, a, (), {}, {}, {}, w.tile[a], False)
    turns.extend(ctx.turns)
    return got


def _ends(w: Walks, x: Turn) -> frozenset[int]:
    """The ends a turn (or a call's group of turns) may have."""
    return w.info[x.cont].ends if x.cont >= 0 else frozenset((x.end,))


def _differ(w: Walks, x: Turn, y: Turn, t: int, c: int) -> bool:
    """True when no turn of x ends in the position of a turn of y: some tile where the codes each may leave share
    none (a code it writes, or the tile's code at the start as both chains' checks read it)."""
    wx = w.info[x.cont].writes if x.cont >= 0 else {}
    wy = w.info[y.cont].writes if y.cont >= 0 else {}

    def left(z: Turn, wz: dict[int, frozenset[int] | None], u: int, base: frozenset[int] | None) -> set[int] | None:
        got: set[int] = set()
        if u in wz:
            if wz[u] is None:
                return None
            got |= wz[u]  # type: ignore[arg-type]
        if u in z.new:
            if not z.new[u].isdigit():
                return None
            got.add(int(z.new[u]))
        elif base is None:
            return None
        else:
            got |= base
        return got

    for tiles in (x.new.keys() | y.new.keys(), wx.keys() | wy.keys()):
        for u in tiles:
            ox, oy = _orig(w, x.need, t, c, u), _orig(w, y.need, t, c, u)
            base = ox if oy is None else oy if ox is None else ox & oy
            a, b = left(x, wx, u, base), left(y, wy, u, base)
            if a is not None and b is not None and not a & b:
                return True
    return False


def clash(w: Walks, turns: list[Turn], t: int, c: int) -> int:
    """The end tile of two turns of a row (from tile t holding code c) that may be one turn found twice (-1 when
    none): turns are apart where their ends differ, their checks cannot both pass (:func:`apart`), one's path leads
    through the other's (a chain holds no position twice) or their positions differ (:func:`_differ`).  Cost:
    quadratic in the row's turns (a call's group of turns one)."""
    for i, x in enumerate(turns):
        ex = _ends(w, x)
        for y in turns[:i]:
            same = ex & _ends(w, y)
            if not same or apart(x.need, y.need):
                continue
            p, q = (x.path, y.path) if len(x.path) <= len(y.path) else (y.path, x.path)
            if p and q[:len(p)] == p:
                continue
            if not _differ(w, x, y, t, c):
                return min(same)
    return -1


def apart(x: Need, y: Need) -> bool:
    """True when two chains' node checks cannot both pass: some tile both read with no code in common."""
    return any(u in y and not (m & y[u]).any() for u, m in x.items())


def walk_most(s: Step) -> int:
    """The most changes one chain of a walk makes (a call's: the caller's and its continuation's)."""
    return max([len(s.changes)] + [walk_most(x) if isinstance(x, Step) else len(s.changes) + x.cont.most
                                   for x in s.then])


def calls_shared(s: Step) -> bool:
    """Whether a walk calls a shared continuation."""
    return any(not isinstance(x, Step) or calls_shared(x) for x in s.then)


def _conts(s: Step, into: dict[int, Cont], listing: bool) -> None:
    """The shared continuations a walk calls (a playout's listing's or perft's), by name, into ``into``."""
    for x in s.then:
        if isinstance(x, Step):
            _conts(x, into, listing)
        else:
            got = x.cont if listing else x.counted
            into[got.name] = got


def walk_functions(walks: dict[tuple[int, int], Step], maxw: int, conditioned: frozenset[int], listing: bool,
                   settled: bool = False) -> str:
    """A function per unrolled walk (:func:`walk_code`; one each keeps gcc's time linear in the walks): for perft
    ``gen_walk_{row}_{move}``, its turns counted or made (gen_walk_turn; ``settled``: each settled by gen_quiet_turn,
    the royal rule and turn clean-ups, even on the last ply); for a playout's listing ``gen_walk_list_{row}_{move}``,
    its turns listed at o as gen_quiet_list lists them (gen_listed; a call of a shared continuation as one entry of
    its turns' count, gen_cont_at, which gen_cont_list_{name} lists where the pick falls); before them a function per
    shared continuation
    (``gen_cont_{name}``, ``gen_cont_list_{name}``; not settled: the generator declines a settled rule set whose
    walks call one), called with the codes the chain's changes so far are written on and those changes."""
    conts: dict[int, Cont] = {}
    for s in walks.values():
        _conts(s, conts, listing)
    if settled and conts:
        raise ValueError("a settled walk calls a shared continuation (specialise._quiet_rows declines these)")
    out = []
    listed = "if ({nc}) { o = gen_listed(o, {ch}, {nc}); (*nq)++; }"
    made = "if ((r = gen_walk_turn(E, B, p, ply, depth, {ch}, {nc}, -1, total, moves)) < 0) return r;"
    one = "if ((r = gen_arm_turn(E, B, p, ply, depth, total, moves, ch, pnc, {u}, {v})) < 0) return r;"
    listed_one = "o = gen_arm_listed(o, nq, ch, pnc, {u}, {v});"
    out.append("/* A turn of an arm of a shared continuation: the caller's pnc changes and one more, (u, v) */\n" + (
        "static inline int32_t *gen_arm_listed(int32_t *o, int32_t *nq, int32_t *ch, int32_t pnc, int32_t u, "
        "int32_t v) {\n    ch[2 * pnc] = u;\n    ch[2 * pnc + 1] = v;\n    (*nq)++;\n    return gen_listed(o, ch, pnc + 1);\n}\n"
        if listing else
        "static inline int gen_arm_turn(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, int64_t *total, "
        "int64_t *moves, int32_t *ch, int32_t pnc, int32_t u, int32_t v) {\n"
        "    if (depth == 1 && !E->make_leaves) {\n        (*total)++;\n        return 0;\n    }\n"
        "    ch[2 * pnc] = u;\n    ch[2 * pnc + 1] = v;\n"
        "    return gen_walk_turn(E, B, p, ply, depth, ch, pnc + 1, -1, total, moves);\n}\n") * bool(conts))
    head = ("    int32_t cc[{n}], ch[{w}];\n    const int32_t *codes = cc;\n    memcpy(cc, board, sizeof cc);\n"
            "    for (int32_t c = 0; c < pnc; c++) cc[pch[2 * c]] = pch[2 * c + 1];\n")
    for k, cont in sorted(conts.items()):
        top = head.format(n=cont.n, w=2 * maxw)
        if listing:
            calls = "".join(f"    {walk_code(arm, listed, 'ch', None, conditioned, 'pnc', listed_one)}\n"
                            for _a, arm in cont.arms)
            out.append(f"static int32_t *gen_cont_list_{k}(tp_engine *E, const Board *B, const int32_t *board, "
                       f"int32_t *o, int32_t *nq, const int32_t *pch, int32_t pnc) {{\n{top}"
                       f"    int32_t nc, v;\n    memcpy(ch, pch, 2 * (size_t)pnc * sizeof *ch);\n{calls}"
                       "    (void)E; (void)B; (void)nc; (void)v;\n    return o;\n}\n")
            continue
        calls = "".join(f"    {walk_code(arm, made, 'ch', 'depth == 1', conditioned, 'pnc', one)}\n"
                        for _a, arm in cont.arms)
        out.append(f"static int gen_cont_{k}(tp_engine *E, Board *B, const int32_t *board, int32_t p, int32_t ply, "
                   f"int32_t depth, int64_t *total, int64_t *moves, const int32_t *pch, int32_t pnc) {{\n{top}"
                   "    int32_t nc, v;\n    int r;\n    const int made = E->make_leaves;\n"
                   "    if (depth > 1 || made) memcpy(ch, pch, 2 * (size_t)pnc * sizeof *ch);\n"
                   f"{calls}    (void)nc; (void)v; (void)r; (void)made;\n    return 0;\n}}\n")
    for (r, a), s in walks.items():
        if listing:
            body = walk_code(s, listed, "(o + 1)", None, conditioned)
            out.append(f"static int32_t *gen_walk_list_{r}_{a}(tp_engine *E, const Board *B, int32_t *o, int32_t *nq) {{\n"
                       f"    const int32_t *codes = B->codes;\n    int32_t ch[{2 * maxw}], nc, v;\n    {body}\n"
                       "    (void)E; (void)codes; (void)ch; (void)nc; (void)v;\n    return o;\n}\n")
            continue
        body = (walk_code(s, "if ({nc} && (r = gen_quiet_turn(E, B, p, depth, {ch}, {nc}, total)) < 0) return r;",
                          "ch", None, conditioned) if settled else walk_code(s, made, "ch", "depth == 1", conditioned))
        out.append(f"static int gen_walk_{r}_{a}(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, "
                   f"int64_t *total, int64_t *moves) {{\n    const int32_t *codes = B->codes;\n"
                   f"    int32_t ch[{2 * maxw}], nc, v;\n    int r;\n    const int made = E->make_leaves;\n    {body}\n"
                   "    (void)codes; (void)ch; (void)nc; (void)v; (void)r; (void)made; (void)ply; (void)moves;\n"
                   "    return 0;\n}\n")
    return "".join(out)


def _gather(s: Step, into: str, base: str) -> str:
    """The C that writes s's changes after the ``base`` ones at ``into`` (nc: how many in all)."""
    return f"nc = {base};" + "".join(
        f" v = {v[1:]}; if (v != codes[{u}]) {{ {into}[2 * nc] = {u}; {into}[2 * nc + 1] = v; nc++; }}"
        if v.startswith("!") else f" {into}[2 * nc] = {u}; {into}[2 * nc + 1] = {v}; nc++;" for u, v in s.changes)


def _with_changes(s: Step, turn: str, into: str, base: str) -> str:
    """The C of ``turn`` with s's changes ``{ch}`` and their number ``{nc}``: a constant array where each is known
    to change its tile and none comes before, else written into ``into`` after the ``base`` ones."""
    if base == "0" and all(not v.startswith("!") for _u, v in s.changes):
        pairs = ",".join(f"{u},{v}" for u, v in s.changes)
        return ("{ static const int32_t w[] = {" + pairs + "}; "
                + turn.replace("{ch}", "w").replace("{nc}", str(len(s.changes))) + " }")
    return f"{{ {_gather(s, into, base)} {turn.replace('{ch}', into).replace('{nc}', 'nc')} }}"


def walk_code(s: Step, turn: str, into: str, leaf: str | None, conditioned: frozenset[int], base: str = "0",
              one: str = "") -> str:
    """The C of a walk's chains from move s on (:func:`walk_tree`), in the order the interpreter's step finishes
    them: where s fits, its follow-ups' chains (a shared continuation called with the codes and changes after s; in a
    playout's listing, its turns counted and listed as one entry, gen_cont_at, expanded only where picked),
    then its own turn where it may end there: ``turn`` with its changes ``{ch}`` (a constant array where each is
    known to change its tile and none comes before, else written into ``into`` after the ``base`` ones of the
    caller) and their number ``{nc}`` (with ``leaf``, on the last ply of a bulk count only counted: it changes a
    tile, as the walk proved); ``one``, after ``base`` changes, the C of a turn of one more change known to change
    its tile (``{u}``, ``{v}``), the last ply's count included.  Cost: a check per move of each chain tried, no
    key."""
    test = s.test + (f" && app_conds_hold(E, B, {s.app})" if s.app in conditioned else "")
    if one and base != "0" and len(s.changes) == 1 and not s.changes[0][1].startswith("!"):
        own = one.replace("{u}", str(s.changes[0][0])).replace("{v}", s.changes[0][1])
    else:
        own = _with_changes(s, turn, into, base)
        if leaf is not None:
            own = f"if ({leaf} && !made) (*total)++; else {own}"
    own = "" if s.own == "0" else own if s.own == "1" else f"if ({s.own}) {{ {own} }}"
    kids = []
    for x in s.then:
        if isinstance(x, Step):
            kids.append(walk_code(x, turn, into, leaf, conditioned, base, one))
            continue
        call = (f"o = gen_cont_at(E, B, codes, o, nq, {x.cont.name}, gen_cont_{x.counted.name}, {{ch}}, {{nc}});"
                if leaf is None else
                f"if ((r = gen_cont_{x.counted.name}(E, B, codes, p, ply, depth, total, moves, {{ch}}, {{nc}})) < 0) "
                "return r;")
        kids.append(_with_changes(s, call, "ch", "0"))
    return f"if ({test}) {{ {' '.join(kids)} {own} }}"
