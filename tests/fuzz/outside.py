"""Hostile conditions from outside the input, each run as a separate ``python -m tapology`` process: limits raised by
the user, signals mid-run (SIGINT, SIGTERM), a full disk or ``/dev/full`` on standard output, symbolic link loops in
the way of an input or an output, services that do not answer, and closed standard streams.

A :class:`Scene` is the files and links to lay out in an empty folder, the command line, and the conditions it runs
under; :func:`run_scene` runs it in its own session and checks the contract: an expected exit code, no traceback and
no "Exception ignored" or resource-tracker warning, on exit 2 one line ``tapology: error: ...``, nothing on disk
changed on a refusal or a signal, no process of the session left behind, an answer within the deadline, and (with
``json``) standard output that parses as JSON.  :func:`quick_scenes` is the default test run's set (a few seconds of
processes); :func:`many_scenes` adds every command and timing for ``-m slow``.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEADLINE = 10.0  # seconds a scene may take (after its signal, when it has one)
SETTLE = 3.0  # seconds the processes of a finished scene's session have to go
BAD_WORDS = ("Traceback", "Exception ignored", "resource_tracker", "leaked semaphore")
TICTACTOE = (ROOT / "tapology/games/data/tictactoe.toml").read_text()
CHECKERS = (ROOT / "tapology/games/data/checkers.toml").read_text()


@dataclass
class Scene:
    """One command under hostile conditions.

    ``links``: name → target of symbolic links to make; ``stdin``: text to feed, ``None`` for an empty stream or
    ``"closed"``; ``stdout``: ``"pipe"``, ``"full"`` (``/dev/full``) or ``"closed"``; ``signal`` sent ``after``
    seconds; ``fsize``: a limit on the size of files written (writing past it fails as a full disk does); ``memory``: a
    limit on the address space (a raised limit runs out of memory soon, not after gigabytes);
    ``codes``: the exit codes that keep the contract; ``error``: words the error line must hold; ``json``: stdout
    must be JSON."""

    kind: str
    argv: list[str]
    files: dict[str, str] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    stdin: str | None = None
    stdout: str = "pipe"
    signal: int | None = None
    after: float = 0.0
    env: dict[str, str] = field(default_factory=dict)
    fsize: int | None = None
    memory: int | None = None
    codes: tuple[int, ...] = (0, 1, 2)
    error: str | None = None
    json: bool = False
    deadline: float = DEADLINE


@dataclass
class Result:
    """What a scene's process did, and what broke the contract."""

    code: int
    out: str
    err: str
    seconds: float
    left: list[str]
    problems: list[str] = field(default_factory=list)


def lay_out(scene: Scene, folder: Path) -> None:
    """Write the scene's files and make its links in ``folder``."""
    for name, text in scene.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, target in scene.links.items():
        os.symlink(target, folder / name)


def snapshot(folder: Path) -> dict[str, tuple[str, object]]:
    """Every entry under ``folder``: a link's target, a file's mode and bytes, a folder's mode."""
    out: dict[str, tuple[str, object]] = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        if p.is_symlink():
            out[key] = ("link", os.readlink(p))
        elif p.is_file():
            out[key] = ("file", (p.stat().st_mode, p.read_bytes()))
        elif p.is_dir():
            out[key] = ("dir", p.stat().st_mode)
    return out


