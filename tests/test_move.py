from __future__ import annotations

import copy
import pickle

import pytest

from shogiban import InvalidMoveError, Move, PieceType, parse_square
from shogiban.move import MOVES


def all_moves() -> list[Move]:
    return [m for m in MOVES if m is not None]


def test_every_move_round_trips_through_usi() -> None:
    moves = all_moves()
    assert len(moves) == 81 * 80 * 2 + 81 * 7
    for move in moves:
        assert Move.from_usi(move.usi()) is move
        assert Move.from_code(move.code) is move


def test_fields() -> None:
    move = Move.from_usi("8h2b+")
    assert (move.from_square, move.to_square, move.promotion, move.drop) == (
        parse_square("8h"), parse_square("2b"), True, None)
    assert not move.is_drop()
    drop = Move.from_usi("S*5b")
    assert (drop.from_square, drop.to_square, drop.promotion, drop.drop) == (
        None, parse_square("5b"), False, PieceType.SILVER)
    assert drop.is_drop()


def test_constructor_interns() -> None:
    assert Move(from_square=parse_square("7g"), to_square=parse_square("7f")) is Move.from_usi("7g7f")
    assert Move(to_square=parse_square("5e"), drop=PieceType.PAWN) is Move.from_usi("P*5e")


def test_value_semantics() -> None:
    move = Move.from_usi("7g7f")
    assert move == Move.from_usi("7g7f")
    assert move != Move.from_usi("7g7f+")
    assert len({move, Move.from_usi("7g7f")}) == 1
    assert repr(move) == "Move.from_usi('7g7f')"
    assert eval(repr(move)) == move
    assert pickle.loads(pickle.dumps(move)) is move
    assert copy.deepcopy(move) is move
    with pytest.raises(AttributeError):
        move.code = 3  # type: ignore[misc]


@pytest.mark.parametrize("bad", ["", "7g7", "7g7f++", "7g7g", "K*5e", "p*5e", "P*5e+", "0a1b", "7g7f ", "resign",
                                 "7g-7f", "P*0e", None])
def test_bad_usi_raises(bad: object) -> None:
    with pytest.raises(InvalidMoveError, match="invalid usi move"):
        Move.from_usi(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs", [
    {"to_square": 81, "from_square": 0},
    {"to_square": 5},
    {"to_square": 5, "from_square": 5},
    {"to_square": 5, "drop": PieceType.KING},
    {"to_square": 5, "drop": PieceType.PAWN, "promotion": True},
    {"to_square": 5, "drop": PieceType.PAWN, "from_square": 3},
])
def test_bad_constructor_arguments_raise(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidMoveError):
        Move(**kwargs)  # type: ignore[arg-type]


def test_constructor_is_keyword_only() -> None:
    # Move(56, 47) would read as 7f7g in shogiban but 7g7f in python-chess's order: refused.
    with pytest.raises(TypeError):
        Move(56, 47)  # type: ignore[misc]
    assert Move(from_square=56, to_square=47).usi() == "7g7f"
    assert Move(to_square=40, drop=PieceType.PAWN).usi() == "P*5e"


def test_fast_constructors_and_promotion_variant() -> None:
    from shogiban.move import board_move, code_parts, drop_code, drop_move, move_code

    assert board_move(56, 47) is Move.from_usi("7g7f")
    assert board_move(64, 16, True) is Move.from_usi("8h2b+")
    assert drop_move(40, PieceType.PAWN) is Move.from_usi("P*5e")
    assert move_code(56, 47) == Move.from_usi("7g7f").code
    assert drop_code(40, 1) == Move.from_usi("P*5e").code
    assert code_parts(Move.from_usi("8h2b+").code) == (16, 64, True)
    assert code_parts(Move.from_usi("P*5e").code) == (40, 82, False)
    assert Move.from_usi("8h2b").with_promotion() is Move.from_usi("8h2b+")
    assert Move.from_usi("8h2b+").with_promotion(False) is Move.from_usi("8h2b")
    with pytest.raises(InvalidMoveError):
        Move.from_usi("P*5e").with_promotion()
