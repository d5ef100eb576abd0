"""CLI command for the browser workshop: ``serve`` (the app is :mod:`tapology.web.app`)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from tapology.errors import OptionError


def default_data_dir() -> str:
    """Where games and uploads are kept: ``$XDG_STATE_HOME/tapology/web`` (``~/.local/state/tapology/web``)."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "tapology", "web")


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option("--host", help="The address to listen on (127.0.0.1: this machine only).")
                        ] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", help="The port (0: any free one).")] = 8018,
        open_page: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")] = False,
        data_dir: Annotated[str | None, typer.Option("--data-dir", help="Where games and uploaded files are kept "
                                                                         "(default ~/.local/state/tapology/web).")
                            ] = None,
    ) -> None:
        """Serve the browser workshop: tape boards by clicking, see the universal cover, play and walk."""
        try:
            import uvicorn  # the optional extra tapology[web]

            from tapology.web.app import create_app  # starlette: the optional extra tapology[web]
        except ImportError as exc:
            raise OptionError(f"serve needs the web extra: pip install 'tapology[web]' ({exc.name} is missing)") from None
        if not 0 <= port <= 65535:
            raise OptionError(f"--port {port}: must be 0..65535")
        folder = data_dir or default_data_dir()
        try:
            app_ = create_app(folder)
        except OSError as exc:
            raise OptionError(f"--data-dir {folder}: {exc.strerror}") from None
        config = uvicorn.Config(app_, host=host, port=port, log_level="warning", ws="auto")
        server = uvicorn.Server(config)
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        typer.echo(f"tapology serve: {url} (games kept in {folder}; Ctrl-C stops)")
        if open_page:
            import webbrowser  # only with --open

            webbrowser.open(url)
        server.run()
