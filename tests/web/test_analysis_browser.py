"""The analysis page in a real browser (Debian's chromium through Playwright): a finished game's
analysis is requested, followed to its end, reviewed through the graph and the keyboard, and seen
again at once after a reload (issue 24)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import chromium, serve_app
from tests.web.test_game_analysis import GATE, gated_analysis

from shogiban import Board
from shogiban.engines.limit import Limit
from shogiban.i18n import translate
from shogiban.notation.forms import move_forms
from shogiban.web.game_analysis import AnalysisSettings

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
warnings.filterwarnings("ignore", message=".*httpx2.*")

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
MOVES = ("7g7f", "3c3d", "8h2b+", "3a2b", "2g2f", "8c8d")


def serve(database: Path, settings: AnalysisSettings) -> Iterator[str]:
    """The app in a uvicorn thread with these analysis *settings*, until the generator closes."""
    from shogiban.web.app import create_app

    app = create_app(database_url=f"sqlite:///{database}", engines=None, heartbeat=3600.0, analysis=settings)
    yield from serve_app(app)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server analysing at depth 1 (a few positions a second)."""
    database = tmp_path_factory.mktemp("analysis") / "games.sqlite3"
    yield from serve(database, AnalysisSettings(limit=Limit(depth=1), poll_seconds=0.05))


