"""What the browser tests share: Debian's Chromium through Playwright (never a downloaded
browser), and the application served by uvicorn in a thread of the test process."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: board.js geometry (viewBox units): the drawing's width and height, its left and top margins,
#: and one cell.
BOARD_WIDTH, BOARD_HEIGHT, BOARD_LEFT, BOARD_TOP, CELL_W, CELL_H = 964, 1032, 16, 44, 100, 108
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def chromium() -> Iterator[Any]:
    """A headless Chromium (for a fixture: ``yield from chromium()``); skips without it."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield instance
        instance.close()


def serve_app(app: Any, start_seconds: float = 60.0) -> Iterator[str]:
    """*app* served by uvicorn in a thread until the generator closes; yields its base URL."""
    uvicorn = pytest.importorskip("uvicorn")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    instance = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not instance.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(timeout=20)


def board_point(host: Any, square: str) -> tuple[float, float]:
    """Viewport coordinates of the centre of *square* (``7g``) on the board drawn inside *host*
    (a Playwright locator), scrolled into view first (the mouse clicks in the viewport only).

    The board redraws its SVG after every move.  Scrolling, measuring and reading the flip happen
    in one call in the page, on the SVG attached at that moment: Playwright's own
    ``scroll_into_view_if_needed`` waits for the element to be stable and fails when a redraw
    detaches it meanwhile, which a loaded machine makes likely."""
    box = host.locator("svg.sb-svg").evaluate(
        """el => {
            el.scrollIntoView({block: 'nearest', inline: 'nearest'});
            const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height, flipped: !!el.closest('.sb-flipped')};
        }"""
    )
    col, row = 9 - int(square[0]), "abcdefghi".index(square[1])
    if box["flipped"]:
        col, row = 8 - col, 8 - row
    return (box["x"] + (BOARD_LEFT + col * CELL_W + CELL_W / 2) * box["width"] / BOARD_WIDTH,
            box["y"] + (BOARD_TOP + row * CELL_H + CELL_H / 2) * box["height"] / BOARD_HEIGHT)
