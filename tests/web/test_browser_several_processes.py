"""A browser's game across several web processes (issue "Several web processes"): the page talks
to whichever process a front proxy sends it to; when its process dies, the page reconnects by
itself to another one, takes up the stored game and plays on, and a message received twice
changes nothing.

Needs Debian's chromium and redis-server (the module skips without them)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest
from tests.web.live_server import LiveServer, SwitchingProxy, next_message, start_redis, start_server, until_ply
from tests.web.test_browser import browser, create_game, new_page, play_by_clicking, wait_for_ply  # noqa: F401
from websockets.sync.client import connect

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server"),
]


def test_the_page_reconnects_to_another_process_and_plays_on(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    pytest.importorskip("redis", reason="needs the redis package (pip install shogiban[scale])")
    redis = start_redis(tmp_path)
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    servers: list[LiveServer] = []
    proxy: SwitchingProxy | None = None
    try:
        for name in ("first", "second"):
            servers.append(start_server(tmp_path, "--redis", redis.url, db=db, name=name))  # noqa: PERF401 - one by one
        first, second = servers
        proxy = SwitchingProxy(first.port)
        page = new_page(browser, "en")
        game = create_game(page, proxy.url, mode="friend", color="b", time={"main": 600})
        invite = page.locator("#invite-link").input_value().split("invite=")[1]
        status, joined, _ = second.post_json(f"/api/games/{game['id']}/join", json.dumps({"invite": invite}))
        assert status == 200, joined
        friend = connect(f"{second.ws_base}/ws/games/{game['id']}", max_queue=None,
                         additional_headers={"Cookie": f"sb_{game['id']}={joined['token']}"})
        with friend:
            until_ply(friend, 0, timeout=20)
            page.wait_for_selector(".status-line[data-kind='turn']")
            play_by_clicking(page, "7g7f", "b")
            until_ply(friend, 1, timeout=20)
            friend.send(json.dumps({"type": "move", "usi": "3c3d", "ply": 1}))
            wait_for_ply(page, 2)

            # The page's process dies; the front proxy now sends new connections to the other.
            os.kill(first.process.pid, signal.SIGKILL)
            first.process.wait(10)
            proxy.target = second.port
            page.wait_for_selector(".connection-line:not([hidden])")
            page.wait_for_selector(".connection-line", state="hidden", timeout=30000)  # by itself
            page.wait_for_selector(".status-line[data-kind='turn']")
            play_by_clicking(page, "2g2f", "b")
            until_ply(friend, 3, timeout=20)
            friend.send(json.dumps({"type": "move", "usi": "8c8d", "ply": 3}))
            wait_for_ply(page, 4)

            # A message received twice changes nothing: the repeat is refused (no longer that
            # player's turn, and its ply is past).
            friend.send(json.dumps({"type": "move", "usi": "8c8d", "ply": 3}))
            refused = next_message(friend, "error", timeout=20)
            assert refused["code"] in ("not_your_turn", "stale_ply"), refused
        status, state, _ = second.request("GET", f"/api/games/{game['id']}")
        assert status == 200
        assert [m["usi"] for m in state["moves"]] == ["7g7f", "3c3d", "2g2f", "8c8d"]
        assert page.locator(".move-list li[data-ply]").count() == 4
        assert page.js_errors == []
        page.context.close()
    finally:
        if proxy is not None:
            proxy.close()
        for server in servers:
            if server.process.poll() is None:
                server.stop()
        redis.stop()
