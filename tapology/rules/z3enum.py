"""Legal move chains as all models of a z3 constraint system (the ``z3`` backend).

Variables: ``c_i`` (which placed move is step i, −1 once the chain has stopped) and the
tile codes ``s_i[u]`` after i steps, for every tile some candidate move touches.  Constraints:
step 0 is an entry move; step i+1 is a follow-up named by a link of step i; a step's cells
hold accepted codes; writes give the next codes (a moving piece's frame carried by the
landing orientation); a slide never lands on a tile it passed (:func:`tapology.rules.chains.revisits`); a
position the chain passed again is the chain walk's (chains.py ``visited``/``mid``): a move may land where a slide only
flew through (a stop from then on), and elsewhere only a slide may fly over it, going on with the same slide; a
chain stops only where no forced follow-up is taken (one that flies over a stop, only where its slide goes on).
The chain bound grows (a step added to the same solver) until no chain reaches it.  Clean-ups run after each move
(``when = "move"``) are not modelled (an error says so).  The turn's clean-ups and the royal
rule are applied to each model's final position as in the ``propagate`` backend.  Cost: one
solver call per chain found, plus the deepening.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import z3

from tapology.errors import RuleError
from tapology.rules.chains import Chains, extend_path
from tapology.rules.compiled import App, Compiled

MAX_STEPS = 64


def candidates(comp: Compiled, codes: list[int], player: int, steps: int, phase: int = -1) -> list[list[int]]:
    """The placed moves that can be step i: entries at step 0, then the link targets of step i−1, leaving out
    those with a check no code the tile may hold by then can pass (a sound over-approximation)."""
    return list(islice(candidate_steps(comp, codes, player, phase), steps))


def candidate_steps(comp: Compiled, codes: list[int], player: int, phase: int = -1) -> Iterator[list[int]]:
    """The candidates of :func:`candidates`, one step after another (as many as asked for)."""
    possible: dict[int, set[int]] = {}  # tile -> codes it may hold after some candidate wrote it

    def may_fit(a: int) -> bool:
        for u, msk in comp.apps[a].checks:
            if not (msk >> codes[u]) & 1 and not any((msk >> v) & 1 for v in possible.get(u, ())):
                return False
        return True

    def note_writes(ids: list[int]) -> None:
        for a in ids:
            app = comp.apps[a]
            origins = {codes[app.tile], *possible.get(app.tile, ())}
            for u, src, mp in app.writes:
                sources = origins if src == app.tile else {codes[src], *possible.get(src, ())}
                possible.setdefault(u, set()).update(comp.maps[mp][c] for c in sources)
            if app.lines is not None:
                for tiles, new, _loops in app.lines.runs:
                    for u, v in zip(tiles, new, strict=True):
                        possible.setdefault(u, set()).add(v)

    first: list[int] = []
    for t in range(comp.n):
        first.extend(a for a in comp.entries(player, t, codes[t], phase) if may_fit(a))
    step = sorted(set(first))
    while True:
        yield step
        note_writes(step)
        nxt: set[int] = set()
        for a in step:
            for _forced, ids in comp.links(a):
                nxt.update(j for j in ids if may_fit(j))
        step = sorted(nxt)


def _touched(comp: Compiled, cands: list[list[int]]) -> list[int]:
    tiles: set[int] = set()
    for step in cands:
        for a in step:
            app = comp.apps[a]
            tiles.update(u for u, _ in app.checks)
            tiles.update(u for u, _, _ in app.writes)
            tiles.update(src for _, src, _ in app.writes)
            tiles.update(_ray_tiles(app))
    return sorted(tiles)


def _ray_tiles(app: App) -> set[int]:
    """The tiles a placed move's line capture reads (and may write)."""
    return set() if app.lines is None else {u for tiles, _new, _loops in app.lines.runs for u in tiles}