@pytest.fixture(scope="module")
def gated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server whose analyses wait for a gate file (``gated_analysis``), and that file."""
    folder = tmp_path_factory.mktemp("gated")
    gate = folder / "gate"
    before = os.environ.get(GATE)
    os.environ[GATE] = str(gate)  # the analysis worker, spawned later, reads it
    try:
        settings = AnalysisSettings(limit=Limit(depth=1), poll_seconds=0.05, run=gated_analysis)
        for base in serve(folder / "games.sqlite3", settings):
            yield base, gate
    finally:
        if before is None:
            os.environ.pop(GATE, None)
        else:
            os.environ[GATE] = before


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def finished_game(base: str) -> str:
    """A local game of a few moves, resigned (over HTTP and the websocket, as a browser would)."""
    from websockets.sync.client import connect

    request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"mode": "local"}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        game = json.loads(answer.read())
    with connect(base.replace("http", "ws", 1) + f"/ws/games/{game['id']}", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": game["token"]}))
        for ply, usi in enumerate(MOVES):
            ws.send(json.dumps({"type": "move", "usi": usi, "ply": ply}))
        ws.send(json.dumps({"type": "resign"}))
        deadline = time.monotonic() + 30
        while True:
            message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            assert message["type"] != "error", message
            if message.get("outcome"):
                break
    game_id: str = game["id"]
    return game_id


def test_request_follow_and_review_an_analysis(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id = finished_game(server)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/games/{game_id}/analysis")
    view = page.locator("#analysis-view")

    request = page.locator("#request-analysis")
    expect(request).to_be_visible()
    request.click()
    graph = page.locator("#analysis-graph")
    expect(graph).to_be_visible()  # done: the graph replaces the request and its progress
    expect(request).to_have_count(0)
    last = len(MOVES)
    expect(view).to_have_attribute("data-ply", str(last))
    expect(page.locator("#analysis-moves li[data-ply]")).to_have_count(last + 1)
    expect(page.locator("#analysis-accuracy li")).to_have_count(2)
    expect(page.locator("#analysis-engine")).to_contain_text("depth 1")
    expect(graph).to_have_attribute("aria-label", re.compile(r"\w"))
    # Each move the analysis labels has its label on the list and a dot on the graph.
    with urllib.request.urlopen(f"{server}/api/games/{game_id}/analysis", timeout=30) as answer:
        result = json.loads(answer.read())["result"]
    labelled = [p["ply"] for p in result["positions"] if p.get("label")]
    expect(page.locator("#analysis-moves li[data-ply] .label-badge")).to_have_count(
        len(labelled) + sum(1 for p in result["positions"] if p.get("missed_mate")))
    expect(graph.locator(".graph-dot")).to_have_count(len(labelled))
    for ply in labelled:
        expect(page.locator(f'#analysis-moves li[data-ply="{ply}"]')).to_have_attribute("data-label", re.compile(r"\w"))

    # A click on the graph's second point (ply 2) jumps there: the list, the counter and the
    # announcement follow, and the board shows an arrow for the best move.
    box = graph.bounding_box()
    assert box is not None
    x = box["x"] + (8 + 2 * (600 - 16) / last) * box["width"] / 600
    page.mouse.click(x, box["y"] + box["height"] / 2)
    expect(view).to_have_attribute("data-ply", "2")
    expect(page.locator('#analysis-moves li[data-ply="2"]')).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#analysis-live")).to_contain_text("Move 2")
    expect(page.locator("#board .sb-arrows line, #board .sb-arrows path")).not_to_have_count(0)
    # The best move and its line in the chosen notation (western on an English page), as the
    # server writes them.
    position = result["positions"][2]
    board = Board(position["sfen"] + " 1")
    best = board.parse_usi(position["best_move"])
    expect(page.locator("#best-move")).to_have_text(
        translate("ui.analysis.best_move", "en", move=move_forms(board, best)["western"]))
    expect(page.locator("#best-line")).to_contain_text(move_forms(board, best)["western"])

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "analysis-en.png"), full_page=True)

    page.keyboard.press("ArrowLeft")
    expect(view).to_have_attribute("data-ply", "1")
    expect(page.locator("#analysis-live")).to_contain_text("Move 1")
    page.keyboard.press("End")
    expect(view).to_have_attribute("data-ply", str(last))
    page.keyboard.press("Home")
    expect(view).to_have_attribute("data-ply", "0")

    # Stored with the game: a reload shows it at once, with no request button.
    page.reload()
    expect(graph).to_be_visible()
    expect(page.locator("#request-analysis")).to_have_count(0)
    expect(page.locator("#analysis-moves li[data-ply]")).to_have_count(last + 1)
    assert errors == []
    context.close()


def test_an_unknown_game_shows_the_error_page(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(locale="en-US")
    page = context.new_page()
    answer = page.goto(f"{server}/games/nosuchgame/analysis")
    assert answer is not None
    assert answer.status == 404
    expect(page.locator("body")).to_have_attribute("data-error", "unknown_game")
    context.close()


def test_on_a_phone_the_graph_is_below_the_board(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id = finished_game(server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{server}/games/{game_id}/analysis")
    page.locator("#request-analysis").click()
    graph = page.locator("#analysis-graph")
    expect(graph).to_be_visible()
    board = page.locator("#board").bounding_box()
    shown = graph.bounding_box()
    assert board is not None
    assert shown is not None
    assert shown["y"] >= board["y"] + board["height"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "analysis-phone-ja.png"), full_page=True)
    context.close()


def test_progress_is_shown_and_the_analysis_can_be_cancelled(gated_server: tuple[str, Path], browser: Any) -> None:
    from playwright.sync_api import expect

    base, gate = gated_server
    game_id = finished_game(base)
    total = len(MOVES) + 1
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{base}/games/{game_id}/analysis")
    page.locator("#request-analysis").click()
    # The worker runs but waits at the gate: positions done / total, and a Cancel button.
    progress = page.locator("#analysis-progress")
    expect(progress).to_have_text(translate("ui.analysis.progress", "en", done=0, total=total))
    page.locator("#cancel-analysis").click()
    expect(page.locator("#analysis-status")).to_contain_text(translate("ui.analysis.cancelled", "en"))
    expect(page.locator("#cancel-analysis")).to_have_count(0)
    # Asked again with the gate open, it runs to its end.
    gate.touch()
    page.locator("#request-analysis").click()
    expect(page.locator("#analysis-graph")).to_be_visible()
    expect(page.locator("#analysis-moves li[data-ply]")).to_have_count(total)
    context.close()


#: A record whose black rook goes where a pawn takes it (ply 7: a blunder) and is taken (ply 8).
BLUNDER_RECORD = "position startpos moves 3g3f 3c3d 3f3e 3d3e 2h3h 8c8d 3h3f 3e3f"


def test_a_pasted_record_is_analysed_from_the_record_viewer(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/record")
    page.locator("#record-text").fill(BLUNDER_RECORD)
    page.locator("#open-button").click()
    page.locator("#analyse-record").click()
    # Its own page (a link to share): the analysis runs and its result replaces the request.
    page.wait_for_url(re.compile(r"/records/analysis/[0-9a-f]{64}$"))
    key = page.url.rsplit("/", 1)[1]
    graph = page.locator("#analysis-graph")
    expect(graph).to_be_visible()
    view = page.locator("#analysis-view")
    expect(view).to_have_attribute("data-ply", "8")
    expect(page.locator("#analysis-moves li[data-ply]")).to_have_count(9)
    # The rook move is a blunder on the list.
    blunder = page.locator('#analysis-moves li[data-ply="7"]')
    expect(blunder).to_have_attribute("data-label", "blunder")
    expect(blunder.locator(".label-badge")).to_have_text(translate("ui.analysis.label.blunder", "en"))
    # In Japanese notation the best line is the server's Japanese forms (no record upload asked).
    with urllib.request.urlopen(f"{server}/api/records/analysis/{key}", timeout=30) as answer:
        result = json.loads(answer.read())["result"]
    uploads: list[str] = []
    page.on("request", lambda request: uploads.append(request.url) if request.url.endswith("/api/records") else None)
    page.select_option("#notation-select", "japanese")
    blunder.click()
    expect(view).to_have_attribute("data-ply", "7")
    line = result["positions"][7]["best_line"]
    expect(page.locator("#best-move")).to_have_text(translate("ui.analysis.best_move", "en", move=line[0]["japanese"]))
    expect(page.locator("#best-line")).to_have_text(
        translate("ui.analysis.best_line", "en", line=" ".join(step["japanese"] for step in line)))
    expect(blunder.locator(".label")).to_have_text("▲３六飛")
    assert uploads == []
    # The same record sent again: the same link, the result at once.
    page.goto(f"{server}/record")
    page.locator("#record-text").fill(BLUNDER_RECORD)
    page.locator("#open-button").click()
    page.locator("#analyse-record").click()
    page.wait_for_url(f"{server}/records/analysis/{key}")
    expect(graph).to_be_visible()
    expect(page.locator("#request-analysis")).to_have_count(0)
    assert errors == []
    context.close()


def test_a_finished_games_tools_link_to_its_analysis(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id = finished_game(server)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{server}/game/{game_id}")
    link = page.locator(".tools-card #analyse-tools-link")
    expect(link).to_have_attribute("href", f"/games/{game_id}/analysis")
    expect(link).to_have_text(translate("ui.analysis.open", "en"))
    context.close()


@pytest.fixture(scope="module")
def analysed_game(server: str) -> str:
    """A finished game whose analysis is stored (asked for and waited for over HTTP)."""
    game_id = finished_game(server)
    request = urllib.request.Request(f"{server}/api/games/{game_id}/analysis", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=30):
        pass
    deadline = time.monotonic() + 120
    while True:
        with urllib.request.urlopen(f"{server}/api/games/{game_id}/analysis", timeout=30) as answer:
            if json.loads(answer.read()).get("status") == "done":
                return game_id
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.1)


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
@pytest.mark.parametrize("language", ["en", "ja", "zh-Hant", "zh-Hans"])
def test_the_review_speaks_each_language_at_each_width(
    server: str, browser: Any, analysed_game: str, language: str, width: int,
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": width, "height": 900}, locale=language)
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{server}/games/{analysed_game}/analysis")
    expect(page.locator("#analysis-accuracy")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == language
    expect(page.locator("main")).to_contain_text(translate("ui.analysis.key_moments", language))
    expect(page.locator("main")).to_contain_text(translate("ui.analysis.accuracy", language))
    text = page.locator("main").inner_text()
    assert not re.search(r"\bui\.[a-z_]+\.[a-z_.]+", text), "a catalogue key shown instead of its words"
    board = page.locator("#board").bounding_box()
    graph = page.locator("#analysis-graph").bounding_box()
    assert board is not None
    assert graph is not None
    if width < 700:
        assert graph["y"] >= board["y"] + board["height"]  # below the board on a phone
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    kind = "phone" if width < 700 else "desktop"
    page.screenshot(path=str(SCREENSHOTS / f"analysis-{language}-{kind}.png"), full_page=True)
    context.close()


def test_the_progress_and_the_result_come_over_the_games_websocket(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    game_id = finished_game(server)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{server}/games/{game_id}/analysis")
    expect(page.locator("#request-analysis")).to_be_visible()
    # From now on asking for the analysis fails: whatever arrives came over the websocket.
    page.route(f"**/api/games/{game_id}/analysis",
               lambda route: route.abort() if route.request.method == "GET" else route.continue_())
    page.locator("#request-analysis").click()
    expect(page.locator("#analysis-graph")).to_be_visible()
    expect(page.locator("#analysis-moves li[data-ply]")).to_have_count(len(MOVES) + 1)
    context.close()
