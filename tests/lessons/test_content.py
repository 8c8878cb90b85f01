"""The lessons' data, checked against the rules core and the text catalogue."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from shogiban.board import Board
from shogiban.i18n import LANGUAGES
from shogiban.lessons.content import get_lesson, load_lessons, render_lesson, try_move
from shogiban.move import Move

CATALOGUE_FILES = ("en", "ja", "zh-Hant", "zh-Hans")


def test_every_section_text_exists_in_every_language() -> None:
    for name in CATALOGUE_FILES:
        text = resources.files("shogiban.i18n").joinpath(f"{name}.json").read_text("utf-8")
        catalogue = json.loads(text)
        for lesson in load_lessons():
            assert catalogue.get(f"lessons.{lesson.id}.title"), (lesson.id, name)
            for index in range(len(lesson.sections)):
                assert catalogue.get(lesson.text_key(index)), (lesson.text_key(index), name)


def test_game_end_diagram_is_checkmate() -> None:
    spec = get_lesson("game_end").sections[0]["diagram"]
    board = Board(spec["sfen"])
    assert board.is_check()
    assert list(board.legal_moves) == []


@pytest.mark.parametrize(("text", "code"), [("nifu", "nifu"), ("uchifuzume", "uchifuzume"), ("dead_end", "dead_piece"),
                                          ("self_check", "self_check"), ("bad_move", "bad_piece_move")])
def test_game_end_illegal_moves_are_refused_with_their_code(text: str, code: str) -> None:
    index = next(i for i, s in enumerate(get_lesson("game_end").sections) if s["text"] == text)
    spec = get_lesson("game_end").sections[index]["exercise"]
    assert spec["code"] == code
    board = Board(spec["sfen"])
    for usi in spec["try"]:
        assert Move.from_usi(usi) not in set(board.legal_moves)
        for lang in LANGUAGES:
            result = try_move("game_end", index, usi, lang)
            assert result["legal"] is False
            assert result["code"] == code
            assert result["success"] is True


def test_game_end_legal_move_is_not_the_goal() -> None:
    index = next(i for i, s in enumerate(get_lesson("game_end").sections) if s["text"] == "self_check")
    result = try_move("game_end", index, "5h5g", "en")
    assert result["legal"] is True
    assert result["success"] is False


def test_game_end_renders_in_chinese_without_japanese_middle_dot() -> None:
    for lang in ("zh-hant", "zh-hans"):
        lesson = render_lesson("game_end", lang)
        assert "・" not in lesson["title"]
        assert all("・" not in p for s in lesson["sections"] for p in s["paragraphs"])


def test_fork_answer_is_legal_checks_and_attacks_the_rook() -> None:
    spec = get_lesson("tactics").sections[_section("tactics", "fork")]["exercise"]
    board = Board(spec["sfen"])
    legal = set(board.legal_moves)
    for usi in spec["answer"]:
        move = Move.from_usi(usi)
        assert move in legal
        board.push(move)
        assert board.is_check()
        # After the king steps away, the knight takes the rook.
        board.push(Move.from_usi("5a6b"))
        knight = Move.from_usi(usi[2:] + "3a+")  # a knight on the last rank must promote
        assert knight in set(board.legal_moves)
        board.pop()
        board.pop()


def test_answer_goal_accepts_only_the_answer() -> None:
    good = try_move("tactics", 0, "N*4c", "en")
    assert good["legal"] is True
    assert good["success"] is True
    other = try_move("tactics", 0, "N*5c", "en")
    assert other["legal"] is True
    assert other["success"] is False
    assert other["feedback"] != good["feedback"]


# -- issue 25: notation, setting up, handicaps ---------------------------------------------------

from shogiban.handicaps import find_handicap  # noqa: E402
from shogiban.lessons.content import (  # noqa: E402
    BadAnswerError,
    LessonFileError,
    check_lessons,
    parse_lessons,
    start_pieces,
    try_choice,
    try_square,
)


def _section(lesson_id: str, text: str) -> int:
    return next(i for i, s in enumerate(get_lesson(lesson_id).sections) if s["text"] == text)


def test_the_lesson_file_is_sound() -> None:
    assert check_lessons() == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["lesson"][0]["section"].append({"text": "x", "exercise": {"goal": "win"}}), "unknown goal"),
        (lambda d: d["placements"]["ohashi"].__setitem__(0, "5e"), "no piece of sente stands on '5e'"),
        (lambda d: d["placements"]["ito"].pop(), "places each of sente's 20 pieces once"),
        (lambda d: d["lesson"][0]["section"].append(
            {"text": "x", "exercise": {"goal": "choice", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1", "moves": ["5i5g"]}}),
         "5i5g"),
        (lambda d: d["lesson"][0]["section"].append({"text": "x", "exercise": {"goal": "choice", "handicap": "角落"}}),
         "unknown handicap"),
        (lambda d: d["lesson"][0]["section"].append(
            {"text": "x", "exercise": {"goal": "square", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1", "answer": "7j"}}),
         "7j"),
        (lambda d: d["lesson"][0]["section"].append(
            {"text": "x", "exercise": {"goal": "answer", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1", "answer": ["5i5g"]}}),
         "not legal"),
        (lambda d: d["lesson"][0]["section"].append({"text": "x", "diagram": {"handicaps": ["香落ち", "九枚落ち"]}}),
         "九枚落ち"),
    ],
)
def test_a_typo_in_the_lesson_file_fails_loading(change: object, problem: str) -> None:
    import tomllib

    data = tomllib.loads(resources.files("shogiban.lessons").joinpath("lessons.toml").read_text("utf-8"))
    parse_lessons(data)  # sound as it is
    assert callable(change)
    change(data)
    with pytest.raises(LessonFileError, match=problem) as raised:
        parse_lessons(data)
    assert isinstance(raised.value, ValueError)
    assert raised.value.code == "bad_lesson"


def test_square_goal_accepts_the_square_and_names_a_wrong_one() -> None:
    index = _section("notation", "find_square")
    assert get_lesson("notation").sections[index]["exercise"]["answer"] == "2f"
    wrong = try_square("notation", index, "3d", "ja")
    assert wrong["success"] is False
    assert wrong["feedback"] == "そこは３四（３筋、四段）です。もう一度。"
    assert "3d: file 3, rank d" in try_square("notation", index, "3d", "en")["feedback"]
    right = try_square("notation", index, "2f", "zh-hant")
    assert right["success"] is True
    assert "２六" in right["feedback"]
    with pytest.raises(ValueError, match="invalid square"):
        try_square("notation", index, "0z", "en")
    with pytest.raises(BadAnswerError):
        try_move("notation", index, "2g2f", "en")
    with pytest.raises(BadAnswerError):
        try_choice("notation", index, "2f", "en")


def test_choice_goal_names_moves_with_the_notation_modules() -> None:
    index = _section("notation", "modifiers")
    lesson = render_lesson("notation", "ja")["sections"][index]["exercise"]
    labels = {c["id"]: c["label"] for c in lesson["choices"]}
    assert labels["6i5h"] == "▲５八金左"
    assert labels["4i5h"] == "▲５八金右"
    assert lesson["lastMove"] == "6i5h"
    board = Board()
    for usi, label in labels.items():  # every choice is a legal move's real name
        assert Move.from_usi(usi) in set(board.legal_moves)
        assert board.japanese(Move.from_usi(usi)) == label
    assert try_choice("notation", index, "6i5h", "en")["success"] is True
    wrong = try_choice("notation", index, "4i5h", "en")
    assert wrong["success"] is False
    assert wrong["arrows"] == [["4i", "5h"]]
    assert "▲５八金右" in wrong["feedback"]
    with pytest.raises(BadAnswerError):
        try_choice("notation", index, "9g9f+", "en")
    promote = _section("notation", "promote")
    names = {c["label"] for c in render_lesson("notation", "ja")["sections"][promote]["exercise"]["choices"]}
    assert {"▲２二角成", "▲２二角不成"} <= names
    same = _section("notation", "same_square")
    hans = {c["id"]: c["label"] for c in render_lesson("notation", "zh-hans")["sections"][same]["exercise"]["choices"]}
    assert hans["3a2b"] == "△同\u3000银"
    csa = _section("notation", "other_forms")
    forms = {c["id"]: c["label"] for c in render_lesson("notation", "en")["sections"][csa]["exercise"]["choices"]}
    assert forms["2g2f"] == "+2726FU"
    assert try_choice("notation", csa, "2g2f", "zh-hant")["success"] is True


def test_handicap_choice_and_diagram() -> None:
    index = _section("handicaps", "which")
    exercise = render_lesson("handicaps", "zh-hant")["sections"][index]["exercise"]
    assert exercise["sfen"] == find_handicap("二枚落ち").sfen
    assert {"id": "two-piece", "label": "讓二子"} in exercise["choices"]
    assert try_choice("handicaps", index, "two-piece", "ja")["feedback"] == "正解です：二枚落ち。"
    assert try_choice("handicaps", index, "rook", "en")["success"] is False
    steps = render_lesson("handicaps", "ja")["sections"][0]["diagram"]["steps"]
    names = [find_handicap(step["handicap"]).japanese for step in steps]
    assert names == ["香落ち", "右香落ち", "角落ち", "飛車落ち", "飛香落ち", "二枚落ち", "三枚落ち", "四枚落ち",
                     "五枚落ち", "六枚落ち", "八枚落ち", "十枚落ち"]
    assert steps[2]["highlights"] == ["2b"]
    assert "角落ち" in steps[2]["caption"]
    assert len(steps[-1]["highlights"]) == 10


OHASHI = ["5i", "6i", "4i", "7i", "3i", "8i", "2i", "9i", "1i", "8h", "2h",
          "5g", "6g", "4g", "7g", "3g", "8g", "2g", "9g", "1g"]


def test_placement_goal_follows_ohashi_and_explains_mistakes() -> None:
    index = _section("setup", "try_ohashi")
    order = get_lesson("setup").sections[index]["exercise"]["placements"]
    assert order == OHASHI
    assert sorted(order) == sorted(start_pieces())
    step = 0
    for square in order:
        result = try_square("setup", index, square, "en", step)
        assert result["success"] is True
        step = result["step"]
    assert result["done"] is True
    assert result["sfen"].split()[0] == "9/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
    # Wrong order: the right gold before the left one; a later piece; an empty square; a filled one.
    side = try_square("setup", index, "4i", "en", 1)
    assert side["success"] is False
    assert side["step"] == 1
    assert "left one" in side["feedback"]
    assert "gold" in side["feedback"]
    later = try_square("setup", index, "5g", "ja", 3)
    assert later["feedback"] == "５七の歩兵はもっと後に並べます。次は銀将です。"
    assert "5e" in try_square("setup", index, "5e", "en", 3)["feedback"]
    assert "already" in try_square("setup", index, "5i", "en", 3)["feedback"]
    with pytest.raises(BadAnswerError):
        try_square("setup", index, "5i", "en", 20)


def test_setup_diagrams_place_one_piece_per_step() -> None:
    lesson = render_lesson("setup", "zh-hans")
    ohashi, ito = (lesson["sections"][i]["diagram"]["steps"] for i in (0, 1))
    assert [s["highlights"][0] for s in ohashi] == OHASHI
    assert [s["highlights"][0] for s in ito][7:] == ["9g", "8g", "7g", "6g", "5g", "4g", "3g", "2g", "1g",
                                                      "9i", "1i", "8h", "2h"]
    for steps in (ohashi, ito):
        assert steps[-1]["sfen"].split()[0] == "9/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
    assert ohashi[0]["caption"] == "1/20：玉将放在５九"


# -- issue 25, second slice: how a game ends, ranks, castles and tactics ----------------------------

from shogiban import rules  # noqa: E402
from shogiban.outcome import EnteringKingRule  # noqa: E402


def test_game_end_nifu_position_has_a_free_file_and_the_drop_there_is_legal() -> None:
    index = _section("game_end", "nifu")
    board = Board(get_lesson("game_end").sections[index]["exercise"]["sfen"])
    assert board.check_move(Move.from_usi("P*2e")) is None  # file 2 has no pawn of sente
    assert try_move("game_end", index, "P*2e", "en")["success"] is False
    refused = try_move("game_end", index, "P*7e", "zh-hans")
    assert refused["code"] == "nifu"
    assert "二步" in refused["feedback"]


def test_game_end_uchifuzume_would_be_mate() -> None:
    index = _section("game_end", "uchifuzume")
    board = Board(get_lesson("game_end").sections[index]["exercise"]["sfen"])
    # Dropping the pawn is refused because it would mate: the same position with the pawn there is mate.
    mated = Board(board.sfen().replace("kn7/9", "kn7/P8").replace(" b P ", " w - "))
    assert mated.is_checkmate()


def test_game_end_time_diagram_has_a_mate_in_one_and_links_the_draws() -> None:
    lesson = get_lesson("game_end")
    board = Board(lesson.sections[_section("game_end", "time")]["diagram"]["sfen"])
    board.push_usi("G*5b")
    assert board.is_checkmate()
    for lang in LANGUAGES:
        links = render_lesson("game_end", lang)["sections"][_section("game_end", "draws")]["links"]
        assert [link["id"] for link in links] == ["repetition", "impasse"]
        assert links[0]["title"] == render_lesson("repetition", lang)["title"]


def test_count_the_declaration_points_is_computed_by_the_core() -> None:
    index = _section("impasse", "count_points")
    spec = get_lesson("impasse").sections[index]["exercise"]
    board = Board(spec["sfen"])
    points, pieces = rules.declaration_points(board, board.turn)
    assert (points, pieces) == (23, 11)
    for lang in LANGUAGES:
        choices = render_lesson("impasse", lang)["sections"][index]["exercise"]["choices"]
        ids = [c["id"] for c in choices]
        assert len(ids) == 4
        assert len(set(ids)) == 4
        assert str(points) in ids
        for choice in ids:
            assert try_choice("impasse", index, choice, lang)["success"] is (choice == str(points))
    assert try_choice("impasse", index, "15", "en")["feedback"] == "15 points is not the answer. Try again."
    assert try_choice("impasse", index, "23", "ja")["feedback"] == "正解です：23点。"


def test_does_this_declaration_win_is_answered_by_the_core() -> None:
    index = _section("impasse", "declare_wins")
    spec = get_lesson("impasse").sections[index]["exercise"]
    status = rules.declaration_status(Board(spec["sfen"]), EnteringKingRule.POINTS_27)
    # Every condition holds but one: sente has 27 points, and sente needs 28.
    assert status.king_in_camp
    assert not status.in_check
    assert status.pieces_in_camp[0] >= 10
    assert status.points[0] == 27
    assert status.win_points == 28
    assert status.wins is False
    assert try_choice("impasse", index, "yes", "en")["success"] is False
    assert "28" not in try_choice("impasse", index, "yes", "en")["feedback"]  # a wrong pick does not give it away
    right = try_choice("impasse", index, "no", "en")
    assert right["success"] is True
    assert right["feedback"] == "Right: No. Declaring now does not win: you have 27 points (28 are needed)."
    assert "28点必要" in try_choice("impasse", index, "no", "ja")["feedback"]
    # One more pawn in hand and the same declaration wins.
    richer = Board(spec["sfen"].replace("BN6P", "BN7P"))
    assert rules.declaration_status(richer, EnteringKingRule.POINTS_27).wins


@pytest.mark.parametrize(
    ("section", "problem"),
    [
        ({"text": "x", "exercise": {"goal": "choice", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1", "ask": "material"}},
         "unknown ask"),
        ({"text": "x", "exercise": {"goal": "choice", "options": ["dan1", "kyu1"], "answer": "dan9"}},
         "not an option"),
        ({"text": "x", "exercise": {"goal": "choice", "options": ["dan1"], "answer": "dan1"}}, "two or more"),
        ({"text": "x", "see": ["castle"]}, "no lesson 'castle'"),
        ({"text": "x", "exercise": {"goal": "answer", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b P 1", "answer": ["P*5e"],
                                    "why": {"P*5e": "x"}}}, "not a legal wrong move"),
    ],
)
def test_new_kinds_of_entries_are_checked_at_load(section: dict[str, object], problem: str) -> None:
    import tomllib

    data = tomllib.loads(resources.files("shogiban.lessons").joinpath("lessons.toml").read_text("utf-8"))
    data["lesson"][0]["section"].append(section)
    with pytest.raises(LessonFileError, match=problem):
        parse_lessons(data)


def test_ranks_choices() -> None:
    stronger = _section("ranks", "stronger")
    assert try_choice("ranks", stronger, "dan1", "ja")["feedback"] == "正解です：初段。"
    wrong = try_choice("ranks", stronger, "kyu1", "en")
    assert wrong["success"] is False
    assert wrong["feedback"] == "1-kyu (1級) is not the answer. Try again."
    assert try_choice("ranks", _section("ranks", "pro_start"), "dan4", "zh-hans")["success"] is True
    labels = [c["label"] for c in render_lesson("ranks", "zh-hans")["sections"][stronger]["exercise"]["choices"]]
    assert labels == ["1级", "初段"]
    # The text says only what the app has: eight computer levels and a puzzle rating from 1500.
    from shogiban.engine.levels import MAX_LEVEL, MIN_LEVEL

    assert (MIN_LEVEL, MAX_LEVEL) == (1, 8)
    glicko = resources.files("shogiban.web").joinpath("static/learn/glicko.js").read_text("utf-8")
    assert "rating: 1500" in glicko


def _wins_the_piece(spec: dict[str, object], target: str) -> bool:
    """After the answer, whatever gote replies, sente can capture gote's *target* piece (a SFEN letter)."""
    board = Board(str(spec["sfen"]))
    answers = spec["answer"]
    assert isinstance(answers, list)
    board.push_usi(answers[0])
    for reply in list(board.legal_moves):
        board.push(reply)
        pieces = board.pieces(board.turn.other).items()
        squares = [sq for sq, piece in pieces if piece.symbol().upper().lstrip("+") == target]
        if not any(m.to_square in squares for m in board.legal_moves):
            return False
        board.pop()
    return True