class _Encoding:
    """The constraint system of chains of up to ``steps`` moves; :meth:`grow` adds a step to the same solver (the
    system of k + 1 steps holds every constraint of the system of k), so deepening the bound builds each step once."""

    def __init__(self, comp: Compiled, codes: list[int], player: int, steps: int, phase: int = -1) -> None:
        self.comp = comp
        self.codes = codes
        self.steps = 0
        self._more = candidate_steps(comp, codes, player, phase)
        self.cands: list[list[int]] = []  # step i's candidates, for the steps built
        self.allowed: list[set[int]] = []  # the same as sets, one step ahead
        self.tiles: list[int] = []  # every tile some candidate (one step ahead included) reads or writes
        self.written_tiles: list[int] = []  # the tiles some candidate writes: the ones with a variable per step
        self.written: set[int] = set()  # the same as a set
        self._runs: dict[tuple[int, int], tuple[list[list[z3.BoolRef]], dict]] = {}
        self.solver = z3.Solver()
        self._revisit: dict[tuple[int, int, int], z3.BoolRef] = {}
        self.c: list[z3.ArithRef] = []
        self.g: list[z3.ArithRef] = []  # the slide step i belongs to (-1: none, or no step i)
        self.state: list[dict[int, z3.ArithRef]] = [{}]
        # per state: the slide flew over a stop there (it must fly on), and it is one a slide only flew through
        # (no stop: a later move may land there); the start is a stop
        self.fly: list[z3.BoolRef] = [z3.BoolVal(False)]
        self.mid: list[z3.BoolRef] = []
        self._look_ahead()
        for _ in range(steps):
            self.grow()

    def _look_ahead(self) -> None:
        """The candidates of the next step not built yet (step ``len(allowed)``), and the tiles they touch."""
        step = next(self._more)
        self.allowed.append(set(step))
        comp, codes = self.comp, self.codes
        touched = set(_touched(comp, [step])) - set(self.tiles)
        for u in sorted(touched):  # no candidate so far read or wrote u: it holds its code in every state built
            self.tiles.append(u)
            for st in self.state:
                st[u] = z3.IntVal(codes[u])
        written = {u for a in step for u in [*(w for w, _, _ in comp.apps[a].writes), *_ray_tiles(comp.apps[a])]}
        self.written_tiles.extend(sorted(written - set(self.written_tiles)))
        self.written = set(self.written_tiles)

    def grow(self) -> None:
        """Add step ``steps`` (chains one move longer)."""
        comp, s = self.comp, self.solver
        i = self.steps
        self.cands.append(sorted(self.allowed[i]))
        self._look_ahead()
        ci = z3.Int(f"c{i}")
        self.c.append(ci)
        s.add(z3.Or([ci == -1] + [ci == a for a in self.cands[i]]))
        if i == 0:
            s.add(ci != -1)
        else:
            prev = self.c[i - 1]
            s.add(z3.Implies(prev == -1, ci == -1))
            for a in self.cands[i - 1]:
                follow = sorted({j for _f, ids in comp.links(a) for j in ids if j in self.allowed[i]})
                s.add(z3.Implies(prev == a, z3.Or([ci == -1] + [ci == j for j in follow])))
        gi = z3.Int(f"g{i}")
        self.g.append(gi)
        s.add(z3.Implies(ci == -1, gi == -1))
        for a in self.cands[i]:
            s.add(z3.Implies(ci == a, gi == self.group(a)))
        # state i: where the slide flew over a stop it flies on; it is a slide's mid-flight position (no stop) where
        # step i continues the slide of step i-1 from a position that was no stop before
        on = z3.And(gi >= 0, gi == self.g[i - 1]) if i else z3.BoolVal(False)
        if i:
            s.add(z3.Implies(z3.And(self.c[i - 1] != -1, self.fly[i]), on))
        mid = z3.Bool(f"m{i}")
        s.add(mid == z3.And(on, z3.Not(self.fly[i])))
        self.mid.append(mid)
        cur = self.state[i]
        for a in self.cands[i]:
            s.add(z3.Implies(ci == a, self.fits(comp.apps[a], cur)))
        nxt: dict[int, z3.ArithRef] = {u: cur[u] for u in self.written_tiles}
        for a in self.cands[i]:
            for u, val in self.write_exprs(comp.apps[a], cur).items():
                nxt[u] = z3.If(ci == a, val, nxt[u])
        written = set(self.written_tiles)
        st = {u: (z3.Int(f"s{i + 1}_{u}") if u in written else cur[u]) for u in self.tiles}
        for u in self.written_tiles:
            s.add(st[u] == nxt[u])
        self.state.append(st)
        self.steps = i + 1
        # no slide back onto a tile it passed, its start included
        for a in self.cands[i]:
            back = self.revisit(comp.apps[a], i)
            if not z3.is_false(back):
                s.add(z3.Implies(ci == a, z3.Not(back)))
        # a position the chain passed again (the start included) is flown over by a slide, unless the last time
        # the chain was there a slide only flew through it (then it lands there: a stop from now on)
        eqs = []
        for j in range(i + 1):
            e = z3.Bool(f"e{i + 1}_{j}")
            s.add(e == z3.Not(self.differ(st, self.state[j])))
            eqs.append(e)
        fly = z3.Bool(f"f{i + 1}")
        s.add(fly == self.flies(eqs, self.mid))
        self.fly.append(fly)
        s.add(z3.Implies(z3.And(ci != -1, fly), gi >= 0))
        # a chain stops only where no forced follow-up fits
        if i >= 1:
            for a in self.cands[i - 1]:
                s.add(z3.Implies(z3.And(self.c[i - 1] == a, ci == -1), z3.Not(self.can_go_on(a, i, True))))

    def group(self, a: int) -> int:
        """The slide application ``a`` belongs to (-1: it does not slide)."""
        mi = self.comp.apps[a].move
        return self.comp.rules.slide_groups[mi] if mi >= 0 else -1

    @staticmethod
    def flies(eqs: list[z3.BoolRef], mids: list[z3.BoolRef]) -> z3.BoolRef:
        """A position equal to the earlier ones where ``eqs`` holds is flown over: the chain passed it, and the last
        time it did a slide only flew through it (``mids``) is false (chains.py: ``fly``, not ``landed``)."""
        landed = z3.Or([z3.And(eqs[j], mids[j], *[z3.Not(e) for e in eqs[j + 1:]]) for j in range(len(eqs))])
        return z3.And(z3.Or(eqs), z3.Not(landed))

    def revisit(self, app: App, i: int, tail: tuple[int, ...] = ()) -> z3.BoolRef:
        """``app`` taken as step i (after the placed moves ``tail``) would land on a tile its slide has passed:
        :func:`chains.revisits` read over ``tail`` then the symbolic steps 0..i−1 (some run c_j … c_{i−1} of its
        move, with c_j standing or landing on the tile)."""
        mi, u = app.move, app.to
        if u < 0 or mi < 0 or not self.comp.rules.moves[mi].slide:
            return z3.BoolVal(False)
        if u == app.tile:
            return z3.BoolVal(True)
        for p in reversed(tail):
            prev = self.comp.apps[p]
            if prev.move < 0 or self.comp.rules.slide_groups[prev.move] != self.comp.rules.slide_groups[mi]:
                return z3.BoolVal(False)
            if u in (prev.to, prev.tile):
                return z3.BoolVal(True)
        key = (mi, u, i)
        got = self._revisit.get(key)
        if got is None:
            apps = self.comp.apps
            groups = self.comp.rules.slide_groups
            terms = []
            run: list[z3.BoolRef] = []
            for j in range(i - 1, -1, -1):
                same = [a for a in self.cands[j] if apps[a].move >= 0 and groups[apps[a].move] == groups[mi]]
                hit = [a for a in same if u in (apps[a].to, apps[a].tile)]
                if hit:
                    terms.append(z3.And(*run, z3.Or([self.c[j] == a for a in hit])))
                if not same:
                    break
                run.append(z3.Or([self.c[j] == a for a in same]))
            got = z3.Or(terms) if terms else z3.BoolVal(False)
            self._revisit[key] = got
        return got

    def fits(self, app: App, st: dict[int, z3.ArithRef]) -> z3.BoolRef:
        conds = []
        for u, msk in app.checks:
            vals = [v for v in self.comp.valid_codes if (msk >> v) & 1]
            conds.append(z3.Or([st[u] == v for v in vals]))
        if app.lines is not None and app.lines.need > 0:
            runs = [z3.Or(r) if r else z3.BoolVal(False) for r in self.runs(app, st)]
            conds.append(z3.Sum([z3.If(r, 1, 0) for r in runs]) >= app.lines.need if runs else z3.BoolVal(False))
        return z3.And(conds)

    def _in(self, expr: z3.ArithRef, mask: int) -> z3.BoolRef:
        return z3.Or([expr == v for v in self.comp.valid_codes if (mask >> v) & 1] or [z3.BoolVal(False)])

    def runs(self, app: App, st: dict[int, z3.ArithRef]) -> list[list[z3.BoolRef]]:
        """Per direction of the line capture, "the run has length i" for each possible i (Compiled.captures read
        over ``st`` after the move's pattern writes).  Cached per application and state; O(line length) terms."""
        key = (app.ident, id(st))
        got = self._runs.get(key)
        if got is not None:
            return got[0]
        rays = app.lines
        assert rays is not None
        after = self.pattern_exprs(app, st)
        over: dict[int, z3.BoolRef] = {}
        until: dict[int, z3.BoolRef] = {}
        out = []
        for tiles, _new, loops in rays.runs:
            last = len(tiles) - 1 if loops else len(tiles)
            lengths = []
            prefix: z3.BoolRef = z3.BoolVal(True)
            for i in range(1, min(last, len(tiles) - 1) + 1):
                for u in (tiles[i - 1], tiles[i]):
                    if u not in over:
                        v = after.get(u, st[u])
                        over[u] = self._in(v, rays.over)
                        until[u] = self._in(v, rays.until)
                prefix = z3.And(prefix, over[tiles[i - 1]])
                parts = [prefix, until[tiles[i]]]
                if i < last:
                    parts.append(z3.Not(over[tiles[i]]))
                lengths.append(z3.And(parts))
            out.append(lengths)
        self._runs[key] = (out, st)  # st kept alive: its id stays its own
        return out

    def write_exprs(self, app: App, st: dict[int, z3.ArithRef]) -> dict[int, z3.ArithRef]:
        """The code each tile the move writes gets, over the state ``st`` (its line capture's runs last)."""
        out = self.pattern_exprs(app, st)
        if app.lines is not None:
            base = dict(st)
            base.update(out)
            taken: dict[int, tuple[int, list[z3.BoolRef]]] = {}
            for (tiles, new, _loops), lengths in zip(app.lines.runs, self.runs(app, st), strict=True):
                for i, ok in enumerate(lengths, start=1):
                    for j in range(i):
                        taken.setdefault(tiles[j], (new[j], []))[1].append(ok)
            for u, (v, why) in taken.items():
                out[u] = z3.If(z3.Or(why), z3.IntVal(v), base[u])
        return out

    def pattern_exprs(self, app: App, st: dict[int, z3.ArithRef]) -> dict[int, z3.ArithRef]:
        """The code each tile the move's pattern writes gets, over the state ``st``."""
        out = {}
        for u, src, mp in app.writes:
            const = self.comp.const_of[mp]
            if const >= 0:
                out[u] = z3.IntVal(const)
            else:
                source = st[src]
                expr: z3.ArithRef = z3.IntVal(-1)
                for v in self.comp.valid_codes:
                    expr = z3.If(source == v, self.comp.maps[mp][v], expr)
                out[u] = expr
        return out

    def differ(self, a: dict[int, z3.ArithRef], b: dict[int, z3.ArithRef]) -> z3.BoolRef:
        """The two positions differ (only written tiles can)."""
        return z3.Or([a[u] != b[u] for u in self.written_tiles]) if self.written_tiles else z3.BoolVal(False)

    def after(self, app: App, st: dict[int, z3.ArithRef]) -> dict[int, z3.ArithRef]:
        out = dict(st)
        out.update(self.write_exprs(app, st))
        return out

    def can_go_on(self, a: int, i: int, forced_only: bool) -> z3.BoolRef:
        """Some (forced) follow-up of app a at state i (where the chain would stop) is taken as the chain walk takes
        it (:meth:`taken`)."""
        st = self.state[i]
        hist = [(self.state[k], self.mid[k]) for k in range(i)]
        opts = []
        for forced, ids in self.comp.links(a):
            if forced_only and not forced:
                continue
            for j in ids:
                if j not in self.allowed[i]:
                    continue  # pruned: it can never fit here
                on = self.group(a) >= 0 and self.group(j) == self.group(a)  # state i is then a slide's mid-flight
                opts.append(self.taken(j, st, [*hist, (st, z3.BoolVal(on))], (), i))
        return z3.Or(opts) if opts else z3.BoolVal(False)

    def taken(self, b: int, st: dict[int, z3.ArithRef], hist: list[tuple[dict[int, z3.ArithRef], z3.BoolRef]],
              tail: tuple[int, ...], i: int) -> z3.BoolRef:
        """Placed move ``b`` from ``st`` (after the symbolic steps 0..i−1, then ``tail``; ``hist``: the positions
        passed, ``st`` last, each with "a slide only flew through it") is taken: it fits, repeats no slide's tile,
        and reaches a position the chain may stop at, or (a slide) flies over a stop and a follow-up of the same
        slide is taken from there.  Cost: the follow-ups of a flown-over slide, along its run."""
        app = self.comp.apps[b]
        back = self.revisit(app, i, tail)
        if z3.is_true(back):
            return z3.BoolVal(False)
        st = dict(st)
        for u in _touched(self.comp, [[b]]):
            st.setdefault(u, z3.IntVal(self.codes[u]))  # no step of the chain reads or writes it: it holds its code
        new = self.after(app, st)
        extra = [u for u in new if u not in self.written]  # tiles only these follow-ups write

        def differ(h: dict[int, z3.ArithRef]) -> z3.BoolRef:
            return z3.Or(self.differ(new, h), *[new[u] != h.get(u, self.codes[u]) for u in extra])

        fly = self.flies([z3.Not(differ(h)) for h, _m in hist], [m for _h, m in hist])
        on: list[z3.BoolRef] = []
        if self.group(b) >= 0:
            for _forced, ids in self.comp.links(b):
                on.extend(self.taken(j, new, [*hist, (new, z3.BoolVal(False))], (*tail, b), i)
                          for j in ids if self.group(j) == self.group(b))
        return z3.And(self.fits(app, st), z3.Not(back), z3.Or(z3.Not(fly), *on))

    def reaches_bound(self) -> bool:
        """True when some chain uses every step (so the bound may be too small)."""
        s = self.solver
        s.push()
        s.add(self.c[self.steps - 1] != -1)
        res = s.check() == z3.sat
        s.pop()
        return res


