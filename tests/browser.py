"""Running ``tapology serve``'s app and Debian's chromium for tests and benchmarks: a server on a free port in a
thread, and a browser driven by playwright (its Python API, ``executable_path``: no browser download)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
SHOTS_ENV = "TAPOLOGY_SCREENSHOTS"  # a folder: the browser tests save their screenshots there (docs/browser)


def chromium_path() -> str | None:
    """Debian's chromium (``$CHROMIUM`` first), or None."""
    env = os.environ.get("CHROMIUM")
    if env and Path(env).is_file():
        return env
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def missing() -> str | None:
    """Why the browser cannot run here (None: it can)."""
    try:
        import playwright.sync_api  # noqa: F401  # the browser driver: an extra of the dev install
        import uvicorn  # noqa: F401  # the web extra
    except ImportError as exc:
        return f"{exc.name} is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return "chromium is not installed (apt-get install -y chromium)"
    return None


@contextmanager
def serving(data: Path) -> Iterator[str]:
    """The app on a free port of 127.0.0.1 in a thread, keeping its games in ``data``; yields its URL."""
    import uvicorn

    from tapology.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(create_app(data), host="127.0.0.1", port=port, log_level="warning", ws="auto")
    server = uvicorn.Server(config)
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not th.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        th.join(10)


@contextmanager
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, through playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()
