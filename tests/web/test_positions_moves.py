"""``POST /api/positions/moves``: the legal moves of any position (the analysis board's
exploration), in the game websocket's shape, with every notation; bad bodies refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from shogiban import Board
from shogiban.notation.forms import move_forms
from shogiban.web.editor import routes
from shogiban.web.rooms import legal_destinations
from shogiban.web.routing import exception_handlers
from shogiban.web.schema import MAX_POSITION_MOVES

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(Starlette(routes=routes, exception_handlers=exception_handlers())) as started:
        yield started


def moves_of(client: TestClient, body: Any) -> dict[str, Any]:
    response = client.post("/api/positions/moves", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_the_start_position_has_its_thirty_moves(client: TestClient) -> None:
    answer = moves_of(client, {"sfen": START})
    assert answer["sfen"] == START
    assert answer["turn"] == "b"
    assert answer["last_move"] is None
    assert answer["dests"]["7g"] == ["7f"]
    assert answer["drop_dests"] == {}
    assert sum(len(targets) for targets in answer["dests"].values()) == 30
    assert len(answer["moves"]) == 30
    assert answer["moves"]["7g7f"] == move_forms(Board(), Board().parse_usi("7g7f"))


def test_after_moves_the_answer_matches_the_game_websockets_shape(client: TestClient) -> None:
    answer = moves_of(client, {"sfen": START, "moves": ["7g7f", "3c3d", "8h2b+", "3a2b"]})
    board = Board()
    for usi in ("7g7f", "3c3d", "8h2b+", "3a2b"):
        board.push(board.parse_usi(usi))
    dests, drops = legal_destinations(board)
    assert (answer["dests"], answer["drop_dests"]) == (dests, drops)
    assert answer["drop_dests"]["B"]  # the captured bishop may be dropped
    assert answer["last_move"] == "3a2b"
    assert answer["turn"] == "b"
    assert answer["sfen"] == board.sfen()
    assert answer["moves"]["B*5e"]["usi"] == "B*5e"
    assert set(answer["moves"]) == {move.usi() for move in board.legal_moves}


def test_optional_and_forced_promotions_are_told_as_the_board_reads_them(client: TestClient) -> None:
    answer = moves_of(client, {"sfen": "4k4/9/9/2P6/9/9/9/9/4K4 b - 1"})
    assert answer["dests"]["7d"] == ["7c+", "7c"]
    forced = moves_of(client, {"sfen": "4k4/2P6/9/9/9/9/9/9/4K4 b - 1"})
    assert forced["dests"]["7b"] == ["7a+"]


def test_a_mated_position_has_no_moves(client: TestClient) -> None:
    answer = moves_of(client, {"sfen": "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"})
    assert answer["check"] is True
    assert answer["dests"] == {}
    assert answer["drop_dests"] == {}


@pytest.mark.parametrize(("body", "code"), [
    ({"sfen": "not a position"}, "invalid_position"),
    ({"sfen": START, "moves": ["7g7e"]}, "invalid_position"),
    ({"sfen": START, "moves": ["7g7f", "7g7f"]}, "invalid_position"),
    ({"sfen": START, "moves": ["hello"]}, "invalid_position"),
    ({"sfen": START, "moves": "7g7f"}, "invalid_position"),
    ({"sfen": START, "moves": ["7g7f"] * (MAX_POSITION_MOVES + 1)}, "invalid_position"),
    ({"sfen": START, "extra": 1}, "invalid_position"),
    ({"moves": []}, "invalid_position"),
    ({"sfen": 3}, "invalid_position"),
    ([START], "invalid_position"),
])
def test_bad_bodies_are_refused_with_a_code(client: TestClient, body: Any, code: str) -> None:
    response = client.post("/api/positions/moves", json=body)
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["type"] == "error"
    assert answer["code"] == code
    assert answer["message"]


def test_text_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post("/api/positions/moves", content=b"{", headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_json"
