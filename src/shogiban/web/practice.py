"""Learning from one's mistakes: judging a move tried instead of a mistake
(``POST /api/practice/judge``).

The analysis page turns each mistake and blunder of a reviewed game into an exercise: the
position before it, "find a better move".  The learner's move is judged here against the
engine's best move in that position: one search restricted to the two moves (MultiPV 2, so both
are searched to the same depth) by the live-analysis engines (:mod:`shogiban.web.live_analysis`:
an engine process of this host, or a worker), and the move is accepted when the analysis
would not label it (its loss of win rate against the best move is below the inaccuracy
threshold of :mod:`shogiban.analysis.classify`, 10 points).  The best move itself is accepted
without a search.

Bounds: the position is replayed off the event loop; each judgement searches
:data:`JUDGE_SECONDS`; the engines' bound applies (``busy``, 503); each address may ask
:data:`JUDGES_PER_MINUTE` times a minute (``too_fast``, 429).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

from shogiban.analysis.classify import classify
from shogiban.board import Board
from shogiban.engines.results import InfoDict
from shogiban.errors import EngineError
from shogiban.move import Move
from shogiban.web.live_analysis import LiveBusyError, LiveSearches, live_position
from shogiban.web.rates import RateLimiter
from shogiban.web.routing import Checked, CheckedRoute, client_address
from shogiban.web.schema import PRACTICE, RequestError, excerpt

#: Seconds one judgement searches the two moves.
JUDGE_SECONDS = 1.0
#: Judgements one address may ask for per minute (and at once).
JUDGES_PER_MINUTE = 30


def judge_position(sfen: str, moves: list[str], usi: str, best: str) -> tuple[Board, Move, Move]:
    """The position to judge in, the tried move and the best one (replays: off the event loop).

    :raises RequestError: ``invalid_sfen`` / ``invalid_move`` for the position, ``invalid_move``
        for a tried or best move that is not legal there.
    """
    board = live_position(sfen, moves)
    try:
        return board, board.parse_usi(usi), board.parse_usi(best)
    except ValueError as error:
        raise RequestError("invalid_move", f"not a legal move here: {excerpt(str(error), 120)}") from None


def loss_of(lines: list[InfoDict], tried: Move, best: Move) -> float | None:
    """The win rate (of the side to move) *tried* loses against *best* in the lines of one
    search of the two, never below 0; None when the search did not give both."""
    rates: dict[Move, float] = {}
    for line in lines:
        pv = line.get("pv") or []
        if pv and "score" in line:
            rates[pv[0]] = line["score"].relative.win_rate()
    if tried not in rates or best not in rates:
        return None
    return max(0.0, rates[best] - rates[tried])


async def judge(searches: LiveSearches, board: Board, tried: Move, best: Move,
                seconds: float = JUDGE_SECONDS) -> dict[str, Any]:
    """Whether *tried* is good enough against *best* (see the module docstring).

    :raises LiveBusyError: the engines run their share of searches.
    :raises EngineError: the engine failed, or its search did not give both moves.
    """
    if tried == best:
        return {"accepted": True, "loss": 0.0, "label": None}
    lines: list[InfoDict] = []
    async for found in searches.search(board, 2, seconds, (tried, best)):
        lines = found
    loss = loss_of(lines, tried, best)
    if loss is None:
        raise EngineError("the engine's search did not judge both moves: please try again")
    label = classify(loss)
    return {"accepted": label is None, "loss": round(loss, 4), "label": label.value if label else None}


def practice_routes(
    searches: Callable[[], Mapping[str, LiveSearches]], cpu: Callable[[], Executor | None],
    tracked_addresses: int = 10_000,
) -> list[BaseRoute]:
    """``POST /api/practice/judge`` (see the module docstring)."""
    rate = RateLimiter(JUDGES_PER_MINUTE, JUDGES_PER_MINUTE / 60, tracked_addresses)

    async def api_judge(request: Request, checked: Checked) -> Response:
        body: dict[str, Any] = checked.body
        if not rate.allow(client_address(request), time.monotonic()):
            raise RequestError("too_fast", "too many moves to judge: please wait a little", 429)
        engine = searches().get("builtin")
        if engine is None:
            raise RequestError("no_engine", "this server has no engine to judge moves", 503)
        loop = asyncio.get_running_loop()
        board, tried, best = await loop.run_in_executor(
            cpu(), judge_position, body["sfen"], body["moves"], body["usi"], body["best"])
        try:
            verdict = await judge(engine, board, tried, best)
        except LiveBusyError as error:
            raise RequestError("busy", str(error), 503) from None
        except EngineError as error:
            raise RequestError("engine_error", excerpt(str(error), 200), 503) from None
        return JSONResponse(verdict | {"usi": tried.usi(), "best": best.usi()})

    return [CheckedRoute("/api/practice/judge", api_judge, methods=["POST"], body=PRACTICE)]
