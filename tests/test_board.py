from __future__ import annotations

import pytest

from shogiban import (
    BLACK,
    WHITE,
    Board,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Piece,
    PieceType,
    Termination,
    parse_square,
)


def play(board: Board, *usis: str) -> Board:
    for usi in usis:
        board.push_usi(usi)
    return board


def test_push_pop_restores_everything() -> None:
    board = Board()
    start = board.sfen()
    key = board.zobrist_hash()
    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "2b3c"]
    sfens = [start]
    for usi in moves:
        board.push_usi(usi)
        sfens.append(board.sfen())
    assert board.ply == 6
    assert board.move_stack == [Move.from_usi(m) for m in moves]
    assert board.peek() == Move.from_usi("2b3c")
    for usi in reversed(moves):
        assert board.sfen() == sfens.pop()
        assert board.pop() == Move.from_usi(usi)
    assert board.sfen() == start
    assert board.zobrist_hash() == key
    with pytest.raises(IndexError):
        board.pop()


def test_capture_goes_to_hand_unpromoted() -> None:
    board = play(Board(), "7g7f", "3c3d", "8h2b+", "3a2b")
    assert board.hand(BLACK) == {PieceType.BISHOP: 1}
    assert board.hand(WHITE) == {PieceType.BISHOP: 1}
    assert board.piece_at(parse_square("2b")) == Piece(PieceType.SILVER, WHITE)


def test_legal_moves_view() -> None:
    board = Board()
    moves = list(board.legal_moves)
    assert len(moves) == board.legal_moves.count() == 30
    assert Move.from_usi("7g7f") in board.legal_moves
    assert Move.from_usi("7g7e") not in board.legal_moves
    assert "7g7f" not in board.legal_moves  # only Move objects are members
    assert bool(board.legal_moves)
    assert "7g7f" in repr(board.legal_moves)


@pytest.mark.parametrize(("sfen", "usi", "code", "reason"), [
    ("startpos", "7g7e", "bad_piece_move", "a pawn on 7g cannot move to 7e"),
    ("startpos", "5e5d", "no_piece", "no piece on 5e"),
    ("startpos", "3c3d", "not_your_piece", "belongs to gote"),
    ("startpos", "P*5e", "no_piece_in_hand", "no pawn in hand"),
    ("4k4/9/9/9/9/9/9/9/4K1S2 b - 1", "3i2i", "bad_piece_move", "a silver on 3i cannot move to 2i"),
    ("startpos", "6i7i", "occupied", "7i holds your own piece"),
    ("startpos", "2h2c", "bad_piece_move", "rook on 2h cannot move to 2c"),
    ("startpos", "7g7f+", "cannot_promote", "neither 7g nor 7f is in the promotion zone"),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*4a", "dead_piece", "pawn dropped on 4a could never move"),
    ("4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*5b", "dead_piece", "knight dropped on 5b could never move"),
    ("4k4/9/9/9/9/9/9/9/4K4 b L 1", "L*1a", "dead_piece", "lance dropped on 1a could never move"),
    ("4k4/9/9/9/9/9/9/4P4/4K4 b P 1", "P*5e", "nifu", "two pawns on file 5"),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5i", "occupied", "occupied"),
    ("4k4/9/4P4/9/9/9/9/9/4K4 b - 1", "5c5b", None, None),
    ("4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a", "dead_piece", "a pawn on 9a could never move again: it must promote"),
    ("4k4/9/N8/9/9/9/9/9/4K4 b - 1", "9c8a", "dead_piece", "must promote"),
    ("4k4/9/9/9/9/9/9/4r4/4K4 b - 1", "5i5h", None, None),
    ("4k4/9/9/9/9/9/9/9/4K1r2 b - 1", "5i4i", "self_check", "leaves the king in check"),
    ("4k4/9/9/9/9/9/9/4G4/3GK4 b - 1", "5h5g+", "cannot_promote", "a gold cannot promote"),
    ("4k4/9/9/9/4r4/9/9/4S4/4K4 b - 1", "5h4g", "self_check", "leaves the king in check"),
])
def test_illegal_moves_give_the_reason(sfen: str, usi: str, code: str | None, reason: str | None) -> None:
    board = Board(sfen, lenient=True)
    move = Move.from_usi(usi)
    if code is None:
        assert board.is_legal(move)
        assert board.check_move(move) is None
        return
    assert not board.is_legal(move)
    before = board.sfen()
    with pytest.raises(IllegalMoveError) as info:
        board.push_usi(usi)
    assert info.value.code == code
    if reason:
        assert reason in str(info.value)
    assert repr(usi) in str(info.value)
    assert board.sfen() == before  # nothing changed


