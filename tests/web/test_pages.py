"""The page shell in the visitor's language, and the catalogue the page scripts load."""

from __future__ import annotations

import warnings

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from shogiban import i18n
from shogiban.i18n import language_tag, negotiate_language
from shogiban.web.i18n_routes import IMMUTABLE, REVALIDATE
from shogiban.web.i18n_routes import routes as i18n_routes
from shogiban.web.pages import render_error_page, render_shell

warnings.filterwarnings("ignore", message=".*httpx2.*")


@pytest.fixture(scope="module")
def client() -> TestClient:
    async def shell(request: Request) -> Response:
        return render_shell(request, page="play")

    async def refused(request: Request) -> Response:
        code = request.query_params["code"]
        return render_error_page(request, status=403, code=code, message="the english message")

    return TestClient(Starlette(routes=[Route("/", shell), Route("/refused", refused), *i18n_routes]))


@pytest.mark.parametrize(("header", "expected"), [
    (None, "en"), ("", "en"), ("*", "en"), ("de-DE,fr;q=0.8", "en"),
    ("ja", "ja"), ("ja-JP,en;q=0.5", "ja"), ("en;q=0.5,ja;q=0.9", "ja"),
    ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"), ("zh-MO", "zh-Hant"),
    ("zh-CN", "zh-Hans"), ("zh", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh-SG;q=0.9, ja;q=0.1", "zh-Hans"),
    ("ja;q=0, en", "en"), ("ja;q=bad, zh-TW;q=0.5", "zh-Hant"), ("ko-KR", "en"),
])
def test_negotiate_language(header: str | None, expected: str) -> None:
    assert language_tag(negotiate_language(header)) == expected


def test_a_hostile_header_is_cut_not_parsed_at_length() -> None:
    assert negotiate_language("x;q=0.1," * 100_000 + "ja") == "en"
    assert negotiate_language("ja;q=" + "9" * 100_000) == "ja"


def test_the_shell_follows_the_cookie_before_accept_language(client: TestClient) -> None:
    page = client.get("/", headers={"accept-language": "ja", "cookie": f"{i18n.COOKIE_NAME}=zh-Hant"})
    assert '<html lang="zh-Hant">' in page.text
    assert page.headers["content-language"] == "zh-Hant"
    assert "Cookie" in page.headers["vary"]
    assert i18n.translate("ui.nav.play", "zh-hant") in page.text
    # A cookie naming no supported language is ignored.
    page = client.get("/", headers={"accept-language": "ja", "cookie": f"{i18n.COOKIE_NAME}=klingon"})
    assert '<html lang="ja">' in page.text


def test_the_language_menu_comes_from_the_catalogue(client: TestClient) -> None:
    page = client.get("/", headers={"accept-language": "zh-CN"}).text
    for language, name in i18n.language_names().items():
        selected = " selected" if language == "zh-hans" else ""
        assert f'<option value="{language_tag(language)}"{selected}>{name}</option>' in page
    assert f'<meta name="i18n-version" content="{i18n.web_version()}">' in page


def test_error_pages_translate_refusals_and_errors(client: TestClient) -> None:
    page = client.get("/refused?code=not_your_turn", headers={"accept-language": "ja"}).text
    assert i18n.translate("rules.not_your_turn", "ja") in page
    page = client.get("/refused?code=bad_invite", headers={"accept-language": "en"}).text
    assert i18n.translate("error.bad_invite", "en") in page
    page = client.get("/refused?code=no_such_code", headers={"accept-language": "ja"}).text
    assert "the english message" in page


def test_the_catalogue_is_served_per_language(client: TestClient) -> None:
    for language in i18n.LANGUAGES:
        response = client.get(f"/i18n/{language_tag(language)}.json")
        assert response.status_code == 200
        table = response.json()
        assert table == i18n.web_messages(language)
        assert table["rules.nifu"] == i18n.template("rules.nifu", language)
        assert response.headers["content-language"] == language_tag(language)
    # Only what the pages need: the terminal's texts and the lessons stay on the server.
    english = client.get("/i18n/en.json").json()
    assert not any(key.startswith(("terminal.", "lessons.")) for key in english)
    assert {key.split(".")[0] for key in english} == set(i18n.WEB_DOMAINS)


def test_the_catalogue_is_cached_by_version(client: TestClient) -> None:
    version = i18n.web_version()
    versioned = client.get(f"/i18n/ja.json?v={version}")
    assert versioned.headers["cache-control"] == IMMUTABLE
    assert versioned.headers["etag"] == f'"{version}"'
    stale = client.get("/i18n/ja.json?v=0123")
    assert stale.headers["cache-control"] == REVALIDATE
    assert client.get("/i18n/ja.json").headers["cache-control"] == REVALIDATE
    again = client.get("/i18n/ja.json", headers={"if-none-match": f'"{version}"'})
    assert again.status_code == 304
    assert again.content == b""


@pytest.mark.parametrize("path", [
    "/i18n/fr.json", "/i18n/zh-TW.json", "/i18n/zh-hant.json", "/i18n/" + "x" * 100 + ".json", "/i18n/en%00.json",
])
def test_unknown_catalogues_are_not_found(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert client.get("/i18n/..%2Fen.json").status_code == 404


def test_a_bad_version_is_refused(client: TestClient) -> None:
    assert client.get("/i18n/en.json?v=<script>").status_code == 400
