"""``shogiban analyse`` end to end, with the built-in engine at a small depth."""

from __future__ import annotations

import json
import shutil
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from shogiban import __version__
from shogiban.analysis.comments import analysis_from_game
from shogiban.cli import main
from shogiban.kifu import read_game_file

GIFT = "+7776FU\nT1\n-3334FU\nT1\n+8833UM\nT1\n-2233KA\nT1\n%TORYO\n"


def _schema() -> dict[str, object]:
    data = json.loads(resources.files("shogiban.analysis").joinpath("analysis.schema.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def _json_lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--depth", "3", "--json", "--lang", "ja"]) == 0
    captured = capsys.readouterr()
    (game,) = _json_lines(captured.out)
    jsonschema.validate(game, _schema())
    assert game["name"] == "gift.csa"
    positions = game["positions"]
    assert isinstance(positions, list)
    assert [p["label"] for p in positions[1:]] == [None, None, "blunder", None]
    assert all("score" in p and "best_move" in p and "pv" in p for p in positions)
    assert "gift.csa の解析" in captured.err  # the summary table's title
    assert "大悪手" in captured.err
    assert "勝負所：3. 8h3c+\n" in captured.err  # the only big swing
    record = tmp_path / "gift-analysis.csa"
    assert (tmp_path / "gift-analysis.svg").read_text().startswith("<svg")
    text = record.read_text("cp932")
    assert "'** " in text
    assert "'*【大悪手】" in text
    # The record written reads back as the same analysis.
    again = analysis_from_game(read_game_file(record))
    assert [m.label.value if m.label else None for m in again.mainline_moves()] == [None, None, "blunder", None]


def test_out_suffix_chooses_the_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    out = tmp_path / "out" / "gift.kifu"
    out.parent.mkdir()
    assert main(["analyse", str(source), str(out), "--depth", "2", "--multipv", "2"]) == 0
    text = out.read_text("utf-8")
    assert "*#評価値=" in text
    assert "*【大悪手】" in text
    assert (tmp_path / "out" / "gift.svg").exists()
    assert (tmp_path / "out" / ".shogiban-analysis.sqlite").exists()


def _folder(tmp_path: Path, shared_data: Path) -> Path:
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    (folder / "gift.csa").write_text(GIFT)
    picked = sorted((shared_data / "csa" / "shogi-server").glob("oute_sennichite*.csa"))[:2]
    for path in picked:
        shutil.copy(path, folder / "sub" / path.name)
    return folder


@pytest.mark.slow
def test_a_folder_in_two_processes_equals_one(tmp_path: Path, shared_data: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, shared_data)
    results = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        assert main(["analyse", str(folder), str(out), "--depth", "1", "--jobs", jobs, "--json", "--no-cache"]) == 0
        lines = _json_lines(capsys.readouterr().out)
        for game in lines:
            jsonschema.validate(game, _schema())
        results[jobs] = lines
        assert sorted(p.name for p in out.rglob("*.csa")) == sorted(p.name for p in folder.rglob("*.csa"))
        assert len(list(out.rglob("*.svg"))) == 3
    assert len(results["1"]) == 3
    assert results["1"] == results["2"]
    for path in (tmp_path / "out1").rglob("*.csa"):
        twin = tmp_path / "out2" / path.relative_to(tmp_path / "out1")
        assert path.read_bytes() == twin.read_bytes()


