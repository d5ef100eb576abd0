"""Compiling the native engine with cffi (API mode): at install time into the package, else on first use into a cache.

The module is named after a hash of ``engine.h``, ``engine.c`` and the compiler flags (the file name's
extension suffix carries the Python ABI).  ``pip install`` builds it beside this file (``setup.py``
runs :data:`ffi`, the cffi build step); where that did not happen (a source checkout, a changed
``engine.c``, extra flags) :func:`load` compiles it on first use into ``<cache>/native``
(``$TAPOLOGY_CACHE``, else ``$XDG_CACHE_HOME/tapology``, else ``~/.cache/tapology``), in a temporary
directory beside its final place and moved
there with one atomic rename, so processes building at the same time never see a half-written file; a
process that finds another compiling the same module (a lock file beside it) waits for that compile and loads
its result instead of compiling it again (pool workers, or test processes, starting at once).
The compiler's output is kept in ``last-build.log`` there, and a failed build's error ends with its
last lines.  ``TAPOLOGY_NATIVE_CFLAGS`` adds compiler flags (``-fsanitize=address,undefined`` for a
checking build; they are part of the hash).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

try:
    import fcntl
except ImportError:  # not on Windows: builds there are not locked (each compiles; the atomic rename keeps the file whole)
    fcntl = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
FLAGS = ["-O2", "-std=c99"]


def cache_dir() -> Path:
    """Where compiled modules are kept."""
    from tapology.rules.cache import cache_root  # the one definition of the user's cache folder

    return cache_root() / "native"


def _extra_flags() -> list[str]:
    return shlex.split(os.environ.get("TAPOLOGY_NATIVE_CFLAGS", ""))


def module_name(cffi_version: str = "") -> str:
    """The module's name: a hash of the sources and flags (and of ``cffi_version`` when given; the ABI is in the file
    name's suffix)."""
    h = hashlib.sha256()
    for part in ((HERE / "engine.h").read_bytes(), (HERE / "engine.c").read_bytes(), " ".join(FLAGS + _extra_flags()).encode(),
                 cffi_version.encode()):
        h.update(part)
        h.update(b"\0")
    return f"_tapology_native_{h.hexdigest()[:20]}"


def make_ffi(name: str, source: str | None = None, flags: list[str] | None = None):  # -> cffi.FFI
    """The cffi builder of the engine under ``name`` (``source``: C of the same interface in place of ``engine.c``,
    as :mod:`tapology.rules.native.specialise` generates, compiled with ``flags`` in place of :data:`FLAGS`)."""
    import cffi

    ffi = cffi.FFI()
    ffi.cdef((HERE / "engine.h").read_text())
    extra = _extra_flags()
    ffi.set_source(name, (HERE / "engine.c").read_text() if source is None else source, include_dirs=[str(HERE)],
                   extra_compile_args=(FLAGS if flags is None else flags) + extra, extra_link_args=extra)
    return ffi


LOG_TAIL = 12  # lines of the compiler's output a failed build's error ends with


def _import(name: str, path: Path) -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def load() -> ModuleType:
    """The compiled module (``.ffi``, ``.lib``), built on first use; raises when cffi or a C compiler is missing.
    Cost: one C compile (about a second) the first time, an import after."""
    name = module_name()
    for ext in importlib.machinery.EXTENSION_SUFFIXES:  # built by pip install (setup.py; cffi uses the stable ABI)
        installed = HERE / f"{name}{ext}"
        if installed.exists():
            return _import(name, installed)
    return load_built(name)


