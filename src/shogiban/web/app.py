"""The Starlette application: pages, the JSON API, the game websocket and the static files.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(database_url="sqlite://", engines=None)) as client:
...     client.post("/api/games", json={"mode": "local"}).json()["color"]
'b'

HTTP API (errors are ``{"type": "error", "code", "message"}`` with a 4xx status):

* ``GET  /api/config`` -- levels, engines, handicaps.
* ``POST /api/games`` -- new game (see :func:`shogiban.web.newgame.parse_new_game`); sets the
  player's cookie and returns ``{id, token, color, url, private_url}``.
* ``GET  /api/games/{id}`` -- the game as the cookie's holder sees it (the ``state`` message).
* ``POST /api/games/{id}/join`` -- take the open seat of a friend's game.
* ``GET  /api/games/{id}/record.{kif|ki2|csa|jkf|sfen}`` -- download.
* ``POST /api/records`` -- read a record (raw file body, or JSON ``{"text"}``) into the viewer's tree.
* ``POST /api/records/export?format=kif`` -- convert a record (same body) for download.
* ``WS   /ws/games/{id}`` -- play and watch; see :mod:`shogiban.web.messages`.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from shogiban.errors import ShogibanError
from shogiban.handicaps import HANDICAPS
from shogiban.web.messages import ClientMessage, MessageError, error_message, parse_client_message
from shogiban.web.newgame import parse_new_game
from shogiban.web.pages import STATIC, render_shell
from shogiban.web.players import BuiltinEngines, Thinker, UsiEngines, engine_available
from shogiban.web.records import MAX_RECORD_BYTES, RecordError, export_game, export_room, game_tree, read_upload
from shogiban.web.rooms import GameRoom, Role, RoomError, RoomManager, Services
from shogiban.web.store import AsyncStore, GameStore, default_database_url

log = logging.getLogger(__name__)

#: Largest JSON request body, bytes.
MAX_JSON_BYTES = 64_000
#: Messages queued for a slow client before it is disconnected.
MAX_QUEUED = 256
COOKIE_PREFIX = "sb_"
_SENTINEL = object()


def cookie_name(game_id: str) -> str:
    """The cookie holding a player's token for *game_id*."""
    return COOKIE_PREFIX + game_id


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """A JSON error."""
    return JSONResponse(dict(error_message(code, message)), status_code=status)


def _foreign_origin(headers: Any, host: str | None) -> bool:
    """Whether a request comes from a page of another site (its ``Origin`` names another host):
    such requests may not create, join or play games with this browser's cookies."""
    origin: str | None = headers.get("origin")
    if origin == "null":
        return True  # a sandboxed or file page
    if not origin or host is None:
        return False  # not a browser page (scripts, tests) or no host to compare with
    hosts = {host.lower(), str(headers.get("x-forwarded-host", "")).lower()}  # behind a proxy
    return urlsplit(origin).netloc.lower() not in hosts


def _set_token_cookie(response: Response, game_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(game_id), token, max_age=400 * 24 * 3600, path="/", httponly=True, samesite="lax"
    )


