"""The transposition table's hand superiority: proof pieces (証明駒) and disproof pieces (反証駒)."""

from __future__ import annotations

from shogiban import Board
from shogiban.tsume.dfpn import DfPn
from shogiban.tsume.hands import UNIT, pack_hand, unpack_hand
from shogiban.tsume.table import DEPTH_INF, Table

GOLD, ROOK, PAWN = 7, 6, 1


def test_lookup_rules() -> None:
    table = Table()
    table.store(1, UNIT[GOLD], 0, 1 << 40, 3, move=123)  # proven with one gold, in 3 plies
    assert table.lookup(1, UNIT[GOLD] + UNIT[ROOK], 5) is not None  # more pieces, more plies
    assert table.lookup(1, UNIT[GOLD], 1) is None  # the proof is longer than the bound
    assert table.lookup(1, UNIT[ROOK], 5) is None  # the gold is missing
    table.store(2, 2 * UNIT[PAWN], 1 << 40, 0, DEPTH_INF)  # refuted with two pawns, any depth
    assert table.lookup(2, UNIT[PAWN], 99) is not None
    assert table.lookup(2, 3 * UNIT[PAWN], 99) is None
    table.store(3, 0, 1 << 40, 0, 5)  # refuted within 5 plies only
    assert table.lookup(3, 0, 5) is not None
    assert table.lookup(3, 0, 7) is None
    table.store(4, 0, 3, 2, 5)  # undecided: the exact hand, at that depth or two plies more
    assert table.lookup(4, 0, 5) == [0, 3, 2, 5, 0]
    assert table.lookup(4, 0, 7) == [0, 3, 2, 5, 0]
    assert table.lookup(4, 0, 9) is None
    assert table.lookup(4, UNIT[PAWN], 5) is None
    table.store(4, 0, 8, 1, 7)
    assert table.lookup(4, 0, 7) == [0, 8, 1, 7, 0]  # the exact depth wins
    table.shrink()
    assert table.lookup(4, 0, 5) is None  # undecided and depth-bound entries are forgotten
    assert table.lookup(1, UNIT[GOLD], 3) is not None
    assert table.lookup(2, 0, 1) is not None


def test_proof_pieces_leave_out_what_the_mate_did_not_use() -> None:
    board = Board("3k5/9/3P5/9/9/9/9/9/9 b GR 1", lenient=True)
    searcher = DfPn(board)
    assert searcher.prove(1)[0] == 0
    key, hand = searcher.root_key()
    assert unpack_hand(hand) == {GOLD: 1, ROOK: 1}
    entry = searcher.lookup(key, hand, 1)
    assert entry is not None
    assert entry[1] == 0
    assert unpack_hand(entry[0]) == {GOLD: 1}  # the rook was not needed
    assert searcher.lookup(key, pack_hand([0, 0, 0, 0, 0, 0, 0, 1]), 1) is entry


def test_disproof_pieces_extend_to_more_of_the_same_pieces() -> None:
    # A lone king with room to run: no gold drop mates at once, and two golds would not either
    # (the king escapes every check the same way) -- but a rook is a new piece, with new checks.
    board = Board("9/9/9/9/4k4/9/9/9/9 b G 1", lenient=True)
    searcher = DfPn(board)
    assert searcher.prove(1)[1] == 0
    key, _hand = searcher.root_key()
    two_golds = searcher.lookup(key, 2 * UNIT[GOLD], 1)
    assert two_golds is not None
    assert two_golds[2] == 0
    assert searcher.lookup(key, UNIT[GOLD] + UNIT[ROOK], 1) is None


def test_no_check_at_all_extends_to_more_of_the_same_pieces() -> None:
    # The pawn on the king's file rules out the pawn drop (二歩): no check, however many pawns.
    board = Board("9/9/9/9/4k4/9/9/4P4/9 b P 1", lenient=True)
    searcher = DfPn(board)
    assert searcher.prove(1) == (1 << 40, 0, False)
    key, _hand = searcher.root_key()
    refuted = searcher.lookup(key, 5 * UNIT[PAWN], 99)
    assert refuted is not None
    assert refuted[2] == 0
    assert searcher.lookup(key, UNIT[PAWN] + UNIT[GOLD], 1) is None
