"""The engine finds mates in 1 and 3 from the shared tsume corpus (defender with its real hand)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from shogiban import Board
from shogiban.engine import BuiltinSearch
from shogiban.engines import Limit


def _rows(shared_data: Path, prefix: str, length: int, count: int) -> list[tuple[str, str, str]]:
    rows = []
    with (shared_data / "tsume" / "tsume.tsv").open(encoding="utf-8") as handle:
        for row in csv.reader(handle, delimiter="\t"):
            if not row or row[0].startswith("#") or not row[0].startswith(prefix):
                continue
            if row[2] == str(length) and row[5].startswith("mate"):
                rows.append((row[0], row[1], row[3]))
    # Spread the picks over the file: the sets grow harder towards the end.
    step = max(1, len(rows) // count)
    return rows[::step][:count]


def _mates_in_one(board: Board) -> list[str]:
    found = []
    for move in list(board.legal_moves):
        board.push(move)
        if board.is_checkmate():
            found.append(move.usi())
        board.pop()
    return found


def _forces_mate_in_three(board: Board, usi: str) -> bool:
    """Independent check: after *usi*, every reply allows a mate in one."""
    board.push_usi(usi)
    try:
        if not board.is_check():
            return False
        replies = list(board.legal_moves)
        if not replies:
            return True
        for reply in replies:
            board.push(reply)
            ok = bool(_mates_in_one(board))
            board.pop()
            if not ok:
                return False
        return True
    finally:
        board.pop()


@pytest.fixture(scope="module")
def engine() -> BuiltinSearch:
    return BuiltinSearch(level=8, seed=0)


def test_mate_in_one(shared_data: Path, engine: BuiltinSearch) -> None:
    rows = _rows(shared_data, "tanuki-1", 1, 12) + _rows(shared_data, "tsumemi-1te", 1, 4)
    assert len(rows) >= 12
    for ident, sfen, _solution in rows:
        board = Board(sfen)
        engine.new_game()
        result = engine.search(board, Limit(depth=2))
        assert result.move is not None, ident
        assert result.move.usi() in _mates_in_one(board), ident
        assert result.info["score"].relative.mate == 1, ident


@pytest.mark.parametrize("prefix", ["tanuki-3", "tsumemi-3te", "yaneuraou-mate3"])
def test_mate_in_three(shared_data: Path, engine: BuiltinSearch, prefix: str) -> None:
    rows = _rows(shared_data, prefix, 3, 5)
    assert rows
    for ident, sfen, _solution in rows:
        board = Board(sfen)
        engine.new_game()
        result = engine.search(board, Limit(depth=3))
        assert result.move is not None, ident
        assert result.info["score"].relative.mate == 3, (ident, result.info)
        assert _forces_mate_in_three(board, result.move.usi()), (ident, result.move)


def test_real_game_mate_in_five(shared_data: Path, engine: BuiltinSearch) -> None:
    """A mate in 5 from a real game (white to move), within a modest depth."""
    rows = _rows(shared_data, "yaneuraou-mate5", 5, 2)
    for ident, sfen, _solution in rows:
        engine.new_game()
        result = engine.search(Board(sfen), Limit(depth=5))
        assert result.info["score"].relative.mate == 5, (ident, result.info)
