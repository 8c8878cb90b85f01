"""Telling a record's format from its content (the extension is only a hint: files lie).

>>> detect_format("+7776FU\\n-3334FU\\n")
'csa'
>>> detect_format("▲７六歩    △３四歩")
'ki2'
>>> detect_format("position startpos moves 7g7f")
'usi'
"""

from __future__ import annotations

import re

from shogiban.errors import KifuParseError
from shogiban.kifu.encoding import decode
from shogiban.notation.excerpt import excerpt

#: Formats by file extension.
EXTENSIONS = {
    ".kif": "kif", ".kifu": "kifu", ".ki2": "ki2", ".ki2u": "ki2u", ".csa": "csa", ".jkf": "jkf",
    ".json": "jkf", ".usi": "usi", ".sfen": "sfen", ".usen": "usen", ".bod": "bod", ".svg": "svg",
}
#: Every format name: readable ones and ``svg`` (written only).
FORMATS = ("kif", "kifu", "ki2", "ki2u", "csa", "jkf", "sfen", "usi", "usen", "bod", "svg")
_FAMILY = {"kifu": "kif", "ki2u": "ki2"}

_CSA_LINE = re.compile(r"(V\d|N[+-]|P[I1-9+-]|[+-]\d{4}[A-Z]{2}|\$[A-Z_]+:|%[A-Z+-]{4}|'CSA|T\d)")
_KIF_MOVE = re.compile(
    r"\s*\d+\s*[▲△☗☖]?(?:[１-９1-9][一二三四五六七八九]|同|投了|中断|千日手|詰み|持将棋|切れ負け|反則|入玉)"
)
_SFEN = re.compile(r"(?:sfen\s+)?[1-9lnsgkrbpLNSGKRBP+]+(?:/[1-9lnsgkrbpLNSGKRBP+]+){8}\s+[bw]\s+\S+(\s+\d+)?$")
_USEN = re.compile(r"[0-9A-Za-z_.+\-]*(?:~\d+\.[0-9a-z]*(?:\.[0-9a-z]*)?)+")


def format_of_filename(filename: str | None) -> str | None:
    """The format an extension names (``.kifu`` -> ``kifu``), or None."""
    if not filename:
        return None
    lower = filename.lower()
    for ext, name in EXTENSIONS.items():
        if lower.endswith(ext):
            return name
    return None


def detect_format(data: str | bytes, filename: str | None = None) -> str:
    """The record format of *data*: ``kif``, ``kifu``, ``ki2``, ``ki2u``, ``csa``, ``jkf``,
    ``usi``, ``sfen``, ``usen`` or ``bod``.  The content decides; the *filename* extension only
    breaks ties (and tells ``kifu`` from ``kif``).

    :raises KifuParseError: if neither tells.
    """
    text = decode(data) if isinstance(data, bytes | bytearray) else data
    hinted = format_of_filename(filename)
    found = _from_content(text)
    if found is None:
        if hinted is not None and hinted != "svg":
            return hinted
        head = text.strip()[:60]
        raise KifuParseError(f"cannot tell the record format of {excerpt(head)}")
    if hinted is not None and _FAMILY.get(hinted, hinted) == found:
        return hinted
    return found


def _from_content(text: str) -> str | None:
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return "jkf"
    lines = [line.strip() for line in stripped.splitlines()[:400] if line.strip()]
    if not lines:
        return None
    first = lines[0]
    if first.startswith(("position ", "position\t", "startpos")) or first == "startpos":
        return "usi"
    if _USEN.fullmatch(first) or first.startswith("usen:"):
        return "usen"
    csa = kif = ki2 = bod = sfen = headers = 0
    for line in lines:
        c = line[0]
        if c in "▲△☗☖":
            ki2 += 1
        elif c in "|｜" or "の持駒" in line:
            bod += 1
        elif _KIF_MOVE.match(line):
            kif += 1
        elif _CSA_LINE.match(line) or c == "'":
            csa += 1
        elif _SFEN.match(line):
            sfen += 1
        elif line.startswith(("position ", "startpos", "sfen ")) and " moves" in line:
            return "usi"
        elif "：" in line or line.startswith(("手数", "まで", "変化")):
            headers += 1
    if kif:
        return "kif"
    if ki2:
        return "ki2"
    if csa >= 2 and csa > headers:
        return "csa"
    if bod:
        return "bod"
    if sfen:
        return "sfen"
    if csa:
        return "csa"
    if headers:
        return "kif"
    return None
