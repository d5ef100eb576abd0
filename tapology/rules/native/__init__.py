"""Native (C) execution of the generic rule engine: turns, perft and divide with the semantics of
:class:`tapology.rules.chains.Chains` and :mod:`tapology.rules.perft`, which stay the reference and the fallback.

One C engine (``engine.c``) interprets the flat tables of any rule set on any board
(:mod:`tapology.rules.native.tables`); it is compiled with cffi on first use into a cache
(:mod:`tapology.rules.native.build`).  Where it cannot run — no cffi or C compiler,
``TAPOLOGY_NATIVE=0``, or a rule set with tape moves, clean-ups after each move, a move with safe
cells for a player without a royal state, a slide anywhere after another move, or (for perft) a strict
end rule on chains, counters or the history — callers fall back to Python: :func:`available` and :func:`reason` say whether the
engine is there, :func:`why_not` why a rule set does not run on it.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from types import ModuleType
from typing import Any

import numpy as np

from tapology.rules.cache import store as store_tables
from tapology.rules.chains import Chains, Found, Path, separators
from tapology.rules.compiled import Compiled, Key
from tapology.rules.maximum import class_rules
from tapology.rules.native import tables as _tables

ERR_CAP = -1  # an arena is full: grown and asked again; other negative results fall back to Python
START_CAPS = {"keys": 1 << 14, "changes": 1 << 16, "undo": 1 << 14, "depth": 1 << 10, "hash": 1 << 12,
              "chains": 1 << 16}
MAX_CAP = 1 << 28

_module: ModuleType | None = None
_failure = ""
_ENGINES: weakref.WeakKeyDictionary[Compiled, Engine | str] = weakref.WeakKeyDictionary()
_SPECIAL: weakref.WeakKeyDictionary[Compiled, Engine | str] = weakref.WeakKeyDictionary()  # str: why not
_LAST: weakref.WeakKeyDictionary[Compiled, str] = weakref.WeakKeyDictionary()  # what the last big job ran on
# boards whose own C a count did not wait for (why), and the C generated for them
_LATER: weakref.WeakKeyDictionary[Compiled, str] = weakref.WeakKeyDictionary()
_SOURCES: weakref.WeakKeyDictionary[Compiled, str] = weakref.WeakKeyDictionary()
_PLAYS: weakref.WeakKeyDictionary[Compiled, bool] = weakref.WeakKeyDictionary()  # its generated C plays playouts
_WHOLE: weakref.WeakKeyDictionary[Compiled, float] = weakref.WeakKeyDictionary()  # leaf turns of the perft under way
SPECIALISE_WORK = 3 * 10**6  # leaf turns of a perft from which compiling its board's own C pays (seconds of gcc)


def _load() -> ModuleType | None:
    """The compiled module, built once per process (None with ``_failure`` set when that fails)."""
    global _module, _failure
    if _module is None and not _failure:
        try:
            from tapology.rules.native import build  # cffi and the C build load only when first needed

            _module = build.load()
        except Exception as exc:  # no cffi, no compiler, a read-only cache: the Python path runs instead
            _failure = f"{type(exc).__name__}: {exc}".strip()
    return _module


def available() -> bool:
    """True when the native engine can run here (``TAPOLOGY_NATIVE=0`` says no).  Compiles it on first call."""
    return not reason()


def reason() -> str:
    """Why the native engine does not run here ("" when it does)."""
    if os.environ.get("TAPOLOGY_NATIVE", "1") == "0":
        return "TAPOLOGY_NATIVE=0"
    if _load() is None:
        return f"the C engine could not be built: {_failure}"
    return ""


class Engine:
    """The C engine over the flat tables of one compiled board (one per :class:`Compiled`, cached)."""

    def __init__(self, mod: ModuleType, tabs: _tables.Tables, kind: str = "native") -> None:
        self.kind = kind  # "native" (the interpreter) or "native-specialised" (C generated for this board)
        self.ffi, self.lib = mod.ffi, mod.lib
        self.dense = tabs.dense
        self.raw_code = np.asarray(tabs.fields["raw_code"], np.int64)  # dense code -> tile code
        self.perft_reason = tabs.perft_reason
        self.n = int(tabs.fields["n"])
        self.nctr = int(tabs.fields["nctr"])
        self._struct = self.ffi.new("tp_tables *")
        self._keep: list[Any] = []
        want = _tables.lengths(tabs.fields)
        for name, value in tabs.fields.items():
            if isinstance(value, np.ndarray):
                dtype = np.uint8 if name in _tables.BYTES else np.int32
                if value.dtype != dtype or value.shape != (want[name],):
                    raise ValueError(f"native table {name}: {value.dtype}{value.shape}, not {np.dtype(dtype)}"
                                     f"({want[name]},)")
                arr = np.ascontiguousarray(value) if value.size else np.zeros(1, dtype)  # a valid pointer, even empty
                self._keep.append(arr)
                setattr(self._struct, name, self.ffi.from_buffer("uint8_t[]" if dtype == np.uint8 else "int32_t[]", arr))
            else:
                setattr(self._struct, name, int(value))
        if set(want) - set(tabs.fields):
            raise ValueError(f"native tables missing {sorted(set(want) - set(tabs.fields))}")
        got = self.lib.tp_check(self._struct)
        if got != 0:
            raise AssertionError(f"native tables fail check {-got}")
        self.caps = dict(START_CAPS)
        self._engine = self._new()
        self._lock = threading.Lock()

    def _new(self) -> Any:
        c = self.caps
        ptr = self.lib.tp_new(self._struct, c["keys"], c["changes"], c["undo"], c["depth"], c["hash"], c["chains"])
        if ptr == self.ffi.NULL:
            raise MemoryError("the native engine could not allocate its arenas")
        return self.ffi.gc(ptr, self.lib.tp_free)

    def _grow(self) -> bool:
        """Double every capacity (False once they are past any sensible size)."""
        if max(self.caps.values()) >= MAX_CAP:
            return False
        self.caps = {k: v * 2 for k, v in self.caps.items()}
        self._engine = self._new()
        return True

    def _codes(self, codes: list[int]) -> Any:
        """The dense codes of a position as a C array, or None when some code stands for no state."""
        arr = np.asarray(codes, np.int64)
        if arr.shape != (self.n,) or (self.n and (arr.min() < 0 or arr.max() >= len(self.dense))):
            return None
        dense = self.dense[arr]
        if (dense < 0).any():
            return None
        return self.ffi.from_buffer("int32_t[]", np.ascontiguousarray(dense, np.int32))  # keeps the array alive

    def _counters(self, counters: tuple[int, ...]) -> Any:
        """The position's counters as a C array (NULL for none: all 0)."""
        if not counters or not self.nctr:
            return self.ffi.NULL
        return self.ffi.new("int32_t[]", [*counters[:self.nctr], *[0] * (self.nctr - len(counters))])

    def _run(self, call) -> int | None:
        """``call(engine)`` again with larger arenas while it runs out of room; None on another error (the Python
        path then gives the answer, or raises the rule set's error)."""
        while True:
            got = call(self._engine)
            if got != ERR_CAP:
                return None if got < 0 else int(got)
            if not self._grow():
                return None

    def _fetch(self, fn) -> np.ndarray:
        """The int records a tp_keys / tp_chains call writes."""
        need = fn(self._engine, self.ffi.NULL, 0)
        out = np.zeros(max(need, 1), np.int32)
        fn(self._engine, self.ffi.from_buffer("int32_t[]", out), need)
        return out[:need]

    def _keys(self) -> list[tuple[Key, bool, bool]]:
        """(key, legal, flagged) of every turn found by the last call, in the order the walk found them."""
        rec = self._fetch(self.lib.tp_keys).tolist()
        out = []
        i = 0
        while i < len(rec):
            start, end, legal, flagged, ln = rec[i:i + 5]
            ch = rec[i + 5:i + 5 + 2 * ln]
            out.append(((start, end, frozenset(zip(ch[0::2], ch[1::2], strict=True))), bool(legal), bool(flagged)))
            i += 5 + 2 * ln
        return out

    def perft(self, codes: list[int], player: int, ply: int, depth: int, bulk: bool = True,
              counters: tuple[int, ...] = ()) -> int | None:
        """Leaf turns at ``depth`` >= 1 (None: not here) below a position with these ``counters`` (none: all 0);
        ``bulk=False`` makes every leaf turn instead of counting the last ply.  Cost: the tree, in C."""
        with self._lock:  # one call at a time: the arenas are the engine's
            c = self._codes(codes)
            if c is None or self.perft_reason:
                return None
            ctr = self._counters(counters)
            return self._run(lambda e: self.lib.tp_perft_made(e, c, player, ply, depth, 0 if bulk else 1, ctr))

    def perft_ways(self, codes: list[int], player: int, ply: int, depth: int,
                   counters: tuple[int, ...] = ()) -> int | None:
        """Leaf turns at ``depth`` >= 1, each turn once per way of playing it as :func:`tapology.rules.perft.play_paths`
        tells them apart (perft --rbg; None: not here).  Cost: the tree, every chain of it walked, in C."""
        with self._lock:
            c = self._codes(codes)
            if c is None or self.perft_reason:
                return None
            ctr = self._counters(counters)
            return self._run(lambda e: self.lib.tp_perft_ways(e, c, player, ply, depth, ctr))

    def in_check(self, codes: list[int], player: int) -> bool | None:
        """Whether a royal piece of ``player`` can be taken (None: not here)."""
        with self._lock:
            c = self._codes(codes)
            if c is None:
                return None
            got = self._run(lambda e: self.lib.tp_in_check(e, c, player))
            return None if got is None else bool(got)

    def playouts(self, codes: list[int], player: int, ply: int, max_plies: int, first: int, count: int,
                 seed: int, counters: tuple[int, ...] = ()) -> tuple[list[int], list[int] | None] | None:
        """``count`` random games (playouts ``first``.. of the stream ``seed``) to a strict end, no turn or
        ``max_plies``: ([plies, ended by a rule, by no turn, by the limit], the final codes + [player, ply] + the
        counters when ``count`` is 1, as tile codes), or None (not here).  Cost: the games, in C."""
        with self._lock:
            c = self._codes(codes)
            if c is None or self.perft_reason:
                return None
            held: list[np.ndarray] = []
            ctr = self._counters(counters)

            def call(e) -> int:
                stats = np.zeros(4, np.int64)
                final = np.zeros(self.n + 2 + self.nctr, np.int32)
                held[:] = [stats, final]
                return self.lib.tp_playouts(e, c, player, ply, max_plies, first, count, seed & (2**64 - 1),
                                            self.ffi.from_buffer("int64_t[]", stats),
                                            self.ffi.from_buffer("int32_t[]", final), ctr)

            if self._run(call) is None:
                return None
            stats, final = held
            if count != 1:
                return stats.tolist(), None
            return stats.tolist(), [*self.raw_code[final[:self.n]].tolist(), *final[self.n:].tolist()]

    def divide(self, codes: list[int], player: int, ply: int, depth: int,
               counters: tuple[int, ...] = ()) -> list[tuple[Key, int]] | None:
        """(key, leaf turns ``depth`` - 1 plies below it) for every legal first turn (None: not here)."""
        with self._lock:
            c = self._codes(codes)
            if c is None or self.perft_reason:
                return None
            held: list[np.ndarray] = []
            ctr = self._counters(counters)

            def call(e) -> int:
                counts = np.zeros(self.caps["keys"], np.int64)  # the root's turns never outnumber the key arena
                held[:] = [counts]
                return self.lib.tp_divide(e, c, player, ply, depth, self.ffi.from_buffer("int64_t[]", counts), len(counts),
                                          ctr)

            if self._run(call) is None:
                return None
            return [(key, int(n)) for (key, legal, _f), n in zip(self._keys(), held[0].tolist(), strict=False) if legal]

    def once_links(self) -> int:
        """How many links the walk follows in one order of two moves, the other order giving the same turns."""
        return int(self.lib.tp_once_links(self._engine))

    def paired_links(self) -> int:
        """How many links a bulk count's last ply follows by counting the follow-ups that fit, each its own turn."""
        return int(self.lib.tp_paired_links(self._engine))

    def quick_follow_ups(self) -> int:
        """How many applications a count by hash counts from their writes' hash delta, ending a chain (quick_leaf)."""
        return int(self.lib.tp_quick_follow_ups(self._engine))

    def apart_links(self) -> int:
        """How many links the walk follows leaving out a second slide apart from the first, the other order giving it."""
        return int(self.lib.tp_apart_links(self._engine))

    def apart_replays(self) -> int:
        """How many chain ends of second slides apart from the first were counted from a node's records since the
        engine was made (the second slide walked once per node, not once per first slide)."""
        return int(self.lib.tp_apart_replays(self._engine))

    def budget_follow_ups(self, left: int) -> int:
        """How many follow-ups the link tables offer a move with ``left`` steps of the budget left (-1: no budget)."""
        return int(self.lib.tp_budget_follow_ups(self._engine, left))

    def solos(self, mark: int) -> int:
        """How many moves hold the mark ``mark`` of the walk's moves whose turns no other chain makes (1 a leaf, 2 a
        leaf counted in the entry scan, 4 an entry with links counted alone), read after a first perft."""
        return int(self.lib.tp_solos(self._engine, mark))

    def shut_sets(self) -> int:
        """How many entry sets count the single cells whose links open only beside a line lacking at most their tile
        by tile sets away from those tiles (engine.c shut_cells: the mill game's placement), read after a first perft."""
        return int(self.lib.tp_shut_sets(self._engine))

    def pair_ok(self) -> bool:
        """Whether a count's last ply tells its turns apart by (start, end) alone (engine.c pair_ready), read after a
        first perft."""
        return bool(self.lib.tp_pair_ok(self._engine))

    def raw_chains(self) -> bool:
        """Whether a count's chains are written on the board's codes and hash alone, its counts and tile sets brought
        level only for the turn clean-ups (engine.c raw_ready), read after a first perft."""
        return bool(self.lib.tp_raw_ok(self._engine))

    def pair_by_hops(self) -> bool:
        """Whether pair_ok holds by chains that only carry a piece (engine.c pair_hops_hold), the walk from a start not
        going on again from a tile whose follow-ups it has walked; read after a first perft."""
        return self.lib.tp_pair_ok(self._engine) == 2

    def turns(self, chains: Chains, codes: list[int], player: int, phase: int = -1) -> dict[Key, Found] | None:
        """The legal turns by key after the mandatory-class and maximum rules, each with its label path, moves and
        flag, as :meth:`Chains.turns` finds them in the phase of index ``phase`` (-1: the regular play) (None: not
        here, or a turn whose routes hold different counts for the maximum rule)."""
        with self._lock:
            c = self._codes(codes)
            if c is None or self._run(lambda e: self.lib.tp_turns(e, c, player, phase, 1)) is None:
                return None
            keys = self._keys()
            rec = self._fetch(self.lib.tp_chains).tolist()
            seps = separators(chains.rules)
            found: dict[Key, Found] = {}
            i = 0
            while i < len(rec):  # each accepted key's least label path (Chains.finish), with its moves
                k, ln = rec[i:i + 2]
                seq = tuple(rec[i + 2:i + 2 + ln])
                i += 2 + ln
                pairs = rec[i + 1:i + 1 + 2 * rec[i]]
                i += 1 + 2 * rec[i]
                path: Path = tuple(zip([seps[s] for s in pairs[0::2]], pairs[1::2], strict=True))
                key, legal, flagged = keys[k]
                if legal:
                    found[key] = Found(path, flagged, seq)
            return found


