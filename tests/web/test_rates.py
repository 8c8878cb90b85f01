"""Rates: websocket messages per connection, new games and uploads per address, connections per
game."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import join_as, new_game, receive

from shogiban.web.rates import RateLimiter, ServerLimits, TokenBucket

pytestmark = pytest.mark.timeout(60)

# Refill so slow that no token comes back during a test.
STILL = 1e-9


def test_token_bucket_refills_at_its_rate() -> None:
    bucket = TokenBucket(capacity=3, per_second=2.0)
    assert [bucket.take(10.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(10.4) is False  # 0.8 of a token
    assert bucket.take(10.6) is True
    assert [bucket.take(1000.0) for _ in range(4)] == [True, True, True, False]  # never above capacity
    assert bucket.take(999.0) is False  # time going backwards gives nothing


def test_rate_limiter_forgets_the_least_recent_address() -> None:
    limiter = RateLimiter(capacity=1, per_second=STILL, max_keys=2)
    assert limiter.allow("a", 0.0)
    assert limiter.allow("b", 0.0)
    assert not limiter.allow("a", 0.0)
    assert limiter.allow("c", 0.0)  # "b" is forgotten, "a" was used more recently
    assert not limiter.allow("a", 0.0)
    assert limiter.allow("b", 0.0)


def test_a_flooding_socket_is_refused_then_closed(make_client: Callable[..., TestClient]) -> None:
    client = make_client(limits=ServerLimits(message_burst=4, messages_per_second=STILL, refusals_before_close=3))
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert receive(ws, "state")
        for _ in range(4):
            ws.send_json({"type": "ping"})
            assert receive(ws, "pong") == {"type": "pong", "v": 1}
        for _ in range(3):  # the last refusal is sent before the close frame
            ws.send_json({"type": "ping"})
            assert receive(ws, "error")["code"] == "too_fast"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_new_games_are_limited_per_address(make_client: Callable[..., TestClient]) -> None:
    client = make_client(limits=ServerLimits(game_burst=2, games_per_minute=STILL))
    for _ in range(5):  # refused requests cost nothing
        assert client.post("/api/games", json={"mode": "nonsense"}).status_code == 400
    assert client.post("/api/games", json={"mode": "local"}).status_code == 201
    assert client.post("/api/games", json={"mode": "local"}).status_code == 201
    refused = client.post("/api/games", json={"mode": "local"})
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_fast"


def test_uploads_are_limited_per_address(make_client: Callable[..., TestClient]) -> None:
    client = make_client(limits=ServerLimits(upload_burst=2, uploads_per_minute=STILL))
    for _ in range(2):
        assert client.post("/api/records", json={"text": "position startpos"}).status_code == 200
    refused = client.post("/api/records/export?format=csa", json={"text": "position startpos"})
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_fast"


def test_spectators_per_game_are_capped_but_never_keep_the_players_out(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(limits=ServerLimits(spectators_per_game=2))
    game = new_game(client, mode="local")
    url = f"/ws/games/{game['id']}"
    client.cookies.clear()  # strangers on the public watch link
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        join_as(first, None)
        join_as(second, None)
        with client.websocket_connect(url) as third:
            assert third.receive_json()["code"] == "busy"
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1013
        # The player still gets in, and may play.
        with client.websocket_connect(url, headers={"cookie": f"sb_{game['id']}={game['token']}"}) as player:
            state = join_as(player, game["token"])
            assert state["you"] == "both"
            assert state["can"]["move"]
    with client.websocket_connect(url) as again:  # room again once the others left
        assert join_as(again, None)["type"] == "state"


def test_spectators_per_address_are_capped_across_games(make_client: Callable[..., TestClient]) -> None:
    client = make_client(limits=ServerLimits(spectators_per_address=1))
    games = [new_game(client, mode="local") for _ in range(2)]
    client.cookies.clear()
    with client.websocket_connect(f"/ws/games/{games[0]['id']}") as first:
        join_as(first, None)
        with client.websocket_connect(f"/ws/games/{games[1]['id']}") as second:
            refusal = second.receive_json()
            assert refusal["code"] == "busy"
            assert "address" in refusal["message"]
