"""The game state: frozen, serialisable (:meth:`GameState.to_dict`), and everything a front end
needs to show a game or continue it after a restart."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from shogiban.board import Board
from shogiban.errors import ShogibanError
from shogiban.game.clock import Clock
from shogiban.game.timecontrol import TimeControlError
from shogiban.outcome import EnteringKingRule, Outcome, OutcomeDataError
from shogiban.pieces import Color
from shogiban.rules import in_promotion_zone
from shogiban.sfen import STARTING_SFEN

#: What the cached position depends on.
_BOARD_FIELDS = frozenset({"moves", "start_sfen", "tournament", "rule", "max_moves"})


class GameDataError(ShogibanError):
    """A stored game state that cannot be read."""

    code = "bad_game_data"


class Mode(enum.Enum):
    """Who plays whom, which decides what the players may do."""

    COMPUTER = "computer"
    """A human against an engine: take-backs allowed, the engine agrees to 持将棋."""
    FRIEND = "friend"
    """Two humans on two devices: no take-backs, 持将棋 needs both."""
    LOCAL = "local"
    """Anyone on one device (both sides, or an engine too): take-backs of one move."""
    MATCH = "match"
    """Engines adjudicated by the rules: nothing but moves, resignations and declarations."""


class Status(enum.Enum):
    """Where the game is."""

    WAITING = "waiting"
    """Waiting for the second player (see :class:`~shogiban.game.actions.Start`)."""
    PLAYING = "playing"
    OVER = "over"


class Role(enum.Enum):
    """Who asks for an action."""

    BLACK = "b"
    """The sente player."""
    WHITE = "w"
    """The gote player."""
    BOTH = "both"
    """One device playing both sides."""
    SPECTATOR = "spectator"
    """Someone watching: may do nothing."""
    SYSTEM = "system"
    """The front end itself (its timer, its engines, the arbiter of a match): anything the rules allow."""

    @classmethod
    def of(cls, color: Color) -> Role:
        """The player role of *color*."""
        return cls.BLACK if color == Color.BLACK else cls.WHITE

    def covers(self, color: Color) -> bool:
        """Whether this role acts for *color*."""
        return self in (Role.BOTH, Role.SYSTEM) or self is Role.of(color)


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move of the game and the time it took."""

    usi: str
    spent: timedelta = timedelta(0)

    @property
    def spent_ms(self) -> int:
        """The time it took in whole milliseconds, as records and the web store it."""
        return round(self.spent.total_seconds() * 1000)


