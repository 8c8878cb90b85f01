"""MultiPV in the built-in search: n distinct lines, ranked, best first, the last report always
line 1 (the move played), and no move twice when a limit cuts an iteration short."""

from __future__ import annotations

import pytest

from shogiban import Board, Move
from shogiban.engine import MAX_MULTIPV, BuiltinSearch
from shogiban.engine import search as search_module
from shogiban.engines import InfoDict, Limit

POSITIONS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g3nl/1r1s1kgs1/ppp2p3/3P2p2/2PN1P2P/6P2/PP1+b3+pL/5R3/2S1KGSN1 b 5Pbgl 51",
    "9/lg1gkg2+R/n1p1ss3/3pp1p1p/p1P2p1R1/1p1PP1P1P/P1N1GP2L/LS7/B3K4 b BS2N3Pl 89",
]


def latest(infos: list[InfoDict]) -> dict[int, InfoDict]:
    """The last report of each rank."""
    lines: dict[int, InfoDict] = {}
    for info in infos:
        lines[info["multipv"]] = info
    return lines


def value(info: InfoDict) -> int:
    score = info["score"].relative.score(mate_score=100_000)
    assert score is not None
    return score


def frozen_clock() -> float:
    """A clock that never moves: no progress report from inside an iteration (one comes after a
    second of a slow search, and repeats line 1 among the iteration's ranked lines)."""
    return 1000.0


@pytest.mark.parametrize("sfen", POSITIONS)
def test_three_distinct_lines_best_first(sfen: str) -> None:
    board = Board(sfen)
    infos: list[InfoDict] = []
    engine = BuiltinSearch(8, seed=0, clock=frozen_clock)
    result = engine.search(board, Limit(depth=3), multipv=3, on_info=infos.append)
    assert infos[-1] is result.info  # line 1, the move played, comes last
    assert result.info["multipv"] == 1
    assert result.info["pv"][0] == result.move
    assert result.info["nodes"] == max(info["nodes"] for info in infos)  # counting the other lines' searches
    for depth in (1, 2, 3):  # each iteration reports its lines in rank order
        ranks = [info["multipv"] for info in infos[:-1] if info["depth"] == depth]
        assert ranks == [1, 2, 3], (depth, ranks)
    lines = latest(infos)
    assert sorted(lines) == [1, 2, 3]
    firsts = [lines[rank]["pv"][0] for rank in (1, 2, 3)]
    assert len(set(firsts)) == 3
    assert all(board.is_legal(move) for move in firsts)
    assert value(lines[1]) >= value(lines[2]) >= value(lines[3])
    for line in lines.values():  # each line is a legal line
        work = board.copy()
        for move in line["pv"]:
            assert work.is_legal(move), (line, move)
            work.push(move)


def test_no_more_lines_than_moves_and_searchmoves() -> None:
    board = Board("4k4/9/4G4/9/9/9/9/9/4K4 w - 1")  # two legal moves
    infos: list[InfoDict] = []
    BuiltinSearch(8, seed=0).search(board, Limit(depth=2), multipv=5, on_info=infos.append)
    assert sorted(latest(infos)) == [1, 2]
    allowed = (Move.from_usi("1g1f"), Move.from_usi("9g9f"), Move.from_usi("5i5h"))
    infos.clear()
    BuiltinSearch(8, seed=0).search(Board(), Limit(depth=2), multipv=3, searchmoves=allowed, on_info=infos.append)
    assert {line["pv"][0] for line in latest(infos).values()} == set(allowed)


def test_a_stopped_iteration_never_shows_a_move_twice() -> None:
    board = Board(POSITIONS[1])
    met_a_cut = False
    for nodes in range(300, 12_000, 397):  # node limits stop the search at every stage, reproducibly
        infos: list[InfoDict] = []
        result = BuiltinSearch(8, seed=0).search(board, Limit(nodes=nodes), multipv=3, on_info=infos.append)
        assert infos[-1] is result.info
        assert result.info["multipv"] == 1
        lines = latest(infos)
        assert sorted(lines) == list(range(1, len(lines) + 1)), nodes  # ranks without gaps
        firsts = [lines[rank]["pv"][0] for rank in sorted(lines)]
        assert len(set(firsts)) == len(firsts), (nodes, firsts)
        assert firsts[0] == result.move
        met_a_cut |= len({line["depth"] for line in lines.values()}) > 1
    assert met_a_cut  # some answers mixed the cut iteration's lines with the previous ones


