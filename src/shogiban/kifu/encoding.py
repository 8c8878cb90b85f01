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
import os
import stat
from pathlib import Path

from shogiban.errors import KifuParseError
from shogiban.kifu.read_limits import DEFAULT_LIMITS, KifuLimitError, ReadLimits, too_large
from shogiban.notation.excerpt import excerpt

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


def read_text(source: str | bytes | Path, limits: ReadLimits = DEFAULT_LIMITS) -> tuple[str, str | None]:
    """The text of *source* and its file name (when it is a file).

    Text is text and bytes are bytes: a string is always the record itself (never a file name,
    whatever it looks like), bytes are decoded with :func:`decode`, and only a
    :class:`~pathlib.Path` is opened.

    :raises KifuLimitError: if *source* is longer than ``limits.max_input``.
    :raises KifuParseError: if a path cannot be read, or *source* is of another type.
    """
    if isinstance(source, str):
        _check_size(len(source), limits)
        return source.lstrip("\ufeff"), None
    if isinstance(source, bytes | bytearray | memoryview):
        _check_size(len(source), limits)
        return decode(bytes(source)), None
    if isinstance(source, Path):
        return read_file(source, limits)
    raise KifuParseError(f"cannot read a record from a {type(source).__name__}: give text, bytes or a pathlib.Path")


def read_file(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> tuple[str, str]:
    """The decoded text of the file *path* and its name (see :func:`read_input_file`).

    :raises KifuLimitError: if the file is larger than ``limits.max_input`` bytes.
    :raises KifuParseError: if the file cannot be read, or is not a regular file.
    """
    return decode(read_input_file(path, limits.max_input)), path.name


def read_input_file(path: str | Path, max_bytes: int = DEFAULT_LIMITS.max_input) -> bytes:
    """The bytes of the input file *path*, of at most *max_bytes*: the one way the command
    line reads a file it was given.

    The size and the kind of file are checked before anything is read (a FIFO, a device such as
    ``/dev/zero`` or a folder is refused, and so is a file larger than *max_bytes*, sparse or
    not); the file is opened without blocking, checked again once open (it may have been swapped
    meanwhile), and no more than *max_bytes* + 1 bytes are ever read.

    :raises KifuLimitError: (``limit == "max_input"``) if the file is larger than *max_bytes*.
    :raises KifuParseError: if it cannot be read or is not a regular file.
    """
    name = excerpt(Path(path).name or str(path))
    try:
        _check_input(os.stat(path), name, max_bytes)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as handle:
            _check_input(os.fstat(handle.fileno()), name, max_bytes)
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise KifuParseError(f"cannot read {name}: {error.strerror or type(error).__name__}") from None
    if len(data) > max_bytes:
        raise _too_big(name, max_bytes)
    return data


def _check_input(info: os.stat_result, name: str, max_bytes: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise KifuParseError(f"cannot read {name}: it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise KifuParseError(f"cannot read {name}: not a regular file (a pipe, a device or a socket)")
    if info.st_size > max_bytes:
        raise _too_big(name, max_bytes)


def _too_big(name: str, max_bytes: int) -> KifuLimitError:
    return KifuLimitError(f"cannot read {name}: larger than {max_bytes} bytes (max_input)", "max_input")


def _check_size(size: int, limits: ReadLimits) -> None:
    if size > limits.max_input:
        raise too_large("characters (or bytes)", "max_input", limits.max_input)


def encode(text: str, encoding: str) -> bytes:
    """*text* as bytes in *encoding*; characters CP932 lacks become their nearest relative
    (☗ ☖ become ▲ △) or ``?``, so a Shift_JIS file never fails to save."""
    if encoding.replace("_", "").replace("-", "").lower() in ("cp932", "shiftjis", "sjis", "mskanji", "windows31j"):
        text = text.translate(_CP932_SUBSTITUTES)
        return text.encode("cp932", errors="replace")
    return text.encode(encoding)


_CP932_SUBSTITUTES = str.maketrans({"☗": "▲", "☖": "△", "\u00a0": " ", "\u2014": "―", "\u301c": "～"})
