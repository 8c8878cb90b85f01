"""The game page read aloud (issue 26, "A board for everyone"), in Debian's chromium through
Playwright against a real ``shogiban serve``: the computer's move is said in a live region with
its owner, each square of the board is named by its square, piece and owner, each clock says
whose it is, and a change of language renames the page's title and the squares without a reload."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import chromium
from tests.web.keyboard_play import play_by_keyboard
from tests.web.test_browser import (
    Server,
    api_state,
    create_game,
    new_page,
    playwright_api,
    wait_for_ply,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "shogiban" / "i18n"


def words(language: str) -> dict[str, Any]:
    table: dict[str, Any] = json.loads((CATALOGUES / f"{language}.json").read_text("utf-8"))
    return table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("reader") / "games.sqlite3")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def test_the_computer_move_squares_clocks_and_a_change_of_language(browser: Any, server: Server) -> None:
    expect = playwright_api.expect
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="computer", level=1, color="b", time={"main": 600, "byoyomi": 0})
    board = page.locator("#board")
    board.locator(".sb-board-main").focus()
    play_by_keyboard(page, board, "7g7f")
    wait_for_ply(page, 2)  # the computer has answered
    reply = api_state(page, server.url, game["id"])["moves"][1]
    announcer = page.locator(".move-announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    # English reads western notation by default: "Gote: P-3d" (and its capture, promotion, check).
    expect(announcer).to_have_text(re.compile("^" + re.escape(f"Gote: {reply['forms']['western']}")))
    # Every square is a cell named by square, piece and owner; the picture itself is hidden.
    expect(board.get_by_role("gridcell", name="7f, Sente pawn", exact=True)).to_have_count(1)
    expect(board.get_by_role("gridcell", name="7g, empty", exact=True)).to_have_count(1)
    expect(board.get_by_role("gridcell")).to_have_count(81)
    expect(board.locator(".sb-pieces")).to_have_attribute("aria-hidden", "true")
    # The clocks say whose they are.
    sente_clock = page.locator(".clock[data-color='b']")
    expect(sente_clock).to_have_attribute("aria-label", re.compile(r"^Sente's clock: \d+:\d\d$"))
    expect(page.locator(".clock[data-color='w']")).to_have_attribute("aria-label", re.compile(r"^Gote's clock: "))
    # A change of language: the title, the squares and the clocks follow without a reload.
    english_title = page.title()
    page.select_option("#language-select", "ja")
    page.wait_for_function("document.documentElement.lang === 'ja'")
    ja = words("ja")
    square = ja["format.files"][6] + ja["format.ranks"][5]  # ７六
    expect(board.get_by_role("gridcell", name=f"{square}, {ja['side.sente']} {ja['piece.pawn']}", exact=True)) \
        .to_have_count(1)
    expect(board.locator(".sb-board-main")).to_have_attribute("aria-roledescription", ja["ui.board.role"])
    expect(sente_clock).to_have_attribute("aria-label", re.compile("^" + re.escape(f"{ja['side.sente']}の持ち時間")))
    page.wait_for_function("title => document.title !== title", arg=english_title)
    assert page.title() == f"{page.locator('.status-line').inner_text()} · shogiban"  # the status, in Japanese
    assert page.js_errors == []
    page.context.close()


def test_each_of_the_opponents_moves_is_said_with_check_capture_and_promotion(browser: Any, server: Server) -> None:
    # A spectator hears every move: the rook takes the gold on 5b and promotes, with check.
    page = new_page(browser, "en")
    response = page.request.post(server.url + "/api/games", data={
        "mode": "local", "sfen": "4k4/4g4/9/9/4R4/9/9/9/4K4 b - 1"})
    assert response.status == 201
    game = response.json()
    other = browser.new_context(locale="en-US")  # not the players: a spectator
    spectator = other.new_page()
    spectator.goto(server.url + game["url"])
    spectator.wait_for_selector(".status-line[data-kind]")
    page.goto(server.url + game["url"])
    page.wait_for_selector(".status-line[data-kind]")
    page.locator("#board .sb-board-main").focus()
    play_by_keyboard(page, page.locator("#board"), "5e5b+")
    en = words("en")
    playwright_api.expect(spectator.locator(".move-announcer")).to_have_text(
        f"Sente: Rx5b+, takes the {en['piece.gold']}, promotes, check")
    other.close()
    page.context.close()
