from __future__ import annotations

import pytest

from shogiban import InvalidSquareError, make_square, parse_square, square_file, square_name, square_rank
from shogiban.squares import SQUARE_NAMES, SQUARES, in_promotion_zone


def test_every_square_round_trips() -> None:
    assert len(SQUARES) == 81
    for sq in SQUARES:
        name = square_name(sq)
        assert parse_square(name) == sq
        assert make_square(square_file(sq), square_rank(sq)) == sq
        assert name == f"{square_file(sq)}{'abcdefghi'[square_rank(sq) - 1]}"
    assert len(set(SQUARE_NAMES)) == 81


def test_numbering_follows_sfen_order() -> None:
    assert parse_square("9a") == 0
    assert parse_square("1a") == 8
    assert parse_square("5e") == 40
    assert parse_square("9i") == 72
    assert parse_square("1i") == 80
    assert parse_square("7g") == 56


@pytest.mark.parametrize("bad", ["", "0a", "10a", "7j", "a7", "77", "7G", " 7g", None, 7])
def test_bad_square_names_raise(bad: object) -> None:
    with pytest.raises(InvalidSquareError, match="invalid square"):
        parse_square(bad)  # type: ignore[arg-type]


def test_make_square_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match="file 0"):
        make_square(0, 5)


def test_promotion_zones() -> None:
    assert in_promotion_zone(parse_square("1c"), 0)
    assert not in_promotion_zone(parse_square("1d"), 0)
    assert in_promotion_zone(parse_square("9g"), 1)
    assert not in_promotion_zone(parse_square("9f"), 1)
