"""Property tests: random legal positions round-trip through every notation and BOD, and
garbage text raises only the documented errors."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from shogiban import (
    STARTING_SFEN,
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSfenError,
    KifuParseError,
    Move,
)
from shogiban.handicaps import HANDICAPS
from shogiban.notation.bod import make_bod, parse_bod
from shogiban.notation.csa_move import make_csa_move, parse_csa_move
from shogiban.notation.japanese import (
    make_ki2_move,
    make_kif_move,
    parse_japanese,
    parse_ki2_move,
    parse_kif_move,
)
from shogiban.notation.usi import InvalidCommandError, parse_position_command
from shogiban.notation.western import STYLES, make_western, parse_western

STARTS = [STARTING_SFEN, *(h.sfen for h in HANDICAPS[:6]),
          "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124"]
SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def played_positions(draw: st.DrawFn) -> Board:
    """A position reached by random legal moves from a start (even, handicap or a middle game)."""
    board = Board(draw(st.sampled_from(STARTS)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 160))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@SETTINGS
@given(played_positions())
def test_every_legal_move_round_trips_through_every_notation(board: Board) -> None:
    legal = list(board.legal_moves)
    writers = {
        "ki2": (make_ki2_move, parse_ki2_move),
        "kif": (make_kif_move, parse_kif_move),
        "csa": (make_csa_move, parse_csa_move),
        **{style: (lambda b, m, s=style: make_western(b, m, style=s), parse_western) for style in STYLES},  # type: ignore[misc]
    }
    for name, (make, parse) in writers.items():
        texts = {make(board, move): move for move in legal}
        assert len(texts) == len(legal), (name, board.sfen())
        for text, move in texts.items():
            assert parse(board, text) == move, (name, board.sfen(), text)
    for move in legal:
        assert parse_japanese(board, make_kif_move(board, move)) == move


@SETTINGS
@given(played_positions(), st.booleans())
def test_bod_round_trips_played_positions(board: Board, footer: bool) -> None:
    last = board.peek() if footer and board.ply else None
    text = make_bod(board, last_move=last)
    again = parse_bod(text)
    assert again == board
    if last is not None:
        assert again.move_number == board.move_number


_PIECES = "PLNSGBRK"


@st.composite
def arbitrary_boards(draw: st.DrawFn) -> Board:
    """Any placement of pieces and hands (possible or not), read with lenient=True."""
    squares = draw(st.dictionaries(st.integers(0, 80), st.tuples(st.sampled_from(_PIECES), st.booleans(),
                                                                    st.booleans()), max_size=40))
    rows = []
    for r in range(9):
        row, empty = "", 0
        for sq in range(r * 9, r * 9 + 9):
            if sq not in squares:
                empty += 1
                continue
            letter, promoted, white = squares[sq]
            text = ("+" if promoted and letter in "PLNSBR" else "") + letter
            row += (str(empty) if empty else "") + (text.lower() if white else text)
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    hands = "".join(
        f"{n}{letter if color == 0 else letter.lower()}"
        for color in (0, 1) for letter in "RBGSNLP" if (n := draw(st.integers(0, 18))) > 1
    )
    turn = draw(st.sampled_from("bw"))
    return Board(f"{'/'.join(rows)} {turn} {hands or '-'} {draw(st.integers(1, 500))}", lenient=True)


@settings(max_examples=examples(150), deadline=None)
@given(arbitrary_boards(), st.sampled_from([("先手", "後手"), ("下手", "上手")]), st.integers(0, 400))
def test_bod_round_trips_arbitrary_boards(board: Board, names: tuple[str, str], number: int) -> None:
    text = make_bod(board, names=names, move_number=number)
    again = parse_bod(text, lenient=True)
    assert again.sfen(move_number=False) == board.sfen(move_number=False)
    assert again.move_number == number + 1


_MOVE_ALPHABET = (
    "▲△☗☖ 　同１２３４５６７８９一二三四五六七八九123456789abcdefghi"
    "歩香桂銀金角飛玉王と杏圭全馬龍竜成不打右左直上寄引行生()（）+-x*=PLNSGBRKDHT"
)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=_MOVE_ALPHABET, max_size=12), st.sampled_from(STARTS))
def test_garbage_move_text_raises_only_documented_errors(text: str, sfen: str) -> None:
    board = Board(sfen)
    board.push(next(iter(board.legal_moves)))  # so that 同 has a meaning
    for parse in (parse_japanese, parse_ki2_move, parse_kif_move, parse_western):
        try:
            move = parse(board, text)
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
            continue
        assert isinstance(move, Move)
        assert board.is_legal(move)
    try:
        move = parse_csa_move(board, text)
    except (InvalidMoveError, IllegalMoveError):
        return
    assert board.is_legal(move)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="+-0123456789FUKYEGIAHOTNRMXZ ", max_size=9))
def test_garbage_csa_raises_only_documented_errors(text: str) -> None:
    try:
        move = parse_csa_move(Board(), text)
    except (InvalidMoveError, IllegalMoveError):
        return
    assert Board().is_legal(move)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(["position", "startpos", "sfen", "moves", "7g7f", "3c3d", "P*5e", "8h2b+",
                                 "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL", "b", "w", "-", "1",
                                 "9/9", "x", "0000", "resign"]), max_size=8))
def test_garbage_position_commands_raise_only_documented_errors(tokens: list[str]) -> None:
    try:
        board, moves = parse_position_command(" ".join(tokens))
    except (InvalidCommandError, InvalidSfenError, InvalidMoveError, IllegalMoveError):
        return
    assert board.move_stack == moves


_BOD = make_bod(Board("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/1PPPPPPPP/1B5R1/LNSGKGSNL w Pp 5"), move_number=4)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_BOD) - 1), st.sampled_from("・v歩王金 |\n十二なし+-手数＝▲")),
                max_size=6))
def test_damaged_bod_raises_only_kifu_parse_error(edits: list[tuple[int, str]]) -> None:
    text = list(_BOD)
    for index, char in edits:
        text[index] = char
    lineno: int | None = 0
    try:
        parse_bod("".join(text))
    except KifuParseError as error:
        lineno = error.lineno
    assert lineno is not None


# One full set less the kings and most pawns: at most two dragons/rooks, two horses/bishops, four golds ...
_BAG = ["G", "G", "G", "G", "S", "S", "+S", "+S", "N", "+N", "+P", "+P", "+P", "L", "+L", "R", "+R", "B", "+B"]


@st.composite
def crowded_boards(draw: st.DrawFn) -> Board:
    """Kings plus many pieces near the centre, mostly the mover's: the hard cases for 右/左/直/上/引/寄."""
    turn = draw(st.sampled_from("bw"))
    kinds = draw(st.permutations(_BAG))[:draw(st.integers(3, len(_BAG)))]
    squares = draw(st.lists(st.integers(18, 62), min_size=len(kinds), max_size=len(kinds), unique=True))
    cells = [""] * 81
    cells[80], cells[0] = "K", "k"
    for sq, kind in zip(squares, kinds, strict=True):
        mine = turn == "b" if draw(st.integers(0, 4)) else turn != "b"
        cells[sq] = kind if mine else kind.lower()
    rows = []
    for r in range(9):
        row, empty = "", 0
        for cell in cells[r * 9:r * 9 + 9]:
            if not cell:
                empty += 1
                continue
            row += (str(empty) if empty else "") + cell
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return Board(f"{'/'.join(rows)} {turn} Pp 1", lenient=True)


@settings(max_examples=examples(150), deadline=None)
@given(crowded_boards())
def test_crowded_positions_get_unique_readable_ki2(board: Board) -> None:
    legal = list(board.legal_moves)
    texts = {make_ki2_move(board, move): move for move in legal}
    assert len(texts) == len(legal), board.sfen()
    for text, move in texts.items():
        assert parse_ki2_move(board, text) == move, (board.sfen(), text)
        assert parse_western(board, make_western(board, move, style="hodges")) == move
