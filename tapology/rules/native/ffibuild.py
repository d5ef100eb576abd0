"""The cffi build step ``pip install`` runs (``setup.py``: ``cffi_modules``): the native engine compiled into the package.

Run by path in the build environment, where the package and its dependencies are not importable: it loads
:mod:`tapology.rules.native.build` (standard library only) from its file.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_tapology_native_build", Path(__file__).resolve().parent / "build.py")
assert _spec is not None and _spec.loader is not None
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)

ffi = _build.make_ffi("tapology.rules.native." + _build.module_name())
