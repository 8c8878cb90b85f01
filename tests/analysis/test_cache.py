from __future__ import annotations

import sqlite3
from pathlib import Path

from shogiban import Board, Move
from shogiban.analysis import Analyser, Line, SqliteAnalysisCache, cache_key, limit_text
from shogiban.engines import Limit, Score, SimpleEngine
from shogiban.kifu import read_game

from .helpers import CountingEngine


def test_limit_text() -> None:
    assert limit_text(Limit(depth=4)) == "depth 4"
    assert limit_text(Limit(time=0.5)) == "movetime 0.5"
    assert limit_text(Limit(nodes=10000)) == "nodes 10000"
    assert cache_key("e", Limit(depth=4), 1, "x") != cache_key("e", Limit(depth=5), 1, "x")
    assert cache_key("e", Limit(depth=4), 1, "x") != cache_key("e", Limit(depth=4), 2, "x")


def test_the_file_cache_outlives_the_process(tmp_path: Path, engine: SimpleEngine) -> None:
    path = tmp_path / "cache.sqlite"
    game = read_game("+7776FU\n-3334FU\n")
    counting = CountingEngine(engine)
    cache = SqliteAnalysisCache(path)
    first = Analyser(counting, Limit(depth=2), cache=cache).game(game)
    cache.close()
    assert len(counting.calls) == 3
    reopened = SqliteAnalysisCache(path)
    second = Analyser(counting, Limit(depth=2), cache=reopened).game(game)
    assert len(counting.calls) == 3  # all three from the file
    assert reopened.hits == 3
    assert [p for _, p in second.mainline_positions()] == [p for _, p in first.mainline_positions()]
    reopened.close()


def test_a_damaged_entry_is_searched_again(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    cache = SqliteAnalysisCache(path)
    key = cache_key("e", Limit(depth=1), 1, Board().sfen(move_number=False))
    cache.put(key, (Line(Score(cp=3), (Move.from_usi("7g7f"),), 1, 10),))
    cache.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE positions SET lines = 'not json'")
    cache = SqliteAnalysisCache(path)
    assert cache.get(key) is None
    cache.close()


def test_records_marked_done(tmp_path: Path) -> None:
    cache = SqliteAnalysisCache(tmp_path / "c.sqlite")
    assert cache.is_done("k") is None
    cache.mark_done("k", "/out/a.kif")
    assert cache.is_done("k") == "/out/a.kif"
    cache.close()