@pytest.mark.parametrize(("text", "target"), [("fork", "R"), ("dragon", "R"), ("pin", "S"), ("knight", "N")])
def test_each_tactic_wins_the_piece_against_every_reply(text: str, target: str) -> None:
    spec = get_lesson("tactics").sections[_section("tactics", text)]["exercise"]
    assert len(spec["answer"]) == 1
    assert _wins_the_piece(spec, target)
    # The explained wrong move does not win it.
    wrong = dict(spec, answer=list(spec["why"]))
    assert not _wins_the_piece(wrong, target)


def test_tactics_accept_only_the_answer_and_explain_the_plausible_wrong_move() -> None:
    for lesson_id in ("tactics", "castles"):
        for index, section in enumerate(get_lesson(lesson_id).sections):
            spec = section.get("exercise")
            if spec is None:
                continue
            board = Board(spec["sfen"])
            accepted = [m.usi() for m in board.legal_moves if try_move(lesson_id, index, m.usi(), "en")["success"]]
            assert accepted == spec["answer"], (lesson_id, section["text"])
            for usi, key in spec["why"].items():
                for lang in LANGUAGES:
                    result = try_move(lesson_id, index, usi, lang)
                    assert result["success"] is False
                    assert result["feedback"] == render_text(f"lessons.{lesson_id}.{key}", lang)