@dataclass(frozen=True)
class GameState:
    """One game; change it with :func:`shogiban.game.apply`.

    >>> state = GameState.new(now=0.0)
    >>> state.status, state.turn, state.ply
    (<Status.PLAYING: 'playing'>, <Color.BLACK: 0>, 0)
    """

    start_sfen: str = STARTING_SFEN
    mode: Mode = Mode.LOCAL
    engines: tuple[bool, bool] = (False, False)
    """Which seats (sente, gote) an engine plays."""
    rule: EnteringKingRule = EnteringKingRule.POINTS_27
    tournament: bool = False
    """Adjudicate: an illegal move or a failed declaration loses instead of being refused."""
    max_moves: int | None = None
    status: Status = Status.PLAYING
    moves: tuple[PlayedMove, ...] = ()
    clock: Clock = field(default_factory=Clock)
    outcome: Outcome | None = None
    impasse_offer: Color | None = None
    """The side whose 持将棋 proposal waits for the opponent (friends' games)."""
    takeback_offer: Color | None = None
    """The side whose take-back request (待った) waits for the opponent (friends' games)."""
    _cached_board: Board | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def new(
        cls, *, start_sfen: str = STARTING_SFEN, mode: Mode = Mode.LOCAL, engines: tuple[bool, bool] = (False, False),
        rule: EnteringKingRule = EnteringKingRule.POINTS_27, tournament: bool = False, max_moves: int | None = None,
        clock: Clock | None = None, waiting: bool = False, now: float = 0.0,
    ) -> GameState:
        """A game about to begin: its clock runs for the side to move from *now*, unless *waiting*.

        :raises InvalidSfenError: if *start_sfen* is not a position.
        """
        state = cls(start_sfen, mode, engines, rule, tournament, max_moves,
                    Status.WAITING if waiting else Status.PLAYING, (), clock or Clock())
        board = state.board()
        if not waiting:
            state = replace(state, clock=state.clock.start(board.turn, now))
        return state

    # -- reading -------------------------------------------------------------------------------

    def board(self) -> Board:
        """The position after the moves (a fresh copy the caller may change)."""
        board = self._cached_board
        if board is None:
            board = Board(self.start_sfen, tournament=self.tournament, max_moves=self.max_moves,
                          entering_king_rule=self.rule)
            for played in self.moves:
                board.push(board.parse_usi(played.usi))
            object.__setattr__(self, "_cached_board", board)
        return board.copy()

    def evolve(self, **changes: object) -> GameState:
        """``replace(self, **changes)``, keeping the cached position when the moves stay."""
        following = replace(self, **changes)  # type: ignore[arg-type]
        if self._cached_board is not None and not _BOARD_FIELDS & changes.keys():
            object.__setattr__(following, "_cached_board", self._cached_board)
        return following

    def with_board(self, board: Board) -> GameState:
        """Remember *board* as this state's position (it must be the position; saves a replay)."""
        object.__setattr__(self, "_cached_board", board.copy())
        return self

    @property
    def ply(self) -> int:
        """Moves played."""
        return len(self.moves)

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self._position().turn

    def _position(self) -> Board:
        self.board()
        assert self._cached_board is not None
        return self._cached_board

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.status is Status.OVER

    def human(self) -> Color | None:
        """The human's side when exactly one seat is a human."""
        humans = [c for c in (Color.BLACK, Color.WHITE) if not self.engines[c]]
        return humans[0] if len(humans) == 1 else None

    def kings_entered(self) -> bool:
        """Whether both kings stand in their enemy camps (入玉), so 持将棋 may settle the game."""
        board = self._position()
        black, white = board.king_square(Color.BLACK), board.king_square(Color.WHITE)
        return (
            black is not None
            and white is not None
            and in_promotion_zone(black, Color.BLACK)
            and in_promotion_zone(white, Color.WHITE)
        )

    # -- storage -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything, as JSON-friendly values (seconds for durations)."""
        return {
            "start_sfen": self.start_sfen,
            "mode": self.mode.value,
            "engines": list(self.engines),
            "rule": self.rule.value,
            "tournament": self.tournament,
            "max_moves": self.max_moves,
            "status": self.status.value,
            "moves": [[m.usi, m.spent.total_seconds()] for m in self.moves],
            "clock": self.clock.to_dict(),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "impasse_offer": None if self.impasse_offer is None else int(self.impasse_offer),
            "takeback_offer": None if self.takeback_offer is None else int(self.takeback_offer),
        }

    @classmethod
    def from_dict(cls, data: object) -> GameState:
        """Read what :meth:`to_dict` wrote, replaying the moves.

        :raises GameDataError: if anything is damaged or a move is illegal.
        """
        if not isinstance(data, dict):
            raise GameDataError(f"invalid game data: {type(data).__name__}")
        try:
            engines = data.get("engines", [False, False])
            offer = data.get("impasse_offer")
            takeback = data.get("takeback_offer")
            max_moves = data.get("max_moves")
            if (not isinstance(engines, list) or len(engines) != 2 or not all(isinstance(e, bool) for e in engines)
                    or offer not in (None, 0, 1) or isinstance(offer, bool)
                    or takeback not in (None, 0, 1) or isinstance(takeback, bool)
                    or not (max_moves is None or (isinstance(max_moves, int) and max_moves > 0))):
                raise GameDataError(f"invalid game data: {data!r}")
            moves = tuple(PlayedMove(str(usi), timedelta(seconds=float(spent))) for usi, spent in data.get("moves", []))
            outcome = data.get("outcome")
            state = cls(
                str(data.get("start_sfen", STARTING_SFEN)),
                Mode(data.get("mode", Mode.LOCAL.value)),
                (engines[0], engines[1]),
                EnteringKingRule(data.get("rule", EnteringKingRule.POINTS_27.value)),
                bool(data.get("tournament", False)),
                max_moves,
                Status(data.get("status", Status.PLAYING.value)),
                moves,
                Clock.from_dict(data.get("clock", Clock().to_dict())),
                None if outcome is None else Outcome.from_dict(outcome),
                None if offer is None else Color(offer),
                None if takeback is None else Color(takeback),
            )
            state.board()
            return state
        except GameDataError:
            raise
        except (TimeControlError, OutcomeDataError, ShogibanError, KeyError, TypeError, ValueError) as error:
            raise GameDataError(f"invalid game data: {error}") from error


__all__ = ["GameDataError", "GameState", "Mode", "PlayedMove", "Role", "Status"]
