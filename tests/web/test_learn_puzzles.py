"""Mate problems: the shipped data, and move checking with the tsume solver through the endpoints."""

from __future__ import annotations

import csv
import datetime
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from shogiban import Board, Move
from shogiban.lessons.puzzles import (
    DAILY_RATINGS,
    LENGTHS,
    THEMES,
    Puzzle,
    PuzzleChecker,
    daily_puzzle,
    default_solver,
    get_puzzle,
    load_puzzles,
    puzzles_by_length,
    puzzles_by_theme,
)
from shogiban.tsume import check_mate_line, solve
from shogiban.web.learn import make_routes

warnings.filterwarnings("ignore", message=".*httpx2.*")

# A 3-move problem with three first moves that mate in time by game rules (余詰): S*2b (stored),
# N*4c and N*2c.
TWO_WAYS = Puzzle("two-ways", "6k2/R8/3S5/9/9/9/9/9/9 b SNr2b4g2s3n4l18p 1", 3, ("S*2b", "3a4a", "9b5b+"), "test")
# Gold drop mates at once; as a "3-move" problem the quicker mate is accepted too.
QUICK = Puzzle("quick", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", 3, ("G*5b",), "test")


@pytest.fixture(scope="module")
def checker() -> PuzzleChecker:
    return PuzzleChecker()


@pytest.fixture(scope="module")
def client(checker: PuzzleChecker) -> TestClient:
    return TestClient(Starlette(routes=make_routes(checker)))


def move(client: TestClient, puzzle_id: str, line: list[str], usi: str, lang: str = "en") -> dict[str, Any]:
    response = client.post(f"/api/puzzles/{puzzle_id}/move", json={"line": line, "usi": usi, "lang": lang})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


# -- the data ---------------------------------------------------------------------------------------


def test_groups_of_each_length() -> None:
    groups = puzzles_by_length()
    assert sorted(groups) == list(LENGTHS)
    for length, puzzles in groups.items():
        assert len(puzzles) >= 10
        assert all(p.length == length for p in puzzles)
        assert [p.number for p in puzzles] == list(range(1, len(puzzles) + 1))
    ids = [p.id for p in load_puzzles()]
    assert len(ids) == len(set(ids))


def test_shipped_rows_are_the_mit_rows_of_the_corpus(shared_data: Path) -> None:
    with (shared_data / "tsume" / "tsume.tsv").open(encoding="utf-8") as handle:
        corpus = {row[0]: row for row in csv.reader(handle, delimiter="\t") if row and not row[0].startswith("#")}
    for puzzle in load_puzzles():
        row = corpus[puzzle.id]
        assert row[7] == "MIT", puzzle.id  # never a GPL row
        assert (row[1], int(row[2]), row[3]) == (puzzle.sfen, puzzle.length, " ".join(puzzle.solution))
        assert puzzle.source == row[6]


def _check_sound(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        board = Board(puzzle.sfen)  # strict: no impossible positions (some generated rows have 二歩)
        for conventions in (True, False):
            result = solve(board, timeout=10, conventions=conventions, check_unique=conventions)
            assert result.status == "mate", puzzle.id
            assert result.length == puzzle.length, (puzzle.id, conventions)
            if conventions:
                assert result.unique, puzzle.id  # one mating line: no 余詰
        assert check_mate_line(board, [Move.from_usi(m) for m in puzzle.solution]) is None, puzzle.id


def test_at_least_a_thousand_problems_rated_and_grouped_by_theme() -> None:
    puzzles = load_puzzles()
    assert len(puzzles) >= 1000
    # The rating follows the solver's effort within a length, not only the length.
    for length, group in puzzles_by_length().items():
        efforts = [p.effort for p in group]
        assert efforts == sorted(efforts) or len({p.rating for p in group}) > 1, length
        assert [p.rating for p in group] == sorted(p.rating for p in group)  # easiest first
    assert all(600 <= p.rating <= 2600 for p in puzzles)
    themes = puzzles_by_theme()
    assert set(themes) == set(THEMES)
    assert all(themes[name] for name in THEMES), {name: len(v) for name, v in themes.items()}
    # Each theme is what its name says, on the shipped line.
    for puzzle in themes["interposition"]:
        assert any("*" in move for move in puzzle.solution[1::2]), puzzle.id
    for puzzle in themes["drop_first"]:
        assert "*" in puzzle.solution[0], puzzle.id
    for puzzle in themes["sacrifice"]:
        attacker, defender = puzzle.solution[0::2], puzzle.solution[1::2]
        assert any(a[2:4] == d[2:4] and "*" not in d for a, d in zip(attacker, defender, strict=False)), puzzle.id


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_day() -> None:
    first = daily_puzzle(datetime.date(2026, 12, 2))
    assert first == daily_puzzle(datetime.date(2026, 12, 2))
    week = {daily_puzzle(datetime.date(2026, 12, day)).id for day in range(1, 8)}
    assert len(week) >= 6
    assert all(DAILY_RATINGS[0] <= get_puzzle(i).rating <= DAILY_RATINGS[1] for i in week)


def test_the_listing_has_themes_and_the_daily_puzzle_and_a_solution_steps_through(client: TestClient) -> None:
    listing = client.get("/api/puzzles?lang=en").json()
    assert {t["theme"] for t in listing["themes"]} == set(THEMES)
    daily = listing["daily"]
    assert daily["id"] == daily_puzzle(datetime.date.fromisoformat(daily["date"])).id
    puzzle = puzzles_by_length()[3][0]
    solution = client.get(f"/api/puzzles/{puzzle.id}/solution").json()
    assert [s["usi"] for s in solution["steps"]] == list(puzzle.solution)
    board = Board(puzzle.sfen)
    for step in solution["steps"]:
        board.push_usi(step["usi"])
        assert step["sfen"] == board.sfen()
    assert board.is_checkmate()
    assert set(solution["steps"][0]["forms"]) == {"japanese", "western", "kitao", "csa", "usi"}
    assert client.get("/api/puzzles/nope/solution").status_code == 404


def test_some_shipped_problems_are_sound_positions_solved_at_their_length() -> None:
    _check_sound([p for puzzles in puzzles_by_length().values() for p in puzzles[:2]])


@pytest.mark.slow
def test_every_shipped_problem_is_a_sound_position_solved_at_its_length() -> None:
    _check_sound(list(load_puzzles()))


# -- the endpoints ----------------------------------------------------------------------------------


def test_list_and_start_position(client: TestClient) -> None:
    groups = client.get("/api/puzzles?lang=ja").json()["groups"]
    assert [g["title"] for g in groups] == ["1手詰", "3手詰", "5手詰", "7手詰", "9手詰", "11手詰"]
    first = groups[1]["puzzles"][0]["id"]
    start = client.get(f"/api/puzzles/{first}").json()
    assert start["length"] == 3
    assert start["sfen"] == get_puzzle(first).sfen
    board = Board(start["sfen"])
    assert sum(len(v) for v in start["dests"].values()) + sum(len(v) for v in start["dropDests"].values()) == len(
        {(m.usi()) for m in board.legal_moves}
    )


@pytest.mark.parametrize("length", LENGTHS)
def test_solving_by_the_stored_line(client: TestClient, length: int) -> None:
    puzzle = puzzles_by_length()[length][0]
    line: list[str] = []
    for ply in range(0, length, 2):
        result = move(client, puzzle.id, line, puzzle.solution[ply], "zh-Hant")
        assert result["accepted"] is True
        if ply == length - 1:
            assert result["solved"] is True
            assert result["message"] == "將死了！解題成功。"
            assert result["dests"] == {}
        else:
            assert result["solved"] is False
            assert result["reply"] is not None
            assert result["afterMove"]["lastMove"] == puzzle.solution[ply]
            assert result["replyText"].startswith("△")
            line = result["line"]
            assert result["lastMove"] == line[-1]
            assert Board(result["sfen"]).turn == Board(puzzle.sfen).turn


def test_an_alternative_mate_is_accepted(checker: PuzzleChecker) -> None:
    stored = checker.attempt(TWO_WAYS, [], "S*2b", "en")
    other = checker.attempt(TWO_WAYS, [], "N*4c", "en")
    assert stored["accepted"] is True
    assert other["accepted"] is True
    assert other["line"][0] == "N*4c"
    final = checker.attempt(TWO_WAYS, other["line"], checker.hint(TWO_WAYS, other["line"]).usi(), "en")  # type: ignore[union-attr]
    assert final["solved"] is True


def test_a_quicker_mate_is_accepted(checker: PuzzleChecker) -> None:
    result = checker.attempt(QUICK, [], "G*5b", "ja")
    assert result["solved"] is True


def test_the_defender_resists_longest(checker: PuzzleChecker) -> None:
    for puzzle in (puzzles_by_length()[5][0], puzzles_by_length()[7][1], TWO_WAYS):
        result = checker.attempt(puzzle, [], puzzle.solution[0], "en")
        board = Board(puzzle.sfen)
        board.push_usi(puzzle.solution[0])
        lengths = {}
        for reply in board.legal_moves:
            board.push(reply)
            found = default_solver(board, 10.0, puzzle.length - 2)
            board.pop()
            assert found.status == "mate"
            lengths[reply.usi()] = found.length
        assert lengths[result["reply"]] == max(lengths.values()), puzzle.id


def test_a_move_that_is_not_check_is_refused(client: TestClient) -> None:
    puzzle = puzzles_by_length()[3][0]
    board = Board(puzzle.sfen)
    quiet = next(m for m in board.legal_moves if not board.gives_check(m))
    result = move(client, puzzle.id, [], quiet.usi(), "ja")
    assert result["accepted"] is False
    assert result["code"] == "not_check"
    assert result["message"] == "詰将棋では、攻め方は毎回王手をかけなければなりません。"


def test_a_check_that_does_not_mate_in_time_is_refused(client: TestClient, checker: PuzzleChecker) -> None:
    refused = 0
    for puzzle in puzzles_by_length()[3][:6]:
        board = Board(puzzle.sfen)
        for check in [m for m in board.legal_moves if board.gives_check(m)]:
            board.push(check)
            mates_in_time = (
                all(default_solver(b, 10.0, 1).status == "mate" for b in _replies(board))
                if not board.is_checkmate()
                else True
            )
            board.pop()
            if mates_in_time:
                continue
            result = move(client, puzzle.id, [], check.usi())
            assert result["accepted"] is False, (puzzle.id, check.usi())
            assert result["code"] == "no_mate"
            assert result["message"] == "This check does not lead to mate in 3 moves."
            refused += 1
    assert refused >= 3


def _replies(board: Board) -> list[Board]:
    out = []
    for reply in board.legal_moves:
        copy = board.copy()
        copy.push(reply)
        out.append(copy)
    return out


def test_an_illegal_move_is_refused_with_the_core_reason(client: TestClient) -> None:
    puzzle = puzzles_by_length()[1][0]
    result = move(client, puzzle.id, [], "5e5d", "zh-Hans")
    assert result["accepted"] is False
    assert result["code"] == "illegal"
    assert result["reasonCode"] == "no_piece"
    assert result["message"] == "不允许：５五上没有棋子。"


def test_mate_in_one_refuses_a_check_that_is_not_mate(client: TestClient) -> None:
    for puzzle in puzzles_by_length()[1]:
        board = Board(puzzle.sfen)
        for check in [m for m in board.legal_moves if board.gives_check(m)]:
            board.push(check)
            mate = board.is_checkmate()
            board.pop()
            if not mate:
                result = move(client, puzzle.id, [], check.usi())
                assert result["code"] == "no_mate"
                assert result["message"] == "This check does not lead to mate in 1 moves."
                return
    pytest.fail("no mate-in-one problem has a non-mating check")


def test_hints(client: TestClient) -> None:
    puzzle = puzzles_by_length()[3][0]
    hint = client.post(f"/api/puzzles/{puzzle.id}/hint", json={"line": []}).json()
    first = Move.from_usi(puzzle.solution[0])
    assert hint["move"] == puzzle.solution[0]
    assert hint["square"] == (puzzle.solution[0][:2] if first.drop is None else f"{puzzle.solution[0][0]}*")
    # Off the stored line (another mate, or a longer defence), the solver gives the hint.
    result = move(client, puzzle.id, [], puzzle.solution[0])
    after = client.post(f"/api/puzzles/{puzzle.id}/hint", json={"line": result["line"]}).json()
    mated = move(client, puzzle.id, result["line"], after["move"])
    assert mated["solved"] is True


def test_bad_requests(client: TestClient) -> None:
    puzzle = puzzles_by_length()[3][0]
    assert client.get("/api/puzzles/nothing").status_code == 404
    assert client.post("/api/puzzles/nothing/move", json={"line": [], "usi": "7g7f"}).status_code == 404
    bad_line = client.post(f"/api/puzzles/{puzzle.id}/move", json={"line": ["7g7f"], "usi": "7g7f"})
    assert bad_line.status_code == 400
    assert bad_line.json()["code"] == "bad_line"
    assert client.post(f"/api/puzzles/{puzzle.id}/move", json={"line": [], "usi": "zz"}).status_code == 400
    assert client.post(f"/api/puzzles/{puzzle.id}/move", json={"line": "x", "usi": "7g7f"}).status_code == 400
    assert client.post(f"/api/puzzles/{puzzle.id}/hint", json={"line": [1]}).status_code == 400


def test_when_the_solver_runs_out_of_time() -> None:
    @dataclass
    class Timeout:
        status: str = "timeout"
        moves: list[Move] = field(default_factory=list)
        length: int = 0

    stalled = PuzzleChecker(solver=lambda board, timeout, max_length: Timeout())
    puzzle = puzzles_by_length()[3][0]
    stored = stalled.attempt(puzzle, [], puzzle.solution[0], "en")
    assert stored["accepted"] is True  # the stored line is trusted
    assert stored["reply"] == puzzle.solution[1]
    board = Board(puzzle.sfen)
    other = next(
        (
            m
            for m in board.legal_moves
            if board.gives_check(m) and m.usi() != puzzle.solution[0] and not _mates(board, m)
        ),
        None,
    )
    if other is not None:
        refused = stalled.attempt(puzzle, [], other.usi(), "en")
        assert refused["code"] == "unverified"


def _mates(board: Board, move: Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


@pytest.mark.parametrize(("language", "words"), [("ja", "その問題はありません"), ("en", "There is no such problem")])
def test_an_unknown_puzzle_page_is_a_404_in_the_visitors_language(client: TestClient, language: str,
                                                                  words: str) -> None:
    # Issue 26: /puzzles/nope opened problem 1 as if it had been asked for.
    page = client.get("/puzzles/nope", headers={"Accept-Language": language})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["content-language"] == language
    assert 'data-error="unknown_puzzle"' in page.text
    assert words in page.text
    assert "/static/learn/puzzles.js" not in page.text
    assert client.get("/puzzles").status_code == 200