def z3_chains(chains: Chains, codes: list[int], player: int, phase: int = -1) -> dict:
    """The legal chains by key, found as all models (see the module docstring); ``phase``: the index of the phase
    the turn is played in (-1: the regular play)."""
    comp = chains.comp
    if chains.rules.steps:
        raise RuleError(f"{chains.rules.source}: the z3 backend does not model step budgets ([steps]: moves that "
                        "spend a turn's steps); use --backend propagate or csp")
    if chains.has_move_cleanup:
        raise RuleError(f"{chains.rules.source}: the z3 backend does not model clean-ups run after each move "
                        "(when = \"move\"); use --backend propagate or csp")
    if any(m.captures is not None for m in chains.rules.moves):
        raise RuleError(f"{chains.rules.source}: the z3 backend does not model captures by liberties (a move with "
                        "captures = {...}); use --backend propagate or csp")
    if chains.rules.block_moves or any(lk.until_line for m in chains.rules.moves for lk in m.links):
        raise RuleError(f"{chains.rules.source}: the z3 backend does not model block moves (cells with from = "
                        "[x, y]) nor links that stop at a line (until-line); use --backend propagate or csp")
    if any(lk.conditions for m in chains.rules.moves for lk in m.links):
        raise RuleError(f"{chains.rules.source}: the z3 backend does not model links with count conditions "
                        "(links = [{ if = [...] }]); use --backend propagate or csp")
    if any(m.conditions for m in chains.rules.moves):
        raise RuleError(f"{chains.rules.source}: the z3 backend does not model moves with count conditions "
                        "(a move's if = [...]); use --backend propagate or csp")
    steps = 2
    enc = _Encoding(comp, codes, player, steps, phase)
    if not enc.cands[0]:
        return {}
    while enc.reaches_bound():
        steps += 1
        if steps > MAX_STEPS:
            raise RuleError(f"{chains.rules.source}: the z3 backend stops at chains of {MAX_STEPS} moves; this "
                            "position has longer ones (use --backend propagate)")
        enc.grow()
    found: dict = {}
    s = enc.solver
    while s.check() == z3.sat:
        m = s.model()
        seq = []
        for i in range(steps):
            v = m.eval(enc.c[i], model_completion=True).as_long()
            if v < 0:
                break
            seq.append(v)
        final = enc.state[len(seq)]
        work = list(codes)
        apps = comp.apps
        # a tile changes only where a move of the chain writes it (or its line capture may): the others keep their codes
        for u in {w for a in seq for w in [*(w for w, _, _ in apps[a].writes), *_ray_tiles(apps[a])]}:
            work[u] = m.eval(final[u], model_completion=True).as_long()
        record(chains, codes, work, player, seq, found)
        s.add(z3.Or([enc.c[i] != (seq[i] if i < len(seq) else -1) for i in range(steps)]))
    return found


def record(chains: Chains, codes: list[int], work: list[int], player: int, seq: list[int], found: dict) -> None:
    """Hand a solver's chain (its moves and final codes) to the shared finishing step of :class:`Chains`."""
    comp = chains.comp
    apps = comp.apps
    start = apps[seq[0]].tile
    path: tuple[tuple[str, int], ...] = (("", start),)
    flagged = False
    for k, a in enumerate(seq):
        app = apps[a]
        path = extend_path(comp, path, tuple(seq[:k]), app)
        flagged = flagged or app.klass in chains.mandatory
    diff = {u: work[u] for u in range(len(work)) if work[u] != codes[u]}
    chains.finish(work, codes, diff, player, start, path, flagged, tuple(seq), found)