def test_one_line_is_the_plain_search() -> None:
    board = Board(POSITIONS[1])
    single: list[InfoDict] = []
    first = BuiltinSearch(8, seed=0).search(board, Limit(depth=3), on_info=single.append)
    again = BuiltinSearch(8, seed=0).search(board, Limit(depth=3), multipv=1)
    assert all("multipv" not in info for info in single)
    assert (again.move, again.info["nodes"]) == (first.move, first.info["nodes"])
    # The second line costs searches of its own: over the positions, not in each (the other
    # windows can also cut a little earlier, as in POSITIONS[1], where two lines took 76 fewer nodes).
    plain = ranked = 0
    for sfen in POSITIONS:
        plain += BuiltinSearch(8, seed=0).search(Board(sfen), Limit(depth=3)).info["nodes"]
        ranked += BuiltinSearch(8, seed=0).search(Board(sfen), Limit(depth=3), multipv=2).info["nodes"]
    assert ranked > plain * 1.1, (ranked, plain)


def test_multipv_is_validated() -> None:
    for bad in (0, MAX_MULTIPV + 1, 2.0):
        with pytest.raises(ValueError, match="multipv"):
            BuiltinSearch(seed=0).search(Board(), Limit(depth=1), multipv=bad)  # type: ignore[arg-type]


def test_a_mate_in_one_line_does_not_cut_the_other_lines_short() -> None:
    # G*5b mates at once; 5i4h does not.  A proven mate ends a one-line search early, but the
    # line of 5i4h must still reach the depth asked for (an analysis compares the two lines).
    board = Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    infos: list[InfoDict] = []
    moves = [Move.from_usi("G*5b"), Move.from_usi("5i4h")]
    BuiltinSearch(8, seed=0).search(board, Limit(depth=5), multipv=2, searchmoves=moves, on_info=infos.append)
    lines = latest(infos)
    assert lines[1]["pv"][0] == moves[0]
    assert lines[1]["score"].relative.mate == 1
    assert lines[2]["pv"][0] == moves[1]
    assert lines[2]["depth"] == 5
    # Alone, the mate needs no more than the plies that prove it.
    (single,) = [BuiltinSearch(8, seed=0).search(board, Limit(depth=5)).info]
    assert single["depth"] < 5


def test_a_lower_line_that_outscores_line_1_becomes_line_1(monkeypatch: pytest.MonkeyPatch) -> None:
    # A move that failed low against line 1's score in the first root search may score more when
    # a later line searches it at full width (the table and the pruning differ): with some
    # evaluations the benchmark position's line 2 scored 4815 under line 1's 4634 at depth 3.
    # Forced here, evaluation-independently: the second line's root search gains 1000.
    real_root = search_module.Searcher.root

    def root(self: search_module.Searcher, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        score, code = real_root(self, moves, depth, alpha, beta)
        return (score + 1000 if self.line == 1 else score), code

    monkeypatch.setattr(search_module.Searcher, "root", root)
    board = Board(POSITIONS[2])
    infos: list[InfoDict] = []
    engine = BuiltinSearch(8, seed=0, clock=frozen_clock)
    result = engine.search(board, Limit(depth=3), multipv=3, on_info=infos.append)
    assert infos[-1] is result.info
    for depth in (1, 2, 3):
        reports = [info for info in infos[:-1] if info["depth"] == depth]
        assert [info["multipv"] for info in reports] == [1, 2, 3], depth  # once each, in rank order
        assert value(reports[0]) >= value(reports[1]) >= value(reports[2]), depth
        assert len({info["pv"][0] for info in reports}) == 3, depth
    lines = latest(infos)
    assert result.move == lines[1]["pv"][0] == result.info["pv"][0]  # line 1 is the move played
    assert value(result.info) == value(lines[1]) > value(lines[2])
