"""The compiled main search (shogiban._speedups.search, with may_give_check and threatens) does
exactly what Searcher.search does without evaluation noise: whole searches give the same move,
score, principal variation, node count and selective depth either way, at fixed depths and node
limits, with MultiPV, across two searches sharing a table, with game histories that repeat, in
check, where a declaration wins, and when a stop event set from a report stops them.  Without
the accelerator there is nothing to compare (both sides would run the Python search, which the
other files here test), so the module skips: that saved the pure-Python run about 95 s."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest
from tests.engine.positions_support import benchmark_sfens, random_game

from shogiban import Board
from shogiban.engine.levels import profile
from shogiban.engine.movegen import may_give_check
from shogiban.engine.search import Searcher, threatens
from shogiban.engine.timeman import TimePlan
from shogiban.engines.results import InfoDict
from shogiban.position import SPEEDUPS

compiled = pytest.mark.skipif(SPEEDUPS is None, reason="the C accelerator is not built or not used")
pytestmark = compiled

#: Black's king one step from the enemy camp, with 10 pieces there and 28 points: a declaration
#: wins two plies into the search.
DECLARE = "RBGGSS3/9/NNLL5/4K4/9/9/9/9/4k4 b RB2g2s2n2l18p 1"
#: The same for gote (the board turned round).
DECLARE_WHITE = "4K4/9/9/9/9/4k4/5llnn/9/3ssggbr w rb2G2S2N2L18P 1"


def _benchmark_boards(count: int) -> list[Board]:
    return [Board(sfen) for sfen in benchmark_sfens(count)]


def _playout_boards(games: int, seed: int) -> list[Board]:
    """Boards of random games with their histories (checks included), every 15th ply."""
    rng = random.Random(seed)
    return [
        board.copy()
        for _ in range(games)
        for ply, board in random_game(rng, 120, 0.4)
        if (ply % 15 == 14 or (board._in_check() and ply % 3 == 0)) and board._legal_codes()
    ]


def _repeating_boards() -> list[Board]:
    """Games whose histories repeat (rooks and kings shuffling back and forth)."""
    boards = []
    for shuffle in (["2h3h", "8b7b", "3h2h", "7b8b"], ["5i4h", "5a4b", "4h5i", "4b5a"]):
        board = Board()
        for usi in ["7g7f", "3c3d", *shuffle, *shuffle]:
            board.push_usi(usi)
        boards.append(board.copy())
        board.push_usi(shuffle[0])
        boards.append(board.copy())
    return boards


def _searcher(
    board: Board, python: bool, *, depth: int | None = None, nodes: int | None = None, multipv: int = 1,
    tt: dict[int, tuple[int, int, int, int]] | None = None, history: list[int] | None = None, **kwargs: object,
) -> Searcher:
    searcher = Searcher(
        board.copy(), profile(8), {} if tt is None else tt, 1 << 16, [0] * 65536 if history is None else history,
        random.Random(0), plan=TimePlan(None, None), max_depth=depth, max_nodes=nodes,
        stop=kwargs.get("stop"), on_info=kwargs.get("on_info"),  # type: ignore[arg-type]
        clock=kwargs.get("clock", time.perf_counter),  # type: ignore[arg-type]
        multipv=multipv,
    )
    if python:
        searcher.compiled_search = None
    return searcher


def _think(board: Board, python: bool, **kwargs: object) -> tuple[object, ...]:
    searcher = _searcher(board, python, **kwargs)  # type: ignore[arg-type]
    before = board.sfen(), len(board._stack)
    code, score, pv, info = searcher.think(board._legal_codes())
    assert (searcher.pos.sfen(), len(searcher.pos._stack)) == before  # the board is as it was
    return code, score, pv, searcher.nodes, searcher.seldepth, searcher.line_scores, dict(info or {}).get("pv")


def _same(board: Board, **kwargs: object) -> tuple[object, ...]:
    c = _think(board, False, **kwargs)
    assert c == _think(board, True, **kwargs), board.sfen()
    return c


def test_the_positions_include_checks_and_repetitions() -> None:
    boards = _playout_boards(6, 11)
    assert sum(board._in_check() for board in boards) >= 5
    assert all(max(board._rep.values()) > 1 for board in _repeating_boards())


@compiled
def test_may_give_check_and_threatens_match_python() -> None:
    assert SPEEDUPS is not None
    for board in _benchmark_boards(120) + _playout_boards(6, 3):
        for code in board._legal_codes():
            assert SPEEDUPS.may_give_check(board, code) == may_give_check(board, code), (board.sfen(), code)
            if not board._board[code & 127] and not code >> 14:
                assert SPEEDUPS.threatens(board, code) == threatens(board, code), (board.sfen(), code)


@compiled
def test_the_compiled_search_is_used_without_noise() -> None:
    assert _searcher(Board(), False).compiled_search is not None
    noisy = Searcher(
        Board(), profile(1), {}, 1 << 16, [0] * 65536, random.Random(0),
        plan=TimePlan(None, None), max_depth=1, max_nodes=None, stop=None, on_info=None,
    )
    assert noisy.compiled_search is None


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_fixed_depth_searches_match_on_benchmark_positions(depth: int) -> None:
    for board in _benchmark_boards(40 if depth < 4 else 25):
        _same(board, depth=depth)


@pytest.mark.slow  # about a minute: the depth 1-4 comparisons above are the quick check
def test_deeper_searches_match() -> None:
    for board in _benchmark_boards(6):
        _same(board, depth=6)


def test_node_limited_searches_match() -> None:
    for board, nodes in zip(_benchmark_boards(30), itertools.cycle([1, 63, 64, 500, 3001, 12345])):
        _same(board, nodes=nodes)


def test_games_with_history_checks_and_repetitions_match() -> None:
    for board in _playout_boards(6, 11) + _repeating_boards():
        _same(board, depth=4)
        _same(board, nodes=4000)


@pytest.mark.parametrize("sfen", [DECLARE, DECLARE_WHITE])
def test_a_declaration_in_the_tree_matches(sfen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board(sfen)
    assert not board.can_declare_win()
    answers: list[bool] = []
    ask = Searcher._can_declare_after

    def recorded(self: Searcher, path: list[int]) -> bool:
        answer = ask(self, path)
        answers.append(answer)
        return answer

    monkeypatch.setattr(Searcher, "_can_declare_after", recorded)
    _same(board, depth=3)
    _same(board, depth=5)
    _same(board, nodes=3000)
    if SPEEDUPS is not None:
        assert True in answers  # the compiled search asked, and was told both
        assert False in answers


def test_multipv_matches() -> None:
    for board in _benchmark_boards(8):
        _same(board, depth=4, multipv=3)
        _same(board, nodes=5000, multipv=3)


def test_two_searches_sharing_the_table_and_history_match() -> None:
    for board in _benchmark_boards(6):
        results = []
        for python in (False, True):
            tt: dict[int, tuple[int, int, int, int]] = {}
            history = [0] * 65536
            first = _think(board, python, depth=4, tt=tt, history=history)
            second = _think(board, python, depth=5, tt=tt, history=history)
            results.append((first, second, sorted(tt.items()), history))
        assert results[0] == results[1], board.sfen()


def test_a_small_table_is_cleared_the_same_way() -> None:
    for board in _benchmark_boards(4):
        results = []
        for python in (False, True):
            tt: dict[int, tuple[int, int, int, int]] = {}
            searcher = _searcher(board, python, depth=5, tt=tt)
            searcher.tt_limit = 1024
            found = searcher.think(board._legal_codes())[:3]
            results.append((found, searcher.nodes, sorted(tt.items())))
        assert results[0] == results[1]


def test_a_stop_from_a_report_stops_both_at_the_same_node() -> None:
    for board in _benchmark_boards(5):
        results = []
        for python in (False, True):
            stop = threading.Event()
            ticks = itertools.count()
            reports: list[InfoDict] = []

            def on_info(info: InfoDict, stop: threading.Event = stop, reports: list[InfoDict] = reports) -> None:
                reports.append(info)
                if len(reports) >= 4:
                    stop.set()

            def clock(ticks: itertools.count[int] = ticks) -> float:
                return next(ticks) * 0.05

            searcher = _searcher(board, python, depth=30, stop=stop, on_info=on_info, clock=clock)
            found = searcher.think(board._legal_codes())[:3]
            results.append((found, searcher.nodes, searcher.seldepth, [(r.get("nodes"), r.get("pv")) for r in reports]))
        assert results[0] == results[1]
        assert results[0][1] < 10_000_000