def specialise_mode() -> str:
    """``TAPOLOGY_NATIVE_SPECIALISE``: "0" never compile C for one board, "1" for every job, else "auto" (for the jobs
    whose estimated work pays for the compile: big perfts, long playouts)."""
    got = os.environ.get("TAPOLOGY_NATIVE_SPECIALISE", "auto")
    return got if got in ("0", "1") else "auto"


def _specialised(chains: Chains, generic: Engine) -> Engine | None:
    """The specialised engine of the board, loaded from the cache or compiled into it (None with the reason kept
    for :func:`why_not_specialised`: declined, or no compiler)."""
    from tapology.rules.native import build  # loads only when first needed (the interpreter's load did already)

    comp = chains.comp
    got = _SPECIAL.get(comp)
    if got is not None:
        return got if isinstance(got, Engine) else None
    tabs = comp.native_tables
    assert isinstance(tabs, _tables.Tables)
    name = _noted(comp)
    if name is None:
        from tapology.rules.native import specialise  # the generator loads only when a board is specialised

        why = specialise.declines(tabs)
        if why:
            _SPECIAL[comp] = why
            return None
    try:
        if name is not None:  # compiled for these tables already and named in the cache: no generator, no hash
            mod = build.load_built(name)
        else:
            mod = specialise.load(tabs, _SOURCES.pop(comp, None))
            if comp.cache_key is not None:
                build.note(comp.cache_key, specialise.module_name(tabs))
        eng = Engine(mod, tabs, "native-specialised")
    except Exception as exc:  # no compiler, a read-only cache: the interpreter runs
        _SPECIAL[comp] = f"the specialised C could not be built: {type(exc).__name__}: {exc}".strip()
        return None
    eng.perft_reason = generic.perft_reason
    _SPECIAL[comp] = eng
    _LATER.pop(comp, None)
    return eng


