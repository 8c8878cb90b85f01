"""How every route is registered: :class:`CheckedRoute` and :class:`CheckedWebSocketRoute`.

A checked route declares its path parameters, query and body (:mod:`shogiban.web.schema`); the
wrapper checks them before the handler runs, reads at most the declared number of body bytes,
and turns every exception into an answer: a refused request gets ``{"type": "error", "code",
"message"}`` (or, for a page, an error page) with a 4xx status, trouble with storage or an engine
a 503, and anything unexpected is logged and answered with a JSON 500, never a traceback.
:func:`exception_handlers` does the same for what the router itself refuses (404, 405).

A path parameter that is not declared is a programming error caught when the route is built.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketState

from shogiban.errors import EngineError, ShogibanError
from shogiban.web.messages import encode_message, error_message
from shogiban.web.pages import render_error_page
from shogiban.web.schema import Body, Param, Query, RequestError, encode_json, excerpt

log = logging.getLogger(__name__)

_PATH_PARAMETER = re.compile(r"{([A-Za-z_][A-Za-z0-9_]*)(?::[a-z]+)?}")


@dataclass(frozen=True)
class Upload:
    """A record upload: the raw body (at most *max_bytes*), read as it is; its JSON form
    (``{"text"}``) is decoded where the record is read, not on the event loop."""

    max_bytes: int


@dataclass(frozen=True)
class Uploaded:
    """The bytes of an :class:`Upload` and whether they were sent as JSON."""

    data: bytes
    is_json: bool


@dataclass(frozen=True)
class Checked:
    """What the handler gets: the checked path parameters, query and body."""

    params: dict[str, Any] = field(default_factory=dict)
    query: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    """The checked JSON object of a :class:`~shogiban.web.schema.Body`, :class:`Uploaded`, or None."""


Handler = Callable[[Request, Checked], Awaitable[Response]]
SocketHandler = Callable[[WebSocket, dict[str, Any]], Awaitable[None]]


def client_address(connection: HTTPConnection) -> str:
    """The client's address, the key of its rates and caps (behind a proxy, the one it reports)."""
    return connection.client.host if connection.client is not None else "unknown"


def error_response(status: int, code: str, message: str) -> Response:
    """A JSON error."""
    body = encode_json({"type": "error", "code": code, "message": message})
    return Response(body.encode("utf-8"), status_code=status, media_type="application/json")


def _declared(path: str, params: Mapping[str, Param]) -> None:
    names = set(_PATH_PARAMETER.findall(path))
    if names != set(params):
        raise TypeError(f"route {path!r}: declare exactly its path parameters {sorted(names)}, not {sorted(params)}")
    if any(":" in part for part in re.findall(r"{[^}]*}", path)):
        raise TypeError(f"route {path!r}: use declared parameters, not Starlette convertors (they raise on odd input)")


