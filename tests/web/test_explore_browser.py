"""The analysis page as an analysis board, in a real browser (Debian's chromium through
Playwright): live analysis with three lines streams and stops (issue 27, part 1); moves played on
the board make variations that are commented, deleted, undone, promoted, and kept over a reload
(part 2)."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import chromium, serve_app
from tests.web.test_analysis_browser import finished_game
from tests.web.test_browser import play_by_clicking

from shogiban.i18n import translate
from shogiban.kifu import read_game
from shogiban.web.live_analysis import LiveSettings

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
warnings.filterwarnings("ignore", message=".*httpx2.*")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app in a uvicorn thread, one live search at a time, three seconds each."""
    from shogiban.web.app import create_app

    database = tmp_path_factory.mktemp("explore") / "games.sqlite3"
    app = create_app(database_url=f"sqlite:///{database}", engines=None, heartbeat=3600.0,
                     live=LiveSettings(searches=1, seconds=3))
    yield from serve_app(app)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def open_page(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return context, page, errors


def test_live_analysis_streams_three_lines_and_stops(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id = finished_game(server)
    context, page, errors = open_page(browser, f"{server}/games/{game_id}/analysis")
    panel = page.locator("#live-panel")
    expect(panel).to_have_attribute("role", "region")
    expect(panel).to_have_attribute("aria-labelledby", "live-title")
    expect(page.locator("#live-title")).to_have_text(translate("ui.live.title", "en"))
    expect(page.locator("#live-lines")).to_have_value("3")
    expect(page.locator("#live-engine")).to_be_hidden()  # no USI engine on this server
    expect(page.locator("#live-lines-list")).to_have_attribute("aria-live", "off")
    expect(page.locator("#board[data-legal-for]")).to_have_count(1)

    page.keyboard.press("l")
    expect(page.locator("#analysis-live")).to_have_text(translate("ui.live.started", "en"))
    lines = page.locator("#live-lines-list li")
    expect(lines).to_have_count(3)
    expect(lines.first.locator(".live-score")).to_have_text(re.compile(r"^([+-]?\d+|[+-]Mate \d+)$"))
    expect(lines.first.locator(".live-depth")).to_have_text(re.compile(r"^depth \d+$"))
    expect(lines.first.locator(".live-pv")).not_to_be_empty()
    # Stopped with the key (a search whose three seconds ran out first is continued, then stopped).
    deadline = time.monotonic() + 30
    while panel.get_attribute("data-status") != "stopped":
        assert time.monotonic() < deadline
        status = panel.get_attribute("data-status")
        if status == "done":
            expect(page.locator("#live-continue")).to_be_visible()
            page.locator("#live-continue").click()
            expect(panel).not_to_have_attribute("data-status", "done")
        elif status == "running" and lines.count():
            page.keyboard.press("l")
            expect(panel).not_to_have_attribute("data-status", "running")
    expect(page.locator("#analysis-live")).to_have_text(re.compile(r"^Live analysis stopped\. Best move: \S"))
    expect(page.locator("#live-toggle")).to_have_text(translate("ui.live.start", "en"))
    # B: the engine's best move as the arrow, and said.
    page.keyboard.press("b")
    expect(page.locator("#analysis-live")).to_have_text(re.compile(r"^Engine's best move: \S"))
    expect(page.locator("#board .sb-arrows > *")).not_to_have_count(0)
    assert errors == []
    context.close()


def test_variations_are_made_commented_deleted_promoted_and_kept(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id = finished_game(server)  # 7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d
    context, page, errors = open_page(browser, f"{server}/games/{game_id}/analysis")
    view = page.locator("#analysis-view")
    board = page.locator("#board")
    items = page.locator("#analysis-moves li[data-ply]")
    variations = page.locator("#analysis-moves li.variation-move")
    expect(items).to_have_count(7)

    def at(path: str) -> None:
        expect(view).to_have_attribute("data-path", path)
        expect(board).to_have_attribute("data-legal-for", path)

    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at("0.0")
    # A: 2g2f after 7g7f 3c3d, a variation of the game's 8h2b+, commented.
    play_by_clicking(page, "2g2f", "b")
    at("0.0.1")
    expect(variations).to_have_count(1)
    expect(variations.first.locator(".branch")).to_have_count(1)
    page.locator("#explore-comment").fill("a quiet pawn")
    expect(variations.first.locator(".move-comment")).to_have_text("a quiet pawn")
    page.locator("#explore-comment").blur()
    # The existing move is stepped into, not made twice.
    page.keyboard.press("ArrowLeft")
    at("0.0")
    play_by_clicking(page, "8h2b+", "b")
    at("0.0.0")
    expect(variations).to_have_count(1)
    # Up and Down switch between the game's move and the variation.
    page.keyboard.press("ArrowDown")
    at("0.0.1")
    page.keyboard.press("ArrowUp")
    at("0.0.0")
    # B: 6g6f at the same point, deleted, undone, deleted again.
    page.keyboard.press("ArrowLeft")
    at("0.0")
    play_by_clicking(page, "6g6f", "b")
    at("0.0.2")
    expect(variations).to_have_count(2)
    page.locator("#explore-delete").click()
    at("0.0")
    expect(variations).to_have_count(1)
    page.locator("#explore-undo").click()
    expect(variations).to_have_count(2)
    page.locator('#analysis-moves li[data-path="0.0.2"]').click()
    at("0.0.2")
    page.locator("#explore-delete").click()
    expect(variations).to_have_count(1)
    # C: 4a3b instead of the game's 3a2b, made the main line.
    page.locator('#analysis-moves li[data-ply="3"]').click()
    at("0.0.0")
    play_by_clicking(page, "4a3b", "w")
    at("0.0.0.1")
    expect(page.locator("#explore-delete")).to_be_enabled()
    page.locator("#explore-promote").click()
    at("0.0.0.0")
    expect(page.locator('#analysis-moves li[data-ply="4"]')).to_have_attribute("data-path", "0.0.0.1")
    expect(page.locator("#explore-promote")).to_be_disabled()

    page.reload()
    at("0.0.0.0")
    expect(items).to_have_count(7)  # the game's moves are all still there
    expect(variations).to_have_count(2)
    expect(page.locator('#analysis-moves li[data-path="0.0.1"] .move-comment')).to_have_text("a quiet pawn")
    expect(page.locator('#analysis-moves li[data-ply="4"]')).to_have_attribute("data-path", "0.0.0.1")
    expect(page.locator('#analysis-moves li[data-path="0.0.2"]')).to_have_count(0)
    page.locator('#analysis-moves li[data-path="0.0.1"]').click()
    expect(page.locator("#explore-comment")).to_have_value("a quiet pawn")
    # Downloaded with its variations (POST /api/records/tree): our reader finds them.
    with page.expect_download() as downloading:
        page.locator("#explore-download").click()
    game = read_game(Path(downloading.value.path()).read_bytes(), format="kif")
    first = game.root.variations[0].variations[0]
    assert [node.move.usi() for node in first.variations if node.move] == ["8h2b+", "2g2f"]
    assert first.variations[1].comment == "a quiet pawn"
    assert [node.move.usi() for node in first.variations[0].variations if node.move] == ["4a3b", "3a2b"]
    assert errors == []
    context.close()
