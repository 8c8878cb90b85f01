"""Decoding record files: BOM first, then UTF-8, then CP932 (Shift_JIS as Windows writes it).

Headers that name an encoding (``#KIF ... encoding=UTF-8``, ``'CSA encoding=...``) are not
trusted: real files lie (Kifu for Windows writes ``encoding=UTF-8`` into Shift_JIS files).  A
``.kifu``/``.ki2u``/``.jkf`` file is UTF-8 by definition, but if its bytes are not UTF-8 the
CP932 fallback still reads it.

>>> decode("７六歩".encode("cp932"))
'７六歩'
>>> decode(b"\\xef\\xbb\\xbf\\xe6\\xad\\xa9")
'歩'
"""

from __future__ import annotations

import codecs
from pathlib import Path

from shogiban.errors import KifuParseError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def detect_encoding(data: bytes) -> str:
    """``'utf-8'``, ``'utf-16-le'``, ``'utf-16-be'`` or ``'cp932'``: what :func:`decode` uses."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "cp932"
    return "utf-8"


def decode(data: bytes) -> str:
    """Text of a record file's bytes (BOM stripped).

    Bytes that are neither UTF-8 nor CP932 are replaced by U+FFFD rather than refused, so a
    damaged file is still read up to its damage (the reader then reports the bad lines).
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    return data.decode("cp932", errors="replace")


def read_text(source: str | bytes | Path) -> tuple[str, str | None]:
    """The text of *source* and its file name (if it was a path).

    *source* is a :class:`~pathlib.Path`, bytes (decoded with :func:`decode`), or a string: a
    string holding a line break, or that names no existing file, is the record itself.

    :raises KifuParseError: if a path cannot be read.
    """
    if isinstance(source, bytes | bytearray):
        return decode(bytes(source)), None
    if isinstance(source, Path) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise KifuParseError(f"cannot read {str(path)!r}: {error.strerror or error}") from error
        return decode(data), path.name
    if not isinstance(source, str):
        raise KifuParseError(f"cannot read a record from {type(source).__name__}: {source!r}")
    if _names_a_file(source):
        raise KifuParseError(f"cannot read {source!r}: no such file")
    return source.lstrip("\ufeff"), None


_RECORD_SUFFIXES = (".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf", ".json", ".usi", ".sfen", ".usen", ".bod")


def _names_a_file(text: str) -> bool:
    """A one-line string ending in a record extension is a file name, not a record."""
    return "\n" not in text and len(text) < 4096 and text.strip().lower().endswith(_RECORD_SUFFIXES)


def _looks_like_path(text: str) -> bool:
    if not text or len(text) > 4096 or "\n" in text or "\r" in text:
        return False
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def encode(text: str, encoding: str) -> bytes:
    """*text* as bytes in *encoding*; characters CP932 lacks become their nearest relative
    (☗ ☖ become ▲ △) or ``?``, so a Shift_JIS file never fails to save."""
    if encoding.replace("_", "").replace("-", "").lower() in ("cp932", "shiftjis", "sjis", "mskanji", "windows31j"):
        text = text.translate(_CP932_SUBSTITUTES)
        return text.encode("cp932", errors="replace")
    return text.encode(encoding)


_CP932_SUBSTITUTES = str.maketrans({"☗": "▲", "☖": "△", "\u00a0": " ", "\u2014": "―", "\u301c": "～"})
