# SPDX-License-Identifier: MIT
"""Tune a few evaluation parameters on game results (SPSA, as engine testers do).

    PYTHONPATH=$PWD/src python tools/spsa_eval.py [--iterations 400] [--minutes 25] [--nodes 10000]
        [--workers 2] [--r-end 0.02] [--seed 1]

tools/tune_eval.py fits :class:`~shogiban.engine.evaluate.EvalParams` to Fairy-Stockfish scores;
those fits lowered the error but lost matches.  This tool tunes on what matters, game results,
over a handful of "knobs" (:data:`KNOBS`), each a scalar in natural units that sets one or more
fields of the vector (a scale in percent of a whole table, or one value).

Each iteration draws a random +-1 vector D, plays a game pair (the same random opening of 4-8
plies, colours swapped, ``--nodes`` per move, no clock) between theta+ = theta + c_k D and
theta- = theta - c_k D, takes r = points(theta+) - points(theta-) over the pair, and moves
theta_k += a_k r / (c_k D_k).  The schedules are Fishtest's: c_k = c_end (N / (k+1))^0.101 and
a_k = r_end c_end^2 ((A+N) / (A+k+1))^0.602 with A = N/10, so c_k ends at each knob's
``c_end`` and a step ends at ``r_end * c_end`` per point of result.  Every vector played or kept
keeps tune_eval's invariants (:func:`tune_eval.admissible`): a candidate that breaks them is
pulled back towards the current theta (which keeps them) until it does.

Each vector plays in its own ``tools/spsa_engine.py`` process (the tables are process-global)
through the project's match runner, so the rules core adjudicates every game.  ``--workers``
iterations run at once from the same theta and their steps are added.  Progress goes to standard
output, one line per iteration; the end prints the knobs and the vector as an ``EvalParams``
literal to paste into evaluate.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from shogiban.engine.evaluate import DEFAULT_PARAMS, EvalParams

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spsa_engine  # a sibling script, found through the path set above
import tune_eval

ENGINE = Path(__file__).resolve().parent / "spsa_engine.py"
ALPHA, GAMMA = 0.602, 0.101

Theta = dict[str, float]


def _scaled(values: tuple[int, ...], percent: float) -> tuple[int, ...]:
    return tuple(round(v * percent / 100) for v in values)


def _set_attack_scale(p: EvalParams, x: float) -> EvalParams:
    # num/den = x/100 in lowest terms: 150 gives back 3/2, the same fields and the same tables.
    num = round(x)
    g = math.gcd(num, 100)
    return dataclasses.replace(p, attack_scale_num=num // g, attack_scale_den=100 // g)


def _set_hand_premium(p: EvalParams, x: float) -> EvalParams:
    # The premium of a first piece in hand over the same piece on the board (lance .. gold).
    first = list(p.hand_first)
    for pt in range(2, 8):
        first[pt] = p.material[pt] + round((p.hand_first[pt] - p.material[pt]) * x / 100)
    return dataclasses.replace(p, hand_first=tuple(first))


def _set_defence(p: EvalParams, x: float) -> EvalParams:
    return dataclasses.replace(
        p, defence_gold=_scaled(p.defence_gold, x), defence_silver=_scaled(p.defence_silver, x),
        defence_gold_behind=round(p.defence_gold_behind * x / 100),
    )


@dataclass(frozen=True)
class Knob:
    """One tuned scalar: *apply* sets it on the base vector (the start value gives the base)."""

    name: str
    start: float
    c_end: float
    """The perturbation at the last iteration, in the knob's units."""
    lo: float
    hi: float
    apply: Callable[[EvalParams, float], EvalParams]


