"""The main search's pruning tables and heuristics (docs/engine.md, "How it works"): the
late-move reduction table, the history malus, and the compiled search's copy of the table."""

from __future__ import annotations

import random

import pytest

from shogiban import Board
from shogiban.engine import search as search_module
from shogiban.engine.levels import profile
from shogiban.engine.search import _LMR, Searcher, SearchStopped
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
    flat = [r for row in _LMR for r in row]
    args = (SearchStopped, search_module.MAX_PLY, search_module.MATE_BOUND, search_module.PERPETUAL_WIN,
            search_module._SEE_MARGIN, search_module._LATE_MOVES)
    with pytest.raises(ValueError, match=r"64 \* 64"):
        SPEEDUPS.set_search(*args, flat[:-1])
    with pytest.raises(ValueError, match=r"0\.\.127"):
        SPEEDUPS.set_search(*args, [-1, *flat[1:]])
    SPEEDUPS.set_search(*args, flat)
