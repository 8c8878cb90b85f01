"""The game page's move box: a move typed in any notation the terminal reads (``７六歩``, ``76歩``,
``同歩``, ``P-7f``, ``+7776FU``, ``歩-76``, ``7g7f``) is read by the server against the position,
and refused with the same words as a USI move (issue 26)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import join_as, new_game, receive

TWO_GOLDS = "4k4/9/3G1G3/9/9/9/9/9/4K4 b - 1"


def typed(ws: Any, text: str, ply: int) -> dict[str, Any]:
    """Send *text* as typed; the ``move`` broadcast or the error."""
    ws.send_json({"type": "move", "text": text, "ply": ply})
    return receive(ws, ("move", "error"))


@pytest.mark.parametrize("first", ["７六歩", "76歩", "P-7f", "+7776FU", "歩-76", "7g7f", "７ｇ７ｆ"])
def test_each_notation_plays_the_move(client: TestClient, first: str) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        assert typed(ws, first, 0)["move"]["usi"] == "7g7f"
        assert typed(ws, "-3334FU", 1)["move"]["usi"] == "3c3d"
        assert typed(ws, "角-22+", 2)["move"]["usi"] == "8h2b+"
        assert typed(ws, "同銀", 3)["move"]["usi"] == "3a2b"


def test_refusals_say_why(client: TestClient) -> None:
    game = new_game(client, mode="local", sfen=TWO_GOLDS)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ambiguous = typed(ws, "５二金", 0)
        assert ambiguous["code"] == "ambiguous_move"
        assert "6c5b" in ambiguous["params"]["candidates"]
        assert "4c5b" in ambiguous["params"]["candidates"]
        assert typed(ws, "hello", 0)["code"] == "invalid_move"
        wrong_side = typed(ws, "-6353KI", 0)
        assert wrong_side["code"] == "wrong_side"  # the rules' refusal, as for a USI move
        assert typed(ws, "５二金右", 0)["move"]["usi"] == "4c5b"


@pytest.mark.parametrize("message", [
    {"type": "move", "ply": 0},
    {"type": "move", "usi": "7g7f", "text": "76歩", "ply": 0},
    {"type": "move", "text": "x" * 41, "ply": 0},
])
def test_a_move_is_usi_or_text(client: TestClient, message: dict[str, Any]) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json(message)
        assert receive(ws, "error")["code"] == "bad_message"
