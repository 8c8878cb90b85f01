"""The notations refuse a move with the rules core's code: the same ``.code`` (and parameters)
as :meth:`shogiban.Board.push_usi` for the same move, whichever notation names it."""

from __future__ import annotations

import pytest

from shogiban import Board, IllegalMoveError
from shogiban.notation.csa_move import parse_csa_move
from shogiban.notation.japanese import parse_japanese, parse_kif_move
from shogiban.notation.western import parse_western

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
# (sfen, usi, code, Japanese text(s), western text(s), CSA text)
CASES = [
    (START, "G*5e", "no_piece_in_hand", ["５五金打"], ["G*5e"], "+0055KI"),
    ("4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5i", "occupied", ["５九金打"], ["G*5i"], "+0059KI"),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*1a", "dead_piece", ["１一歩打", "１一歩"], ["P*1a", "P1a"], "+0011FU"),
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", "nifu", ["５五歩打", "５五歩"], ["P*5e", "P5e"], "+0055FU"),
    ("7nk/7n1/8G/9/9/9/9/9/4K4 b P 1", "P*1b", "uchifuzume", ["１二歩打", "１二歩"], ["P*1b", "P1b"], "+0012FU"),
    (START, "5e5d", "no_piece", ["５四歩(55)"], ["P5e-5d"], "+5554FU"),
    (START, "5c5d", "not_your_piece", ["５四歩(53)"], ["P5c-5d"], "+5354FU"),
    (START, "6i7i", "occupied", ["７九金(69)", "７九金"], ["G6i-7i", "G6ix7i"], "+6979KI"),
    (START, "7g7e", "bad_piece_move", ["７五歩(77)"], ["P7g-7e"], "+7775FU"),
    (START, "7g7f+", "cannot_promote", ["７六歩成(77)", "７六歩成"], ["P7g-7f+", "P-7f+"], "+7776TO"),
    ("4k4/7P1/9/9/9/9/9/9/4K4 b - 1", "2b2a", "dead_piece", ["２一歩(22)", "２一歩"], ["P2b-2a", "P-2a"], "+2221FU"),
    ("4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1", "5h6h", "self_check", ["６八金(58)", "６八金"], ["G5h-6h", "G-6h"], "+5868KI"),
]


def _refused(action: object) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        action()  # type: ignore[operator]
    return caught.value


@pytest.mark.parametrize(("sfen", "usi", "code", "japanese", "western", "csa"), CASES)
def test_every_notation_refuses_with_the_code_of_push_usi(
    sfen: str, usi: str, code: str, japanese: list[str], western: list[str], csa: str
) -> None:
    board = Board(sfen)
    core = _refused(lambda: board.push_usi(usi))
    assert core.code == code
    assert core.refusal.code == code
    assert core.move is not None
    assert core.move.usi() == usi
    errors = [_refused(lambda t=t: parse_japanese(board, t)) for t in japanese]
    errors += [_refused(lambda t=t: parse_western(board, t)) for t in western]
    errors.append(_refused(lambda: parse_csa_move(board, csa)))
    for error in errors:
        assert error.code == code, (str(error), code)
        # Where the text named the one move, the parameters are the core's too.
        if error.move is not None and error.move.usi() == usi:
            assert dict(error.params) == dict(core.params)
    assert board.sfen() == sfen


def test_a_king_capture_offered_by_a_lenient_position() -> None:
    board = Board("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", lenient=True)
    assert _refused(lambda: board.push_usi("5b5a")).code == "king_capture"
    assert _refused(lambda: parse_kif_move(board, "５一飛(52)")).code == "king_capture"
    assert _refused(lambda: parse_western(board, "R5bx5a")).code == "king_capture"


@pytest.mark.parametrize(("sfen", "text", "code"), [
    (START, "５五銀", "no_such_move"),  # no silver can go there, none in hand
    (START, "７六銀(77)", "wrong_piece"),
    (START, "▽７六歩", "wrong_side"),
    ("4k4/9/9/9/9/9/9/3G1G3/4K4 b - 1", "５七金寄", "no_matching_piece"),
])
def test_notation_only_refusals_have_catalogue_codes(sfen: str, text: str, code: str) -> None:
    from shogiban.i18n import refusal_key

    error = _refused(lambda: parse_japanese(Board(sfen), text))
    assert error.code == code
    assert refusal_key(code) == f"rules.{code}"


def test_western_notation_only_refusals() -> None:
    assert _refused(lambda: parse_western(Board(), "S-5e")).code == "no_such_move"
    assert _refused(lambda: parse_western(Board(), "S7g-7f")).code == "wrong_piece"
    assert _refused(lambda: parse_csa_move(Board(), "+7776KI")).code == "wrong_piece"
