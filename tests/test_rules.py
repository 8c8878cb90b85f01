"""The shogi-specific rules, against the shared rule fixtures and hand-made positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from csa_moves import csa_moves, csa_to_move
from shogiban import BLACK, WHITE, Board, EnteringKingRule, IllegalMoveError, Move, Termination, rules


def legal(board: Board, usi: str) -> bool:
    return board.is_legal(Move.from_usi(usi))


# -- 二歩 (two pawns on a file) ---------------------------------------------------------------


def test_nifu_counts_only_own_unpromoted_pawns() -> None:
    board = Board("4k4/9/9/9/4+P4/9/4p4/9/4K4 b 2P 1")
    assert legal(board, "P*5f")  # a tokin and the opponent's pawn do not count
    board = Board("4k4/9/9/9/9/9/9/4P4/4K4 b P 1")
    assert not legal(board, "P*5c")
    assert board.is_nifu(Move.from_usi("P*5c"))
    assert legal(board, "P*4c")


def test_nifu_fixture(shared_data: Path) -> None:
    line = next(raw for raw in (shared_data / "rules_tests/rsshogi_move_sequences.txt").read_text().splitlines()
                if raw.startswith("double_pawn_illegal"))
    moves = line.split("|")[1].split()[3:]
    board = Board()
    for usi in moves[:-1]:
        board.push_usi(usi)
    with pytest.raises(IllegalMoveError, match="two pawns on file 6") as info:
        board.push_usi(moves[-1])
    assert info.value.code == "nifu"


# -- 打ち歩詰め (pawn-drop mate) -------------------------------------------------------------------


def test_pawn_drop_mate_with_a_pinned_capturer() -> None:
    # python-shogi accepts this drop: the gold on 2b could take the pawn, but it is pinned.
    board = Board("4R2gk/6G2/9/7N1/9/9/9/9/K8 b P 1")
    move = Move.from_usi("P*1b")
    assert not board.is_legal(move)
    assert board.is_uchifuzume(move)
    with pytest.raises(IllegalMoveError, match="pawn drop mate") as info:
        board.push_usi("P*1b")
    assert info.value.code == "uchifuzume"


@pytest.mark.parametrize("sfen", [
    "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1",  # shogiops' example
    "3rkr3/9/8p/4N4/1B7/9/1SG6/2S6/9 b LPp 1",   # the same without a sente king (tsume)
])
def test_pawn_drop_mate_but_lance_drop_mate_is_fine(sfen: str) -> None:
    board = Board(sfen, lenient=True)
    assert legal(board, "L*5b")
    assert not legal(board, "P*5b")
    board.push_usi("L*5b")
    assert board.is_checkmate()


def test_pawn_push_mate_is_legal() -> None:
    # 突き歩詰め: mating by moving a pawn is allowed.
    board = Board("3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1")
    assert legal(board, "5c5b")
    board.push_usi("5c5b")
    assert board.is_checkmate()


def test_pawn_drop_check_that_can_be_answered_is_legal() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b P 1")
    assert legal(board, "P*5b")


def test_pawn_drop_mate_server_fixtures(shared_data: Path) -> None:
    server = shared_data / "csa/shogi-server"
    board = Board()
    for line in csa_moves(server / "uchifuzume.csa"):
        board.push_legal(csa_to_move(board, line))
    assert board.turn == WHITE
    refusal = board.check_move(Move.from_usi("P*6d"))
    assert refusal is not None
    assert refusal.message == "pawn drop mate (打ち歩詰め)"
    board = Board()
    for line in csa_moves(server / "not_uchifuzume.csa"):
        board.push_legal(csa_to_move(board, line))
    assert legal(board, "P*9b")  # looks like mate, but a capture answers it


def test_pawn_drop_mate_sequence_fixture(shared_data: Path) -> None:
    line = next(raw for raw in (shared_data / "rules_tests/rsshogi_move_sequences.txt").read_text().splitlines()
                if raw.startswith("uchifuzume_illegal"))
    moves = line.split("|")[1].split()[3:]
    board = Board(tournament=True)
    for usi in moves:
        board.push_usi(usi)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert outcome.winner == BLACK  # gote dropped the pawn


# -- 行き所のない駒 and promotion ----------------------------------------------------------------


@pytest.mark.parametrize(("sfen", "move", "allowed"), [
    ("4k4/9/9/P8/9/9/9/9/4K4 b - 1", "9d9c", True),     # into the zone: optional
    ("4k4/9/9/P8/9/9/9/9/4K4 b - 1", "9d9c+", True),
    ("4k4/9/P8/9/9/9/9/9/4K4 b - 1", "9c9b", True),     # inside the zone
    ("4k4/9/P8/9/9/9/9/9/4K4 b - 1", "9c9b+", True),
    ("4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a", False),    # last rank: forced
    ("4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a+", True),
    ("4k4/9/9/9/N8/9/9/9/4K4 b - 1", "9e8c", True),     # knight to the third rank: optional
    ("4k4/9/N8/9/9/9/9/9/4K4 b - 1", "9c8a", False),    # knight to the last two ranks: forced
    ("4k4/9/N8/9/9/9/9/9/4K4 b - 1", "9c8a+", True),
    ("4k4/9/S8/9/9/9/9/9/4K4 b - 1", "9c8d+", True),    # out of the zone: may promote
    ("4k4/9/S8/9/9/9/9/9/4K4 b - 1", "9c8d", True),
    ("4k4/9/9/S8/9/9/9/9/4K4 b - 1", "9d8e+", False),   # neither square in the zone
    ("4k4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h5g+", False),  # gold never promotes
    ("4k4/9/9/9/9/9/9/9/4K4 b B 1", "B*1a", True),       # drops anywhere for a bishop...
    ("4k4/9/9/9/9/9/9/9/4K4 b L 1", "L*1b", True),       # ...a lance short of the last rank
    ("4k4/9/9/9/9/9/9/9/4K4 w l 1", "L*1i", False),      # gote's last rank is rank i
    ("4k4/9/9/9/9/9/9/9/4K4 w n 1", "N*1h", False),
    ("4k4/9/9/9/9/9/9/9/4K4 w n 1", "N*1g", True),
    ("4k4/9/9/9/9/9/9/p8/4K4 w - 1", "9h9i", False),
    ("4k4/9/9/9/9/9/9/p8/4K4 w - 1", "9h9i+", True),
])
def test_promotion_and_dead_pieces(sfen: str, move: str, allowed: bool) -> None:
    assert legal(Board(sfen), move) is allowed


def test_drops_are_never_promoted() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b S 1")
    board.push_usi("S*5c")
    assert board.piece_at(Move.from_usi("S*5c").to_square).piece_type == 4  # type: ignore[union-attr]


def test_checks_pins_and_evasions() -> None:
    # The silver on 5h is pinned by the rook on 5a: it may only move along the file.
    board = Board("4r4/9/9/9/9/9/9/4S4/4K4 b - 1", lenient=True)
    silver_moves = {m.usi() for m in board.legal_moves if m.from_square == Move.from_usi("5h5g").from_square}
    assert silver_moves == {"5h5g"}
    # In check: capture, block or run, nothing else.
    board = Board("4k4/9/9/9/4r4/9/9/9/4K3R b G 1")
    assert board.is_check()
    moves = {m.usi() for m in board.legal_moves}
    assert "1i1h" not in moves
    assert {"G*5f", "G*5g", "G*5h", "5i4i", "5i6h"} <= moves
    assert all(m.startswith(("5i", "G*5")) for m in moves)


# -- no legal move -------------------------------------------------------------------------------


def test_no_legal_move_without_check_is_a_loss() -> None:
    # python-shogi's perft position: sente has nine pawns in hand but every drop is 二歩 or dead.
    board = Board("+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200", lenient=True)
    assert not board.is_check()
    assert board.legal_moves.count() == 0
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner == WHITE


def test_checkmate() -> None:
    board = Board("1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116")
    assert board.is_checkmate()
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.CHECKMATE
    assert outcome.winner == BLACK
    assert outcome.result() == "1-0"


# -- 千日手 and perpetual check --------------------------------------------------------------------


def test_fourfold_repetition_fixture(shared_data: Path) -> None:
    line = next(raw for raw in (shared_data / "rules_tests/rsshogi_move_sequences.txt").read_text().splitlines()
                if raw.startswith("repetition_4fold"))
    moves = line.split("|")[1].split()[3:]
    board = Board()
    for i, usi in enumerate(moves, 1):
        board.push_usi(usi)
        if i < len(moves):
            assert board.outcome() is None, f"ended early at ply {i}"
    assert board.repetition_count() == 4
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.REPETITION
    assert outcome.winner is None
    board.pop()
    assert board.outcome() is None


def test_repetition_needs_both_hands_equal() -> None:
    # Shuffling kings and rooks repeats the board, but a different gote hand makes it a new position.
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b - 1")
    shuffle = ["5i4i", "5a4a", "4i5i", "4a5a"]
    for _ in range(3):
        for usi in shuffle:
            board.push_usi(usi)
    assert board.repetition_count() == 4
    other = Board("4k4/9/9/9/9/9/9/9/4K4 b p 1")
    for _ in range(3):
        for usi in shuffle:
            other.push_usi(usi)
    assert other.repetition_count() == 4
    assert board.zobrist_hash() != other.zobrist_hash()


@pytest.mark.parametrize(("name", "ply", "winner"), [
    ("oute_sennichite.csa", 110, WHITE),   # the 4th occurrence is made by the escaping side (gote)
    ("oute_sennichite2.csa", 135, BLACK),
    ("oute_sennichite3.csa", 134, WHITE),
])
def test_perpetual_check_loses_for_the_checker(shared_data: Path, name: str, ply: int, winner: int) -> None:
    board = Board()
    lines = csa_moves(shared_data / "csa/shogi-server" / name)
    for i, line in enumerate(lines, 1):
        board.push_legal(csa_to_move(board, line))
        if i < ply:
            assert board.outcome() is None, f"ended early at ply {i}"
        if i == ply:
            break
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.PERPETUAL_CHECK
    assert outcome.winner == winner


def test_title_game_ends_in_sennichite(shared_data: Path) -> None:
    text = (shared_data / "multi_format/ShogiBoardQ-kiou202503020101/kiou202503020101.usi").read_text()
    tokens = text.split()
    moves = [t for t in tokens[tokens.index("moves") + 1:] if t != "rep_draw"]
    board = Board()
    for usi in moves:
        board.push_usi(usi)
    assert board.ply == 96
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.REPETITION


def test_other_server_games_do_not_end_early(shared_data: Path) -> None:
    floodgate = "wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa"
    for name in ("not_sennichite.csa", "max_moves_draw.csa", floodgate):
        board = Board()
        for line in csa_moves(shared_data / "csa/shogi-server" / name):
            board.push_legal(csa_to_move(board, line))
            assert board.outcome() is None


def test_max_moves() -> None:
    board = Board(max_moves=4)
    for usi in ("5i4h", "5a4b", "4h5i"):
        board.push_usi(usi)
        assert board.outcome() is None
    board.push_usi("4b5a")
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.MAX_MOVES
    assert outcome.winner is None


def test_max_moves_draw_fixture(shared_data: Path) -> None:
    board = Board(max_moves=256)
    for line in csa_moves(shared_data / "csa/shogi-server/max_moves_draw.csa"):
        board.push_legal(csa_to_move(board, line))
    outcome = board.outcome()
    assert board.ply == 256
    assert outcome is not None
    assert outcome.termination is Termination.MAX_MOVES


# -- entering king and impasse -------------------------------------------------------------------

KACHI = "+P+P1+P+PK1+P1/8G/3+P+S+P+P+P+L/9/8+B/3g+s+r3/+p1+p+s1+p+p+p1/+r2+n+pk+p+p1/1+p7 w 2GNbs2n3l 316"


def test_declaration_fixture(shared_data: Path) -> None:
    board = Board()
    for line in csa_moves(shared_data / "csa/shogi-server/jishogi_kachi.csa"):
        board.push_legal(csa_to_move(board, line))
    assert board.sfen() == KACHI
    assert board.can_declare_win()
    assert board.declaration_points(WHITE) == 27
    outcome = board.declare_win()
    assert outcome.termination is Termination.ENTERING_KING
    assert outcome.winner == WHITE
    assert board.outcome() == outcome


def test_declaration_thresholds_differ_by_side() -> None:
    board = Board(KACHI)
    assert not board.can_declare_win(EnteringKingRule.POINTS_24)  # 27 points: a draw under the 24-point rule
    assert not board.can_declare_win(EnteringKingRule.NONE)
    # Gote wins with 27 points; sente needs 28.
    black = Board("+P+P+P+P+PK3/+P+P+P+P+P4/9/9/9/9/9/9/4k4 b RB2G2S2N 1", lenient=True)
    assert black.declaration_points(BLACK) == 10 + 10 + 2 + 2 + 2 == 26
    black.set_hand_count(BLACK, 7, 0)
    black.set_hand_count(BLACK, 4, 0)
    black.set_hand_count(BLACK, 3, 1)
    black.set_hand_count(BLACK, 2, 1)  # 10 + 10 + 1 + 1 = 22
    assert black.declaration_points(BLACK) == 22
    black.set_hand_count(BLACK, 1, 6)
    assert black.declaration_points(BLACK) == 28
    assert black.can_declare_win()
    black.set_hand_count(BLACK, 1, 5)
    assert not black.can_declare_win()


def test_declaration_24_point_rule_draws_between_24_and_30() -> None:
    board = Board(KACHI, entering_king_rule=EnteringKingRule.POINTS_24)
    outcome = board.declare_win()
    assert outcome.termination is Termination.ENTERING_KING
    assert outcome.winner is None


@pytest.mark.parametrize(("sfen", "reason"), [
    ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "not in the enemy camp"),
    ("4K4/9/9/9/9/9/9/9/4k4 b 2R2B4G4S 1", "only 0 pieces in the enemy camp"),
    ("PPPPK4/PPPPP4/P8/9/9/9/9/9/4k4 b - 1", r"10 points \(28 needed\)"),
    ("PPPPK3r/PPPPP4/P8/9/9/9/9/9/4k4 b 2R2B 1", "in check"),
])
def test_failed_declarations(sfen: str, reason: str) -> None:
    board = Board(sfen, lenient=True)
    assert not board.can_declare_win()
    with pytest.raises(IllegalMoveError, match=reason):
        board.declare_win()
    tournament = Board(sfen, lenient=True, tournament=True)
    outcome = tournament.declare_win()
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert outcome.winner == WHITE


def test_declaration_handicap_adjustment() -> None:
    # A two-piece handicap game: the giver (gote) has entered with 20 points; the missing rook and
    # bishop (10 points) lower gote's 27-point threshold to 17 under the handicap variant.
    board = Board("4K4/9/9/9/9/9/ppppppppp/+p+p+p6/1k7 w RB2G2S2N2L6P2g2s2n2l 1")
    assert board.declaration_points(WHITE) == 20
    assert 54 - board.impasse_points(BLACK) - board.impasse_points(WHITE) == 10
    assert not board.can_declare_win(EnteringKingRule.POINTS_27)
    assert board.can_declare_win(EnteringKingRule.POINTS_27_HANDICAP)
    assert not board.can_declare_win(EnteringKingRule.POINTS_24_HANDICAP)  # 20 < 31 - 10


def test_impasse_count() -> None:
    board = Board(KACHI)
    black, white = board.impasse_points(BLACK), board.impasse_points(WHITE)
    assert black + white == 54
    outcome = board.settle_impasse()
    assert outcome.termination is Termination.IMPASSE
    expected = None if black >= 24 and white >= 24 else (WHITE if black < 24 else BLACK)
    assert outcome.winner == expected
    assert board.outcome() == outcome


def test_impasse_handicap_credits_the_giver() -> None:
    board = Board.from_handicap("二枚落ち")
    assert board.impasse_points(WHITE) == 17
    outcome = board.settle_impasse()
    assert outcome.winner is None  # 27 for sente; gote 17 + the missing 10 = 27


@pytest.mark.parametrize(("sfen", "code", "params"), [
    ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "king_not_in_camp", {"side": "sente"}),
    ("4K4/9/9/9/9/9/9/9/4k4 b 2R2B4G4S 1", "too_few_pieces", {"pieces": 0}),
    ("PPPPK4/PPPPP4/P8/9/9/9/9/9/4k4 b - 1", "too_few_points", {"points": 10, "need": 28}),
    ("PPPPK3r/PPPPP4/P8/9/9/9/9/9/4k4 b 2R2B 1", "declare_in_check", {"side": "sente"}),
])
def test_declaration_status_names_the_first_unmet_condition(sfen: str, code: str, params: dict[str, object]) -> None:
    from shogiban.i18n import refusal_key

    board = Board(sfen, lenient=True)
    status = rules.declaration_status(board, EnteringKingRule.POINTS_27)
    assert not status.may_declare
    assert not status.wins
    assert status.outcome is None
    assert status.refusal is not None
    assert status.refusal.code == code
    assert dict(status.refusal.params) == params
    assert refusal_key(code) == f"rules.{code}"
    with pytest.raises(IllegalMoveError) as caught:
        board.declare_win()
    assert caught.value.code == code


def test_declaration_status_points_thresholds_and_outcome() -> None:
    status = rules.declaration_status(Board(KACHI), EnteringKingRule.POINTS_27)
    assert status.color == WHITE
    assert status.king_in_camp
    assert not status.in_check
    assert status.points[WHITE] == 27
    assert status.pieces_in_camp[WHITE] >= 10
    assert (status.win_points, status.draw_points) == (27, None)
    assert status.wins
    assert status.refusal is None
    draw = rules.declaration_status(Board(KACHI), EnteringKingRule.POINTS_24)
    assert (draw.win_points, draw.draw_points) == (31, 24)
    assert draw.may_declare
    assert not draw.wins
    assert draw.outcome is not None
    assert draw.outcome.winner is None
    none = rules.declaration_status(Board(KACHI), EnteringKingRule.NONE)
    assert none.refusal is not None
    assert none.refusal.code == "no_declaration_rule"
    # The handicap giver's thresholds drop by the pieces the handicap removed (rook and bishop).
    giver = Board("4K4/9/9/9/9/9/ppppppppp/+p+p+p6/1k7 w RB2G2S2N2L6P2g2s2n2l 1")
    assert rules.declaration_thresholds(giver, EnteringKingRule.POINTS_27_HANDICAP, 1) == (17, None)
    assert rules.declaration_thresholds(giver, EnteringKingRule.POINTS_24_HANDICAP, 1) == (21, 14)
    assert rules.impasse_points(giver) == (giver.impasse_points(BLACK), giver.impasse_points(WHITE) + 10)


def _random_positions(count: int, seed: int) -> list[Board]:
    import random

    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = Board()
        for _ in range(rng.randint(5, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board.copy(stack=False))
    return boards


@pytest.mark.parametrize("compiled", [True, False])
def test_check_move_agrees_with_the_legal_move_list(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from shogiban.move import MOVES
    from shogiban.position import SPEEDUPS

    if compiled and SPEEDUPS is None:
        pytest.skip("the C accelerator is not built (pure Python)")
    if not compiled:
        monkeypatch.setattr(rules, "_c_legal_codes", None)
    rng = random.Random(7)
    for board in _random_positions(60, 11):
        legal = set(board.legal_codes())
        before = board.sfen()
        codes = list(legal) + [c for c in rng.sample(range(len(MOVES)), 600) if MOVES[c] is not None]
        for code in codes:
            move = MOVES[code]
            assert move is not None
            refusal = rules.check_move(board, move)
            assert (refusal is None) == (code in legal), (before, move, refusal)
            if refusal is not None:
                assert refusal.message
                assert refusal.params["square"] == move.to_square
        assert board.sfen() == before


def test_the_old_tuple_apis_are_deprecated_wrappers_of_the_refusal_apis() -> None:
    board = Board("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    nifu = Move.from_usi("P*5e")
    refusal = board.check_move(nifu)
    assert refusal is not None
    with pytest.deprecated_call():
        assert rules.illegal_reason(board, nifu) == (refusal.code, refusal.message)
    with pytest.deprecated_call():
        assert board.illegal_reason(nifu) == refusal.message
    status = rules.declaration_status(board, EnteringKingRule.POINTS_27)
    assert status.refusal is not None
    with pytest.deprecated_call():
        assert rules.declaration_result(board, EnteringKingRule.POINTS_27) == (None, status.refusal.message)
