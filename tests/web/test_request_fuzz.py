"""Every route of the application, and the websocket, against random hostile requests: every
answer is below 500 (or a deliberate 503) in the usual error shape, and nothing changes.

The routes are read from the application itself, so a new route is fuzzed without being listed.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient
from tests.hypothesis_budget import examples
from tests.web.conftest import StandInEngine, new_game

from shogiban.web.app import create_app
from shogiban.web.rates import ServerLimits
from shogiban.web.routing import CheckedRoute, CheckedWebSocketRoute
from shogiban.web.schema import RequestError, decode_message
from shogiban.web.store import GameRow, MoveRow

pytestmark = pytest.mark.timeout(600)

#: Examples per test; ``SHOGIBAN_FUZZ_EXAMPLES=5000`` searches longer (and at random: the default
#: run is derandomized, so it is the same in every run).
EXAMPLES = int(os.environ.get("SHOGIBAN_FUZZ_EXAMPLES", str(examples(400))))
DERANDOMIZE = "SHOGIBAN_FUZZ_EXAMPLES" not in os.environ
GENEROUS = ServerLimits(game_burst=10**6, upload_burst=10**6, message_burst=10**6, messages_per_second=10**6)
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]


def flat_routes(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    for route in routes:
        yield route
        if isinstance(route, Mount) and route.routes:
            yield from flat_routes(list(route.routes))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(database_url="sqlite://", engines=StandInEngine(), heartbeat=3600.0,
                               limits=GENEROUS), raise_server_exceptions=False) as started:
        yield started


def counts(client: TestClient) -> tuple[int, int]:
    """Games and moves stored."""
    engine = client.app.state.store.store.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        games = connection.execute(select(func.count()).select_from(GameRow)).scalar_one()
        moves = connection.execute(select(func.count()).select_from(MoveRow)).scalar_one()
    return int(games), int(moves)


def test_every_route_is_registered_through_the_checked_wrapper(client: TestClient) -> None:
    routes = list(flat_routes(list(client.app.routes)))  # type: ignore[attr-defined]
    assert len(routes) > 20
    for route in routes:
        if isinstance(route, Mount):
            assert isinstance(route.app, StaticFiles), route.path
        else:
            assert isinstance(route, CheckedRoute | CheckedWebSocketRoute), getattr(route, "path", route)


def test_a_route_must_declare_its_parameters() -> None:
    async def handler(*args: object) -> Any:
        raise AssertionError

    with pytest.raises(TypeError, match="declare"):
        CheckedRoute("/api/things/{thing_id}", handler)
    with pytest.raises(TypeError, match="convertor"):
        CheckedRoute("/api/things/{n:int}", handler, params={"n": object()})  # type: ignore[dict-item]


# -- strategies ---------------------------------------------------------------------------------------

ODD_TEXT = st.one_of(
    st.sampled_from(["", " ", "a b", "a;b", "a,b", "..", ".", "%00", "%2F", "将棋", "\u202e", "null", "0", "-1",
                     "9" * 400, "x" * 5000, "kif", "sfen", "pawn", "drops", "1", "../../etc/passwd", "a\"b",
                     "<script>"]),
    st.text(max_size=40),
    st.text(alphabet="abcdefABCDEF0123456789-_", min_size=1, max_size=40),
)

HUGE = st.sampled_from(["1e999", "-1e999", "9" * 5000, "NaN", "Infinity", "-Infinity", "1e-999", "-0",
                        "123456789012345678901234567890", "1.5e308", "0.0000001"])


def deep(opener: str, depth: int) -> str:
    return opener * depth


def _containers_of(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # A named function, not a lambda: Hypothesis reads a lambda's source to check that it uses its
    # argument, and sometimes failed to find it ("doesn't use it's argument" warnings).
    return st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    _containers_of,
    max_leaves=12,
)
FIELD_NAMES = st.sampled_from(["mode", "time", "main", "byoyomi", "increment", "rule", "level", "color", "sfen",
                               "moves", "handicap", "name", "invite", "text", "usi", "line", "lang", "opponent",
                               "type", "token", "ply"])
OBJECTS = st.dictionaries(FIELD_NAMES, JSON_VALUES, max_size=6)


@st.composite
def bodies(draw: st.DrawFn) -> tuple[bytes, str | None]:
    kind = draw(st.sampled_from(["json", "object", "deep", "huge", "raw", "empty", "nested_time"]))
    if kind == "json":
        return json.dumps(draw(JSON_VALUES)).encode(), "application/json"
    if kind == "object":
        return json.dumps(draw(OBJECTS)).encode(), "application/json"
    if kind == "deep":
        opener = draw(st.sampled_from(["[", "{\"a\":", "[{\"a\":"]))
        return deep(opener, draw(st.integers(10, 20_000))).encode(), draw(st.sampled_from(["application/json", None]))
    if kind == "huge":
        field = draw(FIELD_NAMES)
        number = draw(HUGE)
        inner = f'{{"{field}": {number}}}' if draw(st.booleans()) else f'{{"time": {{"{field}": {number}}}}}'
        return inner.encode(), "application/json"
    if kind == "nested_time":
        return json.dumps({"mode": "local", "time": draw(JSON_VALUES), "rule": draw(JSON_VALUES)}).encode(), \
            "application/json"
    if kind == "empty":
        return b"", draw(st.sampled_from(["application/json", None]))
    return draw(st.binary(max_size=300)), draw(st.sampled_from(["application/octet-stream", "application/json",
                                                                "text/plain", None]))


HEADER_TEXT = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=80)


@st.composite
def requests(draw: st.DrawFn, routes: list[CheckedRoute]) -> dict[str, Any]:
    route = draw(st.sampled_from(routes))
    params = {name: draw(ODD_TEXT) for name in route.declared_params}
    path = route.path
    for name, value in params.items():
        path = path.replace("{" + name + "}", quote(value, safe=""))
    query = draw(st.dictionaries(st.sampled_from(["token", "invite", "format", "lang", "x", "game"]), ODD_TEXT,
                                 max_size=3))
    own = sorted(route.methods or {"GET"})
    method = draw(st.sampled_from(own)) if draw(st.integers(0, 9)) else draw(st.sampled_from(METHODS))
    body, content_type = draw(bodies())
    headers = {"cookie": draw(HEADER_TEXT)}
    if content_type:
        headers["content-type"] = content_type
    if draw(st.booleans()):
        headers["origin"] = draw(st.sampled_from(["null", "http://testserver", "https://evil.example", "::::"]))
    return {"method": method, "url": path, "params": query, "content": body, "headers": headers}


def check_answer(response: Any) -> None:
    status = response.status_code
    assert status < 500 or (status == 503 and response.json()["code"] in ("busy", "storage")), \
        (status, response.text[:300])
    if status < 400 or response.request.method == "HEAD":
        return
    if response.headers.get("content-type", "").startswith("text/html"):
        assert re.search(r'data-error="[a-z_]+"', response.text), response.text[:300]
        return
    body = response.json()
    assert body["type"] == "error"
    assert isinstance(body["code"], str)
    assert isinstance(body["message"], str)
    assert len(body["message"]) <= 400


# -- the fuzzing ---------------------------------------------------------------------------------------


def test_every_route_survives_hostile_requests(client: TestClient) -> None:
    routes = [r for r in flat_routes(list(client.app.routes)) if isinstance(r, CheckedRoute)]  # type: ignore[attr-defined]
    game = new_game(client, mode="friend")
    assert client.post(f"/api/games/{game['id']}/join", json={"invite": "wrong"}).status_code == 403

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=DERANDOMIZE)
    @given(requests(routes))
    def hostile(request: dict[str, Any]) -> None:
        client.cookies.clear()
        before = counts(client)
        response = client.request(request["method"], request["url"], params=request["params"],
                                  content=request["content"], headers=request["headers"], follow_redirects=False)
        check_answer(response)
        if response.status_code != 201:
            assert counts(client) == before, request

    hostile()
    client.cookies.clear()
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["game"]["players"]["w"]["joined"] is False  # nobody took the friend's seat
    assert state["moves"] == []


FRAMES = st.one_of(
    st.builds(lambda value: json.dumps(value), JSON_VALUES),
    st.builds(lambda value: json.dumps(value), OBJECTS),
    st.builds(lambda kind, value: json.dumps({"type": kind, "usi": value, "ply": value, "token": value}),
              st.sampled_from(["move", "undo", "hint", "declare", "impasse", "hello", "resign", "x", ""]), JSON_VALUES),
    st.builds(lambda kind, number: f'{{"type": "{kind}", "usi": "7g7f", "ply": {number}}}',
              st.sampled_from(["move", "undo", "hint"]), HUGE),
    st.builds(deep, st.sampled_from(["[", '{"type":', '{"a":[']), st.integers(2, 5000)),
    st.text(max_size=200),
    st.binary(max_size=200),
)


def test_every_websocket_frame_is_answered_and_the_connection_stays(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:  # as a spectator: nothing may change
        assert ws.receive_json()["type"] == "state"

        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                  derandomize=DERANDOMIZE)
        @given(FRAMES)
        def hostile(frame: str | bytes) -> None:
            try:
                kind = decode_message(frame)["type"]
            except RequestError:
                kind = "refused"
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            ws.send_json({"type": "ping"})  # its pong marks the end of the frame's answers
            pongs = 2 if kind == "ping" else 1
            replies = []
            while pongs:
                message = ws.receive_json()
                if message["type"] == "pong":
                    pongs -= 1
                elif message["type"] != "presence":
                    replies.append(message)
            if kind != "ping":
                assert len(replies) == 1, (frame, replies)
                (reply,) = replies
                assert reply["type"] == ("state" if kind == "hello" and reply["type"] != "error" else "error"), reply
                if reply["type"] == "error":
                    assert reply["code"] != "internal", (frame, reply)
                    assert len(reply["message"]) <= 400

        hostile()
    client.cookies.clear()
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["moves"] == []
    assert state["outcome"] is None
