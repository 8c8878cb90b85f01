# SPDX-License-Identifier: MIT
"""Tune the built-in engine's evaluation on Fairy-Stockfish scores (Texel-style).

    PYTHONPATH=src python tools/tune_eval.py make-data [--games ../shared/data/usi_games/lishogi_prod_500.usi]
        [--out /tmp/shogiban-tune/positions.tsv] [--depth 8]
    PYTHONPATH=src python tools/tune_eval.py tune [--data /tmp/shogiban-tune/positions.tsv]

``make-data`` takes every 3rd ply of real games from ply 12 to the end minus 2, skips positions in
check, makes each quiet (plays the principal variation of the built-in engine's quiescence search,
:meth:`shogiban.engine.search.Searcher.qsearch`) and scores the quiet position with Fairy-Stockfish
(``go depth N``, Threads 1, Hash 16) from the side to move's view, mates clamped to +-MATE_CP.  The
games are GPL data: the cache is written outside the repository (default under /tmp) and must stay
out of it.

``tune`` fits the scale K of the win-rate curve sigmoid(score / K) to the Fairy-Stockfish scores,
then runs a coordinate descent with shrinking steps over the named parameters of
:class:`shogiban.engine.evaluate.EvalParams`, minimising the mean squared error between
sigmoid(static eval / K) and sigmoid(FSF score / K) on a training split.  It reports the held-out
error before and after and prints the tuned vector as a literal to paste into evaluate.py.  Every
step keeps the invariants the engine's tests check (:func:`violations`: a first piece in hand worth
more than on the board, the promoted minors at the gold's value, the piece order, a king danger
that is 0 for a safe king and never a bonus), so the literal can be pasted as it is; ``--free``
lifts them.  The static evaluation is linear in "derived" values (the table entries the parameters
give), so each position is reduced once to feature counts and a candidate is scored by a matrix
product; the reduction is checked against :func:`shogiban.engine.evaluate.evaluate` with rebuilt tables.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import itertools
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from shogiban import Board
from shogiban.engine.evaluate import EvalParams

MATE_CP = 3000
DEFAULT_GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "usi_games" / "lishogi_prod_500.usi"
DEFAULT_DATA = Path("/tmp/shogiban-tune/positions.tsv")
FSF = "/usr/games/fairy-stockfish"


# -- make-data ---------------------------------------------------------------------------------------


def read_games(path: Path) -> list[list[str]]:
    """The USI move lists of *path*, one game a line (``#`` lines are comments)."""
    return [line.split() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def sample_plies(length: int, *, first: int = 12, step: int = 3, tail: int = 2) -> range:
    """Plies (number of moves played) sampled from a game of *length* moves."""
    return range(first, length - tail + 1, step)


def quiet(board: Board) -> Board | None:
    """The end of the built-in engine's quiescence PV from *board* (None when that position is in
    check or has no legal move)."""
    from shogiban.engine.levels import profile
    from shogiban.engine.search import INF, Searcher
    from shogiban.engine.timeman import TimePlan

    pos = Board(board.sfen())
    searcher = Searcher(
        pos, profile(8), {}, 1024, [0] * 65536, random.Random(0),
        plan=TimePlan(None, None), max_depth=None, max_nodes=None, stop=None, on_info=None,
    )
    searcher.qsearch(-INF, INF, 0, 0)
    leaf = Board(board.sfen())
    for code in searcher.pv[0]:
        leaf._push(code)
    leaf = Board(leaf.sfen())
    if leaf.is_check() or not leaf._legal_codes():
        return None
    return leaf


def clamp_score(cp: int | None, winning: bool | None = None) -> int:
    """A Fairy-Stockfish score in centipawns, mates (*winning* given) and big scores clamped to
    +-MATE_CP."""
    if winning is not None:
        return MATE_CP if winning else -MATE_CP
    assert cp is not None
    return max(-MATE_CP, min(MATE_CP, cp))


def resume_point(out: Path) -> int:
    """The index of the first game *make_data* still has to score into *out*, after dropping the
    rows of the cache's last game (it may have been cut short) so that it is scored again."""
    if not out.exists():
        return 0
    lines = out.read_text().splitlines(keepends=True)
    complete = [line for line in lines if line.endswith("\n") and line.count("\t") == 3]
    if not complete:
        out.write_text("")
        return 0
    last = int(complete[-1].split("\t", 1)[0])
    kept = [line for line in complete if int(line.split("\t", 1)[0]) != last]
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text("".join(kept))
    tmp.replace(out)
    return last


def make_data(games_path: Path, out: Path, depth: int, limit: int | None, resume: bool = True) -> None:
    """Append ``game, ply, sfen of the quiet position, FSF score`` rows (TSV) to *out*; with
    *resume* the games already in *out* are skipped (its last game is scored again), otherwise
    *out* is started afresh."""
    from shogiban.engines import Limit, SimpleEngine

    out.parent.mkdir(parents=True, exist_ok=True)
    games = read_games(games_path)
    start = resume_point(out) if resume else 0
    engine = SimpleEngine.popen_usi(FSF)
    engine.configure({"Threads": 1, "Hash": 16})
    started = time.perf_counter()
    rows = 0
    print(f"depth {depth}, starting at game {start} of {len(games)}", file=sys.stderr)
    try:
        with out.open("a" if resume else "w") as handle:
            for index in range(start, len(games)):
                moves = games[index]
                board = Board()
                wanted = set(sample_plies(len(moves)))
                for ply, usi in enumerate(moves, 1):
                    board.push_usi(usi)
                    if ply not in wanted or board.is_check():
                        continue
                    leaf = quiet(board)
                    if leaf is None:
                        continue
                    info = engine.analyse(leaf, Limit(depth=depth))
                    pov = info.get("score")
                    if pov is None:
                        continue
                    score = clamp_score(pov.relative.cp, pov.relative.winning if pov.is_mate() else None)
                    handle.write(f"{index}\t{ply}\t{leaf.sfen()}\t{score}\n")
                    rows += 1
                    if limit is not None and rows >= limit:
                        return
                handle.flush()
                if index % 20 == 19:
                    elapsed = time.perf_counter() - started
                    print(f"{index + 1} games, {rows} positions, {elapsed:.0f} s", file=sys.stderr)
    finally:
        engine.quit()
        print(f"{rows} positions in {time.perf_counter() - started:.0f} s -> {out}", file=sys.stderr)


# -- features ----------------------------------------------------------------------------------------

#: A derived value of the evaluation: a parameter entry ("material", 1), an attack entry after the
#: attack scale, a hand sum ("hand_sum", pt, n), ...
Key = tuple[str | int, ...]
#: A position reduced to coefficients of derived values (side to move's view).
Features = dict[Key, int]

_GOLDLIKE = (7, 9, 10, 11, 12)
_ATTACK_FIELDS = {1: "attack_pawn", 4: "attack_silver", 13: "attack_horse", 14: "attack_dragon"}


def _defence_key(pt: int, dy: int, dx: int) -> Key | None:
    d = max(abs(dy), dx)
    if pt in _GOLDLIKE:
        if d == 1 and dy > 0:
            return ("defence_gold_behind",)
        return ("defence_gold", d) if d < 4 else None
    if pt == 4:
        return ("defence_silver", d) if d < 4 else None
    if pt == 3:
        return ("defence_knight",) if d <= 2 else None
    if pt == 1:
        return ("defence_pawn",) if dy < 0 and dx <= 1 and d <= 3 else None
    if pt == 6:
        return ("defence_rook",) if d <= 2 else None
    return None


def _attack_key(pt: int, dy: int, dx: int) -> Key | None:
    from shogiban.engine.evaluate import RADIUS

    d = max(abs(dy), dx)
    if pt in _GOLDLIKE:
        return ("scaled", "attack_gold", d) if d < 5 else None
    if pt in _ATTACK_FIELDS:
        size = {1: 3, 4: 5, 13: 5, 14: 6}[pt]
        return ("scaled", _ATTACK_FIELDS[pt], d) if d < size else None
    if pt == 3:
        return ("scaled", "attack_knight") if d == 2 else None
    if pt == 2:
        return ("scaled", "attack_lance") if dx == 0 and 0 < dy <= RADIUS else None
    if pt == 6:
        return ("scaled", "attack_rook") if d <= 3 else None
    return None


def features(board: Board) -> Features:
    """*board*'s evaluation as coefficients of derived values (see :func:`derived`), so that
    ``evaluate(board, build_tables(p)) == sum(coef * derived(p, key))``."""
    from shogiban.engine.evaluate import king_features

    pos = board
    stm = pos._turn
    out: Features = {}

    def add(key: Key | None, coef: int) -> None:
        if key is not None and coef:
            out[key] = out.get(key, 0) + coef

    kings = pos._kings
    for sq in range(81):
        piece = pos._board[sq]
        if not piece:
            continue
        pt, color = piece & 15, piece >> 4
        s = 1 if color == stm else -1
        rel = 80 - sq if color else sq
        row, col = divmod(rel, 9)
        adv = 8 - row
        edge = col in (0, 8)
        add(("material", pt), s)
        if pt == 1:
            add(("place_pawn", adv), s)
        elif pt == 2 and adv <= 1:
            add(("place_lance_home",), s)
        elif pt in (3, 4, 7):
            name = {3: "knight", 4: "silver", 7: "gold"}[pt]
            add((f"place_{name}", adv), s)
            if edge:
                add((f"edge_{name}",), -s)
        elif pt == 8:
            add(("place_king", adv), s)
            add(("place_king_file", abs(col - 4)), s)
        if pt == 8:
            continue
        for king, key_of in ((kings[color], _defence_key), (kings[color ^ 1], _attack_key)):
            if king < 0:
                continue
            krow, kcol = divmod(80 - king if color else king, 9)
            add(key_of(pt, row - krow, abs(col - kcol)), s)
    for color in (0, 1):
        s = 1 if color == stm else -1
        for pt in range(1, 8):
            n = pos._hands[color][pt]
            if n:
                add(("hand_sum", pt, min(n, 19)), s)
        danger = king_features(pos, color)
        if danger is not None:
            attacked, empty, threat = danger
            add(("attacked", attacked), -s)
            add(("exposure", empty), -s * threat)
            add(("attacked_hand",), -s * attacked * threat)
    add(("tempo",), 1)
    return out


def derived(params: EvalParams, key: Key) -> int:
    """The value *key* stands for under *params*."""
    head = key[0]
    if head == "scaled":
        field = getattr(params, str(key[1]))
        value = field[int(key[2])] if len(key) > 2 else field
        return int(value) * params.attack_scale_num // params.attack_scale_den
    if head == "hand_sum":
        pt, n = int(key[1]), int(key[2])
        first, step, floor = params.hand_first[pt], params.hand_step[pt], params.hand_floor[pt]
        return sum(max(floor, first - step * i) for i in range(n))
    field = getattr(params, str(head))
    return int(field[int(key[1])]) if len(key) > 1 else int(field)


# -- parameters by name ------------------------------------------------------------------------------

#: A tunable coordinate: a field of EvalParams and an index in it (None for an int field).
Coord = tuple[str, int | None]


def coordinates(params: EvalParams) -> list[Coord]:
    """The tunable coordinates: every entry of every field except the attack scale (redundant with
    the attack terms), index 0 of the by-type tuples, the king's material, the board values of the
    promoted pawn, lance, knight and silver (tied to the gold's, see :func:`tie`) and the zero
    points of the king danger (``attacked[0]``, ``exposure[0]``)."""
    coords: list[Coord] = []
    for field in dataclasses.fields(params):
        if field.name.startswith("attack_scale"):
            continue
        value = getattr(params, field.name)
        if isinstance(value, int):
            coords.append((field.name, None))
            continue
        for index in range(len(value)):
            by_type = field.name in ("material", "hand_first", "hand_step", "hand_floor")
            if by_type and index in (0, 8):
                continue
            if field.name == "material" and index in TIED_TO_GOLD:
                continue  # moved with the gold by tie()
            if field.name in ("attacked", "exposure") and index == 0:
                continue  # a king nobody attacks is in no danger: king_danger is 0 there
            coords.append((field.name, index))
    return coords


def get(params: EvalParams, coord: Coord) -> int:
    """The value of *coord* in *params*."""
    value = getattr(params, coord[0])
    return int(value) if coord[1] is None else int(value[coord[1]])


def with_value(params: EvalParams, coord: Coord, value: int) -> EvalParams:
    """*params* with *coord* set to *value*."""
    name, index = coord
    new: object = value
    if index is not None:
        old = getattr(params, name)
        new = (*old[:index], value, *old[index + 1 :])
    changes: dict[str, object] = {name: new}
    return dataclasses.replace(params, **changes)  # type: ignore[arg-type]


def params_literal(params: EvalParams, name: str = "DEFAULT_PARAMS") -> str:
    """*params* as Python source to paste into evaluate.py."""
    lines = [f"{name} = EvalParams("]
    lines.extend(f"    {field.name}={getattr(params, field.name)!r}," for field in dataclasses.fields(params))
    lines.append(")")
    return "\n".join(lines)


def parse_params(text: str) -> EvalParams:
    """The EvalParams of a :func:`params_literal` (``NAME = EvalParams(...)`` or the bare call)."""
    tree = ast.parse(text.strip())
    node = tree.body[0]
    call = node.value if isinstance(node, (ast.Assign, ast.Expr)) else None
    if not isinstance(call, ast.Call):
        raise ValueError("expected EvalParams(...)")
    values = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg is not None}
    return EvalParams(**values)


# -- invariants --------------------------------------------------------------------------------------

#: Promoted pawn, lance, knight and silver: they move like a gold and are valued as one.
TIED_TO_GOLD = (9, 10, 11, 12)
#: Board values in strictly falling order: rook, bishop, gold, silver, knight, lance, pawn.
MATERIAL_ORDER = (6, 5, 7, 4, 3, 2, 1)
#: First pieces in hand in strictly falling order: rook, bishop, gold, silver.
HAND_ORDER = (6, 5, 7, 4)


def tie(params: EvalParams) -> EvalParams:
    """*params* with the promoted pawn, lance, knight and silver at the gold's board value."""
    material = params.material
    if all(material[pt] == material[7] for pt in TIED_TO_GOLD):
        return params
    tied = tuple(material[7] if i in TIED_TO_GOLD else v for i, v in enumerate(material))
    return dataclasses.replace(params, material=tied)


def violations(params: EvalParams) -> list[str]:
    """The evaluation's invariants that *params* breaks (none: an admissible vector).  They are
    the ones the engine's tests check (test_engine_evaluate, test_engine_threats), so that a tuned
    vector can be pasted as it is, plus a king danger that is never a bonus."""
    m = params.material
    out: list[str] = []
    for pt in range(1, 8):
        # The first piece in hand is worth max(floor, first): a drop is an option a board piece lacks.
        first = max(params.hand_first[pt], params.hand_floor[pt])
        if first <= m[pt]:
            out.append(f"hand[{pt}] {first} <= material[{pt}] {m[pt]}")
    out.extend(f"material[{pt}] {m[pt]} != gold {m[7]}" for pt in TIED_TO_GOLD if m[pt] != m[7])
    for hi, lo in (*itertools.pairwise(MATERIAL_ORDER), (14, 6), (13, 5)):
        if m[hi] <= m[lo]:
            out.append(f"material[{hi}] {m[hi]} <= material[{lo}] {m[lo]}")
    h = params.hand_first
    for a, b in itertools.pairwise(HAND_ORDER):
        if h[a] <= h[b]:
            out.append(f"hand_first[{a}] {h[a]} <= hand_first[{b}] {h[b]}")
    # An unattacked king with nothing in the enemy's hand is in no danger ...
    if params.attacked[0] or params.exposure[0]:
        out.append(f"king danger zero points {params.attacked[0]}, {params.exposure[0]} != 0")
    # ... and danger is a penalty: exposure or attacked squares never make a king safer.
    danger = (*params.attacked, *params.exposure, params.attacked_hand)
    if min(danger) < 0:
        out.append(f"negative king danger term {min(danger)}")
    return out


def admissible(params: EvalParams) -> EvalParams | None:
    """*params* tied (:func:`tie`) if it then keeps every invariant, else None."""
    tied = tie(params)
    return None if violations(tied) else tied


# -- fitting -----------------------------------------------------------------------------------------


def sigmoid(x: float) -> float:
    if x < -500:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def fit_k(scores: Sequence[int], results: Sequence[float], lo: float = 50.0, hi: float = 20000.0) -> float:
    """The K minimising the mean squared error between sigmoid(score / K) and *results* (win rates
    of the side to move: game results, or another evaluation on the win-rate scale), by
    golden-section search on [lo, hi]."""
    def loss(k: float) -> float:
        return sum((sigmoid(s / k) - r) ** 2 for s, r in zip(scores, results, strict=True)) / len(scores)

    ratio = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(60):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if loss(c) <= loss(d):
            b = d
        else:
            a = c
    return (a + b) / 2


def mse(evals: Sequence[float], targets: Sequence[float], k: float) -> float:
    """Mean of (sigmoid(eval / K) - target)^2, the targets already on the win-rate scale."""
    return sum((sigmoid(e / k) - t) ** 2 for e, t in zip(evals, targets, strict=True)) / len(evals)


class Model:
    """Positions as features, their evaluations under the current parameters and the errors."""

    def __init__(self, rows: list[Features], targets: list[float], k: float, params: EvalParams) -> None:
        self.rows = rows
        self.targets = targets
        self.k = k
        self.params = params
        self.index: dict[Key, list[tuple[int, int]]] = {}
        for i, row in enumerate(rows):
            for key, coef in row.items():
                self.index.setdefault(key, []).append((i, coef))
        self.values = {key: derived(params, key) for key in self.index}
        self.evals = [float(sum(coef * self.values[key] for key, coef in row.items())) for row in rows]
        self.errors = [(sigmoid(e / k) - t) ** 2 for e, t in zip(self.evals, targets, strict=True)]
        self.total = sum(self.errors)

    def loss(self) -> float:
        return self.total / max(1, len(self.rows))

    def trial(self, params: EvalParams, commit: bool) -> float:
        """The total error under *params* (which differ in few derived values); kept if *commit*."""
        changed = {}
        for key, old in self.values.items():
            new = derived(params, key)
            if new != old:
                changed[key] = new - old
        delta: dict[int, float] = {}
        for key, diff in changed.items():
            for i, coef in self.index[key]:
                delta[i] = delta.get(i, 0.0) + coef * diff
        total = self.total
        new_errors = {}
        for i, d in delta.items():
            err = (sigmoid((self.evals[i] + d) / self.k) - self.targets[i]) ** 2
            new_errors[i] = err
            total += err - self.errors[i]
        if commit:
            for i, d in delta.items():
                self.evals[i] += d
                self.errors[i] = new_errors[i]
            for key, diff in changed.items():
                self.values[key] += diff
            self.total = total
            self.params = params
        return total


def l2_penalty(params: EvalParams, base: EvalParams, coords: Sequence[Coord], lam: float, unit: float = 100.0) -> float:
    """``lam * sum(((value - base value) / unit) ** 2)`` over *coords*: the ridge term that keeps
    a fit near the hand-set values (*unit* centipawns away costs *lam*)."""
    if not lam:
        return 0.0
    return lam * sum(((get(params, c) - get(base, c)) / unit) ** 2 for c in coords)


def local_search(
    model: Model, coords: Sequence[Coord], steps: Sequence[int] = (16, 8, 4, 2, 1), passes: int = 2,
    log: Callable[[str], None] = print, *, lam: float = 0.0, base: EvalParams | None = None,
    validate: Callable[[EvalParams], float] | None = None, patience: int = 2,
    constrain: Callable[[EvalParams], EvalParams | None] | None = None,
) -> EvalParams:
    """Coordinate descent with shrinking steps: try each coordinate +-step, keep what lowers the
    training objective (mean error plus :func:`l2_penalty` towards *base*, by default the
    starting parameters); up to *passes* sweeps per step size.  With *validate* (the error on
    validation positions), the parameters of the sweep with the lowest validation error are
    returned, and the search stops after *patience* sweeps in a row without a new lowest.  With
    *constrain* (e.g. :func:`admissible`), each candidate is replaced by what it returns and
    skipped when that is None, so every kept vector passes it (the start must too)."""
    if constrain is not None and constrain(model.params) != model.params:
        raise ValueError("the starting parameters do not pass the constraint")
    anchor = model.params if base is None else base
    n = max(1, len(model.rows))

    def objective(total: float, params: EvalParams) -> float:
        return total / n + l2_penalty(params, anchor, coords, lam)

    current = objective(model.total, model.params)
    best_params, best_valid = model.params, validate(model.params) if validate else 0.0
    stale = 0
    for step in steps:
        for sweep in range(passes):
            improved = 0
            for coord in coords:
                base_value = get(model.params, coord)
                for value in (base_value + step, base_value - step):
                    candidate = with_value(model.params, coord, value)
                    if constrain is not None:
                        kept = constrain(candidate)
                        if kept is None:
                            continue
                        candidate = kept
                    score = objective(model.trial(candidate, commit=False), candidate)
                    if score < current - 1e-12:
                        model.trial(candidate, commit=True)
                        current = score
                        improved += 1
                        break
            note = ""
            if validate is not None:
                valid = validate(model.params)
                note = f", valid mse {valid:.6f}"
                if valid < best_valid - 1e-12:
                    best_params, best_valid, stale = model.params, valid, 0
                else:
                    stale += 1
            log(f"step {step} sweep {sweep + 1}: {improved} changes, train mse {model.loss():.6f}{note}")
            if validate is not None and stale >= patience:
                log("validation error stopped falling: early stop")
                return best_params
            if not improved:
                break
    return best_params if validate is not None else model.params


def load_data(path: Path) -> list[tuple[int, str, int]]:
    """(game index, SFEN, FSF score) rows of a make-data cache."""
    rows = []
    for line in path.read_text().splitlines():
        game, _ply, sfen, score = line.split("\t")
        rows.append((int(game), sfen, int(score)))
    return rows


def cached_features(data_path: Path, boards: Sequence[Board]) -> list[Features]:
    """:func:`features` of *boards*, cached beside *data_path* (keyed by the data's digest and by
    this tool's source, so a changed cache or tool recomputes them)."""
    import hashlib
    import pickle

    key = hashlib.sha256(data_path.read_bytes() + Path(__file__).read_bytes()).hexdigest()
    cache = data_path.with_name(data_path.name + ".features.pickle")
    if cache.exists():
        stored_key, rows = pickle.loads(cache.read_bytes())
        if stored_key == key:
            return list(rows)
    rows = [features(b) for b in boards]
    tmp = cache.with_name(cache.name + ".tmp")
    tmp.write_bytes(pickle.dumps((key, rows)))
    tmp.replace(cache)
    return rows


#: Win-rate scale of the built-in evaluation (pawn = 90): sigmoid(eval / 600) is the usual
#: shogi engines' win rate (Ponanza's constant, for a pawn near 100).
K_EVAL = 600.0
#: Held fixed by default: the pawn's board value anchors the scale.
ANCHORS: tuple[Coord, ...] = (("material", 1),)


def parse_coord(text: str) -> Coord:
    """``field`` or ``field:index`` as a coordinate."""
    name, _, index = text.partition(":")
    return (name, int(index) if index else None)


def select(coords: Sequence[Coord], patterns: Sequence[str], anchors: Sequence[Coord] = ANCHORS) -> list[Coord]:
    """The *coords* whose field matches one of *patterns* (shell-style, e.g. ``attack_*``; all when
    none is given), minus the *anchors*."""
    import fnmatch

    return [
        c for c in coords
        if c not in anchors and (not patterns or any(fnmatch.fnmatchcase(c[0], pat) for pat in patterns))
    ]


def split(games: Sequence[int], folds: int = 5) -> tuple[list[int], list[int], list[int]]:
    """Row indices for training, validation (games whose index % folds == 1, for early stopping)
    and test (index % folds == 0, only reported)."""
    train: list[int] = []
    valid: list[int] = []
    test: list[int] = []
    for i, g in enumerate(games):
        (test if g % folds == 0 else valid if g % folds == 1 else train).append(i)
    return train, valid, test


def tune(
    data_path: Path, check: int, groups: Sequence[Sequence[str]] = ((),), *, lams: Sequence[float] = (0.0,),
    anchors: Sequence[Coord] = ANCHORS, k_eval: float = K_EVAL, early_stop: bool = True,
    out: Path | None = None, keep_invariants: bool = True,
) -> dict[float, EvalParams]:
    """Fit the scale of the FSF scores to the evaluation, then, from the current parameters for
    each L2 weight in *lams*, the parameters group by group; print the figures and the tuned
    literals (also written to *out*, suffixed ``-l2=<weight>`` when there are several).  With
    *keep_invariants* every step keeps the evaluation's invariants (:func:`admissible`)."""
    from shogiban.engine.evaluate import DEFAULT_PARAMS, build_tables, evaluate

    constrain = admissible if keep_invariants else None
    if constrain is not None and violations(DEFAULT_PARAMS):
        raise ValueError(f"DEFAULT_PARAMS breaks the invariants: {violations(DEFAULT_PARAMS)}")
    data = load_data(data_path)
    boards = [Board(sfen) for _, sfen, _ in data]
    scores = [score for _, _, score in data]
    rows = cached_features(data_path, boards)
    rng = random.Random(1)
    for i in rng.sample(range(len(boards)), min(check, len(boards))):
        for params in (DEFAULT_PARAMS, with_value(DEFAULT_PARAMS, ("attack_gold", 1), 97)):
            value = sum(coef * derived(params, key) for key, coef in rows[i].items())
            assert value == evaluate(boards[i], build_tables(params)), boards[i].sfen()
    evals = [sum(coef * derived(DEFAULT_PARAMS, key) for key, coef in row.items()) for row in rows]
    # The target is FSF's score on the win-rate scale; its scale K_fsf is fitted so that it agrees
    # best with the current evaluation on K_EVAL, i.e. it converts FSF's centipawns into ours.
    k_fsf = fit_k(scores, [sigmoid(e / k_eval) for e in evals])
    targets = [sigmoid(s / k_fsf) for s in scores]
    print(f"{len(data)} positions from {len({g for g, _, _ in data})} games; K_eval = {k_eval:.0f}, "
          f"K_fsf = {k_fsf:.1f} (one FSF centipawn = {k_eval / k_fsf:.3f} of ours)")
    train, valid, test = split([g for g, _, _ in data])
    if not early_stop:
        train, valid = train + valid, []

    def model(idx: list[int], params: EvalParams) -> Model:
        return Model([rows[i] for i in idx], [targets[i] for i in idx], k_eval, params)

    def run(lam: float) -> EvalParams:
        fit, test_model = model(train, DEFAULT_PARAMS), model(test, DEFAULT_PARAMS)
        valid_model = model(valid, DEFAULT_PARAMS) if valid else None

        def validate(params: EvalParams) -> float:
            assert valid_model is not None
            valid_model.trial(params, commit=True)
            return valid_model.loss()

        def report(label: str) -> None:
            v = f", valid {valid_model.loss():.6f}" if valid_model else ""
            print(f"{label}: train mse {fit.loss():.6f}{v}, test mse {test_model.loss():.6f} "
                  f"({len(train)}/{len(valid)}/{len(test)} positions)")

        print(f"-- l2 {lam:g}")
        report("before")
        started = time.perf_counter()
        all_coords = coordinates(DEFAULT_PARAMS)
        for patterns in groups:
            coords = select(all_coords, patterns, anchors)
            print(f"group {','.join(patterns) or 'all'}: {len(coords)} coordinates, l2 {lam:g}")
            tuned = local_search(
                fit, coords, lam=lam, base=DEFAULT_PARAMS, validate=validate if valid_model else None,
                constrain=constrain,
            )
            fit.trial(tuned, commit=True)
            if valid_model:
                valid_model.trial(tuned, commit=True)
            test_model.trial(tuned, commit=True)
            report(f"after {','.join(patterns) or 'all'}")
        print(f"({time.perf_counter() - started:.0f} s)")
        old, new = DEFAULT_PARAMS, fit.params
        changed = [(c, get(old, c), get(new, c)) for c in all_coords if get(new, c) != get(old, c)]
        print(f"{len(changed)} values changed: " + ", ".join(f"{c[0]}[{c[1]}] {a}->{b}" for c, a, b in changed))
        broken = violations(fit.params)
        print("invariants kept" if not broken else "invariants broken: " + "; ".join(broken))
        literal = params_literal(fit.params)
        print(literal)
        if out is not None:
            path = out if len(lams) == 1 else out.with_name(f"{out.stem}-l2={lam:g}{out.suffix}")
            path.write_text(literal + "\n")
        return fit.params

    return {lam: run(lam) for lam in lams}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    data = commands.add_parser("make-data", help="score quiet positions of real games with Fairy-Stockfish")
    data.add_argument("--games", type=Path, default=DEFAULT_GAMES)
    data.add_argument("--out", type=Path, default=DEFAULT_DATA)
    data.add_argument("--depth", type=int, default=8)
    data.add_argument("--limit", type=int, default=None, help="stop after this many positions")
    data.add_argument("--fresh", action="store_true", help="start the cache afresh instead of resuming it")
    fit = commands.add_parser("tune", help="fit K and the evaluation's parameters to the scores")
    fit.add_argument("--data", type=Path, default=DEFAULT_DATA)
    fit.add_argument("--check", type=int, default=200, help="positions whose features are checked against evaluate")
    fit.add_argument(
        "--fields", default="",
        help="groups of EvalParams fields tuned one after the other: fields (shell patterns) comma-separated, "
        "groups separated by ';' (default: all at once)",
    )
    fit.add_argument(
        "--l2", default="0", help="ridge weights (comma-separated, one fit each): cost of moving a value by 100 cp",
    )
    fit.add_argument("--anchor", default="material:1", help="coordinates held fixed, comma-separated field:index")
    fit.add_argument("--k-eval", type=float, default=K_EVAL, help="win-rate scale of the built-in evaluation")
    fit.add_argument("--no-early-stop", action="store_true", help="train on the validation games too, no early stop")
    fit.add_argument("--out", type=Path, default=None, help="write the tuned literal here")
    fit.add_argument(
        "--free", action="store_true", help="let steps break the evaluation's invariants (hand >= board, ...)",
    )
    args = parser.parse_args(argv)
    if args.command == "make-data":
        make_data(args.games, args.out, args.depth, args.limit, resume=not args.fresh)
    else:
        groups = [[f for f in group.split(",") if f] for group in args.fields.split(";")]
        anchors = [parse_coord(a) for a in args.anchor.split(",") if a]
        tune(
            args.data, args.check, groups, lams=[float(x) for x in args.l2.split(",")], anchors=anchors,
            k_eval=args.k_eval, early_stop=not args.no_early_stop, out=args.out, keep_invariants=not args.free,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
