"""Regression tests for the command line's security findings (issue 21, findings 11-13, 15)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from shogiban.cli import main
from shogiban.kifu.encoding import read_input_file
from shogiban.kifu.read_limits import KifuLimitError

GIFT = "+7776FU\n-3334FU\n+8833UM\n-2233KA\n%TORYO\n"
SRC = str(Path(__file__).resolve().parents[2] / "src")


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command in its own process: a regression that blocks fails by the (generous) timeout
    instead of hanging the suite."""
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-m", "shogiban", *argv], capture_output=True, text=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL, check=False)
    done.stderr = " ".join(done.stderr.split())  # the progress display wraps lines
    return done


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


# -- finding 11: what is read, and how much ------------------------------------------------------

@pytest.mark.parametrize("command", ["analyse", "solve", "convert"])
def test_commands_refuse_a_fifo(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "game.kif"
    os.mkfifo(fifo)
    extras = {"convert": ["--to", "usi"], "analyse": ["--depth", "1", "--no-cache"], "solve": []}
    extra = extras[command]
    done = _cli(command, str(fifo), *extra)
    assert done.returncode == 1
    assert "not a regular file" in done.stderr
    assert "Traceback" not in done.stderr


def test_analyse_refuses_a_device(tmp_path: Path) -> None:
    done = _cli("analyse", "/dev/zero", str(tmp_path / "out.kif"), "--depth", "1", "--no-cache")
    assert done.returncode == 1
    assert "not a regular file" in done.stderr


def test_solve_refuses_a_device() -> None:
    done = _cli("solve", "/dev/zero")
    assert done.returncode == 1
    assert "not a regular file" in done.stderr


def test_a_large_sparse_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.kif"
    with big.open("wb") as handle:
        handle.truncate(3 * 1024**3)  # sparse: 3 GB that take no room
    tracemalloc.start()
    try:
        with pytest.raises(KifuLimitError) as error:
            read_input_file(big, 16_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.value.limit == "max_input"
    assert peak < 1_000_000  # nothing of the file was read
    for argv in (["analyse", str(big), "--depth", "1", "--no-cache"], ["solve", str(big)],
                 ["convert", str(big), "--to", "usi"]):
        done = _cli(*argv)
        assert done.returncode == 1, argv
        assert "larger than" in done.stderr, argv


# -- finding 12: caches that cannot be used --------------------------------------------------------

def _bad_caches(tmp_path: Path) -> dict[str, Path]:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 100)
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE positions (a TEXT, b TEXT)")
    db.close()
    return {"garbage": garbage, "folder": folder, "other": other}


@pytest.mark.parametrize("kind", ["garbage", "folder", "other"])
def test_analyse_sets_aside_a_cache_it_cannot_use(tmp_path: Path, kind: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cache = _bad_caches(tmp_path)[kind]
    before = cache.read_bytes() if cache.is_file() else None
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--depth", "1", "--cache", str(cache)]) == 0
    err = capsys.readouterr().err
    assert "going on without it" in err
    assert "Traceback" not in err
    assert (tmp_path / "gift-analysis.csa").exists()
    if before is not None:
        assert cache.read_bytes() == before  # set aside: left as it was


def test_analyse_with_jobs_and_a_bad_cache_analyses_every_file(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("a.csa", "b.csa"):
        (folder / name).write_text(GIFT)
    cache = tmp_path / "garbage.sqlite"
    cache.write_bytes(b"not sqlite" * 100)
    done = _cli("analyse", str(folder), str(tmp_path / "out"), "--depth", "1", "--jobs", "2", "--cache", str(cache))
    assert done.returncode == 0, done.stderr
    assert "BrokenProcessPool" not in done.stderr
    assert done.stderr.count("going on without it") == 1
    assert (tmp_path / "out" / "a.csa").exists()
    assert (tmp_path / "out" / "b.csa").exists()


@pytest.mark.parametrize("lines", ['[{"score":{"cp":1e400},"depth":1}]', '[{"score":{"cp":1},"depth":1e400}]',
                                   '["x"]', '[[1]]', '{"a":1}', '[{"score":"cp"}]', '[{"score":{"cp":1},"pv":[3]}]'])
def test_analyse_recomputes_a_damaged_cache_entry(tmp_path: Path, lines: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    cache = tmp_path / "cache.sqlite"
    assert main(["analyse", str(source), "--depth", "1", "--cache", str(cache)]) == 0
    with sqlite3.connect(cache) as db:
        db.execute("UPDATE positions SET lines = ?", (lines,))
        db.execute("DELETE FROM records")
    db.close()
    capsys.readouterr()
    assert main(["analyse", str(source), "--depth", "1", "--cache", str(cache), "--json"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert '"score":{"cp"' in captured.out  # searched again


# -- finding 13: options -----------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["--multipv", "1000000000"], ["--multipv", "0"], ["--depth", "1000000000"], ["--depth", "0"],
    ["--movetime", "1e308"], ["--movetime", "nan"], ["--movetime", "inf"], ["--movetime", "-1"],
    ["--nodes", "0"], ["--jobs", "0"], ["--jobs", "100000"], ["--max-positions", "0"], ["--depth", "x"],
])
def test_analyse_refuses_numbers_out_of_range(tmp_path: Path, argv: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(capsys, "analyse", str(tmp_path / "x.kif"), *argv)
    assert argv[0] in err
    assert len(err.strip().splitlines()[-1]) < 200


@pytest.mark.parametrize("argv", [["--timeout", "nan"], ["--timeout", "0"], ["--timeout", "1e308"],
                                  ["--max-nodes", "0"], ["--max-nodes", "1" + "0" * 30]])
def test_solve_refuses_numbers_out_of_range(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert argv[0] in _usage_error(capsys, "solve", "9/9/9/9/9/9/9/9/9 b - 1", *argv)


def test_convert_refuses_a_negative_ply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "--ply" in _usage_error(capsys, "convert", str(tmp_path / "x.csa"), "--to", "bod", "--ply", "-5")


def test_convert_refuses_a_ply_beyond_the_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    for fmt in ("bod", "svg"):
        assert main(["convert", str(source), "--to", fmt, "--ply", "99999"]) == 1
        err = capsys.readouterr().err
        assert "main line has 4 moves" in err
        assert "Traceback" not in err


def test_analyse_refuses_an_engine_with_an_unclosed_quote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--engine", "'abc", "--no-cache"]) == 1
    err = capsys.readouterr().err
    assert "invalid engine command" in err
    assert "Traceback" not in err


# -- finding 15: writing over an input -----------------------------------------------------------------

def test_analyse_refuses_to_overwrite_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), str(source), "--depth", "1", "--no-cache"]) == 1
    assert "refusing to write over the input" in capsys.readouterr().err
    assert source.read_text() == GIFT
    link = tmp_path / "link.csa"
    link.symlink_to(source)
    assert main(["analyse", str(source), str(link), "--depth", "1", "--no-cache"]) == 1
    assert main(["analyse", str(source), "--depth", "1", "--cache", str(source)]) == 1
    assert source.read_text() == GIFT
    capsys.readouterr()
    assert main(["analyse", str(source), str(source), "--depth", "1", "--no-cache", "--overwrite"]) == 0
    assert source.read_bytes() != GIFT.encode()


def test_convert_refuses_to_overwrite_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["convert", str(source), str(source)]) == 1
    assert "refusing to write over the input" in capsys.readouterr().err
    assert source.read_text() == GIFT
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.csa").write_text(GIFT)
    assert main(["convert", str(folder), str(folder), "--to", "csa"]) == 1
    assert (folder / "a.csa").read_text() == GIFT


def test_convert_refuses_records_past_its_move_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Finding 14: a conversion's memory is linear in the moves (about 1.5 KB each), so the number
    # of moves is bounded (200,000 by default) with a clear one-line error past it.
    record = tmp_path / "game.usi"
    record.write_text("position startpos moves 7g7f 3c3d 2g2f 8c8d\n", encoding="utf-8")
    assert main(["convert", str(record), "--to", "csa", "--max-moves", "3"]) == 1
    err = capsys.readouterr().err
    assert "more than 3 moves" in err
    assert "Traceback" not in err
    assert main(["convert", str(record), "--to", "csa", "--max-moves", "4"]) == 0
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(record), "--to", "csa", "--max-moves", "0"])
    assert exited.value.code == 2
