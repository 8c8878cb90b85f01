"""``shogiban solve``."""

from __future__ import annotations

from pathlib import Path

import pytest

from shogiban.cli import main

SEVEN = "7k1/5g2g/4G2G1/8L/9/9/9/9/9 b 2r2b4s4n3l18p 1"  # tanuki-7-10 (MIT)


def test_solves_an_sfen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", SEVEN]) == 0
    out = capsys.readouterr().out
    assert "mate in 7: 1d1b+ 2a3a 1b2b 3a4a 2c3b 4a5a G*6b" in out
    assert "japanese: ▲１二香成 △３一玉 ▲２二成香 △４一玉 ▲３二金 △５一玉 ▲６二金打" in out
    assert "unique: yes" in out
    assert "nodes: " in out


def test_complete_hand_and_plain_rules(capsys: pytest.CaptureFixture[str]) -> None:
    # Built here: 1c2b mates by convention; counting every interposition takes 13 plies.
    sfen = "9/8B/8B/9/9/9/1K7/9/k8 b - 1"
    assert main(["solve", sfen, "--complete-hand"]) == 0
    out = capsys.readouterr().out
    assert "sfen: 9/8B/8B/9/9/9/1K7/9/k8 b 2r4g4s4n4l18p 1" in out
    assert "mate in 1: 1c2b" in out
    assert "unique: no (余詰: ply 1: 1c2b (last move))" in out
    assert main(["solve", sfen, "--complete-hand", "--no-conventions"]) == 0
    assert "mate in 13:" in capsys.readouterr().out


def test_file_of_sfens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problems = tmp_path / "problems.sfen"
    problems.write_text(
        f"# two problems and a position with no mate\nsfen {SEVEN}\n\n4k4/9/9/9/9/9/9/9/9 b - 1\n"
        f"position sfen {SEVEN} moves 1d1b+ 2a3a\n",
        encoding="utf-8",
    )
    assert main(["solve", str(problems), "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "problem: problems.sfen:2" in out
    assert out.count("mate in 7:") == 1
    assert "no mate" in out
    assert "mate in 5: 1b2b 3a4a 2c3b 4a5a G*6b" in out


def test_kif_with_a_diagram(test_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The defender's hand is written 残りの駒全部 ("all the remaining pieces").
    assert main(["solve", str(test_data / "tsume" / "chain_1te.kif")]) == 0
    out = capsys.readouterr().out
    assert "problem: chain_1te.kif (recorded: 1c2b+)" in out
    assert "sfen: 9/8B/8B/9/9/9/1K7/9/k8 b 2r4g4s4n4l18p 1" in out
    assert "mate in 1: 1c2b+" in out
    assert "japanese: ▲２二角成" in out


def test_shift_jis_kif_from_the_corpus(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(shared_data / "tsume" / "tsumemi-kif" / "3te-3.kif")]) == 0
    out = capsys.readouterr().out
    assert "problem: 3te-3.kif (recorded: " in out
    assert "mate in 3:" in out


def test_timeout_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "4k4/9/9/9/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1", "--timeout", "0.2"]) == 3
    assert "timeout" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "nonsense"], "'nonsense' is neither an SFEN nor an existing file"),
        (["solve", "9/9/9 b - 1"], "invalid sfen"),
        (["solve", "9/9/9/9/4K4/9/9/9/9 b 2R 1"], "no king to mate"),
        (["solve", f"position sfen {SEVEN} moves 1a1b"], "illegal move: '1a1b'"),
    ],
)
def test_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("shogiban solve: error:")
    assert message in err


def test_bad_line_in_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problems = tmp_path / "bad.sfen"
    problems.write_text(f"{SEVEN}\n4k4/9/9 b - 1\n", encoding="utf-8")
    assert main(["solve", str(problems)]) == 1
    assert "at bad.sfen:2" in capsys.readouterr().err


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf", "1e308"])
def test_a_bad_timeout_is_refused_as_argparse_does(timeout: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["solve", SEVEN, "--timeout", timeout])
    assert exited.value.code == 2
    assert "argument --timeout: invalid value" in capsys.readouterr().err
