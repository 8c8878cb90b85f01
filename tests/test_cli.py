from __future__ import annotations

import subprocess
import sys

import pytest

from shogiban.cli import main


def test_perft_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip() == "25470"


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--depth", "2", "--divide", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 b - 1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == str(sum(int(line.split(": ")[1]) for line in lines[:-1]))


def test_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--depth", "2", "--sfen", "9/9/9 b -"]) == 1
    err = capsys.readouterr().err
    assert "invalid sfen" in err
    assert "'9/9/9 b -'" in err


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "perft" in capsys.readouterr().out


def test_python_dash_m() -> None:
    result = subprocess.run([sys.executable, "-m", "shogiban", "perft", "--depth", "2"],
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "900"
