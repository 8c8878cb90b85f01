"""Time management: how long to think about one move, from the limits and the clock.

Pure functions, so the arithmetic is testable without searching.  A plan has a *soft* target
(start no new iteration past it, stretched by the search in complicated positions) and a *hard*
limit (abort the search there).  Both leave a safety margin for Python's and the transport's
overhead, so the engine never loses on time.

>>> plan = plan_time(Limit(btime=0, wtime=0, byoyomi=10), Color.BLACK)
>>> round(plan.hard, 2)
9.75
"""

from __future__ import annotations

from dataclasses import dataclass

from shogiban.engines.limit import DEFAULT_MOVETIME, Limit, to_seconds
from shogiban.pieces import Color

#: Seconds kept back from every clock budget for stopping, returning and sending the move.
MOVE_OVERHEAD = 0.25
#: The share of a short budget kept back instead (120 ms of a 300 ms byoyomi, as YaneuraOu's
#: default network delay): a loaded machine delays the answer by tens of milliseconds.
OVERHEAD_FRACTION = 0.4
#: Seconds kept back from an exact ``movetime`` (the caller asked for that budget exactly).
MOVETIME_OVERHEAD = 0.04
#: The least any plan gives, so that a move is always found.
MINIMUM = 0.01
#: The hard limit is at most this many times the soft target: the most the search stretches it
#: (a larger one only lets a doomed iteration run on; 4x gave 10 s thinks at 60 s + 2 s).
HARD_FACTOR = 2.0


@dataclass(frozen=True, slots=True)
class TimePlan:
    """Seconds the search may spend: None means unbounded."""

    soft: float | None
    """Start no new iteration after this (the search may stretch it up to ``hard``)."""
    hard: float | None
    """Abort the search here."""
    exact: bool = False
    """Spend the whole budget (``movetime``): no early stop when the answer looks settled."""


def moves_to_go(ply: int) -> int:
    """How many more moves of ours the main time should last, from the game's ply count."""
    return max(20, 60 - ply // 2)


def overhead(budget: float) -> float:
    """Safety margin taken from a clock budget: the fixed overhead, less for tiny budgets."""
    return min(MOVE_OVERHEAD, budget * OVERHEAD_FRACTION)


def plan_time(limit: Limit, turn: Color, *, ply: int = 0, time_factor: float = 1.0) -> TimePlan:
    """The time plan for one move of *turn* under *limit*.

    :param limit: the limit (a fixed ``time`` wins over the clock when both are given); USI's
        clock: ``btime``/``wtime`` leave out the increment of this move, which may be spent now
        too, and the increment is what each later move brings.
    :param turn: the side to move (whose clock counts).
    :param ply: plies played in the game so far (spread the main time over the moves left).
    :param time_factor: scale of the soft target (below 1, think less than the clock allows); never raises the
        hard limit above what the clock allows.
    """
    if limit.infinite:
        return TimePlan(None, None)
    if limit.time is not None:
        movetime = to_seconds(limit.time)
        budget = max(MINIMUM, movetime - min(MOVETIME_OVERHEAD, movetime * 0.1))
        return TimePlan(budget, budget, exact=True)
    if not limit.has_clock():
        if limit.depth is not None or limit.nodes is not None:
            return TimePlan(None, None)
        budget = DEFAULT_MOVETIME * time_factor
        return TimePlan(budget, budget)
    main = limit.main_time(turn)
    byoyomi = limit.byoyomi_seconds()
    increment = limit.increment(turn)
    # Everything usable now: the main time plus one byoyomi period (later increments come after).
    available = main + byoyomi
    hard_cap = max(MINIMUM, available - overhead(available))
    if main <= 0.0:
        # Byoyomi only (or an exhausted clock): the whole period, less the margin.
        soft = min(hard_cap, max(MINIMUM, hard_cap * time_factor))
        return TimePlan(soft, hard_cap)
    share = main / moves_to_go(ply) + increment * 0.8 + byoyomi
    soft = max(MINIMUM, min(hard_cap, share * time_factor))
    # Never sink more than a quarter of the main time (plus the free byoyomi) into one move.
    hard = max(soft, min(hard_cap, soft * HARD_FACTOR, main * 0.25 + byoyomi + increment * 0.5))
    return TimePlan(soft, min(hard, hard_cap))
