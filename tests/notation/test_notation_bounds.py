"""Issue 10, findings 1, 2 and 15 in the notations: bounded error excerpts, linear parsing, SFEN
text too long or with huge numbers refused before parsing, and the one-match tokenizer reading
exactly as the full one."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from shogiban import Board, InvalidMoveError, InvalidSfenError
from shogiban.errors import ShogibanError
from shogiban.notation import japanese
from shogiban.notation.csa_move import parse_csa_move
from shogiban.notation.japanese import parse_japanese
from shogiban.notation.names import DIGIT_VALUES, PIECE_ALIASES
from shogiban.notation.positions import board_from_sfen, sfen_parts
from shogiban.notation.usi import parse_position_command
from shogiban.notation.western import parse_western

HOSTILE = "\x1b[2J\u202e" + "歩" * 5000

PARSERS: list[Callable[[str], object]] = [
    lambda text: parse_japanese(Board(), text),
    lambda text: parse_western(Board(), text),
    lambda text: parse_csa_move(Board(), text),
    parse_position_command,
    lambda text: board_from_sfen(text),
]


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("text", [HOSTILE, "７六" + HOSTILE, "position sfen " + HOSTILE, HOSTILE + " b - 1"])
def test_errors_quote_a_short_escaped_excerpt(parse: Callable[[str], object], text: str) -> None:
    with pytest.raises(ShogibanError) as raised:
        parse(text)
    message = str(raised.value)
    assert len(message) < 400
    assert "\x1b" not in message
    assert "\u202e" not in message


@pytest.mark.parametrize(
    "sfen",
    ["4k4/9/9/9/9/9/9/9/4K4 b - " + "1" * 5000, "4k4/9/9/9/9/9/9/9/4K4 b " + "1" * 5000 + "P 1",
     "4k4/9/9/9/9/9/9/9/" + "1" * 5000 + " b - 1", "4k4/" * 2000 + " b - 1"],
)
def test_sfen_text_with_huge_numbers_or_length_is_refused_before_parsing(sfen: str) -> None:
    for read in (board_from_sfen, sfen_parts, lambda s: parse_position_command("position sfen " + s)):
        with pytest.raises(InvalidSfenError) as raised:
            read(sfen)
        assert len(str(raised.value)) < 200


def test_the_sfen_quote_inside_a_board_error_is_an_excerpt() -> None:
    with pytest.raises(InvalidSfenError, match="king") as raised:
        board_from_sfen("4k4/9/9/9/9/9/9/9/3KK4 b - 1", lenient=False)
    assert "'4k4/9/9/9/9/9/9/9/3KK4 b - 1'" in str(raised.value)
    assert board_from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").sfen() == "4k4/9/9/9/9/9/9/9/4K4 b - 1"


@pytest.mark.parametrize("char", [" ", "\u3000", "歩", "同", "右", "(", "1", "７", "成"])
def test_japanese_move_text_is_read_in_linear_time(char: str) -> None:
    def cost(n: int) -> float:
        # CPU time, the best of three: other jobs on a loaded machine lengthen the wall clock, not
        # the work (a quadratic reader would still take 64 times as long for 8 times the text).
        text = "７六歩" + char * n + "x"
        runs = []
        for _ in range(3):
            start = time.process_time()
            with pytest.raises(ShogibanError):
                parse_japanese(Board(), text)
            runs.append(time.process_time() - start)
        return min(runs)

    cost(10)
    assert cost(80_000) <= max(cost(10_000), 0.001) * 8 * 3


_PIECES = sorted(PIECE_ALIASES)
_SQUARE = st.sampled_from(sorted(DIGIT_VALUES))
_TEXTS = st.builds(
    lambda mark, square, piece, modifiers, action, tail: mark + square + piece + modifiers + action + tail,
    st.sampled_from(["", "▲", "△", "☗", "▽"]),
    st.one_of(st.tuples(_SQUARE, _SQUARE).map("".join), st.sampled_from(["同", "同　", "同 ", "同\t　"])),
    st.sampled_from(_PIECES),
    st.text(alphabet="右左直上寄引行", max_size=3),
    st.sampled_from(["", "成", "不成", "生", "打", "成り", "不成り", "成らず"]),
    st.sampled_from(["", "", "", " ", "(77)", "x", "打", "成"]),
)


@settings(max_examples=examples(600), deadline=None)
@given(text=_TEXTS)
def test_the_one_match_tokenizer_reads_as_the_full_one(text: str) -> None:
    quick = japanese._quick_tokenize
    try:
        japanese._quick_tokenize = lambda s: None  # type: ignore[assignment]
        full = _outcome(text)
    finally:
        japanese._quick_tokenize = quick  # type: ignore[assignment]
    assert _outcome(text) == full


def _outcome(text: str) -> object:
    try:
        return japanese._tokenize(text)
    except InvalidMoveError as error:
        return type(error)
