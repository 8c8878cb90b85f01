"""Telling the other web processes that a game changed: Redis pub/sub, when the server runs as
several processes (``shogiban serve --redis redis://HOST:PORT/N``).

Every change is stored first (the database is the truth, and a move is stored only on top of
the ply before it, so two processes never both accept one ply); then its process publishes a
small note, ``{"v": 1, "game": ID, "ply": N, "origin": PROCESS}``, on one channel.  Every other
process that has the game loaded reloads it from the database and sends its own clients the new
state.  Pub/sub rather than a stream: a note only says "look again", every process needs every
note, and a note missed while a process was away needs no replay, because a process that comes
back (and a client that reconnects) reads the stored game anyway.

Notes from elsewhere are checked before use (a JSON object of the declared version and fields,
bounded in size), and a bad one is dropped with a warning.  Publishing has a deadline; when Redis
is unreachable the move is already stored, so only the other processes' clients wait until their
next reload.  The listener reconnects by itself, with backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

#: The version of the notes this server writes and reads.
NOTE_VERSION = 1
#: Longest note accepted, bytes.
MAX_NOTE_BYTES = 512
#: Seconds Redis may take to answer at start and to take a note.
REDIS_SECONDS = 2.0


class BusError(RuntimeError):
    """Redis cannot be reached at start (the message says which address and how to fix it)."""


def make_note(game_id: str, ply: int, origin: str) -> str:
    """A change note as sent.

    >>> make_note("g1", 3, "p")
    '{"v":1,"game":"g1","ply":3,"origin":"p"}'
    """
    return json.dumps({"v": NOTE_VERSION, "game": game_id, "ply": ply, "origin": origin}, separators=(",", ":"))


def read_note(data: object) -> tuple[str, int, str] | None:
    """``(game, ply, origin)`` of a received note, or None if it is not one of ours.

    >>> read_note(make_note("game1", 3, "p")), read_note(b"nonsense"), read_note('{"v":2}')
    (('game1', 3, 'p'), None, None)
    """
    if isinstance(data, bytes | bytearray):
        if len(data) > MAX_NOTE_BYTES:
            return None
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(data, str) or len(data) > MAX_NOTE_BYTES:
        return None
    try:
        note = json.loads(data)
    except ValueError:
        return None
    if not isinstance(note, dict) or note.get("v") != NOTE_VERSION:
        return None
    game, ply, origin = note.get("game"), note.get("ply"), note.get("origin")
    if not (isinstance(game, str) and 4 <= len(game) <= 32 and game.isalnum()):
        return None
    if not (isinstance(ply, int) and not isinstance(ply, bool) and 0 <= ply <= 1_000_000 and isinstance(origin, str)):
        return None
    return game, ply, origin


def redis_problem(url: str) -> str | None:
    """Why Redis at *url* cannot be used (one line, with what to do), or None when it answers:
    asked before the server starts, so that a wrong address is said plainly."""
    try:
        import redis
    except ImportError:
        return "--redis needs the redis package: pip install 'shogiban[scale]'"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=REDIS_SECONDS, socket_timeout=REDIS_SECONDS)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as error:
        return (f"cannot reach Redis at {url} ({error}): start redis-server there, "
                "or give --redis the address of a running one")
    return None


class RedisBus:
    """The change notes of one web process (see the module docstring).

    :param url: ``redis://HOST:PORT/N``.
    :param on_change: called with ``(game_id, ply)`` for each note from another process.
    :param prefix: the channel's prefix (several deployments may share one Redis).
    """

    def __init__(self, url: str, on_change: Callable[[str, int], Awaitable[None]], *, prefix: str = "shogiban") -> None:
        self.url = url
        self.on_change = on_change
        self.channel = f"{prefix}:games"
        self.origin = secrets.token_hex(8)
        self._client: Any = None
        self._listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect and listen.

        :raises BusError: if Redis does not answer within :data:`REDIS_SECONDS`.
        """
        import redis.asyncio

        self._client = redis.asyncio.from_url(self.url, socket_connect_timeout=REDIS_SECONDS,
                                              socket_timeout=REDIS_SECONDS)
        try:
            await asyncio.wait_for(self._client.ping(), REDIS_SECONDS)
        except Exception as error:
            await self._client.aclose()
            raise BusError(f"cannot reach Redis at {self.url} ({error}): start redis-server there, "
                           "or give --redis the address of a running one") from None
        self._listener = asyncio.create_task(self._listen())

    async def publish(self, game_id: str, ply: int) -> None:
        """Tell the other processes that *game_id* changed (stored already); never raises."""
        if self._client is None:
            return
        try:
            await asyncio.wait_for(self._client.publish(self.channel, make_note(game_id, ply, self.origin)),
                                   REDIS_SECONDS)
        except Exception as error:  # stored already: the others see it at their next reload
            log.warning("game %s: cannot tell the other processes (Redis: %s)", game_id, error,
                        extra={"game": game_id})

    async def _listen(self) -> None:
        delay = 0.1
        while True:
            pubsub = self._client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                delay = 0.1
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    note = read_note(message.get("data"))
                    if note is None:
                        log.warning("dropped a note that is not shogiban's on %s", self.channel)
                        continue
                    game_id, ply, origin = note
                    if origin != self.origin:
                        try:
                            await self.on_change(game_id, ply)
                        except Exception:  # one game's reload must not stop the listener
                            log.exception("game %s: reloading after a change elsewhere failed", game_id,
                                          extra={"game": game_id})
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("lost Redis (%s): listening again in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    @property
    def client(self) -> Any:
        """The ``redis.asyncio`` client (shared with the leases), once started."""
        return self._client

    async def reachable(self) -> bool:
        """Whether Redis answers a ping within :data:`REDIS_SECONDS`."""
        try:
            await asyncio.wait_for(self._client.ping(), REDIS_SECONDS)
        except Exception:
            return False
        return True

    async def close(self) -> None:
        """Stop listening and disconnect."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()


__all__ = ["BusError", "RedisBus", "make_note", "read_note", "redis_problem"]