def _noted(comp: Compiled) -> str | None:
    """The name of the module generated for the board's tables where the disk cache notes it compiled
    (:func:`tapology.rules.native.build.noted`, by the tables' cache key), else None."""
    from tapology.rules.native import build  # loads only when first needed (the interpreter's load did already)

    return None if comp.cache_key is None else build.noted(comp.cache_key)


def _compiled(comp: Compiled, tabs: _tables.Tables) -> bool:
    """Whether the module generated for the board's tables is compiled: noted in the cache (:func:`_noted`), else
    :func:`tapology.rules.native.specialise.cached` (the generator's import and a hash of the tables)."""
    if _noted(comp) is not None:
        return True
    from tapology.rules.native import specialise  # the generator loads only when a board is specialised

    return specialise.cached(tabs)


def why_not_specialised(chains: Chains) -> str:
    """Why a job that asked for C generated for this board ran on the interpreter ("" when none did)."""
    got = _SPECIAL.get(chains.comp)
    return got if isinstance(got, str) else _LATER.get(chains.comp, "")


def engine(chains: Chains, specialise: bool | None = None) -> Engine | None:
    """The native engine of a compiled board (built once, cached with the board's tables; its tables are read from
    and written to the disk cache, :mod:`tapology.rules.cache`), or None: the interpreter, or with ``specialise``
    (or ``TAPOLOGY_NATIVE_SPECIALISE=1``) the engine generated for this board
    (:mod:`tapology.rules.native.specialise`), compiled on first use, where it builds
    (``TAPOLOGY_NATIVE_SPECIALISE=0``: never)."""
    generic = _generic(chains)
    mode = specialise_mode()
    if generic is None or mode == "0" or not (specialise or (specialise is None and mode == "1")):
        return generic
    return _specialised(chains, generic) or generic


