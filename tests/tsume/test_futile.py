"""Futile interpositions (無駄合): which defender drops stop counting under the tsume conventions."""

from __future__ import annotations

from shogiban import Board
from shogiban.move import MOVES
from shogiban.tsume.futile import evasion_codes, is_futile_drop, is_mated, king_has_flight


def _usi(codes: list[int]) -> set[str]:
    return {MOVES[c].usi() for c in codes}  # type: ignore[union-attr]


def _after(sfen: str, *moves: str) -> Board:
    board = Board(sfen, lenient=True)
    for usi in moves:
        board.push_usi(usi)
    return board


def test_chain_of_futile_drops_is_mate() -> None:
    # 1c2b: every drop on 3c..8h is taken by the bishop, and the last one next to the king is mate
    # (the bishop on 1b guards 8i, the king on 8g guards the rest).
    board = _after("9/8B/8B/9/9/9/1K7/9/k8 b 2r4g4s4n4l18p 1", "1c2b")
    assert is_mated(board, conventions=True)
    assert not is_mated(board, conventions=False)
    plain = _usi(board._legal_codes())
    assert {"P*3c", "G*8h", "R*5e"} <= plain
    assert all("*" in usi for usi in plain)
    assert evasion_codes(board, conventions=True) == []


def test_drop_next_to_the_king_is_futile_when_the_capture_is_guarded() -> None:
    # tanuki-7-137 (MIT): the rook takes on 3a, guarded by the pawn on 3b: mate at once.
    board = _after("7k1/6P2/2R4S1/6G2/9/9/9/9/9 b Pr2b3g3s4n4l16p 1", "7c7a+")
    assert is_mated(board)
    assert _usi(board._legal_codes()) >= {"G*3a", "N*6a", "R*4a"}


def test_a_drop_another_defender_can_recapture_counts() -> None:
    # Lance check on file 1: the gold on 2b guards 1b and 1c and can also block by moving.
    board = _after("7nk/7g1/9/9/9/9/9/9/9 b L2r2b3g4s3n3l18p 1", "L*1i")
    replies = _usi(evasion_codes(board))
    assert replies == _usi(board._legal_codes())
    assert {"P*1b", "P*1c", "2b1c"} <= replies


def test_moving_interposition_always_counts() -> None:
    # The lance on 1f checks along 1b..1e.  Drops on 1b and 1c are futile (the lance takes and is
    # guarded or keeps a mating check); a drop on 1d is not (the silver recaptures), nor on 1e
    # (the silver can still block on 1d by moving); the silver's block 2e1d always counts.
    board = _after("7Bk/9/9/7R1/7s1/9/9/9/9 b Lrb4g3s4n3l18p 1", "L*1f")
    replies = _usi(evasion_codes(board))
    plain = _usi(board._legal_codes())
    assert "2e1d" in replies
    assert set(plain - replies) == {usi for usi in plain if usi.endswith(("1b", "1c")) and "*" in usi}
    assert {"G*1d", "P*1e"} <= replies


def test_capture_that_promotes_out_of_check_is_no_capture() -> None:
    # A lance taking on 1c may promote, but a promoted lance on 1c does not check the king on 1a:
    # only the unpromoted capture continues the checks.
    board = _after("7Bk/9/9/7R1/9/9/9/9/9 b Lrb4g4s4n3l18p 1", "L*1d")
    assert is_mated(board)
    drop = next(c for c in board._legal_codes() if MOVES[c].usi() == "G*1c")  # type: ignore[union-attr]
    assert is_futile_drop(board, drop, board.checkers()[0])
    assert board.sfen() == "7Bk/9/9/7RL/9/9/9/9/9 w rb4g4s4n3l18p 2"  # restored


def test_pinned_checker_cannot_take() -> None:
    # The bishop on 5e checks 1a.  A gold dropped on 2b would be futile (the bishop takes and
    # promotes, guarded by the pawn on 2c) -- unless the bishop is pinned to its king on 5i by
    # the rook on 5a, when it cannot take at all.
    pinned = Board("4r2nk/8l/7P1/9/4B4/9/9/9/4K4 w g 1", lenient=True)
    free = Board("7nk/8l/7P1/9/4B4/9/9/9/4K4 w rg 1", lenient=True)
    assert "G*2b" in _usi(evasion_codes(pinned))
    assert "G*2b" not in _usi(evasion_codes(free))
    assert "G*2b" in _usi(free._legal_codes())


def test_king_flight_detection() -> None:
    board = _after("4k4/9/9/9/9/9/9/9/9 b R 1", "R*5i")
    assert king_has_flight(board)
    board = _after("3gkg3/3s1s3/9/9/9/9/9/9/9 b R 1", "R*5i")
    assert not king_has_flight(board)


def test_corpus_final_positions(tsume_rows: list) -> None:
    """Every recorded solution ends in mate under the conventions; exactly the two tsumemi problems
    that end with a futile interposition are no mate under game rules."""
    not_plain = set()
    for row in tsume_rows:
        if not row.solution or row.solution == "none":
            continue
        board = _after(row.sfen, *row.solution.split())
        assert is_mated(board, conventions=True), row.id
        if not is_mated(board, conventions=False):
            not_plain.add(row.id)
    assert not_plain == {"tsumemi-1te-10", "tsumemi-3te-3"}


def test_corpus_futile_drop_rows(tsume_rows: list) -> None:
    """antma's futile-drop tests: the rook takes next to the king, guarded: all drops futile."""
    rows = [row for row in tsume_rows if row.id == "antma-tsume1_futile_drops" and row.solution.startswith("4b3b")]
    assert len(rows) == 3
    for row in rows:
        board = _after(row.sfen, "4b3b")
        assert is_mated(board)
        assert not is_mated(board, conventions=False)