def render_text(key: str, lang: str) -> str:
    from shogiban.i18n import translate

    return translate(key, lang)


def test_the_rook_pawn_exchange_gains_a_pawn() -> None:
    steps = render_lesson("tactics", "en")["sections"][_section("tactics", "exchange")]["diagram"]["steps"]
    after = Board(steps[-1]["sfen"])
    assert after.hand_count(0, 1) == 1  # sente has the pawn in hand
    spec = get_lesson("tactics").sections[_section("tactics", "try_exchange")]["exercise"]
    assert Board(spec["sfen"]).sfen() == Board(steps[-2]["sfen"]).sfen()  # the exercise starts where gote took
    board = Board(spec["sfen"])
    board.push_usi("2h2e")
    assert any(m.usi() == "2d2e" for m in board.legal_moves)  # the pawn takes the rook that stops short


@pytest.mark.parametrize(("text", "king", "golds", "silver"), [("yagura", "8h", {"7h", "6g"}, "7g"),
                                                             ("mino", "2h", {"4i", "5h"}, "3h"),
                                                             ("funa", "7h", {"6i", "5h"}, "7i")])
def test_castles_put_the_king_among_golds_and_a_silver(text: str, king: str, golds: set[str], silver: str) -> None:
    from shogiban.squares import SQUARE_NAMES

    spec = get_lesson("castles").sections[_section("castles", text)]["diagram"]
    board = Board(spec["sfen"])
    at = {SQUARE_NAMES[sq]: p.symbol() for sq, p in board.pieces(0).items()}
    assert at[king] == "K"
    assert all(at[sq] == "G" for sq in golds)
    assert at[silver] == "S"
    assert set(spec["highlights"]) == {king, silver} | golds
    # Gote is in the start position.
    assert spec["sfen"].startswith("lnsgkgsnl/1r5b1/ppppppppp/")


