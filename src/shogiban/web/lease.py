"""One owner per running game across web processes: a lease in Redis.

Any process accepts a player's move (the database decides between racing processes), but a
game's clock (its flag fall) and its computer's turn must be carried out by exactly one process,
the game's *owner*.  Ownership is a Redis key ``PREFIX:owner:GAME`` holding the owner's process
id, set with ``NX`` and an expiry (:data:`LEASE_SECONDS`), renewed by its owner a few times per
lease.  Taking a lease also counts up ``PREFIX:fence:GAME``, a token that grows with every new
owner (returned by :meth:`RedisLeases.take`).  The writes themselves are fenced by the database:
a move is stored only on top of the ply before it, and an end only while the game is still in
play at its ply, so a process that lost its lease without knowing it (paused past the expiry)
cannot store over the new owner; its next renewal fails and it stops acting for the game.  When
an owner dies, its key expires and another process takes the game over: at most a lease's
length, plus one check, later.

Renewal and release only touch a key the process still holds (a short Lua script compares and
acts in one step).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

log = logging.getLogger(__name__)

#: Seconds a lease lasts unless renewed; an owner that dies is replaced within about this long.
LEASE_SECONDS = 3.0
#: How often an owner renews, and the others look for games without an owner, seconds.
CHECK_SECONDS = 1.0
#: Seconds Redis may take to answer a lease operation.
REDIS_SECONDS = 2.0

_TAKE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(redis.call('GET', KEYS[2]) or '0')
end
return 0
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
#: How long the time of an owner's last renewal is kept (read by the next owner after a death).
_RENEWED_MILLISECONDS = 3_600_000
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisLeases:
    """The leases of one web process (its id is *origin*).

    :param client: a ``redis.asyncio`` client.
    """

    def __init__(self, client: Any, origin: str, *, prefix: str = "shogiban", seconds: float = LEASE_SECONDS) -> None:
        self.client = client
        self.origin = origin
        self.prefix = prefix
        self.milliseconds = max(100, int(seconds * 1000))
        self.seconds = self.milliseconds / 1000
        self._take = client.register_script(_TAKE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def _keys(self, game_id: str) -> list[str]:
        return [f"{self.prefix}:owner:{game_id}", f"{self.prefix}:fence:{game_id}"]

    async def take(self, game_id: str) -> int | None:
        """Become (or stay) *game_id*'s owner: the fencing token, or None when another process
        owns it or Redis does not answer (then this process does not act for the game)."""
        try:
            token = await asyncio.wait_for(
                self._take(keys=self._keys(game_id), args=[self.origin, self.milliseconds]), REDIS_SECONDS)
        except Exception as error:
            log.warning("game %s: cannot take its lease (Redis: %s)", game_id, error, extra={"game": game_id})
            return None
        return int(token) or None

    async def renew_all(self, game_ids: Sequence[str]) -> set[str]:
        """Renew the leases of *game_ids* in one round trip (an owner of hundreds of games must
        not spend a lease's length renewing them one by one); returns the ids whose lease was
        lost (all of them when Redis does not answer)."""
        if not game_ids:
            return set()
        now = repr(time.time())
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for game_id in game_ids:
                    await self._renew(keys=[self._keys(game_id)[0], self._renewed_key(game_id)],
                                      args=[self.origin, self.milliseconds, now, _RENEWED_MILLISECONDS], client=pipe)
                kept = await asyncio.wait_for(pipe.execute(), REDIS_SECONDS)
        except Exception as error:
            log.warning("cannot renew %d leases (Redis: %s)", len(game_ids), error)
            return set(game_ids)
        return {game_id for game_id, renewed in zip(game_ids, kept, strict=True) if not renewed}

    async def unowned(self, game_ids: Sequence[str]) -> list[str]:
        """Those of *game_ids* whose lease nobody holds now, in one round trip (none when Redis
        does not answer: then nobody should take them)."""
        if not game_ids:
            return []
        try:
            holders = await asyncio.wait_for(
                self.client.mget([self._keys(game_id)[0] for game_id in game_ids]), REDIS_SECONDS)
        except Exception:
            return []
        return [game_id for game_id, holder in zip(game_ids, holders, strict=True) if holder is None]

    def _renewed_key(self, game_id: str) -> str:
        return f"{self.prefix}:renewed:{game_id}"

    async def last_renewed(self, game_id: str) -> float | None:
        """When *game_id*'s lease was last renewed (by its owner until now, read right after a
        take-over: when the dead owner was last known alive), or None if unknown."""
        try:
            value = await asyncio.wait_for(self.client.get(self._renewed_key(game_id)), REDIS_SECONDS)
            return None if value is None else float(value)
        except Exception:  # unknown: the caller assumes the worst case
            return None

    async def release(self, game_id: str) -> None:
        """Give the lease up (the game is over, or this process stops)."""
        try:
            await asyncio.wait_for(self._release(keys=self._keys(game_id)[:1], args=[self.origin]), REDIS_SECONDS)
        except Exception as error:  # it expires by itself
            log.debug("game %s: cannot release its lease (Redis: %s)", game_id, error, extra={"game": game_id})


__all__ = ["CHECK_SECONDS", "LEASE_SECONDS", "RedisLeases"]
