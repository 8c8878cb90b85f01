"""Game storage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import postgres_url

from shogiban.web.store import GameStore, StoredGame, default_database_url


def stored(game_id: str = "g1", **changes: Any) -> StoredGame:
    values: dict[str, Any] = {
        "id": game_id, "start_sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "settings": {"mode": "friend"}, "seats": [{"kind": "human"}, {"kind": "human"}], "tokens": ["tb", None],
        "status": "waiting", "clock": {"remaining": [60.0, 60.0], "running": None, "since": None}, "created_at": 5.0,
    }
    values.update(changes)
    return StoredGame(**values)


@pytest.fixture(params=["memory", "file", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "postgresql":
        url = postgres_url()
    else:
        url = "sqlite://" if request.param == "memory" else f"sqlite:///{tmp_path / 'g.sqlite3'}"
    created = GameStore(url)
    yield created
    created.close()


def test_create_load_and_moves(store: GameStore) -> None:
    store.create(stored(moves=[("7g7f", 0)]))
    store.append_move("g1", 2, "3c3d", 1200, {"remaining": [60.0, 58.8]})
    game = store.load("g1")
    assert game is not None
    assert game.moves == [("7g7f", 0), ("3c3d", 1200)]
    assert game.clock == {"remaining": [60.0, 58.8]}
    assert game.tokens == ["tb", None]
    assert store.load("nope") is None


def test_truncate_for_undo(store: GameStore) -> None:
    store.create(stored(moves=[("7g7f", 0), ("3c3d", 0), ("2g2f", 0)]))
    store.update("g1", status="over", outcome={"termination": "checkmate", "winner": "b", "detail": ""})
    store.truncate("g1", 1, {"remaining": [1.0, 2.0]})
    game = store.load("g1")
    assert game is not None
    assert game.moves == [("7g7f", 0)]
    assert game.status == "playing"
    assert game.outcome is None


def test_claim_seat_once_with_the_invitation(store: GameStore) -> None:
    store.create(stored(invite="inv"))
    loaded = store.load("g1")
    assert loaded is not None
    assert loaded.invite == "inv"
    seats = [{"kind": "human"}] * 2
    assert not store.claim_seat("g1", 1, "tw", seats, {"remaining": [60.0, 60.0]}, "wrong")
    assert store.claim_seat("g1", 1, "tw", seats, {"remaining": [60.0, 60.0]}, "inv")
    assert not store.claim_seat("g1", 1, "other", seats, {}, "inv")
    game = store.load("g1")
    assert game is not None
    assert game.tokens == ["tb", "tw"]
    assert game.status == "playing"
    assert game.invite is None


def test_in_progress_and_heartbeat(store: GameStore) -> None:
    store.create(stored("a"))
    store.create(stored("b", status="over"))
    assert store.in_progress() == ["a"]
    assert store.last_heartbeat() is None
    store.heartbeat(10.0)
    store.heartbeat(12.0)
    assert store.last_heartbeat() == 12.0


def test_pause_clocks_touches_running_games_only(store: GameStore) -> None:
    store.create(stored("a", status="playing", clock={"running": 0}))
    store.create(stored("b", status="playing", clock={"running": None}))
    store.create(stored("c", status="over", clock={"running": 1}))
    changed = store.pause_clocks(100.0, 200.0, lambda clock, until, now: {**clock, "paused": [until, now]})
    assert changed == 3 - 1  # "c" is over; "b" is changed too by this transform
    a, c = store.load("a"), store.load("c")
    assert a is not None
    assert c is not None
    assert a.clock["paused"] == [100.0, 200.0]
    assert "paused" not in c.clock


def test_default_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SHOGIBAN_DB", "sqlite:///elsewhere.sqlite3")
    assert default_database_url() == "sqlite:///elsewhere.sqlite3"
    monkeypatch.delenv("SHOGIBAN_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.platform", "linux")
    assert default_database_url() == f"sqlite:///{tmp_path / 'shogiban' / 'shogiban.sqlite3'}"
    assert (tmp_path / "shogiban").is_dir()
