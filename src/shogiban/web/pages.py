"""The HTML shell of every page: the navigation, the language, and the module that fills it.

Pages are built by JavaScript modules from the JSON API; the server only sends a small shell in
the visitor's language (from ``Accept-Language``) so the first paint is already translated.
Other parts of the site (the lessons) may reuse :func:`render_shell`.
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse

STATIC = Path(__file__).resolve().parent / "static"
LANGUAGES = ("ja", "zh-Hant", "zh-Hans", "en")
LANGUAGE_NAMES = {"ja": "日本語", "zh-Hant": "繁體中文", "zh-Hans": "简体中文", "en": "English"}


def match_language(tag: str) -> str | None:
    """One of :data:`LANGUAGES` for a BCP 47 tag, or None.

    >>> match_language("zh-TW"), match_language("zh"), match_language("ja-JP"), match_language("fr")
    ('zh-Hant', 'zh-Hans', 'ja', None)
    """
    lower = tag.strip().lower()
    if lower.startswith("ja"):
        return "ja"
    if lower.startswith("en"):
        return "en"
    if lower.startswith("zh"):
        if any(mark in lower for mark in ("hant", "-tw", "-hk", "-mo")):
            return "zh-Hant"
        return "zh-Hans"
    return None


def negotiate_language(accept: str | None) -> str:
    """The best language for an ``Accept-Language`` header (English if none fits).

    >>> negotiate_language("fr-FR,fr;q=0.9,zh-TW;q=0.8,en;q=0.5")
    'zh-Hant'
    """
    if not accept:
        return "en"
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept.split(",")):
        pieces = part.strip().split(";")
        quality = 1.0
        for param in pieces[1:]:
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        found = match_language(pieces[0])
        if found and quality > 0:
            weighted.append((-quality, position, found))
    return min(weighted)[2] if weighted else "en"


@functools.cache
def strings(language: str) -> dict[str, str]:
    """The UI strings of *language* (falling back to English key by key)."""
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    if language == "en":
        return dict(english)
    table = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return {**english, **table}


def render_shell(
    request: Request,
    *,
    page: str,
    title_key: str = "app.title",
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
    language = negotiate_language(request.headers.get("accept-language"))
    text = strings(language)
    esc = html.escape

    def t(key: str) -> str:
        return esc(text.get(key, key))

    attributes = "".join(
        f' data-{esc(name.replace("_", "-"))}="{esc(str(value))}"' for name, value in (data or {}).items()
    )
    nav_items = [("/", "nav.play", "play"), ("/record", "nav.record", "record")]
    if show_learn:
        nav_items += [("/learn", "nav.learn", "learn"), ("/puzzles", "nav.puzzles", "puzzles")]
    current = ' aria-current="page"'
    nav = "".join(
        f'<a href="{href}" data-i18n="{key}" data-nav="{name}"{current if name == page else ""}>{t(key)}</a>'
        for href, key, name in nav_items
    )
    options = "".join(
        f'<option value="{code}"{" selected" if code == language else ""}>{esc(name)}</option>'
        for code, name in LANGUAGE_NAMES.items()
    )
    links = "".join(f'<link rel="stylesheet" href="{esc(href)}">' for href in stylesheets)
    body = f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>{t(title_key)} · shogiban</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/board.css">
<link rel="stylesheet" href="/static/css/app.css">{links}
<script type="module" src="{esc(module)}"></script>
</head>
<body data-page="{esc(page)}"{attributes}>
<header class="topbar">
  <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">☗</span><span class="brand-name">shogiban</span>
  <span class="brand-sub" lang="ja">将棋盤</span></a>
  <nav class="nav" aria-label="{t('nav.label')}">{nav}</nav>
  <label class="lang"><span class="visually-hidden" data-i18n="nav.language">{t('nav.language')}</span>
  <select id="language-select">{options}</select></label>
</header>
<main id="app" class="page page-{esc(page)}">{content or f"<noscript>{t('app.noscript')}</noscript>"}</main>
<div id="toast" class="toast" role="status" aria-live="polite"></div>
</body>
</html>
"""
    return HTMLResponse(body, status_code=status, headers={"Content-Language": language, "Vary": "Accept-Language"})


def render_error_page(
    request: Request, *, status: int, code: str, message: str, link: tuple[str, str] | None = None
) -> HTMLResponse:
    """A page saying why a request was refused: the translated text of ``error.<code>`` (else
    the English *message*), and optionally a *link* ``(href, string key)`` to go on with.  The
    body carries ``data-error="<code>"``; no script is needed to read it."""
    language = negotiate_language(request.headers.get("accept-language"))
    text = strings(language)
    esc = html.escape
    key = f"error.{code}"
    # The server's English message is the fallback for codes the UI has no words for.
    if key in text:
        title = f'<h1 class="card-title" data-i18n="{esc(key)}">{esc(text[key])}</h1>'
    else:
        title = f'<h1 class="card-title">{esc(message)}</h1>'
    buttons = []
    if link is not None:
        href, label = link
        buttons.append(f'<a class="btn primary" href="{esc(href)}" data-i18n="{esc(label)}">'
                       f'{esc(text.get(label, label))}</a>')
    home = esc(text.get("game.new_game", "New game"))
    buttons.append(f'<a class="btn" href="/" data-i18n="game.new_game">{home}</a>')
    content = f'<div class="card error-card" role="alert">{title}<div class="row wrap">{"".join(buttons)}</div></div>'
    return render_shell(request, page="error", title_key=key if key in text else "app.title",
                        data={"error": code}, content=content, status=status)
