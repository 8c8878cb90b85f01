"""Game rooms: one :class:`GameRoom` per game holds the board, the clock, the seats and the
connected clients, and serialises every change with an :class:`asyncio.Lock`.

The game itself is :mod:`shogiban.game`'s: the room turns requests into actions, asks the core
whether they are allowed, computes the next state, stores it, and only then makes it the room's
and broadcasts it (write, then swap): a client that sees a move knows it is on disk.  Refused
requests raise :class:`RoomError` (a :class:`ValueError` with a stable ``code``) and change
nothing.  Each side decides on the core's one player protocol (``game.Player``): the game's
owner process runs the side to move's turn, a computer's search or a browser person's
:class:`~shogiban.game.QueuedPlayer` fed by their requests, with the clock as the deadline.

Downtime: the server notes every few seconds that it is alive.  After a restart each running clock
is charged up to that last sign of life and restarted: time while the server was down counts for
nobody (see :meth:`RoomManager.restore`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, Literal, Protocol

from sqlalchemy.exc import SQLAlchemyError

from shogiban import game
from shogiban.board import Board
from shogiban.errors import EngineError, IllegalMoveError, InvalidMoveError, ShogibanError
from shogiban.game import GameDataError, GameState, Mode, Status
from shogiban.handicaps import handicap_of_sfen
from shogiban.move import Move
from shogiban.notation.excerpt import excerpt
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.pieces import Color
from shogiban.squares import SQUARE_NAMES
from shogiban.web.clock import Clock, ClockView, snapshot
from shogiban.web.messages import (
    ClockInfo,
    ErrorMessage,
    GameInfo,
    HintMessage,
    MoveEntry,
    MoveMessage,
    OnlineInfo,
    OutcomeInfo,
    Permissions,
    PlayerInfo,
    PositionInfo,
    PresenceMessage,
    ServerMessage,
    StateMessage,
    TimeControlInfo,
)
from shogiban.web.newgame import NewGame
from shogiban.web.store import AsyncStore, StaleGameError, StoredGame
from shogiban.web.thinking import HINT_LEVEL, HINT_TIME, Thinker, ThinkingPlayer, ThinkRequest

log = logging.getLogger(__name__)

#: Who a client is: the core's role (the pages see ``"b"``, ``"w"``, ``"both"`` or null).
Role = game.Role
SPECTATOR = game.Role.SPECTATOR
_LETTERS = {1: "P", 2: "L", 3: "N", 4: "S", 5: "B", 6: "R", 7: "G"}
_MODES = {"computer": Mode.COMPUTER, "friend": Mode.FRIEND, "local": Mode.LOCAL}
_MODE_NAMES: dict[Mode, Literal["computer", "friend", "local"]] = {
    Mode.COMPUTER: "computer", Mode.FRIEND: "friend", Mode.LOCAL: "local",
}
#: Where hints are offered: against the computer and on one device.
_HINT_MODES = frozenset({Mode.COMPUTER, Mode.LOCAL})
_WIRE_ROLES: dict[game.Role, Literal["b", "w", "both"] | None] = {
    game.Role.BLACK: "b", game.Role.WHITE: "w", game.Role.BOTH: "both",
}
#: The side a role plays alone (a client playing both sides acts for the side to move).
_SIDES = {game.Role.BLACK: Color.BLACK, game.Role.WHITE: Color.WHITE}
#: Refusals of a move that are about the request, not the rules of shogi.
_ROOM_CODES = frozenset({"game_over", "spectator", "waiting", "not_your_turn", "stale_ply", "not_allowed"})
#: Refusals that another web process's change may have made wrong (see GameRoom._catch_up).
_STATE_CODES = frozenset({"game_over", "waiting", "not_your_turn", "stale_ply", "nothing_to_undo", "not_allowed"})


#: Games in progress that no process has loaded, loaded by one process in one round of the
#: owners' watch (the rest in the next rounds).
LOAD_PER_ROUND = 50
#: Seconds before a computer whose move could not be stored thinks again.
ENGINE_RETRY_SECONDS = 2.0


class RoomError(ValueError):
    """A refused request; nothing changed.  ``code`` is stable (the client translates it);
    ``status`` is the HTTP status when the request came over HTTP."""

    def __init__(self, code: str, message: str, status: int = 400, *,
                 params: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.params: Mapping[str, str | int] = params or {}


class Subscriber(Protocol):
    """A connected client."""

    role: Role

    def send(self, message: ServerMessage) -> None:
        """Queue *message* for the client (never blocks)."""
        ...  # pragma: no cover - protocol


@dataclass
class Seat:
    """One side of the board: a human (with a token once someone sits), or an engine."""

    kind: Literal["human", "engine", "usi"]
    level: int | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        """For storage."""
        return {"kind": self.kind, "level": self.level, "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """From storage."""
        return cls(kind=data["kind"], level=data.get("level"), name=data.get("name"))

    @property
    def is_engine(self) -> bool:
        """Whether the computer plays this side."""
        return self.kind != "human"


@dataclass
class Services:
    """What rooms share: storage, engines and the time."""

    store: AsyncStore
    engines: Thinker | None = None
    usi: Thinker | None = None
    usi_name: str | None = None
    now: Callable[[], float] = time.time
    labeler: Callable[[Board, Move, int | None], str] | None = None
    cpu: Executor | None = None
    """Where rooms are built (replaying and labelling every move is work for a thread, not for
    the event loop); None builds them in place."""
    bus: Publisher | None = None
    """Tells the other web processes that a game changed (:mod:`shogiban.web.bus`); None when
    this process is the only one."""
    leases: Leases | None = None
    """Who owns each game's clock and computer turn among several web processes
    (:mod:`shogiban.web.lease`); None: this process owns every game it has."""


class Leases(Protocol):
    """One owner per game among several processes (see :class:`shogiban.web.lease.RedisLeases`)."""

    seconds: float
    """How long a lease lasts unless renewed."""

    async def take(self, game_id: str) -> int | None:
        """Become or stay the owner: a fencing token, or None."""
        ...  # pragma: no cover - protocol

    async def release(self, game_id: str) -> None:
        """Give the lease up."""
        ...  # pragma: no cover - protocol

    async def last_renewed(self, game_id: str) -> float | None:
        """When the game's lease was last renewed (wall clock), if known."""
        ...  # pragma: no cover - protocol

    async def renew_all(self, game_ids: Sequence[str]) -> set[str]:
        """Renew these leases at once; the ids whose lease was lost."""
        ...  # pragma: no cover - protocol

    async def unowned(self, game_ids: Sequence[str]) -> list[str]:
        """Those of *game_ids* whose lease nobody holds."""
        ...  # pragma: no cover - protocol


