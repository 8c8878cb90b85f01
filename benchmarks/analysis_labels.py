"""How far the built-in engine's labels can be trusted, measured against Fairy-Stockfish.

Analyses N real games (professional title games and lishogi amateur games from
/work/shared/data, taken in turn) twice: with the built-in engine at --builtin-time seconds a
position and with Fairy-Stockfish at --reference-time seconds (both with the re-search of
candidate mistakes that ``shogiban analyse`` does), then reports

* built-in blunders per game, and how many of them Fairy-Stockfish confirms (its loss for the
  same move >= 10 points of win rate); the rest are "unconfirmed";
* the share of Fairy-Stockfish's mistakes + blunders that the built-in engine labels (any
  label, and mistake or worse);
* the same figures for the built-in engine's first searches alone (before the re-search).

Targets (issue 23): at most one unconfirmed built-in blunder per game on average, and at least
60% of Fairy-Stockfish's mistakes found.

    PYTHONPATH=src python benchmarks/analysis_labels.py --games 2

Fairy-Stockfish's judgments are kept in --reference-cache (a JSON file, keyed by game, engine
and reference time), so that a re-run searches with the built-in engine only.  --verbose prints
each unconfirmed built-in blunder and each FSF mistake the built-in engine left unlabelled.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shogiban.analysis import Analyser, GameAnalysis, Label, MoveAnalysis
from shogiban.analysis.classify import classify
from shogiban.engines import Limit, SimpleEngine
from shogiban.kifu import Game, read_game

DATA = Path("/work/shared/data")
PROFESSIONAL = [
    DATA / "kif/ShogiBoardQ/oui202509090101.kif",
    DATA / "multi_format/ShogiBoardQ-kiou202503020101/kiou202503020101.kif",
]
AMATEUR = DATA / "usi_games/lishogi_prod_500.usi"
CONFIRMED = 0.10
"""A built-in label is confirmed when Fairy-Stockfish's loss for the move is at least this."""
MISTAKES = (Label.MISTAKE, Label.BLUNDER)


def _read(path: Path) -> Game:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp932")
    return read_game(text)


def games(count: int, min_plies: int = 60) -> list[tuple[str, Game]]:
    """*count* games: professional and amateur in turn."""
    pro = [(f"pro:{p.name}", _read(p)) for p in PROFESSIONAL if p.exists()]
    amateur: list[tuple[str, Game]] = []
    lines = [line for line in AMATEUR.read_text().splitlines() if line and not line.startswith("#")]
    for index, line in enumerate(lines):
        if len(line.split()) >= min_plies:
            amateur.append((f"lishogi:{index}", read_game("position startpos moves " + line)))
        if len(amateur) >= count:
            break
    chosen: list[tuple[str, Game]] = []
    while len(chosen) < count and (pro or amateur):
        for pool in (pro, amateur):
            if pool and len(chosen) < count:
                chosen.append(pool.pop(0))
    return chosen


@dataclass(frozen=True, slots=True)
class Judged:
    """What the benchmark needs of one move's judgment (the reference's comes from the cache)."""

    ply: int
    move: str
    loss: float
    label: Label | None
    best: str | None

    def to_json(self) -> dict[str, object]:
        return {"ply": self.ply, "move": self.move, "loss": self.loss,
                "label": None if self.label is None else self.label.value, "best": self.best}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Judged:
        label = data["label"]
        return cls(int(data["ply"]), str(data["move"]), float(data["loss"]),
                   None if label is None else Label(label), data["best"])


def judged(analysis: GameAnalysis) -> dict[int, Judged]:
    """The main line's judged moves by ply; the best move is the one the loss was measured
    against (the re-search's, when there was one)."""
    found: dict[int, Judged] = {}
    for m in analysis.mainline_moves():
        best = m.confirmation.best.pv[0] if m.confirmation is not None and m.confirmation.best.pv else m.best_move
        found[m.ply] = Judged(m.ply, m.move.usi(), m.loss, m.label, None if best is None else best.usi())
    return found


