"""The ASGI app of ``tapology serve``: the page (static files shipped in the package) and a JSON API over the
library, with a websocket per game that tells its pages when the position changed.

Every request is checked at this edge: bodies beyond the ``file_bytes`` limit or nested deeper than ``nesting``
are refused, names are only those :class:`tapology.web.rooms.Names` allows (shipped games, built-in boards,
uploads), numbers are checked against the board, and moves and tapings carry the version they were made on.
A refusal is JSON ``{"error": "…"}`` with status 400 (409 for a stale request, 404 for an unknown game); the page
shows the message.  An unexpected failure of one request is answered with 500 and the server goes on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tapology.errors import GameError, LimitError, OptionError, TapologyError
from tapology.games.registry import SHIPPED
from tapology.limits import check, check_nesting, limit
from tapology.model.walker import Walker, parse_move
from tapology.render.fov import field_of_view, opaque_states
from tapology.web.rooms import Room, Rooms
from tapology.web.shapes import cover_json
from tapology.web.workshop import StaleError, Workshop, cover_view, shapes_of

STATIC = Path(__file__).resolve().parent / "static"
WORKSHOPS = 256  # workshops kept in memory (the least recently used is dropped)
BOARDS = ("plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3", "projective:3x3", "plane:8x8",
          "torus:12x8", "klein:12x8", "hex-torus:6x6", "torus:100x100")
log = logging.getLogger("tapology.web")

Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, msg: str) -> JSONResponse:
    return JSONResponse({"error": msg}, status_code=status)


def guarded(fn: Handler) -> Handler:
    """Answer a refusal as JSON with its message, and any other failure with 500 (the server goes on)."""

    async def run(request: Request) -> Response:
        try:
            return await fn(request)
        except StaleError as exc:
            return _error(409, str(exc))
        except GameError as exc:
            return _error(404 if str(exc).startswith("no game") else 400, str(exc))
        except TapologyError as exc:
            return _error(400, str(exc))
        except Exception as exc:  # one request's bug must not stop the server
            log.exception("request %s failed", request.url.path)
            return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    return run


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object, within the limits of docs/limits.md; :class:`OptionError` naming the problem."""
    cap = limit("file_bytes")
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > cap:
        raise LimitError(f"request of {int(size):,} bytes: more than the limit file_bytes={cap:,}")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > cap:
            raise LimitError(f"request of more than {cap:,} bytes: more than the limit file_bytes={cap:,}")
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8")
        check_nesting(text, "request", json_like=True)
        data = json.loads(text)
    except UnicodeDecodeError:
        raise OptionError("request: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise OptionError(f"request: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise OptionError("request: expected a JSON object")
    return data


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    v = data.get(key, default)
    if isinstance(v, str) and v.lstrip("-").isdigit() and len(v) < 10:
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or abs(v) > 10**9:
        raise OptionError(f"{key} {str(v)[:20]!r}: expected a whole number")
    return v


def _str(data: dict[str, Any], key: str, default: str | None = None) -> str:
    v = data.get(key, default)
    if not isinstance(v, str):
        raise OptionError(f"{key}: expected text")
    return v


class Server:
    """The app's state: workshops (in memory), games (in memory and on disk), the pages watching each game."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.rooms = Rooms(data)
        self.workshops: OrderedDict[str, Workshop] = OrderedDict()
        self.watchers: dict[str, set[WebSocket]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # ---- workshops --------------------------------------------------------------------------
    def workshop(self, wid: str) -> Workshop:
        ws = self.workshops.get(wid)
        if ws is None:
            raise StaleError(f"workshop {wid[:20]!r} is gone (the server restarted or dropped it): open the board again")
        self.workshops.move_to_end(wid)
        return ws

    async def ws_open(self, request: Request) -> Response:
        data = await body(request)
        text = data.get("text")
        if text is not None and not isinstance(text, str):
            raise OptionError("text: expected the board file's text")
        name = data.get("board") if text is None else (data.get("name") or "uploaded board")
        w = await asyncio.to_thread(Workshop.open, str(name or ""), text)
        state = await asyncio.to_thread(w.state)
        wid = secrets.token_urlsafe(9)
        self.workshops[wid] = w
        while len(self.workshops) > WORKSHOPS:
            self.workshops.popitem(last=False)
        return JSONResponse({"id": wid, "shapes": shapes_of(w.board), **state})

    async def ws_act(self, request: Request) -> Response:
        w = self.workshop(request.path_params["wid"])
        data = await body(request)
        act = request.path_params["act"]
        version = _int(data, "version")
        if act not in ("tape", "undo", "redo"):
            raise OptionError(f"unknown workshop action {act[:20]!r}")
        if not w.lock.acquire(blocking=False):
            raise StaleError("the board is still busy with the last change: wait for it")
        try:
            if act == "tape":
                out = await asyncio.to_thread(w.tape, _int(data, "tile"), _int(data, "side"), _int(data, "other"),
                                              _int(data, "other_side"), bool(data.get("flip")), version)
            else:
                out = await asyncio.to_thread(w.undo if act == "undo" else w.redo, version)
        finally:
            w.lock.release()
        return JSONResponse(out)

    async def ws_get(self, request: Request) -> Response:
        w = self.workshop(request.path_params["wid"])
        return JSONResponse(await asyncio.to_thread(w.state))

    async def ws_chart(self, request: Request) -> Response:
        w = self.workshop(request.path_params["wid"])
        return JSONResponse(await asyncio.to_thread(w.chart, _int(dict(request.query_params), "tile", 0)))

    async def ws_cover(self, request: Request) -> Response:
        w = self.workshop(request.path_params["wid"])
        q = dict(request.query_params)
        return JSONResponse(await asyncio.to_thread(cover_view, w.atlas, _int(q, "tile", 0), _int(q, "frame", 0),
                                                    _int(q, "radius", 4)))

    async def ws_toml(self, request: Request) -> Response:
        w = self.workshop(request.path_params["wid"])
        return PlainTextResponse(w.toml(), headers={"Content-Disposition": 'attachment; filename="board.toml"'})

    async def walk(self, request: Request) -> Response:
        """One walker step (or turn) on a workshop's board: the walker after it and its field of view."""
        w = self.workshop(request.path_params["wid"])
        data = await body(request)
        at = w.atlas
        board = w.board
        tile, frame, radius = _int(data, "tile", 0), _int(data, "frame", 0), _int(data, "radius", 6)
        if data.get("start") is not None:  # the first step: the tile by its id
            tile = board.tile(_str(data, "start"), "start tile")
        cover_view(at, tile, frame, 0)  # checks tile and frame
        if not 0 <= radius <= 30:
            raise OptionError(f"radius {radius}: the walker's view is 0..30")
        step = data.get("step")
        blocked = False
        walker = Walker(tile, frame)
        if step:
            move = parse_move(board.grid, _str(data, "step"), "step")
            if move.vector is not None:
                nxt = walker.step(at, move.vector)
                blocked = nxt is None
                walker = nxt or walker
            elif move.turn is not None:
                walker = walker.turn(board.grid, move.turn)
        walls = {s for s in set(board.states) if s != 0}
        view = await asyncio.to_thread(field_of_view, at, walker, radius, opaque_states(board, walls))
        out = cover_json(view, board)
        out["blocked"] = blocked
        out["walker"] = {"tile": walker.tile, "id": board.tiles[walker.tile], "frame": walker.frame,
                         "mirrored": at.grid.group.is_reflection(walker.frame)}
        return JSONResponse(out)

    # ---- games -----------------------------------------------------------------------------------
    def token(self, request: Request) -> str | None:
        return request.headers.get("x-seat") or None

    async def game_new(self, request: Request) -> Response:
        data = await body(request)
        seats = data.get("seats") or ["human", "human"]
        if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
            raise OptionError("seats: expected two player names (human, ai, alphabeta:4, mcts:500, …)")
        board = data.get("board")
        if board is not None and not isinstance(board, str):
            raise OptionError("board: expected a board name")
        room, token = await asyncio.to_thread(self.rooms.create, _str(data, "game"), board or None, seats,
                                              bool(data.get("two_tabs")))
        self.kick(room)
        return JSONResponse({"token": token, "shapes": room.shapes(), **room.state(token)})

    async def game_load(self, request: Request) -> Response:
        data = await body(request)
        room, token = await asyncio.to_thread(self.rooms.load_record, _str(data, "text"))
        self.kick(room)
        return JSONResponse({"token": token, "shapes": room.shapes(), **room.state(token)})

    async def game_get(self, request: Request) -> Response:
        room = await asyncio.to_thread(self.rooms.get, request.path_params["code"])
        return JSONResponse({"shapes": room.shapes(), **room.state(self.token(request))})

    async def game_join(self, request: Request) -> Response:
        room, token = await asyncio.to_thread(self.rooms.join, request.path_params["code"])
        return JSONResponse({"token": token, "shapes": room.shapes(), **room.state(token)})

    async def game_act(self, request: Request) -> Response:
        room = await asyncio.to_thread(self.rooms.get, request.path_params["code"])
        data = await body(request)
        act = request.path_params["act"]
        token = self.token(request)
        if not room.lock.acquire(blocking=False):
            raise GameError("the computer is thinking: wait for its move")
        try:
            if act == "move":
                await asyncio.to_thread(room.play, _str(data, "label"), _int(data, "ply"), token)
            elif act == "tape":
                label = room.tape_label(_int(data, "tile"), _int(data, "side"), _int(data, "other"),
                                        _int(data, "other_side"), bool(data.get("flip")))
                await asyncio.to_thread(room.play, label, _int(data, "ply"), token)
            elif act == "undo":
                room.undo(token)
            else:
                raise OptionError(f"unknown game action {act[:20]!r}")
            self.rooms.save(room)
        finally:
            room.lock.release()
        await self.notify(room)
        self.kick(room)
        return JSONResponse(room.state(token))

    async def game_cover(self, request: Request) -> Response:
        room = await asyncio.to_thread(self.rooms.get, request.path_params["code"])
        q = dict(request.query_params)
        return JSONResponse(await asyncio.to_thread(room.cover, _int(q, "tile", 0), _int(q, "frame", 0),
                                                    _int(q, "radius", 4)))

    async def game_record(self, request: Request) -> Response:
        room = await asyncio.to_thread(self.rooms.get, request.path_params["code"])
        data = room.record().to_json()
        data["game"], data["board"] = room.public
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{room.code}.json"'})

    async def game_pgn(self, request: Request) -> Response:
        room = await asyncio.to_thread(self.rooms.get, request.path_params["code"])
        text = await asyncio.to_thread(room.pgn)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{room.code}.pgn"'})

    def kick(self, room: Room) -> None:
        """Let the computer play its turns in a worker thread, telling the pages after each."""
        if not room.computer_to_move():
            return

        async def think() -> None:
            while room.computer_to_move():
                if not room.lock.acquire(blocking=False):
                    return
                try:
                    await asyncio.to_thread(room.computer_turn)
                    self.rooms.save(room)
                finally:
                    room.lock.release()
                await self.notify(room)

        task = asyncio.get_running_loop().create_task(think())
        self.tasks.add(task)  # held until done (the loop keeps only a weak reference)
        task.add_done_callback(self.tasks.discard)

    async def notify(self, room: Room) -> None:
        """Tell every page watching the game that its position changed."""
        for sock in list(self.watchers.get(room.code, ())):
            try:
                await sock.send_json({"type": "changed", "ply": len(room.labels)})
            except Exception:  # a page that went away
                self.watchers[room.code].discard(sock)

    async def watch(self, sock: WebSocket) -> None:
        code = sock.path_params["code"]
        try:
            room = await asyncio.to_thread(self.rooms.get, code)
        except TapologyError as exc:
            await sock.accept()
            await sock.send_json({"type": "error", "error": str(exc)})
            await sock.close()
            return
        await sock.accept()
        self.watchers.setdefault(room.code, set()).add(sock)
        try:
            while True:
                await sock.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            self.watchers.get(room.code, set()).discard(sock)

    async def upload(self, request: Request) -> Response:
        """Keep an uploaded board or rule file; answers the name later requests use."""
        data = await body(request)
        kind = _str(data, "kind")
        if kind not in ("board", "rules"):
            raise OptionError(f"kind {kind[:20]!r}: board or rules")
        text = _str(data, "text")
        check("file_bytes", len(text.encode()), "uploaded file")
        if kind == "board":
            from tapology.model.boardfile import parse_board  # checked before it is kept

            src = await asyncio.to_thread(parse_board, text, "uploaded board")
            at = await asyncio.to_thread(src.atlas)
            if at.conflict is not None:
                raise OptionError(f"uploaded board: not consistent: {at.conflict.describe(src.board).splitlines()[0]}")
        else:
            from tapology.rules.parse import parse_rules  # checked before it is kept

            await asyncio.to_thread(parse_rules, text, "uploaded rules")
        return JSONResponse({"name": self.rooms.names.store(text, kind)})

    async def meta(self, request: Request) -> Response:
        return JSONResponse({"games": [*SHIPPED, "tictactoe:4"], "boards": list(BOARDS),
                             "limits": {"tiles": limit("tiles"), "file_bytes": limit("file_bytes")}})


def create_app(data: str | Path) -> Starlette:
    """The app serving the page and the API, keeping games and uploads in the folder ``data``."""
    folder = Path(data)
    folder.mkdir(parents=True, exist_ok=True)
    srv = Server(folder)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index),
        Route("/api/meta", guarded(srv.meta)),
        Route("/api/workshop", guarded(srv.ws_open), methods=["POST"]),
        Route("/api/workshop/{wid}", guarded(srv.ws_get)),
        Route("/api/workshop/{wid}/cover", guarded(srv.ws_cover)),
        Route("/api/workshop/{wid}/chart", guarded(srv.ws_chart)),
        Route("/api/workshop/{wid}/board.toml", guarded(srv.ws_toml)),
        Route("/api/workshop/{wid}/walk", guarded(srv.walk), methods=["POST"]),
        Route("/api/workshop/{wid}/{act}", guarded(srv.ws_act), methods=["POST"]),
        Route("/api/upload", guarded(srv.upload), methods=["POST"]),
        Route("/api/game", guarded(srv.game_new), methods=["POST"]),
        Route("/api/game/load", guarded(srv.game_load), methods=["POST"]),
        Route("/api/game/{code}", guarded(srv.game_get)),
        Route("/api/game/{code}/join", guarded(srv.game_join), methods=["POST"]),
        Route("/api/game/{code}/cover", guarded(srv.game_cover)),
        Route("/api/game/{code}/record.json", guarded(srv.game_record)),
        Route("/api/game/{code}/game.pgn", guarded(srv.game_pgn)),
        Route("/api/game/{code}/{act}", guarded(srv.game_act), methods=["POST"]),
        WebSocketRoute("/ws/game/{code}", srv.watch),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.server = srv
    return app
