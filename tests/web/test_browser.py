"""The web UI in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright),
against a real ``shogiban serve`` subprocess with the built-in engine.

Screenshots of the main screens in every language go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import board_point

from shogiban import Board
from shogiban.i18n import refusal_text, template

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
LANGUAGES = {"ja": "ja-JP", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "en": "en-US"}
#: A lone gote king against two rooks and two golds: a strong player mates in a few moves.
NEAR_MATE = "8k/9/9/9/9/9/9/9/K8 b 2R2G 1"

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package to run the browser tests",
                allow_module_level=True)


# -- a real server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``shogiban serve`` in a subprocess on a free port, restartable on the same database."""

    def __init__(self, database: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = f"sqlite:///{database}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "shogiban", "serve", "--port", str(self.port), "--db", self.database,
                   "--workers", "1", "--log-level", "warning"]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                problem = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server exited: {problem}")
            try:
                with urllib.request.urlopen(self.url + "/api/config", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests."""
    running = Server(tmp_path_factory.mktemp("web") / "games.sqlite3")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium, Debian's build: no browser is downloaded."""
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def new_page(browser: Any, language: str = "ja", width: int = 1280, height: int = 860) -> Any:
    """A page in a fresh context whose browser prefers *language*."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=LANGUAGES[language])
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    return page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


# -- driving the board -------------------------------------------------------------------------------


def square_point(page: Any, square: str, host: str = "#board") -> tuple[float, float]:
    """Screen coordinates of the centre of *square* on the board in *host*."""
    return board_point(page.locator(host), square)


def click_square(page: Any, square: str) -> None:
    page.mouse.click(*square_point(page, square))


def play_by_clicking(page: Any, usi: str, turn: str) -> None:
    """Make the move *usi* with the mouse: click-click, drops from the hand, the promotion
    choice when it is offered."""
    if usi[1] == "*":
        page.click(f"#board .sb-hand-piece[data-piece='{usi[0]}'][data-color='{turn}']")
        click_square(page, usi[2:4])
        return
    click_square(page, usi[:2])
    click_square(page, usi[2:4])
    chooser = page.locator("#board .sb-promo-choice")
    if chooser.count():
        page.click(f"#board .sb-promo-choice[data-choice='{'+' if usi.endswith('+') else '='}']")


def api_state(page: Any, base: str, game_id: str) -> dict[str, Any]:
    response = page.request.get(f"{base}/api/games/{game_id}")
    assert response.ok
    state: dict[str, Any] = response.json()
    return state


def wait_for_ply(page: Any, ply: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('.move-list li[data-ply]').length >= n", arg=ply)


def create_game(page: Any, base: str, **body: Any) -> dict[str, Any]:
    """Create a game with the page's cookies (so the page is the player) and open it."""
    response = page.request.post(f"{base}/api/games", data=body)
    assert response.status == 201, response.text()
    game: dict[str, Any] = response.json()
    page.goto(base + game["url"])
    page.wait_for_selector("#board .sb-piece")
    page.wait_for_selector(".status-line[data-kind]")
    return game


def strong_move(board: Board) -> str:
    """The move a strong player would choose (the built-in engine at its top level)."""
    from shogiban.engine import BuiltinSearch
    from shogiban.engines import Limit

    result = BuiltinSearch(level=8, seed=1).search(board, Limit(time=0.3))
    assert result.move is not None
    return result.move.usi()


# -- tests -------------------------------------------------------------------------------------------


def test_full_game_against_the_computer_by_clicking(browser: Any, server: Server) -> None:
    page = new_page(browser, "ja")
    game = create_game(page, server.url, mode="computer", level=1, color="b", sfen=NEAR_MATE)
    deadline = time.monotonic() + 60
    played = 0
    while time.monotonic() < deadline and played < 12:
        state = api_state(page, server.url, game["id"])
        if state["outcome"]:
            break
        if not state["can"]["move"]:
            page.wait_for_timeout(100)
            continue
        played += 1
        board = Board(state["game"]["start_sfen"])
        for move in state["moves"]:
            board.push_usi(move["usi"])
        ply = board.ply
        play_by_clicking(page, strong_move(board), "b")
        wait_for_ply(page, ply + 1)
    state = api_state(page, server.url, game["id"])
    assert state["outcome"], state
    page.wait_for_selector(".result-dialog[open]")
    assert state["outcome"]["termination"] in ("checkmate", "no_legal_moves")
    assert state["outcome"]["winner"] == "b"
    assert page.locator(".result-title").inner_text() == "あなたの勝ちです！"
    reason = page.locator(".result-reason").inner_text()
    assert "詰み" in reason or "指せる手" in reason
    assert any(m["usi"][1] == "*" for m in state["moves"]), "the win used drops from the hand"
    assert page.locator(".move-list li[data-ply] .label").first.inner_text().startswith("▲")
    assert page.js_errors == []
    page.context.close()


def test_promote_decline_and_forced_promotion(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="local", sfen="4k4/8P/9/3S1S3/9/9/9/9/4K4 b - 1")
    click_square(page, "6d")
    assert page.locator("#board .sb-dest").count() + page.locator("#board .sb-dest-capture").count() >= 5
    click_square(page, "6c")
    page.wait_for_selector("#board .sb-promo-choice")
    page.click("#board .sb-promo-choice[data-choice='+']")
    wait_for_ply(page, 1)
    play_by_clicking(page, "5a4a", "w")
    wait_for_ply(page, 2)
    click_square(page, "4d")
    click_square(page, "4c")
    page.wait_for_selector("#board .sb-promo-choice")
    page.click("#board .sb-promo-choice[data-choice='=']")
    wait_for_ply(page, 3)
    play_by_clicking(page, "4a5a", "w")
    wait_for_ply(page, 4)
    click_square(page, "1b")
    click_square(page, "1a")  # a pawn on the last rank must promote: no question asked
    wait_for_ply(page, 5)
    assert page.locator("#board .sb-promo-choice").count() == 0
    moves = [m["usi"] for m in api_state(page, server.url, game["id"])["moves"]]
    assert moves == ["6d6c+", "5a4a", "4d4c", "4a5a", "1b1a+"]
    labels = page.locator(".move-list li[data-ply] .label").all_inner_texts()
    assert labels[0] == "S-6c+"  # English reads western by default
    assert labels[2] == "S-4c="
    page.select_option("#notation-select", "japanese")
    page.wait_for_function("document.querySelector('.move-list li[data-ply] .label').textContent === '▲６三銀成'")
    assert page.locator(".move-list li[data-ply] .label").all_inner_texts()[2] == "▲４三銀不成"
    page.context.close()


def test_drag_and_drop_moves_a_piece(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="local")
    start, end = square_point(page, "2g"), square_point(page, "2f")
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0], (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    wait_for_ply(page, 1)
    assert api_state(page, server.url, game["id"])["moves"][0]["usi"] == "2g2f"
    page.context.close()


def test_friend_game_in_two_browsers_with_a_spectator(browser: Any, server: Server) -> None:
    host = new_page(browser, "en")
    host.goto(server.url + "/")
    host.click("label[for=mode-friend]")
    host.click("label[for=color-b]")
    host.click("#start-button")
    host.wait_for_url("**/game/**")
    host.wait_for_selector("#invite-link")
    invite = host.locator("#invite-link").input_value()
    watch = host.locator("#watch-link").input_value()
    assert "?invite=" in invite
    assert watch == invite.split("?")[0]
    shot(host, "en-friend-invite")

    # The watch link gives no seat, even to the first to open it.
    spectator = new_page(browser, "ja")
    spectator.goto(watch)
    spectator.wait_for_selector("#board .sb-piece")
    spectator.wait_for_selector(".status-line[data-kind='wait']")
    assert spectator.locator("#join-button").count() == 0

    friend = new_page(browser, "zh-Hant")
    friend.goto(invite)
    friend.click("#join-button")
    friend.wait_for_selector(".status-line[data-kind='wait']")
    host.wait_for_selector(".status-line[data-kind='turn']")
    assert host.locator(".invite-card").is_hidden()
    friend.wait_for_function("!location.search")  # the used invitation leaves the address

    # A used invitation explains itself and takes no seat.
    latecomer = new_page(browser, "en")
    latecomer.goto(invite)
    latecomer.wait_for_selector("body[data-error='bad_invite'] .error-card")
    assert "already used" in latecomer.locator(".error-card").inner_text()
    shot(latecomer, "en-used-invitation")
    latecomer.context.close()

    play_by_clicking(host, "7g7f", "b")
    wait_for_ply(friend, 1)
    assert friend.locator("#board").evaluate("e => e.classList.contains('sb-flipped')")
    play_by_clicking(friend, "3c3d", "w")
    for page in (host, friend, spectator):
        wait_for_ply(page, 2)
    assert spectator.locator(".move-list li[data-ply] .label").all_inner_texts() == ["▲７六歩", "△３四歩"]
    # The spectator's board does not move pieces, and the server would refuse anyway.
    assert spectator.locator("#board .sb-movable").count() == 0
    click_square(spectator, "2g")
    click_square(spectator, "2f")
    spectator.wait_for_timeout(300)
    game_id = watch.rsplit("/", 1)[1]
    state = api_state(spectator, server.url, game_id)
    assert state["you"] is None
    assert len(state["moves"]) == 2
    assert friend.locator(".player-bar.bottom .player-name").inner_text() == "你"
    # The spectator is told so, and sees two players (nobody is its friend), each bar naming
    # its side once (not "先手 先手").
    assert spectator.locator(".watching-banner").inner_text() == "この対局を観戦しています。"
    assert host.locator(".watching-banner").is_hidden()
    assert spectator.locator(".player-name").all_inner_texts() == [template("ui.player.unnamed", "ja")] * 2
    assert sorted(spectator.locator(".player-side").all_inner_texts()) == sorted([
        template("side.sente", "ja"), template("side.gote", "ja")])
    for page in (host, friend, spectator):
        assert page.js_errors == []
        page.context.close()


def test_a_friend_asks_to_take_back_and_the_other_allows_it(browser: Any, server: Server) -> None:
    from playwright.sync_api import expect

    host = new_page(browser, "en")
    host.goto(server.url + "/")
    host.click("label[for=mode-friend]")
    host.click("label[for=color-b]")
    host.click("#start-button")
    host.wait_for_selector("#invite-link")
    friend = new_page(browser, "ja")
    friend.goto(host.locator("#invite-link").input_value())
    friend.click("#join-button")
    host.wait_for_selector(".status-line[data-kind='turn']")
    play_by_clicking(host, "7g7f", "b")
    wait_for_ply(friend, 1)
    expect(host.locator("#undo-button")).to_have_text("Ask to take back")
    host.click("#undo-button")
    expect(host.locator(".status-line")).to_have_text(template("ui.status.takeback_offered", "en"))
    expect(host.locator("#decline-undo-button")).to_have_text("Withdraw the request")
    expect(friend.locator(".status-line")).to_have_text(template("ui.status.takeback_received", "ja"))
    expect(friend.locator("#undo-button")).to_have_text(template("ui.game.undo_accept", "ja"))
    friend.click("#undo-button")
    for page in (host, friend):
        page.wait_for_function("document.querySelectorAll('.move-list li[data-ply]').length === 0")
    expect(host.locator(".status-line")).to_have_attribute("data-kind", "turn")
    for page in (host, friend):
        assert page.js_errors == []
        page.context.close()


def test_switch_language_is_remembered(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    page.goto(server.url + "/")
    page.wait_for_selector("#start-button")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("nav a[data-nav='play']").inner_text() == "Play"
    page.select_option("#language-select", "zh-Hant")
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
    assert page.locator("nav a[data-nav='play']").inner_text() == "對局"
    assert page.locator("#start-button").inner_text() == "開始對局"
    assert page.evaluate("localStorage.getItem('shogiban.lang')") == "zh-Hant"
    page.reload()
    page.wait_for_function("document.body.classList.contains('ready')")
    assert page.locator("html").get_attribute("lang") == "zh-Hant"
    assert page.locator("#start-button").inner_text() == "開始對局"
    page.select_option("#language-select", "zh-Hans")
    page.wait_for_function("document.documentElement.lang === 'zh-Hans'")
    assert page.locator("#start-button").inner_text() == "开始对局"
    page.context.close()


def test_the_record_viewer_counter_agrees_with_the_move_list(browser: Any, server: Server, tmp_path: Path) -> None:
    # Issue 26: the counter said "3 / 3" on both the last move and the 投了 entry, which the list
    # numbers 4 (as KIF does): the counter now shows the number the list shows.
    kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n"
    kif += "   4 投了\n"
    path = tmp_path / "resigned.kif"
    path.write_bytes(kif.encode("utf-8"))
    page = new_page(browser, "en")
    page.goto(server.url + "/record")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".record-moves li[data-index]")
    expect = playwright_api.expect
    # The handicap in English, not "Handicap 平手".
    expect(page.locator(".record-info dt:has-text('Handicap') + dd")).to_have_text("Even game (平手)")
    page.click("#next-button")
    expect(page.locator(".step-count")).to_have_text("Move 1 / 4")
    page.click("#last-button")
    expect(page.locator(".record-moves li.current")).to_have_class("result-entry current")
    expect(page.locator(".record-moves li.current .ply")).to_have_text("4")
    expect(page.locator(".step-count")).to_have_text("Move 4 / 4")
    page.click("#prev-button")
    expect(page.locator(".record-moves li.current .ply")).to_have_text("3")
    expect(page.locator(".step-count")).to_have_text("Move 3 / 4")
    page.context.close()


def test_open_a_kif_step_through_and_play_on(browser: Any, server: Server, tmp_path: Path) -> None:
    kif = (
        "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n"
        "   1 ７六歩(77)\n*最初のコメント\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n"
        "\n変化：2手\n   2 ８四歩(83)\n*変化のコメント\n"
    )
    path = tmp_path / "game.kif"
    path.write_bytes(kif.encode("cp932"))
    page = new_page(browser, "ja")
    page.goto(server.url + "/record")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".record-moves li[data-index]")
    assert page.locator(".record-info .card-title").inner_text() == "☗甲 — ☖乙"
    page.click("#next-button")
    assert page.locator(".comment-text").inner_text() == "最初のコメント"
    assert page.locator(".step-count").inner_text() == "1手目 / 4"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator(".record-moves li.current .label").inner_text() == "▲２六歩"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".record-moves li.current .label").inner_text() == "△３四歩"
    page.click(".var-list .chip:has-text('８四歩')")
    assert page.locator(".record-moves li.current .label").inner_text() == "△８四歩"
    assert page.locator(".comment-text").inner_text() == "変化のコメント"
    assert page.locator(".step-count").inner_text() == "2手目 / 2"
    assert page.locator("#last-button").is_disabled()
    page.click("#continue-computer")
    page.wait_for_selector(".from-record")
    # The preview shows the position reached, not the record's start.
    preview = page.locator(".preview-board")
    assert preview.locator('[data-square="8d"]').count() == 1
    assert preview.locator('[data-square="8c"]').count() == 0
    assert preview.locator('[data-square="7f"]').count() == 1
    page.click("#start-button")
    page.wait_for_url("**/game/**")
    wait_for_ply(page, 2)
    assert page.locator(".move-list li[data-ply] .label").all_inner_texts()[:2] == ["▲７六歩", "△８四歩"]
    page.context.close()


