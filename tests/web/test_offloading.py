"""Work that grows with what a client sends runs off the event loop: checking a new game's start
moves, replaying a game into its room, and (see test_uploads) every record read or written."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import join_as, new_game, receive

import shogiban.web.app
from shogiban.web import rooms
from shogiban.web.newgame import NewGame, parse_new_game

pytestmark = pytest.mark.timeout(60)


def record_threads(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {"parse": [], "room": []}

    def parse(data: object, **options: Any) -> NewGame:
        seen["parse"].append(threading.current_thread().name)
        return parse_new_game(data, **options)

    class Room(rooms.GameRoom):
        def __init__(self, *args: Any) -> None:
            seen["room"].append(threading.current_thread().name)
            super().__init__(*args)

    monkeypatch.setattr(shogiban.web.app, "parse_new_game", parse)
    monkeypatch.setattr(rooms, "GameRoom", Room)
    return seen


def test_new_games_are_checked_and_built_off_the_event_loop(client: TestClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    seen = record_threads(monkeypatch)
    loop_thread = client.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
    moves = ["5i4h", "5a4b", "4h5i", "4b5a"] * 2 + ["7g7f"]
    game = new_game(client, mode="local", moves=moves)
    assert seen["parse"]
    assert seen["room"]
    assert all(name.startswith("shogiban-cpu") for name in seen["parse"] + seen["room"]), seen
    assert loop_thread not in seen["parse"] + seen["room"]
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert len(join_as(ws, game["token"])["moves"]) == len(moves)


def test_stored_games_are_replayed_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(client, mode="local", moves=["7g7f", "3c3d"])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json({"type": "resign"})
        receive(ws, "state")
    assert game["id"] not in client.app.state.rooms.rooms  # type: ignore[attr-defined]
    seen = record_threads(monkeypatch)
    assert client.get(f"/api/games/{game['id']}").json()["outcome"]["termination"] == "resignation"
    assert seen["room"]
    assert all(name.startswith("shogiban-cpu") for name in seen["room"]), seen
