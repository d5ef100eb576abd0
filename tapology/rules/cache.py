"""Compiled tables kept on disk between runs: a rule set's tables for one board, built once per machine.

A :class:`tapology.rules.compiled.Compiled` fills its tables lazily (applications, entries, links,
clean-ups, the attack index) and the native engine flattens them (:mod:`tapology.rules.native.tables`);
on chess ``torus:12x8`` that costs seconds.  Once every table is built (when the native engine's
tables are made), :func:`store` writes them to ``<cache>/tables/<key>.pickle``; a later process
opening the same rule set on the same board finds them with :func:`restore`.

The key is a hash of everything the tables depend on: the rule set's content (every field, in a
canonical form), the board's gluing, the atlas charts, the regions, and the engine version (the
source of ``tapology/rules`` and its native engine, the Python version).  A changed rule file,
board or engine gives another key; an entry is written to a temporary file and renamed over its
place (concurrent writers never leave half a file); an entry that cannot be read, or whose stored
key is not its own, is ignored.  ``<cache>`` is ``$TAPOLOGY_CACHE``, else ``$XDG_CACHE_HOME/tapology``,
else ``~/.cache/tapology``; ``TAPOLOGY_TABLE_CACHE=0`` turns the cache off.

A board's charts (its atlas, closed) are kept beside them, in ``<cache>/charts/<key>.pickle``
(:func:`charted`), keyed by the board's grid, chart domain and gluing and the source of
``tapology/model``: every game that opens a board reads them instead of closing it again.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import io
import operator
import os
import pickle
import sys
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from tapology.rules.compiled import App, Compiled

if TYPE_CHECKING:
    from tapology.model.atlas import Atlas
    from tapology.model.board import Board

FORMAT = 6  # bump when what is stored changes shape
HERE = Path(__file__).resolve().parent
# the state a Compiled builds lazily: restored as is
# (the attack index and the reach of each application are left out: slow to read back, and where the native engine
# runs, the royal test is its own; the Python path builds them again when asked)
# (nor the index of applications by content, which only saves a duplicate when a move is placed anew: every entry,
# link and clean-up is placed already)
STATE = ("apps", "_app_key", "maps", "const_of", "_map_index", "_entry_tables", "_links", "_cleanups",
         "_lines", "_mask_cache", "_values_cache")
APP_FIELDS = tuple(f.name for f in dataclasses.fields(App))  # every field: a field added to App is stored too


def cache_root() -> Path:
    """The user's cache folder for tapology: ``$TAPOLOGY_CACHE``, ``$XDG_CACHE_HOME/tapology`` or
    ``~/.cache/tapology``."""
    root = os.environ.get("TAPOLOGY_CACHE")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache")) / "tapology"


def enabled() -> bool:
    """False when ``TAPOLOGY_TABLE_CACHE=0``."""
    return os.environ.get("TAPOLOGY_TABLE_CACHE", "1") != "0"


@cache
def engine_version() -> str:
    """A hash of the sources the tables are built by (``tapology/rules`` with its native engine, the lines of a
    board) and of the Python version and this cache's format."""
    h = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
    files = sorted(HERE.glob("*.py")) + sorted((HERE / "native").glob("*.[ch]")) + sorted((HERE / "native").glob("*.py"))
    files.append(HERE.parent / "model" / "lines.py")
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


ATOMS = frozenset((int, str, float, bool, bytes, type(None)))


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass's instances, None for any other type (read once per type)."""
    got = _FIELD_NAMES.get(kind, ())
    if got == ():
        got = _FIELD_NAMES[kind] = (tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind)
                                    else None)
    return got


