"""The lessons' endpoints: every lesson in every language, diagrams and exercises decided by the
rules core."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from shogiban import Board, Move, i18n
from shogiban.lessons.content import load_lessons
from shogiban.web.learn import make_routes

warnings.filterwarnings("ignore", message=".*httpx2.*")

LANGS = ["en", "ja", "zh-Hant", "zh-Hans"]
STATIC = Path(__file__).resolve().parents[2] / "src" / "shogiban" / "web" / "static" / "learn"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(Starlette(routes=make_routes()))


def lesson(client: TestClient, lesson_id: str, lang: str = "en") -> dict[str, Any]:
    response = client.get(f"/api/learn/lessons/{lesson_id}?lang={lang}")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def attempt(client: TestClient, lesson_id: str, index: int, usi: str, lang: str = "en") -> dict[str, Any]:
    response = client.post(f"/api/learn/lessons/{lesson_id}/sections/{index}/try", json={"usi": usi, "lang": lang})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_index_in_every_language(client: TestClient) -> None:
    ids = None
    for lang in LANGS:
        lessons = client.get(f"/api/learn/lessons?lang={lang}").json()["lessons"]
        assert all(item["title"] for item in lessons)
        if ids is None:
            ids = [item["id"] for item in lessons]
        assert [item["id"] for item in lessons] == ids
    assert ids is not None
    pieces = [item for item in client.get("/api/learn/lessons").json()["lessons"] if item["group"] == "pieces"]
    assert sorted(item["piece"] for item in pieces) == sorted("KRBGSNLP")
    for needed in ("promotion", "drops", "check", "repetition", "impasse"):
        assert needed in ids


def test_every_lesson_is_complete_in_every_language(client: TestClient) -> None:
    for item in load_lessons():
        shapes = set()
        for lang in LANGS:
            data = lesson(client, item.id, lang)
            assert data["title"]
            shapes.add(tuple((("diagram" in s), ("exercise" in s), len(s["paragraphs"]) > 0) for s in data["sections"]))
            for section in data["sections"]:
                assert section["paragraphs"], (item.id, lang, section["index"])
                for paragraph in section["paragraphs"]:
                    assert not re.search(r"\{[a-z_]+\}", paragraph), (item.id, lang, paragraph)
                    if lang != "en":
                        # Chinese and Japanese texts are not English left untranslated.
                        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", paragraph), (item.id, lang, paragraph)
        assert len(shapes) == 1, item.id


def test_chinese_lessons_use_their_own_script(client: TestClient) -> None:
    hant = json.dumps(lesson(client, "drops", "zh-Hant"), ensure_ascii=False)
    hans = json.dumps(lesson(client, "drops", "zh-Hans"), ensure_ascii=False)
    for word in ("二步", "打步詰", "持駒"):
        assert word in hant
    for word in ("二步", "打步诘", "持驹"):
        assert word in hans
    assert "打步詰" not in hans


# How many squares each piece reaches from 5e on an empty board: facts of the rules.
REACH = {
    "K": 8,
    "R": 16,
    "+R": 20,
    "B": 16,
    "+B": 20,
    "G": 6,
    "S": 5,
    "+S": 6,
    "N": 2,
    "+N": 6,
    "L": 4,
    "+L": 6,
    "P": 1,
    "+P": 6,
}


def test_piece_diagrams_mark_where_the_piece_moves(client: TestClient) -> None:
    seen = {}
    for item in load_lessons():
        if item.group != "pieces":
            continue
        for section in lesson(client, item.id)["sections"]:
            diagram = section.get("diagram")
            if diagram:
                board = Board(diagram["sfen"], lenient=True)
                piece = board.piece_at(Move.from_usi("5e5d").from_square or 0)
                assert piece is not None
                seen[piece.symbol()] = sorted(diagram["highlights"])
    assert {symbol: len(squares) for symbol, squares in seen.items()} == REACH
    assert seen["N"] == ["4c", "6c"]
    assert seen["S"] == ["4d", "4f", "5d", "6d", "6f"]
    assert seen["G"] == ["4d", "4e", "5d", "5f", "6d", "6e"]
    assert "5f" not in seen["L"]


# (lesson, core code, words the reason must hold in each language)
REFUSED = {
    "nifu": {"en": "二歩", "ja": "二歩", "zh-Hant": "二步", "zh-Hans": "二步"},
    "uchifuzume": {"en": "打ち歩詰め", "ja": "打ち歩詰め", "zh-Hant": "打步詰", "zh-Hans": "打步诘"},
    "dead_piece": {
        "en": "never move",
        "ja": "行き所のない駒",
        "zh-Hant": "永遠無法移動",
        "zh-Hans": "永远无法移动",
    },
    "self_check": {"en": "leave your king in check", "ja": "王手放置", "zh-Hant": "送將", "zh-Hans": "送将"},
    "bad_piece_move": {"en": "cannot move to", "ja": "動けません", "zh-Hant": "不能走到", "zh-Hans": "不能走到"},
}


def _exercises(client: TestClient, goal: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    found = []
    for item in load_lessons():
        for section, spec in zip(lesson(client, item.id)["sections"], item.sections, strict=True):
            if "exercise" in section and section["exercise"]["goal"] == goal:
                found.append((item.id, section, spec["exercise"]))
    return found


def test_forbidden_drops_are_refused_with_the_core_reason(client: TestClient) -> None:
    exercises = _exercises(client, "refused")
    codes = {spec["code"] for _, _, spec in exercises}
    assert {"nifu", "uchifuzume", "dead_piece"} <= codes
    for lesson_id, section, spec in exercises:
        board = Board(section["exercise"]["sfen"])
        for usi in spec["try"]:
            move = Move.from_usi(usi)
            assert board.check_move(move) is not None
            # The board offers the forbidden move, so that it can be tried.
            if move.drop is not None:
                assert usi[2:] in section["exercise"]["dropDests"][usi[0]]
            else:
                assert usi[2:] in section["exercise"]["dests"][usi[:2]]
            for lang in LANGS:
                result = attempt(client, lesson_id, section["index"], usi, lang)
                assert result["legal"] is False
                assert result["code"] == spec["code"]
                assert result["success"] is True
                assert REFUSED[spec["code"]].get(lang, "") in result["reason"], (lang, result["reason"])
                assert result["sfen"] == section["exercise"]["sfen"]


def test_a_legal_move_in_a_forbidden_drop_exercise_is_not_the_goal(client: TestClient) -> None:
    result = attempt(client, "drops", 1, "P*4e")
    assert result["legal"] is True
    assert result["success"] is False
    assert result["lastMove"] == "P*4e"


def test_promotion_is_offered_both_ways_and_refused_when_forced(client: TestClient) -> None:
    sections = lesson(client, "promotion")["sections"]
    forced = next(s for s in sections if s.get("exercise", {}).get("goal") == "refused")
    assert sorted(forced["exercise"]["dests"]["2b"]) == ["2a", "2a+"]
    assert attempt(client, "promotion", forced["index"], "2b2a")["code"] == "dead_piece"
    assert attempt(client, "promotion", forced["index"], "2b2a+")["legal"] is True
    optional = next(s for s in sections if s.get("exercise", {}).get("goal") == "legal")
    assert {"4b", "4b+", "5b", "5b+"} <= set(optional["exercise"]["dests"]["5c"])


def test_mate_exercises_have_a_mate_and_say_so(client: TestClient) -> None:
    exercises = _exercises(client, "mate")
    assert len(exercises) >= 2
    for lesson_id, section, _ in exercises:
        board = Board(section["exercise"]["sfen"])
        mates: list[str] = []
        others: list[str] = []
        for move in board.legal_moves:
            board.push(move)
            (mates if board.is_checkmate() else others).append(move.usi())
            board.pop()
        assert mates
        result = attempt(client, lesson_id, section["index"], mates[0], "ja")
        assert result["mate"] is True
        assert result["success"] is True
        assert result["feedback"] == "詰みです！よくできました。"
        if others:
            assert attempt(client, lesson_id, section["index"], others[0])["success"] is False


def test_piece_exercises_accept_legal_moves_and_explain_the_others(client: TestClient) -> None:
    for lesson_id, section, _ in _exercises(client, "legal"):
        exercise = section["exercise"]
        board = Board(exercise["sfen"], lenient=True)
        legal = {m.usi() for m in board.legal_moves}
        offered = [f"{frm}{to}" for frm, tos in exercise["dests"].items() for to in tos]
        offered += [f"{letter}*{to}" for letter, tos in exercise["dropDests"].items() for to in tos]
        illegal = [usi for usi in offered if usi not in legal]
        assert legal <= set(offered), lesson_id
        good = attempt(client, lesson_id, section["index"], sorted(legal)[0])
        assert good["success"] is True
        if lesson_id == "promotion":
            continue  # only legal moves to choose from
        assert illegal, lesson_id  # something to try and see refused
        bad = attempt(client, lesson_id, section["index"], illegal[0], "zh-Hans")
        assert bad["legal"] is False
        assert bad["reason"]
        assert bad["success"] is False


def test_check_exercise_refuses_a_move_into_check(client: TestClient) -> None:
    sections = lesson(client, "check")["sections"]
    escape = next(s for s in sections if s.get("exercise", {}).get("goal") == "legal")
    assert escape["exercise"]["check"] is True
    result = attempt(client, "check", escape["index"], "5i5h")
    assert result["code"] == "self_check"
    assert result["reason"] == "it would leave your king in check"


def test_repetition_lesson_plays_to_the_core_outcome(client: TestClient) -> None:
    sections = lesson(client, "repetition", "ja")["sections"]
    steps = [s["diagram"]["steps"] for s in sections if s.get("diagram", {}).get("steps")]
    assert len(steps) == 2
    assert steps[0][-1]["repetitions"] == 4
    assert "千日手" in steps[0][-1]["end"]
    assert "連続王手の千日手" in steps[1][-1]["end"]
    assert all(step["check"] for step in steps[1][0::2])


def test_impasse_lesson_quotes_the_core_counts(client: TestClient) -> None:
    text = " ".join(lesson(client, "impasse")["sections"][0]["paragraphs"])
    assert "11 pieces in the camp and 28 points: so sente may declare now, and wins." in text
    assert "sente 28, gote 26" in text
    ja = " ".join(lesson(client, "impasse", "ja")["sections"][0]["paragraphs"])
    assert "先手28点、後手26点" in ja


def test_errors(client: TestClient) -> None:
    assert client.get("/api/learn/lessons/queen").status_code == 404
    assert client.post("/api/learn/lessons/drops/sections/0/try", json={"usi": "P*5e"}).status_code == 404
    assert client.post("/api/learn/lessons/drops/sections/1/try", json={"usi": "hello"}).status_code == 400
    assert client.post("/api/learn/lessons/drops/sections/1/try", json={}).status_code == 400
    unknown = client.get("/api/learn/lessons/king?lang=fr").json()
    assert unknown["title"] == "The king"  # unknown languages fall back to English


def test_pages_and_static_files(client: TestClient) -> None:
    for path in ["/learn", "/learn/drops", "/puzzles", "/puzzles/tanuki-1-14"]:
        page = client.get(path, headers={"Accept-Language": "ja"})
        assert page.status_code == 200
        assert '<main id="app"' in page.text
    assert "/static/learn/learn.js" in client.get("/learn").text
    assert "/static/learn/puzzles.js" in client.get("/puzzles").text
    for name in ["learn.js", "puzzles.js", "common.js", "learn.css"]:
        assert client.get(f"/static/learn/{name}").status_code == 200
    # The pages keep no strings of their own: they come from the one catalogue.
    assert client.get("/static/learn/i18n/en.json").status_code == 404


def test_page_strings_exist_in_the_catalogue() -> None:
    used = set()
    for name in ["learn.js", "puzzles.js"]:
        source = (STATIC / name).read_text("utf-8")
        used |= set(re.findall(r"""\bt\(\s*["'`](ui\.(?:learn|puzzles)\.[a-z_]+)(?!\.\$\{)["'`]""", source))
        used |= set(re.findall(r"""i18n: ["'](ui\.(?:learn|puzzles)\.[a-z_]+)""", source))
        # Keys made from a name (`ui.puzzles.theme.${theme}`): their group exists.
        prefixes = set(re.findall(r"""\bt\(\s*`(ui\.(?:learn|puzzles)\.[a-z_.]+\.)\$\{""", source))
        assert all(any(key.startswith(prefix) for key in i18n.web_messages("en")) for prefix in prefixes), prefixes
    assert len(used) > 20
    english = i18n.web_messages("en")
    assert used <= set(english), used - set(english)


def test_without_a_language_the_visitor_s_language_is_used(client: TestClient) -> None:
    # The same negotiation as the pages: the remembered choice, else Accept-Language.
    assert client.get("/api/learn/lessons/pawn", headers={"accept-language": "ja"}).json()["title"] == "歩兵とと金"
    chosen = client.get("/api/learn/lessons/pawn", headers={"accept-language": "ja", "cookie": "shogiban_lang=zh-Hans"})
    assert chosen.json()["title"] == i18n.translate("lessons.pawn.title", "zh-hans")
    english = client.get("/api/learn/lessons/pawn?lang=en", headers={"accept-language": "ja"})
    assert english.json()["title"] == i18n.translate("lessons.pawn.title", "en")


# -- issue 25: notation, setting up, handicaps ---------------------------------------------------


def answer(client: TestClient, lesson_id: str, index: int, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/learn/lessons/{lesson_id}/sections/{index}/answer", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def _index(client: TestClient, lesson_id: str, goal: str, lang: str = "en") -> tuple[int, dict[str, Any]]:
    section = next(s for s in lesson(client, lesson_id, lang)["sections"] if s.get("exercise", {}).get("goal") == goal)
    return section["index"], section["exercise"]


def test_the_new_lessons_are_listed_in_their_group(client: TestClient) -> None:
    for lang, title in [("en", "Setting up the pieces"), ("ja", "駒の並べ方"), ("zh-Hant", "擺放棋子"),
                        ("zh-Hans", "摆放棋子")]:
        lessons = client.get(f"/api/learn/lessons?lang={lang}").json()["lessons"]
        game = [item for item in lessons if item["group"] == "game"]
        assert [item["id"] for item in game][:3] == ["notation", "setup", "handicaps"]
        assert game[1]["title"] == title


def test_square_answers_over_http(client: TestClient) -> None:
    index, exercise = _index(client, "notation", "square")
    assert exercise["dests"] == {}
    assert exercise["dropDests"] == {}
    wrong = answer(client, "notation", index, square="7f", lang="zh-Hans")
    assert wrong["success"] is False
    assert wrong["feedback"] == "这是７六（第７筋，第六段）。再试一次。"
    right = answer(client, "notation", index, square="2f", lang="en")
    assert right["success"] is True
    assert right["feedback"] == "Right: that is 2f."


def test_choice_answers_over_http(client: TestClient) -> None:
    index, exercise = _index(client, "notation", "choice", "ja")
    assert exercise["lastMove"] == "6i5h"
    labels = {c["id"]: c["label"] for c in exercise["choices"]}
    assert labels["6i5h"] == "▲５八金左"
    good = answer(client, "notation", index, choice="6i5h", lang="ja")
    assert good["success"] is True
    assert good["feedback"] == "正解です：▲５八金左。"
    bad = answer(client, "notation", index, choice="4i5h", lang="en")
    assert bad["success"] is False
    assert bad["arrows"] == [["4i", "5h"]]
    index, exercise = _index(client, "handicaps", "choice", "zh-Hant")
    assert "讓二子" in [c["label"] for c in exercise["choices"]]
    assert answer(client, "handicaps", index, choice="two-piece")["success"] is True


def test_placement_answers_over_http(client: TestClient) -> None:
    index, exercise = _index(client, "setup", "placement", "ja")
    assert exercise["steps"] == 20
    assert exercise["step"] == 0
    assert exercise["sfen"] == "9/9/9/9/9/9/9/9/9 b RB2G2S2N2L9P 1"
    assert exercise["prompt"] == "次は玉将です。置くマスをクリックしてください。"
    first = answer(client, "setup", index, square="5i", step=0, lang="ja")
    assert first["success"] is True
    assert first["step"] == 1
    assert first["sfen"] == "9/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9P 1"
    side = answer(client, "setup", index, square="4i", step=1, lang="en")
    assert side["success"] is False
    assert side["step"] == 1
    assert "left one" in side["feedback"]


def test_handicap_diagram_over_http(client: TestClient) -> None:
    diagram = lesson(client, "handicaps", "ja")["sections"][0]["diagram"]
    assert diagram["caption"] == "平手"
    captions = [step["caption"] for step in diagram["steps"]]
    assert captions[0].startswith("1/12：香落ち")
    assert captions[-1].startswith("12/12：十枚落ち")
    en = lesson(client, "handicaps", "en")["sections"][0]["diagram"]["steps"]
    assert en[3]["caption"] == "4/12: Rook (pieces removed: 1)"


def test_answers_that_do_not_fit_are_refused(client: TestClient) -> None:
    square, _ = _index(client, "notation", "square")
    choice, _ = _index(client, "notation", "choice")
    url = "/api/learn/lessons/notation/sections/{}/answer"
    cases = [
        (url.format(square), {"choice": "6i5h"}, 400, "bad_answer"),
        (url.format(choice), {"square": "5h"}, 400, "bad_answer"),
        (url.format(choice), {"choice": "nope"}, 400, "bad_answer"),
        (url.format(square), {}, 400, "bad_answer"),
        (url.format(square), {"square": "0z"}, 400, "invalid_square"),
        (url.format(square), {"square": "5h5"}, 400, "bad_answer"),
        (url.format(square), {"square": "5h", "step": -1}, 400, "bad_answer"),
        (url.format(0), {"square": "5h"}, 404, "unknown_lesson"),
        ("/api/learn/lessons/setup/sections/2/answer", {"square": "5i", "step": 20}, 400, "bad_answer"),
        (f"/api/learn/lessons/notation/sections/{square}/try", {"usi": "2g2f"}, 400, "bad_answer"),
    ]
    for path, body, status, code in cases:
        response = client.post(path, json=body)
        assert response.status_code == status, (path, body, response.text)
        assert response.json()["code"] == code, (path, body)


# -- issue 25, second slice: how a game ends, ranks, castles and tactics ----------------------------


def _by_text(client: TestClient, lesson_id: str, text: str, lang: str = "en") -> dict[str, Any]:
    item = next(x for x in load_lessons() if x.id == lesson_id)
    index = next(i for i, s in enumerate(item.sections) if s["text"] == text)
    section: dict[str, Any] = lesson(client, lesson_id, lang)["sections"][index]
    return section


def test_illegal_moves_that_lose_are_tried_over_http(client: TestClient) -> None:
    for text, usi, code, lang, words in [("nifu", "P*7e", "nifu", "ja", "二歩"),
                                         ("uchifuzume", "P*9b", "uchifuzume", "zh-Hant", "打步詰"),
                                         ("dead_end", "3d2b", "dead_piece", "en", "promote")]:
        section = _by_text(client, "game_end", text, lang)
        assert usi[2:] in (section["exercise"]["dropDests"].get(usi[0], []) if "*" in usi
                           else section["exercise"]["dests"][usi[:2]])
        result = attempt(client, "game_end", section["index"], usi, lang)
        assert (result["legal"], result["code"], result["success"]) == (False, code, True)
        assert words in result["feedback"], result["feedback"]
    draws = _by_text(client, "game_end", "draws", "zh-Hans")
    assert [link["id"] for link in draws["links"]] == ["repetition", "impasse"]


def test_declaration_choices_over_http(client: TestClient) -> None:
    count = _by_text(client, "impasse", "count_points", "zh-Hans")
    assert "23分" in [c["label"] for c in count["exercise"]["choices"]]
    assert answer(client, "impasse", count["index"], choice="23", lang="zh-Hans")["feedback"] == "正确：23分。"
    assert answer(client, "impasse", count["index"], choice="15")["success"] is False
    declare = _by_text(client, "impasse", "declare_wins", "en")
    assert [c["id"] for c in declare["exercise"]["choices"]] == ["yes", "no"]
    right = answer(client, "impasse", declare["index"], choice="no", lang="ja")
    assert right["success"] is True
    assert "27点" in right["feedback"]
    response = client.post(f"/api/learn/lessons/impasse/sections/{declare['index']}/answer", json={"choice": "maybe"})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_answer"


def test_castles_and_tactics_over_http(client: TestClient) -> None:
    for lang in LANGS:
        lessons = client.get(f"/api/learn/lessons?lang={lang}").json()["lessons"]
        assert [item["id"] for item in lessons if item["group"] == "strategy"] == ["castles", "tactics"]
    fork = _by_text(client, "tactics", "fork", "ja")
    assert "4c" in fork["exercise"]["dropDests"]["N"]
    good = attempt(client, "tactics", fork["index"], "N*4c", "zh-Hant")
    assert good["success"] is True
    assert good["check"] is True
    wrong = attempt(client, "tactics", fork["index"], "N*6c", "en")
    assert wrong["success"] is False
    assert "does not attack the rook" in wrong["feedback"]
    pin = _by_text(client, "tactics", "pin")
    assert attempt(client, "tactics", pin["index"], "P*4c")["success"] is True
    assert "角と銀の交換" in attempt(client, "tactics", pin["index"], "1e4b+", "ja")["feedback"]
    mino = _by_text(client, "castles", "try_mino", "zh-Hans")
    assert attempt(client, "castles", mino["index"], "3h2h", "zh-Hans")["success"] is True
