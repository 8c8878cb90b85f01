"""Hostile requests from the report get a 4xx in the usual error shape, never a 500 or a
dropped connection (finding 4), and the catch-all answers what should never happen."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import join_as, new_game, play, receive

pytestmark = pytest.mark.timeout(60)

JSON_ROUTES = [  # every route with a JSON body: (method, path)
    ("POST", "/api/games"),
    ("POST", "/api/games/{id}/join"),
    ("POST", "/api/learn/lessons/drops/sections/1/try"),
    ("POST", "/api/learn/lessons/notation/sections/1/answer"),
    ("POST", "/api/puzzles/{puzzle}/move"),
    ("POST", "/api/puzzles/{puzzle}/hint"),
    ("POST", "/api/records"),
    ("POST", "/api/records/export?format=kif"),
]


def is_error(response: object, status: int | None = None) -> dict:
    body = response.json()  # type: ignore[attr-defined]
    assert body["type"] == "error", body
    assert isinstance(body["code"], str)
    assert body["code"]
    assert isinstance(body["message"], str)
    assert body["message"]
    if status is not None:
        assert response.status_code == status, body  # type: ignore[attr-defined]
    return dict(body)


@pytest.mark.parametrize("game_id", ["a b", "a;b", "a,b", "将棋将棋", "a\"b", "ab", "x" * 40, "a%2Fb", "a\x00b"])
def test_odd_game_ids_are_unknown_games_not_cookie_errors(client: TestClient, game_id: str) -> None:
    from urllib.parse import quote

    path = quote(game_id, safe="")
    page = client.get(f"/game/{path}?token=x", follow_redirects=False)
    assert page.status_code == 404
    assert 'data-error="unknown_game"' in page.text or 'data-error="not_found"' in page.text
    assert "set-cookie" not in page.headers
    is_error(client.get(f"/api/games/{path}"), 404)
    is_error(client.post(f"/api/games/{path}/join", json={}), 404)
    is_error(client.get(f"/api/games/{path}/record.kif"), 404)
    if "/" in game_id.replace("%2F", "/"):
        return  # a slash ends the id: no game route matches, and the router refuses the socket
    with client.websocket_connect(f"/ws/games/{path}") as ws:
        assert ws.receive_json()["code"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


@pytest.mark.parametrize("body", [
    b'{"time": {"main": 1e300}}',
    b'{"time": {"main": Infinity}}',
    b'{"time": {"main": -Infinity}}',
    b'{"time": {"main": NaN}}',
    b'{"time": {"byoyomi": 1e20}}',
    b'{"time": {"increment": 1e400}}',
    b'{"time": {"main": ' + b"9" * 5000 + b"}}",
    b'{"level": ' + b"9" * 5000 + b"}",
])
def test_absurd_numbers_are_refused(client: TestClient, body: bytes) -> None:
    answer = is_error(client.post("/api/games", content=body, headers={"content-type": "application/json"}), 400)
    assert answer["code"] in ("bad_json", "bad_setup")
    assert len(answer["message"]) < 200


def test_huge_times_are_refused_by_the_clock_itself() -> None:
    from shogiban.web.clock import TimeControlError, parse_time_control

    for data in ({"main": 1e300}, {"main": float("inf")}, {"byoyomi": 1e20}, {"increment": 10**400},
                 {"main": float("nan")}):
        with pytest.raises(TimeControlError):
            parse_time_control(data)


@pytest.mark.parametrize("rule", [["27"], {"a": 1}, 27, True, "x" * 1000])
def test_a_rule_of_the_wrong_type_is_refused(client: TestClient, rule: object) -> None:
    answer = is_error(client.post("/api/games", json={"mode": "local", "rule": rule}), 400)
    assert answer["code"] == "bad_setup"


def test_a_rule_of_the_wrong_type_is_refused_by_the_parser_itself() -> None:
    from shogiban.web.newgame import SetupError, parse_new_game

    for rule in (["27"], {"a": 1}):
        with pytest.raises(SetupError):
            parse_new_game({"mode": "local", "rule": rule})


@pytest.mark.parametrize("depth", [4000, 100_000 // 2])
def test_deeply_nested_json_is_refused_on_every_json_route(client: TestClient, depth: int) -> None:
    game = new_game(client, mode="friend")
    from shogiban.lessons.puzzles import load_puzzles

    puzzle = load_puzzles()[0].id
    for opener in ("[", '{"a":'):
        body = (opener * depth).encode()
        for method, path in JSON_ROUTES:
            url = path.format(id=game["id"], puzzle=puzzle)
            answer = client.request(method, url, content=body, headers={"content-type": "application/json"})
            assert 400 <= answer.status_code < 500, (url, answer.status_code, answer.text[:200])
            is_error(answer)


def test_a_deep_websocket_frame_gets_an_error_and_the_connection_stays(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for frame in ("[" * 4000, '{"type": "move", "usi": ' + "[" * 2000 + "}", '{"type":"move","ply":1e999}',
                      '{"type": "move", "usi": "7g7f", "ply": ' + "9" * 4000 + "}"):
            ws.send_text(frame)
            assert receive(ws, "error")["code"] in ("bad_json", "bad_message")
        ws.send_bytes(b"[" * 4000)
        assert receive(ws, "error")["code"] == "bad_json"
        assert play(ws, "7g7f", 0)["type"] == "move"


def test_unexpected_failures_are_logged_json_500s(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from shogiban.web.rooms import RoomManager

    game = new_game(client, mode="local")

    async def broken(self: RoomManager, game_id: str) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(RoomManager, "get", broken)
    with caplog.at_level(logging.ERROR):
        answer = client.get(f"/api/games/{game['id']}")
    assert answer.status_code == 500
    assert is_error(answer)["code"] == "internal"
    assert "KeyError" not in answer.text
    assert "Traceback" not in answer.text
    assert any("unexpected error" in record.message for record in caplog.records)
    page = client.get(f"/game/{game['id']}?token=x")
    assert page.status_code == 500
    assert 'data-error="internal"' in page.text


def test_a_bug_while_handling_a_message_keeps_the_connection(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shogiban.web.rooms import GameRoom

    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])

        async def broken(self: GameRoom, role: object) -> None:
            raise ZeroDivisionError("a bug")

        monkeypatch.setattr(GameRoom, "resign", broken)
        ws.send_json({"type": "resign"})
        assert receive(ws, "error")["code"] == "internal"
        ws.send_json({"type": "ping"})
        assert receive(ws, "pong") == {"type": "pong", "v": 1}


def test_routes_and_methods_that_do_not_exist_answer_in_the_error_shape(client: TestClient) -> None:
    assert is_error(client.get("/api/nothing"), 404)["code"] == "not_found"
    assert is_error(client.delete("/api/games"), 405)["code"] == "method_not_allowed"
    assert is_error(client.get("/api/records"), 405)
    page = client.get("/no/such/page")
    assert page.status_code == 404
    assert 'data-error="not_found"' in page.text


def test_oversized_bodies_are_refused_before_reading(client: TestClient) -> None:
    big = b"{" + b" " * 70_000 + b"}"
    answer = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert is_error(answer, 413)["code"] == "too_large"
    lying = client.post("/api/games", content=b"{}", headers={"content-length": "9" * 30})
    assert lying.status_code in (400, 413)


def test_error_messages_quote_little_of_the_input(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    secretish = "S" * 5000
    for body in ({"mode": secretish}, {"sfen": secretish}, {"handicap": secretish}, {"moves": [secretish]},
                 {"name": secretish}, {"color": secretish}, {"time": {secretish: 1}}):
        answer = is_error(client.post("/api/games", json=body), 400)
        assert answer["message"].count("S") <= 45, answer
    record = is_error(client.post("/api/records", json={"text": secretish}), 400)
    assert record["message"].count("S") <= 200
    assert json.dumps(record).count("S") <= 200


def test_a_token_of_any_text_is_just_a_wrong_token(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, None)
        for token in ("将棋", "a" * 200):
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert receive(ws, "error")["code"] == "bad_token"
        ws.send_text(json.dumps({"type": "hello", "token": "\udcff"}))  # not Unicode text: refused at the edge
        assert receive(ws, "error")["code"] in ("bad_message", "bad_json")
    client.cookies.set(f"sb_{game['id']}", "%E5%B0%86")
    assert client.get(f"/api/games/{game['id']}").json()["you"] is None


def test_lone_surrogates_from_a_client_never_break_the_answers(client: TestClient) -> None:
    from shogiban.web.routing import error_response
    from shogiban.web.schema import encode_json

    assert json.loads(encode_json({"message": "x\udcffy"})) == {"message": "x\udcffy"}
    assert json.loads(error_response(400, "x", "\ud800").body)["message"] == "\ud800"
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for frame in ('{"type": "move", "usi": "\\udcff", "ply": 0}', '{"type": "\\ud800"}',
                      '{"type": "hello", "token": "\\udcff"}', '{"type": "move", "usi": "7g7f", "ply": "\\ud800"}'):
            ws.send_text(frame)
            assert receive(ws, "error")["type"] == "error"
        assert play(ws, "7g7f", 0)["type"] == "move"
