"""The one way reader errors quote their input: a short, escaped excerpt.

Input can be huge or hostile (a 2 MB line, control characters, right-to-left overrides), so no
error message of :mod:`shogiban.notation` or :mod:`shogiban.kifu` quotes more than
:data:`EXCERPT_LENGTH` characters of it, and never unescaped.

>>> excerpt("７六歩")
"'７六歩'"
>>> excerpt("x" * 50)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…"
>>> excerpt("a\\nb\\u202e")
"'a\\\\nb\\\\u202e'"
"""

from __future__ import annotations

from typing import Final

__all__ = ["EXCERPT_LENGTH", "excerpt"]

#: The most characters (or bytes) of the input an error message quotes.
EXCERPT_LENGTH: Final = 40


def excerpt(text: object, limit: int = EXCERPT_LENGTH) -> str:
    """*text* quoted with ``repr`` (so control and invisible characters are escaped), cut to
    *limit* characters, and to fewer when their escapes would take more than twice that room,
    with ``…`` after the closing quote when it was cut.  Bytes are quoted the same way; any
    other object only by its type name, so nothing large is ever shown."""
    if not isinstance(text, str | bytes | bytearray):
        return f"<{type(text).__name__}>"
    data = bytes(text) if isinstance(text, bytearray) else text
    cut = data[:limit]
    shown = repr(cut)
    while len(shown) > 2 * limit + 3 and len(cut) > 1:
        cut = cut[:len(cut) // 2]
        shown = repr(cut)
    return shown + "…" if len(cut) < len(data) else shown
