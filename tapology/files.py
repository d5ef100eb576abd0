"""Reading text files with errors that name them, and writing files atomically (a temporary file renamed over the target).

Only regular files are read or replaced: a folder, FIFO, socket or device is refused at once (reading a FIFO would
wait forever).  A UTF-8 byte-order mark at the start of a file is skipped.  A written file keeps the permission bits
of the file it replaces (a new file gets the usual ``0666 & ~umask``), and writing to a symbolic link writes the
file the link points to, leaving the link in place.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
import tomllib
from pathlib import Path
from typing import IO, Any

from tapology.errors import LimitError, TapologyError
from tapology.limits import LIMITS, check_data_depth, check_nesting, limit

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


WRITE_ERRORS = {errno.ENOSPC: "no space left on device", errno.EPIPE: "broken pipe (the reader of the output went "
                "away)", errno.EDQUOT: "disk quota exceeded", errno.EFBIG: "file too large", errno.EIO: "input/output error"}


def write_error(exc: OSError) -> str:
    """What a failed write says: ``write error: no space left on device`` (a full disk, ``/dev/full``), a closed
    pipe, a quota or size limit; else ``cannot write:`` and the system's words."""
    if exc.errno in WRITE_ERRORS:
        return f"write error: {WRITE_ERRORS[exc.errno]}"
    return f"cannot write: {exc.strerror or exc}"


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: str | os.PathLike[str], what: str, error: type[TapologyError] = TapologyError) -> bytes:
    """The bytes of the regular file ``path``; ``error`` naming it when missing, not a regular file, unreadable
    or bigger than the ``file_bytes`` limit."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens at once, then is refused
    except FileNotFoundError:
        raise error(f"{name}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{name}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{name}: cannot read: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{name}: is {_kind(st.st_mode)}, not a {what} (only regular files are read)")
        bound = limit("file_bytes")
        if st.st_size > bound:
            raise error(f"{name}: {st.st_size} bytes is more than the limit file_bytes={bound} "
                        f"({LIMITS['file_bytes'].what}; raise it with --limit file_bytes=N)")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(bound + 1)
    except OSError as exc:
        raise error(f"{name}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > bound:
        raise error(f"{name}: more than the limit file_bytes={bound} bytes")
    return data


def read_text(path: str | os.PathLike[str], what: str, error: type[TapologyError] = TapologyError) -> str:
    """The UTF-8 text of ``path`` (a leading byte-order mark skipped); ``error`` naming it otherwise."""
    data = read_bytes(path, what, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{os.fspath(path)}: cannot read: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_stream(stream: IO[str] | None, what: str, error: type[TapologyError] = TapologyError) -> str:
    """The UTF-8 text of a stream (standard input for a file named ``-``), at most ``file_bytes`` of it; ``error``
    saying so when the stream is closed, unreadable, too big or not UTF-8."""
    if stream is None or getattr(stream, "closed", False):
        raise error(f"-: standard input is closed: no {what} to read")
    bound = limit("file_bytes")
    try:
        raw = getattr(stream, "buffer", None)
        data: str | bytes = raw.read(bound + 1) if raw is not None else stream.read(bound + 1)
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data.removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise error(f"-: cannot read standard input: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except (OSError, ValueError) as exc:
        raise error(f"-: cannot read standard input: {getattr(exc, 'strerror', None) or exc}") from None
    if len(data) > bound:
        raise error(f"-: standard input holds more than the limit file_bytes={bound} bytes "
                    f"({LIMITS['file_bytes'].what}; raise it with --limit file_bytes=N)")
    return text


def check_target(path: str | os.PathLike[str], error: type[TapologyError] = TapologyError) -> Path:
    """The file to write for ``path`` (a symbolic link's target), or ``error`` naming it when it is a folder (or is
    written as one, ending in ``/``), another non-regular file, a symbolic link that loops or refers to itself, or
    its folder is missing."""
    name = os.fspath(path)
    if name.endswith(("/", os.sep)) or os.path.basename(name) in (".", ".."):
        raise error(f"{path}: names a folder, not a file")
    if os.path.islink(name):
        try:
            target = Path(os.path.realpath(name, strict=True))
        except FileNotFoundError:  # a link to a file not made yet: written through, the link kept
            target = Path(os.path.realpath(name))
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise error(f"{path}: is a symbolic link that loops (refers to itself); not written") from None
            raise error(f"{path}: cannot write: {exc.strerror}") from None
        if os.path.islink(target):  # realpath stopped on a link it could not resolve
            raise error(f"{path}: is a symbolic link that loops (refers to itself); not written")
    else:
        target = Path(name)
    if target.is_dir():
        raise error(f"{path}: is a folder, not a file")
    if target.exists() and not target.is_file():
        raise error(f"{path}: is {_kind(target.stat().st_mode)}, not a regular file (only regular files are written)")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise error(f"{path}: folder {str(parent)!r} does not exist")
    return target


def _umask() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # no /proc: read the mask by setting it, then put it back
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], data: str | bytes, error: type[TapologyError] = TapologyError) -> None:
    """Write ``data`` to ``path`` so that the file is either untouched or completely written; the file keeps the
    mode of the file it replaces (new: ``0666 & ~umask``), and a symbolic link is written through."""
    target = check_target(path, error)
    try:
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tapology-", suffix=target.suffix or ".tmp")
    except OSError as exc:
        raise error(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise error(f"{path}: {write_error(exc)}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


NUMBERED = re.compile(r"^board-\d{3,}\.toml$")


def remove_stale(folder: str | os.PathLike[str], written: set[str], error: type[TapologyError] = TapologyError) -> list[str]:
    """Remove the ``board-NNN.toml`` files in ``folder`` that an earlier run wrote and this one did not (``written``:
    the names just written); other files are left alone.  Returns the names removed."""
    removed = []
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if NUMBERED.match(entry) and entry not in written and os.path.isfile(path) and not os.path.islink(path):
            try:
                os.unlink(path)
            except OSError as exc:
                raise error(f"{path}: cannot remove a board file of an earlier run: {exc.strerror}") from None
            removed.append(entry)
    return removed


def parse_toml(text: str, where: str, error: type[TapologyError]) -> dict[str, Any]:
    """TOML text as a table, within the nesting limits (checked before and after parsing); ``error`` naming ``where``
    for bad TOML (an integer too long to convert included) and the limit's own message for a limit."""
    try:
        check_nesting(text, where)
        data = tomllib.loads(text)
        check_data_depth(data, where)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from None
    except LimitError as exc:
        raise error(str(exc)) from None
    except ValueError as exc:  # an integer too long to convert
        raise error(f"{where}: not valid TOML: {exc}") from None
    return data


def parse_json(text: str, where: str, error: type[TapologyError], *, line: bool = True) -> Any:
    """JSON text as a value, within the nesting limit; ``error`` naming ``where`` (and the line, with ``line``) for bad
    JSON, the limit's own message for a limit."""
    try:
        check_nesting(text, where, json_like=True)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}:{exc.lineno}: not JSON: {exc.msg}" if line else f"{where}: not JSON: {exc.msg}") from None
    except LimitError as exc:
        raise error(str(exc)) from None
    except ValueError as exc:  # an integer too long to convert
        raise error(f"{where}: not JSON: {exc}") from None
