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
