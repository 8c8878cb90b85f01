"""The main search's pruning tables and heuristics (docs/engine.md, "How it works"): the
late-move reduction table, the history malus, the compiled search's copy of the table, and the
exchange test that reduces or skips losing captures."""

from __future__ import annotations

import random

import pytest

from shogiban import Board, Move
from shogiban.engine import search as search_module
from shogiban.engine.levels import profile
from shogiban.engine.search import _LMR, Searcher, SearchStopped, _exchange
from shogiban.engine.see import see
from shogiban.engine.timeman import TimePlan
from shogiban.position import SPEEDUPS


def test_the_reduction_table_grows_with_depth_and_move_number() -> None:
    assert len(_LMR) == 64
    assert all(len(row) == 64 for row in _LMR)
    assert all(r == 0 for r in _LMR[1])
    assert all(row[1] == 0 for row in _LMR)
    for d in range(1, 64):
        for m in range(1, 64):
            assert _LMR[d][m] >= _LMR[d - 1][m]
            assert _LMR[d][m] >= _LMR[d][m - 1]
            assert 0 <= _LMR[d][m] <= 10
    assert (_LMR[3][3], _LMR[8][10], _LMR[8][60]) == (1, 2, 4)


@pytest.mark.parametrize("python", [False, True])
def test_quiet_moves_that_fail_to_cut_lose_history(python: bool) -> None:
    history = [0] * 65536
    searcher = Searcher(
        Board(), profile(8), {}, 1 << 16, history, random.Random(0),
        plan=TimePlan(None, None), max_depth=5, max_nodes=None, stop=None, on_info=None,
    )
    if python:
        searcher.compiled_search = None
    searcher.think(Board()._legal_codes())
    assert any(v > 0 for v in history)
    assert any(v < 0 for v in history)


@pytest.mark.skipif(SPEEDUPS is None, reason="the C accelerator is not built or not used")
def test_set_search_checks_the_reduction_table() -> None:
    assert SPEEDUPS is not None
    flat = [r for row in _LMR for r in row]
    args = (SearchStopped, search_module.MAX_PLY, search_module.MATE_BOUND, search_module.PERPETUAL_WIN,
            search_module._SEE_MARGIN, search_module._LATE_MOVES)
    with pytest.raises(ValueError, match=r"64 \* 64"):
        SPEEDUPS.set_search(*args, flat[:-1])
    with pytest.raises(ValueError, match=r"0\.\.127"):
        SPEEDUPS.set_search(*args, [-1, *flat[1:]])
    SPEEDUPS.set_search(*args, flat)


@pytest.mark.parametrize(
    ("sfen", "usi", "losing"),
    [
        # A rook taking a pawn a gold defends loses the rook: negative, so reduced or skipped.
        ("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1", "5h5c+", True),
        # Undefended, the same capture wins: 0 (not a losing move).
        ("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1", "5h5c+", False),
        # A pawn taking a rook loses nothing worth the exchange: 0 without playing it out.
        ("4k4/4g4/4r4/4P4/9/9/9/9/4K4 b - 1", "5d5c+", False),
    ],
)
def test_the_main_search_finds_the_losing_captures(sfen: str, usi: str, losing: bool) -> None:
    board = Board(sfen)
    code = Move.from_usi(usi).code
    assert board.is_legal(Move.from_usi(usi))
    value = _exchange(board, code)
    assert (value < 0) == losing
    assert value == 0 or value == see(board, code)