def built_path(name: str) -> Path:
    """Where the cache keeps the module ``name``."""
    return cache_dir() / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def load_built(name: str, source: str | None = None, flags: list[str] | None = None) -> ModuleType:
    """The module ``name`` from the cache, compiled there first when missing (from ``engine.c``, or ``source`` with
    ``flags``)."""
    final = built_path(name)
    if final.exists():
        return _import(name, final)
    out = final.parent
    out.mkdir(parents=True, exist_ok=True)
    with _locked(out / f".{name}.lock"):
        if final.exists():  # another process compiled it while this one waited
            return _import(name, final)
        _compile(name, final, source, flags)
    return _import(name, final)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on the file ``path`` for the block (waiting while another process holds it); none where the
    system has no ``flock`` or the file cannot be opened (the compile then fails or succeeds as it would alone)."""
    try:
        f = open(path, "a") if fcntl is not None else None
    except OSError:
        f = None
    if f is None:
        yield
        return
    with f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _compile(name: str, final: Path, source: str | None, flags: list[str] | None) -> None:
    """Compile the module ``name`` to ``final`` (see :func:`load_built`)."""
    out = final.parent
    ffi = make_ffi(name, source, flags)
    with tempfile.TemporaryDirectory(dir=out, prefix=".build-") as tmp:
        log = Path(tmp) / "log"
        try:
            with _quiet(log):
                built = ffi.compile(tmpdir=tmp, verbose=True)
        except Exception as exc:
            kept = out / "last-build.log"
            text = log.read_text(errors="replace") if log.exists() else ""
            with contextlib.suppress(OSError):
                os.replace(log, kept)
            tail = " | ".join(line.strip() for line in text.strip().splitlines()[-LOG_TAIL:] if line.strip())
            raise BuildError(f"{type(exc).__name__}: {exc} (compiler log {kept}; it ends: {tail or 'empty'})") from None
        os.replace(built, final)
        with contextlib.suppress(OSError):
            os.replace(log, out / "last-build.log")


def _noted_path(key: str) -> Path:
    """Where the name of the module generated for the tables of cache key ``key`` is noted (the compiler flags from
    the environment are part of the note's name, as they are of the module's)."""
    h = hashlib.sha256(f"{key}\0{' '.join(_extra_flags())}".encode()).hexdigest()[:40]
    return cache_dir() / f"{h}.name"


def noted(key: str) -> str | None:
    """The name of the module generated for the tables of cache key ``key`` (:attr:`Compiled.cache_key`) where a
    process noted it (:func:`note`) and the module is compiled, else None.  The key hashes every source the
    generated module's name hashes (``tapology/rules`` with the generator and the engine, the rule set, the board),
    so the name read back is the one :func:`tapology.rules.native.specialise.module_name` would give, without the
    generator's import or a hash of the tables.  Cost: one small file read."""
    try:
        name = _noted_path(key).read_text().strip()
    except OSError:
        return None
    ok = name.startswith("_tapology_spec_") and name[15:].isalnum() and built_path(name).exists()
    return name if ok else None


def note(key: str, name: str) -> None:
    """Note ``name`` as the module generated for the tables of cache key ``key``, atomically (nothing where the cache
    cannot be written: the next process hashes the tables again)."""
    path = _noted_path(key)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".name")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(name)
            os.replace(tmp, path)
        except OSError:
            os.unlink(tmp)
            raise


PENDING_STALE = 30 * 60  # seconds after which a compile in the background that left its source behind is started again


def pending_path(name: str) -> Path:
    """The source of the module ``name`` while a process compiles it in the background (removed when it ends)."""
    return cache_dir() / f".{name}.c"


def compile_later(name: str, source: str, flags: list[str]) -> bool:
    """Compile the module ``name`` from ``source`` in a process of its own (detached, at a low priority), for a later
    run to load; False when it is compiled already or a compile of it is under way.  Cost: writing the source and
    starting the process (the compile itself takes what :func:`load_built` would)."""
    final, pending = built_path(name), pending_path(name)
    if final.exists():
        return False
    try:
        if time.time() - pending.stat().st_mtime < PENDING_STALE:
            return False
    except OSError:  # none pending
        pass
    try:
        pending.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=pending.parent, prefix=".tmp-", suffix=".c")
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, pending)
        subprocess.Popen([sys.executable, "-m", "tapology.rules.native.build", name, str(pending), *flags],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    except OSError:  # a read-only cache, no process to start: the count runs on the interpreter all the same
        return False
    return True


def _compile_pending(name: str, pending: Path, flags: list[str]) -> None:
    """The background process of :func:`compile_later`: compile ``pending`` into the cache as ``name``, then remove
    it (a failed compile leaves its log in ``last-build.log``)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    try:
        load_built(name, pending.read_text(), flags)
    finally:
        with contextlib.suppress(OSError):
            pending.unlink()


class BuildError(RuntimeError):
    """The C compile failed; the message ends with the compiler log's last lines."""


@contextlib.contextmanager
def _quiet(log: Path) -> Iterator[None]:
    """File descriptors 1 and 2 (the compiler's output, too) and Python's ``sys.stdout``/``sys.stderr`` sent to
    ``log`` for the block."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        with open(log, "wb") as f:
            os.dup2(f.fileno(), 1)
            os.dup2(f.fileno(), 2)
            # Python's own streams too: cffi prints "generating ..." through sys.stdout, which a caller may have
            # replaced (a CLI runner capturing a command's JSON) so that it no longer writes to descriptor 1
            with open(f.fileno(), "w", closefd=False) as text, contextlib.redirect_stdout(text), \
                    contextlib.redirect_stderr(text):
                yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)


if __name__ == "__main__":  # python -m tapology.rules.native.build NAME SOURCE FLAG...: compile_later's process
    _compile_pending(sys.argv[1], Path(sys.argv[2]), sys.argv[3:])
