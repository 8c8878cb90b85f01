"""Analyses already made: a position searched by the same engine to the same limit and MultiPV
is not searched again.

The key is (engine, limit, MultiPV, position without move number).  :class:`AnalysisCache`
keeps them in memory; :class:`SqliteAnalysisCache` also in an SQLite file, which several worker
processes may share (SQLite locks the file; writes wait up to 30 s), and which also remembers
the records already analysed (:meth:`SqliteAnalysisCache.mark_done`) so that a folder run again
skips them.

>>> from shogiban.engines import Score
>>> cache = AnalysisCache()
>>> key = cache_key("builtin:8", Limit(depth=3), 1, "9/9/9/9/9/9/9/9/9 b -")
>>> cache.get(key) is None
True
>>> cache.put(key, (Line(Score(cp=10)),)); cache.get(key)[0].score, cache.hits, cache.misses
(Score(cp=10), 1, 1)
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from shogiban.analysis.positions import AnalysisDataError, Line
from shogiban.engines.limit import Limit, to_seconds
from shogiban.errors import ShogibanError
from shogiban.notation.excerpt import excerpt


class CacheKey(NamedTuple):
    engine: str
    limit: str
    multipv: int
    position: str


def limit_text(limit: Limit) -> str:
    """The limit as short text, for cache keys and reports: ``depth 4``, ``movetime 0.5``,
    ``nodes 10000`` (the fields that are set, in that order)."""
    parts: list[str] = []
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.nodes is not None:
        parts.append(f"nodes {limit.nodes}")
    if limit.time is not None:
        parts.append(f"movetime {to_seconds(limit.time):g}")
    for name in ("btime", "wtime", "byoyomi", "binc", "winc"):
        value = getattr(limit, name)
        if value is not None:
            parts.append(f"{name} {to_seconds(value):g}")
    if limit.infinite:
        parts.append("infinite")
    return " ".join(parts) or "none"


def cache_key(engine: str, limit: Limit, multipv: int, position: str) -> CacheKey:
    """The key of *position* (:func:`~shogiban.analysis.positions.position_key`) analysed by
    *engine* to *limit* with *multipv* lines."""
    return CacheKey(engine, limit_text(limit), multipv, position)


class AnalysisCache:
    """Lines by :class:`CacheKey`, in memory; counts its hits and misses."""

    def __init__(self) -> None:
        self._entries: dict[CacheKey, tuple[Line, ...]] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: CacheKey) -> tuple[Line, ...] | None:
        """The lines stored for *key*, if any."""
        with self._lock:
            lines = self._entries.get(key)
            if lines is None:
                lines = self._load(key)
                if lines is not None:
                    self._entries[key] = lines
            if lines is None:
                self.misses += 1
            else:
                self.hits += 1
            return lines

    def put(self, key: CacheKey, lines: tuple[Line, ...]) -> None:
        """Store *lines* for *key*."""
        with self._lock:
            self._entries[key] = lines
            self._store(key, lines)

    def __len__(self) -> int:
        return len(self._entries)

    def _load(self, key: CacheKey) -> tuple[Line, ...] | None:
        return None

    def _store(self, key: CacheKey, lines: tuple[Line, ...]) -> None:
        pass

    def close(self) -> None:
        """Release the storage (nothing to do in memory)."""


class CacheError(ShogibanError):
    """A cache file that cannot be used (not SQLite, of another schema, a folder, unreadable)."""

    code = "bad_cache"


_TABLES = {"positions": "engine, lim, multipv, position, lines", "records": "key, output"}


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


class SqliteAnalysisCache(AnalysisCache):
    """An :class:`AnalysisCache` kept in the SQLite file *path* as well (created if missing).

    A file that cannot be used is refused when opened (:class:`CacheError`).  Should the file
    fail later (a disk error, a lock held too long), the problem is reported once by *report*
    (default: one line on standard error) and the cache goes on in memory; a damaged entry is
    only a miss (searched again, and overwritten).

    :raises CacheError: if *path* is not a cache file this version can use.
    """

    def __init__(self, path: str | Path, *, report: Callable[[str], None] = _stderr) -> None:
        super().__init__()
        self.path = Path(path)
        self.report = report
        self.problem: str | None = None
        """Why the file was set aside during the run, if it was."""
        if self.path.is_dir():
            raise CacheError(f"cannot use the cache {excerpt(str(self.path))}: it is a folder")
        try:
            self._db = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
        except sqlite3.Error as error:
            raise CacheError(f"cannot use the cache {excerpt(str(self.path))}: {error}") from None
        try:
            # A file of another schema may have tables of these names with other columns: find
            # out before writing anything to it.
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            for table, columns in _TABLES.items():
                if table in tables:
                    self._db.execute(f"SELECT {columns} FROM {table} LIMIT 0").fetchall()
            with self._db:
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS positions (engine TEXT, lim TEXT, multipv INTEGER, position TEXT,"
                    " lines TEXT NOT NULL, PRIMARY KEY (engine, lim, multipv, position))"
                )
                self._db.execute("CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, output TEXT)")
        except sqlite3.Error as error:
            self._db.close()
            raise CacheError(f"cannot use the cache {excerpt(str(self.path))}: {error}") from None

    def _failed(self, error: sqlite3.Error) -> None:
        if self.problem is None:
            self.problem = str(error)
            self._db.close()
            self.report(f"shogiban: the cache {excerpt(str(self.path))} failed ({error}); going on without it")

    def _load(self, key: CacheKey) -> tuple[Line, ...] | None:
        if self.problem is not None:
            return None
        try:
            row = self._db.execute(
                "SELECT lines FROM positions WHERE engine = ? AND lim = ? AND multipv = ? AND position = ?",
                tuple(key),
            ).fetchone()
        except sqlite3.Error as error:
            self._failed(error)
            return None
        if row is None:
            return None
        try:
            items = json.loads(row[0])
            if not isinstance(items, list):
                return None
            return tuple(Line.from_json(item) for item in items)
        except (ValueError, TypeError, AttributeError, OverflowError, RecursionError, AnalysisDataError):
            return None  # a damaged entry is searched again, and overwritten

    def _store(self, key: CacheKey, lines: tuple[Line, ...]) -> None:
        if self.problem is not None:
            return
        text = json.dumps([line.to_json() for line in lines], separators=(",", ":"))
        try:
            with self._db:
                self._db.execute("INSERT OR REPLACE INTO positions VALUES (?, ?, ?, ?, ?)", (*key, text))
        except sqlite3.Error as error:
            self._failed(error)

    def is_done(self, record_key: str) -> str | None:
        """The output written for the record *record_key* (see :meth:`mark_done`), if any."""
        with self._lock:
            if self.problem is not None:
                return None
            try:
                row = self._db.execute("SELECT output FROM records WHERE key = ?", (record_key,)).fetchone()
            except sqlite3.Error as error:
                self._failed(error)
                return None
        return None if row is None else str(row[0])

    def mark_done(self, record_key: str, output: str) -> None:
        """Remember that the record *record_key* was analysed and written to *output*."""
        with self._lock:
            if self.problem is not None:
                return
            try:
                with self._db:
                    self._db.execute("INSERT OR REPLACE INTO records VALUES (?, ?)", (record_key, output))
            except sqlite3.Error as error:
                self._failed(error)

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()


def open_cache(path: str | Path | None, report: Callable[[str], None] = _stderr) -> AnalysisCache:
    """The cache in the file *path*, or in memory (*path* None); a file that cannot be used is
    reported by *report* in one line and set aside (left as it is): the cache is then in memory."""
    if path is None:
        return AnalysisCache()
    try:
        return SqliteAnalysisCache(path, report=report)
    except CacheError as error:
        report(f"shogiban: {error}; going on without it")
        return AnalysisCache()


__all__ = [
    "AnalysisCache",
    "CacheError",
    "CacheKey",
    "SqliteAnalysisCache",
    "cache_key",
    "limit_text",
    "open_cache",
]
