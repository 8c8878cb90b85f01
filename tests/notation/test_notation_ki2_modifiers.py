"""One test per KI2 modifier rule (JSA 「棋譜の表記方法」; SPECS.md §c.1 and gotcha 10).

Each case is a small position, a move and the KI2 text the JSA rules give; every text must also
parse back to the move, and the bare text without modifiers must be ambiguous when modifiers
were needed.
"""

from __future__ import annotations

from collections import Counter

import pytest
from notation_helpers import board_from, cshogi_difference, random_positions

from shogiban import AmbiguousMoveError, Board, IllegalMoveError, Move
from shogiban.notation.japanese import make_ki2_move, make_kif_move, parse_ki2_move, resolve_japanese

CASES = [
    # Three golds side by side: 左 直 右 (the piece straight below goes 直).
    ("K9i k9a G6i G5i G4i", "b", "-", "6i5h", "▲５八金左"),
    ("K9i k9a G6i G5i G4i", "b", "-", "5i5h", "▲５八金直"),
    ("K9i k9a G6i G5i G4i", "b", "-", "4i5h", "▲５八金右"),
    # Motion alone when it differs from every other candidate: 寄 上 引.
    ("K9i k9a G6h G5i G5g", "b", "-", "6h5h", "▲５八金寄"),
    ("K9i k9a G6h G5i G5g", "b", "-", "5i5h", "▲５八金上"),
    ("K9i k9a G6h G5i G5g", "b", "-", "5g5h", "▲５八金引"),
    # Position alone when it suffices (左, not 左上), motion first otherwise.
    ("K9i k9a G6i G4h", "b", "-", "6i5h", "▲５八金上"),
    ("K9i k9a G6i G4i G4h", "b", "-", "6i5h", "▲５八金左"),
    ("K9i k9a G6i G4i G4h", "b", "-", "4i5h", "▲５八金右上"),
    ("K9i k9a G6i G4i G4h", "b", "-", "4h5h", "▲５八金寄"),
    # Silvers: the SPECS example ７三銀左上成, and the four-silver case of cshogi's tests.
    ("K9i k1a S8d S6d S8b", "b", "-", "8d7c+", "▲７三銀左上成"),
    ("K9i k1a S8d S6d S8b", "b", "-", "8d7c", "▲７三銀左上不成"),
    ("K9i k1a S8d S6d S8b", "b", "-", "6d7c+", "▲７三銀右成"),
    ("K9i k1a S8d S6d S8b", "b", "-", "8b7c", "▲７三銀引不成"),
    ("K9i k1a S3i S2i S3g S1g", "b", "-", "3g2h", "▲２八銀左引"),
    ("K9i k1a S3i S2i S3g S1g", "b", "-", "1g2h", "▲２八銀右"),
    ("K9i k1a S3i S2i S3g S1g", "b", "-", "3i2h", "▲２八銀左上"),
    ("K9i k1a S3i S2i S3g S1g", "b", "-", "2i2h", "▲２八銀直"),
    # Dragons and horses: 右/左 compare the two pieces, never 直.
    ("K9i k7e +R1c +R2a", "b", "-", "1c2d", "▲２四龍右"),
    ("K9i k7e +R1c +R2a", "b", "-", "2a2d", "▲２四龍左"),
    ("K9i k5a +R9e +R1e", "b", "-", "9e5e", "▲５五龍左"),
    ("K9i k5a +R9e +R1e", "b", "-", "1e5e", "▲５五龍右"),
    ("K9i k9a +R5i +R1e", "b", "-", "5i5e", "▲５五龍上"),
    ("K9i k9a +R5i +R1e", "b", "-", "1e5e", "▲５五龍寄"),
    ("K9i k3a +B5e +B7f", "b", "-", "5e5d", "▲５四馬右"),
    ("K9i k3a +B5e +B7f", "b", "-", "7f5d", "▲５四馬左"),
    ("K9i k9a +B1a +B5a", "b", "-", "1a3c", "▲３三馬右"),
    ("K9i k9a +B1a +B5a", "b", "-", "5a3c", "▲３三馬左"),
    # Knights always 右/左.
    ("K9i k9a N6g N4g", "b", "-", "6g5e", "▲５五桂左"),
    ("K9i k9a N6g N4g", "b", "-", "4g5e", "▲５五桂右"),
    # 打 only when a board piece of the same kind could also go there.
    ("K9i k9a S4f", "b", "S", "S*5e", "▲５五銀打"),
    ("K9i k9a S4f", "b", "S", "4f5e", "▲５五銀"),
    ("K9i k9a S4h", "b", "S", "S*5e", "▲５五銀"),
    ("K9i k9a G4h", "b", "S", "S*5e", "▲５五銀"),
    # Promotion: 成, 不成 when it was possible, nothing when it was not; forced promotion is 成.
    ("K9i k9a N4e", "b", "-", "4e3c+", "▲３三桂成"),
    ("K9i k9a N4e", "b", "-", "4e3c", "▲３三桂不成"),
    ("K9i k9a S7c", "b", "-", "7c6d", "▲６四銀不成"),
    ("K9i k9a S7e", "b", "-", "7e6f", "▲６六銀"),
    ("K9i k9a P2b", "b", "-", "2b2a+", "▲２一歩成"),
    ("K9i k9a N4c", "b", "-", "4c3a+", "▲３一桂成"),
    # Different kinds never disambiguate each other: と, 成銀 and 金 are all distinct.
    ("K9i k9a +P6i G4i +S5i", "b", "-", "6i5h", "▲５八と"),
    ("K9i k9a +P6i G4i +S5i", "b", "-", "5i5h", "▲５八成銀"),
    # Gote: the frame turns round (gote's right is sente's left).
    ("K9i k1i g6a g5a g4a", "w", "-", "4a5b", "△５二金左"),
    ("K9i k1i g6a g5a g4a", "w", "-", "6a5b", "△５二金右"),
    ("K9i k1i g6a g5a g4a", "w", "-", "5a5b", "△５二金直"),
    ("K9i k1i g6c g4b", "w", "-", "6c5c", "△５三金寄"),
    ("K5i k5a +r9e +r1e", "w", "-", "1e5e", "△５五龍左"),
    ("K1i k1a s8f s6f s8h", "w", "-", "8f7g+", "△７七銀右上成"),
]


