"""Keyboard only (issue 26, "A board for everyone"), in Debian's chromium through Playwright
against a real ``shogiban serve``: a whole game against the computer (level 1) won with drops and
moves made by the arrow keys, Tab and Enter; a game resigned with the keyboard after a few moves;
a lesson's exercise finished with the keyboard."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.browser_support import chromium
from tests.web.keyboard_play import play_by_keyboard
from tests.web.test_browser import (
    NEAR_MATE,
    Server,
    api_state,
    create_game,
    new_page,
    strong_move,
    wait_for_ply,
)

from shogiban import Board

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("keyboard") / "games.sqlite3")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def board_of(state: dict[str, Any]) -> Board:
    board = Board(state["game"]["start_sfen"])
    for move in state["moves"]:
        board.push_usi(move["usi"])
    return board


def my_turn_or_over(page: Any) -> None:
    """Wait until the board takes a move (the computer has answered) or the game is over."""
    page.wait_for_function(
        "document.querySelector('#board.sb-interactive') || document.querySelector('.result-dialog[open]')")


def test_a_whole_game_against_the_computer_by_keyboard(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="computer", level=1, color="b", sfen=NEAR_MATE)
    board = page.locator("#board")
    board.locator(".sb-board-main").focus()
    deadline = time.monotonic() + 90
    for _ in range(12):
        my_turn_or_over(page)
        state = api_state(page, server.url, game["id"])
        if state["outcome"]:
            break
        assert time.monotonic() < deadline, "the game went on too long"
        position = board_of(state)
        play_by_keyboard(page, board, strong_move(position))
        wait_for_ply(page, position.ply + 1)
    page.wait_for_selector(".result-dialog[open]")
    state = api_state(page, server.url, game["id"])
    assert state["outcome"]["winner"] == "b", state["outcome"]
    assert state["outcome"]["termination"] in ("checkmate", "no_legal_moves")
    assert any(move["usi"][1] == "*" for move in state["moves"]), "the win used drops from the hand"
    assert page.js_errors == []
    page.context.close()


def focus_by_tab(page: Any, selector: str) -> None:
    """Press Tab until the element *selector* has the focus (80 presses at most)."""
    for _ in range(80):
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_resign_with_the_keyboard_after_a_few_moves(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="computer", level=1, color="b")
    board = page.locator("#board")
    board.locator(".sb-board-main").focus()
    for ply, usi in enumerate(["7g7f", "2g2f"]):
        my_turn_or_over(page)
        play_by_keyboard(page, board, usi)
        wait_for_ply(page, 2 * ply + 2)  # the computer's answer too
    my_turn_or_over(page)
    focus_by_tab(page, "#resign-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#resign-yes")
    focus_by_tab(page, "#resign-yes")
    page.keyboard.press("Enter")
    page.wait_for_selector(".result-dialog[open]")
    outcome = api_state(page, server.url, game["id"])["outcome"]
    assert outcome["winner"] == "w"
    assert outcome["termination"] == "resignation"
    assert page.js_errors == []
    page.context.close()


def test_a_lesson_exercise_by_keyboard(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    page.goto(server.url + "/learn/king")
    page.wait_for_selector("body.ready")
    section = page.locator('section.lesson-section[data-index="1"]')
    board = section.locator(".lesson-board")
    board.locator("svg.sb-svg").wait_for()
    focus_by_tab(page, 'section.lesson-section[data-index="1"] .sb-board-main')
    play_by_keyboard(page, board, "5e5d")  # the king one square forward
    feedback = section.locator(".lesson-feedback")
    page.wait_for_function("el => el.dataset.success === 'true'", arg=feedback.element_handle())
    assert page.js_errors == []
    page.context.close()