class ReferenceCache:
    """The reference engine's judgments of whole games in a JSON file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict[str, list[dict[str, Any]]] = {}
        if path is not None and path.exists():
            self.data = json.loads(path.read_text())

    def get(self, key: str) -> dict[int, Judged] | None:
        moves = self.data.get(key)
        return None if moves is None else {j.ply: j for j in map(Judged.from_json, moves)}

    def put(self, key: str, moves: dict[int, Judged]) -> None:
        self.data[key] = [j.to_json() for j in moves.values()]
        if self.path is not None:
            self.path.write_text(json.dumps(self.data))


def first_label(move_loss: float, first: float | None) -> Label | None:
    return classify(move_loss if first is None else first)


def _detail(mine: Judged, theirs: Judged | None, m: MoveAnalysis) -> str:
    text = f"ply {mine.ply} {mine.move}: built-in loss {mine.loss:.0%} (best {mine.best}"
    if m.first_loss is not None:
        text += f", first search {m.first_loss:.0%}"
    if m.confirmation is not None:
        best, played = m.confirmation.best, m.confirmation.played
        text += (f"; re-search ({m.confirmation.limit}) {best.score} depth {best.depth} against "
                 f"{played.score} depth {played.depth}")
    text += ")"
    if theirs is not None:
        text += f"; FSF loss {theirs.loss:.0%} (best {theirs.best})"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--builtin-time", type=float, default=0.3)
    parser.add_argument("--reference-time", type=float, default=1.0)
    parser.add_argument("--reference", default="/usr/games/fairy-stockfish")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--reference-cache", type=Path, default=Path("/tmp/shogiban-analysis-labels-fsf.json"),
                        help="JSON file keeping the reference engine's judgments between runs")
    parser.add_argument("--no-reference-cache", action="store_true")
    parser.add_argument("--verbose", action="store_true",
                        help="print the unconfirmed built-in blunders and the FSF mistakes the built-in missed")
    args = parser.parse_args(argv)
    if shutil.which(args.reference) is None:
        print(f"no reference engine at {args.reference}", file=sys.stderr)
        return 2
    chosen = games(args.games)
    cache = ReferenceCache(None if args.no_reference_cache else args.reference_cache)
    totals = {"games": 0, "plies": 0, "builtin_blunders": 0, "unconfirmed_blunders": 0,
              "first_blunders": 0, "first_unconfirmed": 0, "fsf_mistakes": 0, "found_any": 0,
              "found_mistake": 0, "first_found_any": 0, "builtin_searches": 0, "fsf_searches": 0}
    started = time.perf_counter()
    with SimpleEngine.builtin(level=8, seed=0, hash_mb=64) as builtin, SimpleEngine.popen_usi(args.reference) as fsf:
        if "Threads" in fsf.options:
            fsf.configure({"Threads": 1})
        for name, game in chosen:
            mine = Analyser(builtin, Limit(time=args.builtin_time), independent=True,
                            engine_name="shogiban built-in level 8")
            ref = Analyser(fsf, Limit(time=args.reference_time), independent=True)
            a: GameAnalysis = mine.game(game)
            key = f"{name}|{fsf.name}|{args.reference_time:g}"
            theirs = cache.get(key)
            if theirs is None:
                theirs = judged(ref.game(game))
                cache.put(key, theirs)
            ours = judged(a)
            blunders = unconfirmed = first_blunders = first_unconfirmed = 0
            fsf_mistakes = found_any = found_mistake = first_found = 0
            for m in a.mainline_moves():
                other = theirs.get(m.ply)
                if other is not None and other.move != m.move.usi():
                    raise SystemExit(f"{args.reference_cache} does not hold {name}: remove it")
                agreed = other is not None and other.loss >= CONFIRMED
                if m.label is Label.BLUNDER:
                    blunders += 1
                    unconfirmed += not agreed
                    if args.verbose and not agreed:
                        print(f"  unconfirmed blunder: {_detail(ours[m.ply], other, m)}")
                if first_label(m.loss, m.first_loss) is Label.BLUNDER:
                    first_blunders += 1
                    first_unconfirmed += not agreed
                if other is not None and other.label in MISTAKES:
                    fsf_mistakes += 1
                    found_any += m.label is not None
                    found_mistake += m.label in MISTAKES
                    first_found += first_label(m.loss, m.first_loss) is not None
                    if args.verbose and m.label is None:
                        print(f"  missed FSF {other.label.value}: {_detail(ours[m.ply], other, m)}")
            plies = len(a.mainline_moves())
            print(f"{name}: {plies} plies; built-in blunders {blunders} ({unconfirmed} unconfirmed; first searches "
                  f"{first_blunders}, {first_unconfirmed} unconfirmed); FSF mistakes+blunders {fsf_mistakes}, "
                  f"labelled by built-in {found_any} (mistake+ {found_mistake}; first searches {first_found}); "
                  f"re-searched: built-in {mine.confirmations}, FSF {ref.confirmations}", flush=True)
            for key, value in (("games", 1), ("plies", plies), ("builtin_blunders", blunders),
                               ("unconfirmed_blunders", unconfirmed), ("first_blunders", first_blunders),
                               ("first_unconfirmed", first_unconfirmed), ("fsf_mistakes", fsf_mistakes),
                               ("found_any", found_any), ("found_mistake", found_mistake),
                               ("first_found_any", first_found), ("builtin_searches", mine.searches),
                               ("fsf_searches", ref.searches)):
                totals[key] += value
        engines = f"{builtin.name} level 8 at {args.builtin_time:g} s; {fsf.name} at {args.reference_time:g} s"
    n = max(1, totals["games"])
    share = (lambda x: x / totals["fsf_mistakes"]) if totals["fsf_mistakes"] else (lambda x: float("nan"))
    print(f"\n{engines}; {totals['games']} games, {totals['plies']} plies, "
          f"{time.perf_counter() - started:.0f} s")
    print(f"built-in blunders per game:             {totals['builtin_blunders'] / n:.2f}")
    print(f"  unconfirmed by FSF (loss < 10 pts):   {totals['unconfirmed_blunders'] / n:.2f} per game "
          "(target <= 1)")
    print(f"  first searches alone: {totals['first_blunders'] / n:.2f} per game, "
          f"{totals['first_unconfirmed'] / n:.2f} unconfirmed")
    print(f"FSF mistakes+blunders:                  {totals['fsf_mistakes']}")
    print(f"  labelled by built-in (any label):     {share(totals['found_any']):.0%} (target >= 60%)")
    print(f"  labelled mistake or blunder:          {share(totals['found_mistake']):.0%}")
    print(f"  first searches alone (any label):     {share(totals['first_found_any']):.0%}")
    if args.json:
        print(json.dumps(totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