def knobs_for(base: EvalParams) -> tuple[Knob, ...]:
    """The tuned knobs, starting at *base*'s values (scales start at 100 %)."""
    scale = base.attack_scale_num * 100 / base.attack_scale_den
    return (
        Knob("attacked_pct", 100, 15, 30, 250, lambda p, x: dataclasses.replace(p, attacked=_scaled(p.attacked, x))),
        Knob("exposure_pct", 100, 20, 30, 250, lambda p, x: dataclasses.replace(p, exposure=_scaled(p.exposure, x))),
        Knob("attacked_hand", base.attacked_hand, 3, 0, 30,
             lambda p, x: dataclasses.replace(p, attacked_hand=round(x))),
        Knob("attack_scale_pct", scale, 20, 50, 300, _set_attack_scale),
        Knob("tempo", base.tempo, 8, 0, 80, lambda p, x: dataclasses.replace(p, tempo=round(x))),
        Knob("hand_pawn", base.hand_first[1], 10, 60, 200,
             lambda p, x: dataclasses.replace(p, hand_first=(p.hand_first[0], round(x), *p.hand_first[2:]))),
        Knob("hand_premium_pct", 100, 20, 0, 300, _set_hand_premium),
        Knob("defence_pct", 100, 20, 20, 250, _set_defence),
        Knob("king_place_pct", 100, 20, 20, 250,
             lambda p, x: dataclasses.replace(p, place_king=_scaled(p.place_king, x))),
    )


def start_theta(knobs: Sequence[Knob]) -> Theta:
    return {k.name: float(k.start) for k in knobs}


def params_of(base: EvalParams, knobs: Sequence[Knob], theta: Mapping[str, float]) -> EvalParams:
    """*base* with every knob set to its value in *theta*.  Knobs apply to *base*'s own tables
    (a scale of 100 % is *base*'s table), so the order does not matter."""
    params = base
    for knob in knobs:
        params = knob.apply(params, theta[knob.name])
    return params


def admissible_theta(base: EvalParams, knobs: Sequence[Knob], theta: Mapping[str, float]) -> bool:
    return tune_eval.admissible(params_of(base, knobs, theta)) is not None


def clip(base: EvalParams, knobs: Sequence[Knob], anchor: Mapping[str, float], target: Mapping[str, float],
         tries: int = 12) -> Theta:
    """*target* within the knobs' bounds, pulled back towards *anchor* (admissible) by halving the
    difference until the vector keeps the invariants; *anchor* itself when nothing does."""
    bounded = {k.name: min(max(target[k.name], k.lo), k.hi) for k in knobs}
    for _ in range(tries):
        if admissible_theta(base, knobs, bounded):
            return bounded
        bounded = {name: (anchor[name] + value) / 2 for name, value in bounded.items()}
    return dict(anchor)


@dataclass(frozen=True)
class Schedule:
    """Fishtest's SPSA gains for *iterations* iterations."""

    iterations: int
    r_end: float = 0.02

    @property
    def big_a(self) -> float:
        return self.iterations / 10

    def c(self, knob: Knob, k: int) -> float:
        """Perturbation of *knob* at iteration *k* (0-based): c_end at the last one."""
        return knob.c_end * float((self.iterations / (k + 1)) ** GAMMA)

    def a(self, knob: Knob, k: int) -> float:
        """Gain of *knob* at iteration *k*: r_end * c_end^2 at the last one."""
        a_end = self.r_end * knob.c_end**2
        return a_end * float(((self.big_a + self.iterations) / (self.big_a + k + 1)) ** ALPHA)


def step(theta: Mapping[str, float], knobs: Sequence[Knob], schedule: Schedule, k: int,
         delta: Mapping[str, int], result: float) -> Theta:
    """theta after iteration *k* with perturbation *delta* (+-1 per knob) and *result*
    (points of theta+ minus points of theta-): theta_i += a_i r / (c_i delta_i)."""
    return {
        knob.name: theta[knob.name] + schedule.a(knob, k) * result / (schedule.c(knob, k) * delta[knob.name])
        for knob in knobs
    }


def perturbed(theta: Mapping[str, float], knobs: Sequence[Knob], schedule: Schedule, k: int,
              delta: Mapping[str, int]) -> tuple[Theta, Theta]:
    """(theta + c_k delta, theta - c_k delta)."""
    plus = {kn.name: theta[kn.name] + schedule.c(kn, k) * delta[kn.name] for kn in knobs}
    minus = {kn.name: theta[kn.name] - schedule.c(kn, k) * delta[kn.name] for kn in knobs}
    return plus, minus


