"""Batch analysis on Ray (``shogiban analyse DIR --cluster ray``): a local two-worker Ray on 20
games gives exactly what ``--jobs 1`` gives, and a run again skips what was analysed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from shogiban import Board
from shogiban.analysis.batch import BatchOptions, EngineSpec, FileResult, record_jobs, run_batch
from shogiban.analysis.cluster import ClusterError, parse_cluster, run_on_ray
from shogiban.engines import Limit
from shogiban.kifu import read_game, write_game


def test_the_cluster_option_names_a_local_ray_or_an_address() -> None:
    assert parse_cluster("ray") is None
    assert parse_cluster("ray://10.0.0.5:10001") == "ray://10.0.0.5:10001"
    for bad in ("", "ray:", "ray://", "dask", "ray://a b", "RAY"):
        with pytest.raises(ClusterError) as error:
            parse_cluster(bad)
        assert error.value.code == "cluster_unavailable"


def _games(folder: Path, count: int, plies: int = 24) -> None:
    """*count* CSA records of seeded random legal games (no shared data needed)."""
    folder.mkdir()
    rng = random.Random(20)
    for number in range(count):
        board = Board()
        moves = []
        for _ in range(plies):
            legal = sorted(board.legal_moves, key=lambda m: m.usi())
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move.usi())
            board.push(move)
        record = write_game(read_game("position startpos moves " + " ".join(moves)), "csa")
        path = folder / f"game{number:02d}.csa"
        if isinstance(record, bytes):
            path.write_bytes(record)
        else:
            path.write_text(record)


def _comparable(result: FileResult) -> tuple[str, object]:
    return result.status, result.data


@pytest.mark.slow
def test_a_local_ray_gives_what_one_process_gives(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason='needs Ray (pip install "shogiban[cluster]")')
    source = tmp_path / "games"
    _games(source, 20)
    options = BatchOptions(engine=EngineSpec.parse("builtin:8"), limit=Limit(depth=1), cache_path=None)
    here = list(run_batch(record_jobs(source, tmp_path / "here"), options, workers=1))
    cached = BatchOptions(engine=EngineSpec.parse("builtin:8"), limit=Limit(depth=1),
                          cache_path=str(tmp_path / "cache.sqlite"))
    progress: list[tuple[str, int, int]] = []
    try:
        on_ray = list(run_on_ray(record_jobs(source, tmp_path / "ray"), cached, workers=2,
                                 on_progress=lambda *update: progress.append(update)))
    except ClusterError as error:
        pytest.skip(f"Ray cannot start here: {error}")
    assert len(here) == len(on_ray) == 20
    assert [result.status for result in on_ray] == ["done"] * 20
    assert [_comparable(r) for r in on_ray] == [_comparable(r) for r in here]
    for mine in (tmp_path / "here").glob("*.csa"):
        assert (tmp_path / "ray" / mine.name).read_bytes() == mine.read_bytes()
    assert len(progress) == 20  # each file reported as it is done
    # Restartable: a run again finds every record analysed (through the same cache).
    again = list(run_on_ray(record_jobs(source, tmp_path / "ray"), cached, workers=2))
    assert [result.status for result in again] == ["skipped"] * 20


def test_the_command_refuses_an_unknown_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from shogiban.cli import main

    _games(tmp_path / "games", 1)
    assert main(["analyse", str(tmp_path / "games"), str(tmp_path / "out"), "--cluster", "dask"]) != 0
    assert "unknown cluster 'dask'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.csa"))
