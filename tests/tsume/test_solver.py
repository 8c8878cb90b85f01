"""solve(): results, the tsume conventions, 余詰, limits and bad input.

Positions are either built for these tests or taken from tanuki-tsume-shogi (MIT); the GPL rows of
the shared corpus are exercised in test_corpus.py, which reads them from the shared data.
"""

from __future__ import annotations

import threading

import pytest

from shogiban import Board, Move, ShogibanError
from shogiban.tsume import Alternative, TsumeError, TsumeResult, check_mate_line, solve
from shogiban.tsume.dfpn import DfPn

from .helpers import flip_sfen, flip_usi

# A position where search takes long: a lone king in the middle, a full box for the defender.
HARD = "4k4/9/9/9/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1"
# tanuki-7-10 (MIT): a sound mate in 7.
SEVEN = "7k1/5g2g/4G2G1/8L/9/9/9/9/9 b 2r2b4s4n3l18p 1"


def _solve(sfen: str, **options: object) -> TsumeResult:
    board = Board(sfen, lenient=True)
    result = solve(board, timeout=60, **options)  # type: ignore[arg-type]
    if result.status == "mate":
        problem = check_mate_line(board, result.moves, conventions=bool(options.get("conventions", True)))
        assert problem is None, problem
    return result


def test_mate_in_one() -> None:
    result = _solve("3k5/9/3P5/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    assert result.status == "mate"
    assert result.moves == [Move.from_usi("G*6b")]
    assert result.length == 1
    assert result.unique is True
    assert result.alternatives == []
    assert result.nodes >= 1
    assert result.time >= 0
    assert result.usi() == "G*6b"


def test_mate_in_seven_with_the_longest_defence() -> None:
    result = _solve(SEVEN)
    assert (result.status, result.length, result.unique) == ("mate", 7, True)
    assert result.usi() == "1d1b+ 2a3a 1b2b 3a4a 2c3b 4a5a G*6b"


def test_white_to_move_attacker() -> None:
    result = _solve(flip_sfen(SEVEN))
    assert (result.status, result.length, result.unique) == ("mate", 7, True)
    assert result.usi() == " ".join(flip_usi(u) for u in ["1d1b+", "2a3a", "1b2b", "3a4a", "2c3b", "4a5a", "G*6b"])


def test_the_board_is_left_alone() -> None:
    board = Board(SEVEN)
    board.push_usi("1d1b+")
    board.push_usi("2a3a")
    before = (board.sfen(), board.move_stack)
    assert solve(board, timeout=30).length == 5
    assert (board.sfen(), board.move_stack) == before


@pytest.mark.parametrize(
    ("sfen", "conventional", "plain"),
    [
        # Built here: 1c2b is mate by convention (every drop on the diagonal is futile);
        # counting every interposition takes 13 plies (SPECS g.1's example, turned round).
        ("9/8B/8B/9/9/9/1K7/9/k8 b 2r4g4s4n4l18p 1", 1, 13),
        # tanuki-3-150, -7-137 and -7-156 (MIT): the generator counts futile interpositions.
        ("8k/6S2/9/8B/8L/9/9/9/9 b P2rb4g3s4n3l17p 1", 1, 3),
        ("7k1/6P2/2R4S1/6G2/9/9/9/9/9 b Pr2b3g3s4n4l16p 1", 1, 7),
        ("7Gs/6G2/8k/9/9/9/9/9/3+B5 b S2rb2g2s4n4l18p 1", 3, 7),
    ],
)
def test_conventions_against_plain_rules(sfen: str, conventional: int, plain: int) -> None:
    with_conventions = _solve(sfen)
    without = _solve(sfen, conventions=False)
    assert (with_conventions.status, with_conventions.length) == ("mate", conventional)
    assert (without.status, without.length) == ("mate", plain)
    # The conventional line is no game-rule mate: somewhere a futile interposition was skipped.
    assert check_mate_line(Board(sfen), with_conventions.moves, conventions=False) is not None


def test_last_move_alternatives_are_flagged() -> None:
    # tanuki-7-137: 7c7a+ and 7c7a both mate at once.
    result = _solve("7k1/6P2/2R4S1/6G2/9/9/9/9/9 b Pr2b3g3s4n4l16p 1")
    assert result.length == 1
    assert result.unique is False
    assert [(a.ply, a.move.usi(), a.last_move) for a in result.alternatives] == [(0, "7c7a", True)]
    assert str(result.alternatives[0]) == "ply 1: 7c7a (last move)"


def test_a_cooked_first_move_is_flagged() -> None:
    # tanuki-3-252 (MIT), given as sound with G*2c: but G*1c (guarded by the dragon) leaves only
    # 1b1a, and 2b2a+ mates as well -- a second solution (余詰) on the first move.
    sfen = "9/7Pk/9/7+R1/9/9/9/9/9 b Gr2b3g4s4n4l17p 1"
    result = _solve(sfen)
    assert (result.status, result.length) == ("mate", 3)
    assert result.unique is False
    moves = {result.moves[0].usi()} | {a.move.usi() for a in result.alternatives if a.ply == 0}
    assert moves == {"G*1c", "G*2c"}
    assert all(isinstance(a, Alternative) and not a.last_move for a in result.alternatives if a.ply == 0)
    for first in moves:
        board = Board(sfen)
        board.push_usi(first)
        assert DfPn(board.copy(stack=False), attacker=0).prove_and(2)[0] == 0  # each mates within 3


@pytest.mark.parametrize(
    ("sfen", "line", "alternatives"),
    [
        # tanuki-5-71 (MIT): 1f1e also mates at the end but keeps the captured pawn in hand.
        ("9/6S1P/9/6G1k/9/9/6N2/9/9 b L2r2b3g3s3n3l17p 1", "L*1f P*1e 3b2c 1d1c 3g2e", ["ply 5: 1f1e (last move)"]),
        # tanuki-5-147 (MIT): N*2d on move 3 mates as fast but leaves a piece over at the end.
        ("9/6S1k/9/6N2/9/8N/9/9/9 b NL2r2b4g3sn3l18p 1", "L*1d P*1c 1f2d 1b1a N*2c",
         ["ply 3: N*2d", "ply 5: 1d1c (last move)"]),
    ],
)
def test_lines_without_spare_pieces_are_preferred(sfen: str, line: str, alternatives: list[str]) -> None:
    board = Board(sfen)
    result = solve(board, timeout=60)
    assert result.usi() == line
    assert [str(a) for a in result.alternatives] == alternatives
    for move in result.moves:
        board.push(move)
    assert sum(board.hand(0).values()) == 0


def test_uniqueness_check_can_be_skipped() -> None:
    result = _solve("7k1/6P2/2R4S1/6G2/9/9/9/9/9 b Pr2b3g3s4n4l16p 1", check_unique=False)
    assert (result.status, result.length, result.unique, result.alternatives) == ("mate", 1, None, [])


def test_no_mate_at_all() -> None:
    assert _solve("4k4/9/9/9/9/9/9/9/9 b - 1").status == "nomate"
    # The only mate would be P*9b, an illegal pawn-drop mate (打ち歩詰め).
    assert _solve("k8/2S6/1G7/9/9/9/9/9/9 b P2r2b3g3s4n4l17p 1").status == "nomate"


@pytest.mark.parametrize(
    "sfen",
    [
        "4k4/9/9/9/9/9/9/9/9 b 2G2r2b2g4s4n4l18p 1",
        "4k4/9/9/9/9/9/9/9/3+R5 b 2r2b4g4s4n4l18p 1",
    ],
)
def test_endless_checks_are_no_mate(sfen: str) -> None:
    # Golds or a dragon can check for ever; repetitions count as no mate (perpetual check).
    assert _solve(sfen).status == "nomate"
    assert _solve(sfen, conventions=False).status == "nomate"


def test_length_limit() -> None:
    result = _solve(SEVEN, max_length=5)
    assert result.status == "unknown"
    assert result.moves == []
    assert _solve(SEVEN, max_length=7).length == 7


def test_timeout() -> None:
    result = solve(Board(HARD), timeout=0.3)
    assert result.status == "timeout"
    assert result.moves == []
    assert result.unique is None
    assert result.time < 10  # generous: the machine is shared


def test_stop_event() -> None:
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    try:
        result = solve(Board(HARD), stop=stop)
    finally:
        timer.cancel()
    assert result.status == "timeout"
    assert stop.is_set()


def test_stop_set_in_advance() -> None:
    stop = threading.Event()
    stop.set()
    result = solve(Board(HARD), stop=stop)
    assert result.status == "timeout"
    assert result.nodes < 1000


def test_a_mate_found_before_the_stop_is_polled_is_still_answered() -> None:
    # The mate is proven within the first few nodes, before the stop event is looked at; the line
    # then comes from the table at once, and the 余詰 search is skipped.
    stop = threading.Event()
    stop.set()
    board = Board(SEVEN)
    result = solve(board, stop=stop)
    assert (result.status, result.length, result.unique) == ("mate", 7, None)
    assert check_mate_line(board, result.moves) is None


def test_node_budget() -> None:
    result = solve(Board(HARD), max_nodes=300)
    assert result.status == "unknown"
    assert 300 <= result.nodes < 1000


@pytest.mark.parametrize(
    ("sfen", "message"),
    [
        ("9/9/9/9/4K4/9/9/9/9 b 2R 1", "no king to mate"),
        ("4k4/9/9/9/9/9/9/9/4R4 b - 1", "already in check"),
    ],
)
def test_bad_positions(sfen: str, message: str) -> None:
    with pytest.raises(TsumeError, match=message) as caught:
        solve(Board(sfen, lenient=True))
    assert isinstance(caught.value, ShogibanError)
    assert isinstance(caught.value, ValueError)
    assert repr(Board(sfen, lenient=True).sfen()) in str(caught.value)
