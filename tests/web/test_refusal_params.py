"""A refusal reaches the browser with its parameters (issue "One player, one stored game state",
bug 3): the page can name the file of a 二歩 and the squares of a bad move."""

from __future__ import annotations

from starlette.testclient import TestClient
from tests.web.conftest import join_as, new_game, receive

#: Sente has a pawn on 5g and one in hand.
NIFU = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1"


def test_a_refused_move_carries_the_rules_parameters(client: TestClient) -> None:
    game = new_game(client, mode="local", sfen=NIFU)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json({"type": "move", "usi": "P*5e", "ply": 0})
        refused = receive(ws, "error")
        assert refused["code"] == "nifu"
        assert refused["params"] == {"square": "5e", "piece": 1, "file": 5, "usi": "P*5e"}
        ws.send_json({"type": "move", "usi": "5i4g", "ply": 0})
        bad = receive(ws, "error")
        assert bad["code"] == "bad_piece_move"
        assert bad["params"]["from_square"] == "5i"
        assert bad["params"]["square"] == "4g"


def test_a_refused_declaration_names_its_condition(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json({"type": "declare", "ply": 0})
        refused = receive(ws, "error")
        assert refused["code"] == "cannot_declare"
        assert refused["params"]["reason"] == "king_not_in_camp"