@pytest.mark.parametrize(("pieces", "turn", "hand", "usi", "expected"), CASES)
def test_ki2_modifiers(pieces: str, turn: str, hand: str, usi: str, expected: str) -> None:
    board = board_from(pieces, turn, hand)
    move = Move.from_usi(usi)
    assert make_ki2_move(board, move) == expected
    assert parse_ki2_move(board, expected) == move
    assert parse_ki2_move(board, expected[1:]) == move  # the mark is optional


AMBIGUOUS = [
    ("K9i k9a G6i G5i G4i", "b", "５八金"),
    ("K9i k1a S8d S6d S8b", "b", "７三銀左成"),  # 8d and 8b are both on the left
    ("K9i k1a S8d S6d S8b", "b", "７三銀成"),
    ("K9i k5a +R9e +R1e", "b", "５五龍"),
    ("K9i k9a N6g N4g", "b", "５五桂"),
]


@pytest.mark.parametrize(("pieces", "turn", "text"), AMBIGUOUS)
def test_missing_modifiers_are_ambiguous(pieces: str, turn: str, text: str) -> None:
    with pytest.raises(AmbiguousMoveError, match="ambiguous"):
        parse_ki2_move(board_from(pieces, turn), text)


def test_without_da_a_board_move_wins() -> None:
    board = board_from("K9i k9a S4f", "b", "S")
    assert parse_ki2_move(board, "５五銀") == Move.from_usi("4f5e")
    assert parse_ki2_move(board, "５五銀打") == Move.from_usi("S*5e")


def test_same_square_dou() -> None:
    board = board_from("K9i k1a P7g p7e S8h r7a", "w", "-")
    board.push_usi("7e7f")
    assert make_ki2_move(board, Move.from_usi("7g7f")) == "▲同　歩"
    assert make_kif_move(board, Move.from_usi("7g7f")) == "同　歩(77)"
    assert parse_ki2_move(board, "▲同　歩") == Move.from_usi("7g7f")
    for text in ("同歩", "同 歩", "▲同歩", "同　歩(77)"):
        assert parse_ki2_move(board, text) == Move.from_usi("7g7f")
    board.push_usi("7g7f")
    assert make_ki2_move(board, Move.from_usi("7a7f")) == "△同　飛"
    # previous_to overrides the stack; -1 turns 同 off.
    assert make_ki2_move(board, Move.from_usi("7a7f"), previous_to=-1) == "△７六飛"


def test_same_square_with_longer_remainder_is_not_padded() -> None:
    board = board_from("K9i k1a +S6h G4h p5f", "w", "-")
    board.push_usi("5f5g")
    assert make_ki2_move(board, Move.from_usi("6h5g")) == "▲同成銀"
    assert make_kif_move(board, Move.from_usi("6h5g")) == "同　成銀(68)"
    board3 = board_from("K9i k1a S6h S4h p5f", "w", "-")
    board3.push_usi("5f5g")
    assert make_ki2_move(board3, Move.from_usi("6h5g")) == "▲同銀左"