def test_the_home_preview_shows_the_handicap_and_its_name_once(browser: Any, server: Server) -> None:
    page = new_page(browser, "zh-Hans")
    page.goto(server.url + "/")
    page.wait_for_selector("#handicap-select")
    labels = page.locator("#handicap-select option").all_inner_texts()
    assert labels[0] == "平手"  # not 平手（平手）
    assert "让角（角落ち）" in labels
    preview = page.locator(".preview-board")
    assert preview.locator('[data-square="2b"]').count() == 1
    page.select_option("#handicap-select", "角落ち")
    page.wait_for_function("!document.querySelector('.preview-board [data-square=\"2b\"]')")
    assert preview.locator('[data-square="8b"]').count() == 1  # the rook stays
    page.context.close()


def test_after_a_loss_on_time_the_clock_shows_nothing_left(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    create_game(page, server.url, mode="local", time={"main": 0, "byoyomi": 1})
    page.wait_for_selector(".result-title", timeout=15000)  # sente's byoyomi ran out
    page.wait_for_timeout(300)
    assert page.locator(".clock[data-color='b'] .clock-time").first.inner_text() == "0:00"
    assert page.locator(".clock[data-color='w'] .clock-time").first.inner_text() == "0:01"  # gote never moved
    page.context.close()


def test_recent_games_name_the_opponent_in_the_language_shown(browser: Any, server: Server) -> None:
    page = new_page(browser, "ja")
    create_game(page, server.url, mode="computer", level=1, color="b")
    page.wait_for_selector(".player-name")
    page.goto(server.url + "/")
    page.wait_for_selector(".recent-mode")
    assert page.locator(".recent-mode").first.inner_text() == template("ui.player.computer", "ja").format(level=1)
    page.select_option("#language-select", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_function("document.querySelector('.recent-mode').textContent.startsWith('Computer')")
    assert page.locator(".recent-mode").first.inner_text() == "Computer · level 1"
    page.context.close()


def test_the_declaration_asks_before_it_ends_the_game(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="local", sfen="RRBBGGGGS/S3K4/9/9/9/9/9/9/4k4 b 2P 1")
    page.click("#declare-button")
    page.wait_for_selector("#declare-yes")
    assert api_state(page, server.url, game["id"])["outcome"] is None  # nothing sent yet
    page.click("#declare-no")
    page.wait_for_selector("#declare-button")
    page.click("#declare-button")
    page.click("#declare-yes")
    page.wait_for_selector(".result-title")
    assert api_state(page, server.url, game["id"])["outcome"]["termination"] == "entering_king"
    page.context.close()


def test_the_level_buttons_fit_a_phone(browser: Any, server: Server) -> None:
    page = new_page(browser, "zh-Hant", width=360, height=740)
    page.goto(server.url + "/")
    page.wait_for_selector(".seg-level label")
    boxes = [label.bounding_box() for label in page.locator(".seg-level label").all()]
    assert len(boxes) == 8
    for i, a in enumerate(boxes):
        assert a["x"] >= 0
        assert a["x"] + a["width"] <= 360
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                     or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)
            assert apart, (a, b)
    page.context.close()


def test_simplified_chinese_move_labels_use_simplified_pieces(browser: Any, server: Server) -> None:
    page = new_page(browser, "zh-Hans")
    game = create_game(page, server.url, mode="local", moves=["3i4h", "8b7b", "7g7f", "3c3d", "8h2b+", "3a2b"])
    wait_for_ply(page, 6)
    labels = page.locator(".move-list li[data-ply] .label").all_inner_texts()
    assert labels[:3] == ["▲４八银", "△７二飞", "▲７六步"]
    page.goto(f"{server.url}/record?game={game['id']}")
    page.wait_for_selector(".record-moves li[data-index]")
    texts = page.locator(".record-moves li[data-index] .label").all_inner_texts()
    assert "▲２二角成" in texts
    assert not any(c in "".join(texts) for c in "銀飛歩"), texts
    page.context.close()


def test_the_notation_setting_applies_to_the_record_viewer(browser: Any, server: Server, tmp_path: Path) -> None:
    path = tmp_path / "game.kif"
    path.write_bytes("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n".encode())
    page = new_page(browser, "en")
    page.goto(server.url + "/record")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".record-moves li[data-index]")
    labels = page.locator(".record-moves li[data-index] .label")
    assert labels.all_inner_texts()[1:] == ["P-7f", "P-3d", "Bx2b+"]  # English reads western by default
    for notation, expected in [("japanese", "▲２二角成"), ("kitao", "角x22+"), ("csa", "+8822UM"), ("usi", "8h2b+")]:
        page.select_option("#notation-select", notation)
        page.wait_for_function(f"document.querySelectorAll('.record-moves .label')[3].textContent === {expected!r}")
    page.reload()
    page.wait_for_selector("#notation-select")
    assert page.locator("#notation-select").input_value() == "usi"  # remembered
    page.context.close()