# -- issue 25, third slice: the unpromoted bishop ---------------------------------------------------


def test_unpromoted_bishop_keeps_the_pawn_drop_legal_and_the_horse_makes_it_uchifuzume() -> None:
    spec = get_lesson("tactics").sections[_section("tactics", "bishop_unpromoted")]["exercise"]
    assert spec["answer"] == ["1e3c"]
    assert list(spec["why"]) == ["1e3c+"]
    for usi, legal in (("1e3c", True), ("1e3c+", False)):
        board = Board(spec["sfen"])
        assert not board.is_check()
        board.push_usi(usi)
        assert board.is_check()
        assert [m.usi() for m in board.legal_moves] == ["1a1b"]  # the king's only move
        board.push_usi("1a1b")
        refusal = board.check_move(Move.from_usi("P*1c"))
        if legal:
            assert refusal is None
            board.push_usi("P*1c")
            assert board.is_check()
            assert [m.usi() for m in board.legal_moves] == ["1b2c"]  # driven out to 2c
        else:
            assert refusal is not None
            assert refusal.code == "uchifuzume"
    for lang in LANGUAGES:
        wrong = try_move("tactics", _section("tactics", "bishop_unpromoted"), "1e3c+", lang)
        assert wrong["success"] is False
        assert wrong["feedback"] == render_text("lessons.tactics.bishop_promoted_uchifuzume", lang)


