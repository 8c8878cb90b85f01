"""How a record ends: the special final move (投了, %TORYO, ...) and who won.

Records name the end of a game relative to the side to move at that point: ``投了`` and
``%TORYO`` mean the side to move resigned, ``反則勝ち`` means the *previous* move was a foul so the
side to move wins, ``%+ILLEGAL_ACTION`` names the offender outright.  :func:`make_result` turns a
word or token into a :class:`Result` with the winner worked out from the side to move, so a
handicap game (where gote moves first) gets the right winner.

>>> from shogiban import Color
>>> make_result("投了", Color.WHITE).winner
<Color.BLACK: 0>
>>> make_result("%+ILLEGAL_ACTION", Color.BLACK).winner
<Color.WHITE: 1>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from shogiban.move import Move
from shogiban.notation.safetext import one_line
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import Color


class ResultKind(enum.Enum):
    """The kinds of special final move that game records know."""

    RESIGN = "resign"
    """投了 / %TORYO: the side to move resigned."""
    ABORT = "abort"
    """中断 / %CHUDAN: the game stopped without a result."""
    REPETITION = "repetition"
    """千日手 / %SENNICHITE: four-fold repetition, a draw."""
    PERPETUAL_CHECK = "perpetual_check"
    """%OUTE_SENNICHITE: a repetition where one side checked every move; the checker loses."""
    CHECKMATE = "checkmate"
    """詰み / %TSUMI: the side to move is mated (or has no legal move)."""
    IMPASSE = "impasse"
    """持将棋 / %JISHOGI: impasse, a draw."""
    TIME_UP = "time_up"
    """切れ負け / %TIME_UP: the side to move lost on time."""
    ILLEGAL = "illegal"
    """反則勝ち, 反則負け, %ILLEGAL_MOVE, %+ILLEGAL_ACTION, %-ILLEGAL_ACTION: a foul; see the winner."""
    DECLARE_WIN = "declare_win"
    """入玉勝ち / %KACHI: the side to move declared an entering-king win."""
    DECLARE_DRAW = "declare_draw"
    """%HIKIWAKE: the side to move declared a draw."""
    MAX_MOVES = "max_moves"
    """%MAX_MOVES: the move limit was reached, a draw."""
    WIN_BY_DEFAULT = "win_by_default"
    """不戦勝: the side to move wins without play."""
    LOSS_BY_DEFAULT = "loss_by_default"
    """不戦敗: the side to move loses without play."""
    NO_MATE = "no_mate"
    """不詰 / %FUZUMI: a tsume problem without mate."""
    ERROR = "error"
    """%ERROR: the game stopped on an error."""
    OTHER = "other"
    """Any other word (封じ手, %MATTA, ...), kept verbatim in :attr:`Result.word`."""


@dataclass(frozen=True, slots=True)
class Result:
    """A special final move of a record."""

    kind: ResultKind
    """What happened."""
    winner: Color | None
    """Who won, or None for a draw or no result."""
    word: str = ""
    """The word or token as the record wrote it (``投了``, ``%TORYO``, ``TORYO``); empty when made
    by the program.  Writers of the same family reuse it, so ``%-ILLEGAL_ACTION`` survives."""
    illegal_move: Move | None = None
    """For a foul recorded as a move (二歩, 打ち歩詰め, ...), that move."""
    detail: str = ""
    """Why, in English (the illegal move's reason, ...)."""

    def outcome(self) -> Outcome | None:
        """The matching :class:`shogiban.Outcome`, or None for results that end nothing
        (不詰, unknown words)."""
        termination = _TERMINATIONS.get(self.kind)
        if termination is None:
            return None
        return Outcome(termination, self.winner, self.detail or _DETAILS.get(self.kind, self.word))


_TERMINATIONS = {
    ResultKind.RESIGN: Termination.RESIGNATION,
    ResultKind.ABORT: Termination.ABANDONED,
    ResultKind.REPETITION: Termination.REPETITION,
    ResultKind.PERPETUAL_CHECK: Termination.PERPETUAL_CHECK,
    ResultKind.CHECKMATE: Termination.CHECKMATE,
    ResultKind.IMPASSE: Termination.IMPASSE,
    ResultKind.TIME_UP: Termination.TIME_FORFEIT,
    ResultKind.ILLEGAL: Termination.ILLEGAL_MOVE,
    ResultKind.DECLARE_WIN: Termination.ENTERING_KING,
    ResultKind.DECLARE_DRAW: Termination.ENTERING_KING,
    ResultKind.MAX_MOVES: Termination.MAX_MOVES,
    ResultKind.WIN_BY_DEFAULT: Termination.ABANDONED,
    ResultKind.LOSS_BY_DEFAULT: Termination.ABANDONED,
    ResultKind.ERROR: Termination.ABANDONED,
}

_DETAILS = {
    ResultKind.RESIGN: "resignation (投了)",
    ResultKind.ABORT: "aborted (中断)",
    ResultKind.REPETITION: "four-fold repetition (千日手)",
    ResultKind.PERPETUAL_CHECK: "perpetual check (連続王手の千日手)",
    ResultKind.CHECKMATE: "checkmate (詰み)",
    ResultKind.IMPASSE: "impasse (持将棋)",
    ResultKind.TIME_UP: "loss on time (切れ負け)",
    ResultKind.ILLEGAL: "foul (反則)",
    ResultKind.DECLARE_WIN: "entering-king declaration (入玉勝ち)",
    ResultKind.DECLARE_DRAW: "declared draw (引き分け)",
    ResultKind.MAX_MOVES: "move limit reached",
    ResultKind.WIN_BY_DEFAULT: "win by default (不戦勝)",
    ResultKind.LOSS_BY_DEFAULT: "loss by default (不戦敗)",
    ResultKind.ERROR: "error",
}

_KIF_WORDS = {
    ResultKind.RESIGN: "投了",
    ResultKind.ABORT: "中断",
    ResultKind.REPETITION: "千日手",
    ResultKind.CHECKMATE: "詰み",
    ResultKind.IMPASSE: "持将棋",
    ResultKind.TIME_UP: "切れ負け",
    ResultKind.DECLARE_WIN: "入玉勝ち",
    ResultKind.DECLARE_DRAW: "持将棋",
    ResultKind.MAX_MOVES: "持将棋",
    ResultKind.WIN_BY_DEFAULT: "不戦勝",
    ResultKind.LOSS_BY_DEFAULT: "不戦敗",
    ResultKind.NO_MATE: "不詰",
    ResultKind.ERROR: "中断",
}

# (kind, who wins): "mover" = the side to move, "other" = its opponent, None = nobody,
# BLACK/WHITE = that colour.
_MOVER = "mover"
_OTHER = "other"

KIF_WORDS: dict[str, tuple[ResultKind, object]] = {
    "投了": (ResultKind.RESIGN, _OTHER),
    "中断": (ResultKind.ABORT, None),
    "千日手": (ResultKind.REPETITION, None),
    "詰み": (ResultKind.CHECKMATE, _OTHER),
    "詰": (ResultKind.CHECKMATE, _OTHER),
    "持将棋": (ResultKind.IMPASSE, None),
    "切れ負け": (ResultKind.TIME_UP, _OTHER),
    "時間切れ": (ResultKind.TIME_UP, _OTHER),
    "Time-up": (ResultKind.TIME_UP, _OTHER),
    "反則勝ち": (ResultKind.ILLEGAL, _MOVER),
    "反則負け": (ResultKind.ILLEGAL, _OTHER),
    "入玉勝ち": (ResultKind.DECLARE_WIN, _MOVER),
    "不戦勝": (ResultKind.WIN_BY_DEFAULT, _MOVER),
    "不戦敗": (ResultKind.LOSS_BY_DEFAULT, _OTHER),
    "不詰": (ResultKind.NO_MATE, None),
}

CSA_TOKENS: dict[str, tuple[ResultKind, object]] = {
    "TORYO": (ResultKind.RESIGN, _OTHER),
    "CHUDAN": (ResultKind.ABORT, None),
    "SENNICHITE": (ResultKind.REPETITION, None),
    "OUTE_SENNICHITE": (ResultKind.PERPETUAL_CHECK, None),
    "JISHOGI": (ResultKind.IMPASSE, None),
    "KACHI": (ResultKind.DECLARE_WIN, _MOVER),
    "HIKIWAKE": (ResultKind.DECLARE_DRAW, None),
    "TSUMI": (ResultKind.CHECKMATE, _OTHER),
    "FUZUMI": (ResultKind.NO_MATE, None),
    "TIME_UP": (ResultKind.TIME_UP, _OTHER),
    "ILLEGAL_MOVE": (ResultKind.ILLEGAL, _OTHER),
    "+ILLEGAL_ACTION": (ResultKind.ILLEGAL, Color.WHITE),
    "-ILLEGAL_ACTION": (ResultKind.ILLEGAL, Color.BLACK),
    "MAX_MOVES": (ResultKind.MAX_MOVES, None),
    "ERROR": (ResultKind.ERROR, None),
    "MATTA": (ResultKind.OTHER, None),
}


def _winner(who: object, turn: Color) -> Color | None:
    if who == _MOVER:
        return turn
    if who == _OTHER:
        return turn.other
    return who if isinstance(who, Color) else None


def is_result_word(word: str) -> bool:
    """Whether *word* is a KIF special-move word or a CSA/JKF special token."""
    return word in KIF_WORDS or word.lstrip("%") in CSA_TOKENS


def make_result(word: str, turn: Color | int) -> Result:
    """The :class:`Result` that *word* (KIF word, ``%CSA`` token or JKF special) means when
    *turn* is the side to move.  Unknown words give :attr:`ResultKind.OTHER`."""
    turn = Color(turn)
    entry = KIF_WORDS.get(word)
    if entry is None:
        entry = CSA_TOKENS.get(word[1:] if word.startswith("%") else word)
    if entry is None:
        return Result(ResultKind.OTHER, None, word)
    kind, who = entry
    return Result(kind, _winner(who, turn), word)


def with_board_evidence(result: Result, repetition: Outcome | None) -> Result:
    """Correct *result* with the repetition verdict of the final position: a perpetual check
    gives its loser, whatever word the record used for it."""
    if repetition is None:
        return result
    if repetition.termination is Termination.PERPETUAL_CHECK and result.kind in (
        ResultKind.PERPETUAL_CHECK,
        ResultKind.ILLEGAL,
        ResultKind.REPETITION,
    ):
        return replace(result, kind=ResultKind.PERPETUAL_CHECK, winner=repetition.winner, detail=repetition.detail)
    return result


def kif_word(result: Result, turn: Color | int) -> str:
    """The KIF word for *result* when *turn* is to move (``反則勝ち`` or ``反則負け`` by winner)."""
    if result.word in KIF_WORDS and make_result(result.word, turn).winner == result.winner:
        return result.word
    if result.kind in (ResultKind.ILLEGAL, ResultKind.PERPETUAL_CHECK):
        if result.winner is None:
            return "千日手" if result.kind is ResultKind.PERPETUAL_CHECK else "中断"
        return "反則勝ち" if result.winner == turn else "反則負け"
    if result.kind is ResultKind.OTHER:
        return one_line(result.word).strip().lstrip("%") or "中断"
    return _KIF_WORDS[result.kind]


def csa_token(result: Result, turn: Color | int, *, version: str = "2.2") -> str:
    """The CSA special token (without ``%``) for *result* when *turn* is to move."""
    token = result.word.lstrip("%")
    same = token in CSA_TOKENS and token != "MATTA" and make_result(token, turn).winner == result.winner
    if same and (token != "MAX_MOVES" or version.startswith("3")):
        return token
    kind = result.kind
    if kind in (ResultKind.ILLEGAL, ResultKind.PERPETUAL_CHECK) and result.winner is not None:
        if result.winner == Color(turn).other:
            return "ILLEGAL_MOVE"
        return "+ILLEGAL_ACTION" if result.winner == Color.WHITE else "-ILLEGAL_ACTION"
    simple = {
        ResultKind.RESIGN: "TORYO",
        ResultKind.ABORT: "CHUDAN",
        ResultKind.REPETITION: "SENNICHITE",
        ResultKind.PERPETUAL_CHECK: "SENNICHITE",
        ResultKind.CHECKMATE: "TSUMI",
        ResultKind.IMPASSE: "JISHOGI",
        ResultKind.TIME_UP: "TIME_UP",
        ResultKind.DECLARE_WIN: "KACHI",
        ResultKind.DECLARE_DRAW: "HIKIWAKE",
        ResultKind.MAX_MOVES: "MAX_MOVES" if version.startswith("3") else "JISHOGI",
        ResultKind.WIN_BY_DEFAULT: "+ILLEGAL_ACTION" if result.winner == Color.WHITE else "-ILLEGAL_ACTION",
        ResultKind.LOSS_BY_DEFAULT: "TORYO",
        ResultKind.NO_MATE: "FUZUMI",
        ResultKind.ERROR: "ERROR",
        ResultKind.ILLEGAL: "CHUDAN",
        ResultKind.OTHER: "CHUDAN",
    }
    return simple[kind]


def result_from_outcome(outcome: Outcome, turn: Color | int, illegal_move: Move | None = None) -> Result:
    """The record result for a :class:`shogiban.Outcome` of a board whose side to move is *turn*."""
    turn = Color(turn)
    t = outcome.termination
    kinds = {
        Termination.CHECKMATE: ResultKind.CHECKMATE,
        Termination.NO_LEGAL_MOVES: ResultKind.CHECKMATE,
        Termination.REPETITION: ResultKind.REPETITION,
        Termination.PERPETUAL_CHECK: ResultKind.PERPETUAL_CHECK,
        Termination.IMPASSE: ResultKind.IMPASSE,
        Termination.MAX_MOVES: ResultKind.MAX_MOVES,
        Termination.ILLEGAL_MOVE: ResultKind.ILLEGAL,
        Termination.RESIGNATION: ResultKind.RESIGN,
        Termination.TIME_FORFEIT: ResultKind.TIME_UP,
        Termination.ABANDONED: ResultKind.ABORT,
    }
    if t is Termination.ENTERING_KING:
        kind = ResultKind.DECLARE_WIN if outcome.winner is not None else ResultKind.DECLARE_DRAW
    else:
        kind = kinds[t]
    return Result(kind, outcome.winner, "", illegal_move, outcome.detail)
