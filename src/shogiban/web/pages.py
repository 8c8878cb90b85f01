"""The HTML shell of every page: the navigation, the language, and the module that fills it.

Pages are built by JavaScript modules from the JSON API; the server only sends a small shell in
the visitor's language so the first paint is already translated.  The language is decided here,
once per request (:func:`request_language`: the visitor's remembered choice, else
``Accept-Language``); ``<html lang>`` tells the scripts, which load the same catalogue from
``GET /i18n/{lang}.json`` (:mod:`shogiban.web.i18n_routes`).  Other parts of the site (the lessons)
reuse :func:`render_shell`.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse

from shogiban.i18n import (
    COOKIE_NAME,
    Language,
    has_key,
    language_names,
    language_tag,
    negotiate_language,
    template,
    web_version,
)
from shogiban.notation.forms import NOTATIONS

STATIC = Path(__file__).resolve().parent / "static"


def request_language(request: Request) -> Language:
    """The language to answer *request* in: the ``shogiban_lang`` cookie the pages set when the
    visitor picks a language, else the best of ``Accept-Language``, else English."""
    return negotiate_language(request.headers.get("accept-language"), request.cookies.get(COOKIE_NAME))


def render_shell(
    request: Request,
    *,
    page: str,
    title_key: str = "ui.app.title",
    data: dict[str, Any] | None = None,
    module: str = "/static/js/app.js",
    stylesheets: tuple[str, ...] = (),
    show_learn: bool = True,
    content: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    """A page: the header with navigation and language choice, an empty ``<main id="app">`` and
    the script *module* that fills it.  *data* becomes ``data-*`` attributes of ``<body>``.
    *content* (trusted HTML) fills ``<main>`` instead, for pages the server writes itself."""
    language = request_language(request)
    tag = language_tag(language)
    esc = html.escape

    def t(key: str) -> str:
        return esc(template(key, language))

    attributes = "".join(
        f' data-{esc(name.replace("_", "-"))}="{esc(str(value))}"' for name, value in (data or {}).items()
    )
    nav_items = [
        ("/", "ui.nav.play", "play"), ("/record", "ui.nav.record", "record"), ("/editor", "ui.nav.editor", "editor"),
    ]
    if show_learn:
        nav_items += [("/learn", "ui.nav.learn", "learn"), ("/puzzles", "ui.nav.puzzles", "puzzles")]
    current = ' aria-current="page"'
    nav = "".join(
        f'<a href="{href}" data-i18n="{key}" data-nav="{name}"{current if name == page else ""}>{t(key)}</a>'
        for href, key, name in nav_items
    )
    options = "".join(
        f'<option value="{language_tag(code)}"{" selected" if code == language else ""}>{esc(name)}</option>'
        for code, name in language_names().items()
    )
    # The notation menu; notation.js selects the remembered choice (the default is the language's).
    default_notation = "western" if language == "en" else "japanese"
    notations = "".join(
        f'<option value="{name}" data-i18n="ui.notation.{name}"{" selected" if name == default_notation else ""}>'
        f'{t(f"ui.notation.{name}")}</option>'
        for name in NOTATIONS
    )
    links = "".join(f'<link rel="stylesheet" href="{esc(href)}">' for href in stylesheets)
    body = f"""<!doctype html>
<html lang="{tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<meta name="i18n-version" content="{web_version()}">
<title>{t(title_key)} · shogiban</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/board.css">
<link rel="stylesheet" href="/static/css/app.css">{links}
<script type="module" src="{esc(module)}"></script>
</head>
<body data-page="{esc(page)}"{attributes}>
<header class="topbar">
  <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">☗</span><span class="brand-name">shogiban</span>
  <span class="brand-sub" aria-hidden="true" data-i18n="ui.nav.brand">{t('ui.nav.brand')}</span></a>
  <nav class="nav" aria-label="{t('ui.nav.label')}" data-i18n-aria-label="ui.nav.label">{nav}</nav>
  <label class="lang"><span class="visually-hidden" data-i18n="ui.nav.language">{t('ui.nav.language')}</span>
  <select id="language-select">{options}</select></label>
  <label class="notation"><span class="visually-hidden" data-i18n="ui.nav.notation">{t('ui.nav.notation')}</span>
  <select id="notation-select">{notations}</select></label>
</header>
<main id="app" class="page page-{esc(page)}">{content or f"<noscript>{t('ui.app.noscript')}</noscript>"}</main>
<div id="toast" class="toast" role="status" aria-live="polite"></div>
</body>
</html>
"""
    return HTMLResponse(body, status_code=status, headers={"Content-Language": tag, "Vary": "Accept-Language, Cookie"})


def render_error_page(
    request: Request, *, status: int, code: str, message: str, link: tuple[str, str] | None = None
) -> HTMLResponse:
    """A page saying why a request was refused: the translated text of the refusal
    (``rules.<code>``) or error (``error.<code>``), else the English *message*, and optionally a
    *link* ``(href, string key)`` to go on with.  The body carries ``data-error="<code>"``; no
    script is needed to read it."""
    language = request_language(request)
    esc = html.escape
    key = next((k for k in (f"rules.{code}", f"error.{code}") if has_key(k)), None)
    # The server's English message is the fallback for codes the catalogue has no words for.
    if key is not None:
        title = f'<h1 class="card-title" data-i18n="{esc(key)}">{esc(sentence(template(key, language)))}</h1>'
    else:
        title = f'<h1 class="card-title">{esc(message)}</h1>'
    buttons = []
    if link is not None:
        href, label = link
        buttons.append(f'<a class="btn primary" href="{esc(href)}" data-i18n="{esc(label)}">'
                       f'{esc(template(label, language))}</a>')
    home = esc(template("ui.game.new_game", language))
    buttons.append(f'<a class="btn" href="/" data-i18n="ui.game.new_game">{home}</a>')
    content = f'<div class="card error-card" role="alert">{title}<div class="row wrap">{"".join(buttons)}</div></div>'
    return render_shell(request, page="error", title_key=key or "ui.app.title",
                        data={"error": code}, content=content, status=status)


def sentence(text: str) -> str:
    """*text* (a refusal's clause) as a sentence on its own: a capital first letter.

    >>> sentence("it is not your turn"), sentence("あなたの手番ではありません")
    ('It is not your turn', 'あなたの手番ではありません')
    """
    return text[:1].upper() + text[1:]