def canonical(obj: Any) -> Any:
    """A value with the same content and a repr that does not depend on the process (sets sorted, dataclasses as
    their fields)."""
    kind = type(obj)
    if kind in ATOMS:  # most of a rule set's leaves
        return obj
    names = _field_names(kind)
    if names is not None:
        return (kind.__name__, tuple((name, canonical(getattr(obj, name))) for name in names))
    if isinstance(obj, dict):
        return ("dict", tuple(sorted(((canonical(k), canonical(v)) for k, v in obj.items()), key=repr)))
    if isinstance(obj, (set, frozenset)):
        return ("set", tuple(sorted((canonical(x) for x in obj), key=repr)))
    if isinstance(obj, (list, tuple)):
        return tuple(canonical(x) for x in obj)
    if hasattr(obj, "tolist"):  # numpy arrays
        return canonical(obj.tolist())
    if callable(obj):  # a function a value carries (a group's action): what it computes follows from the value's data
        return ("fn", getattr(obj, "__qualname__", type(obj).__name__))
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return (type(obj).__name__, canonical(vars(obj)))
    return obj


def key(comp: Compiled) -> str:
    """The cache key of a compiled board's tables (see the module's docstring)."""
    h = hashlib.sha256(engine_version().encode())
    for part in (comp.rules, comp.board.glue, comp.board.extra, len(comp.board.tiles), comp.chart, comp.regions):
        h.update(repr(canonical(part)).encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def _path(k: str) -> Path:
    return cache_root() / "tables" / f"{k}.pickle"


class _Shared(pickle.Unpickler):
    """Reads a row whose values several applications hold as references into the shared list (:func:`_rows`)."""

    def __init__(self, row: memoryview, shared: list[tuple]) -> None:
        super().__init__(io.BytesIO(row))
        self.shared = shared

    def persistent_load(self, pid: Any) -> tuple:
        return self.shared[pid]


def _app(row: memoryview, shared: list[tuple]) -> App:
    """One :class:`App` from its stored row (its fields in order, pickled), without the frozen dataclass's checks."""
    app = object.__new__(App)
    app.__dict__.update(zip(APP_FIELDS, _Shared(row, shared).load() if shared else pickle.loads(row), strict=True))
    return app


class StoredApps(Sequence[App]):
    """The applications of restored tables, each unpickled when first read: a command that lists one position's
    turns reads a few dozen of chess ``torus:12x8``'s 18,240 (all of them cost some 0.1 s to unpickle, make and
    pass through the garbage collector).  The rows are one string of bytes and where each ends; once a walk has
    read a quarter of them, all are made and the compiled board's ``apps`` becomes a plain list again (what the
    Python chain walk indexes fastest)."""

    __slots__ = ("_comp", "_ends", "_made", "_reads", "_rows", "_shared")

    def __init__(self, rows: bytes, ends: array, shared: list[tuple], comp: Compiled) -> None:
        self._rows = memoryview(rows)
        self._shared = shared
        self._ends = ends
        self._made: list[App | None] = [None] * len(ends)
        self._comp = comp
        self._reads = 0

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, i: int) -> App: ...

    @overload
    def __getitem__(self, i: slice) -> list[App]: ...

    def __getitem__(self, i: int | slice) -> App | list[App]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._made)))]
        app = self._made[i]
        if app is None:
            app = self._made[i] = self._make(i if i >= 0 else i + len(self._made))
            self._reads += 1
            if self._reads * 4 >= len(self._made):
                self.every()
        return app

    def _make(self, i: int) -> App:
        return _app(self._rows[self._ends[i - 1] if i else 0:self._ends[i]], self._shared)

    def __iter__(self) -> Iterator[App]:
        return iter(self.every())

    def every(self) -> list[App]:
        """Every application, made now where not yet (a plain list)."""
        made = self._made
        for i, app in enumerate(made):
            if app is None:
                made[i] = self._make(i)
        self._comp.apps = made  # type: ignore[assignment]  # all made: the compiled board holds the plain list
        return made  # type: ignore[return-value]

    def append(self, app: App) -> None:
        """A newly placed application (a walk that places one more, :meth:`Compiled.place`)."""
        self._made.append(app)

    def __reduce__(self) -> tuple[type, tuple[list[App]]]:
        """Copied or pickled as the plain list of every application."""
        return list, (self.every(),)


