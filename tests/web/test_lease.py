"""The leases of several web processes, against a real redis-server: all of a process's leases
are renewed in one round trip, and the games nobody owns are found in one."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from tests.web.live_server import start_redis

from shogiban.web.lease import RedisLeases

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server")


def test_renewing_and_finding_free_games_in_bulk(tmp_path: Path) -> None:
    redis_asyncio = pytest.importorskip("redis.asyncio", reason="needs the redis package")
    server = start_redis(tmp_path)

    async def main() -> None:
        client = redis_asyncio.from_url(server.url)
        try:
            mine = RedisLeases(client, "p1", seconds=0.4)
            theirs = RedisLeases(client, "p2", seconds=30)
            games = [f"game{n:04d}" for n in range(300)]
            for game in games[:200]:
                assert await mine.take(game) is not None
            assert await theirs.take(games[200]) is not None
            assert await mine.renew_all(games[:200]) == set()
            assert await mine.unowned(games) == games[201:]  # neither mine nor theirs
            assert await theirs.renew_all([games[0], games[200]]) == {games[0]}  # not its own
            renewed = await mine.last_renewed(games[0])
            assert renewed is not None
            await asyncio.sleep(0.6)  # not renewed for longer than the lease: all expire
            assert await mine.renew_all(games[:3]) == set(games[:3])
            assert games[0] in await theirs.unowned(games[:3])
        finally:
            await client.aclose()

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_without_redis_every_lease_counts_as_lost_and_no_game_as_free(tmp_path: Path) -> None:
    redis_asyncio = pytest.importorskip("redis.asyncio", reason="needs the redis package")
    from tests.web.live_server import free_port

    async def main() -> None:
        client = redis_asyncio.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.5)
        try:
            leases = RedisLeases(client, "p1")
            assert await leases.renew_all(["a", "b"]) == {"a", "b"}
            assert await leases.unowned(["a", "b"]) == []
        finally:
            await client.aclose()

    asyncio.run(main())
