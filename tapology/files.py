"""Reading text files with errors that name them, and writing files atomically (a temporary file renamed over the target)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tapology.errors import TapologyError


def read_text(path: str | os.PathLike[str], what: str, error: type[TapologyError] = TapologyError) -> str:
    """The UTF-8 text of ``path``; ``error`` naming it ("no such ``what``", or why it cannot be read) otherwise."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{os.fspath(path)}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{os.fspath(path)}: cannot read: {exc}") from None


def check_target(path: str | os.PathLike[str], error: type[TapologyError] = TapologyError) -> Path:
    """The target path, or ``error`` naming it when it is a folder or its folder is missing."""
    target = Path(path)
    if target.is_dir():
        raise error(f"{path}: is a folder, not a file")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise error(f"{path}: folder {str(parent)!r} does not exist")
    return target


def write_atomic(path: str | os.PathLike[str], data: str | bytes, error: type[TapologyError] = TapologyError) -> None:
    """Write ``data`` to ``path`` so that the file is either untouched or completely written."""
    target = check_target(path, error)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tapology-", suffix=target.suffix or ".tmp")
    except OSError as exc:
        raise error(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise error(f"{path}: cannot write: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
