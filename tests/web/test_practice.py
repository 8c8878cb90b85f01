"""Judging a move tried instead of a mistake (``POST /api/practice/judge``): accepted when the
analysis would not label it against the engine's best move, searched by the live engines."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from starlette.testclient import TestClient
from tests.web.test_live_analysis import ScriptedSearches, info

from shogiban import Board
from shogiban.move import Move
from shogiban.web.live_analysis import LiveSettings
from shogiban.web.practice import judge, loss_of

TRIED, BEST = Move.from_usi("6i7h"), Move.from_usi("2g2f")


def test_the_loss_is_the_best_moves_win_rate_minus_the_tried_ones() -> None:
    lines = [info(1, 100, "2g2f"), info(2, 0, "6i7h")]
    loss = loss_of(lines, TRIED, BEST)
    assert loss is not None
    assert 0.02 < loss < 0.06
    assert loss_of(lines, BEST, TRIED) == 0.0  # never below 0
    assert loss_of([info(1, 100, "2g2f")], TRIED, BEST) is None  # the tried move was not searched


@pytest.mark.parametrize(("tried_cp", "accepted", "label"), [(80, True, None), (-450, False, "mistake"),
                                                            (-3000, False, "blunder")])
def test_a_move_is_accepted_when_the_analysis_would_not_label_it(tried_cp: int, accepted: bool,
                                                                 label: str | None) -> None:
    searches = ScriptedSearches([[info(1, 100, "2g2f"), info(2, tried_cp, "6i7h")]])
    verdict = asyncio.run(judge(searches, Board(), TRIED, BEST))
    assert (verdict["accepted"], verdict["label"]) == (accepted, label)
    assert searches.closed == 1
    assert searches.searchmoves == [TRIED, BEST]  # the two moves alone, searched alike


def test_the_best_move_is_accepted_without_a_search() -> None:
    searches = ScriptedSearches([])
    assert asyncio.run(judge(searches, Board(), BEST, BEST))["accepted"] is True
    assert searches.closed == 0


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(live=LiveSettings(searches=1))


@pytest.mark.timeout(120)
def test_the_engine_refuses_giving_the_bishop_away_and_accepts_a_quiet_move(client: TestClient) -> None:
    position = {"sfen": "startpos", "moves": ["7g7f", "3c3d"]}
    blunder = client.post("/api/practice/judge", json=position | {"usi": "8h3c+", "best": "8h2b+"})
    assert blunder.status_code == 200, blunder.text
    assert blunder.json()["accepted"] is False
    assert blunder.json()["label"] == "blunder"
    same = client.post("/api/practice/judge", json=position | {"usi": "8h2b+", "best": "8h2b+"}).json()
    assert same["accepted"] is True


def test_bad_moves_and_positions_are_refused(client: TestClient) -> None:
    position = {"sfen": "startpos", "moves": ["7g7f"]}
    illegal = client.post("/api/practice/judge", json=position | {"usi": "7g7f", "best": "3c3d"})
    assert illegal.status_code == 400
    assert illegal.json()["code"] == "invalid_move"
    unreadable = client.post("/api/practice/judge", json=position | {"usi": "hello", "best": "3c3d"})
    assert unreadable.status_code == 400
    assert unreadable.json()["type"] == "error"
    bad_start = client.post("/api/practice/judge", json={"sfen": "nonsense", "moves": [], "usi": "7g7f",
                                                          "best": "7g7f"})
    assert bad_start.status_code == 400
    assert bad_start.json()["code"] == "invalid_sfen"