SHARED_LEN = 64  # a tuple this long that several applications hold is stored once (see _rows)
# the fields where the applications of a move share values (links, conditions, lines); checks and writes are each
# application's own (visiting their tuples too made chess torus:12x8's cold build some 0.4 s slower)
SHARING = ("link_keys", "link_conds", "conds", "link_lines", "safe", "lines", "groups")


def _held(apps: Sequence[App]) -> set[int]:
    """The ids of the long tuples (:data:`SHARED_LEN`) that more than one application holds, at any depth of its
    :data:`SHARING` fields.  Cost: one visit of every tuple in those fields, a long one's elements once."""
    seen: set[int] = set()
    twice: set[int] = set()
    fields = operator.attrgetter(*SHARING)
    todo: list[Any] = [v for a in apps for v in fields(a) if type(v) is tuple]
    while todo:
        v = todo.pop()
        if len(v) >= SHARED_LEN:
            if id(v) in seen:
                twice.add(id(v))
                continue
            seen.add(id(v))
        todo.extend(x for x in v if type(x) is tuple)
    return twice


def _rows(apps: Sequence[App]) -> tuple[bytes, array, list[tuple]]:
    """Each application's fields pickled on their own, one after the other, where each ends, and the long values
    several applications hold, which a row names by index: pickled on its own, a list of link targets that every
    application of a move shares (arimaa's links to every tile) would be written once per application, some 10^4
    times (gigabytes)."""
    fields = operator.attrgetter(*APP_FIELDS)  # every field at once, as a tuple
    held = _held(apps)
    if not held:
        rows = [pickle.dumps(fields(a), protocol=pickle.HIGHEST_PROTOCOL) for a in apps]
        shared: list[tuple] = []
    else:
        index: dict[int, int] = {}
        shared = []

        def pid(obj: Any) -> int | None:
            if type(obj) is not tuple or id(obj) not in held:
                return None
            i = index.get(id(obj))
            if i is None:
                i = index[id(obj)] = len(shared)
                shared.append(obj)
            return i

        rows = []
        for a in apps:
            buf = io.BytesIO()
            pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.persistent_id = pid  # type: ignore[method-assign]
            pickler.dump(fields(a))
            rows.append(buf.getvalue())
    ends = array("q")
    end = 0
    for pickled in rows:
        end += len(pickled)
        ends.append(end)
    return b"".join(rows), ends, shared


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic collector off for a while: for code that makes some 10^4-10^5 objects at once, none of them garbage
    (a board's tables built, stored or read back), where the collector's passes over them would cost a fifth to a
    third more."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def restore(comp: Compiled) -> Any | None:
    """Fill a fresh compiled board's tables from the cache; returns the native tables stored with them (None when
    there is no usable entry: the tables are then built as usual).  Cost: one file read and unpickling."""
    if not enabled():
        return None
    k = key(comp)
    path = _path(k)
    try:
        with gc_paused():  # some 10^5 tuples are made at once: the collector's passes over them would cost a third more
            with open(path, "rb") as f:
                data = pickle.load(f)
            if not isinstance(data, dict) or data.get("key") != k or data.get("format") != FORMAT:
                return None
            state = data["state"]
            entries = state["_entry_tables"]
            if not all(len(tab) == comp.n for tab in entries.values()):
                return None
            rows, ends, shared = state["apps"]
            if not isinstance(rows, bytes) or not isinstance(ends, array) or not isinstance(shared, list) \
                    or not isinstance(state["_app_key"], bytes):
                return None
    except Exception:  # no entry, or a corrupt one: built anew (and written over)
        return None
    for name in STATE:
        setattr(comp, name, state[name])
    comp.apps = StoredApps(rows, ends, shared, comp)  # type: ignore[assignment]
    comp._app_key = {}
    comp.stored_keys = state["_app_key"]  # read back by Compiled.place when it first places a move
    comp.cache_key = k
    _used(path)
    return data.get("native")


def store(comp: Compiled, native: Any | None = None) -> bool:
    """Write a compiled board's tables (and the native tables made of them) to the cache, atomically; False when
    that is not possible (a read-only folder: the run goes on without)."""
    if not enabled():
        return False
    k = key(comp)
    path = _path(k)
    state = {name: getattr(comp, name) for name in STATE}
    with gc_paused():  # 10^4 rows made at once, and pickled: the collector's passes over them would cost more than both
        state["apps"] = _rows(comp.apps)  # read back one by one, when first read (StoredApps)
        comp.placed()  # the index of placed moves, whole (restored tables hold it pickled until first used)
        state["_app_key"] = pickle.dumps(comp._app_key, protocol=pickle.HIGHEST_PROTOCOL)
        data = {"key": k, "format": FORMAT, "state": state, "native": native}
        written = _write(path, data)
    if not written:
        return False
    comp.cache_key = k
    _trim(path.parent)
    return True


# ---- the charts of a board (its atlas closed): a few hundredths of a second on every board a game opens ----
MODEL = HERE.parent / "model"


@cache
def charts_version() -> str:
    """A hash of the sources the charts are closed by (``tapology/model``), the Python version and this cache's
    format."""
    h = hashlib.sha256(f"charts {FORMAT} {sys.version}".encode())
    for f in sorted(MODEL.glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def charts_key(board: Board) -> str:
    """The cache key of a board's charts: its grid, chart domain, tiles' count and gluing (boards with extra facts
    are not kept).  Cost: a hash of the gluing table."""
    h = hashlib.sha256(charts_version().encode())
    for part in (board.grid.name, board.grid.directions, board.domain.cells, len(board.tiles), board.glue):
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def _charts_path(k: str) -> Path:
    return cache_root() / "charts" / f"{k}.pickle"


def charted(board: Board) -> Atlas:
    """``Atlas.of(board)`` read from the cache where a process closed the same board already (a board without extra
    facts whose charts closed without a conflict or a change of its gluing), else closed and written there.  Cost:
    one small file read, or the closure and a write."""
    from tapology.model.atlas import Atlas

    if not enabled() or board.extra:
        return Atlas.of(board)
    k = charts_key(board)
    path = _charts_path(k)
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)
        if isinstance(data, dict) and data.get("key") == k and data["chart"].shape == (len(board.tiles),
                                                                                         len(board.domain)):
            _used(path)
            at = Atlas(board)
            at.chart = data["chart"]
            return at
    except Exception:  # no entry, or a corrupt one: closed anew (and written over)
        pass
    at = Atlas.of(board)
    if at.conflict is None and not at.changed() and _write(path, {"key": k, "chart": at.chart}):
        _trim(path.parent)
    return at


def _write(path: Path, data: dict[str, Any]) -> bool:
    """``data`` pickled to ``path`` atomically (a temporary file renamed over it); False when not possible."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


# the entries kept: the least recently used go first beyond this (the default test run alone opens some 600 MB of
# boards: under a smaller limit each run evicted the tables the next one needed, and built them again)
LIMIT_BYTES = 2 << 30


def _used(path: Path) -> None:
    """Mark an entry as just used (its modification time: what :func:`_trim` orders by)."""
    try:
        os.utime(path)
    except OSError:  # a read-only cache, or removed meanwhile
        pass


def _trim(folder: Path) -> None:
    """Remove the least recently used entries (written or read) while the folder holds more than
    :data:`LIMIT_BYTES` (entries of an older engine version are never read again, so they go first)."""
    try:
        entries = [(e.stat().st_mtime, e.stat().st_size, e) for e in folder.glob("*.pickle")]
    except OSError:
        return
    total = sum(size for _t, size, _e in entries)
    for _t, size, e in sorted(entries, key=lambda x: x[0]):
        if total <= LIMIT_BYTES:
            break
        try:
            e.unlink()
        except OSError:  # another process removed it first
            pass
        total -= size