def engine_command(params: EvalParams, level: int = 8) -> list[str]:
    """The USI command of an engine that plays with *params*."""
    values = spsa_engine.encode(dataclasses.asdict(params))
    return [sys.executable, str(ENGINE), "--params", values, "--level", str(level)]


def play_pair(plus: EvalParams, minus: EvalParams, *, nodes: int, plies: int, seed: int,
              level: int = 8) -> tuple[float, str]:
    """Points of *plus* minus points of *minus* over a game pair, and the games' lines."""
    from shogiban.game import TimeControl
    from shogiban.usi.match import Match, MatchConfig
    from shogiban.usi.match_engines import PlayerSpec, make_player

    specs = (PlayerSpec("plus", engine_command(plus, level)), PlayerSpec("minus", engine_command(minus, level)))
    config = MatchConfig(games=2, time_control=TimeControl.of(0, byoyomi=0.0), nodes=nodes,
                         random_plies=plies, seed=seed)
    lines: list[str] = []
    match = Match((make_player(specs[0], timeout=60.0), make_player(specs[1], timeout=60.0)), config,
                  report=lines.append)
    score = match.run()
    games = "; ".join(line.split(": ", 1)[1] for line in lines if line.startswith("Game "))
    return float(score.wins - score.losses), games


def fmt(theta: Mapping[str, float]) -> str:
    return " ".join(f"{name}={value:.1f}" for name, value in theta.items())


def run(args: argparse.Namespace) -> Theta:
    base = DEFAULT_PARAMS
    knobs = knobs_for(base)
    theta = start_theta(knobs)
    assert params_of(base, knobs, theta) == base, "the knobs' start values must give the base vector"
    schedule = Schedule(args.iterations, args.r_end)
    rng = random.Random(args.seed)
    started = time.monotonic()
    total = [0.0, 0]
    print(f"start: {fmt(theta)}", flush=True)
    k = 0
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        while k < args.iterations and time.monotonic() - started < args.minutes * 60:
            batch = []
            for i in range(min(args.workers, args.iterations - k)):
                delta = {kn.name: rng.choice((-1, 1)) for kn in knobs}
                plus, minus = perturbed(theta, knobs, schedule, k + i, delta)
                plus, minus = clip(base, knobs, theta, plus), clip(base, knobs, theta, minus)
                plies = rng.randint(4, 8)
                seed = args.seed * 1_000_003 + k + i
                future = pool.submit(play_pair, params_of(base, knobs, plus), params_of(base, knobs, minus),
                                     nodes=args.nodes, plies=plies, seed=seed, level=args.level)
                batch.append((k + i, delta, future))
            new = dict(theta)
            for index, delta, future in batch:
                result, games = future.result()
                moved = step(theta, knobs, schedule, index, delta, result)
                new = {name: new[name] + moved[name] - theta[name] for name in new}
                total[0] += result
                total[1] += 1
                print(f"iter {index + 1}: r={result:+.0f} ({games})", flush=True)
            theta = clip(base, knobs, theta, new)
            k += len(batch)
            print(f"  after {k} iterations, {time.monotonic() - started:.0f} s: {fmt(theta)}", flush=True)
    print(f"done: {k} iterations ({2 * k} games) in {(time.monotonic() - started) / 60:.1f} min", flush=True)
    print(f"final knobs: {fmt(theta)}", flush=True)
    final = tune_eval.admissible(params_of(base, knobs, theta))
    assert final is not None
    print(tune_eval.params_literal(final), flush=True)
    return theta


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=400, help="iterations the schedules are planned for")
    parser.add_argument("--minutes", type=float, default=25.0, help="stop after this long (default 25)")
    parser.add_argument("--nodes", type=int, default=10000, help="nodes per move (default 10000)")
    parser.add_argument("--level", type=int, default=8, help="the engines' level (default 8)")
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2), help="game pairs at once")
    parser.add_argument("--r-end", type=float, default=0.02, help="final step per point, as a fraction of c_end")
    parser.add_argument("--seed", type=int, default=1)
    run(parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
