"""``shogiban analyse --db URL``: each game's analysis stored as the web stores a record's, so the
record viewer shows it at once for the same record (issue 30: batch output to the database)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.commands.test_analyse import GIFT

from shogiban.cli import main
from shogiban.sfen import STARTING_SFEN
from shogiban.web.app import create_app
from shogiban.web.game_analysis import record_key
from shogiban.web.store import GameStore

GIFT_MOVES = ["7g7f", "3c3d", "8h3c+", "2b3c"]


def test_a_folder_analysed_into_the_web_database_is_seen_by_the_record_viewer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "gift.csa").write_text(GIFT)
    (folder / "short.csa").write_text("+7776FU\nT1\n-3334FU\nT1\n%TORYO\n")
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    assert main(["analyse", str(folder), str(tmp_path / "out"), "--depth", "2", "--db", url]) == 0
    capsys.readouterr()
    store = GameStore(url)
    try:
        key = record_key(STARTING_SFEN, tuple(GIFT_MOVES))
        stored = store.load_record(key)
        assert stored is not None
        assert stored.analysis is not None
        assert [p.get("label") for p in stored.analysis.result["positions"][1:]] == [None, None, "blunder", None]
        assert stored.analysis.result["name"] == key
        assert stored.analysis.result["positions"][0]["best_line"]  # each line in every notation, as the server's
        assert store.load_record(record_key(STARTING_SFEN, ("7g7f", "3c3d"))) is not None
    finally:
        store.close()
    # The web server on that database answers the viewer's request with the stored analysis at once.
    with TestClient(create_app(database_url=url, engines=None)) as client:
        answer = client.post("/api/records/analysis", json={"sfen": STARTING_SFEN, "moves": GIFT_MOVES})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "done"
    assert answer.json()["result"]["positions"][3]["label"] == "blunder"


def test_an_unreachable_database_is_said_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--depth", "1", "--db", "nosuchdialect://x"]) == 1
    assert "cannot open the database" in capsys.readouterr().err
    assert not (tmp_path / "gift-analysis.csa").exists()
