"""What the engine reports while it thinks: the last report is always the line and score of the
move it plays, reports come at least every second, time counts from when the move's clock
started (an injected clock, not wall time), and ``searchmoves`` restricts the root."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator

import pytest

from shogiban import Board, Move
from shogiban.engine import BuiltinSearch
from shogiban.engine.search import INFO_INTERVAL
from shogiban.engines import InfoDict, Limit
from shogiban.usi.server import format_info

#: Positions from real play (the benchmark's), where iterations take many nodes.
POSITIONS = [
    "ln1g3nl/1r1s1kgs1/ppp2p3/3P2p2/2PN1P2P/6P2/PP1+b3+pL/5R3/2S1KGSN1 b 5Pbgl 51",
    "1n2ksb1l/lr1sgg3/pppn2n2/4pBppp/1PP6/P2pPP1PP/6P2/L2SGS1R1/3GK2NL b Pp 35",
    "ln2kg3/1r2gs2l/2p1s1npb/1p1pppp1p/p1P4P1/1P1PP1P1P/P1N2PN2/1B1SGS2L/L2GK2R1 b - 35",
    "9/lg1gkg2+R/n1p1ss3/3pp1p1p/p1P2p1R1/1p1PP1P1P/P1N1GP2L/LS7/B3K4 b BS2N3Pl 89",
]


class FakeClock:
    """A clock that moves *step* seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def _limits() -> Iterator[tuple[str, Limit]]:
    # Node limits stop the search at every stage of an iteration, reproducibly.
    for nodes in range(40, 6000, 331):
        yield f"nodes {nodes}", Limit(nodes=nodes)
    yield "depth 3", Limit(depth=3)
    yield "movetime", Limit(time=0.15)
    yield "byoyomi", Limit(btime=0, wtime=0, byoyomi=0.2)


@pytest.mark.slow
def test_the_last_report_is_the_line_and_score_of_the_move_played() -> None:
    interrupted = 0
    for sfen in POSITIONS:
        engine = BuiltinSearch(8, seed=0)
        for name, limits in _limits():
            infos: list[InfoDict] = []
            result = engine.search(Board(sfen), limits, on_info=infos.append)
            assert infos, name
            last = infos[-1]
            assert last is result.info, f"{name} in {sfen}: the answer's own report did not come last"
            assert last["pv"], name
            assert last["pv"][0] == result.move, f"{name} in {sfen}: last pv {last['pv'][0]} but played {result.move}"
            assert "score" in last, name
            # Completed iterations report depths 1, 2, ...: a deeper last report is from an unfinished one.
            interrupted += last["depth"] > max((info["depth"] for info in infos[:-1]), default=0)
    assert interrupted >= 10  # the interesting case, a move chosen inside an unfinished iteration, was met


def test_a_search_stopped_from_outside_reports_its_answer_last() -> None:
    for sfen in POSITIONS:
        stop = threading.Event()
        infos: list[InfoDict] = []
        timer = threading.Timer(0.2, stop.set)
        timer.start()
        result = BuiltinSearch(8, seed=0).search(Board(sfen), Limit(infinite=True), stop=stop, on_info=infos.append)
        timer.cancel()
        assert infos[-1] is result.info
        assert infos[-1]["pv"][0] == result.move


def test_a_fail_high_answer_is_reported_as_a_lower_bound() -> None:
    """A move that beat the window of an interrupted iteration has only a lower bound for a score;
    its report (and the USI score sent from it) says so."""
    import random

    from shogiban.engine.levels import profile
    from shogiban.engine.search import INF, Searcher
    from shogiban.engine.timeman import TimePlan

    board = Board(POSITIONS[0])
    searcher = Searcher(board.copy(), profile(8), {}, 100_000, [0] * 65536, random.Random(0),
                        plan=TimePlan(None, None), max_depth=None, max_nodes=None, stop=None, on_info=None)
    moves = board._legal_codes()
    exact, _ = searcher.root(moves, 2, -INF, INF)
    assert searcher.partial is not None
    assert not searcher.partial[3]
    searcher.partial = None
    searcher.depth = 2
    score, code = searcher.root(moves, 2, exact - 600, exact - 500)  # the best move fails high at once
    assert score >= exact - 500
    report = searcher._current_info()
    assert report["score"].relative.lowerbound
    assert report["depth"] == 2  # the iteration in progress
    assert report["pv"][0] == Move.from_code(code)
    assert " lowerbound" in format_info(report)  # and the USI score sent from it says so


def test_reports_come_at_least_every_second_in_a_long_think() -> None:
    clock = FakeClock(step=0.05)  # a read every 64 nodes: 20 s of fake time in about 25,000 nodes
    infos: list[InfoDict] = []
    result = BuiltinSearch(8, seed=0, clock=clock).search(Board(POSITIONS[0]), Limit(time=20.0),
                                                   on_info=infos.append)
    times = [0.0] + [info["time"] for info in infos]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert max(gaps) <= INFO_INTERVAL + 0.2, gaps
    assert times[-1] >= 19.0
    assert infos[-1] is result.info
    # Completed iterations report each depth once: a repeated depth is a report from inside one.
    assert len({info["depth"] for info in infos}) < len(infos)


def test_time_counts_from_when_the_moves_clock_started() -> None:
    clock = FakeClock(step=0.001)
    started = clock.now - 0.9  # the server received go 0.9 s ago
    result = BuiltinSearch(8, seed=0, clock=clock).search(Board(POSITIONS[1]), Limit(time=1.0), started=started)
    assert result.info["time"] >= 0.9  # reported from when the clock started
    # The search had what was left of its second, about 60 clock reads, not a whole second's 1,000.
    assert clock.reads < 300, clock.reads
    fresh = FakeClock(step=0.001)
    BuiltinSearch(8, seed=0, clock=fresh).search(Board(POSITIONS[1]), Limit(time=1.0))
    assert fresh.reads > 3 * clock.reads


@pytest.mark.parametrize("level", [1, 8])
def test_searchmoves_restrict_the_root(level: int) -> None:
    board = Board()
    allowed = (Move.from_usi("1g1f"), Move.from_usi("9g9f"))
    for depth in (1, 3):
        result = BuiltinSearch(level, seed=0).search(board, Limit(depth=depth), searchmoves=allowed)
        assert result.move in allowed
        assert result.info["pv"][0] in allowed
    only_illegal = (Move.from_usi("1a1b"), Move.from_usi("5e5d"))
    fallback = BuiltinSearch(level, seed=0).search(board, Limit(depth=1), searchmoves=only_illegal)
    assert fallback.move in board.legal_moves