def _generic(chains: Chains) -> Engine | None:
    """The interpreter over the board's tables, or None."""
    if not available():
        return None
    comp = chains.comp
    got = _ENGINES.get(comp)
    if got is None:
        mod = _load()
        assert mod is not None
        try:
            tabs = comp.native_tables
            if not isinstance(tabs, _tables.Tables):
                tabs = _tables.build(chains)
                comp.native_tables = tabs
                store_tables(comp, tabs)
            got = Engine(mod, tabs)
            chains.native_check = got.in_check
        except _tables.Unsupported as exc:
            got = str(exc)
        _ENGINES[comp] = got
    return got if isinstance(got, Engine) else None


def ready(chains: Chains) -> bool:
    """True when the native engine of this board costs nothing more to start: it runs already, or the disk cache
    held its tables."""
    got = _ENGINES.get(chains.comp)
    return isinstance(got, Engine) or (isinstance(chains.comp.native_tables, _tables.Tables) and available())


def why_not(chains: Chains, perft: bool = False) -> str:
    """Why turns (or perft, with ``perft``) of this rule set on this board do not run natively ("" when they do)."""
    if not available():
        return reason()
    eng = _generic(chains)
    if eng is None:
        return str(_ENGINES[chains.comp])
    return eng.perft_reason if perft else ""


