"""A computer's move the database refuses is thought again and played once it can be stored: the
game is never left waiting for a move that was lost."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient
from tests.web.conftest import join_as, new_game, play, receive

from shogiban.web import rooms
from shogiban.web.store import GameStore


def test_a_computer_move_the_database_refused_is_played_when_it_can_be_stored(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms, "ENGINE_RETRY_SECONDS", 0.2)
    real = GameStore.append_move
    refused: list[int] = []

    def flaky(self: GameStore, game_id: str, ply: int, *args: Any, **kwargs: Any) -> Any:
        if ply == 2 and not refused:  # the computer's first reply: the database is away once
            refused.append(ply)
            raise OperationalError("INSERT", {}, Exception("server closed the connection"))
        return real(self, game_id, ply, *args, **kwargs)

    monkeypatch.setattr(GameStore, "append_move", flaky)
    game = new_game(client, mode="computer", color="b")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        assert play(ws, "7g7f", 0)["type"] == "move"
        reply = receive(ws, "move")  # thought again after the refusal, then stored
        assert reply["move"]["ply"] == 2
    assert refused == [2]
    state = client.get(f"/api/games/{game['id']}").json()
    assert len(state["moves"]) == 2
