"""Learning from one's mistakes on the analysis page, in a real browser (Debian's chromium through
Playwright; issue 27): a game where each side gives its bishop away, analysed; each side's
blunder becomes an exercise; one is solved with the engine's best move, the other missed twice
(the best line is shown); the progress is kept over a reload; at phone width the panel sits
below the board."""

from __future__ import annotations

import json
import re
import time
import urllib.request
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.browser_support import chromium, serve_app
from tests.web.test_analysis_browser import SCREENSHOTS
from tests.web.test_browser import play_by_clicking

from shogiban.engines.limit import Limit
from shogiban.i18n import translate
from shogiban.web.game_analysis import AnalysisSettings
from shogiban.web.live_analysis import LiveSettings

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
warnings.filterwarnings("ignore", message=".*httpx2.*")

#: Sente gives its bishop away (8h3c+, move 3), then gote gives its own (3c8h+, move 6).
MOVES = ("7g7f", "3c3d", "8h3c+", "2b3c", "2g2f", "3c8h+", "7i8h")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app in a uvicorn thread: analyses at depth 1, one live search (the judge's) at a time."""
    from shogiban.web.app import create_app

    database = tmp_path_factory.mktemp("mistakes") / "games.sqlite3"
    app = create_app(database_url=f"sqlite:///{database}", engines=None, heartbeat=3600.0,
                     analysis=AnalysisSettings(limit=Limit(depth=1), poll_seconds=0.05),
                     live=LiveSettings(searches=1))
    yield from serve_app(app)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def call(url: str, method: str = "GET", body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def wait_for(ws: Any, done: Any) -> None:
    """Read *ws* until a message *done* accepts; no error before it."""
    deadline = time.monotonic() + 30
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert message["type"] != "error", message
        if done(message):
            return


def analysed_game(base: str, tokens: tuple[str, str] | None = None,
                  game_id: str | None = None) -> tuple[str, dict[str, Any]]:
    """A game of MOVES, resigned and analysed: its id and the analysis.  A local game, or the
    game *game_id* whose sides play with *tokens* (sente's, gote's)."""
    from websockets.sync.client import connect

    if game_id is None or tokens is None:
        game = call(f"{base}/api/games", "POST", {"mode": "local"})
        game_id, tokens = game["id"], (game["token"], game["token"])
    url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    with connect(url, open_timeout=30) as black, connect(url, open_timeout=30) as white:
        sockets = (black, white)
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        for ply, usi in enumerate(MOVES):
            ws = sockets[ply % 2]
            ws.send(json.dumps({"type": "move", "usi": usi, "ply": ply}))
            # Played (its own broadcast, not an earlier one) before the other side moves.
            wait_for(ws, lambda message, n=ply + 1: message["type"] == "move" and message["move"]["ply"] == n)
        sockets[len(MOVES) % 2].send(json.dumps({"type": "resign"}))
        wait_for(sockets[len(MOVES) % 2], lambda message: bool(message.get("outcome")))
    url = f"{base}/api/games/{game_id}/analysis"
    answer = call(url, "POST")
    deadline = time.monotonic() + 120
    while answer["status"] != "done":
        assert answer["status"] in ("queued", "running"), answer
        assert time.monotonic() < deadline, answer
        time.sleep(0.1)  # polling the server's state, as the page does
        answer = call(url)
    return game_id, answer["result"]


def en(key: str, **params: Any) -> str:
    return translate(key, "en", **params)


def test_mistakes_become_exercises_solved_missed_and_kept(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id, result = analysed_game(server)
    positions = result["positions"]
    # The analysis labels both bishops given away, and nothing else (the exercises' premise).
    labelled = [p["ply"] for p in positions if p.get("label") in ("mistake", "blunder")]
    assert labelled == [3, 6], [(p["ply"], p.get("label")) for p in positions]
    best_black = positions[2]["best_move"]  # the engine's move instead of 8h3c+

    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/games/{game_id}/analysis")
    panel = page.locator("#mistakes")
    view = page.locator("#analysis-view")
    board = page.locator("#board")
    live = page.locator("#analysis-live")
    verdict = page.locator("#mistakes-verdict")

    # A spectator of a local game: the side is chosen.
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-mode", "idle")
    page.locator("#mistakes-side").select_option("b")
    expect(page.locator("#mistakes-count")).to_have_text(en("ui.mistakes.count", side=en("side.sente"), n=1))
    page.locator("#mistakes-start").click()
    expect(panel).to_have_attribute("data-mode", "exercise")
    expect(view).to_have_class(re.compile(r"\bexercising\b"))
    expect(page.locator("#analysis-info")).to_be_hidden()  # it would tell the best move
    expect(page.locator("#explore-tools")).to_be_hidden()
    expect(page.locator("#mistakes-heading")).to_have_text(en("ui.mistakes.exercise", n=1, total=1))
    expect(page.locator("#mistakes-prompt")).to_have_text(re.compile(r"^Find a better move than \S+ \(move 3\)\.$"))
    expect(live).to_have_text(re.compile(r"^Exercise 1 of 1\. Find a better move than \S+ \(move 3\)\.$"))
    expect(board).not_to_have_class(re.compile(r"\bsb-flipped\b"))
    expect(board).to_have_attribute("data-legal-for", "0.0")
    expect(page.locator("#board .sb-arrows > *")).to_have_count(0)  # no answer drawn
    play_by_clicking(page, best_black, "b")
    expect(verdict).to_have_attribute("data-kind", "good")
    expect(verdict).to_have_text(en("ui.mistakes.good_best"))
    expect(page.locator('#mistakes-list li[data-ply="3"]')).to_have_attribute("data-state", "solved")
    expect(page.locator("#mistakes-next")).to_be_focused()
    page.keyboard.press("Enter")  # the keyboard reaches the summary
    expect(panel).to_have_attribute("data-mode", "summary")
    expect(page.locator("#mistakes-heading")).to_have_text(en("ui.mistakes.summary", found=1, total=1))
    expect(live).to_have_text(en("ui.mistakes.summary", found=1, total=1))
    page.locator("#mistakes-leave").click()
    expect(panel).to_have_attribute("data-mode", "idle")
    expect(view).not_to_have_class(re.compile(r"\bexercising\b"))
    expect(page.locator("#analysis-info")).to_be_visible()

    # Gote's blunder, missed twice: the best move and its line are shown.
    page.locator("#mistakes-side").select_option("w")
    page.locator("#mistakes-start").click()
    expect(page.locator("#mistakes-prompt")).to_have_text(re.compile(r"\(move 6\)\.$"))
    expect(board).to_have_class(re.compile(r"\bsb-flipped\b"))  # from gote's side
    expect(board).to_have_attribute("data-legal-for", "0.0.0.0.0")
    for attempt in range(2):
        play_by_clicking(page, "3c8h+", "w")
        if attempt == 0:
            expect(verdict).to_have_attribute("data-kind", re.compile(r"^(retry|error)$"))
            if verdict.get_attribute("data-kind") == "error":  # busy engines, in words: played again
                assert not re.search(r"\b(busy|too_fast|engine_error)\b", verdict.inner_text())
                play_by_clicking(page, "3c8h+", "w")
                expect(verdict).to_have_attribute("data-kind", "retry")
            retry = r"^Not quite: B-8h\+ would be labelled (Mistake|Blunder)\. Try again\.$"
            expect(verdict).to_have_text(re.compile(retry))
            expect(page.locator('#mistakes-list li[data-ply="6"]')).to_have_attribute("data-state", "todo")
    expect(verdict).to_have_attribute("data-kind", "failed")
    expect(verdict).to_have_text(re.compile(r"The best move was \S+\.$"))
    expect(page.locator("#mistakes-line")).to_have_text(re.compile(r"^Best line: \S"))
    expect(page.locator("#board .sb-arrows > *")).to_have_count(1)  # the best move
    expect(page.locator('#mistakes-list li[data-ply="6"]')).to_have_attribute("data-state", "failed")
    expect(live).to_have_text(re.compile(r"Best line: \S"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "mistakes-missed-en.png"), full_page=True)

    # Kept over a reload: sente's found, gote's missed.
    page.reload()
    expect(panel).to_have_attribute("data-mode", "idle")
    page.locator("#mistakes-side").select_option("b")
    expect(page.locator('#mistakes-list li[data-ply="3"]')).to_have_attribute("data-state", "solved")
    page.locator("#mistakes-side").select_option("w")
    expect(page.locator('#mistakes-list li[data-ply="6"]')).to_have_attribute("data-state", "failed")
    expect(page.locator("#mistakes-progress")).to_have_text(en("ui.mistakes.progress", found=0, missed=1, left=0))

    # At phone width the exercise sits below the board (practised again: gote's is to do again).
    page.set_viewport_size({"width": 390, "height": 860})
    expect(page.locator("#mistakes-start")).to_have_text(en("ui.mistakes.again"))
    page.locator("#mistakes-start").click()
    expect(panel).to_have_attribute("data-mode", "exercise")
    board_box, panel_box = board.bounding_box(), panel.bounding_box()
    assert board_box is not None
    assert panel_box is not None
    assert panel_box["y"] >= board_box["y"] + board_box["height"] - 1
    page.screenshot(path=str(SCREENSHOTS / "mistakes-phone-en.png"), full_page=True)
    assert errors == []
    context.close()


def test_a_player_practises_their_own_side(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The browser creates a friend's game as gote (its token cookie), a friend joins as sente.
    created = page.request.post(f"{server}/api/games", data={"mode": "friend", "color": "w"})
    assert created.status == 201, created.text()
    game = created.json()
    invite = game["invite_url"].split("?invite=", 1)[1]
    friend = call(f"{server}/api/games/{game['id']}/join", "POST", {"invite": invite})
    game_id, _ = analysed_game(server, (friend["token"], game["token"]), game["id"])
    page.goto(f"{server}/games/{game_id}/analysis")
    panel = page.locator("#mistakes")
    expect(panel).to_have_attribute("data-mode", "idle")
    expect(page.locator("#mistakes-count")).to_have_text(en("ui.mistakes.count", side=en("side.gote"), n=1))
    expect(page.locator("#mistakes-side")).to_have_count(0)  # no choice: the page knows the side
    page.locator("#mistakes-start").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#mistakes-prompt")).to_have_text(re.compile(r"\(move 6\)\.$"))
    expect(page.locator("#mistakes-heading")).to_be_focused()
    expect(page.locator("#board")).to_have_class(re.compile(r"\bsb-flipped\b"))
    page.locator("#mistakes-leave").click()
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bsb-flipped\b"))  # the review as it was
    expect(page.locator("#mistakes-start")).to_be_focused()
    assert errors == []
    context.close()
