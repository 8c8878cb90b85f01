"""The page reviewing a finished game's analysis (issue 24): ``/games/{id}/analysis`` is the shell
of the ``analysis`` page module for a known game, and the usual 404 error page for others."""

from __future__ import annotations

import re

from starlette.testclient import TestClient
from tests.web.conftest import new_game

from shogiban.i18n import template


def test_the_page_is_the_shell_of_the_analysis_module(client: TestClient) -> None:
    game = new_game(client, mode="local")
    page = client.get(f"/games/{game['id']}/analysis", headers={"accept-language": "ja"})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert re.search(rf'<body data-page="analysis" data-game-id="{game["id"]}"', page.text)
    assert f"<title>{template('ui.analysis.title', 'ja')} · shogiban</title>" in page.text
    assert '<main id="app" class="page page-analysis">' in page.text


def test_an_unknown_game_is_the_404_page(client: TestClient) -> None:
    page = client.get("/games/nosuchgame/analysis", headers={"accept": "text/html"})
    assert page.status_code == 404
    assert 'data-page="error"' in page.text
    assert 'data-error="unknown_game"' in page.text
    # A game id that is not one at all is refused by the route's check, also as a page.
    refused = client.get("/games/" + "x" * 300 + "/analysis", headers={"accept": "text/html"})
    assert refused.status_code in (400, 404)
    assert 'data-page="error"' in refused.text
