"""Live analysis over ``/ws/analysis``: positions and lines, the viewer's one search, the
server's bounds, and the built-in engine's MultiPV lines from a process of its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Sequence
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import receive

from shogiban import Board
from shogiban.engines.results import InfoDict
from shogiban.engines.score import PovScore, Score
from shogiban.errors import EngineError
from shogiban.move import Move
from shogiban.pieces import Color
from shogiban.web.live_analysis import LiveBusyError, LiveSettings, LiveViewer, live_lines, live_position
from shogiban.web.messages import LiveMessage
from shogiban.web.schema import LiveAnalyse, RequestError


def info(rank: int, cp: int, *moves: str, depth: int = 3) -> InfoDict:
    return {"multipv": rank, "depth": depth, "nodes": 100 * depth, "score": PovScore(Score(cp=cp), Color.WHITE),
            "pv": [Move.from_usi(m) for m in moves]}


def test_a_position_is_a_start_and_legal_moves() -> None:
    board = live_position(None, ["7g7f", "3c3d"])
    assert board.ply == 2
    assert board.turn == Color.BLACK
    with pytest.raises(RequestError) as bad_move:
        live_position(None, ["7g7f", "7g7f"])
    assert bad_move.value.code == "invalid_move"
    assert "move 2" in str(bad_move.value)
    with pytest.raises(RequestError) as bad_sfen:
        live_position("not a position", [])
    assert bad_sfen.value.code == "invalid_sfen"


def test_lines_are_in_sentes_view_and_every_notation() -> None:
    board = live_position(None, ["7g7f"])  # gote to move: the engine's score is gote's
    lines = live_lines(board, [info(1, 50, "3c3d", "2g2f"), info(2, -20, "8c8d", "7g7e")])
    first, second = lines
    assert (first.score_cp, second.score_cp) == (-50, 20)
    assert first.pv == ["3c3d", "2g2f"]
    assert first.forms[0]["japanese"].endswith("３四歩")
    assert first.forms[1]["western"] == "P-2f"
    assert first.win_rate < 0.5 < second.win_rate
    assert second.pv == ["8c8d"]  # the line stops before a move that is not legal (7g7e: no piece there)


class ScriptedSearches:
    """A stand-in engine: yields *script* (lists of infos) with a pause between, then ends."""

    name = "scripted"

    def __init__(self, script: list[list[InfoDict]], pause: float = 0.0, fail: bool = False,
                 busy: bool = False) -> None:
        self.script, self.pause, self.fail, self.busy = script, pause, fail, busy
        self.running = 0
        self.closed = 0
        self.searchmoves: list[Move] = []

    async def search(self, board: Board, lines: int, seconds: float,
                     searchmoves: Sequence[Move] = ()) -> AsyncGenerator[list[InfoDict], None]:
        self.searchmoves = list(searchmoves)
        if self.busy:
            raise LiveBusyError("busy")
        self.running += 1
        try:
            for infos in self.script:
                await asyncio.sleep(self.pause)
                yield infos[:lines]
            if self.fail:
                raise EngineError("the engine died")
        finally:
            self.running -= 1
            self.closed += 1

    async def close(self) -> None:
        pass


def run_viewer(searches: ScriptedSearches, steps: Callable[[LiveViewer], Any]) -> list[LiveMessage]:
    sent: list[LiveMessage] = []

    async def scenario() -> None:
        viewer = LiveViewer({"builtin": searches}, sent.append, LiveSettings())
        await steps(viewer)

    asyncio.run(scenario())
    return sent


def request(number: int = 1, lines: int = 2, moves: tuple[str, ...] = ()) -> LiveAnalyse:
    return LiveAnalyse(type="analyse", id=number, moves=list(moves), lines=lines)


def test_the_viewer_streams_lines_then_says_done() -> None:
    script = [[info(1, 10, "7g7f", depth=d), info(2, 0, "2g2f", depth=d)] for d in (1, 2, 3)]

    async def steps(viewer: LiveViewer) -> None:
        viewer.start(request())
        await asyncio.sleep(0.5)

    sent = run_viewer(ScriptedSearches(script), steps)
    assert sent[-1].status == "done"
    assert sent[-1].id == 1
    assert [line.depth for line in sent[-1].lines] == [3, 3]  # the newest lines, even if not yet sent
    assert all(m.status == "running" for m in sent[:-1])
    assert sent[0].lines[0].pv == ["7g7f"]


def test_a_new_request_stops_the_running_search() -> None:
    searches = ScriptedSearches([[info(1, 10, "7g7f")]] * 100, pause=0.05)

    async def steps(viewer: LiveViewer) -> None:
        viewer.start(request(1))
        await asyncio.sleep(0.2)
        viewer.start(request(2, moves=("7g7f",)))
        await asyncio.sleep(0.2)
        assert searches.running == 1  # one search per viewer
        viewer.stop()
        await asyncio.sleep(0.1)

    sent = run_viewer(searches, steps)
    statuses = [(m.id, m.status) for m in sent if m.status != "running"]
    assert statuses == [(1, "stopped"), (2, "stopped")]
    assert searches.running == 0
    assert searches.closed == 2


def test_busy_failed_and_bad_positions_are_answered() -> None:
    async def steps(viewer: LiveViewer) -> None:
        viewer.start(request(1))
        await asyncio.sleep(0.1)

    assert [(m.status, m.code) for m in run_viewer(ScriptedSearches([], busy=True), steps)] == [("failed", "busy")]
    failing = run_viewer(ScriptedSearches([[info(1, 0, "7g7f")]], fail=True), steps)
    assert (failing[-1].status, failing[-1].code) == ("failed", "engine_error")

    async def bad(viewer: LiveViewer) -> None:
        viewer.start(request(3, moves=("7g7f", "7g7f")))
        await asyncio.sleep(0.1)

    assert [(m.status, m.code) for m in run_viewer(ScriptedSearches([]), bad)] == [("failed", "invalid_move")]


# -- over the websocket, with the built-in engine in a process of its own -------------------------------------


@pytest.fixture
def live_client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(live=LiveSettings(searches=1, seconds=1.5))


def live_messages(ws: Any, number: int) -> list[dict[str, Any]]:
    """The ``live`` messages of request *number* up to its last one (done, stopped or failed)."""
    seen = []
    while True:
        message = receive(ws, ("live", "error"))
        if message["type"] == "error":
            raise AssertionError(message)
        if message["id"] != number:
            continue
        seen.append(message)
        if message["status"] != "running":
            return seen


@pytest.mark.timeout(120)
def test_three_lines_of_the_builtin_engine_stream_and_end(live_client: TestClient) -> None:
    with live_client.websocket_connect("/ws/analysis") as ws:
        ws.send_json({"type": "analyse", "id": 7, "moves": ["7g7f", "3c3d"], "lines": 3})
        messages = live_messages(ws, 7)
    final = messages[-1]
    assert final["status"] == "done"
    assert final["engine"]
    assert [line["multipv"] for line in final["lines"]] == [1, 2, 3]
    assert len({line["pv"][0] for line in final["lines"]}) == 3  # three different first moves
    assert all(line["depth"] >= 1 and line["forms"][0]["usi"] == line["pv"][0] for line in final["lines"])


@pytest.mark.timeout(120)
def test_a_search_stops_when_asked_and_a_second_viewer_is_told_busy(live_client: TestClient) -> None:
    with live_client.websocket_connect("/ws/analysis") as first, live_client.websocket_connect("/ws/analysis") as other:
        first.send_json({"type": "analyse", "id": 1, "lines": 1})
        assert receive(first, "live")["status"] == "running"
        other.send_json({"type": "analyse", "id": 5})
        refused = live_messages(other, 5)[-1]
        assert (refused["status"], refused["code"]) == ("failed", "busy")
        first.send_json({"type": "stop"})
        assert live_messages(first, 1)[-1]["status"] == "stopped"


def test_a_flood_of_requests_is_refused(make_client: Callable[..., TestClient]) -> None:
    client = make_client(live=LiveSettings(searches=1, request_burst=3, requests_per_second=0.01))
    with client.websocket_connect("/ws/analysis") as ws:
        for number in range(6):
            ws.send_json({"type": "stop", "id": number})
        errors = [receive(ws, "error")["code"] for _ in range(3)]
    assert errors == ["too_fast"] * 3


def test_bad_requests_are_refused_with_their_code(make_client: Callable[..., TestClient]) -> None:
    client = make_client(live=LiveSettings(searches=1))
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_text("not json")
        assert receive(ws, "error")["code"] == "bad_json"
        ws.send_json({"type": "analyse", "id": 1, "lines": 6})
        assert receive(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "think"})
        assert receive(ws, "error")["code"] == "unknown_type"
