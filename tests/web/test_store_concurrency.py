"""Two server processes on one database can never both store a move for the same ply
(optimistic concurrency on the game's ply; issue "Several web processes", first part)."""

from __future__ import annotations

import threading

import pytest

from shogiban.sfen import STARTING_SFEN
from shogiban.web.store import GameStore, StaleGameError, StoredGame


def _game(store: GameStore, game_id: str = "race") -> None:
    store.create(StoredGame(id=game_id, start_sfen=STARTING_SFEN, settings={"mode": "local"},
                            seats=[{"kind": "human"}, {"kind": "human"}], tokens=["t", None], status="playing",
                            clock={}, created_at=0.0))


def test_of_two_stores_racing_for_one_ply_exactly_one_wins(durable_url: str) -> None:
    first, second = GameStore(durable_url), GameStore(durable_url)
    try:
        _game(first)
        first.append_move("race", 1, "7g7f", 100, {})
        with pytest.raises(StaleGameError):
            second.append_move("race", 1, "2g2f", 100, {})
        with pytest.raises(StaleGameError):
            second.append_move("race", 3, "2g2f", 100, {})  # a ply that does not follow
        second.append_move("race", 2, "3c3d", 100, {})
        assert first.load("race").moves == [("7g7f", 100), ("3c3d", 100)]  # type: ignore[union-attr]
    finally:
        first.close()
        second.close()


def test_threads_racing_for_the_same_ply(durable_url: str) -> None:
    stores = [GameStore(durable_url) for _ in range(4)]
    try:
        _game(stores[0], "threads")
        won: list[str] = []
        lost: list[str] = []
        start = threading.Barrier(len(stores))

        def play(store: GameStore, usi: str) -> None:
            start.wait()
            try:
                store.append_move("threads", 1, usi, 10, {})
                won.append(usi)
            except StaleGameError:
                lost.append(usi)

        threads = [threading.Thread(target=play, args=(store, usi))
                   for store, usi in zip(stores, ("7g7f", "2g2f", "5g5f", "1g1f"), strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(won) == 1
        assert len(lost) == 3
        assert stores[0].load("threads").moves == [(won[0], 10)]  # type: ignore[union-attr]
    finally:
        for store in stores:
            store.close()


def test_a_game_is_ended_once(durable_url: str) -> None:
    # Two processes that both see a clock run out (or an engine fail) store the end once.
    first, second = GameStore(durable_url), GameStore(durable_url)
    try:
        _game(first, "ends")
        first.append_move("ends", 1, "7g7f", 100, {})
        first.update("ends", at_ply=1, status="over", outcome={"termination": "time_forfeit"})
        with pytest.raises(StaleGameError):
            second.update("ends", at_ply=1, status="over", outcome={"termination": "resignation"})
        with pytest.raises(StaleGameError):
            second.update("ends", at_ply=0, status="over", outcome={"termination": "resignation"})
        assert first.load("ends").outcome == {"termination": "time_forfeit"}  # type: ignore[union-attr]
    finally:
        first.close()
        second.close()