def test_pinned_candidate_counts_as_jsa_writers_count_it() -> None:
    # The gold on 4i is pinned by the rook on 1i, but it could go to 5h by its movement: JSA
    # writers (and cshogi, tsshogi) tell the golds apart all the same.
    board = board_from("K5i k9a G6i G4i r1i", "b", "-")
    move = Move.from_usi("6i5h")
    assert make_ki2_move(board, move) == "▲５八金左"
    assert parse_ki2_move(board, "▲５八金左") == move
    # Programs that leave the pinned gold out (shogiban before this rule) wrote 金 alone.
    assert parse_ki2_move(board, "▲５八金") == move
    # 右 names the pinned gold: the move JSA writers mean, which is illegal.
    assert resolve_japanese(board, "▲５八金右") == Move.from_usi("4i5h")
    with pytest.raises(IllegalMoveError, match="check") as raised:
        parse_ki2_move(board, "▲５八金右")
    assert raised.value.code == "self_check"


def test_drop_is_marked_when_only_a_pinned_piece_could_go_there() -> None:
    # Issue 10, finding 12: the gold on 3f is pinned by the bishop on 4e, yet 打 is written.
    board = Board("4k4/9/9/9/5b3/6G2/7K1/9/9 b G 1")
    assert make_ki2_move(board, Move.from_usi("G*2e")) == "▲２五金打"
    assert parse_ki2_move(board, "▲２五金打") == Move.from_usi("G*2e")
    # Without 打 it names the pinned gold's move, unless (as here) that move is illegal and the
    # drop is legal: what a writer that leaves pinned pieces out means.
    assert resolve_japanese(board, "▲２五金") == Move.from_usi("G*2e")
    assert resolve_japanese(Board("4k4/9/9/9/5b3/6G2/7K1/9/9 b - 1"), "▲２五金") == Move.from_usi("3f2e")


def test_modifier_is_written_against_a_pinned_rival() -> None:
    # Issue 10, finding 12: golds on 3f (pinned) and 1f both reach 2e.
    board = Board("4k4/9/9/9/5b3/6G1G/7K1/9/9 b - 1")
    assert make_ki2_move(board, Move.from_usi("1f2e")) == "▲２五金右"
    assert parse_ki2_move(board, "▲２五金右") == Move.from_usi("1f2e")
    assert parse_ki2_move(board, "▲２五金") == Move.from_usi("1f2e")  # the only legal one
    with pytest.raises(IllegalMoveError):
        parse_ki2_move(board, "▲２五金左")


def test_dragon_pair_with_pinned_partner_accepts_both_readings() -> None:
    # Dragons on 1c and 2a may both go to 2d; the one on 2a is pinned to the king on 2i? No:
    # a gote rook on 3a pins nothing here, so both are legal and the modifiers are needed.
    board = board_from("K9i k7e +R1c +R2a", "b", "-")
    with pytest.raises(AmbiguousMoveError):
        parse_ki2_move(board, "２四龍")


def test_matches_cshogi_on_random_positions_with_pins() -> None:
    """Every legal move of 400 random positions (half with a pinned piece): our KI2 text reads back
    to the move, and equals cshogi's except where a known cshogi deviation explains it."""
    cshogi = pytest.importorskip("cshogi")
    ki2 = pytest.importorskip("cshogi.KI2")
    compared = 0
    explained: Counter[str] = Counter()
    for board in random_positions(400, seed=12):
        theirs_board = cshogi.Board(board.sfen())
        for move in board.legal_moves:
            text = make_ki2_move(board, move)
            assert parse_ki2_move(board, text) == move, (board.sfen(), move, text)
            theirs = ki2.move_to_ki2(theirs_board.move_from_usi(move.usi()), theirs_board)
            mine, theirs = text.replace("　", ""), theirs.replace("竜", "龍").replace("　", "")
            compared += 1
            if mine != theirs:
                explained[cshogi_difference(board, move, mine, theirs)] += 1
    assert compared > 30000
    assert sum(explained.values()) < compared // 1000, explained


def test_pins_make_a_difference_in_the_random_positions() -> None:
    """The random positions do test pins: some moves' modifiers (or 打) are there only because a
    pinned piece of the kind could reach the square."""
    pinned_cases = 0
    for board in random_positions(400, seed=12):
        legal = list(board.legal_moves)
        for move in legal:
            rivals = {sq for sq in board.attackers(board.turn, move.to_square)
                      if board._board[sq] & 15 == (move.drop or board._board[move.from_square or 0] & 15)}
            rivals.discard(move.from_square)  # type: ignore[arg-type]
            legal_rivals = {m.from_square for m in legal if m.to_square == move.to_square and m.from_square in rivals}
            pinned_cases += bool(rivals) and not legal_rivals
    assert pinned_cases > 40