class Publisher(Protocol):
    """Where a room announces a stored change."""

    connected: bool
    """Whether the other processes hear this one now (changes are refused while not)."""

    async def publish(self, game_id: str, ply: int) -> None:
        """*game_id* changed and is stored, at *ply* moves."""
        ...  # pragma: no cover - protocol


def _forms(board: Board, move: Move, previous: int | None) -> dict[str, str]:
    """*move* in every notation the pages offer (the page's notation setting picks one)."""
    from shogiban.notation.forms import move_forms

    return move_forms(board, move, previous_to=previous)


def _usi_of_text(board: Board, text: str) -> str:
    """The USI of a typed move (see :meth:`GameRoom.play_text`); a refused move raises the rules'
    own error, so that it reaches the page as a refused USI move does."""
    from shogiban.notation.entry import AmbiguousEntryError, IllegalEntryError, read_move

    try:
        return read_move(board, text, check=False).usi()
    except IllegalEntryError as error:
        if isinstance(error.__cause__, IllegalMoveError):
            raise error.__cause__ from None
        raise
    except AmbiguousEntryError as error:
        candidates = ", ".join(f"{_forms(board, move, None)['japanese']} ({move.usi()})" for move in error.candidates)
        raise RoomError("ambiguous_move", f"several moves fit {text!r}: {candidates}",
                        params={"candidates": candidates}) from None


def outcome_info(outcome: Outcome | None) -> OutcomeInfo | None:
    """An outcome for clients."""
    if outcome is None:
        return None
    winner = None if outcome.winner is None else _letter(outcome.winner)
    return OutcomeInfo(termination=outcome.termination.value, winner=winner, detail=outcome.detail)


def _letter(color: Color) -> Literal["b", "w"]:
    """How the pages name a side."""
    return "b" if color == Color.BLACK else "w"


def clock_info(clock: Clock, now: float) -> ClockInfo:
    """The clock for clients at *now*."""
    return ClockInfo.model_validate(snapshot(clock, now))


def _outcome_from_json(data: dict[str, Any] | None) -> Outcome | None:
    """A stored outcome: the core's form (:meth:`Outcome.to_dict`), or the pages' form
    (``"winner": "b"``) that games stored before it carry."""
    if not data:
        return None
    winner = data.get("winner")
    if winner in ("b", "w"):
        data = {**data, "winner": "bw".index(winner)}
    return Outcome.from_dict(data)


def _same_secret(given: str, secret: str) -> bool:
    """Whether *given* is *secret*, in constant time (as bytes: compare_digest refuses non-ASCII
    text, and what a client sends may be anything)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode("utf-8"))


def legal_destinations(board: Board) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The legal moves of *board* as the pages' board takes them (``dests``, ``drop_dests`` of a
    :class:`~shogiban.web.messages.PositionInfo`): each piece's square with its targets ("2b+"
    promotes, "2b" does not), and each hand piece's letter with its drop squares.

    >>> dests, drops = legal_destinations(Board())
    >>> dests["7g"], drops
    (['7f'], {})
    """
    dests: dict[str, list[str]] = {}
    drops: dict[str, list[str]] = {}
    for move in board.legal_moves:
        to = SQUARE_NAMES[move.to_square]
        if move.from_square is None:
            drops.setdefault(_LETTERS[int(move.drop or 0)], []).append(to)
        else:
            dests.setdefault(SQUARE_NAMES[move.from_square], []).append(to + "+" if move.promotion else to)
    return dests, drops


@dataclass
class _Cache:
    generation: int = -1
    sfen: str = ""
    check: bool = False
    last_move: str | None = None
    dests: dict[str, list[str]] = field(default_factory=dict)
    drops: dict[str, list[str]] = field(default_factory=dict)
    can_declare: bool = False