def classify(error: BaseException) -> tuple[int, str, str]:
    """The status, code and message answering *error* (unexpected errors are logged)."""
    if isinstance(error, ClientDisconnect):
        error = _client_gone()
    if isinstance(error, RequestError):
        return error.status, error.code, str(error)
    code = getattr(error, "code", None)
    if isinstance(error, ShogibanError) or (isinstance(error, ValueError) and isinstance(code, str)):
        # Refused input (the rules', a room's, a record's): a ValueError with a stable code.  A
        # bare ValueError is a bug, answered below.
        return int(getattr(error, "status", 400)), str(code or "invalid"), str(error)
    if isinstance(error, SQLAlchemyError):
        log.error("storage failed: %s", error)
        return 503, "storage", "the game could not be saved or loaded: please try again"
    if isinstance(error, EngineError):
        log.warning("engine failed: %s", error)
        return 503, "engine_error", f"the engine failed: {excerpt(str(error), 120)}"
    log.error("unexpected error answering a request", exc_info=error)
    return 500, "internal", "something went wrong on the server (it has been logged)"


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refusing more than *limit* bytes (before reading them when declared).

    :raises RequestError: ``too_large`` (413).
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and (len(declared) > 12 or int(declared) > limit):
        raise RequestError("too_large", f"request too large: {excerpt(declared, 12)} bytes (at most {limit})", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise RequestError("too_large", f"request too large: more than {limit} bytes", 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise _client_gone() from None
    return b"".join(chunks)


def _client_gone() -> RequestError:
    """A client that hung up mid-request: nobody reads the answer, so a short debug line is all
    the log gets (a flood of them must not fill it)."""
    log.debug("a client hung up before its request was complete")
    return RequestError("client_gone", "the request was not complete", 400)


class CheckedRoute(Route):
    """An HTTP route whose parameters, query and body are checked before *handler* runs.

    :param params: every path parameter's declaration.
    :param query: the query parameters read (others are ignored).
    :param body: a JSON :class:`~shogiban.web.schema.Body`, an :class:`Upload`, or None (the
        body is not read).
    :param page: answer errors with an error page instead of JSON.
    """

    def __init__(
        self, path: str, handler: Handler, *, methods: Collection[str] = ("GET",),
        params: Mapping[str, Param] | None = None, query: Query | None = None,
        body: Body | Upload | None = None, page: bool = False,
    ) -> None:
        self.declared_params: Mapping[str, Param] = dict(params or {})
        _declared(path, self.declared_params)
        self.declared_query = query
        self.declared_body = body
        self.page = page
        self.handler = handler
        super().__init__(path, self._endpoint, methods=list(methods), name=getattr(handler, "__name__", None))

    async def _endpoint(self, request: Request) -> Response:
        try:
            params = {name: param.check(request.path_params.get(name)) for name, param in self.declared_params.items()}
            query = self.declared_query.check(request.query_params) if self.declared_query else {}
            body: Any = None
            if isinstance(self.declared_body, Body):
                body = self.declared_body.decode(await read_body(request, self.declared_body.max_bytes))
            elif isinstance(self.declared_body, Upload):
                data = await read_body(request, self.declared_body.max_bytes)
                body = Uploaded(data, request.headers.get("content-type", "").startswith("application/json"))
            return await self.handler(request, Checked(params, query, body))
        except Exception as error:  # every failure gets an answer; classify() logs the unexpected
            status, code, message = classify(error)
            if self.page:
                return render_error_page(request, status=status, code=code, message=message)
            return error_response(status, code, message)


class CheckedWebSocketRoute(WebSocketRoute):
    """A websocket route whose path parameters are checked before *handler* runs; a refused
    connection is accepted, told why, and closed (4404 for an unknown id).  Messages are
    checked by the handler with :func:`shogiban.web.schema.decode_message`."""

    def __init__(self, path: str, handler: SocketHandler, *, params: Mapping[str, Param] | None = None) -> None:
        self.declared_params: Mapping[str, Param] = dict(params or {})
        _declared(path, self.declared_params)
        self.handler = handler
        super().__init__(path, self._endpoint, name=getattr(handler, "__name__", None))

    async def _endpoint(self, websocket: WebSocket) -> None:
        try:
            params = {name: param.check(websocket.path_params.get(name))
                      for name, param in self.declared_params.items()}
        except RequestError as error:
            await websocket.accept()
            await websocket.send_text(encode_message(error_message(error.code, str(error))))
            await websocket.close(code=4404 if error.status == 404 else 4400)
            return
        try:
            await self.handler(websocket, params)
        except Exception as error:  # never drop a connection without a close frame
            _, code, message = classify(error)
            if websocket.client_state == WebSocketState.CONNECTED:
                try:
                    await websocket.send_text(encode_message(error_message(code, message)))
                    await websocket.close(code=1011)
                except Exception as late:  # the client is gone as well
                    log.debug("could not close a failed websocket: %s", late)


def _wants_page(request: Request) -> bool:
    path = request.url.path
    return not (path.startswith(("/api/", "/ws/", "/static/"))) and request.method in ("GET", "HEAD")


async def _http_error(request: Request, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http")
    message = {404: "no such page", 405: f"method {request.method} not allowed here"}.get(
        status, str(getattr(error, "detail", "")) or "refused")
    headers = dict(error.headers or {}) if isinstance(error, HTTPException) else {}
    if _wants_page(request):
        response: Response = render_error_page(request, status=status, code=code, message=message)
    else:
        response = error_response(status, code, message)
    response.headers.update(headers)
    return response


async def _internal_error(request: Request, error: Exception) -> Response:
    log.error("unexpected error outside a route", exc_info=error)
    return error_response(500, "internal", "something went wrong on the server (it has been logged)")


def exception_handlers() -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """The application's handlers: the router's refusals in the usual error shape, and a JSON
    500 for anything that escapes (a route's own errors never get this far)."""
    return {HTTPException: _http_error, Exception: _internal_error}
