"""axe-core on every page in the four languages (issue 26, "A board for everyone"): home, a local
game and a game against the computer, the record viewer with a record opened, the editor, the
learn index and every lesson, the puzzle list and one puzzle, and the analysis of a finished,
analysed game.  No rule of WCAG 2 A or AA may be broken with a serious or critical impact.

axe-core is looked for in ``$SHOGIBAN_NODE_MODULES`` (a node_modules folder), else in
``.ci/node/node_modules`` of this checkout (``.ci/run`` installs it there with npm); the test
skips with its reason without it, or without Debian's chromium."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import chromium, serve_app
from tests.web.test_analysis_browser import finished_game

from shogiban.engines.limit import Limit
from shogiban.lessons.puzzles import puzzles_by_length
from shogiban.web.game_analysis import AnalysisSettings

# Slow: 27 pages in four languages take about a minute; the README's full test command (CI) runs it.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(240)]

CHECKOUT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "ja", "zh-Hant", "zh-Hans"]
KIF = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n"
BLOCKING = {"serious", "critical"}


def axe_script() -> Path | None:
    """axe.min.js of the installed axe-core, or None."""
    given = os.environ.get("SHOGIBAN_NODE_MODULES")
    for folder in ([Path(given)] if given else []) + [CHECKOUT / ".ci" / "node" / "node_modules"]:
        script = folder / "axe-core" / "axe.min.js"
        if script.is_file():
            return script
    return None


@pytest.fixture(scope="module")
def axe() -> Path:
    script = axe_script()
    if script is None:
        pytest.skip("axe-core is not installed (in $SHOGIBAN_NODE_MODULES or .ci/node/node_modules: "
                    "npm install --prefix .ci/node axe-core)")
    return script


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server with the built-in engine, analysing at depth 1."""
    database = tmp_path_factory.mktemp("axe") / "games.sqlite3"
    from shogiban.web.app import create_app

    app = create_app(database_url=f"sqlite:///{database}", workers=1, heartbeat=3600.0,
                     analysis=AnalysisSettings(limit=Limit(depth=1), poll_seconds=0.05))
    yield from serve_app(app)


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def analysed_game(base: str) -> str:
    """A finished game whose analysis is done."""
    game_id = finished_game(base)
    api(base, f"/api/games/{game_id}/analysis", {})
    deadline = time.monotonic() + 60
    while api(base, f"/api/games/{game_id}/analysis").get("status") != "done":
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.1)
    return game_id


def run_axe(page: Any, axe: Path, where: str) -> list[str]:
    """The serious and critical violations on *page*, one line each."""
    page.add_script_tag(path=str(axe))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: ["wcag2a", "wcag2aa"], resultTypes: ["violations"]});
        return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                         targets: v.nodes.map((n) => n.target.join(" "))}));
    }""")
    return [f"{where}: {v['id']} ({v['impact']}, {len(v['targets'])} elements) {v['help']} at {v['targets'][:3]}"
            for v in result if v["impact"] in BLOCKING]


def check_language(browser: Any, server: str, axe: Path, language: str, sights: dict[str, Any]) -> list[str]:
    """The serious and critical violations on every page in *language* (one context)."""
    found: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.add_init_script(f"localStorage.setItem('shogiban.lang', '{language}')")
    page = context.new_page()
    page.set_default_timeout(30000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def visit(path: str, *, ready: str = "body.ready", name: str = "", action: Any = None) -> None:
        page.goto(server + path)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=language)
        if action is not None:
            action()
        found.extend(run_axe(page, axe, f"{name or path} [{language}]"))

    def game(mode: str) -> str:
        body = {"mode": mode, **({"level": 1, "color": "b"} if mode == "computer" else {})}
        response = page.request.post(server + "/api/games", data=body)
        assert response.status == 201, response.text()
        url: str = response.json()["url"]
        return url

    visit("/")
    visit(game("local"), ready=".status-line[data-kind]", name="local game")
    visit(game("computer"), ready=".status-line[data-kind]", name="game against the computer")
    visit("/record", action=lambda: (page.set_input_files("#record-file", str(sights["record"])),
                                     page.wait_for_selector(".record-moves li[data-index]")))
    visit("/editor")
    visit("/learn")
    for lesson in sights["lessons"]:
        visit(f"/learn/{lesson}", ready="section.lesson-section .sb-svg")
    visit("/puzzles")
    visit(f"/puzzles/{sights['puzzle']}", ready=".puzzle-board .sb-svg")
    visit(f"/games/{sights['analysed']}/analysis", ready="#analysis-graph", name="analysis")
    context.close()
    assert errors == [], f"script errors in {language}: {errors}"
    return found


def test_no_serious_violation_on_any_page(server: str, browser: Any, axe: Path, tmp_path: Path) -> None:
    started = time.monotonic()
    record = tmp_path / "resigned.kif"
    record.write_bytes(KIF.encode("utf-8"))
    sights = {
        "lessons": [lesson["id"] for lesson in api(server, "/api/learn/lessons")["lessons"]],
        "puzzle": next(iter(puzzles_by_length().values()))[0].id,
        "analysed": analysed_game(server),
        "record": record,
    }
    found = [line for language in LANGUAGES for line in check_language(browser, server, axe, language, sights)]
    tally: dict[str, int] = {}
    for line in found:
        rule = line.split(": ", 1)[1].split(" ", 1)[0]
        tally[rule] = tally.get(rule, 0) + 1
    print(f"axe on {len(LANGUAGES)} languages took {time.monotonic() - started:.1f} s; "
          f"pages with each rule broken: {tally}")
    assert not found, "\n".join(found)