# -- issue 25, last slice: 垂れ歩 and 叩きの歩 ---------------------------------------------------------


def _captures_on(board: Board, square: str) -> list[str]:
    return [m.usi() for m in board.legal_moves if m.usi()[2:4] == square]


def _engine_score_after(sfen: str, usi: str, depth: int) -> int:
    """The built-in engine's score for sente after *usi*, searched to *depth* (centipawns)."""
    from shogiban.engine import BuiltinSearch
    from shogiban.engines import Limit

    board = Board(sfen)
    board.push_usi(usi)
    score = BuiltinSearch(8, seed=0).search(board, Limit(depth=depth)).info["score"].relative
    assert score.cp is not None, score
    return -score.cp


def test_the_dangling_pawn_is_safe_one_square_short_of_the_zone_and_promotes_next() -> None:
    spec = get_lesson("tactics").sections[_section("tactics", "dangling_pawn")]["exercise"]
    board = Board(spec["sfen"])
    drops = sorted(m.usi() for m in board.legal_moves if m.usi().startswith("P*"))
    assert drops == [f"P*2{rank}" for rank in "bcdefghi"]  # file 2 is the only one without a sente pawn
    for wrong in ("P*2c", "P*2b"):
        after = Board(spec["sfen"])
        after.push_usi(wrong)
        assert _captures_on(after, wrong[2:]), wrong  # taken at once
        assert spec["why"][wrong] == "dangling_taken"
    after = Board(spec["sfen"])
    after.push_usi("P*2d")
    assert _captures_on(after, "2d") == []  # nothing reaches it
    after.push_usi("4a3a")
    assert Move.from_usi("2d2c+") in after.legal_moves  # and it promotes next move
    for lang in LANGUAGES:
        wrong_answer = try_move("tactics", _section("tactics", "dangling_pawn"), "P*2c", lang)
        assert wrong_answer["feedback"] == render_text("lessons.tactics.dangling_taken", lang)
        assert try_move("tactics", _section("tactics", "dangling_pawn"), "P*2d", lang)["success"] is True


