"""``shogiban serve --log-format json``: every line a JSON object, with the game's id on the
lines about a game (issue "Several web processes", operations)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.web.live_server import start_server


def test_json_logs_are_one_object_a_line(tmp_path: Path) -> None:
    server = start_server(tmp_path, "--log-format", "json")
    try:
        status, _, _ = server.request("GET", "/api/config")
        assert status == 200
    finally:
        server.stop()
    lines = [line for line in server.log_text().splitlines() if line.strip() and not line.startswith("shogiban:")]
    assert lines
    for line in lines:
        data = json.loads(line)
        assert {"time", "level", "logger", "message"} <= data.keys()
    assert any("/api/config" in json.loads(line)["message"] for line in lines)  # uvicorn's access log too
