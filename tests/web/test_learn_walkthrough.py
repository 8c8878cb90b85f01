"""A learner's walk through every lesson in a real browser, every exercise answered right, then the
first moves of a game against the computer at level 1: how long it takes and how many clicks it
needs (printed, and kept in ``test-artifacts/learn-walkthrough.txt``).  Slow: run with -m slow."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import board_point, chromium

from shogiban.board import Board
from shogiban.lessons.content import _choices, exercise_board, load_lessons
from shogiban.move import Move

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``shogiban serve`` with its built-in engine, so that a game against level 1 can be played."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database = tmp_path_factory.mktemp("walk") / "walk.db"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    process = subprocess.Popen([sys.executable, "-m", "shogiban", "serve", "--port", str(port), "--db",
                                f"sqlite:///{database}", "--workers", "1", "--log-level", "warning"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/api/config", timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail("the server did not start")
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


class Learner:
    """Clicks on a page, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0

    def click(self, locator: Any) -> None:
        locator.click()
        self.clicks += 1

    def square(self, host: Any, square: str) -> None:
        self.page.mouse.click(*board_point(host, square))
        self.clicks += 1

    def move(self, host: Any, usi: str) -> None:
        move = Move.from_usi(usi)
        if move.drop is not None:
            self.click(host.locator(f'.sb-hand-bottom .sb-hand-piece[data-piece="{usi[0]}"]'))
        else:
            self.square(host, usi[:2])
        self.square(host, usi[2:4])
        choice = host.locator(".sb-promo-choice")
        if choice.count():
            self.click(host.locator(f'.sb-promo-choice[data-choice="{"+" if move.promotion else "="}"]'))


def right_move(spec: dict[str, Any]) -> str:
    """A move that meets the exercise's goal, found with the rules core."""
    board = exercise_board(spec)
    if spec["goal"] == "refused":
        return str(spec["try"][0])
    if spec["goal"] == "answer":
        return str(spec["answer"][0])
    for move in board.legal_moves:
        if spec["goal"] == "legal" and not move.promotion:
            return move.usi()
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move.usi()
    raise AssertionError(spec)


def test_walk_through_every_lesson_then_a_first_game(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    learner = Learner(page)
    started = time.monotonic()
    page.goto(f"{server}/learn")
    page.wait_for_selector("body.ready")
    lessons = load_lessons()
    exercises = 0
    for n, lesson in enumerate(lessons):
        if n == 0:
            learner.click(page.locator(f'a.learn-link[data-lesson="{lesson.id}"]'))
        else:
            learner.click(page.locator('[data-action="next-lesson"]'))
        page.wait_for_function(f"() => location.pathname === '/learn/{lesson.id}'")
        page.wait_for_selector("section.lesson-section")
        for index, section in enumerate(lesson.sections):
            spec = section.get("exercise")
            if spec is None:
                continue
            exercises += 1
            box = page.locator(f'section.lesson-section[data-index="{index}"]')
            host = box.locator(".lesson-board")
            host.locator("svg.sb-svg").wait_for()
            goal = spec["goal"]
            if goal == "choice":
                _, _, answer = _choices(spec, "en")
                learner.click(box.locator(f'.lesson-choice-button[data-choice="{answer}"]'))
            elif goal == "square":
                learner.square(host, spec["answer"])
            elif goal == "placement":
                figure = box.locator(".lesson-placement")
                for step, square in enumerate(spec["placements"], 1):
                    learner.square(host, square)
                    page.wait_for_function(f"el => el.dataset.step === '{step}'", arg=figure.element_handle())
            else:
                learner.move(host, right_move(spec))
            feedback = box.locator(".lesson-feedback")
            page.wait_for_function("el => el.dataset.success === 'true'", arg=feedback.element_handle())
    lessons_done = time.monotonic() - started
    lesson_clicks = learner.clicks

    # The first game: the home page, level 1, and a few moves.
    learner.click(page.locator('a[href="/"]').first)
    page.wait_for_selector("#start-button")
    learner.click(page.locator('label:has(input[name="level"][value="1"])'))
    learner.click(page.locator("#start-button"))
    page.wait_for_selector("#board .sb-piece")
    played = 0
    for usi in ("7g7f", "2g2f", "6g6f", "2f2e", "5g5f", "4g4f", "3g3f", "9g9f"):
        if played == 3:
            break
        page.wait_for_function("n => document.querySelectorAll('.move-list li[data-ply]').length >= n",
                               arg=2 * played)
        game_id = page.url.rstrip("/").split("/")[-1]
        state = page.request.get(f"{server}/api/games/{game_id}").json()
        board = Board(state["game"]["start_sfen"])
        for move in state["moves"]:
            board.push_usi(move["usi"])
        if Move.from_usi(usi) not in set(board.legal_moves):
            continue
        learner.move(page.locator("#board"), usi)
        played += 1
        page.wait_for_function("n => document.querySelectorAll('.move-list li[data-ply]').length >= n",
                               arg=2 * played)  # the computer has answered
    total = time.monotonic() - started
    report = (f"{len(lessons)} lessons, {exercises} exercises: {lesson_clicks} clicks, {lessons_done:.1f} s; "
              f"then a game at level 1, {played} moves each: {learner.clicks} clicks, 0 keys, {total:.1f} s in all")
    print(report)
    out = ROOT / "test-artifacts" / "learn-walkthrough.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report + "\n", encoding="utf-8")
    assert played == 3
    assert '"level": 1' in json.dumps(state) or "'level': 1" in str(state), state  # the computer at level 1
    assert errors == []
    context.close()