def test_malformed_usi_is_not_an_illegal_move() -> None:
    with pytest.raises(InvalidMoveError):
        Board().push_usi("7g7")


def test_parse_usi_validates_without_playing() -> None:
    board = Board()
    assert board.parse_usi("7g7f") == Move.from_usi("7g7f")
    assert board.ply == 0
    with pytest.raises(IllegalMoveError, match="cannot move"):
        board.parse_usi("7g7e")


def test_tournament_mode_records_an_illegal_move_as_a_loss() -> None:
    board = Board("4k4/9/9/9/9/9/9/4P4/4K4 b P 1", tournament=True)
    before = board.sfen()
    move = board.push_usi("P*5e")
    assert move == Move.from_usi("P*5e")
    assert board.sfen() == before  # the position stays as it was
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert outcome.winner == WHITE
    assert "two pawns on file 5" in outcome.detail
    assert board.illegal_move == move
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push_usi("5i4h")
    assert board.pop() == move  # withdraws the recorded illegal move
    assert board.outcome() is None
    board.push_usi("5i4h")


def test_copy_is_independent() -> None:
    board = play(Board(), "7g7f")
    copy = board.copy()
    copy.push_usi("3c3d")
    assert board.ply == 1
    assert copy.ply == 2
    assert copy.move_stack[0] == Move.from_usi("7g7f")
    fresh = board.copy(stack=False)
    assert fresh.ply == 0
    assert fresh.sfen() == board.sfen()
    assert fresh.starting_sfen == board.sfen()


def test_equality_compares_positions() -> None:
    a = play(Board(), "7g7f", "3c3d")
    b = Board(a.sfen())
    assert a == b
    assert a != Board()
    assert eval(repr(a)) == a


def test_text_board() -> None:
    text = str(Board("4k4/9/9/9/9/9/9/9/4K4 b 2P 1"))
    assert "sente hand: P2" in text
    assert " k " in text or " k" in text
    assert text.count("\n") == 11


def test_set_up_api() -> None:
    board = Board(None)
    assert board.sfen() == "9/9/9/9/9/9/9/9/9 b - 1"
    board.set_piece_at(parse_square("5i"), Piece(PieceType.KING, BLACK))
    board.set_piece_at(parse_square("5a"), Piece(PieceType.KING, WHITE))
    board.set_hand_count(BLACK, PieceType.GOLD, 2)
    assert board.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b 2G 1"
    assert board.king_square(WHITE) == parse_square("5a")
    assert board.hand_count(BLACK, PieceType.GOLD) == 2
    board.set_piece_at(parse_square("5a"), None)
    assert board.king_square(WHITE) is None
    with pytest.raises(ValueError, match="invalid hand"):
        board.set_hand_count(BLACK, PieceType.KING, 1)
    assert board.pieces(BLACK) == {parse_square("5i"): Piece(PieceType.KING, BLACK)}


def test_check_queries() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/R3K4 b G 1")
    assert not board.is_check()
    assert board.gives_check(Move.from_usi("G*5b"))
    assert board.gives_check(Move.from_usi("9i9a+"))
    assert not board.gives_check(Move.from_usi("9i9b"))
    board.push_usi("9i9a")
    assert board.is_check()
    assert board.checkers() == [parse_square("9a")]
    assert board.attackers(BLACK, parse_square("5a")) == [parse_square("9a")]
    assert board.is_attacked_by(Color.BLACK, parse_square("6a"))
    assert not board.is_attacked_by(Color.BLACK, parse_square("1a"))  # the king blocks the dragon


