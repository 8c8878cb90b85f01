"""One entry point for every format: :func:`read_game`, :func:`read_games`, :func:`write_game`,
:func:`save_game`.

>>> game = read_game("+7776FU\\n-3334FU\\n%TORYO\\n")
>>> write_game(game, "usi")
'position startpos moves 7g7f 3c3d resign\\n'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shogiban.errors import KifuParseError
from shogiban.kifu import csa, diagram, jkf, ki2, kif, usen, usi
from shogiban.kifu.detect import FORMATS, detect_format, format_of_filename
from shogiban.kifu.encoding import encode, read_text
from shogiban.kifu.game import Game
from shogiban.kifu.losses import Loss, add_loss
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits
from shogiban.notation.excerpt import excerpt

Source = str | bytes | Path

_READERS: dict[str, Any] = {
    "kif": kif.read_kif,
    "kifu": kif.read_kif,
    "ki2": ki2.read_ki2,
    "ki2u": ki2.read_ki2,
    "csa": csa.read_csa,
    "jkf": jkf.read_jkf,
    "usi": usi.read_usi,
    "sfen": usi.read_sfen,
    "usen": usen.read_usen,
    "bod": diagram.read_bod,
}
_MULTI_READERS: dict[str, Any] = {
    "csa": csa.read_csa_games,
    "usi": usi.read_usi_games,
    "sfen": usi.read_sfen_games,
}


def _check_format(fmt: str) -> str:
    name = fmt.lower().lstrip(".")
    if name not in FORMATS:
        raise KifuParseError(f"unknown record format: {excerpt(fmt)} (known: {', '.join(FORMATS)})")
    return name


def read_game(
    source: Source,
    *,
    format: str | None = None,
    strict: bool = False,
    limits: ReadLimits = DEFAULT_LIMITS,
    **options: Any,
) -> Game:
    """Read one game in any format (detected from the content when *format* is not given).

    *source* is the record's text (a string is always the record itself, never a file name),
    its bytes (decoded: BOM, UTF-8, else CP932), or a :class:`~pathlib.Path` to read (see also
    :func:`read_game_file`).  *options* go to the reader (``validate=False`` for JKF).

    :raises KifuParseError: if the format cannot be told, the file cannot be read, or (when
        *strict*) at the first problem; otherwise problems are in ``game.errors``.
    :raises KifuLimitError: if the record exceeds *limits* (strict or not).
    """
    text, filename = read_text(source, limits)
    fmt = _check_format(format) if format else detect_format(text, filename)
    if fmt == "svg":
        raise KifuParseError("svg is written, not read")
    game: Game = _READERS[fmt](text, strict=strict, limits=limits, **options)
    return game


def read_game_file(
    path: str | Path, *, format: str | None = None, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS
) -> Game:
    """Read one game from the file *path* (a string is a file name here); the extension breaks
    ties between formats.  As :func:`read_game`."""
    return read_game(Path(path), format=format, strict=strict, limits=limits)


def read_games(
    source: Source, *, format: str | None = None, strict: bool = False, limits: ReadLimits = DEFAULT_LIMITS
) -> list[Game]:
    """Read every game of a record: CSA files separated by ``/``, one USI line per game, SFEN
    lists; other formats hold one game.  *source* as for :func:`read_game`.

    :raises KifuParseError: as :func:`read_game`.
    """
    text, filename = read_text(source, limits)
    fmt = _check_format(format) if format else detect_format(text, filename)
    if fmt in _MULTI_READERS:
        games: list[Game] = _MULTI_READERS[fmt](text, strict=strict, limits=limits)
        return games
    return [read_game(text, format=fmt, strict=strict, limits=limits)]


def write_game(game: Game, format: str, **options: Any) -> str | bytes:
    """*game* in *format*.

    File formats with a defined encoding come back as bytes: ``kif`` and ``ki2`` in CP932
    (Shift_JIS, what Kifu for Windows and ShogiGUI expect), ``kifu`` and ``ki2u`` in UTF-8, ``csa``
    in CP932 for V2.2 (the default) or UTF-8 for ``version="3.0"``.  ``jkf``, ``usi``, ``sfen``,
    ``usen``, ``bod`` and ``svg`` come back as text.  *options* go to the writer
    (``version`` for CSA, ``ply`` for BOD and SVG, ``result`` for USI).

    ``losses=[]`` (a list) gets a :class:`~shogiban.kifu.losses.Loss` for each kind of thing the
    format cannot hold (variations, comments, times, a result it has no word for, characters the
    encoding lacks ...), instead of dropping it silently.
    """
    losses: list[Loss] | None = options.pop("losses", None)
    fmt = _check_format(format)
    if fmt in ("kif", "kifu"):
        named = "Shift_JIS" if fmt == "kif" else "UTF-8"
        text = kif.write_kif(game, encoding=named, losses=losses, **options)
        return _encoded(text, "cp932" if fmt == "kif" else "utf-8", fmt, losses)
    if fmt in ("ki2", "ki2u"):
        text = ki2.write_ki2(game, losses=losses, **options)
        return _encoded(text, "cp932" if fmt == "ki2" else "utf-8", fmt, losses)
    if fmt == "csa":
        version = options.pop("version", "2.2")
        text = csa.write_csa(game, version=version, losses=losses, **options)
        return _encoded(text, csa.csa_encoding(version), fmt, losses)
    if fmt == "jkf":
        return jkf.write_jkf(game, losses=losses, **options)
    if fmt == "usi":
        return usi.write_usi(game, result=options.pop("result", True), losses=losses, **options) + "\n"
    if fmt == "sfen":
        return usi.write_sfen(game, losses=losses)
    if fmt == "usen":
        return usen.write_usen(game, losses=losses) + "\n"
    if fmt == "bod":
        return diagram.write_bod(game, losses=losses, **options)
    return _svg(game, losses=losses, **options)


def _encoded(text: str, encoding: str, fmt: str, losses: list[Loss] | None) -> bytes:
    """*text* in *encoding*, reporting the characters the encoding lacks (written as ``?``)."""
    data = encode(text, encoding)
    if losses is not None and encoding == "cp932":
        lost = data.count(b"?") - text.count("?")
        add_loss(losses, "characters", lost, f"{fmt} is Shift_JIS (CP932), which lacks them; written as '?'")
    return data


def _svg(game: Game, *, ply: int | None = None, losses: list[Loss] | None = None, **options: Any) -> str:
    try:
        from shogiban.svg import board_svg  # type: ignore[import-not-found,unused-ignore]
    except ImportError as error:
        raise KifuParseError("svg output needs shogiban.svg, which is not available") from error
    try:
        node = diagram.mainline_node(game, ply)
    except ValueError as error:
        raise KifuParseError(str(error)) from None
    board = node.board()
    svg: str = board_svg(board, last_move=node.move, **options)
    diagram.position_losses(game, "svg", losses)
    return svg


def save_game(game: Game, path: str | Path, *, format: str | None = None, **options: Any) -> Path:
    """Write *game* to *path* in *format* (default: from the extension) and return the path.

    :raises KifuParseError: if the format is unknown.
    """
    path = Path(path)
    fmt = format or format_of_filename(path.name)
    if fmt is None:
        raise KifuParseError(f"cannot tell the format of {excerpt(str(path))} from its extension")
    data = write_game(game, fmt, **options)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", newline="\n")
    else:
        path.write_bytes(data)
    return path


__all__ = ["read_game", "read_game_file", "read_games", "save_game", "write_game"]