def engine_used(chains: Chains, perft: bool = False) -> tuple[str, str]:
    """Which engine runs this rule set on this board (``perft``: its count): ("native-specialised", ""),
    ("native", "" or why not specialised) or ("python", why)."""
    why = why_not(chains, perft)
    if why:
        return "python", why
    if _LAST.get(chains.comp) == "native-specialised":
        return "native-specialised", ""
    return "native", why_not_specialised(chains) if _LAST.get(chains.comp) == "native-asked" else ""


def perft_engine(chains: Chains, codes: list[int], player: int, ply: int, depth: int,
                 counters: tuple[int, ...] = ()) -> Engine | None:
    """The engine a perft of ``depth`` below this position runs on: C generated for the board when the count is
    estimated at :data:`SPECIALISE_WORK` leaf turns or more (loaded from the cache; compiled first where the count
    pays for the compile, :func:`_compile_now`, else compiled in the background for a later run while the interpreter
    counts), else the interpreter; None: not native.  The estimate: the interpreter's counts 3 and 2 plies short of
    ``depth``, grown by their ratio for the last two plies (about 1/g² of the count's own cost, g its growth per
    ply), and its time likewise."""
    eng = engine(chains, specialise=False)
    if eng is None:
        return None
    forced = specialise_mode() == "1"
    want = forced or (specialise_mode() == "auto" and isinstance(_SPECIAL.get(chains.comp), Engine))
    seconds = 0.0  # the interpreter's time for the count, estimated
    if not want and depth >= 4 and specialise_mode() == "auto":  # (loaded already: it costs nothing more)
        short = eng.perft(codes, player, ply, depth - 3, counters=counters)
        start = time.process_time()  # CPU time, as the compile's cost is (a busy machine slows both alike)
        near = eng.perft(codes, player, ply, depth - 2, counters=counters)
        grow = (near / short) ** 2 if short else 0.0  # type: ignore[operator]
        seconds = (time.process_time() - start) * grow
        want = bool(short and near) and near * grow >= SPECIALISE_WORK  # type: ignore[operator]
        whole = _WHOLE.get(chains.comp, 0.0)  # the count this one is a task of (expect_perft)
        if want and whole > near * grow:  # type: ignore[operator]
            seconds *= whole / (near * grow)  # type: ignore[operator]
        if want and not _compile_now(chains, seconds):
            _LAST[chains.comp] = "native-asked"
            return eng
    if not want:
        _LAST.pop(chains.comp, None)
        return eng
    return _ran(chains, engine(chains, specialise=True))