async def _read_body(request: Request, limit: int) -> bytes:
    """The request body, refusing more than *limit* bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RecordError(f"request too large: {declared} bytes (at most {limit})")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RecordError(f"request too large: more than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _read_json(request: Request) -> Any:
    body = await _read_body(request, MAX_JSON_BYTES)
    try:
        return json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise MessageError("bad_json", f"malformed json body: {body[:80]!r}") from error


class Connection:
    """A websocket client: its role and an outgoing queue written by its own task, so a slow
    client never delays the others."""

    def __init__(self, websocket: WebSocket, role: Role) -> None:
        self.websocket = websocket
        self.role: Role = role
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue *message*; a client that falls too far behind is dropped."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.closed = True
            self.queue.put_nowait(_SENTINEL)
            return
        self.queue.put_nowait(message)

    async def writer(self) -> None:
        """Send queued messages until closed."""
        while True:
            message = await self.queue.get()
            if message is _SENTINEL:
                with contextlib.suppress(RuntimeError):
                    await self.websocket.close(code=1008)
                return
            await self.websocket.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


def _error_of(error: Exception) -> dict[str, Any]:
    code = getattr(error, "code", None) or "invalid"
    return dict(error_message(str(code), str(error)))


async def _dispatch(room: GameRoom, connection: Connection, message: ClientMessage) -> None:
    kind = message["type"]
    if message["type"] == "move":
        await room.play(connection.role, message["usi"], message["ply"])
    elif message["type"] == "resign":
        await room.resign(connection.role)
    elif message["type"] == "undo":
        await room.undo(connection.role, message["ply"])
    elif message["type"] == "hint":
        await room.hint(connection, message["ply"])
    elif message["type"] == "declare":
        await room.declare(connection.role, message["ply"])
    elif message["type"] == "impasse":
        await room.impasse(connection.role, message["ply"])
    elif message["type"] == "hello":
        token = message["token"]
        role = room.role_of(token)
        if token and role is None:
            raise RoomError("bad_token", "this token does not belong to a player of this game")
        if token:
            connection.role = role
        connection.send(dict(room.state_for(connection.role)))
        room.broadcast_presence()
    elif kind == "ping":
        connection.send({"type": "pong"})


def create_app(
    *,
    database_url: str | None = None,
    engine_command: str | None = None,
    engines: Thinker | object | None = _SENTINEL,
    usi: Thinker | None = None,
    workers: int | None = None,
    heartbeat: float = 2.0,
    now: Callable[[], float] = time.time,
) -> Starlette:
    """Build the application.

    :param database_url: SQLAlchemy URL (default :func:`shogiban.web.store.default_database_url`).
    :param engine_command: a USI engine command line offered as an opponent.
    :param engines: the built-in engine service (default: a process pool, when the engine is
        installed; None for none).  Tests pass a stand-in.
    :param usi: a USI engine service (default: from *engine_command*).
    :param workers: engine worker processes (default: CPU count - 1).
    :param heartbeat: seconds between the "server alive" notes used to discount downtime.
    """
    url = database_url or default_database_url()
    state: dict[str, Any] = {}
    learn_routes = _learn_routes()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = AsyncStore(GameStore(url))
        if engines is _SENTINEL:
            builtin: Thinker | None = BuiltinEngines(workers) if engine_available() else None
        else:
            builtin = engines  # type: ignore[assignment]
        usi_service = usi
        if usi_service is None and engine_command:
            usi_service = UsiEngines(engine_command)
        usi_name = getattr(usi_service, "name", None)
        services = Services(store=store, engines=builtin, usi=usi_service, usi_name=usi_name, now=now)
        rooms = RoomManager(services)
        state.update(store=store, services=services, rooms=rooms)
        app.state.rooms = rooms
        previous = await store.run(store.store.last_heartbeat)
        await store.run(store.store.heartbeat, now())
        restored = await rooms.restore(previous)
        if restored:
            log.info("restored %d games in progress", restored)
        beat = asyncio.create_task(_heartbeat(store, heartbeat, now))
        try:
            yield
        finally:
            beat.cancel()
            rooms.close()
            with contextlib.suppress(Exception):
                await store.run(store.store.heartbeat, now())
            for service in (builtin, usi_service):
                if service is not None:
                    await service.close()
            store.close()

    def rooms() -> RoomManager:
        manager: RoomManager = state["rooms"]
        return manager

    async def page_home(request: Request) -> Response:
        return render_shell(request, page="play", show_learn=bool(learn_routes))

    async def page_record(request: Request) -> Response:
        return render_shell(request, page="record", title_key="record.title", show_learn=bool(learn_routes))

    async def page_game(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        token = request.query_params.get("token")
        if token:
            # A private link: remember the token in a cookie, then show the clean address.
            response = RedirectResponse(f"/game/{game_id}", status_code=303)
            _set_token_cookie(response, game_id, token)
            return response
        return render_shell(
            request, page="game", title_key="game.title", data={"game_id": game_id}, show_learn=bool(learn_routes)
        )

    async def api_config(request: Request) -> Response:
        services: Services = state["services"]
        return JSONResponse({
            "levels": list(range(1, 9)),
            "engine": services.engines is not None,
            "usi": (getattr(services.usi, "name", None) or services.usi_name) if services.usi is not None else None,
            "handicaps": [{"japanese": h.japanese, "english": h.english, "sfen": h.sfen} for h in HANDICAPS],
            "learn": bool(learn_routes),
        })

    async def api_create(request: Request) -> Response:
        services: Services = state["services"]
        if _foreign_origin(request.headers, request.headers.get("host")):
            return error_response(403, "bad_origin", "requests from other sites are not accepted")
        try:
            data = await _read_json(request)
            setup = parse_new_game(data, usi_available=services.usi is not None)
            if setup.mode == "computer" and setup.opponent == "engine" and services.engines is None:
                return error_response(400, "no_engine", "the built-in engine is not available on this server")
            room, token = await rooms().create(setup)
        except (ShogibanError, MessageError) as error:
            return error_response(400, getattr(error, "code", "bad_setup"), str(error))
        body = {
            "id": room.id,
            "token": token,
            "color": "bw"[setup.color],
            "url": f"/game/{room.id}",
            "private_url": f"/game/{room.id}?token={token}",
        }
        response = JSONResponse(body, status_code=201)
        _set_token_cookie(response, room.id, token)
        return response

    async def api_game(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        room = await rooms().get(game_id)
        if room is None:
            return error_response(404, "unknown_game", f"unknown game: {game_id!r}")
        token = request.cookies.get(cookie_name(game_id))
        role = room.role_of(token)
        body: dict[str, Any] = dict(room.state_for(role))
        if role is not None:
            body["token"] = token
        return JSONResponse(body)

    async def api_join(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        if _foreign_origin(request.headers, request.headers.get("host")):
            return error_response(403, "bad_origin", "requests from other sites are not accepted")
        room = await rooms().get(game_id)
        if room is None:
            return error_response(404, "unknown_game", f"unknown game: {game_id!r}")
        try:
            color, token = await room.join(request.cookies.get(cookie_name(game_id)))
        except RoomError as error:
            return error_response(409, error.code, str(error))
        response = JSONResponse({"id": game_id, "color": "bw"[color], "token": token,
                                 "private_url": f"/game/{game_id}?token={token}"})
        _set_token_cookie(response, game_id, token)
        return response

    async def api_record(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        fmt = request.path_params["fmt"]
        room = await rooms().get(game_id)
        if room is None:
            return error_response(404, "unknown_game", f"unknown game: {game_id!r}")
        try:
            download = export_room(room, fmt)
        except RecordError as error:
            return error_response(400, error.code, str(error))
        return _download(download.content, download.filename, download.media_type)

    async def _upload(request: Request) -> bytes | str:
        body = await _read_body(request, MAX_RECORD_BYTES + 1000)
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                data = json.loads(body)
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                raise RecordError(f"malformed json body: {body[:80]!r}") from error
            text = data.get("text") if isinstance(data, dict) else None
            if not isinstance(text, str):
                raise RecordError('expected {"text": "<the record>"}')
            return text
        return body

    async def api_read_record(request: Request) -> Response:
        try:
            game = read_upload(await _upload(request))
            tree = game_tree(game)
        except ShogibanError as error:
            return error_response(400, getattr(error, "code", "bad_record"), str(error))
        return JSONResponse(tree)

    async def api_export_record(request: Request) -> Response:
        fmt = request.query_params.get("format", "kif")
        try:
            game = read_upload(await _upload(request))
            download = export_game(game, fmt, "record")
        except ShogibanError as error:
            return error_response(400, getattr(error, "code", "bad_record"), str(error))
        return _download(download.content, download.filename, download.media_type)

    async def game_socket(websocket: WebSocket) -> None:
        game_id = websocket.path_params["game_id"]
        await websocket.accept()
        if _foreign_origin(websocket.headers, websocket.headers.get("host")):
            refusal = error_message("bad_origin", "connections from other sites are not accepted")
            await websocket.send_json(dict(refusal))
            await websocket.close(code=4403)
            return
        room = await rooms().get(game_id)
        if room is None:
            await websocket.send_json(dict(error_message("unknown_game", f"unknown game: {game_id!r}")))
            await websocket.close(code=4404)
            return
        connection = Connection(websocket, room.role_of(websocket.cookies.get(cookie_name(game_id))))
        writer = asyncio.create_task(connection.writer())
        room.subscribe(connection)
        try:
            while not connection.closed:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                try:
                    message = parse_client_message(received.get("text") or received.get("bytes"))
                    await _dispatch(room, connection, message)
                except (MessageError, RoomError, ShogibanError) as error:
                    connection.send(_error_of(error))
                except SQLAlchemyError as error:
                    log.error("game %s: storage failed: %s", game_id, error)
                    connection.send(dict(error_message("storage", "the game could not be saved: please try again")))
        except WebSocketDisconnect:
            pass
        finally:
            room.unsubscribe(connection)
            connection.closed = True
            writer.cancel()
            rooms().forget_if_idle(room)

    routes: list[BaseRoute] = [
        Route("/", page_home),
        Route("/record", page_record),
        Route("/game/{game_id}", page_game),
        Route("/api/config", api_config),
        Route("/api/games", api_create, methods=["POST"]),
        Route("/api/games/{game_id}", api_game),
        Route("/api/games/{game_id}/join", api_join, methods=["POST"]),
        Route("/api/games/{game_id}/record.{fmt}", api_record),
        Route("/api/records", api_read_record, methods=["POST"]),
        Route("/api/records/export", api_export_record, methods=["POST"]),
        WebSocketRoute("/ws/games/{game_id}", game_socket),
        *learn_routes,
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _download(content: bytes, filename: str, media_type: str) -> Response:
    disposition = f'attachment; filename="{filename}"'
    return Response(content, media_type=media_type, headers={"Content-Disposition": disposition})


async def _heartbeat(store: AsyncStore, every: float, now: Callable[[], float]) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            await store.run(store.store.heartbeat, now())
        except Exception as error:  # the database may be briefly unavailable; keep beating
            log.warning("heartbeat failed: %s", error)


def _learn_routes() -> list[BaseRoute]:
    """The lessons' and puzzles' routes, when that part is installed."""
    try:
        learn = importlib.import_module("shogiban.web.learn")
    except ModuleNotFoundError as error:
        if error.name == "shogiban.web.learn":
            return []
        raise
    return list(learn.routes)
