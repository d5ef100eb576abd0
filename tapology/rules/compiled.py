"""A rule set compiled for one board: every move placed at every tile and orientation, as plain tables.

Tile contents are **codes** ``state * |H| + frame`` (frame 0 for pieces without one; an
oriented piece's frame is the least element of its coset under the piece's symmetry).
A compiled application (:class:`App`) of a move at tile t under total orientation g lists
the tiles it reads with the codes they accept (a bitmask) and the tiles it writes; it exists
only if every pattern cell lands as asked (on a tile, or ∅ where the pattern says ``off``; in
or out of a region where it names one) and cells landing on the same tile agree (docs/conventions.md §4).

A write is ``(tile, source tile, map)``: the tile gets ``maps[map][code at source]`` read
before the move — a constant (a state written), the origin's piece carried across the gluing
(``@``), another cell's content carried across the gluings (a block move's ``from``), or a state
keeping the frame of the piece on the tile (``STATE^``).  Built lazily
and cached: cost O(|cells|) per application placed.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from tapology.errors import RuleError
from tapology.model.board import Board
from tapology.model.lines import board_lines, bounded_lines
from tapology.rules.model import ANY, COPY, DONTCARE, OFF, Condition, Link, Move, RuleSet

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas

Key = tuple[int, int, frozenset]  # (start tile, end tile, changes {(tile, code)})
_OFF, _DONTCARE, _READ = 0, 1, 2  # a pattern cell's before: off the board, anything or nothing, a read (Compiled._template)
_FROM, _KEEP, _COPY, _KEEP_FRAME, _STATE = 0, 1, 2, 3, 4  # a pattern cell's write (Compiled._template)


@dataclass(frozen=True)
class App:
    """One move placed on the board: checks ``(tile, mask)``, writes ``(tile, source tile, map)``, the ``to`` tile,
    and where its links lead.  ``move`` is the move's index, or ``-1 - i`` for the i-th clean-up run for the player."""

    ident: int
    move: int
    player: int
    tile: int
    g: int
    checks: tuple[tuple[int, int], ...]
    writes: tuple[tuple[int, int, int], ...]
    to: int
    klass: str
    link_keys: tuple[tuple[bool, tuple[tuple[int, int, int], ...]], ...]  # (forced, ((move, tile, g), ...))
    safe: tuple[int, ...]
    lines: Rays | None = None  # the move's line capture placed here (reversi), if it has one
    link_conds: tuple[tuple[Condition, ...], ...] = ()  # per link: the counts that must hold to follow it (or none)
    groups: Groups | None = None  # the move's capture by liberties placed here (go), if it has one
    conds: tuple[Condition, ...] = ()  # the move's own conditions, read before it (``here``: its origin)
    link_lines: tuple[int, ...] = ()  # per link: the line length that stops it (``until-line``, 0: none), or none

    @property
    def end(self) -> int:
        """The tile the move ends on (its ``to``, else its origin): what a ``here`` condition of its links reads."""
        return self.to if self.to >= 0 else self.tile


@dataclass(frozen=True)
class Groups:
    """A capture by liberties placed at one tile: bitmasks over codes of the captured groups' states, of liberties
    and of the mover's own pieces, the code a captured tile gets, and whether suicide is allowed."""

    foe: int
    liberty: int
    own: int
    becomes: int
    suicide: bool


@dataclass(frozen=True)
class Rays:
    """A line capture placed at one tile and orientation: per direction, the tiles stepped from the origin (the last
    one a tile already passed when ``loops``) and the code each captured tile gets; ``over`` and ``until`` are
    bitmasks over codes; at least ``need`` runs must be captured for the move to fit."""

    over: int
    until: int
    need: int
    runs: tuple[tuple[tuple[int, ...], tuple[int, ...], bool], ...]  # (tiles, codes written, loops)


