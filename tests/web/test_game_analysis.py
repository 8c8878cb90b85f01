"""Whole-game analysis of finished games on the server (issue 24): queued, run in a worker
process, its progress pushed to the game's websocket, cancellable, one per game, bounded, and
stored with the game."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from tests.web.conftest import join_as, new_game, play, receive

from shogiban.engines.limit import Limit
from shogiban.web.game_analysis import (
    AnalysisJob,
    AnalysisOutcome,
    AnalysisSettings,
    cancel_requested,
    report_progress,
    run_analysis,
)

SCHEMA = json.loads((Path(__file__).parents[2] / "src/shogiban/analysis/analysis.schema.json").read_text("utf-8"))
#: The stand-in worker below waits (burning CPU) until this file exists.
GATE = "SHOGIBAN_TEST_ANALYSIS_GATE"
TINY = Limit(depth=1)
MOVES = ("7g7f", "3c3d", "2g2f", "8c8d")


def gated_analysis(job: AnalysisJob) -> AnalysisOutcome:
    """The real analysis, after the gate file opens: meanwhile it burns CPU, reports progress 0
    and stops when cancelled.  Each call is noted in ``<gate>.calls``."""
    gate = Path(os.environ[GATE])
    with open(f"{gate}.calls", "a", encoding="utf-8") as calls:
        calls.write(f"{job.game_id}\n")
    total = len(job.moves) + 1
    while not gate.exists():
        report_progress(job.job_id, 0, total)
        if cancel_requested(job.job_id):
            return AnalysisOutcome("stand-in", "depth 1", {}, cancelled=True)
        deadline = time.monotonic() + 0.05
        while time.monotonic() < deadline:
            pass  # a busy engine, not a sleeping one: the server must still answer moves
    return run_analysis(job)


def finished_game(client: TestClient) -> str:
    """A local game of a few moves, resigned."""
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for ply, usi in enumerate(MOVES):
            assert play(ws, usi, ply)["type"] == "move"
        ws.send_json({"type": "resign"})
        assert receive(ws, "state")["outcome"] is not None
    game_id: str = game["id"]
    return game_id


def wait_status(client: TestClient, game_id: str, wanted: str, seconds: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer: dict[str, Any] = client.get(f"/api/games/{game_id}/analysis").json()
        if answer["status"] == wanted:
            return answer
        time.sleep(0.05)
    raise AssertionError(f"analysis of {game_id} never {wanted}: {answer}")


def analysis_messages(ws: WebSocketTestSession, until: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for _ in range(200):
        message = receive(ws, "analysis")
        seen.append(message)
        if message["status"] == until:
            return seen
    raise AssertionError(f"no {until} analysis message: {seen}")


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The gate of :func:`gated_analysis` (the worker is spawned later, so it sees it)."""
    path = tmp_path / "gate"
    monkeypatch.setenv(GATE, str(path))
    return path


def test_a_finished_game_is_analysed_with_progress_and_stored(
    make_client: Callable[..., TestClient], tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    client = make_client(url, analysis=AnalysisSettings(limit=TINY, poll_seconds=0.01))
    game_id = finished_game(client)
    assert client.get(f"/api/games/{game_id}/analysis").json() == {"status": "none"}
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws, "state")
        started = client.post(f"/api/games/{game_id}/analysis")
        assert started.status_code == 202, started.text
        assert started.json()["status"] in ("queued", "running")
        messages = analysis_messages(ws, "done")
    assert all(m["v"] == 1 for m in messages)
    assert all(m["total"] == len(MOVES) + 1 for m in messages)
    assert [m["done"] for m in messages] == sorted(m["done"] for m in messages)  # progress only goes on
    done = messages[-1]
    assert done["done"] == done["total"]
    result = done["result"]
    jsonschema.validate(result, SCHEMA)
    assert [p["move"] for p in result["positions"]] == [None, *MOVES]
    assert result["limit"] == "depth 1"
    assert result["cancelled"] is False
    # Stored with the game: GET, another POST, and a second server on the same database see it at once.
    assert client.get(f"/api/games/{game_id}/analysis").json()["result"] == result
    again = client.post(f"/api/games/{game_id}/analysis")
    assert again.status_code == 200
    assert again.json()["status"] == "done"
    assert again.json()["result"] == result
    other = make_client(url, analysis=AnalysisSettings(limit=TINY))
    seen = other.get(f"/api/games/{game_id}/analysis").json()
    assert seen["status"] == "done"
    assert seen["result"] == result
    jsonschema.validate(seen["result"], SCHEMA)


def test_a_running_or_unknown_game_is_refused(client: TestClient) -> None:
    game = new_game(client, mode="local")
    refused = client.post(f"/api/games/{game['id']}/analysis")
    assert refused.status_code == 409
    assert refused.json()["type"] == "error"
    assert refused.json()["code"] == "game_not_over"
    for method in ("POST", "GET", "DELETE"):
        unknown = client.request(method, "/api/games/nosuchgame/analysis")
        assert unknown.status_code == 404, (method, unknown.text)
        assert unknown.json()["code"] == "unknown_game"
        assert set(unknown.json()) == {"type", "code", "message"}


