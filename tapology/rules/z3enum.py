"""Legal move chains as all models of a z3 constraint system (the ``z3`` backend).

Variables: ``c_i`` (which placed move is step i, −1 once the chain has stopped) and the
tile codes ``s_i[u]`` after i steps, for every tile some candidate move touches.  Constraints:
step 0 is an entry move; step i+1 is a follow-up named by a link of step i; a step's cells
hold accepted codes; writes give the next codes (a moving piece's frame carried by the
landing orientation); no chain passes the same position twice, nor a slide a tile it passed
(:func:`tapology.rules.chains.revisits`); a chain stops only where no forced follow-up
fits.  The chain bound grows until no chain reaches it.  Clean-ups run after each move
(``when = "move"``) are not modelled (an error says so).  The turn's clean-ups and the royal
rule are applied to each model's final position as in the ``propagate`` backend.  Cost: one
solver call per chain found, plus the deepening.
"""

from __future__ import annotations

import z3

from tapology.errors import RuleError
from tapology.rules.chains import Chains, extend_path
from tapology.rules.compiled import App, Compiled

MAX_STEPS = 64


def candidates(comp: Compiled, codes: list[int], player: int, steps: int, phase: int = -1) -> list[list[int]]:
    """The placed moves that can be step i: entries at step 0, then the link targets of step i−1, leaving out
    those with a check no code the tile may hold by then can pass (a sound over-approximation)."""
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
    out = [sorted(set(first))]
    note_writes(out[0])
    for _ in range(1, steps):
        nxt: set[int] = set()
        for a in out[-1]:
            for _forced, ids in comp.links(a):
                nxt.update(j for j in ids if may_fit(j))
        out.append(sorted(nxt))
        note_writes(out[-1])
    return out


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
    def __init__(self, comp: Compiled, codes: list[int], player: int, steps: int, phase: int = -1) -> None:
        self.comp = comp
        self.codes = codes
        self.steps = steps
        more = candidates(comp, codes, player, steps + 1, phase)
        self.cands = more[:steps]
        self.allowed = [set(c) for c in more]
        self.tiles = _touched(comp, more)
        self.written_tiles = sorted({u for step in more for a in step
                                     for u in [*(w for w, _, _ in comp.apps[a].writes), *_ray_tiles(comp.apps[a])]})
        self._runs: dict[tuple[int, int], tuple[list[list[z3.BoolRef]], dict]] = {}
        self.solver = z3.Solver()
        self._revisit: dict[tuple[int, int, int], z3.BoolRef] = {}
        s = self.solver
        self.c = [z3.Int(f"c{i}") for i in range(steps)]
        self.state: list[dict[int, z3.ArithRef]] = [{u: z3.IntVal(codes[u]) for u in self.tiles}]
        for i in range(steps):
            s.add(z3.Or([self.c[i] == -1] + [self.c[i] == a for a in self.cands[i]]))
        s.add(self.c[0] != -1)
        for i in range(steps - 1):
            s.add(z3.Implies(self.c[i] == -1, self.c[i + 1] == -1))
            for a in self.cands[i]:
                follow = sorted({j for _f, ids in comp.links(a) for j in ids if j in self.allowed[i + 1]})
                s.add(z3.Implies(self.c[i] == a, z3.Or([self.c[i + 1] == -1] + [self.c[i + 1] == j for j in follow])))
        for i in range(steps):
            cur = self.state[-1]
            for a in self.cands[i]:
                s.add(z3.Implies(self.c[i] == a, self.fits(comp.apps[a], cur)))
            nxt: dict[int, z3.ArithRef] = {u: cur[u] for u in self.written_tiles}
            for a in self.cands[i]:
                for u, val in self.write_exprs(comp.apps[a], cur).items():
                    nxt[u] = z3.If(self.c[i] == a, val, nxt[u])
            st = {u: (z3.Int(f"s{i + 1}_{u}") if u in self.written_tiles else cur[u]) for u in self.tiles}
            for u in self.written_tiles:
                s.add(st[u] == nxt[u])
            self.state.append(st)
        # no slide back onto a tile it passed, its start included
        for i in range(steps):
            for a in self.cands[i]:
                back = self.revisit(comp.apps[a], i)
                if not z3.is_false(back):
                    s.add(z3.Implies(self.c[i] == a, z3.Not(back)))
        # no position twice along a chain (and never back to the start)
        for k in range(1, steps + 1):
            for j in range(k):
                s.add(z3.Implies(self.c[k - 1] != -1, self.differ(self.state[k], self.state[j])))
        # a chain stops only where no forced follow-up fits
        for i in range(1, steps):
            for a in self.cands[i - 1]:
                s.add(z3.Implies(z3.And(self.c[i - 1] == a, self.c[i] == -1), z3.Not(self.can_go_on(a, i, True))))

    def revisit(self, app: App, i: int) -> z3.BoolRef:
        """``app`` taken as step i would land on a tile its slide has passed: :func:`chains.revisits` read over the
        symbolic steps 0..i−1 (some run c_j … c_{i−1} of its move, with c_j standing or landing on the tile)."""
        mi, u = app.move, app.to
        if u < 0 or mi < 0 or not self.comp.rules.moves[mi].slide:
            return z3.BoolVal(False)
        if u == app.tile:
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
        """Some (forced) follow-up of app a fits at state i without repeating a position or a slide's tile."""
        st = self.state[i]
        opts = []
        for forced, ids in self.comp.links(a):
            if forced_only and not forced:
                continue
            for j in ids:
                if j not in self.allowed[i]:
                    continue  # pruned: it can never fit here
                b = self.comp.apps[j]
                new = self.after(b, st)
                opts.append(z3.And(self.fits(b, st), z3.Not(self.revisit(b, i)),
                                   *[self.differ(new, self.state[k]) for k in range(i + 1)]))
        return z3.Or(opts) if opts else z3.BoolVal(False)

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
    while True:
        enc = _Encoding(comp, codes, player, steps, phase)
        if not enc.cands[0]:
            return {}
        if not enc.reaches_bound():
            break
        steps += 1
        if steps > MAX_STEPS:
            raise RuleError(f"{chains.rules.source}: the z3 backend stops at chains of {MAX_STEPS} moves; this "
                            "position has longer ones (use --backend propagate)")
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
        for u in enc.tiles:
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