def test_double_check_allows_only_king_moves() -> None:
    board = Board("4k4/9/9/9/9/9/5n3/3+r5/4K4 b G 1", lenient=True)
    assert len(board.checkers()) == 2
    assert all(board.piece_at(m.from_square).piece_type == PieceType.KING  # type: ignore[union-attr, arg-type]
               for m in board.legal_moves)


def test_the_enemy_king_is_never_captured_even_in_impossible_positions() -> None:
    # Lenient set-up where gote could "take" sente's king: no move does, and every move plays.
    board = Board("r2n+R1gR1/2+r1r1nSG/LbK2G1+s+r/2B2r+ssr/r1L1bGRS1/G2pB2+P1/+nP1s2s+nr/g3+B3+r/7P1 w Lr 1",
                  lenient=True)
    king = board.king_square(BLACK)
    moves = list(board.legal_moves)
    assert moves
    assert all(m.to_square != king for m in moves)
    for move in moves:
        board.push(move)
        board.pop()


def test_refusals_carry_code_params_and_move() -> None:
    from shogiban.errors import Refusal

    board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    move = Move.from_usi("P*5e")
    refusal = board.check_move(move)
    assert refusal == Refusal("nifu", {"square": 40, "piece": 1, "file": 5}, "two pawns on file 5")
    with pytest.raises(IllegalMoveError) as caught:
        board.push_usi("P*5e")
    error = caught.value
    assert (error.code, error.refusal, error.move) == ("nifu", refusal, move)
    assert error.params["file"] == 5
    assert "two pawns on file 5" in str(error)
    assert board.check_move(Move.from_usi("5g5f")) is None
    # The old constructor still works; its refusal has the code and the message.
    old = IllegalMoveError("illegal move: x", "self_check")
    assert old.code == "self_check"
    assert old.refusal.message == "illegal move: x"
    assert old.move is None
    assert IllegalMoveError.from_refusal(refusal, move, where=board.sfen()).code == "nifu"


def test_game_over_is_a_refusal() -> None:
    board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    board.settle_impasse()
    with pytest.raises(IllegalMoveError) as caught:
        board.push_usi("5g5f")
    assert caught.value.code == "game_over"


def test_japanese_and_western_moves_on_the_board() -> None:
    board = Board()
    move = Move.from_usi("7g7f")
    assert board.japanese(move) == "▲７六歩"
    assert board.western(move) == "P-7f"
    assert board.parse_japanese("７六歩") is move
    assert board.ply == 0
    assert board.push_japanese("７六歩") is move
    assert board.push_western("P-3d") is Move.from_usi("3c3d")
    assert board.move_stack == [move, Move.from_usi("3c3d")]
    with pytest.raises(IllegalMoveError) as caught:
        board.push_japanese("７四歩(76)")
    assert caught.value.code == "bad_piece_move"
    assert board.ply == 2
    with pytest.raises(IllegalMoveError):
        board.push_western("P8g-8e")
    assert board.ply == 2


def test_public_read_access() -> None:
    board = Board("4k4/9/9/9/9/9/4P4/9/4K4 w 2Pg 1")
    assert board.side_to_move == 1
    assert board.piece_codes[58] == 1
    assert board.piece_codes[4] == 8 | 16
    assert len(board.piece_codes) == 81
    assert board.hand_counts(0)[1] == 2
    assert board.hand_counts(1)[7] == 1
    assert board.pieces_mask(1, 0) == 1 << 58
    assert board.occupancy(0) == 1 << 58 | 1 << 76
    assert board.occupancy() == board.occupancy(0) | 1 << 4
    key = board.state_key()
    board.push_code(Move.from_usi("5a5b").code)
    assert board.state_key() != key
    assert board.peek() == Move.from_usi("5a5b")
    board.pop()
    assert board.state_key() == key
    assert set(board.legal_codes()) == {m.code for m in board.legal_moves}