def _compile_now(chains: Chains, seconds: float) -> bool:
    """Whether a count the interpreter would take ``seconds`` for runs on the board's own C at once: True when it is
    loaded or compiled already, declined (the caller's engine says why), or when its compile costs at most half the
    count (the generated C counts some 2 to 5 times faster); else False, its compile started in the background for a
    later run (:func:`tapology.rules.native.build.compile_later`), and :func:`why_not_specialised` says so."""
    comp = chains.comp
    tabs = comp.native_tables
    if _SPECIAL.get(comp) is not None or not isinstance(tabs, _tables.Tables) or _compiled(comp, tabs):
        return True
    from tapology.rules.native import specialise  # the generator loads only when a board is specialised

    if specialise.declines(tabs):
        return True
    source = _SOURCES.get(comp)
    if source is None:
        source = _SOURCES[comp] = specialise.generate(tabs)
    cost = specialise.compile_seconds(source)
    if 2 * cost <= seconds:
        return True
    specialise.compile_later(tabs, source)
    _LATER[comp] = (f"its own C ({len(source) // 1000:,} kB, some {cost:.0f} s to compile) is being compiled in the "
                    f"background for a later run: this count, some {seconds:.1f} s on the interpreter, does not pay "
                    "for waiting")
    return False


def expect_perft(chains: Chains, leaves: float) -> None:
    """A perft estimated at ``leaves`` leaf turns is about to run in this process (by first turns): where the board's
    own C is compiled in the cache already and the count is big enough for it (:data:`SPECIALISE_WORK`), load it
    now, so that no count of a first turn estimates its own size again (:func:`perft_engine`).  Cost: a small file
    read where the cache notes the module (else a hash of the tables), and the module's import when it loads."""
    if specialise_mode() != "auto" or leaves < SPECIALISE_WORK or _SPECIAL.get(chains.comp) is not None:
        return
    generic = engine(chains, specialise=False)
    if generic is None:
        return
    tabs = chains.comp.native_tables
    if isinstance(tabs, _tables.Tables) and _compiled(chains.comp, tabs):
        _specialised(chains, generic)
    else:  # whether a compile pays is decided on the whole count, not on the task that first asks
        _WHOLE[chains.comp] = leaves


