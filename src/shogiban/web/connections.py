"""Websocket clients of the game rooms: who is let in, and what each may hold of the server's memory.

Admission (:class:`Admission`): a game's players are always let in; spectators are counted per
game (:attr:`ServerLimits.spectators_per_game`) and per address across the server
(:attr:`ServerLimits.spectators_per_address`), so strangers on a public watch link can never
keep the players out.  A player's own connections are capped per seat
(:attr:`ServerLimits.connections_per_seat`: a few browser tabs, not hundreds).

Each :class:`Connection` has an outgoing queue written by its own task, so a slow client never
delays the others.  The queue is counted in bytes of encoded text (one encoding shared by every
client that gets the same message): a client whose queue passes
:attr:`ServerLimits.queued_bytes`, or that takes longer than :attr:`ServerLimits.send_seconds`
to take one message, is dropped and what it held is freed at once.

>>> admission = Admission(ServerLimits(spectators_per_game=1))
>>> admission.admit("1.2.3.4", "game", Role.SPECTATOR), admission.admit("5.6.7.8", "game", Role.SPECTATOR)
(None, 'too many people are watching this game')
>>> admission.admit("5.6.7.8", "game", Role.BLACK)  # a player always gets in
>>> admission.leave("1.2.3.4", "game", Role.SPECTATOR); admission.admit("5.6.7.8", "game", Role.SPECTATOR)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from shogiban.web.messages import ServerMessage, encode_message, error_message
from shogiban.web.rates import ServerLimits, TokenBucket
from shogiban.web.rooms import Role
from shogiban.web.schema import encode_json

log = logging.getLogger(__name__)

_CLOSE = object()
"""Queued after the last message of a client being closed for misbehaving."""


class _Encoded:
    """The last message encoded, kept by identity: a broadcast hands the same message object to
    every client of a role, which is then encoded once, not once per client."""

    message: object = None
    text: str = ""


_last = _Encoded()


def encoded(message: ServerMessage | Mapping[str, Any]) -> str:
    """*message* as JSON text, reusing the encoding of the same object just before.

    Server messages are models, written by :func:`~shogiban.web.messages.encode_message`; a
    plain mapping (data already shaped as JSON, as tests of the queue send) is written as it is.
    """
    if _last.message is not message:
        _last.text = encode_message(message) if isinstance(message, ServerMessage) else encode_json(message)
        _last.message = message  # held, so its id cannot be reused by another object meanwhile
    return _last.text


class Admission:
    """Counts the open connections; see the module docstring."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._spectators_of_game: Counter[str] = Counter()
        self._spectators_of_address: Counter[str] = Counter()
        self._seats: Counter[tuple[str, Role]] = Counter()

    def admit(self, address: str, game_id: str, role: Role) -> str | None:
        """Count a new connection of *role* from *address* to *game_id*, or say why it is refused."""
        if role is not Role.SPECTATOR:
            if self._seats[game_id, role] >= self.limits.connections_per_seat:
                return "too many connections for this seat: close some of your tabs"
            self._seats[game_id, role] += 1
            return None
        if self._spectators_of_game[game_id] >= self.limits.spectators_per_game:
            return "too many people are watching this game"
        if self._spectators_of_address[address] >= self.limits.spectators_per_address:
            return "too many connections from your address"
        self._spectators_of_game[game_id] += 1
        self._spectators_of_address[address] += 1
        return None

    def leave(self, address: str, game_id: str, role: Role) -> None:
        """Forget a connection counted by :meth:`admit` with the same arguments."""
        if role is not Role.SPECTATOR:
            _decrement(self._seats, (game_id, role))
        else:
            _decrement(self._spectators_of_game, game_id)
            _decrement(self._spectators_of_address, address)

    def open_connections(self) -> int:
        """Every counted connection (for tests and logs)."""
        return sum(self._spectators_of_game.values()) + sum(self._seats.values())


def _decrement(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class Connection:
    """A websocket client: its role and an outgoing queue of encoded messages written by its own
    task (:meth:`writer`); see the module docstring."""

    def __init__(
        self, websocket: WebSocket, role: Role, *, max_bytes: int = 4 << 20, send_seconds: float = 10.0,
    ) -> None:
        self.websocket = websocket
        self.role: Role = role
        self.max_bytes = max_bytes
        self.send_seconds = send_seconds
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.queued_bytes = 0
        self.closed = False
        self.closing = False
        """A close frame is queued behind the last messages (the client misbehaved)."""
        self.dropped = False
        """The client stopped reading and was dropped."""

    def send(self, message: ServerMessage | Mapping[str, Any]) -> None:
        """Queue *message*; a client that falls too far behind is dropped."""
        if self.closed:
            return
        text = encoded(message)
        if self.queued_bytes + len(text) > self.max_bytes:
            self.drop(f"its queue passed {self.max_bytes} bytes")
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    def close_after_queue(self) -> None:
        """Send what is queued, then close with 1008 (policy violation)."""
        if not self.closed:
            self.closed = self.closing = True
            self.queue.put_nowait(_CLOSE)

    def drop(self, why: str) -> None:
        """Give up on a client that does not read: free its queue and close (1008)."""
        if self.dropped:
            return
        log.info("dropping a websocket client: %s", why)
        self.dropped = self.closed = self.closing = True
        self._clear()
        self.queue.put_nowait(_CLOSE)

    def _clear(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0

    async def writer(self) -> None:
        """Send queued messages until closed; a message the client does not take within
        ``send_seconds`` drops it."""
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.websocket.close(code=1008), self.send_seconds)
                    return
                self.queued_bytes -= len(item)
                try:
                    await asyncio.wait_for(self.websocket.send_text(item), self.send_seconds)
                except TimeoutError:
                    self.drop(f"it took no message for {self.send_seconds:g} s")
                except (WebSocketDisconnect, RuntimeError, OSError):
                    self.closed = True  # the client went away: nothing more to send
                    return
        finally:
            self._clear()


__all__ = ["Admission", "Connection", "encoded"]


async def read_messages(
    connection: Connection, bucket: TokenBucket, patience: int, handle: Callable[[str | bytes | None], Awaitable[None]],
    *, too_fast: str = "too many messages: slow down",
) -> None:
    """Read *connection*'s messages until it closes, each taken from *bucket* (past its rate the
    message is refused with ``too_fast``, and the connection closed after *patience* refusals in
    a row) and handed to *handle*, which answers it (its own refusals included)."""
    refused = 0
    try:
        while not connection.closed:
            received = await connection.websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            if not bucket.take(time.monotonic()):
                refused += 1
                connection.send(error_message("too_fast", too_fast))
                if refused >= patience:
                    connection.close_after_queue()
                continue
            refused = 0
            await handle(received.get("text") or received.get("bytes"))
    except WebSocketDisconnect:
        pass
    finally:
        connection.closed = True


async def run_connection(connection: Connection, reader: Coroutine[Any, Any, None]) -> None:
    """Run *connection*'s writer and its *reader* until either ends (a client dropped by its
    writer may never send again: its reader is not waited for); a closing connection's last
    messages and close frame get a few seconds to go out."""
    writer = asyncio.create_task(connection.writer())
    reading = asyncio.create_task(reader)
    try:
        await asyncio.wait({reading, writer}, return_when=asyncio.FIRST_COMPLETED)
        if not writer.done() and connection.closing:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), timeout=5)  # let the close frame go out
    finally:
        for task in (reading, writer):
            task.cancel()
        connection.closed = True