def _session_of(pid: int) -> tuple[int, str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    rest = raw[raw.rindex(")") + 2:].split()
    return int(rest[3]), rest[0]  # session, state


def session_members(sid: int) -> list[int]:
    """The live (not zombie) processes of session ``sid``."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            got = _session_of(int(entry))
            if got is not None and got[0] == sid and got[1] != "Z":
                out.append(int(entry))
    return out


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:120]
    except OSError:
        return "?"


def run_scene(scene: Scene, folder: Path) -> Result:
    """Run the scene in ``folder`` (already laid out) as a process of its own session and check the contract."""
    before = snapshot(folder)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TAPOLOGY_AUTOSAVE": str(folder / "autosave.json"), **scene.env}
    if "TAPOLOGY_LIMITS" not in scene.env:
        env.pop("TAPOLOGY_LIMITS", None)
    stdin: int | None = subprocess.PIPE
    stdout: object = subprocess.PIPE
    full = None
    if scene.stdout == "full":
        full = open("/dev/full", "w")  # closed below
        stdout = full

    def prepare() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the size limit fails (EFBIG) instead of killing
        if scene.fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (scene.fsize, scene.fsize))
        if scene.memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (scene.memory, scene.memory))
        if scene.stdin == "closed":
            os.close(0)
        if scene.stdout == "closed":
            os.close(1)

    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "tapology", *scene.argv], cwd=folder, env=env, stdin=stdin,
                            stdout=stdout, stderr=subprocess.PIPE, start_new_session=True, preexec_fn=prepare)
    sid = proc.pid
    problems: list[str] = []
    try:
        if scene.signal is not None:
            time.sleep(scene.after)
            proc.send_signal(scene.signal)
            t0 = time.monotonic()
        data = "" if scene.stdin in (None, "closed") else scene.stdin
        try:
            out, err = proc.communicate(data.encode(), timeout=scene.deadline)
        except subprocess.TimeoutExpired:
            problems.append(f"hang: more than {scene.deadline} s")
            proc.kill()
            out, err = proc.communicate()
    finally:
        if full is not None:
            full.close()
    seconds = time.monotonic() - t0
    left: list[int] = []
    end = time.monotonic() + SETTLE
    while time.monotonic() < end:
        left = session_members(sid)
        if not left:
            break
        time.sleep(0.1)
    names = [f"{pid} {_command(pid)}" for pid in left]
    for pid in left:  # the scene's own processes: ended so that no test leaves them behind
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    res = Result(proc.returncode, (out or b"").decode(errors="replace"), err.decode(errors="replace"), seconds, names,
                 problems)
    check(scene, res, before, snapshot(folder))
    return res


def check(scene: Scene, res: Result, before: dict, after: dict) -> None:
    """Add to ``res.problems`` every way the scene broke the contract."""
    p = res.problems
    codes = (130,) if scene.signal is not None else scene.codes
    if res.code not in codes:
        p.append(f"exit code {res.code}, expected one of {codes}")
    for word in BAD_WORDS:
        if word in res.err:
            p.append(f"{word!r} on stderr: {res.err.strip().splitlines()[-1][:200] if res.err.strip() else ''}")
    lines = [ln for ln in res.err.splitlines() if ln.strip()]
    if res.code == 2:
        if len(lines) != 1 or not lines[0].startswith("tapology: error: "):
            p.append(f"error is not one line: {res.err[:300]!r}")
        elif scene.error is not None and scene.error not in lines[0]:
            p.append(f"error does not say {scene.error!r}: {lines[0][:200]}")
    if res.code in (2, 130) or scene.signal is not None:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        changed = [k for k in changed if not k.startswith("autosave")]
        if changed:
            p.append(f"files changed: {changed}")
    if res.left:
        p.append(f"processes left behind: {res.left}")
    if scene.json and res.code in (0, 1, 130):
        try:
            json.loads(res.out)
        except ValueError:
            p.append(f"stdout is not JSON: {res.out[:200]!r}")


# ---- the scenes -------------------------------------------------------------------------------------------------
BIG = "999999999"


def big_layout(side: int) -> str:
    """A board file of side × side tiles named ``tR_C``."""
    rows = "\n".join(" ".join(f"t{r}_{c}" for c in range(side)) for r in range(side))
    return "layout = \"\"\"\n" + rows + "\n\"\"\"\n"


def raised_limit_scenes() -> list[Scene]:
    """Limits raised by the user far past the defaults: what the machine runs out of (here a process held to 1.5 GB
    of address space) is one line naming the raised limits, exit 2."""
    deep_toml = "a = " + "[" * 200_000 + "]" * 200_000 + "\nlayout = '1 2'\n"
    gb = 1_500_000_000
    return [
        Scene("limits", ["--limit", f"nesting={BIG}", "check", "deep.toml"], {"deep.toml": deep_toml}, codes=(2,),
              error="nesting"),
        Scene("limits", ["--limit", f"predicate_depth={BIG}", "verify", "tictactoe", "--reach",
                         "(" * 5000 + "line(X)" + ")" * 5000], codes=(2,), error="predicate_depth"),
        Scene("limits", ["--limit", f"tiles={BIG}", "--limit", f"chart_entries={BIG}", "check", "torus:3000x3000"],
              memory=gb, codes=(2,), error="tiles=", deadline=60.0),
        Scene("limits", ["--limit", f"tiles={BIG}", "--limit", f"chart_entries={BIG}", "--limit", f"turn_tiles={BIG}",
                         "moves", "tictactoe:500,500,5"], codes=(2,), error="turn_tiles"),
        Scene("limits", ["--limit", f"file_bytes={BIG}", "--limit", f"tiles={BIG}", "--limit", f"chart_entries={BIG}",
                         "check", "big.toml"], {"big.toml": big_layout(700)}, memory=gb, codes=(0, 2), deadline=60.0),
    ]


def signal_scenes() -> list[Scene]:
    """SIGINT and SIGTERM in the middle of long commands: workers ended, partial answers printed, exit 130."""
    out = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        out.append(Scene("signal", ["match", "tictactoe:4,4,4", "--a", "random", "--b", "random", "--games",
                                    "100000", "--workers", "2"], signal=sig, after=4.0))
        out.append(Scene("signal", ["perft", "chess", "--depth", "6", "--json", "--workers", "2"], signal=sig,
                         after=4.0, json=True))
    out.append(Scene("signal", ["perft", "chess", "--depth", "5", "--json", "--workers", "1"], signal=signal.SIGINT,
                     after=4.0, json=True, env={"TAPOLOGY_NATIVE": "0"}))
    return out


def full_disk_scenes() -> list[Scene]:
    """Output that cannot be written: ``/dev/full`` on standard output, a file that may not grow."""
    return [
        Scene("full", ["rules", "tictactoe", "--json"], stdout="full", error="no space left on device"),
        Scene("full", ["classify", "torus:3x3"], stdout="full", error="no space left on device"),
        Scene("full", ["tape", "plane:3x4", "4.right=1.left", "-o", "out.toml"], fsize=10, error="write error"),
    ]


def symlink_scenes() -> list[Scene]:
    """Symbolic links that loop or refer to themselves, as inputs and outputs; an output named as a folder."""
    loops = {"loop1": "loop2", "loop2": "loop1", "self": "self"}
    tape = ["tape", "plane:3x4", "4.right=1.left", "-o"]
    return [
        Scene("symlink", [*tape, "loop1"], links=loops, codes=(2,), error="loops"),
        Scene("symlink", [*tape, "self"], links=loops, codes=(2,), error="loops"),
        Scene("symlink", [*tape, "out/"], codes=(2,), error="folder"),
        Scene("symlink", ["check", "self"], links=loops, codes=(2,), error="self"),
        Scene("symlink", ["play", "tictactoe", "--x", "ai", "--o", "ai", "--save", "loop1"], links=loops, codes=(2,),
              error="loops"),
        Scene("symlink", ["play", "tictactoe", "--x", "ai", "--o", "ai"], links=loops, codes=(2,), error="loops",
              env={"TAPOLOGY_AUTOSAVE": "self"}),
    ]


def service_scenes() -> list[Scene]:
    """A Ray address where nothing listens: refused in seconds."""
    return [Scene("service", ["perft", "tictactoe", "--depth", "3", "--ray-address", "127.0.0.1:1"], codes=(2,),
                  error="ray")]


def stream_scenes() -> list[Scene]:
    """Standard input or output closed."""
    return [
        Scene("stream", ["referee", "tictactoe", "-"], stdin="closed", codes=(2,), error="standard input"),
        Scene("stream", ["referee", "chess", "--pgn", "-"], stdin="closed", codes=(2,), error="standard input"),
        Scene("stream", ["play", "tictactoe"], stdin="closed", codes=(2,), error="standard input"),
        Scene("stream", ["referee", "tictactoe", "-"], stdin="\"5\"\n" * 3, codes=(1,)),
        Scene("stream", ["classify", "torus:3x3"], stdout="closed", codes=(2,), error="standard output"),
    ]


def quick_scenes() -> list[Scene]:
    """One scene of each class, for the default test run (about 10 s of processes)."""
    return [
        raised_limit_scenes()[0],
        Scene("signal", ["perft", "chess", "--depth", "6", "--json"], signal=signal.SIGTERM, after=3.0, json=True),
        full_disk_scenes()[0],
        symlink_scenes()[1],
        service_scenes()[0],
        stream_scenes()[4],
    ]


def many_scenes() -> list[Scene]:
    """Every scene of every class (``-m slow``)."""
    return [*raised_limit_scenes(), *signal_scenes(), *full_disk_scenes(), *symlink_scenes(), *service_scenes(),
            *stream_scenes()]
