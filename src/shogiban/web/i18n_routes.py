"""The text catalogue for the browser: ``GET /i18n/{lang}.json``.

The page scripts translate everything (UI strings, refusal codes, terminations, piece names)
from this one table and keep no strings of their own.  It holds the web's domains of the
catalogue (:data:`shogiban.i18n.WEB_DOMAINS`) in one language, English filling any gap, so a page
needs one request per language.

Caching: the page shell names the catalogue's version (``<meta name="i18n-version">``) and the
scripts ask for ``/i18n/{lang}.json?v={version}``; that answer may be kept for a year (a new
text is a new version, hence a new address).  Without ``v``, or with another one, the answer
must be revalidated (its ``ETag`` is the version).

>>> from starlette.applications import Starlette
>>> from starlette.testclient import TestClient
>>> client = TestClient(Starlette(routes=routes))
>>> client.get("/i18n/zh-Hant.json").json()["rules.nifu"]
'二步：{file}已經有自己未升變的步兵'
"""

from __future__ import annotations

from functools import cache
from typing import Annotated

from pydantic import StringConstraints
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from shogiban.i18n import Language, language_tag, match_language, web_messages, web_version
from shogiban.web.routing import Checked, CheckedRoute
from shogiban.web.schema import Param, Query, RequestError, RequestModel, encode_json

LANGUAGE_TAG = Param(Annotated[str, StringConstraints(min_length=1, max_length=16, pattern=r"^[A-Za-z-]+$")],
                     "not_found", 404, "language")


class VersionQuery(RequestModel):
    """``?v=``: the catalogue's version (a versioned answer may be kept for good)."""

    v: Annotated[str, StringConstraints(max_length=32, pattern=r"^[0-9a-f]*$")] | None = None


VERSION_QUERY = Query(VersionQuery)

#: How long a versioned answer may be kept, and what an unversioned one says.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, no-cache"


async def catalogue(request: Request, checked: Checked) -> Response:
    """The web's messages in one language, as a flat JSON object of templates."""
    language = match_language(checked.params["lang"])
    if language is None or language_tag(language) != checked.params["lang"]:
        # One address per language (zh-Hant, not zh-TW or zh-hant): caches hold each once.
        raise RequestError("not_found", f"no catalogue for language {checked.params['lang']!r}", 404)
    version = web_version()
    etag = f'"{version}"'
    headers = {
        "Cache-Control": IMMUTABLE if checked.query.get("v") == version else REVALIDATE,
        "ETag": etag,
        "Content-Language": language_tag(language),
    }
    if etag in (tag.strip() for tag in request.headers.get("if-none-match", "").split(",")):
        return Response(status_code=304, headers=headers)
    return Response(_body(language), media_type="application/json", headers=headers)


@cache
def _body(language: Language) -> bytes:
    # The texts change only with a new release: encode each language once.
    return encode_json(web_messages(language)).encode("utf-8")


#: The routes the web application mounts.
routes: list[BaseRoute] = [
    CheckedRoute("/i18n/{lang}.json", catalogue, params={"lang": LANGUAGE_TAG}, query=VERSION_QUERY),
]
