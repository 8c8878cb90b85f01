"""Telling the other web processes that a game changed: Redis pub/sub, when the server runs as
several processes (``shogiban serve --redis redis://HOST:PORT/N``).

Every change is stored first (the database is the truth, and a move is stored only on top of
the ply before it, so two processes never both accept one ply); then its process publishes a
small note, ``{"v": 1, "game": ID, "ply": N, "origin": PROCESS}``, on one channel.  Every other
process that has the game loaded reloads it from the database and sends its own clients the new
state.  Pub/sub rather than a stream: a note only says "look again", every process needs every
note, and a note missed while a process was away needs no replay, because a process that comes
back (and a client that reconnects) reads the stored game anyway.

A note is a :class:`ChangeNote` (a pydantic model), written by :func:`encode_note` and read by
:func:`decode_note`.  Notes from elsewhere are checked before use (a JSON object of the declared
version and fields, bounded in size), and a bad one, or one of another version, is dropped with
a warning.  Publishing has a deadline; a publish that fails leaves the
move stored, and the other processes' clients wait until their next reload.  While the listener
has lost Redis, :attr:`RedisBus.connected` is False and the rooms refuse changes (they would stay
unseen elsewhere); it reconnects by itself, with backoff, and then has every loaded game read
again (``on_resume``) before changes are taken again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from shogiban.web.schema import GameId, Ply, excerpt

log = logging.getLogger(__name__)

#: The version of the notes this server writes and reads.
NOTE_VERSION = 1
#: Longest note accepted, bytes.
MAX_NOTE_BYTES = 512
#: Seconds Redis may take to answer at start and to take a note.
REDIS_SECONDS = 2.0


class BusError(RuntimeError):
    """Redis cannot be reached at start (the message says which address and how to fix it)."""


class ChangeNote(BaseModel):
    """A change note: game *game* now has *ply* moves stored, by process *origin*.  ``v`` is the
    version of the note's form; a process reads only its own version (a rolling upgrade that
    changes the form must change ``v``, and old and new processes then ignore each other's notes
    until the old ones are gone, reading the database instead at their next reload)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    v: int = NOTE_VERSION
    game: GameId
    ply: Ply
    origin: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class NoteError(ValueError):
    """A note that is not one this process reads: ``code`` is ``unknown_version`` or ``bad_note``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def encode_note(note: ChangeNote) -> str:
    """*note* as published: the one place notes are written.

    >>> encode_note(ChangeNote(game="g1g1", ply=3, origin="p"))
    '{"v":1,"game":"g1g1","ply":3,"origin":"p"}'
    """
    return note.model_dump_json()


def decode_note(data: object) -> ChangeNote:
    """The note in *data* (as Redis delivers it: bytes or text): the one place notes are read.

    :raises NoteError: ``unknown_version`` for a note of another version (or none),
        ``bad_note`` for anything else that is not a valid note.
    """
    if isinstance(data, bytes | bytearray):
        if len(data) > MAX_NOTE_BYTES:
            raise NoteError("bad_note", f"note too long ({len(data)} bytes)")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise NoteError("bad_note", f"note is not utf-8: {excerpt(data)}") from None
    if not isinstance(data, str):
        raise NoteError("bad_note", f"note is not text: {excerpt(data)}")
    if len(data) > MAX_NOTE_BYTES:
        raise NoteError("bad_note", f"note too long ({len(data)} characters)")
    try:
        value = json.loads(data)  # at most MAX_NOTE_BYTES: too short to nest dangerously deep
    except ValueError:
        raise NoteError("bad_note", f"note is not json: {excerpt(data)}") from None
    if not isinstance(value, dict):
        raise NoteError("bad_note", f"note is not a json object: {excerpt(data)}")
    version = value.get("v")
    if type(version) is not int or version != NOTE_VERSION:  # type(): true is not version 1
        raise NoteError("unknown_version", f"note of version {excerpt(version)} (this process reads {NOTE_VERSION})")
    try:
        return ChangeNote.model_validate(value)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "note"
        raise NoteError("bad_note", f"invalid {where}: {excerpt(first.get('input'))}") from None


def make_note(game_id: str, ply: int, origin: str) -> str:
    """A change note as sent.

    >>> make_note("g1g1", 3, "p")
    '{"v":1,"game":"g1g1","ply":3,"origin":"p"}'
    """
    return encode_note(ChangeNote(game=game_id, ply=ply, origin=origin))


def read_note(data: object) -> tuple[str, int, str] | None:
    """``(game, ply, origin)`` of a received note, or None if it is not one of ours.

    >>> read_note(make_note("game1", 3, "p")), read_note(b"nonsense"), read_note('{"v":2}')
    (('game1', 3, 'p'), None, None)
    """
    try:
        note = decode_note(data)
    except NoteError:
        return None
    return note.game, note.ply, note.origin


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
    :param on_resume: called when Redis answers again after it was lost (notes sent meanwhile
        never arrived: the games loaded here must be read again).
    :param prefix: the channel's prefix (several deployments may share one Redis).
    """

    def __init__(
        self,
        url: str,
        on_change: Callable[[str, int], Awaitable[None]],
        *,
        on_resume: Callable[[], Awaitable[None]] | None = None,
        prefix: str = "shogiban",
    ) -> None:
        self.url = url
        self.on_change = on_change
        self.on_resume = on_resume
        self.channel = f"{prefix}:games"
        self.origin = secrets.token_hex(8)
        self.connected = False
        """Whether this process hears the others' notes now (it refuses changes while not:
        another process would never learn of them)."""
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
        self.connected = True
        self._listener = asyncio.create_task(self._listen())

    async def publish(self, game_id: str, ply: int) -> None:
        """Tell the other processes that *game_id* changed (stored already); never raises."""
        if self._client is None:
            return
        try:
            await asyncio.wait_for(self._client.publish(self.channel, make_note(game_id, ply, self.origin)),
                                   REDIS_SECONDS)
        except Exception as error:  # stored already: the others see it at their next reload
            # (Redis really gone is the listener's to find out: it breaks, and changes are
            # refused until it is back; a slow answer here must not refuse them for good.)
            log.warning("game %s: cannot tell the other processes (Redis: %s)", game_id, error,
                        extra={"game": game_id})

    async def _listen(self) -> None:
        delay = 0.1
        lost = False
        while True:
            pubsub = self._client.pubsub()
            try:
                await asyncio.wait_for(pubsub.subscribe(self.channel), REDIS_SECONDS)
                delay = 0.1
                if lost or not self.connected:
                    lost = False
                    log.info("Redis answers again: reading the games loaded here again")
                    if self.on_resume is not None:
                        try:
                            await self.on_resume()
                        except Exception:  # a failed re-read must not stop the listener
                            log.exception("re-reading the games after Redis came back failed")
                    self.connected = True
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        note = decode_note(message.get("data"))
                    except NoteError as error:  # another version, or not ours: never stops the listener
                        log.warning("dropped a note on %s (%s): %s", self.channel, error.code, error)
                        continue
                    game_id, ply = note.game, note.ply
                    if note.origin != self.origin:
                        try:
                            await self.on_change(game_id, ply)
                        except Exception:  # one game's reload must not stop the listener
                            log.exception("game %s: reloading after a change elsewhere failed", game_id,
                                          extra={"game": game_id})
            except asyncio.CancelledError:
                raise
            except Exception as error:
                lost, self.connected = True, False
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


__all__ = ["BusError", "ChangeNote", "NoteError", "RedisBus", "decode_note", "encode_note", "make_note", "read_note",
           "redis_problem"]
