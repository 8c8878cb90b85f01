"""Take-backs between friends (待った): one asks, the other agrees or refuses; a move answers a
request too; a waiting request is stored with the game (issue 26)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from tests.web.conftest import invite_of, join_as, new_game, play, receive


def friends(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A friends' game both have joined: (id, sente's token, gote's token)."""
    game = new_game(client, mode="friend", color="b", **body)
    joined = client.post(f"/api/games/{game['id']}/join", json={"invite": invite_of(game)})
    assert joined.status_code == 200
    client.cookies.clear()
    return game["id"], game["token"], joined.json()["token"]


def state(ws: Any) -> dict[str, Any]:
    return receive(ws, "state")


def test_asked_then_agreed(client: TestClient) -> None:
    game_id, black, white = friends(client, time={"main": 600})
    with client.websocket_connect(f"/ws/games/{game_id}") as b, client.websocket_connect(f"/ws/games/{game_id}") as w:
        join_as(b, black)
        join_as(w, white)
        assert play(b, "7g7f", 0)["type"] == "move"
        receive(w, "move")
        b.send_json({"type": "undo", "ply": 1})
        asked = state(w)
        assert asked["takeback_offer"] == "b"
        assert asked["can"]["undo"] is True  # gote may agree ...
        assert asked["can"]["decline_undo"] is True  # ... or refuse
        assert len(asked["moves"]) == 1  # nothing taken back yet
        mine = state(b)
        assert mine["takeback_offer"] == "b"
        b.send_json({"type": "undo", "ply": 1})
        assert receive(b, "error")["code"] == "busy"  # it waits for the opponent
        w.send_json({"type": "undo", "ply": 1})
        agreed = state(w)
        assert agreed["moves"] == []
        assert agreed["takeback_offer"] is None
        assert agreed["clock"]["running"] == "b"  # sente's turn begins again


def test_refused_withdrawn_or_answered_by_a_move(client: TestClient) -> None:
    game_id, black, white = friends(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as b, client.websocket_connect(f"/ws/games/{game_id}") as w:
        join_as(b, black)
        join_as(w, white)
        play(b, "7g7f", 0)
        receive(w, "move")
        b.send_json({"type": "undo", "ply": 1})
        state(w)
        state(b)
        w.send_json({"type": "decline_undo"})
        refused = state(b)
        assert refused["takeback_offer"] is None
        assert len(refused["moves"]) == 1
        w.send_json({"type": "decline_undo"})
        assert receive(w, "error")["code"] == "nothing_to_decline"
        b.send_json({"type": "undo", "ply": 1})
        state(w)
        assert play(w, "3c3d", 1)["type"] == "move"  # a move answers it: no take-back
        assert state_of_game(client, game_id)["takeback_offer"] is None


def state_of_game(client: TestClient, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return answer


def test_a_waiting_request_survives_a_restart(make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = make_client(database_url=url)
    game_id, black, white = friends(first)
    with first.websocket_connect(f"/ws/games/{game_id}") as b:
        join_as(b, black)
        play(b, "7g7f", 0)
        b.send_json({"type": "undo", "ply": 1})
        assert state(b)["takeback_offer"] == "b"
    first.__exit__(None, None, None)
    second = make_client(database_url=url)
    with second.websocket_connect(f"/ws/games/{game_id}") as w:
        after = join_as(w, white)
        assert after["takeback_offer"] == "b"
        w.send_json({"type": "undo", "ply": 1})
        assert state(w)["moves"] == []