def test_a_game_by_keyboard_alone_with_the_board_read_aloud(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    create_game(page, server.url, mode="local", sfen="4k4/9/9/9/9/9/2P6/9/4K4 b - 1")
    board = page.locator("#board .sb-board-main")
    board.focus()
    live = page.locator("#board .sb-live")
    page.wait_for_function("document.querySelector('#board .sb-live').textContent.length > 0")
    assert page.locator("#board .sb-cursor").count() == 1  # visible focus
    # The cursor starts on 5e; 7g is two files left and two ranks down.
    for key in ["ArrowLeft", "ArrowLeft", "ArrowDown", "ArrowDown"]:
        page.keyboard.press(key)
    page.wait_for_function("document.querySelector('#board .sb-live').textContent === '7g, Sente pawn'")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    wait_for_ply(page, 1)
    assert page.locator(".move-list li[data-ply] .label").first.inner_text() in {"P-7f", "▲７六歩"}
    page.keyboard.press("b")
    page.wait_for_function("document.querySelector('#board .sb-live').textContent.includes('Gote')")
    assert "king 5i" in live.inner_text()
    assert "pawn 7f" in live.inner_text()
    page.keyboard.press("l")
    page.wait_for_function("document.querySelector('#board .sb-live').textContent.startsWith('Last move')")
    page.context.close()


def test_promotion_chosen_by_keyboard(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    game = create_game(page, server.url, mode="local", sfen="4k4/9/9/2P6/9/9/9/9/4K4 b - 1")
    page.locator("#board .sb-board-main").focus()
    for key in ["ArrowLeft", "ArrowLeft", "ArrowUp", "Enter", "ArrowUp", "Enter"]:  # 7d to 7c
        page.keyboard.press(key)
    page.wait_for_selector("#board .sb-promo-choice.sb-promo-focus[data-choice='+']")
    page.keyboard.press("ArrowDown")  # the other choice: do not promote
    page.wait_for_selector("#board .sb-promo-choice.sb-promo-focus[data-choice='=']")
    page.keyboard.press("Enter")
    wait_for_ply(page, 1)
    assert api_state(page, server.url, game["id"])["moves"][0]["usi"] == "7d7c"
    page.context.close()


def test_the_game_move_list_follows_the_notation_setting(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    create_game(page, server.url, mode="local", moves=["7g7f", "3c3d", "8h2b+"])
    wait_for_ply(page, 3)
    labels = page.locator(".move-list li[data-ply] .label")
    assert labels.all_inner_texts() == ["P-7f", "P-3d", "Bx2b+"]  # English reads western by default
    page.select_option("#notation-select", "csa")
    page.wait_for_function("document.querySelector('.move-list li[data-ply] .label').textContent === '+7776FU'")
    page.select_option("#notation-select", "japanese")
    page.wait_for_function("document.querySelector('.move-list li[data-ply] .label').textContent === '▲７六歩'")
    page.context.close()


def test_the_position_editor_explains_nifu_and_starts_a_game(browser: Any, server: Server) -> None:
    page = new_page(browser, "en")
    page.goto(server.url + "/editor")
    page.wait_for_selector("#editor-ok")
    page.select_option("#editor-start", "4k4/9/9/9/9/9/9/9/4K4 b - 1")
    page.wait_for_function("document.querySelector('#editor-sfen').value.startsWith('4k4/9/9/9/9/9/9/9/4K4 b')")
    page.click("#editor-box [data-piece='P']")
    page.mouse.click(*square_point(page, "5f", host="#editor-board"))
    page.mouse.click(*square_point(page, "5g", host="#editor-board"))
    page.wait_for_selector("#editor-problems li[data-code='two_pawns']")
    assert "two unpromoted pawns on" in page.locator("#editor-problems li[data-code='two_pawns']").inner_text()
    assert page.locator("#editor-play-local").is_disabled()
    page.mouse.click(*square_point(page, "5g", host="#editor-board"))  # the same piece again takes it away
    page.wait_for_selector("#editor-ok")
    page.click("#editor-hands [data-hand='b-G-plus']")
    page.wait_for_function("document.querySelector('#editor-sfen').value.includes(' b G ')")
    page.click("#editor-play-local")
    page.wait_for_selector(".from-record")
    page.click("#start-button")
    page.wait_for_url("**/game/**")
    game_id = page.url.rsplit("/", 1)[1].split("?")[0]
    assert api_state(page, server.url, game_id)["position"]["sfen"] == "4k4/9/9/9/9/4P4/9/9/4K4 b G 1"
    page.context.close()


LANCE_HANDICAP = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"


def test_the_editor_keeps_the_chosen_start_and_says_the_sfen_was_copied(browser: Any, server: Server) -> None:
    # Issue 26: the "Start from…" choice snapped back to its placeholder, and "Copy SFEN" said
    # "Link copied".
    expect = playwright_api.expect
    page = new_page(browser, "en")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.goto(server.url + "/editor")
    page.wait_for_selector("#editor-ok")
    checked = page.locator("#editor-ok").element_handle()
    page.select_option("#editor-start", LANCE_HANDICAP)
    page.wait_for_function("el => !el.isConnected", arg=checked)  # the new position's verdict is in
    expect(page.locator("#editor-start")).to_have_value(LANCE_HANDICAP)
    expect(page.locator("#editor-start option:checked")).to_have_text("Lance")
    page.click("#editor-copy-sfen")
    expect(page.locator("#toast")).to_have_text("SFEN copied.")
    assert page.evaluate("navigator.clipboard.readText()") == LANCE_HANDICAP
    page.click("#editor-box [data-piece='P']")  # an edit: no choice gives this board any more
    page.mouse.click(*square_point(page, "5e", host="#editor-board"))
    expect(page.locator("#editor-start")).to_have_value("")
    page.mouse.click(*square_point(page, "5e", host="#editor-board"))
    expect(page.locator("#editor-start")).to_have_value(LANCE_HANDICAP)
    page.context.close()


def test_a_gote_to_move_position_from_the_editor_says_who_moves_first(browser: Any, server: Server) -> None:
    # Issue 26: after the editor's "Against the computer" with gote to move, the home page read
    # "Sente: moves first" and "Continuing from a record, after move 0".
    expect = playwright_api.expect
    page = new_page(browser, "en")
    page.goto(server.url + "/editor?sfen=" + urllib.parse.quote(LANCE_HANDICAP))
    page.wait_for_selector("#editor-ok")
    page.click("#editor-play-computer")
    page.wait_for_url(server.url + "/")
    expect(page.locator("#setup-banner")).to_have_text("Starting from a set-up position.")
    expect(page.locator("label[for='color-w'] small")).to_have_text("moves first")
    expect(page.locator("label[for='color-b'] small")).to_have_text("moves second")
    page.context.close()


def test_the_editor_numbers_the_mate_beside_each_move(browser: Any, server: Server) -> None:
    # Issue 26: the list's own numbers ran into the moves ("G*5b2. ..."): each step has its number.
    expect = playwright_api.expect
    page = new_page(browser, "en")
    page.goto(server.url + "/editor?sfen=" + urllib.parse.quote("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"))
    page.wait_for_selector("#editor-ok")
    page.click("#editor-solve")
    steps = page.locator("#editor-solution li")
    expect(steps).to_have_count(1)
    expect(steps.locator(".step-number")).to_have_text("1.")
    assert steps.evaluate("li => getComputedStyle(li).listStyleType") == "none"
    number, move = steps.locator(".step-number").bounding_box(), steps.locator("button").bounding_box()
    assert number["x"] + number["width"] <= move["x"]
    page.context.close()


def test_errors_are_explained(browser: Any, server: Server) -> None:
    page = new_page(browser, "ja")
    create_game(page, server.url, mode="local")
    page.fill(".move-input", "P*5e")
    page.press(".move-input", "Enter")
    page.wait_for_selector(".toast.show")
    # The refusal's words come from the catalogue, as the terminal's do, with the details the
    # rules gave (the piece and the square).
    from shogiban import Board, Move, rules

    refused = rules.check_move(Board(), Move.from_usi("P*5e"))
    assert refused is not None
    assert page.locator(".toast").inner_text() == refusal_text(refused.code, refused.params, "ja")
    page.goto(server.url + "/game/doesnotexist")
    page.wait_for_selector(".status-line[data-kind='error']")
    assert page.locator(".status-line").inner_text() == "この対局は存在しません。"
    page.goto(server.url + "/record")
    page.fill("#record-text", "これは棋譜ではありません")
    page.click("#open-button")
    page.wait_for_selector(".toast.show")
    assert page.locator(".toast").inner_text() == "この棋譜は読み込めません。"
    page.context.close()


def test_the_move_box_reads_every_notation(browser: Any, server: Server) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, "en")
    create_game(page, server.url, mode="local", sfen="4k4/9/3G1G3/9/9/9/9/9/4K4 b - 1")
    page.fill(".move-input", "５二金")  # two golds can go there
    page.press(".move-input", "Enter")
    page.wait_for_selector(".toast.show")
    expect(page.locator(".toast")).to_contain_text("6c5b")
    expect(page.locator(".toast")).to_contain_text("4c5b")
    page.fill(".move-input", "+6362KI")  # CSA: the gold checks from 6b
    page.press(".move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('.move-list li[data-ply]').length === 1")
    page.fill(".move-input", "玉-62")  # piece first: the king takes it
    page.press(".move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('.move-list li[data-ply]').length === 2")
    expect(page.locator(".move-list li[data-ply] .label")).to_have_text(["G-6b", "Kx6b"])
    page.context.close()


def test_the_sfen_and_usi_downloads_say_which_is_which(browser: Any, server: Server) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, "en")
    create_game(page, server.url, mode="local")
    page.fill(".move-input", "7g7f")
    page.press(".move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('.move-list li[data-ply]').length === 1")
    usi, sfen = page.locator("a[data-format=usi]"), page.locator("a[data-format=sfen]")
    expect(usi).to_have_text("USI (start + moves)")
    expect(sfen).to_have_text("SFEN (position now)")
    usi_text = page.request.get(server.url + usi.get_attribute("href")).text()
    sfen_text = page.request.get(server.url + sfen.get_attribute("href")).text()
    assert "moves 7g7f" in usi_text
    assert "moves" not in sfen_text
    assert sfen_text.split()[1] == "w"  # the position after the move: gote to move
    page.context.close()


@pytest.mark.slow
def test_restart_the_server_mid_game_and_carry_on(browser: Any, tmp_path: Path) -> None:
    restartable = Server(tmp_path / "games.sqlite3")
    restartable.start()
    try:
        page = new_page(browser, "en")
        game = create_game(
            page, restartable.url, mode="computer", level=1, color="b", time={"main": 600, "byoyomi": 10}
        )
        play_by_clicking(page, "7g7f", "b")
        wait_for_ply(page, 2)  # with the engine's reply
        started = time.monotonic()
        before = api_state(page, restartable.url, game["id"])
        restartable.stop()
        stopped = time.monotonic()
        page.wait_for_selector(".connection-line:not([hidden])")
        time.sleep(2.0)  # downtime: not charged to anyone
        restarting = time.monotonic()
        restartable.start()
        page.wait_for_selector(".connection-line", state="hidden", timeout=30000)
        after = api_state(page, restartable.url, game["id"])
        ended = time.monotonic()
        assert [m["usi"] for m in after["moves"]] == [m["usi"] for m in before["moves"]]
        assert after["clock"]["white"] == before["clock"]["white"]
        charged = before["clock"]["black"] - after["clock"]["black"]
        uptime = (stopped - started) + (ended - restarting)
        assert 0 <= charged <= uptime * 1000 + 500
        assert charged < (ended - started) * 1000 - 1500  # the 2 s without a server were not charged
        play_by_clicking(page, "2g2f", "b")
        wait_for_ply(page, 3)
        assert page.js_errors == []
        page.context.close()
    finally:
        restartable.stop()


@pytest.mark.slow
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_screenshots(browser: Any, server: Server, language: str) -> None:
    """The main screens in every language, for people to look at (test-artifacts/screenshots)."""
    page = new_page(browser, language)
    page.goto(server.url + "/")
    page.wait_for_selector("#start-button")
    assert page.locator("html").get_attribute("lang") == language
    shot(page, f"{language}-new-game")
    game = create_game(page, server.url, mode="computer", level=2, color="b", time={"main": 300, "byoyomi": 30},
                       moves=["7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "3a4b"])
    click_square(page, "8h")
    page.wait_for_timeout(200)
    shot(page, f"{language}-game")
    page.keyboard.press("Escape")
    page.click("#resign-button")
    page.click("#resign-yes")
    page.wait_for_selector(".result-dialog[open]")
    page.wait_for_timeout(250)
    shot(page, f"{language}-game-over")
    page.goto(f"{server.url}/record?game={game['id']}")
    page.wait_for_selector(".record-moves li[data-index]")
    for _ in range(6):
        page.click("#next-button")
    page.wait_for_timeout(300)  # the last move's slide
    shot(page, f"{language}-record")
    mobile = new_page(browser, language, width=390, height=844)
    mobile.context.add_cookies(page.context.cookies())
    mobile.goto(f"{server.url}/game/{game['id']}")
    mobile.wait_for_selector("#board .sb-piece")
    mobile.wait_for_timeout(250)
    shot(mobile, f"{language}-phone-game")
    assert page.js_errors == []
    assert mobile.js_errors == []
    page.context.close()
    mobile.context.close()


def test_no_request_leaves_the_server(browser: Any, server: Server) -> None:
    """Everything is served locally: no CDN, nothing fetched from elsewhere."""
    page = new_page(browser, "en")
    outside: list[str] = []
    page.on("request", lambda request: outside.append(request.url) if not request.url.startswith(server.url) else None)
    page.goto(server.url + "/")
    page.wait_for_selector("#start-button")
    page.goto(server.url + "/record")
    page.click("#example-button")
    page.wait_for_selector(".record-moves li[data-index]")
    assert [url for url in outside if not url.startswith("data:")] == []
    page.context.close()

