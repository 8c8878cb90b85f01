"""``shogiban play`` as a user runs it: a subprocess with its input piped in."""

from __future__ import annotations

import io
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shogiban import Termination
from shogiban.cli import main
from shogiban.kifu import read_game

ROOT = Path(__file__).resolve().parents[2]
STANDIN_USI = ROOT / "tests" / "fakes" / "standin_usi.py"
MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"


def shogiban_play(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    for name in ("FORCE_COLOR", "NO_COLOR", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        environment.pop(name, None)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "shogiban", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        timeout=timeout,
        cwd=ROOT,
    )


def test_two_people_to_mate() -> None:
    done = shogiban_play("--human", "--sfen", MATE_IN_ONE, "--no-color", stdin="G*5b\n")
    assert done.returncode == 0, done.stderr
    assert "☗ Sente > G*5b" in done.stdout
    assert "Checkmate: Gote's king cannot escape. Sente wins." in done.stdout


def test_a_session_with_mistakes_commands_and_a_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "game.kif"
    script = (
        "\n".join(
            [
                "P*5e",  # no pawn in hand
                "7g7f",
                "3c3d",
                "２二角成",  # 8h2b+
                "同銀",  # 3a2b
                "B*5e",
                "undo",
                "４五角",  # a drop: B*4e
                "resign",
                f"save {path}",
                "quit",
            ]
        )
        + "\n"
    )
    done = shogiban_play("--human", "--no-color", stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Illegal move P*5e: there is no pawn in your hand." in out
    assert "Took back 1 move(s)." in out
    assert "Gote resigns." in out
    assert "Gote resigned. Sente wins." in out
    assert f"Saved the game to {path}." in out
    game = read_game(path)
    assert [m.usi() for m in game.mainline_moves()] == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.RESIGNATION


def test_japanese_input_and_ambiguity_through_the_command_line() -> None:
    done = shogiban_play(
        "--human", "--no-color", "--lang", "ja", "--sfen", "4k4/9/3G1G3/9/9/9/9/9/4K4 b - 1", stdin="５二金\n５二金右\n"
    )
    assert "'５二金' だけでは決まりません。候補：▲５二金左 (6c5b), ▲５二金右 (4c5b)" in done.stdout
    assert "詰みです。" in done.stdout


def test_builtin_engine_mates_the_human() -> None:
    done = shogiban_play("--color", "white", "--level", "8", "--movetime", "0.5", "--sfen", MATE_IN_ONE, "--no-color")
    assert done.returncode == 0, done.stderr
    assert "Sente plays G*5b." in done.stdout
    assert "Checkmate: Gote's king cannot escape. Sente wins." in done.stdout


def test_usi_engine_command() -> None:
    engine = f"{sys.executable} {STANDIN_USI}"
    done = shogiban_play(
        "--color",
        "white",
        "--engine",
        engine,
        "--sfen",
        "9/9/1k7/9/9/9/9/2s2rr2/6K2 b - 1",
        "--no-color",
        stdin="4h4i+\n",
    )
    assert done.returncode == 0, done.stderr
    assert "Sente plays K-2i." in done.stdout
    assert "Checkmate: Sente's king cannot escape. Gote wins." in done.stdout


@pytest.mark.engines
def test_gpsshogi_mates_the_human() -> None:
    if shutil.which("/usr/games/gpsusi") is None:
        pytest.skip("gpsusi is not installed (Debian package gpsshogi)")
    done = shogiban_play(
        "--color",
        "white",
        "--engine",
        "/usr/games/gpsusi",
        "--movetime",
        "1",
        "--sfen",
        MATE_IN_ONE,
        "--no-color",
        timeout=120,
    )
    assert "Checkmate: Gote's king cannot escape. Sente wins." in done.stdout


def test_loss_on_time_with_a_tiny_clock() -> None:
    environment = {**os.environ, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "shogiban", "play", "--human", "--byoyomi", "0.5", "--no-color"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=environment,
        cwd=ROOT,
    )
    started = time.monotonic()
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    assert process.stdin is not None
    assert process.stderr is not None
    stdout = process.stdout

    def pump() -> None:
        for line in stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    try:
        # Nobody types: the input stays open and the byoyomi runs out.
        while not any("ran out of time" in line for line in seen):
            seen.append(lines.get(timeout=30))
        elapsed = time.monotonic() - started
    finally:
        process.stdin.close()  # leave the after-game prompt
        code = process.wait(timeout=30)
        process.stderr.close()
    out = "".join(seen)
    assert code == 0
    assert elapsed >= 0.5
    assert "Sente ran out of time. Gote wins." in out
    assert "(in byoyomi)" in out


# -- in-process runs of the same command line (each subprocess costs seconds of start-up) ---------------


def run_main(
    args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    for name in ("FORCE_COLOR", "NO_COLOR", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Sente to move", "Game abandoned."]),
        ("ja", ["先手の手番", "対局を中断しました。", "九"]),
        ("zh-Hant", ["輪到先手", "對局已中止。", "後手"]),
        ("zh-Hans", ["轮到先手", "对局已中止。", "后手"]),
    ],
)
def test_every_language_renders(
    language: str, words: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(["--human", "--lang", language, "--no-color"], "quit\n", monkeypatch, capsys)
    assert code == 0
    for word in words:
        assert word in out


def test_language_from_the_locale(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LC_ALL", "zh_TW.UTF-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--human", "--no-color"]) == 0
    assert "輪到先手" in capsys.readouterr().out


def test_colours_and_no_colours(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    main(["play", "--human"])
    assert "\x1b[" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    main(["play", "--human", "--no-color"])
    assert "\x1b[" not in capsys.readouterr().out


def test_handicap_game_the_engine_gives_and_moves_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--handicap", "香落ち", "--level", "1", "--movetime", "0.1", "--lang", "ja", "--no-color", "--seed", "1"]
    code, out, _ = run_main(args, "quit\n", monkeypatch, capsys)
    assert code == 0
    assert "駒落ち（香落ち）：上手が駒を落とし、先に指します。" in out
    assert "上手 (shogiban エンジン（レベル 1）)" in out
    assert "上手が考えています" not in out
    assert "shogiban エンジン（レベル 1）が考えています…" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "fr"], "unknown language: 'fr'"),
        (["--level", "9"], "invalid level: 9"),
        (["--time", "soon"], "invalid duration: 'soon'"),
        (["--handicap", "queen"], "unknown handicap: 'queen'"),
        (["--color", "red"], "invalid color: 'red'"),
        (["--sfen", "9/9 b - 1"], "9/9 b - 1"),
    ],
)
def test_bad_options_are_refused(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(args, "quit\n", monkeypatch, capsys)
    assert code != 0
    assert message in err
