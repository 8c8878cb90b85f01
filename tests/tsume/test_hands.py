"""Packed hands (hand superiority) and complete_defender_hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban import Board, ShogibanError
from shogiban.tsume import complete_defender_hand
from shogiban.tsume.hands import hand_count, hand_covers, hand_max, hand_min, pack_hand, unpack_hand

_hands = st.lists(st.integers(0, 18), min_size=7, max_size=7).map(lambda xs: [0, *xs])


@given(_hands, _hands)
def test_covers_max_min_agree_with_counts(a: list[int], b: list[int]) -> None:
    pa, pb = pack_hand(a), pack_hand(b)
    assert hand_covers(pa, pb) == all(x >= y for x, y in zip(a[1:], b[1:], strict=True))
    assert [hand_count(hand_max(pa, pb), pt) for pt in range(1, 8)] == [max(a[pt], b[pt]) for pt in range(1, 8)]
    assert [hand_count(hand_min(pa, pb), pt) for pt in range(1, 8)] == [min(a[pt], b[pt]) for pt in range(1, 8)]
    assert unpack_hand(pa) == {pt: a[pt] for pt in range(1, 8) if a[pt]}


def test_complete_defender_hand_for_either_side() -> None:
    board = Board("3k5/9/3P5/9/9/9/9/9/9 b G 1")
    completed = complete_defender_hand(board)
    assert completed.sfen() == "3k5/9/3P5/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
    assert board.sfen() == "3k5/9/3P5/9/9/9/9/9/9 b G 1"  # the original is left alone
    white = complete_defender_hand(Board("9/9/9/9/9/9/4p4/9/4K4 w 2g 1"))
    assert white.sfen() == "9/9/9/9/9/9/4p4/9/4K4 w 2R2B2G4S4N4L17P2g 1"


def test_complete_defender_hand_keeps_what_the_defender_holds() -> None:
    completed = complete_defender_hand(Board("4k4/9/9/9/9/9/9/9/9 b Rr 1"))
    assert completed.hand_count(1, 6) == 1
    assert completed.hand_count(0, 6) == 1


def test_complete_defender_hand_rejects_too_many_pieces() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/9 b 3R 1", lenient=True)
    with pytest.raises(ShogibanError, match="1 extra rook"):
        complete_defender_hand(board)
