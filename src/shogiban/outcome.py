"""How a game ended: :class:`Termination`, :class:`Outcome`, and the entering-king rules."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from shogiban.errors import ShogibanError
from shogiban.pieces import Color


class OutcomeDataError(ShogibanError):
    """A stored outcome that cannot be read."""

    code = "bad_outcome"


class Termination(enum.Enum):
    """Why a game ended."""

    CHECKMATE = "checkmate"
    """詰み: the side to move is in check and has no legal move."""
    NO_LEGAL_MOVES = "no_legal_moves"
    """The side to move is not in check but has no legal move: a loss in shogi, not a draw."""
    REPETITION = "repetition"
    """千日手: the same position (board, both hands, side to move) occurred four times; a draw."""
    PERPETUAL_CHECK = "perpetual_check"
    """連続王手の千日手: a four-fold repetition in which one side gave every check; that side loses."""
    ENTERING_KING = "entering_king"
    """入玉宣言: a declaration under the entering-king rule (win, or a draw under the 24-point rule)."""
    IMPASSE = "impasse"
    """持将棋 by the 24-point count: both >= 24 is a draw, fewer loses."""
    MAX_MOVES = "max_moves"
    """The move limit the caller set was reached; a draw."""
    ILLEGAL_MOVE = "illegal_move"
    """反則: a move (or declaration) that the rules forbid, recorded in tournament mode; a loss."""
    RESIGNATION = "resignation"
    """投了."""
    TIME_FORFEIT = "time_forfeit"
    """切れ負け: loss on time."""
    ABANDONED = "abandoned"
    """中断: the game stopped without a result."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: a termination and the winner (None for a draw or no result)."""

    termination: Termination
    """Why the game ended."""
    winner: Color | None
    """Who won, or None for a draw."""
    detail: str = ""
    """A short explanation in English (the illegal move's reason, the points counted, ...)."""

    def result(self) -> str:
        """``'1-0'`` if sente won, ``'0-1'`` if gote won, ``'1/2-1/2'`` for a draw, ``'*'`` if abandoned."""
        if self.winner is None:
            return "*" if self.termination is Termination.ABANDONED else "1/2-1/2"
        return "1-0" if self.winner == Color.BLACK else "0-1"

    def to_dict(self) -> dict[str, Any]:
        """For storage: ``{"termination": "resignation", "winner": 0, "detail": "..."}``."""
        return {
            "termination": self.termination.value,
            "winner": None if self.winner is None else int(self.winner),
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: object) -> Outcome:
        """Read what :meth:`to_dict` wrote.

        >>> Outcome.from_dict(Outcome(Termination.RESIGNATION, Color.WHITE, "sente resigned").to_dict()).winner
        <Color.WHITE: 1>

        :raises OutcomeDataError: if *data* is not such a dict.
        """
        if not isinstance(data, dict):
            raise OutcomeDataError(f"invalid outcome: {data!r}")
        winner, detail = data.get("winner"), data.get("detail", "")
        if winner not in (None, 0, 1) or isinstance(winner, bool) or not isinstance(detail, str):
            raise OutcomeDataError(f"invalid outcome: {data!r}")
        try:
            termination = Termination(data.get("termination"))
        except ValueError:
            raise OutcomeDataError(f"invalid outcome: {data!r} (unknown termination)") from None
        return cls(termination, None if winner is None else Color(winner), detail)


class EnteringKingRule(enum.Enum):
    """Which entering-king (入玉) rule a game follows; the caller chooses.

    * ``POINTS_27`` -- the 27-point declaration rule (CSA, JSA amateur tournaments): the side to
      move declares with its king in the enemy camp, not in check, with at least 10 other pieces
      in the camp and at least 28 points (sente) or 27 points (gote), counting its hand and its
      pieces in the camp (rook and bishop 5, others 1).
    * ``POINTS_24`` -- the 24-point declaration rule: same conditions, 31 points or more wins,
      24 to 30 is a draw (持将棋).
    * ``*_HANDICAP`` -- as above, lowering the handicap giver's (gote's) threshold by the value of
      the pieces the handicap removed.
    * ``NONE`` -- no declaration.

    The 24-point count of the professional rule (all pieces on the board and in hand, by
    agreement) is available in every mode through :meth:`shogiban.Board.settle_impasse`.
    """

    NONE = "none"
    POINTS_27 = "27"
    POINTS_27_HANDICAP = "27h"
    POINTS_24 = "24"
    POINTS_24_HANDICAP = "24h"