class GameRoom:
    """One game in play: see the module docstring."""

    def __init__(self, stored: StoredGame, services: Services) -> None:
        self.id = stored.id
        self.services = services
        self.settings = dict(stored.settings)
        self.seats = [Seat.from_json(s) for s in stored.seats]
        self.tokens: list[str | None] = list(stored.tokens)
        self.invite: str | None = stored.invite
        """The friend's single-use invitation to the open seat (None once used)."""
        self.created_at = stored.created_at
        rule = EnteringKingRule(self.settings.get("rule", EnteringKingRule.POINTS_27.value))
        self.notations: list[tuple[str, dict[str, str] | None]] = []
        """Each move's KI2 label and its other notations (worked out once, from the position before it)."""
        self.generation = 0
        self._labeler = services.labeler
        board = Board(stored.start_sfen, entering_king_rule=rule)
        played: list[game.PlayedMove] = []
        for usi, spent in stored.moves:
            move = board.parse_usi(usi)
            self._note(board, move)
            board.push(move)
            played.append(game.PlayedMove(move.usi(), timedelta(milliseconds=spent)))
        clock = Clock.from_dict(stored.clock) if stored.clock else Clock()
        self.state = GameState(
            stored.start_sfen, _MODES.get(self.settings.get("mode", "computer"), Mode.COMPUTER),
            (self.seats[0].is_engine, self.seats[1].is_engine),
            rule, status=Status(stored.status), moves=tuple(played), clock=clock,
            outcome=_outcome_from_json(stored.outcome),
        ).with_board(board)
        if stored.state is not None:
            # The core's own record of what the columns do not hold (a pending 持将棋 proposal ...).
            self.state = restored_state(stored.state, self.state)
        self.lock = asyncio.Lock()
        self.reloading = asyncio.Lock()
        """Held while a change noted by another process is read, so that notes apply in order."""
        self.subscribers: set[Subscriber] = set()
        self._announcing: set[asyncio.Task[None]] = set()
        self.owner = services.leases is None
        """This process runs the side to move's turn (a computer's search, a person's decision
        handed to their player, the clock's deadline): see :meth:`claim` and :meth:`_start_turn`."""
        self.thinking = False
        self._turn_task: asyncio.Task[None] | None = None
        """The side to move deciding, in the owner's process (see :meth:`_start_turn`)."""
        self._people: dict[Color, game.QueuedPlayer] = {}
        """The browser person of each human seat, as the game core's player."""
        self._hint_task: asyncio.Task[None] | None = None
        self._cache = _Cache()

    # -- the game state ----------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The position (a copy)."""
        return self.state.board()

    @property
    def clock(self) -> ClockView:
        """The clock, as the record writer reads it."""
        return ClockView(self.state.clock)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, if it did."""
        return self.state.outcome

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``over``."""
        return self.state.status.value

    @property
    def impasse_offer(self) -> Color | None:
        """The side whose 持将棋 proposal waits for the opponent."""
        return self.state.impasse_offer

    # -- identity --------------------------------------------------------------------------------

    @property
    def mode(self) -> Literal["computer", "friend", "local"]:
        """The game's mode as the pages name it (the core's :class:`Mode` inside)."""
        return _MODE_NAMES.get(self.state.mode, "computer")

    def role_of(self, token: str | None) -> Role:
        """Which side(s) *token* plays."""
        if not token or not isinstance(token, str):
            return SPECTATOR
        black = self.tokens[0] is not None and _same_secret(token, self.tokens[0])
        white = self.tokens[1] is not None and _same_secret(token, self.tokens[1])
        if black and white:
            return game.Role.BOTH
        if black:
            return game.Role.BLACK
        if white:
            return game.Role.WHITE
        return SPECTATOR

    def _can_move(self, role: Role) -> bool:
        return role is not SPECTATOR and game.allowed(self.state, role, game.PlayMove()) is None

    def kings_entered(self) -> bool:
        """Whether both kings stand in their enemy camps (入玉): the 持将棋 count may settle the game."""
        return self.state.kings_entered()

    @property
    def open_seat(self) -> Color | None:
        """A human seat nobody took yet (a friend's game waiting for the friend)."""
        for color in (Color.BLACK, Color.WHITE):
            if not self.seats[color].is_engine and self.tokens[color] is None:
                return color
        return None

    # -- views -----------------------------------------------------------------------------------

    def _refresh_cache(self) -> _Cache:
        cache = self._cache
        if cache.generation == self.generation:
            return cache
        board = self.state.board()
        cache.dests, cache.drops = legal_destinations(board) if self.outcome is None else ({}, {})
        cache.sfen = board.sfen()
        cache.check = board.is_check()
        cache.last_move = board.peek().usi() if board.ply else None
        cache.can_declare = self.outcome is None and board.can_declare_win()
        cache.generation = self.generation
        return cache

    def position_info(self, role: Role) -> PositionInfo:
        """The position, with what *role* may move if it is its turn."""
        cache = self._refresh_cache()
        mine = self._can_move(role)
        return PositionInfo(
            sfen=cache.sfen,
            ply=self.state.ply,
            turn=_letter(self.state.turn),
            last_move=cache.last_move,
            check=cache.check,
            dests=cache.dests if mine else {},
            drop_dests=cache.drops if mine else {},
        )

    def permissions(self, role: Role) -> Permissions:
        """What *role* may do now: the game core's answer, plus what only the web offers."""
        can = game.permissions(self.state, role)
        engines = self.services.engines is not None
        return Permissions(
            move=can["move"],
            impasse=can["impasse"],
            undo=can["undo"],
            decline_undo=can["decline_undo"],
            hint=can["move"] and engines and self.state.mode in _HINT_MODES,
            declare=can["declare"],
            resign=can["resign"],
            join=role is SPECTATOR and self.open_seat is not None and self.outcome is None,
        )

    def game_info(self) -> GameInfo:
        """What does not change during the game."""
        handicap = handicap_of_sfen(self.state.start_sfen)
        online = self._online()
        players: dict[Literal["b", "w"], PlayerInfo] = {}
        for color in (Color.BLACK, Color.WHITE):
            seat = self.seats[color]
            name = seat.name
            if seat.kind == "usi" and name is None:
                name = getattr(self.services.usi, "name", None) or self.services.usi_name
            players[_letter(color)] = PlayerInfo(
                kind=seat.kind,
                level=seat.level,
                name=name,
                joined=seat.is_engine or self.tokens[color] is not None,
                online=seat.is_engine or online[color],
            )
        control = self.state.clock.control
        return GameInfo(
            id=self.id,
            mode=self.mode,
            players=players,
            handicap=handicap.japanese if handicap and not handicap.is_even else None,
            handicap_english=handicap.english if handicap and not handicap.is_even else None,
            time_control=TimeControlInfo(main=control.main, byoyomi=control.byoyomi, increment=control.increment),
            start_sfen=self.state.start_sfen,
            rule=self.state.rule.value,
            created_at=self.created_at,
        )

    def moves(self) -> list[MoveEntry]:
        """The record so far."""
        return [
            MoveEntry(ply=i + 1, usi=played.usi, label=self.notations[i][0], forms=self.notations[i][1],
                      spent_ms=played.spent_ms)
            for i, played in enumerate(self.state.moves)
        ]

    def state_for(self, role: Role) -> StateMessage:
        """Everything about the game, for one client."""
        offer = self.impasse_offer
        return StateMessage(
            game=self.game_info(),
            you=_WIRE_ROLES.get(role),
            position=self.position_info(role),
            moves=self.moves(),
            clock=clock_info(self.state.clock, self.services.now()),
            outcome=outcome_info(self.outcome),
            can=self.permissions(role),
            thinking=self.thinking,
            impasse_offer=None if offer is None else _letter(offer),
            takeback_offer=None if self.state.takeback_offer is None else _letter(self.state.takeback_offer),
        )

    def _online(self) -> list[bool]:
        online = [False, False]
        for sub in self.subscribers:
            if sub.role in (game.Role.BLACK, game.Role.BOTH):
                online[0] = True
            if sub.role in (game.Role.WHITE, game.Role.BOTH):
                online[1] = True
        return online

    # -- broadcasting ----------------------------------------------------------------------------

    def broadcast_state(self) -> None:
        """Send everyone the whole game (built once per role, and the same message object to
        every client of a role, so that it is encoded once)."""
        messages: dict[Role, StateMessage] = {}
        for sub in list(self.subscribers):
            if sub.role not in messages:
                messages[sub.role] = self.state_for(sub.role)
            sub.send(messages[sub.role])

    def _broadcast_move(self, entry: MoveEntry) -> None:
        clock = clock_info(self.state.clock, self.services.now())
        outcome = outcome_info(self.outcome)
        messages: dict[Role, MoveMessage] = {}
        for sub in list(self.subscribers):
            if sub.role not in messages:
                messages[sub.role] = MoveMessage(
                    move=entry,
                    position=self.position_info(sub.role),
                    clock=clock,
                    outcome=outcome,
                    can=self.permissions(sub.role),
                    thinking=self.thinking,
                )
            sub.send(messages[sub.role])

    def broadcast_presence(self) -> None:
        """Tell everyone who is connected."""
        online = self._online()
        spectators = sum(1 for sub in self.subscribers if sub.role is SPECTATOR)
        message = PresenceMessage(online=OnlineInfo(b=online[0], w=online[1]), spectators=spectators)
        for sub in list(self.subscribers):
            sub.send(message)

    def subscribe(self, sub: Subscriber) -> None:
        """Add a client and send it the game."""
        self.subscribers.add(sub)
        sub.send(self.state_for(sub.role))
        self.broadcast_presence()

    def unsubscribe(self, sub: Subscriber) -> None:
        """Remove a client."""
        self.subscribers.discard(sub)
        self.broadcast_presence()

    # -- the game --------------------------------------------------------------------------------

    def _note(self, board: Board, move: Move) -> None:
        previous = board.peek().to_square if board.ply else None
        self.notations.append(self._label(board, move, previous))

    def _label(self, board: Board, move: Move, previous: int | None) -> tuple[str, dict[str, str] | None]:
        """The KI2 label of *move* and its other notations (a custom labeler gives the label only)."""
        if self._labeler is not None:
            return self._labeler(board, move, previous), None
        forms = _forms(board, move, previous)
        return forms["japanese"], forms

    def _refuse(self, role: Role, action: game.Action) -> None:
        """Raise the game core's refusal of *action* by *role*, if it refuses."""
        refusal = game.allowed(self.state, role, action)
        if refusal is None:
            return
        if refusal.code == "invalid_move":
            raise InvalidMoveError(refusal.message)
        if isinstance(action, game.PlayMove) and refusal.code not in _ROOM_CODES:
            raise IllegalMoveError(refusal.message, refusal=refusal)
        raise RoomError(refusal.code, refusal.message, params=refusal.params)

    async def _act(self, action: game.Action, *, adjudicate: bool = False) -> game.GameState:
        """Apply *action* now: compute the next state, store it, and only then make it the room's
        (write, then swap: a state the database does not have is never shown).  *adjudicate*
        plays it as the rules adjudicate an engine's move (a foul loses)."""
        bus = self.services.bus
        if bus is not None and not bus.connected:
            # Stored but never announced, a change would stay unseen by the other processes'
            # players: refuse it until Redis answers again (the room then re-reads the game).
            raise RoomError("redis_unavailable", "the server cannot reach Redis just now: please try again in a moment",
                            status=503)
        now = self.services.now()
        # An engine's decision is judged as every front end judges it (game.adjudicate).
        following, events = (game.adjudicate(self.state, action, now) if adjudicate  # type: ignore[arg-type]
                             else game.apply(self.state, action, now))
        entry: MoveEntry | None = None
        board = self.state.board()
        labels = [
            (Move.from_usi(e.usi), game.PlayedMove(e.usi, e.spent).spent_ms)
            for e in events if isinstance(e, game.MovePlayed)
        ]
        ended = following.outcome if following.status is Status.OVER and not self.state.over else None
        store = self.services.store
        clock = following.clock.to_dict()
        core = stored_state(following)
        # A proposal waiting for the opponent, or one answered without a move: stored as it is.
        proposed = any(isinstance(e, game.ImpasseProposed | game.TakebackProposed | game.TakebackDeclined)
                       for e in events)
        try:
            if labels:
                move, spent = labels[0]
                await store.run(
                    store.store.append_move, self.id, following.ply, move.usi(), spent, clock,
                    status="over" if ended is not None else None,
                    outcome=ended.to_dict() if ended is not None else None,
                    state=core,
                )
            elif any(isinstance(e, game.MovesTakenBack) for e in events):
                await store.run(store.store.truncate, self.id, following.ply, clock, core)
            elif ended is not None:
                await store.run(store.store.update, self.id, at_ply=following.ply, status="over",
                                outcome=ended.to_dict(), clock=clock,
                                state=core)
            elif proposed:  # a 持将棋 or take-back proposal waits for the opponent (or was declined)
                await store.run(store.store.update, self.id, at_ply=following.ply, clock=clock, state=core)
        except StaleGameError as error:
            # Another process stored this ply first: nothing was written here.
            log.warning("%s", error, extra={"game": self.id})
            raise RoomError("stale_ply", "another move was played meanwhile: please reload the game") from error
        except SQLAlchemyError as error:
            # Not stored, not done: the room keeps the state the database has.
            log.error("game %s: cannot store %r: %s", self.id, action, error, extra={"game": self.id})
            raise RoomError("storage", "the change could not be saved: please try again") from error
        taken = next((e.count for e in events if isinstance(e, game.MovesTakenBack)), 0)
        if taken:
            del self.notations[len(self.notations) - taken:]
        for move, spent in labels:
            self._note(board, move)
            label, forms = self.notations[-1]
            entry = MoveEntry(ply=following.ply, usi=move.usi(), label=label, forms=forms, spent_ms=spent)
        self.state = following
        self.generation += 1
        self._announce()
        self._cancel_stale_searches()
        self.thinking = False
        self._start_turn()
        if entry is not None:
            self._broadcast_move(entry)
        else:
            self.broadcast_state()
        if ended is not None:
            await self._release_engines()
            if self.services.leases is not None and self.owner:
                await self.services.leases.release(self.id)
        return following

    def _announce(self) -> None:
        """Tell the other web processes (if any) that this game changed; it is stored already."""
        bus = self.services.bus
        if bus is not None:
            task = asyncio.create_task(bus.publish(self.id, self.state.ply))
            self._announcing.add(task)
            task.add_done_callback(self._announcing.discard)

    async def reload(self, fresh: GameRoom) -> None:
        """Take the game as another process stored it (*fresh*, built from the store): its state,
        seats and notations; stale searches stop, and this process's clients get the new state."""
        async with self.lock:
            self.adopt(fresh)

    async def _catch_up(self, role: Role, action: game.Action) -> None:
        """With other web processes: before refusing *action* for the game's state (not started,
        not your turn, a stale ply), read the stored game, which another process may have changed
        a moment ago (its note may still be on its way)."""
        if self.services.bus is None:
            return
        refusal = game.allowed(self.state, role, action)
        if refusal is None or refusal.code not in _STATE_CODES:
            return
        store = self.services.store
        stored = await store.run(store.store.load, self.id)
        if stored is not None:
            self.adopt(await build_room(stored, self.services))

    async def extend(self, tail: StoredGame) -> bool:
        """Take one move another process stored, from *tail* (the game row and the moves from
        this room's last one on), without reading the whole game again.  False (nothing done)
        when the stored game is not this one plus one move: then the caller reads it all."""
        async with self.lock:
            played = self.state.moves
            if (tail.first_ply != len(played) - 1 or len(tail.moves) != 2 or tail.ply != len(played) + 1
                    or tail.moves[0][0] != played[-1].usi or tail.invite != self.invite
                    or tail.tokens != self.tokens):
                return False
            usi, spent = tail.moves[1]
            board = self.state.board()
            try:
                move = board.parse_usi(usi)
                following = game.evolve(
                    self.state, moves=(*played, game.PlayedMove(move.usi(), timedelta(milliseconds=spent))),
                    clock=Clock.from_dict(tail.clock) if tail.clock else self.state.clock,
                    status=Status(tail.status), outcome=_outcome_from_json(tail.outcome),
                    impasse_offer=None, takeback_offer=None,
                )
            except (ShogibanError, ValueError):
                return False
            self._note(board, move)
            board.push(move)
            self.state = following.with_board(board)
            self._after_change()
            return True

    def adopt(self, fresh: GameRoom) -> None:
        """Make *fresh*'s game this room's (the lock held)."""
        if fresh.state.to_dict() == self.state.to_dict() and fresh.tokens == self.tokens:
            return  # nothing new (this process's own change, or a repeated note)
        self.state, self.notations = fresh.state, fresh.notations
        self.seats, self.tokens, self.invite = fresh.seats, fresh.tokens, fresh.invite
        self._after_change()

    def _after_change(self) -> None:
        """The game changed elsewhere: stop what is stale, act if this process owns it, tell the clients."""
        self.generation += 1
        self._cancel_stale_searches()
        self.thinking = False
        self._start_turn()
        self.broadcast_state()

    def _cancel_stale_searches(self) -> None:
        """The position changed: a computer move or hint still asked for is no longer wanted, and
        leaves the engines' queue (a search already running ends at its limit, unheard)."""
        current = asyncio.current_task()
        for task in (self._turn_task, self._hint_task):
            if task is not None and task is not current and not task.done():
                task.cancel()

    async def _act_in_time(self, action: game.Action) -> None:
        """Apply a player's move or declaration; one made after the time ran out loses on time."""
        following = await self._act(action)
        outcome = following.outcome
        if outcome is not None and outcome.termination is Termination.TIME_FORFEIT:
            raise RoomError("game_over", "the game is over: time ran out")

    async def _release_engines(self) -> None:
        if self.services.usi is not None and any(seat.kind == "usi" for seat in self.seats):
            await self.services.usi.release(self.id)

    async def play(self, role: Role, usi: str, ply: int) -> None:
        """Play a human's move.

        :raises RoomError: if it is not *role*'s turn, *ply* is stale or the game is over.
        :raises InvalidMoveError: if *usi* is not a move.
        :raises IllegalMoveError: with the reason, if the move is illegal.
        """
        async with self.lock:
            if await self._flag_if_needed():
                raise RoomError("game_over", "the game is over: time ran out")
            action = game.PlayMove(usi if isinstance(usi, str) else "", ply=ply)
            await self._catch_up(role, action)
            self._refuse(role, action)
            if not usi or not isinstance(usi, str):
                raise InvalidMoveError(f"invalid move: {usi!r}")
            answer = self._hand_over(action)
            if answer is None:
                await self._act_in_time(action)
        if answer is not None:
            await answer

    async def play_text(self, role: Role, text: str, ply: int) -> None:
        """Play a move a person typed in any notation (:func:`shogiban.notation.entry.read_move`,
        the terminal's reader), read against the position on the services' CPU executor.

        :raises RoomError: as :meth:`play`.
        :raises IllegalMoveError: with the rules' refusal, as for a USI move.
        :raises MoveEntryError: ``invalid_move`` for unreadable text.
        :raises RoomError: ``ambiguous_move`` (its ``params`` name the candidates) when several
            legal moves fit.
        """
        board = self.state.board()
        loop = asyncio.get_running_loop()
        usi = await loop.run_in_executor(self.services.cpu, _usi_of_text, board, text)
        await self.play(role, usi, ply)

    async def resign(self, role: Role) -> None:
        """Resign for *role* (the side to move when one client plays both sides); a game still
        waiting for its second player is cancelled.

        :raises RoomError: for spectators or when the game is over.
        """
        async with self.lock:
            action = game.Resign(_SIDES.get(role))
            await self._catch_up(role, action)
            self._refuse(role, action)
            await self._act(action)

    async def undo(self, role: Role, ply: int) -> None:
        """Take back the last human move (and the computer's reply to it); between friends, ask
        for it (待った), or agree to the opponent's request.

        :raises RoomError: for spectators, on a stale *ply*, with nothing to undo, or while one's
            own request waits (``busy``).
        """
        async with self.lock:
            action = game.Undo(ply=ply, color=_SIDES.get(role))
            await self._catch_up(role, action)
            self._refuse(role, action)
            await self._act(action)

    async def decline_undo(self, role: Role) -> None:
        """Refuse the opponent's take-back request, or withdraw one's own (friends' games).

        :raises RoomError: ``nothing_to_decline`` when no request waits, for spectators.
        """
        async with self.lock:
            action = game.DeclineTakeback(_SIDES.get(role))
            await self._catch_up(role, action)
            self._refuse(role, action)
            await self._act(action)

    async def declare(self, role: Role, ply: int) -> None:
        """Declare an entering-king win (入玉宣言) for the side to move.

        :raises RoomError: if it is not *role*'s turn or the rule's conditions are not met.
        """
        async with self.lock:
            if await self._flag_if_needed():
                raise RoomError("game_over", "the game is over: time ran out")
            action = game.Declare(ply=ply)
            await self._catch_up(role, action)
            self._refuse(role, action)
            answer = self._hand_over(action)
            if answer is None:
                await self._act_in_time(action)
        if answer is not None:
            await answer

    async def impasse(self, role: Role, ply: int) -> None:
        """Propose, or agree to, ending the game by the 24-point count (持将棋) once both kings have
        entered.  The computer, and one device playing both sides, agree at once; in a friends'
        game the opponent must agree too (any move withdraws the proposal).

        :raises RoomError: for spectators, a stale *ply*, or when the kings have not both entered.
        """
        async with self.lock:
            action = game.ImpasseAgreement(_SIDES.get(role), ply=ply)
            await self._catch_up(role, action)
            self._refuse(role, action)
            await self._act(action)

    async def hint(self, sub: Subscriber, ply: int) -> None:
        """Ask the engine for a move and send it to *sub* only.

        :raises RoomError: outside games against the computer, when it is not *sub*'s turn, or
            when no engine is available.
        """
        async with self.lock:
            self._refuse(sub.role, game.PlayMove(ply=ply))
            if self.state.mode not in _HINT_MODES:
                raise RoomError("not_allowed", "hints are only available against the computer")
            if self.services.engines is None:
                raise RoomError("no_engine", "no engine is available for hints")
            if self._hint_task is not None and not self._hint_task.done():
                raise RoomError("busy", "a hint is already being prepared")
            request = ThinkingPlayer(self.services.engines, game_id=self.id, level=HINT_LEVEL, name="hints",
                                     now=self.services.now, movetime=HINT_TIME, hint=True).request(self.state)
            generation = self.generation
        self._hint_task = asyncio.create_task(self._send_hint(sub, request, generation))

    async def _send_hint(self, sub: Subscriber, request: ThinkRequest, generation: int) -> None:
        assert self.services.engines is not None
        try:
            result = await self.services.engines.think(request)
        except EngineError as error:
            sub.send(ErrorMessage(code="engine_error", message=f"the hint failed: {error}"))
            return
        if generation != self.generation or sub not in self.subscribers:
            return
        label, forms = None, None
        board = self.state.board()
        if result.move is not None:
            move = Move.from_usi(result.move)
            if board.is_legal(move):
                previous = board.peek().to_square if board.ply else None
                label, forms = self._label(board, move, previous)
        sub.send(HintMessage(ply=board.ply, usi=result.move, label=label, forms=forms,
                             score_cp=result.score_cp, score_mate=result.score_mate))

    def invite_matches(self, invite: str | None) -> bool:
        """Whether *invite* is this game's unused invitation to an open seat."""
        return isinstance(invite, str) and bool(invite) and self.invite is not None and \
            self.open_seat is not None and self.outcome is None and _same_secret(invite, self.invite)

    async def join(self, token: str | None, invite: str | None = None) -> tuple[Color, str]:
        """Take the open seat with the game's invitation *invite* (which is then used up), or
        confirm *token*'s own seat.  Returns ``(color, token)``.

        :raises RoomError: ``seat_taken`` (409) when no seat is open, ``bad_invite`` (403) when
            *invite* is not this game's unused invitation.
        """
        async with self.lock:
            role = self.role_of(token)
            if role in _SIDES and token is not None:
                return _SIDES[role], token
            color = self.open_seat
            if color is None or self.outcome is not None:
                raise RoomError("seat_taken", "both seats are taken: you can watch the game", 409)
            if not self.invite_matches(invite):
                raise RoomError("bad_invite", "this invitation is not valid for this game (it may have been used)", 403)
            assert self.invite is not None
            new_token = secrets.token_urlsafe(18)
            following, _ = game.apply(self.state, game.Start(), self.services.now())
            claimed = await self.services.store.run(
                self.services.store.store.claim_seat, self.id, int(color), new_token,
                [s.to_json() for s in self.seats], following.clock.to_dict(), self.invite,
            )
            if not claimed:  # pragma: no cover - only one process serves a database's games
                raise RoomError("seat_taken", "the seat was taken meanwhile", 409)
            self.tokens[color] = new_token
            self.invite = None
            self.state = following
            self.generation += 1
            self._announce()
            self._start_turn()
            self.broadcast_state()
            return color, new_token

    # -- clock -----------------------------------------------------------------------------------

    async def _flag_if_needed(self) -> bool:
        """End the game if the running side is out of time; True if the game is over by time now."""
        if self.state.status is not Status.PLAYING or not self.state.clock.is_flagged(self.services.now()):
            return False
        await self._act(game.FlagFall())
        return True

    # -- engines ---------------------------------------------------------------------------------

    def _player(self, color: Color) -> game.Player:
        """Side *color* on the game core's one player protocol: a computer over the server's
        thinking service, or the browser person whose decisions this process receives."""
        seat = self.seats[color]
        if not seat.is_engine:
            return self._people.setdefault(color, game.QueuedPlayer(seat.name or ""))
        thinker = self.services.usi if seat.kind == "usi" else self.services.engines
        name = (getattr(thinker, "name", None) or "the USI engine") if seat.kind == "usi" else "the built-in engine"
        return ThinkingPlayer(thinker, game_id=self.id, level=seat.level or 1, name=name, now=self.services.now)

    def _start_turn(self) -> None:
        """In the owner's process: ask the side to move for its decision, with its clock as the
        deadline (:func:`shogiban.game.choose_in_time`), and apply it (:meth:`_turn`).  This is
        also what ends a game on time: the deadline's :class:`~shogiban.game.FlagFall`."""
        current = asyncio.current_task()
        if self._turn_task is not None and self._turn_task is not current and not self._turn_task.done():
            self._turn_task.cancel()
        self._turn_task = None
        if self.state.status is not Status.PLAYING or not self.owner:
            self._withdraw_handed_over()
            return
        color = self.state.turn
        self.thinking = self.seats[color].is_engine
        self._turn_task = asyncio.create_task(self._turn(color, self.state, self.generation))

    def _withdraw_handed_over(self) -> None:
        """No turn runs here any more: what people handed over and was not taken is refused."""
        for player in self._people.values():
            player.withdraw(RoomError("stale_ply", "the game changed meanwhile: please reload the game"))

    def _hand_over(self, action: game.PlayMove | game.Declare) -> asyncio.Future[None] | None:
        """Give a person's move or declaration (already checked) to their player when this
        process runs their turn; the future is answered once it is applied or refused.  None when
        this process does not (the game's owner is another process, or no turn runs): the
        request is applied where it arrived."""
        task = self._turn_task
        if task is None or task.done() or not self.owner:
            return None
        player = self._people.get(self.state.turn)
        return player.submit(action) if player is not None else None

    async def _turn(self, color: Color, state: GameState, generation: int) -> None:
        """*color* decides on *state*; its decision is applied unless the game moved on meanwhile
        (a stale turn is cancelled by :meth:`_cancel_stale_searches`).  A person's refused
        decision is answered to its sender, and the person decides again."""
        player = self._player(color)
        while True:
            decision = await game.choose_in_time(player, state, self.services.now)
            if not isinstance(player, game.QueuedPlayer):
                await self._computer_decided(decision, generation)
                return
            try:
                async with self.lock:
                    if generation != self.generation:
                        raise RoomError("stale_ply", "another move was played meanwhile: please reload the game")
                    await self._person_decided(decision, color)
            except (ShogibanError, ValueError) as error:
                player.settle(error)
                if generation != self.generation or self.state.status is not Status.PLAYING:
                    return
                if isinstance(decision, game.FlagFall):  # not stored: the store or Redis is away
                    await asyncio.sleep(ENGINE_RETRY_SECONDS)
                continue
            except BaseException:
                player.settle(RoomError("stale_ply", "another move was played meanwhile: please reload the game"))
                raise
            player.settle(None)
            if generation == self.generation and self.state.status is Status.PLAYING:
                continue  # a flag that had not quite fallen: wait for the rest of the time
            return

    async def _person_decided(self, decision: game.Decision, color: Color) -> None:
        """Apply a browser person's *decision* (the lock held), as :meth:`play` applies it."""
        if isinstance(decision, game.FlagFall):
            await self._flag_if_needed()
            return
        if await self._flag_if_needed():
            raise RoomError("game_over", "the game is over: time ran out")
        self._refuse(game.Role.of(color), decision)
        await self._act_in_time(decision)

    async def _computer_decided(self, decision: game.Decision, generation: int) -> None:
        """Apply a computer's *decision* as the rules adjudicate an engine (a foul loses)."""
        if isinstance(decision, game.EngineFailure):
            log.warning("game %s: %s", self.id, decision.detail, extra={"game": self.id})
        async with self.lock:
            if generation != self.generation or self.state.status is not Status.PLAYING:
                return  # the position changed meanwhile (undo, resignation, time)
            self.thinking = False
            if await self._flag_if_needed():
                return
            try:
                await self._act(decision, adjudicate=True)
            except RoomError as error:
                if error.code == "stale_ply":
                    # Another process stored this ply first (this one's lease ran out meanwhile):
                    # its change reaches this room as a note; nothing to do here.
                    log.info("game %s: the computer's move came too late: %s", self.id, error, extra={"game": self.id})
                    return
                # Not stored (the database or Redis is away): think again in a moment.
                log.warning("game %s: the computer's move was not stored (%s); thinking again", self.id, error.code,
                            extra={"game": self.id})
                asyncio.get_running_loop().call_later(ENGINE_RETRY_SECONDS, self._retry_turn, self.generation)

    def _retry_turn(self, generation: int) -> None:
        if generation == self.generation and (self._turn_task is None or self._turn_task.done()):
            self._start_turn()

    def free_engine_downtime(self, last_alive: float) -> None:
        """After a take-over: a computer whose turn runs could not think while its game had no
        owner, so its turn is charged only up to *last_alive* (when the previous owner was last
        known alive) and runs again from now.  A person's turn is charged as usual: any process
        took their move meanwhile."""
        clock = self.state.clock
        now = self.services.now()
        if self.state.status is not Status.PLAYING or clock.running is None or clock.since is None:
            return
        if not self.seats[clock.running].is_engine or last_alive >= now:
            return
        self.state = game.evolve(self.state, clock=clock.pause(last_alive).resume(now))

    def activate(self) -> None:
        """After loading: the side to move decides (an engine thinks), with its clock as the deadline."""
        self._start_turn()

    @property
    def needs_owner(self) -> bool:
        """Whether a process must act for this game by itself: a clock to watch or a computer to
        move (a friends' game without a clock only answers its players)."""
        return self.state.status is Status.PLAYING and (
            self.state.clock.control.enabled or any(seat.is_engine for seat in self.seats))

    async def claim(self) -> bool:
        """With several processes: try to become the game's owner (only a game that needs one:
        see :attr:`needs_owner`)."""
        leases = self.services.leases
        if leases is None:
            return True
        if not self.needs_owner:
            return False
        self.owner = await leases.take(self.id) is not None
        return self.owner

    def disown(self) -> None:
        """The lease was lost: stop watching the clock and thinking for this game."""
        self.owner = False
        self._cancel_stale_searches()
        self._withdraw_handed_over()
        self.thinking = False

    async def check_time(self) -> None:
        """End the game now if the side to move has run out of time."""
        async with self.lock:
            await self._flag_if_needed()

    def close(self) -> None:
        """Stop the room's tasks (server shutdown)."""
        for task in (self._turn_task, self._hint_task):
            if task is not None:
                task.cancel()
        self._withdraw_handed_over()


