"""Compiling the native engine with cffi (API mode) into a cache directory, once per source and interpreter.

The module is named after a hash of ``engine.h``, ``engine.c``, the compiler flags, the Python
version and the cffi version, and lives in ``<cache>/native`` (``$TAPOLOGY_CACHE``, else
``$XDG_CACHE_HOME/tapology``, else ``~/.cache/tapology``).  It is built in a temporary directory beside its final place and
moved there with one atomic rename, so processes building at the same time never see a half-written
file.  ``TAPOLOGY_NATIVE_CFLAGS`` adds compiler flags (``-fsanitize=address,undefined`` for a
checking build; they are part of the hash).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
FLAGS = ["-O2", "-std=c99"]


def cache_dir() -> Path:
    """Where compiled modules are kept."""
    from tapology.rules.cache import cache_root  # the one definition of the user's cache folder

    return cache_root() / "native"


def _extra_flags() -> list[str]:
    return shlex.split(os.environ.get("TAPOLOGY_NATIVE_CFLAGS", ""))


def module_name(cffi_version: str) -> str:
    """The module's name: a hash of everything that changes the compiled file."""
    h = hashlib.sha256()
    for part in ((HERE / "engine.h").read_bytes(), (HERE / "engine.c").read_bytes(), " ".join(FLAGS + _extra_flags()).encode(),
                 sys.version.encode(), cffi_version.encode()):
        h.update(part)
        h.update(b"\0")
    return f"_tapology_native_{h.hexdigest()[:20]}"


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
    import cffi

    name = module_name(cffi.__version__)
    out = cache_dir()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    final = out / f"{name}{suffix}"
    if final.exists():
        return _import(name, final)
    out.mkdir(parents=True, exist_ok=True)
    ffi = cffi.FFI()
    ffi.cdef((HERE / "engine.h").read_text())
    extra = _extra_flags()
    ffi.set_source(name, (HERE / "engine.c").read_text(), include_dirs=[str(HERE)], extra_compile_args=FLAGS + extra,
                   extra_link_args=extra)
    with tempfile.TemporaryDirectory(dir=out, prefix=".build-") as tmp, _quiet(Path(tmp) / "log"):
        built = ffi.compile(tmpdir=tmp, verbose=False)
        os.replace(built, final)
    return _import(name, final)


@contextlib.contextmanager
def _quiet(log: Path) -> Iterator[None]:
    """File descriptors 1 and 2 (the compiler's output, too) sent to ``log`` for the block."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        with open(log, "wb") as f:
            os.dup2(f.fileno(), 1)
            os.dup2(f.fileno(), 2)
            yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
