"""How much one client may ask of the server: :class:`ServerLimits` and the token buckets that
enforce its rates.

The server has no accounts, so rates are counted per websocket connection (messages) and per
client address (new games, record uploads).  Behind a reverse proxy the address is the one the
proxy reports in ``X-Forwarded-For``: uvicorn believes it from 127.0.0.1 by default.

>>> bucket = TokenBucket(capacity=2, per_second=1.0)
>>> [bucket.take(now=0.0) for _ in range(3)], bucket.take(now=1.0)
([True, True, False], True)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The server's limits on what clients may ask (sizes are in :mod:`shogiban.web.schema` and
    :class:`shogiban.web.records.RecordLimits`)."""

    messages_per_second: float = 20.0
    """Websocket messages a connection may send per second, on average."""
    message_burst: int = 60
    """... and at once."""
    refusals_before_close: int = 100
    """Messages refused in a row for their rate before the connection is closed (1008)."""
    spectators_per_game: int = 200
    """Spectators' websocket connections one game accepts (its players always get in)."""
    spectators_per_address: int = 32
    """Spectators' websocket connections one address may hold across the server."""
    connections_per_seat: int = 8
    """Websocket connections one player may hold to their seat (browser tabs)."""
    queued_bytes: int = 4 << 20
    """Encoded messages waiting for one websocket client, bytes, before it is dropped."""
    send_seconds: float = 10.0
    """Seconds a websocket client may take to take one message before it is dropped."""
    games_per_minute: float = 30.0
    """New games one address may start per minute, on average."""
    game_burst: int = 20
    """... and at once."""
    uploads_per_minute: float = 60.0
    """Record uploads (viewing, converting, downloading) one address may send per minute."""
    upload_burst: int = 20
    """... and at once."""
    analyses_per_minute: float = 10.0
    """Whole-game analysis requests (``POST`` of a game's or a record's analysis) one address
    may send per minute, on average: 10, ..."""
    analysis_burst: int = 10
    """... and 10 at once (over that: ``too_fast``, 429).  The analyses themselves are bounded by
    the analysis queue (:class:`shogiban.web.game_analysis.AnalysisSettings`)."""
    parse_workers: int = 2
    """Processes reading records."""
    parse_seconds: float = 10.0
    """Seconds a record may take to read before its worker is killed."""
    parse_memory: int = 512 * 1024 * 1024
    """Address space of a record worker, bytes."""
    solver_workers: int = 1
    """Processes solving the editor's positions (heavy work, never in the pool light requests use)."""
    solves_waiting: int = 4
    """Solves that may wait for a solver process (more are answered ``busy``)."""
    solves_per_address: int = 1
    """Solves one address may have running or waiting at once."""
    tracked_addresses: int = 10_000
    """Client addresses whose rates are remembered (the least recent are forgotten)."""


class TokenBucket:
    """*capacity* tokens, refilled at *per_second*; each request takes one.  Times are explicit
    (seconds, any monotonic origin), so the bucket is tested without waiting."""

    __slots__ = ("capacity", "per_second", "tokens", "updated")

    def __init__(self, capacity: float, per_second: float) -> None:
        self.capacity = float(capacity)
        self.per_second = per_second
        self.tokens = float(capacity)
        self.updated: float | None = None

    def take(self, now: float) -> bool:
        """Take a token at *now*; False (nothing taken) when the bucket is empty."""
        if self.updated is not None and now > self.updated:
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.per_second)
        if self.updated is None or now > self.updated:
            self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class RateLimiter:
    """One :class:`TokenBucket` per key (a client address), remembering at most *max_keys*.

    >>> limiter = RateLimiter(capacity=1, per_second=0.5, max_keys=2)
    >>> limiter.allow("a", 0.0), limiter.allow("a", 1.0), limiter.allow("b", 1.0), limiter.allow("a", 2.0)
    (True, False, True, True)
    """

    def __init__(self, capacity: float, per_second: float, max_keys: int = 10_000) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, key: str, now: float) -> bool:
        """Whether *key* may make one more request at *now* (and count it)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.capacity, self.per_second)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take(now)


class ConcurrencyLimit:
    """At most *per_key* things at once for one key (a client address).

    >>> limit = ConcurrencyLimit(per_key=1)
    >>> limit.enter("a"), limit.enter("a"), limit.enter("b")
    (True, False, True)
    >>> limit.leave("a"); limit.enter("a")
    True
    """

    def __init__(self, per_key: int) -> None:
        self.per_key = per_key
        self._held: dict[str, int] = {}

    def enter(self, key: str) -> bool:
        """Count one more for *key*, or False (nothing counted) when it holds its share."""
        if self._held.get(key, 0) >= self.per_key:
            return False
        self._held[key] = self._held.get(key, 0) + 1
        return True

    def leave(self, key: str) -> None:
        """One of *key*'s things ended."""
        left = self._held.get(key, 0) - 1
        if left > 0:
            self._held[key] = left
        else:
            self._held.pop(key, None)