class RoomManager:
    """All rooms: created on request, loaded from the store on first use."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.rooms: dict[str, GameRoom] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def get(self, game_id: str) -> GameRoom | None:
        """The room of *game_id*, loading it if needed; None for an unknown id."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        if not isinstance(game_id, str) or not 4 <= len(game_id) <= 32:
            return None
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(game_id)
            if room is None:
                store = self.services.store
                stored = await store.run(store.store.load, game_id)
                if stored is None:
                    self._loading.pop(game_id, None)
                    return None
                room = await build_room(stored, self.services)
                self.rooms[game_id] = room
                await room.claim()
                room.activate()
                await room.check_time()
        self._loading.pop(game_id, None)
        return room

    async def changed(self, game_id: str, ply: int) -> None:
        """Another web process stored a change of *game_id*: a room loaded here takes it, the
        new move alone when that is all that changed, else the whole game read again."""
        room = self.rooms.get(game_id)
        if room is None:
            return  # not loaded here: it is read from the store when it is
        store = self.services.store
        # One game's notes are read one after the other, in the order they came (the store runs
        # several reads at once, and a read that finished late must not undo a newer one).
        async with room.reloading:
            known = room.state.ply
            if ply == known + 1 and known > 0:
                tail = await store.run(store.store.load, game_id, since=known - 1)
                if tail is not None and await room.extend(tail):
                    return
            stored = await store.run(store.store.load, game_id)
            if stored is not None:
                await room.reload(await build_room(stored, self.services))

    async def reload_all(self) -> None:
        """Read every game loaded here again (after Redis was lost, its notes may be missing)."""
        store = self.services.store
        for game_id, room in list(self.rooms.items()):
            async with room.reloading:
                stored = await store.run(store.store.load, game_id)
                if stored is not None:
                    await room.reload(await build_room(stored, self.services))

    async def create(self, setup: NewGame) -> tuple[GameRoom, str]:
        """Start a game; returns the room and the creator's token (a friend's game also has an
        invitation, :attr:`GameRoom.invite`)."""
        token = secrets.token_urlsafe(18)
        me = setup.color
        seats = [Seat("human"), Seat("human")]
        if setup.mode != "local":
            seats[me].name = setup.name
        tokens: list[str | None] = [token, token]
        status = "playing"
        if setup.mode == "computer":
            seats[me.other] = Seat(setup.opponent, level=setup.level if setup.opponent == "engine" else None)
            tokens[me.other] = None
        elif setup.mode == "friend":
            seats[me.other] = Seat("human")
            tokens[me.other] = None
            status = "waiting"
        board = setup.board()
        clock = Clock(setup.time_control)
        now = self.services.now()
        if status == "playing":
            clock = clock.start(board.turn, now)
        game_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        stored = StoredGame(
            id=game_id,
            start_sfen=setup.start_sfen,
            settings={"mode": setup.mode, "rule": setup.rule.value},
            seats=[s.to_json() for s in seats],
            tokens=tokens,
            status=status,
            clock=clock.to_dict(),
            created_at=now,
            moves=[(usi, 0) for usi in setup.moves],
            invite=secrets.token_urlsafe(18) if setup.mode == "friend" else None,
        )
        room = await build_room(stored, self.services)  # before storing: a game that cannot be built is not kept
        store = self.services.store
        await store.run(store.store.create, stored)
        self.rooms[game_id] = room
        await room.claim()
        room.activate()
        return room, token

    def forget_if_idle(self, room: GameRoom) -> None:
        """Drop a finished game nobody watches from memory (it is reloaded from the store on demand)."""
        if room.outcome is not None and not room.subscribers and self.rooms.get(room.id) is room:
            room.close()
            del self.rooms[room.id]

    async def restore(self, previous_alive: float | None) -> int:
        """After a restart: charge each running clock up to *previous_alive* (the last heartbeat of
        the previous run; downtime is free) and load the games where the server must act (an
        engine to move, a clock to watch).  Returns the number of games loaded."""
        store = self.services.store
        now = self.services.now()
        if previous_alive is not None:
            await store.run(store.store.pause_clocks, previous_alive, now, _pause_stored_clock)
        loaded = 0
        for game_id in await store.run(store.store.in_progress):
            room = await self.get(game_id)
            if room is not None:
                loaded += 1
        return loaded

    async def watch_owners(self, every: float) -> None:
        """With several processes, for ever: renew the leases of the games this process owns (a
        lost one stops its clock and engine here), and take over games whose owner is gone (the
        game is read again from the store first), including games no process has loaded."""
        leases = self.services.leases
        assert leases is not None
        store = self.services.store
        rounds = 0
        while True:
            await asyncio.sleep(every)
            rounds += 1
            running = [room for room in list(self.rooms.values()) if room.needs_owner]
            owned = [room for room in running if room.owner]
            lost = await leases.renew_all([room.id for room in owned])  # one round trip for all
            for room in owned:
                if room.id in lost:
                    log.warning("game %s: lease lost; another process carries on", room.id, extra={"game": room.id})
                    room.disown()
            others = {room.id: room for room in running if not room.owner}
            for game_id in await leases.unowned(list(others)):
                if await leases.take(game_id) is not None:
                    await self.take_over(others[game_id])
            if rounds % 5 == 0:  # games in progress that no process has loaded
                try:
                    in_progress = await store.run(store.store.in_progress)
                except Exception as error:  # the database may be briefly unavailable
                    log.warning("cannot list the games in progress: %s", error)
                    continue
                # A bounded number a round: renewing this process's leases must not wait behind
                # loading a crowd of idle games.
                for game_id in (await leases.unowned([g for g in in_progress if g not in self.rooms]))[:LOAD_PER_ROUND]:
                    await self.get(game_id)

    async def take_over(self, room: GameRoom) -> None:
        """This process just took *room*'s lease: read the game as stored, then act for it."""
        store = self.services.store
        stored = await store.run(store.store.load, room.id)
        if stored is None:
            return
        fresh = await build_room(stored, self.services)
        leases = self.services.leases
        last_alive = None
        if leases is not None:
            # The previous owner was alive when it last renewed (at worst a lease's length ago);
            # read before this process renews the lease itself.
            renewed = await leases.last_renewed(room.id)
            last_alive = renewed if renewed is not None else self.services.now() - leases.seconds
        async with room.lock:
            room.adopt(fresh)
            room.owner = True
            if last_alive is not None:
                room.free_engine_downtime(last_alive)
            room.activate()
        log.info("game %s: taken over by this process", room.id, extra={"game": room.id})
        await room.check_time()

    async def release_all(self) -> None:
        """This process stops: give up its leases so that others take over at once."""
        leases = self.services.leases
        if leases is None:
            return
        for room in list(self.rooms.values()):
            if room.owner and not room.state.over:
                await leases.release(room.id)

    def close(self) -> None:
        """Stop every room's timers and tasks."""
        for room in self.rooms.values():
            room.close()


