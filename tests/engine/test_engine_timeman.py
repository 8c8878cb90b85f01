"""Time management arithmetic: movetime, byoyomi, Fischer increment and sudden death, from the
USI-style :class:`Limit` (``btime``/``wtime`` without the increment of the move)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban import Color
from shogiban.engine import plan_time
from shogiban.engine.timeman import HARD_FACTOR, MINIMUM, MOVE_OVERHEAD, OVERHEAD_FRACTION, TimePlan, moves_to_go
from shogiban.engines import Limit
from shogiban.game import Clock, TimeControl
from shogiban.game.time_budget import clock_limit

B = Color.BLACK


def test_infinite_and_pure_depth_have_no_time_limit() -> None:
    assert plan_time(Limit(infinite=True), B).hard is None
    assert plan_time(Limit(depth=4), B).hard is None
    assert plan_time(Limit(nodes=1000), B).soft is None


def test_no_limit_at_all_thinks_about_a_second() -> None:
    plan = plan_time(Limit(), B)
    assert plan.soft is not None
    assert plan.hard is not None
    assert 0.5 <= plan.hard <= 1.0


def test_movetime_is_spent_exactly() -> None:
    plan = plan_time(Limit(time=2.0), B)
    assert plan.exact
    assert plan.soft == plan.hard
    assert plan.hard is not None
    assert 1.9 <= plan.hard < 2.0


def test_movetime_wins_over_the_clock() -> None:
    plan = plan_time(Limit(time=0.5, btime=600.0, wtime=0), B)
    assert plan.exact
    assert plan.hard is not None
    assert plan.hard < 0.5


def test_byoyomi_only_uses_the_period_less_the_margin() -> None:
    plan = plan_time(Limit(btime=0.0, wtime=0, byoyomi=10.0), B)
    assert plan.hard == pytest.approx(10.0 - MOVE_OVERHEAD)
    assert plan.soft == plan.hard  # level 8: the whole period
    weak = plan_time(Limit(btime=0.0, wtime=0, byoyomi=10.0), B, time_factor=0.2)
    assert weak.soft == pytest.approx(0.2 * (10.0 - MOVE_OVERHEAD))
    assert weak.hard == plan.hard


def test_main_time_with_byoyomi_adds_the_free_period() -> None:
    plan = plan_time(Limit(btime=300.0, wtime=0, byoyomi=10.0), B, ply=0)
    assert plan.soft == pytest.approx(300.0 / moves_to_go(0) + 10.0)
    assert plan.soft is not None
    assert plan.hard is not None
    assert plan.soft <= plan.hard <= 300.0 * 0.25 + 10.0


def test_sudden_death_spreads_the_main_time() -> None:
    plan = plan_time(Limit(btime=600.0, wtime=0), B, ply=40)
    assert plan.soft == pytest.approx(600.0 / moves_to_go(40))
    assert plan.hard is not None
    assert plan.hard <= 600.0 * 0.25
    late = plan_time(Limit(btime=60.0, wtime=0), B, ply=200)
    assert late.soft == pytest.approx(60.0 / 20)


def test_fischer_increment_is_mostly_spent() -> None:
    plan = plan_time(Limit(btime=55, wtime=0, binc=5.0, winc=5.0), B, ply=0)
    assert plan.soft == pytest.approx(60.0 / moves_to_go(0) + 4.0)
    # This move's increment may be spent now (USI leaves it out of btime), later ones not yet.
    short = plan_time(Limit(btime=0, wtime=0, binc=0.5, winc=0.5), B)
    assert short.hard is not None
    assert short.hard <= 0.5 - min(MOVE_OVERHEAD, 0.5 * OVERHEAD_FRACTION) + 1e-9


def test_a_short_byoyomi_keeps_a_margin_for_a_loaded_machine() -> None:
    plan = plan_time(Limit(btime=0.0, wtime=0, byoyomi=0.3), B)
    assert plan.hard == pytest.approx(0.18)  # 120 ms kept back of 300 ms


def test_an_empty_clock_still_allows_a_minimal_search() -> None:
    plan = plan_time(Limit(btime=0, wtime=0, byoyomi=0.0, binc=0.001, winc=0.001), B)
    assert plan.hard == MINIMUM
    assert plan.soft == MINIMUM


@given(
    main=st.floats(0.0, 10_000.0),
    byoyomi=st.floats(0.0, 120.0),
    increment=st.floats(0.0, 60.0),
    ply=st.integers(0, 600),
    factor=st.floats(0.05, 1.0),
)
def test_plans_never_overrun_the_clock(main: float, byoyomi: float, increment: float, ply: int, factor: float) -> None:
    limits = Limit(btime=main, wtime=0, byoyomi=byoyomi, binc=increment, winc=increment)
    plan = plan_time(limits, B, ply=ply, time_factor=factor)
    assert plan.soft is not None
    assert plan.hard is not None
    assert MINIMUM <= plan.soft <= plan.hard
    available = main + increment + byoyomi  # this move's increment is spendable now
    # Always inside what the clock holds now, minus a margin (the increment comes later).
    assert plan.hard <= max(MINIMUM, available - min(MOVE_OVERHEAD, available * OVERHEAD_FRACTION)) + 1e-9
    if main + increment > 0:  # (byoyomi alone cannot be saved for later: the whole period is the limit)
        # An iteration may overrun the target only as far as the search would stretch it.
        assert plan.hard <= plan.soft * HARD_FACTOR + 1e-9


@pytest.mark.parametrize("limits", [Limit(btime=60.0, wtime=0, byoyomi=2.0),
                                    Limit(btime=58, wtime=0, binc=2.0, winc=2.0)])
def test_the_hard_limit_stays_proportionate_at_60_s_plus_2_s(limits: Limit) -> None:
    """A hard limit of four times the target let one move think 10.5 s in silence at 60 s + 2 s."""
    plan = plan_time(limits, B, ply=0)
    assert plan.soft is not None
    assert plan.hard is not None
    assert plan.hard <= HARD_FACTOR * plan.soft + 1e-9
    assert plan.hard < 7.0


def test_the_clock_of_the_side_to_move_counts_with_the_increment_of_its_move() -> None:
    limit = Limit(btime=33, wtime=30, binc=5, winc=5)  # as USI sends it: without this move's increment
    assert limit.main_time(Color.WHITE) == 35.0
    assert plan_time(limit, Color.WHITE).soft == pytest.approx(35.0 / moves_to_go(0) + 4.0)
    assert plan_time(limit, Color.BLACK).soft == pytest.approx(38.0 / moves_to_go(0) + 4.0)


# -- whole games on the game clock -------------------------------------------------------------

#: Latency between the search's stop and the clock's press (USI transport, a loaded machine),
#: below the margin the plans keep back.
LATENCY = 0.2


def play_out(
    control: TimeControl, think: Callable[[TimePlan], float], plies: int = 300
) -> list[tuple[TimePlan, float]]:
    """Both sides' plans over *plies* moves on the game clock, each move taking ``think(plan)``
    seconds; per ply the plan and the main time the mover had left after the move.

    Fails at the first move that would lose on time (no tolerance)."""
    clock = Clock(control).start(Color.BLACK, 0.0)
    now = 0.0
    played: list[tuple[TimePlan, float]] = []
    for ply in range(plies):
        mover = clock.running
        assert mover is not None
        plan = plan_time(clock_limit(clock, now=now), mover, ply=ply)
        now += think(plan)
        assert not clock.is_flagged(now), f"lost on time at ply {ply} with {plan}"
        clock, _ = clock.press(now)
        played.append((plan, clock.remaining[mover].total_seconds()))
    return played


def _hard(plan: TimePlan) -> float:
    assert plan.hard is not None
    return plan.hard


def _soft(plan: TimePlan) -> float:
    assert plan.soft is not None
    return plan.soft


@pytest.mark.parametrize(
    "control",
    [TimeControl.of(600, byoyomi=30), TimeControl.of(60, byoyomi=2), TimeControl.of(0, byoyomi=1),
     TimeControl.of(300, increment=10), TimeControl.of(60, increment=1)],
    ids=["10min+30s", "60s+2s", "byoyomi1s", "5min+10s/move", "60s+1s/move"],
)
def test_no_game_is_lost_on_time_even_when_every_move_runs_to_its_hard_limit(control: TimeControl) -> None:
    """The worst case adds up over a game: every search aborted at its hard limit, answered late.
    (Sudden death is left out: there every move's latency comes off a shrinking clock, so a long
    enough game is lost on time whatever the plan.)"""
    played = play_out(control, lambda plan: _hard(plan) + LATENCY)
    assert len(played) == 300


def test_ten_minutes_and_30_s_spread_the_main_time_then_use_every_byoyomi() -> None:
    """At 10 min + 30 s a move thinks its target (the search stops between 55% of it and twice it,
    by how settled the best move is)."""
    played = play_out(TimeControl.of(600, byoyomi=30), _soft, plies=160)
    main_phase = [(plan, left) for plan, left in played if _hard(plan) > 30.0]
    # Every move with main time left thinks at least a byoyomi period: the main time is a bonus
    # on top of the byoyomi every later move gets, never a reason to hurry.
    assert all(_soft(plan) >= 30.0 for plan, _ in main_phase)
    # Not spent in the opening: each side still has main time after its tenth move...
    assert min(played[18][1], played[19][1]) > 0
    # ...but spent in the game (a long game's last moves have none left: it was not hoarded).
    assert max(played[-1][1], played[-2][1]) == 0
    # Each move of the main phase takes a share, never the lot.
    assert all(_hard(plan) <= 0.25 * 600 + 30 for plan, _ in main_phase)
    byoyomi_phase = [plan for plan, left in played[40:] if left == 0]
    assert byoyomi_phase
    for plan in byoyomi_phase:
        # The period cannot be saved: the search uses all of it but the margin.
        assert _soft(plan) == _hard(plan) == pytest.approx(30.0 - MOVE_OVERHEAD, abs=0.5)