def test_a_running_analysis_can_be_cancelled(make_client: Callable[..., TestClient], gate: Path) -> None:
    client = make_client(analysis=AnalysisSettings(limit=TINY, run=gated_analysis, poll_seconds=0.01))
    game_id = finished_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws, "state")
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        assert analysis_messages(ws, "running")[-1]["total"] == len(MOVES) + 1
        cancelled = client.delete(f"/api/games/{game_id}/analysis")
        assert cancelled.status_code == 200
        assert cancelled.json()["status"] == "cancelled"
        assert analysis_messages(ws, "cancelled")
    assert client.get(f"/api/games/{game_id}/analysis").json() == {"status": "none"}
    assert client.delete(f"/api/games/{game_id}/analysis").json() == {"status": "none"}
    # The worker stopped: a new request runs (and the gate now lets it finish).
    gate.touch()
    assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
    assert wait_status(client, game_id, "done")["result"]["cancelled"] is False


def test_one_analysis_per_game_and_a_bounded_queue(make_client: Callable[..., TestClient], gate: Path) -> None:
    client = make_client(analysis=AnalysisSettings(limit=TINY, run=gated_analysis, max_waiting=1,
                                                   poll_seconds=0.01))
    first, second, third = (finished_game(client) for _ in range(3))
    assert client.post(f"/api/games/{first}/analysis").status_code == 202
    wait_status(client, first, "running")
    again = client.post(f"/api/games/{first}/analysis")  # the same game again: its status, no second job
    assert again.status_code == 202
    assert again.json()["status"] == "running"
    queued = client.post(f"/api/games/{second}/analysis")
    assert queued.status_code == 202
    assert queued.json()["status"] == "queued"
    busy = client.post(f"/api/games/{third}/analysis")
    assert busy.status_code == 503
    assert busy.json()["code"] == "busy"
    gate.touch()
    wait_status(client, first, "done")
    wait_status(client, second, "done")
    assert Path(f"{gate}.calls").read_text("utf-8").split() == [first, second]


def test_an_analysis_never_holds_up_the_moves_of_another_game(
    make_client: Callable[..., TestClient], gate: Path,
) -> None:
    client = make_client(analysis=AnalysisSettings(limit=TINY, run=gated_analysis, poll_seconds=0.01))
    analysed = finished_game(client)
    assert client.post(f"/api/games/{analysed}/analysis").status_code == 202
    wait_status(client, analysed, "running")
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        started = time.monotonic()
        for ply, usi in enumerate(MOVES):
            assert play(ws, usi, ply)["type"] == "move"
        assert time.monotonic() - started < 5.0
    assert client.get(f"/api/games/{analysed}/analysis").json()["status"] == "running"  # still at it
    gate.touch()
    wait_status(client, analysed, "done")


def without_best_lines(result: dict[str, Any]) -> dict[str, Any]:
    """*result* without the server's one addition (each position's ``best_line``)."""
    positions = [{k: v for k, v in p.items() if k != "best_line"} for p in result["positions"]]
    return result | {"positions": positions}


def test_the_stored_result_is_analyse_json_with_best_lines_in_every_notation(
    make_client: Callable[..., TestClient], tmp_path: Path,
) -> None:
    import subprocess
    import sys

    from shogiban import Board
    from shogiban.notation.forms import move_forms
    from shogiban.web.game_analysis import MAX_LINE_FORMS

    client = make_client(analysis=AnalysisSettings(limit=Limit(depth=2), poll_seconds=0.01))
    game_id = finished_game(client)
    assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
    result = wait_status(client, game_id, "done")["result"]
    jsonschema.validate(result, SCHEMA)
    start = client.get(f"/api/games/{game_id}").json()["game"]["start_sfen"]
    # Each best line: its first moves (at most MAX_LINE_FORMS) as the room gives played moves.
    board = Board(start)
    lines = 0
    for entry in result["positions"]:
        if entry["ply"]:
            board.push_usi(MOVES[entry["ply"] - 1])
        if not entry.get("pv"):
            continue
        line = entry["best_line"]
        assert 1 <= len(line) <= MAX_LINE_FORMS
        assert [step["usi"] for step in line] == entry["pv"][:MAX_LINE_FORMS]
        after = board.copy()
        for step in line:
            move = after.parse_usi(step["usi"])
            assert step == move_forms(after, move)
            after.push(move)
        lines += 1
    assert lines == len(MOVES) + 1
    # Without them it is `shogiban analyse --json` on the same game and limit (named by its file).
    record = tmp_path / "game.sfen"
    record.write_text(f"position sfen {start} moves {' '.join(MOVES)}\n", encoding="utf-8")
    command = [sys.executable, "-m", "shogiban", "analyse", str(record), "--json", "--depth", "2", "--no-cache"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    cli = json.loads(done.stdout.splitlines()[0])
    assert without_best_lines(result) == cli | {"name": game_id}