def perft(chains: Chains, codes: list[int], player: int, ply: int, depth: int, bulk: bool = True,
          counters: tuple[int, ...] = ()) -> int | None:
    """Leaf turns at ``depth`` >= 1 below a position given by its codes and ``counters`` (none: all 0), or None when
    the native engine cannot count them (the caller counts in Python); ``bulk=False`` makes every leaf turn rather
    than counting it.  Runs on :func:`perft_engine`."""
    eng = perft_engine(chains, codes, player, ply, depth, counters)
    return None if eng is None else eng.perft(codes, player, ply, depth, bulk, counters)


def perft_ways(chains: Chains, codes: list[int], player: int, ply: int, depth: int,
               counters: tuple[int, ...] = ()) -> int | None:
    """:meth:`Engine.perft_ways` on the interpreter (perft --rbg), or None when the native engine cannot count."""
    eng = engine(chains, specialise=False)
    return None if eng is None else eng.perft_ways(codes, player, ply, depth, counters)


def _ran(chains: Chains, eng: Engine | None) -> Engine | None:
    """Notes which engine a job that asked for the specialised one runs on (:func:`engine_used` reports it)."""
    if eng is not None:
        _LAST[chains.comp] = eng.kind if eng.kind == "native-specialised" else "native-asked"
    return eng


def divide(chains: Chains, codes: list[int], player: int, ply: int, depth: int,
           counters: tuple[int, ...] = ()) -> list[tuple[Key, int]] | None:
    """(key, leaf turns ``depth`` - 1 plies below it) for every legal first turn, or None when the native engine
    cannot count them."""
    eng = engine(chains)
    return None if eng is None else eng.divide(codes, player, ply, depth, counters)


def turn_keys(chains: Chains, codes: list[int], player: int, phase: int = -1) -> dict[Key, Found]:
    """The legal turns by key in the phase of index ``phase`` (-1: the regular play), as :meth:`Chains.turns`, the
    mandatory-class rule and the maximum rule give them (natively where possible, else in Python)."""
    eng = engine(chains)
    got = None if eng is None else eng.turns(chains, codes, player, phase)
    if got is None:
        got = class_rules(chains, chains.turns(codes, player, phase=phase))
    return got


def _plays(chains: Chains) -> bool:
    """Whether the C generated for this board plays playouts itself (:func:`specialise.plays`), once per board."""
    from tapology.rules.native import specialise  # the generator loads only when a board is specialised

    comp = chains.comp
    got = _PLAYS.get(comp)
    if got is None:
        tabs = comp.native_tables
        got = _PLAYS[comp] = isinstance(tabs, _tables.Tables) and specialise.plays(tabs)
    return got


def playouts(chains: Chains, codes: list[int], player: int, ply: int, max_plies: int, first: int, count: int,
             seed: int, specialise: bool | None = None,
             counters: tuple[int, ...] = ()) -> tuple[list[int], list[int] | None] | None:
    """``count`` random games below a position given by its codes and ``counters`` (:meth:`Engine.playouts`), or
    None when the native engine cannot play them (the caller plays them in Python); ``specialise``: as
    :func:`engine`; asked for where the generated C would not play them itself (:func:`specialise.plays`: a settled
    rule set with a move walked with keys before a quiet one in some entry row), the interpreter, which plays them
    alike, without the compile."""
    if specialise and specialise_mode() != "1" and not _plays(chains):
        specialise = None
    eng = engine(chains, specialise)
    if specialise or specialise_mode() == "1":
        _ran(chains, eng)
    else:
        _LAST.pop(chains.comp, None)
    return None if eng is None else eng.playouts(codes, player, ply, max_plies, first, count, seed, counters)
