"""Exceptions raised by shogiban.

Everything a caller may catch for bad input is a :class:`ValueError`; engine trouble is an
:class:`EngineError`.  Messages are lowercase, quote the input with ``!r`` and say why.  A stable
``code`` lets user interfaces translate the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shogiban.move import Move


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why something was refused: a stable ``code`` (``"nifu"``, ``"not_your_turn"``, ...), the
    ``params`` that fill its sentence (``{"file": 7}``), and that sentence in English.  The text
    catalogue (:mod:`shogiban.i18n`) holds the same codes in every language, so a front end
    translates a refusal without re-running the rules.

    >>> Refusal("nifu", {"file": 7}, "two pawns on file 7 (二歩)").code
    'nifu'
    """

    code: str
    """Stable identifier, a key of the catalogue's ``rules.`` domain."""
    params: Mapping[str, str | int] = field(default_factory=dict)
    """What the sentence names (a file, a square, a piece ...)."""
    message: str = ""
    """The English sentence."""

    def __str__(self) -> str:
        return self.message or self.code


class ShogibanError(ValueError):
    """Base class for bad input to shogiban."""

    code = "invalid"


class InvalidSquareError(ShogibanError):
    """A square name is not one of ``9a`` .. ``1i``."""

    code = "invalid_square"


class InvalidMoveError(ShogibanError):
    """Move text is not syntactically valid (e.g. ``'7g7'``, ``'Z*5e'``)."""

    code = "invalid_move"


class IllegalMoveError(ShogibanError):
    """A well-formed move that the rules forbid here (nifu, uchifuzume, self-check, ...).

    ``refusal`` says why as a :class:`Refusal`; ``code`` and ``params`` are its code and
    parameters, ``move`` the refused move when there is one.  ``IllegalMoveError(message, code)``
    still works (the refusal then has no parameters).

    >>> from shogiban.move import Move
    >>> nifu = Refusal("nifu", {"file": 5}, "two pawns on file 5")
    >>> error = IllegalMoveError.from_refusal(nifu, Move.from_usi("P*5e"))
    >>> error.code, dict(error.params), str(error)
    ('nifu', {'file': 5}, "illegal move: 'P*5e' (two pawns on file 5)")
    """

    code = "illegal_move"

    def __init__(
        self, message: str, code: str = "illegal_move", *, refusal: Refusal | None = None, move: Move | None = None
    ) -> None:
        super().__init__(message)
        self.refusal = refusal if refusal is not None else Refusal(code, {}, message)
        self.code = self.refusal.code
        self.move = move

    @property
    def params(self) -> Mapping[str, str | int]:
        """The refusal's parameters (``{"file": 7}``)."""
        return self.refusal.params

    @classmethod
    def from_refusal(cls, refusal: Refusal, move: Move | None = None, *, where: str = "") -> IllegalMoveError:
        """The error for *refusal* of *move*; *where* (an SFEN) is quoted in the message."""
        shown = f"{move.usi()!r}" if move is not None else "move"
        place = f" in {where}" if where else ""
        return cls(f"illegal move: {shown}{place} ({refusal.message or refusal.code})", refusal=refusal, move=move)


class AmbiguousMoveError(ShogibanError):
    """Japanese or western notation that matches several legal moves, given as ``candidates``."""

    code = "ambiguous_move"

    def __init__(self, message: str, candidates: tuple[Move, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class InvalidSfenError(ShogibanError):
    """An SFEN that cannot be parsed, or that describes an impossible position."""

    code = "invalid_sfen"


class KifuParseError(ShogibanError):
    """A game record line that cannot be read; carries ``lineno`` and ``line``."""

    code = "kifu_parse"

    def __init__(self, message: str, lineno: int | None = None, line: str | None = None) -> None:
        super().__init__(message)
        self.lineno = lineno
        self.line = line


class EngineError(RuntimeError):
    """An engine (a USI engine or the built-in one) misbehaved (crash, hang, garbage, illegal move)
    or was used incorrectly."""

    code = "engine_error"


class EngineTerminatedError(EngineError):
    """An engine process exited unexpectedly, or the engine was used after it quit."""

    code = "engine_terminated"


class EngineTimeoutError(EngineError):
    """An engine did not answer in time (it was stopped, then killed)."""

    code = "engine_timeout"


class EngineMoveError(EngineError):
    """An engine's move is unreadable or illegal in the position; ``text`` is what it sent,
    ``move`` the parsed move if it had the shape of one (for recording the foul)."""

    code = "engine_move"

    def __init__(self, message: str, text: str, move: Move | None = None) -> None:
        super().__init__(message)
        self.text = text
        self.move = move
