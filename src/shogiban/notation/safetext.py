"""Text that goes into a record: header keys and values, comments, bookmarks and result words
made safe for the line structure of every format (issue 21, finding 6).

A record format is a sequence of lines, and readers split lines at more than ``\\n``: Python's
``str.splitlines`` (and so every reader here) also splits at ``\\r``, vertical tab, form feed,
``\\x1c``-``\\x1e``, NEL (``\\x85``), LINE SEPARATOR and PARAGRAPH SEPARATOR; other programs
split at ``\\r`` alone.  A player name ``"x\\r▲５八玉"`` written verbatim became a move when read
back.  Every writer therefore passes such text through this module:

* :func:`text_lines` splits text at every line break (``\\r\\n`` counting once) and cleans each
  line: a tab becomes a space, every other control character (C0, DEL, C1) is dropped.
* :func:`one_line` joins those lines with spaces (a header value in a one-line field).
* :func:`clean_text` joins them with ``\\n`` (the one line break the in-memory model uses).

What a line *starts* with is each format's business (a KIF comment line starts with ``*``, a
CSA one with ``'*``, a KIF header key may not look like a move); see the writers.

>>> text_lines("x\\r▲５八玉\\r\\n\\x1b[31mred\\x00")
['x', '▲５八玉', '[31mred']
>>> one_line("a\\u2028b\\tc")
'a b c'
>>> clean_text("a\\rb")
'a\\nb'
"""

from __future__ import annotations

import re

__all__ = ["LINE_BREAKS", "clean_text", "is_clean_line", "one_line", "text_lines"]

#: Every character ``str.splitlines`` splits at (``\\r\\n`` is one break).
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK = re.compile("\r\n|[" + LINE_BREAKS + "]")
# Control characters that are not line breaks: C0 (the tab apart), DEL and C1.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")
# Anything that needs work: a line break, a control character or a tab.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _clean(line: str) -> str:
    return _CONTROL.sub("", line.replace("\t", " "))


def is_clean_line(text: str) -> bool:
    """Whether *text* has no line break, control character or tab (nothing to clean)."""
    return _UNSAFE.search(text) is None


def text_lines(text: str) -> list[str]:
    """The lines of *text*, split at every line break, each without control characters (a tab
    becomes a space)."""
    if _UNSAFE.search(text) is None:
        return text.split("\n")  # no break at all: one line (split keeps the type exact)
    return [_clean(line) for line in _BREAK.split(text)]


def one_line(text: str) -> str:
    """*text* as one line: line breaks become spaces, other control characters are dropped."""
    if _UNSAFE.search(text) is None:
        return text
    return " ".join(text_lines(text))


def clean_text(text: str) -> str:
    """*text* with every line break as ``\\n`` and no other control character."""
    if _UNSAFE.search(text) is None:
        return text
    return "\n".join(text_lines(text))