def test_a_folder_run_again_skips_what_was_analysed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.csa").write_text(GIFT)
    (folder / "b.csa").write_text(GIFT.replace("+8833UM\nT1\n-2233KA\nT1\n", ""))
    out = tmp_path / "out"
    assert main(["analyse", str(folder), str(out), "--depth", "1", "--jobs", "1", "--json"]) == 0
    assert len(_json_lines(capsys.readouterr().out)) == 2
    assert main(["analyse", str(folder), str(out), "--depth", "1", "--jobs", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # both skipped
    assert captured.err.count("skipped") == 2
    # Another limit is another analysis.
    assert main(["analyse", str(folder), str(out), "--depth", "2", "--jobs", "1", "--json"]) == 0
    assert len(_json_lines(capsys.readouterr().out)) == 2
    # A changed record is analysed again; its positions already searched come from the cache.
    (folder / "b.csa").write_text(GIFT)
    assert main(["analyse", str(folder), str(out), "--depth", "1", "--jobs", "1", "--json"]) == 0
    (game,) = _json_lines(capsys.readouterr().out)
    assert game["name"] == "b.csa"


def test_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--engine", "builtin:9"]) == 1
    assert "level" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.kif")]) == 1
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:  # a number out of range is a usage error, as argparse's
        main(["analyse", str(source), "--multipv", "0"])
    assert exit_info.value.code == 2
    assert "--multipv" in capsys.readouterr().err


def test_an_engine_that_does_not_start_fails_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--engine", str(tmp_path / "no-such-engine"), "--depth", "1"]) == 1
    assert "no-such-engine" in capsys.readouterr().err


def test_a_usi_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    command = f"{sys.executable} -m shogiban.usi.server"
    assert main(["analyse", str(source), "--engine", command, "--depth", "2", "--json"]) == 0
    (game,) = _json_lines(capsys.readouterr().out)
    jsonschema.validate(game, _schema())
    positions = game["positions"]
    assert isinstance(positions, list)
    assert positions[3]["label"] == "blunder"
    assert game["engine"] == f"shogiban {__version__}"  # the engine's own id name


def test_a_file_into_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    out = tmp_path / "out"
    out.mkdir()
    assert main(["analyse", str(source), str(out), "--depth", "1"]) == 0
    assert (out / "gift.csa").exists()
    assert (out / "gift.svg").exists()
    capsys.readouterr()


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_workers_die_with_the_command(tmp_path: Path, shared_data: Path) -> None:
    import os
    import signal
    import subprocess
    import time

    folder = tmp_path / "games"
    folder.mkdir()
    for path in sorted((shared_data / "csa" / "shogi-server").glob("*.csa"))[:4]:
        shutil.copy(path, folder / path.name)
    parent = subprocess.Popen(
        [sys.executable, "-m", "shogiban", "analyse", str(folder), str(tmp_path / "out"), "--depth", "6",
         "--jobs", "2", "--no-cache"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = [pid for pid in _children(parent.pid)
                       if "multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")]
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(1.0)
        assert parent.poll() is None, "the analysis ended before it could be killed"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
            time.sleep(0.1)
        alive = [pid for pid in workers if Path(f"/proc/{pid}").exists()
                 and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
        assert not alive
    finally:
        if parent.poll() is None:
            parent.kill()


def test_engine_auto_prefers_the_configured_engine(tmp_path: Path) -> None:
    from shogiban.analysis.batch import EngineSpec

    assert EngineSpec.auto({"SHOGIBAN_ENGINE": "/opt/engine --flag"}, known=()) == EngineSpec(
        command=("/opt/engine", "--flag"))
    assert EngineSpec.auto({"SHOGIBAN_ENGINE": "builtin:3"}, known=()) == EngineSpec(level=3)
    program = tmp_path / "engine"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    not_executable = tmp_path / "plain"
    not_executable.write_text("")
    assert EngineSpec.auto({}, known=(str(not_executable), str(program))) == EngineSpec(command=(str(program),))
    assert EngineSpec.auto({"SHOGIBAN_ENGINE": " "}, known=(str(tmp_path / "missing"),)) == EngineSpec()
    assert EngineSpec.auto({"SHOGIBAN_ENGINE": "auto"}, known=()) == EngineSpec()  # no loop


def test_engine_auto_runs_the_configured_usi_engine_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    monkeypatch.setenv("SHOGIBAN_ENGINE", f"{sys.executable} -m shogiban.usi.server")
    out = tmp_path / "gift-analysis.kif"
    assert main(["analyse", str(source), str(out), "--engine", "auto", "--depth", "2", "--json", "--no-cache"]) == 0
    captured = capsys.readouterr()
    (game,) = _json_lines(captured.out)
    jsonschema.validate(game, _schema())
    assert game["engine"] == f"shogiban {__version__}"  # the USI engine's id name
    assert (game["limit"], game["confirm_limit"]) == ("depth 2", "depth 4")
    assert f"shogiban {__version__}" in captured.err
    assert "depth 2" in captured.err
    assert f"#解析=shogiban {__version__}; depth 2; 再探索 depth 4" in read_game_file(out).root.comment


def test_the_built_in_engine_is_named_with_its_level_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shogiban.analysis import batch

    monkeypatch.delenv("SHOGIBAN_ENGINE", raising=False)
    monkeypatch.setattr(batch, "KNOWN_ENGINES", ())  # auto falls back to the built-in engine
    source = tmp_path / "gift.csa"
    source.write_text(GIFT)
    assert main(["analyse", str(source), "--engine", "auto", "--depth", "2", "--json", "--no-cache"]) == 0
    captured = capsys.readouterr()
    (game,) = _json_lines(captured.out)
    assert game["engine"] == "shogiban built-in level 8"
    assert "shogiban built-in level 8" in captured.err
    assert "possible mistakes searched again: depth 4" in " ".join(captured.err.split())
    record = read_game_file(tmp_path / "gift-analysis.csa")
    assert "#解析=shogiban built-in level 8; depth 2; 再探索 depth 4" in record.root.comment
    # Read back, the record's analysis keeps its label (the header line is no position's analysis).
    again = analysis_from_game(read_game_file(tmp_path / "gift-analysis.csa"))
    assert [m.label.value if m.label else None for m in again.mainline_moves()][2] == "blunder"
