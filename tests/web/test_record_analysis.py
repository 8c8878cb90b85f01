"""Analysis of an uploaded record (issue 24): ``POST /api/records/analysis`` keys the record by
the sha256 of its normalised start SFEN and moves, analyses it once in the game analyses' queue,
and answers the stored result at once the next time; bounded, checked, rate-limited."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from starlette.testclient import TestClient
from tests.web.test_game_analysis import SCHEMA, TINY, gated_analysis

from shogiban.web.game_analysis import MAX_POSITIONS, AnalysisSettings, record_key
from shogiban.web.rates import ServerLimits

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: Black's rook goes where a pawn takes it (ply 7) and is taken (ply 8).
BLUNDER = ["3g3f", "3c3d", "3f3e", "3d3e", "2h3h", "8c8d", "3h3f", "3e3f"]
ROUTE = "/api/records/analysis"


def wait_done(client: TestClient, key: str, seconds: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer: dict[str, Any] = client.get(f"{ROUTE}/{key}").json()
        if answer["status"] == "done":
            return answer
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {key} never ended: {answer}")


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["type"] == "error"
    assert response.json()["code"] == code
    assert set(response.json()) == {"type", "code", "message"}


def test_a_record_is_keyed_analysed_once_and_shared(make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    client = make_client(url, analysis=AnalysisSettings(limit=TINY, poll_seconds=0.01))
    # The key is the sha256 of the normalised record: the SFEN as the board writes it.
    key = hashlib.sha256(f"{START}\nmoves {' '.join(BLUNDER)}".encode()).hexdigest()
    assert record_key(START, tuple(BLUNDER)) == key
    started = client.post(ROUTE, json={"sfen": START, "moves": BLUNDER})
    assert started.status_code == 202, started.text
    body = started.json()
    assert body["key"] == key
    assert body["url"] == f"/records/analysis/{key}"
    assert body["status"] in ("queued", "running")
    assert body["start_sfen"] == START
    assert [m["usi"] for m in body["moves"]] == BLUNDER
    assert body["moves"][6]["forms"]["japanese"] == "▲３六飛"
    assert body["moves"][7]["label"] == "△同\u3000歩"
    done = wait_done(client, key)
    result = done["result"]
    jsonschema.validate(result, SCHEMA)
    assert [p["move"] for p in result["positions"]] == [None, *BLUNDER]
    assert result["positions"][7]["label"] == "blunder"
    assert all("best_line" in p for p in result["positions"] if p.get("pv"))
    assert done["moves"] == body["moves"]
    # The same record again (its SFEN written otherwise too): the same key and the stored result, at once.
    again = client.post(ROUTE, json={"sfen": f" sfen {START[:-2]} ", "moves": BLUNDER})
    assert again.status_code == 200
    assert again.json()["key"] == key
    assert again.json()["status"] == "done"
    assert again.json()["result"] == result
    # Another server on the same database: the link works there too.
    other = make_client(url, analysis=AnalysisSettings(limit=TINY))
    assert other.get(f"{ROUTE}/{key}").json()["result"] == result
    page = other.get(f"/records/analysis/{key}")
    assert page.status_code == 200
    assert f'data-record-key="{key}"' in page.text
    # Another record, another key.
    shorter = client.post(ROUTE, json={"sfen": START, "moves": BLUNDER[:6]})
    assert shorter.json()["key"] != key


def test_bad_records_are_refused(make_client: Callable[..., TestClient]) -> None:
    client = make_client(analysis=AnalysisSettings(limit=TINY, max_positions=5))
    refused(client.post(ROUTE, json={"sfen": "not a position", "moves": []}), 400, "invalid_sfen")
    refused(client.post(ROUTE, json={"sfen": START, "moves": ["7g7f", "7g7f"]}), 400, "invalid_move")
    refused(client.post(ROUTE, json={"sfen": START, "moves": ["7g7z"]}), 400, "bad_record")
    refused(client.post(ROUTE, json={"sfen": START, "moves": "7g7f"}), 400, "bad_record")
    refused(client.post(ROUTE, json={"sfen": START}), 400, "bad_record")
    refused(client.post(ROUTE, json={"sfen": START, "moves": [], "extra": 1}), 400, "bad_record")
    refused(client.post(ROUTE, content=b"[1, 2"), 400, "bad_json")
    refused(client.post(ROUTE, json={"sfen": START, "moves": BLUNDER[:5]}), 413, "too_large")  # 6 positions
    refused(client.post(ROUTE, json={"sfen": START, "moves": ["7g7f", "3c3d"] * (MAX_POSITIONS // 2 + 1)}),
            400, "bad_record")  # past any server's bound: refused by the declaration
    refused(client.get(f"{ROUTE}/{'0' * 64}"), 404, "unknown_record")
    refused(client.get(f"{ROUTE}/nothex"), 404, "unknown_record")
    refused(client.delete(f"{ROUTE}/{'0' * 64}"), 404, "unknown_record")
    assert client.get(f"/records/analysis/{'0' * 64}").status_code == 404


def test_analysis_requests_are_rate_limited_per_address(make_client: Callable[..., TestClient]) -> None:
    client = make_client(analysis=AnalysisSettings(limit=TINY),
                         limits=ServerLimits(analysis_burst=2, analyses_per_minute=1e-9))
    for _ in range(2):
        assert client.post(ROUTE, json={"sfen": START, "moves": BLUNDER}).status_code in (200, 202)
    refused(client.post(ROUTE, json={"sfen": START, "moves": BLUNDER}), 429, "too_fast")
    refused(client.post("/api/games/nosuchgame/analysis"), 429, "too_fast")  # games' requests count too


def test_one_analysis_per_record_and_the_queue_limit(
    make_client: Callable[..., TestClient], gate: Path,
) -> None:
    client = make_client(analysis=AnalysisSettings(limit=TINY, run=gated_analysis, max_waiting=1,
                                                   poll_seconds=0.01))
    keys = []
    for count in (8, 7, 6):
        answer = client.post(ROUTE, json={"sfen": START, "moves": BLUNDER[:count]})
        if count == 8:
            assert answer.status_code == 202
            deadline = time.monotonic() + 30
            while client.get(f"{ROUTE}/{answer.json()['key']}").json()["status"] != "running":
                assert time.monotonic() < deadline
                time.sleep(0.02)
            again = client.post(ROUTE, json={"sfen": START, "moves": BLUNDER})
            assert again.status_code == 202
            assert again.json()["status"] == "running"  # the same record: its status, no second job
        elif count == 7:
            assert answer.status_code == 202
            assert answer.json()["status"] == "queued"
        else:
            refused(answer, 503, "busy")
        keys.append(answer.json().get("key"))
    cancelled = client.delete(f"{ROUTE}/{keys[1]}")
    assert cancelled.json()["status"] == "cancelled"
    assert client.get(f"{ROUTE}/{keys[1]}").json()["status"] == "none"
    gate.touch()
    assert wait_done(client, keys[0])["result"]["positions"][7]["label"] == "blunder"


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from tests.web.test_game_analysis import GATE

    path = tmp_path / "gate"
    monkeypatch.setenv(GATE, str(path))
    return path
