"""The position editor's endpoints: every problem a position can have, with its code and what it
names; solving; refusals of bad bodies."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from shogiban import Board
from shogiban.board import position_problems
from shogiban.web.editor import routes, solver_pool
from shogiban.web.rates import ConcurrencyLimit, ServerLimits


@contextlib.asynccontextmanager
async def with_solver(app: Starlette) -> AsyncIterator[None]:
    app.state.solver = solver_pool(ServerLimits())
    app.state.solving = ConcurrencyLimit(1)
    try:
        yield
    finally:
        await app.state.solver.close()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(Starlette(routes=routes, lifespan=with_solver)) as started:
        yield started


def check(client: TestClient, sfen: str) -> dict[str, Any]:
    response = client.post("/api/positions/check", json={"sfen": sfen})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize(("sfen", "codes", "params"), [
    ("4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1", ["two_pawns"], {"side": 0, "file": 5}),
    ("4k3N/9/9/9/9/9/9/9/4K4 b - 1", ["dead_piece"], {"piece": 3, "square": "1a", "side": 0}),
    ("4k4/9/9/9/9/9/9/9/4K3l w - 1", ["dead_piece"], {"piece": 2, "square": "1i", "side": 1}),
    ("4k4/9/9/9/9/9/9/9/K3K4 b - 1", ["two_kings", "too_many_pieces"], {"side": 0}),
    ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", ["too_many_pieces"], {"piece": 1, "count": 19, "most": 18}),
    ("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", ["not_to_move_in_check"], {"side": 1}),
])
def test_each_problem_is_named_with_its_code(client: TestClient, sfen: str, codes: list[str],
                                             params: dict[str, Any]) -> None:
    answer = check(client, sfen)
    assert [p["code"] for p in answer["problems"]] == codes
    assert answer["problems"][0]["params"] == params
    assert answer["playable"] is False


def test_every_problem_is_listed_not_only_the_first() -> None:
    board = Board("4k3N/9/9/9/9/4P4/4P4/9/4K4 b 19P 1", lenient=True)
    assert [p.code for p in position_problems(board)] == ["dead_piece", "two_pawns", "too_many_pieces"]


def test_a_sound_position_is_playable_and_normalised(client: TestClient) -> None:
    answer = check(client, "4k4/9/9/9/9/9/9/9/4K4 b RB 7")
    assert answer["problems"] == []
    assert answer["playable"] is True
    assert answer["sfen"] == Board("4k4/9/9/9/9/9/9/9/4K4 b RB 7").sfen()
    # Without gote's king: sound for tsume, but no game can start.
    tsume = check(client, "3k5/9/3P5/9/9/9/9/9/9 b G 1")
    assert tsume["problems"] == []
    assert tsume["kings"] == {"b": False, "w": True}
    assert tsume["playable"] is False


def test_solve_as_tsume(client: TestClient) -> None:
    answer = client.post("/api/positions/solve", json={"sfen": "3k5/9/3P5/9/9/9/9/9/9 b G 1"}).json()
    assert answer["status"] == "mate"
    assert answer["length"] == 1
    assert [s["usi"] for s in answer["steps"]] == ["G*6b"]
    assert answer["steps"][0]["forms"]["japanese"] == "▲６二金"  # no 打: no gold on the board could go there
    refused = client.post("/api/positions/solve", json={"sfen": "4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1"})
    assert refused.status_code == 400
    assert refused.json()["code"] == "two_pawns"


@pytest.mark.parametrize("body", [
    {"sfen": "not a position"}, {"sfen": "x" * 201}, {"sfen": 5}, {},
    {"sfen": "9/9/9/9/9/9/9/9/9 b - 1", "defender_hand": 1},
])
def test_bad_bodies_are_refused_with_the_usual_error(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/positions/check", json=body)
    assert response.status_code == 400
    error = response.json()
    assert error["type"] == "error"
    assert error["code"] == "invalid_sfen"