class Compiled:
    """The tables of one rule set on one board (given by its closed atlas)."""

    def __init__(self, rules: RuleSet, board: Board, atlas: Atlas, regions: dict[str, frozenset[int]] | None = None) -> None:
        self.rules = rules
        self.board = board
        self.atlas = atlas
        self.regions = regions or {}
        grp = rules.grid.group
        self.h = h = grp.order
        self.mul, self.inv = grp.mul, grp.inv
        self.n = len(board.tiles)
        self.chart = atlas.chart.tolist()
        self.dom_index = atlas.domain.index
        self.n_codes = rules.n_states * h
        np_ = len(rules.players)
        self.np = np_
        # canonical frames and carrying
        canon = [[0] * h for _ in range(rules.n_states)]
        for s in rules.states:
            if s.oriented:
                for f in range(h):
                    canon[s.value][f] = min(grp.mul[a][f] for a in s.symmetry)
        self.canon = canon
        self.carry = [[(c // h) * h + canon[c // h][grp.mul[c % h][grp.inv[o]]] for c in range(self.n_codes)]
                      for o in range(h)]
        # write maps: code read at the source tile -> code written; the first h carry a piece by orientation o
        self.maps: list[tuple[int, ...]] = [tuple(row) for row in self.carry]
        self.const_of: list[int] = [-1] * h  # the code a map always gives, or -1
        self._map_index: dict[tuple, int] = {}
        self.valid_codes = sorted({s.value * h + canon[s.value][f] for s in rules.states for f in range(h)})
        self.valid_set = frozenset(self.valid_codes)
        self.all_mask = sum(1 << c for c in self.valid_codes)
        # masks per player per accept text
        self._mask_cache: dict[tuple[int, tuple[str, ...]], int] = {}
        self._values_cache: dict[tuple, frozenset[int]] = {}
        self.apps: list[App] = []  # restored tables: a StoredApps (rules/cache.py), made as read
        self._app_key: dict[tuple[int, int, int, int], int] = {}
        self.stored_keys: bytes | None = None  # restored tables: ``_app_key`` pickled, read when first needed
        self._local: dict[tuple, int] = {}
        self._templates: dict[tuple[int, int], tuple[Move, tuple[list[tuple[int, str, int, int, str, int, bool]], int]]] = {}
        self._const_ids = [-1] * self.n_codes  # code -> the map always writing it (:meth:`_const_map`), -1: none yet
        self._shapes: dict[tuple[int, int], tuple[Move, tuple[list[int], list[int], int, list[int], list[int]]]] = {}
        self._afters: dict[tuple[str, int], int] = {}
        self._start_moves: dict[tuple[int, int], list[tuple[int, int, tuple[int, ...]]]] = {}
        self.move_index = {m.name: i for i, m in enumerate(rules.moves)}
        self._entry_tables: dict[int | tuple[int, int], list[list[tuple[int, ...] | None]]] = {}
        self._links: dict[int, tuple[tuple[bool, tuple[int, ...]], ...]] = {}
        self._cleanups: dict[tuple[int, str], tuple[App, ...]] = {}
        self._lines: dict[int, list[tuple[int, ...]]] = {}
        self._exact_lines: dict[int, list[tuple[int, tuple[int, ...], int]]] = {}
        self._side_lines: dict[int, list[tuple[tuple[int, ...], ...]]] = {}
        self._reach: dict[int, frozenset[int]] = {}
        self._reach_bits: dict[int, int] = {}  # reach as bits over tiles
        self._attack: dict[int, dict[int, tuple[tuple[int, frozenset[int]], ...]]] = {}
        self.cache_key: str | None = None  # set when the tables were read from or written to the disk cache
        self.native_tables: Any = None  # the native engine's tables, when the disk cache held them
        self.owner = [-1] * self.n_codes
        for s in rules.states:
            for f in range(h):
                self.owner[s.value * h + f] = -1 if s.owner is None else s.owner

    # ---- state resolution --------------------------------------------------------
    def states_of(self, token: str, player: int) -> list[int]:
        """State values a token names for ``player`` (names, own, foe, own:KIND, foe:KIND)."""
        r = self.rules
        if token in r.state_index:
            return [r.state_index[token].value]
        rel, _, kind = token.partition(":")
        out = []
        for s in r.states:
            if s.owner is None:
                continue
            mine = s.owner == player
            if (rel == "own") != mine:
                continue
            if kind and s.kind != kind:
                continue
            out.append(s.value)
        return out

    def state_values(self, tokens: tuple[str, ...], player: int) -> frozenset[int]:
        """The state values a list of tokens names for ``player``; no tokens: every state ``player`` owns."""
        key = (player, tokens, "values")
        got = self._values_cache.get(key)
        if got is None:
            if tokens:
                got = frozenset(v for tok in tokens for v in self.states_of(tok, player))
            else:
                got = frozenset(s.value for s in self.rules.states if s.owner == player)
            self._values_cache[key] = got
        return got

    def state_codes(self, tokens: tuple[str, ...], player: int) -> frozenset[int]:
        """The codes (every frame) of the states a list of tokens names for ``player``."""
        key = (player, tokens, "codes")
        got = self._values_cache.get(key)
        if got is None:
            vals = self.state_values(tokens, player)
            got = frozenset(c for c in self.valid_codes if c // self.h in vals)
            self._values_cache[key] = got
        return got

    def mask(self, player: int, tokens: tuple[str, ...]) -> int:
        """Bitmask over codes accepted by a states-accept for ``player``."""
        key = (player, tokens)
        m = self._mask_cache.get(key)
        if m is None:
            m = 0
            for tok in tokens:
                for v in self.states_of(tok, player):
                    for f in range(self.h):
                        if v * self.h + f in self.valid_set:
                            m |= 1 << (v * self.h + f)
            self._mask_cache[key] = m
        return m

    def after_state(self, token: str, player: int, where: str) -> int:
        """The state value an after-token writes for ``player``."""
        vals = self.states_of(token, player)
        if len(vals) != 1:
            raise RuleError(f"{where}: after-state {token!r} names {len(vals)} states for player "
                            f"{self.rules.players[player]!r} (exactly one is needed)")
        return vals[0]

    # ---- placing a move ------------------------------------------------------------
    def land(self, t: int, g: int, cell) -> int:
        """Chart code at g(cell) of t's chart, -1 for ∅ (the domain holds every pattern cell)."""
        grp = self.rules.grid.group
        return self.chart[t][self.dom_index[grp.act(g, cell)]]

    def placed(self) -> dict[tuple[int, int, int, int], int]:
        """The index of placed moves, (move, player, tile, frame) -> application (-1: does not fit); restored tables
        read it back here, when first needed."""
        if self.stored_keys is not None:
            self._app_key = pickle.loads(self.stored_keys)
            self.stored_keys = None
        return self._app_key

    def place(self, mi: int, player: int, t: int, g: int, moves: tuple[Move, ...] | None = None) -> int:
        """Index of the application of move ``mi`` at (t, g) for ``player``, or -1 if it does not fit."""
        key = (mi, player, t, g)
        if self.stored_keys is not None:
            self.placed()
        got = self._app_key.get(key)
        if got is not None:
            return got
        m = (moves or self.rules.moves)[mi]
        ident = self._build(m, mi, player, t, g)
        self._app_key[key] = ident
        return ident

    def _const_map(self, code: int) -> int:
        key = ("const", code)
        got = self._map_index.get(key)
        if got is None:
            got = len(self.maps)
            self.maps.append((code,) * self.n_codes)
            self.const_of.append(code)
            self._map_index[key] = got
        self._const_ids[code] = got
        return got

    def _keep_frame_map(self, value: int) -> int:
        """The map writing state ``value`` with the frame of the code read (canonical for the new state)."""
        key = ("keep", value)
        got = self._map_index.get(key)
        if got is None:
            got = len(self.maps)
            h = self.h
            self.maps.append(tuple(value * h + self.canon[value][c % h] for c in range(self.n_codes)))
            self.const_of.append(-1)
            self._map_index[key] = got
        return got

    def in_region(self, spec: str, player: int, u: int) -> bool:
        """Whether tile u satisfies a pattern cell's region condition (``name`` or ``!name``) for ``player``."""
        neg = spec.startswith("!")
        name = (spec[1:] if neg else spec).replace("{player}", self.rules.players[player]) if player >= 0 else spec
        inside = u in self.regions.get(name, ())
        return inside != neg

    def _template(self, m: Move, player: int) -> tuple[list[tuple[int, str, int, int, str, int, bool]], int]:
        """A move's cells read for ``player`` once: (before kind, region, mask, write kind, after token, the state it
        names or -1 where it names none or several (:meth:`after_state` raises when the cell is placed), is its ``to``)
        per cell (:data:`_OFF`.. and :data:`_FROM`..), and the mask of codes stopping a fall."""
        key = (id(m), player)
        hit = self._templates.get(key)
        if hit is not None and hit[0] is m:
            return hit[1]
        cells = []
        for pc in m.cells:
            b = pc.before
            kind = _OFF if b.kind == OFF else _DONTCARE if b.kind == DONTCARE else _READ
            msk = self.all_mask if b.kind == ANY or b.kind == DONTCARE else self.mask(player, b.tokens)
            if pc.source is not None:
                wk, token = _FROM, ""
            elif pc.after is None:
                wk, token = _KEEP, ""
            elif pc.after == COPY:
                wk, token = _COPY, ""
            elif pc.after.endswith("^"):
                wk, token = _KEEP_FRAME, pc.after[:-1]
            else:
                wk, token = _STATE, pc.after
            value = -1
            if token:
                vals = self.states_of(token, player)
                value = vals[0] if len(vals) == 1 else -1
            cells.append((kind, pc.region, msk, wk, token, value, m.to is not None and pc.cell == m.to))
        stop = self.all_mask & ~self.mask(player, m.origin.before.tokens) if m.fall is not None else 0
        got = (cells, stop)
        self._templates[key] = (m, got)
        return got

    def _shape(self, m: Move, g: int) -> tuple[list[int], list[int], int, list[int], list[int]]:
        """A move's cells under orientation g as indices into a chart's domain: its cells, their sources (-1: none),
        its fall (-1: none), its safe cells, its links' anchors (-1: an anywhere link, which has none)."""
        key = (id(m), g)
        hit = self._shapes.get(key)
        if hit is not None and hit[0] is m:
            return hit[1]
        act, dom = self.rules.grid.group.act, self.dom_index

        def at(cell: Any) -> int:
            return -1 if cell is None else dom[act(g, cell)]

        got = ([at(pc.cell) for pc in m.cells], [at(pc.source) for pc in m.cells], at(m.fall),
               [at(c) for c in m.safe], [at(lk.anchor) for lk in m.links])  # parse gives every link not anywhere an anchor
        self._shapes[key] = (m, got)
        return got

    def _after(self, token: str, player: int, m: Move) -> int:
        """:meth:`after_state` of a move's after-token, memoised (an error raised each time it is met)."""
        key = (token, player)
        got = self._afters.get(key)
        if got is None:
            got = self._afters[key] = self.after_state(token, player, f"{self.rules.source}:{m.line}: move {m.name!r}")
        return got

    def _build(self, m: Move, mi: int, player: int, t: int, g: int) -> int:
        h = self.h
        mul, inv = self.mul, self.inv
        all_mask = self.all_mask
        reads: dict[int, int] = {}
        writes: dict[int, tuple[int, int, int]] = {}  # tile -> (tile, source tile, map)
        const_ids = self._const_ids
        keeps: list[int] = []
        to_tile = -1
        cells, stop = self._template(m, player)
        dom, sources, fall, safe_dom, anchors = self._shape(m, g)
        chart = self.chart[t]
        for (kind, region, msk, wk, token, v, is_to), di, si in zip(cells, dom, sources, strict=True):
            code = chart[di]
            if kind == _OFF:
                if code >= 0:
                    return -1
                continue
            if code < 0:
                if kind == _DONTCARE:
                    continue
                return -1
            u, o = divmod(code, h)
            if region and not self.in_region(region, player, u):
                return -1
            reads[u] = reads.get(u, all_mask) & msk
            if wk == _FROM:
                # a block move: the content of the source cell before the move, its frame carried from the
                # source's place in t's chart to this tile's (the source's before-state is checked on its own cell)
                src = chart[si]
                if src < 0:
                    return -1
                s_tile, o_s = divmod(src, h)
                wr: tuple[int, int, int] | None = (u, s_tile, mul[o][inv[o_s]])
            elif wk == _KEEP:
                keeps.append(u)
                wr = None
            elif wk == _COPY:
                # the moving piece, its frame carried from the origin to this tile
                wr = (u, t, o)
            elif wk == _KEEP_FRAME:
                wr = (u, u, self._keep_frame_map(v if v >= 0 else self._after(token, player, m)))
            else:
                if v < 0:
                    v = self._after(token, player, m)  # raises: the token names no state or several
                code = v * h + self.canon[v][mul[g][inv[o]]]
                cm = const_ids[code]
                wr = (u, u, cm if cm >= 0 else self._const_map(code))
            if wr is not None:
                if u in writes and writes[u] != wr:
                    return -1
                writes[u] = wr
            if is_to:
                to_tile = u
        if fall >= 0:
            # gravity: the tile below (along m.fall) must stop the fall: off the board, or holding a state the
            # origin does not accept (a piece falls through exactly the states it may be placed on)
            below = chart[fall]
            if below >= 0:
                u = below // h
                reads[u] = reads.get(u, all_mask) & stop
        for u in keeps:
            if u in writes:
                c = self.const_of[writes[u][2]]
                if c < 0:
                    return -1
                reads[u] &= 1 << c
        if 0 in reads.values():
            return -1
        safe = [code // h for code in (chart[di] for di in safe_dom) if code >= 0]
        links = []
        link_conds: list[tuple[Condition, ...]] = []  # parallel to links (a link anchored off the board is dropped)
        link_lines: list[int] = []  # parallel to links
        for lk, ai in zip(m.links, anchors, strict=True):
            if lk.anywhere:
                link_conds.append(lk.conditions)
                link_lines.append(lk.until_line)
                links.append((lk.forced, self._anywhere_targets(lk, player)))
                continue
            anchor = chart[ai]
            if anchor < 0:
                continue
            link_conds.append(lk.conditions)
            link_lines.append(lk.until_line)
            u, o = divmod(anchor, h)
            g_u = mul[g][inv[o]]
            targets = []
            for name in lk.moves:
                mj = self.move_index[name]
                for a in lk.orientations or self.rules.moves[mj].orientations:
                    targets.append((mj, u, mul[a][g_u]))
            links.append((lk.forced, tuple(targets)))
        ordered = sorted(reads.items())  # the origin's check first, then by tile
        if t in reads and ordered[0][0] != t:
            ordered.remove((t, reads[t]))
            ordered.insert(0, (t, reads[t]))
        checks = tuple(ordered)
        wr_t = tuple(sorted(writes.values()))
        where = f"{self.rules.source}:{m.line}: move {m.name!r}"
        rays = self._rays(m, player, t, g, where) if m.lines is not None else None
        local = (mi, player, checks, wr_t, to_tile, m.klass, tuple(safe), rays, m.captures, m.conditions)
        if not links and local in self._local:
            return self._local[local]
        ident = len(self.apps)
        conds = tuple(link_conds) if any(link_conds) else ()
        groups = None
        if m.captures is not None:
            gc = m.captures
            v = self.after_state(gc.becomes, player, f"{where}: captures")
            groups = Groups(self.mask(player, gc.groups), self.mask(player, gc.liberties),
                            self.mask(player, ("own",)), v * h + self.canon[v][g], gc.suicide)
        self.apps.append(App(ident, mi, player, t, g, checks, wr_t, to_tile, m.klass, tuple(links), tuple(safe),
                             rays, conds, groups, m.conditions, tuple(link_lines) if any(link_lines) else ()))
        if not links:
            self._local[local] = ident
        return ident

    def _rays(self, m: Move, player: int, t: int, g: int, where: str) -> Rays:
        """A move's line capture placed at (t, g): each direction g(d) walked across the gluings, its frame carried
        (docs/conventions.md §2), until it leaves the board or meets a tile it passed (kept, as the last tile)."""
        lc = m.lines
        assert lc is not None
        grp = self.rules.grid.group
        h = self.h
        v = self.after_state(lc.becomes, player, f"{where}: lines")
        runs = []
        for d in lc.directions:
            tiles: list[int] = []
            new: list[int] = []
            seen = {t}
            u, f = t, g
            loops = False
            while True:
                code = self.chart[u][self.dom_index[grp.act(f, d)]]
                if code < 0:
                    break
                u, o = divmod(code, h)
                f = self.mul[f][self.inv[o]]
                tiles.append(u)
                new.append(v * h + self.canon[v][f])
                if u in seen:
                    loops = True
                    break
                seen.add(u)
            if tiles:
                runs.append((tuple(tiles), tuple(new), loops))
        return Rays(self.mask(player, lc.over), self.mask(player, lc.until), lc.need, tuple(runs))

    def endless_fall(self) -> tuple[str, int] | None:
        """(move, tile) of a gravity move whose pieces could fall forever from that tile (the line along its
        ``fall`` closes on itself without reaching the board's edge), or None when every fall ends.  O(n·|H|·n)."""
        grp = self.rules.grid.group
        h = self.h
        for m in self.rules.moves:
            if m.fall is None:
                continue
            for t in range(self.n):
                for g in m.orientations:
                    seen = set()
                    u, f = t, g
                    while (u, f) not in seen:
                        seen.add((u, f))
                        code = self.chart[u][self.dom_index[grp.act(f, m.fall)]]
                        if code < 0:
                            break
                        u, o = divmod(code, h)
                        f = self.mul[f][self.inv[o]]
                    else:
                        return m.name, t
        return None

    # ---- tables used in play ---------------------------------------------------------
    def entry_table(self, player: int, phase: int = -1) -> list[list[tuple[int, ...] | None]]:
        """``table[t][code]``: the entry applications (filled in as :meth:`entries` is asked)."""
        key = player if phase < 0 else (player, phase)
        tab = self._entry_tables.get(key)
        if tab is None:
            tab = [[None] * self.n_codes for _ in range(self.n)]
            self._entry_tables[key] = tab
        return tab

    def entries(self, player: int, t: int, code: int, phase: int = -1) -> tuple[int, ...]:
        """Applications that can start a turn of ``player`` at tile t holding ``code`` (in the regular play, or in
        the rule set's phase of index ``phase``: its own moves)."""
        tab = self.entry_table(player, phase)
        got = tab[t][code]
        if got is not None:
            return got
        got = self._entries_uncached(player, t, code, phase)
        tab[t][code] = got
        return got

    def _entries_uncached(self, player: int, t: int, code: int, phase: int = -1) -> tuple[int, ...]:
        out: list[int] = []
        seen: set[int] = set()
        f = code % self.h
        mul_f = [row[f] for row in self.mul]
        apps = self.apps
        for mi, msk, orients in self._starts(player, phase):
            if not (msk >> code) & 1:
                continue
            for a in orients:
                ident = self.place(mi, player, t, mul_f[a])
                if ident >= 0 and ident not in seen and (apps[ident].checks[0][1] >> code) & 1:
                    seen.add(ident)
                    out.append(ident)
        return tuple(out)

    def _starts(self, player: int, phase: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """(move, the codes its origin accepts as a mask, its orientations) of every move that can start a turn of
        ``player`` (in the regular play, or in the phase of index ``phase``: its own moves)."""
        key = (player, phase)
        got = self._start_moves.get(key)
        if got is None:
            got = []
            phased = self.rules.phase_moves
            allowed = self.rules.phases[phase].moves if phase >= 0 else ()
            for mi, m in enumerate(self.rules.moves):
                if not m.start or player not in m.players:
                    continue
                if (m.name not in allowed) if allowed else (m.name in phased):  # a phase naming no moves plays the others
                    continue
                states = m.origin.before.kind == "states"
                got.append((mi, self.mask(player, m.origin.before.tokens) if states else -1, m.orientations))
            self._start_moves[key] = got
        return got

    def _anywhere_targets(self, lk: Link, player: int) -> tuple[tuple[int, int, int], ...]:
        """(move, tile, orientation) of every placement an ``anywhere`` link may take, shared by every application
        with the link: its moves at every tile, in their orientations read in each frame a piece they start from may
        have (as entries are: a silver rabbit's forward is down); :meth:`origin_ok` keeps, per code, the placements
        of the piece's own frame."""
        cache = self.__dict__.setdefault("_anywhere", {})
        key = (lk, player)
        got = cache.get(key)
        if got is None:
            targets: list[tuple[int, int, int]] = []
            for name in lk.moves:
                mj = self.move_index[name]
                m = self.rules.moves[mj]
                orients = lk.orientations or m.orientations
                frames = self._origin_frames(m, player)
                gs = list(dict.fromkeys(self.mul[a][f] for a in orients for f in frames))
                targets.extend((mj, u, g) for u in range(self.n) for g in gs)
            got = cache[key] = tuple(targets)
        return got

    def _origin_frames(self, m: Move, player: int) -> list[int]:
        """The frames a piece a move starts from may have (0 alone where none of them is oriented)."""
        vals = (self.state_values(m.origin.before.tokens, player) if m.origin.before.kind == "states"
                else frozenset(s.value for s in self.rules.states))
        return sorted({self.canon[v][f] for v in vals for f in range(self.h)} | {0})

    def origin_ok(self, ident: int, code: int) -> bool:
        """Whether application ``ident`` is placed in an orientation its move takes for the piece ``code`` on its
        origin (the move's orientations read in the piece's frame), as entries are placed: what keeps an anywhere
        link's placements to the piece's own frame."""
        a = self.apps[ident]
        if a.move < 0:
            return True
        key = (a.move, a.g, code)
        cache = self.__dict__.setdefault("_origin_ok", {})
        got = cache.get(key)
        if got is None:
            f = code % self.h
            got = cache[key] = any(self.mul[o][f] == a.g for o in self.rules.moves[a.move].orientations)
        return got

    def links(self, ident: int) -> tuple[tuple[bool, tuple[int, ...]], ...]:
        """The follow-ups of an application: (forced, application ids) per link (an anywhere link's placements
        resolved once, shared by every application with it)."""
        got = self._links.get(ident)
        if got is not None:
            return got
        app = self.apps[ident]
        out = []
        shared = self.__dict__.setdefault("_resolved", {})
        for forced, targets in app.link_keys:
            hit = shared.get(id(targets))
            if hit is not None and hit[0] is targets:
                out.append((forced, hit[1]))
                continue
            ids: list[int] = []
            seen: set[int] = set()
            for mj, u, g2 in targets:
                j = self.place(mj, app.player, u, g2)
                if j >= 0 and j not in seen:
                    seen.add(j)
                    ids.append(j)
            if len(targets) >= self.LINK_TABLE_MIN:
                shared[id(targets)] = (targets, tuple(ids))
            out.append((forced, tuple(ids)))
        res = tuple(out)
        self._links[ident] = res
        return res

    LINK_TABLE_MIN = 32  # links with fewer placed follow-ups are tried one by one

    def link_table(self, ident: int, li: int) -> list[dict[int, tuple[int, ...]]] | None:
        """For an anywhere link of application ``ident`` (with many placed follow-ups): per tile, the code it holds
        -> the follow-ups placed there whose origin accepts that code, in the piece's own frame (:meth:`origin_ok`;
        a walk then reads each tile once instead of trying every placement); None for any other link.  Built once
        per distinct set of follow-ups."""
        key = (ident, li)
        cache = self.__dict__.setdefault("_link_tables", {})
        if key in cache:
            return cache[key]
        ids = self.links(ident)[li][1]
        table = None
        if len(ids) >= self.LINK_TABLE_MIN and self._is_anywhere(ident, li):
            shared = self.__dict__.setdefault("_link_tables_by_ids", {})
            hit = shared.get(id(ids))
            table = hit[1] if hit is not None and hit[0] is ids else None
            if table is None:
                rows: list[dict[int, list[int]]] = [{} for _ in range(self.n)]
                for j in ids:
                    a = self.apps[j]
                    origin = a.tile
                    mask = next((m for u, m in a.checks if u == origin), self.all_mask)
                    for c in self.valid_codes:
                        if (mask >> c) & 1 and self.origin_ok(j, c):
                            rows[origin].setdefault(c, []).append(j)
                table = [{c: tuple(v) for c, v in row.items()} for row in rows]
                shared[id(ids)] = (ids, table)
        cache[key] = table
        return table

    def _is_anywhere(self, ident: int, li: int) -> bool:
        """Whether link ``li`` of application ``ident`` is an anywhere link: its targets are those of
        :meth:`_anywhere_targets` for one of its move's anywhere links (compared by value once per distinct targets,
        so that tables read back from the disk cache, whose targets are other objects, answer alike)."""
        app = self.apps[ident]
        targets = app.link_keys[li][1]
        memo = self.__dict__.setdefault("_is_anywhere_memo", {})
        hit = memo.get(id(targets))
        if hit is not None and hit[0] is targets:
            return hit[1]
        links = self.rules.moves[app.move].links if app.move >= 0 else ()
        got = any(lk.anywhere and self._anywhere_targets(lk, app.player) == targets for lk in links)
        memo[id(targets)] = (targets, got)
        return got

    def cleanup_apps(self, player: int, when: str) -> tuple[App, ...]:
        """Every placement of the clean-ups run for ``player`` at ``when`` (turn or move)."""
        key = (player, when)
        got = self._cleanups.get(key)
        if got is not None:
            return got
        cms = tuple(c.move for c in self.rules.cleanups if c.when == when and player in c.move.players)
        out: list[App] = []
        seen: set[tuple] = set()
        for mi, m in enumerate(cms):
            for t in range(self.n):
                for g in m.orientations:
                    ident = self._build(m, -1 - mi, player, t, g)
                    if ident >= 0:
                        a = self.apps[ident]
                        sig = (mi, a.checks, a.writes)
                        if sig not in seen:
                            seen.add(sig)
                            out.append(a)
        res = tuple(out)
        self._cleanups[key] = res
        return res

    def exact_lines(self, k: int) -> list[tuple[int, tuple[int, ...], int]]:
        """Lines of k distinct tiles with the tiles just beyond their ends (−1 off the board), for lines of exactly
        k (an end rule's ``exact``)."""
        got = self._exact_lines.get(k)
        if got is None:
            got = bounded_lines(self.atlas, k)
            self._exact_lines[k] = got
        return got

    def lines(self, k: int) -> list[tuple[int, ...]]:
        """k-in-a-row lines of distinct tiles on this board."""
        got = self._lines.get(k)
        if got is None:
            got = board_lines(self.atlas, k)
            self._lines[k] = got
        return got

    # ---- primitive operations on a code list -------------------------------------------
    def fits(self, app: App, codes: list[int]) -> bool:
        """True when the application's checks hold (and its line capture captures enough runs)."""
        for u, msk in app.checks:
            if not (msk >> codes[u]) & 1:
                return False
        if app.lines is not None and len(self.captures(app, codes)) < app.lines.need:
            return False
        if app.conds and not self.holds(codes, app.conds, app.player, app.tile):
            return False
        if app.groups is not None and not app.groups.suicide:
            taken, free = self.group_captures(app, codes)
            return bool(taken) or free
        return True

    def side_lines(self, k: int) -> list[tuple[tuple[int, ...], ...]]:
        """Per tile, the lines of k distinct tiles through it along the grid's sides (rows and columns on squares),
        read across the gluings: a mill."""
        got = self._side_lines.get(k)
        if got is None:
            per: list[list[tuple[int, ...]]] = [[] for _ in range(self.n)]
            for line in board_lines(self.atlas, k, list(self.board.grid.directions)):
                for u in line:
                    per[u].append(line)
            got = [tuple(x) for x in per]
            self._side_lines[k] = got
        return got

    def count(self, codes: list[int], cond: Condition, player: int, here: int = -1) -> int | None:
        """How many tiles (of the condition's region, of its line or off every such line, the tile ``here`` only
        where it says so) hold one of its states for ``player``; None if the board has no such region (a condition
        on a missing region never holds).  Cost O(n), times the lines through a tile with ``line``."""
        wanted = self.state_codes(cond.states, player)
        tiles: Any = range(self.n)
        if cond.around:  # the tiles next to the tile at hand (a move's origin, or where it ended for a link)
            if here < 0:
                return 0
            region = None
            if cond.region:
                region = self.regions.get(cond.region.replace("{player}", self.rules.players[player]))
                if region is None:
                    return None
            return sum(1 for u in self.around[here] if codes[u] in wanted and (region is None or u in region))
        if cond.region:
            region = self.regions.get(cond.region.replace("{player}", self.rules.players[player]))
            if region is None:
                return None
            tiles = region
        if cond.here:
            tiles = [here] if here >= 0 and (not cond.region or here in tiles) else []
        if not cond.line:
            if not cond.region and not cond.here:
                return sum(codes.count(c) for c in wanted)
            return sum(1 for t in tiles if codes[t] in wanted)
        lines = self.side_lines(cond.line)
        n = 0
        for t in tiles:
            if codes[t] in wanted:
                on = any(all(codes[u] in wanted for u in line) for line in lines[t])
                n += on != cond.outside
        return n

    def holds(self, codes: list[int], conds: tuple[Condition, ...], player: int, here: int = -1) -> bool:
        """Every condition holds for ``player`` (``here``: the tile a ``here`` condition reads)."""
        for c in conds:
            if c.any:  # a disjunction: one of its alternatives holds
                if not any(self.holds(codes, (a,), player, here) for a in c.any):
                    return False
                continue
            n = self.count(codes, c, player, here)
            if n is None or not c.holds(n):
                return False
        return True

    def new_values(self, app: App, codes: list[int]) -> list[tuple[int, int]]:
        """(tile, new code) for each write of a fitting application (every source read before any write), then
        the tiles its line capture takes."""
        maps = self.maps
        out = [(u, maps[m][codes[src]]) for u, src, m in app.writes]
        if app.lines is not None:
            written = {u for u, _v in out}
            for run in self.captures(app, codes):
                for u, v in run:
                    if u in written:
                        out = [(w, x) for w, x in out if w != u]
                    written.add(u)
                    out.append((u, v))
        if app.groups is not None:
            taken, _free = self.group_captures(app, codes)
            if taken:
                gone = set(taken)
                out = [(u, v) for u, v in out if u not in gone] + [(u, app.groups.becomes) for u in taken]
        return out

    @cached_property
    def neighbours(self) -> list[list[int]]:
        """Each tile's neighbours through the gluing table (the grid's unit directions)."""
        h = self.h
        return [[c // h for c in row if c >= 0] for row in self.board.glue]

    @cached_property
    def around(self) -> list[tuple[int, ...]]:
        """Each tile's distinct neighbours through the grid's sides, across the gluings (a condition's ``around``)."""
        return [tuple(dict.fromkeys(row)) for row in self.neighbours]

    def group_captures(self, app: App, codes: list[int]) -> tuple[list[int], bool]:
        """(tiles captured, whether the mover's group at the origin has a liberty) of a capture by liberties, read
        after the pattern's writes.  Cost O(size of the groups next to the origin)."""
        grp = app.groups
        assert grp is not None
        maps = self.maps
        after = {u: maps[m][codes[src]] for u, src, m in app.writes}
        nb = self.neighbours

        def cur(u: int) -> int:
            return after.get(u, codes[u])

        def flood(start: int, mask: int) -> tuple[list[int], bool]:
            group = [start]
            seen = {start}
            free = False
            i = 0
            while i < len(group):
                for v in nb[group[i]]:
                    c = cur(v)
                    if (grp.liberty >> c) & 1:
                        free = True
                    elif v not in seen and (mask >> c) & 1:
                        seen.add(v)
                        group.append(v)
                i += 1
            return group, free

        taken: list[int] = []
        done: set[int] = set()
        for v in nb[app.tile]:
            if v in done or not (grp.foe >> cur(v)) & 1:
                continue
            group, free = flood(v, grp.foe)
            done.update(group)
            if not free:
                taken.extend(group)
        own_free = (grp.own >> cur(app.tile)) & 1 and flood(app.tile, grp.own)[1]
        return sorted(set(taken)), bool(own_free)

    def captures(self, app: App, codes: list[int]) -> list[list[tuple[int, int]]]:
        """The runs a line capture takes, each as (tile, new code): read on the position after the pattern's own
        writes, every direction on the same position.  Cost O(length of the lines)."""
        rays = app.lines
        assert rays is not None
        maps = self.maps
        after = {u: maps[m][codes[src]] for u, src, m in app.writes}
        out = []
        for tiles, new, loops in rays.runs:
            last = len(tiles) - 1 if loops else len(tiles)
            i = 0
            while i < last and (rays.over >> after.get(tiles[i], codes[tiles[i]])) & 1:
                i += 1
            if 0 < i < len(tiles) and (rays.until >> after.get(tiles[i], codes[tiles[i]])) & 1:
                out.append(list(zip(tiles[:i], new[:i], strict=True)))
        return out

    # ---- static reach (for the royal test) ----------------------------------------------
    def reach(self, ident: int) -> frozenset[int]:
        """Every tile some chain starting with application ``ident`` could write (its links followed, fits ignored)."""
        got = self._reach.get(ident)
        if got is None:
            bits = self.reach_bits(ident)
            got = frozenset(u for u in range(self.n) if (bits >> u) & 1)
            self._reach[ident] = got
        return got

    def _writes_bits(self, ident: int) -> int:
        """The tiles application ``ident`` itself could write, as bits (a capture by liberties: every tile)."""
        a = self.apps[ident]
        bits = 0
        for u, _s, _m in a.writes:
            bits |= 1 << u
        if a.lines is not None:
            for run, _new, _loops in a.lines.runs:
                for u in run:
                    bits |= 1 << u
        if a.groups is not None:
            bits = (1 << self.n) - 1
        return bits

    def reach_bits(self, ident: int) -> int:
        """:meth:`reach` as bits over tiles, for every application its links lead to at once: the link graph's strongly
        connected components (Tarjan's, without recursion) each share one reach.  Cost O(applications + links) the
        first time an application is reached."""
        done = self._reach_bits
        got = done.get(ident)
        if got is not None:
            return got
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        acc: dict[int, int] = {}
        stack: list[int] = []
        on: set[int] = set()
        work: list[tuple[int, Iterator[int]]] = []

        def push(v: int) -> None:
            index[v] = low[v] = len(index)
            acc[v] = self._writes_bits(v)
            stack.append(v)
            on.add(v)
            work.append((v, (j for _forced, ids in self.links(v) for j in ids)))

        push(ident)
        while work:
            v, succ = work[-1]
            for w in succ:
                if w in done:
                    acc[v] |= done[w]
                elif w not in index:
                    push(w)
                    break
                elif w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if low[v] == index[v]:  # v roots a component: its members share the union of their reaches
                    members = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        members.append(x)
                        if x == v:
                            break
                    total = 0
                    for x in members:
                        total |= acc[x]
                    for x in members:
                        done[x] = total
                if work:
                    p = work[-1][0]
                    low[p] = min(low[p], low[v])
                    acc[p] |= done.get(v, acc[v])
        return done[ident]

    def attack_index(self, player: int) -> dict[int, tuple[tuple[int, frozenset[int]], ...]]:
        """Tile u -> (entry application, the codes at its tile it enters for) of ``player``, for every entry whose
        chains could write u.  Built once per player: cost O(n · |codes| · entries) and each entry's reach."""
        got = self._attack.get(player)
        if got is None:
            codes_of: dict[int, list[int]] = {}  # an entry's application lies at the tile it is an entry of
            for t in range(self.n):
                for c in self.valid_codes:
                    for ident in self.entries(player, t, c):
                        codes_of.setdefault(ident, []).append(c)
            by_tile: dict[int, list[tuple[int, frozenset[int]]]] = {}
            for ident in sorted(codes_of):
                cs = frozenset(codes_of[ident])
                bits = self.reach_bits(ident)
                while bits:
                    low = bits & -bits
                    by_tile.setdefault(low.bit_length() - 1, []).append((ident, cs))
                    bits ^= low
            got = {u: tuple(row) for u, row in sorted(by_tile.items())}
            self._attack[player] = got
        return got