async def build_room(stored: StoredGame, services: Services) -> GameRoom:
    """The room of *stored*, built on the services' CPU executor (replaying and labelling every
    move is work for a thread, not the event loop), or in place without one."""
    if services.cpu is None:
        return GameRoom(stored, services)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(services.cpu, GameRoom, stored, services)


#: The version of :func:`stored_state`'s form.
STATE_VERSION = 1
#: What the game row keeps in columns and rows of its own (written in the same transaction).
_OWN_COLUMNS = ("moves", "clock", "status", "outcome")


def stored_state(state: GameState) -> dict[str, Any]:
    """The part of :meth:`GameState.to_dict` the ``state`` column keeps: all but the moves, the
    clock, the status and the outcome (see :class:`shogiban.web.store.GameRow`)."""
    # Those are left out before serialising: a long game's moves are not written out per action.
    data = replace(state, moves=(), clock=Clock(), outcome=None).to_dict()
    for key in _OWN_COLUMNS:
        data.pop(key, None)
    data["version"] = STATE_VERSION
    return data


def restored_state(data: dict[str, Any], columns: GameState) -> GameState:
    """*columns*' game (rebuilt from the columns and moves) with what the ``state`` column adds.

    :raises GameDataError: for a state of a version this server does not know, or damaged.
    """
    if data.get("version") != STATE_VERSION:
        raise GameDataError(f"stored game state of unknown version {excerpt(data.get('version'))}")
    whole = {key: value for key, value in data.items() if key != "version"}
    whole.update((key, value) for key, value in columns.to_dict().items() if key in _OWN_COLUMNS)
    return GameState.from_dict(whole).with_board(columns.board())


def _pause_stored_clock(data: dict[str, Any], until: float, now: float) -> dict[str, Any]:
    if not data or data.get("running") is None:
        return data
    try:
        clock = Clock.from_dict(data)
    except ValueError:
        return data  # a damaged clock is left as it is; the room reports it when it loads
    limit = min(until, now)
    if clock.is_flagged(limit):
        return data  # out of time before the server stopped: the room ends the game when it loads
    return clock.pause(limit).resume(now).to_dict()