def test_the_tapping_pawn_pulls_the_silver_off_the_rooks_promotion_square() -> None:
    spec = get_lesson("tactics").sections[_section("tactics", "tapping_pawn")]["exercise"]
    rushed = Board(spec["sfen"])
    rushed.push_usi("2h2c+")
    assert "1b2c" in _captures_on(rushed, "2c")  # the silver guards 2c
    tapped = Board(spec["sfen"])
    tapped.push_usi("P*1c")
    assert "1b1c" in _captures_on(tapped, "1c")  # the silver may take the pawn...
    tapped.push_usi("1b1c")
    tapped.push_usi("2h2c+")
    assert _captures_on(tapped, "2c") == []  # ...and then no longer guards 2c
    for lang in LANGUAGES:
        wrong = try_move("tactics", _section("tactics", "tapping_pawn"), "2h2c+", lang)
        assert wrong["feedback"] == render_text("lessons.tactics.tap_guarded", lang)


@pytest.mark.parametrize(("text", "answer"), [("dangling_pawn", "P*2d"), ("tapping_pawn", "P*1c")])
def test_the_engine_prefers_the_pawn_tactic_to_each_explained_wrong_move(text: str, answer: str) -> None:
    spec = get_lesson("tactics").sections[_section("tactics", text)]["exercise"]
    best = _engine_score_after(spec["sfen"], answer, 4)
    for wrong in spec["why"]:
        assert best >= _engine_score_after(spec["sfen"], wrong, 4) + 150, (answer, wrong)
