"""``shogiban convert``: files, standard output, folders with a failure summary."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from shogiban.cli import main
from shogiban.kifu import read_game

KIF = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n"


def test_convert_file_to_file(tmp_path: Path) -> None:
    source = tmp_path / "game.kif"
    source.write_bytes(KIF.encode("cp932"))
    assert main(["convert", str(source), str(tmp_path / "game.csa")]) == 0
    csa = (tmp_path / "game.csa").read_bytes().decode("cp932")
    assert "+7776FU" in csa
    assert "%TORYO" in csa
    assert main(["convert", str(tmp_path / "game.csa"), str(tmp_path / "back.kifu")]) == 0
    back = read_game(tmp_path / "back.kifu")
    assert [m.usi() for m in back.mainline_moves()] == ["7g7f", "3c3d"]
    assert (tmp_path / "back.kifu").read_bytes().decode("utf-8").startswith("#KIF version=2.0 encoding=UTF-8")


def test_convert_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.txt"  # the extension lies nothing: the content tells
    source.write_text(KIF, encoding="utf-8")
    assert main(["convert", str(source), "--to", "usi"]) == 0
    assert capsys.readouterr().out == "position startpos moves 7g7f 3c3d\n"
    assert main(["convert", str(source), "--to", "csa", "--csa-version", "3.0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("'CSA encoding=UTF-8\nV3.0\n")
    assert main(["convert", str(source), "--to", "bod", "--ply", "1"]) == 0
    assert "手数＝1" in capsys.readouterr().out


def test_convert_needs_a_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.kif"
    source.write_text(KIF, encoding="utf-8")
    assert main(["convert", str(source)]) == 1
    assert "--to" in capsys.readouterr().err


def test_convert_reports_problems_with_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.kif"
    source.write_text(KIF.replace("３四歩(33)", "３四歩(99)"), encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "bad.csa")]) == 1
    assert "line 4" in capsys.readouterr().err
    assert "+7776FU" in (tmp_path / "bad.csa").read_text(encoding="cp932")
    assert main(["convert", "--strict", str(source), str(tmp_path / "strict.csa")]) == 1
    assert not (tmp_path / "strict.csa").exists()


def test_convert_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    (records / "sub").mkdir(parents=True)
    (records / "a.kif").write_bytes(KIF.encode("cp932"))
    (records / "sub" / "b.csa").write_text("PI\n+\n+2726FU\n-8384FU\n%TORYO\n", encoding="utf-8")
    (records / "two.csa").write_text("PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n", encoding="utf-8")
    (records / "broken.ki2").write_text("▲７六歩 △９九王\n", encoding="utf-8")
    (records / "notes.txt").write_text("not a record", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["convert", str(records), str(out), "--to", "jkf"]) == 1
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.jkf"))
    assert written == ["a.jkf", "broken.jkf", "sub/b.jkf", "two-1.jkf", "two-2.jkf"]
    err = capsys.readouterr().err
    assert "4 files read, 5 records written" in err
    assert "failed broken.ki2" in err
    assert main(["convert", str(records / "sub"), str(tmp_path / "ok"), "--to", "kif"]) == 0


@pytest.mark.skipif(importlib.util.find_spec("shogiban.svg") is None, reason="shogiban.svg is not there yet")
def test_convert_to_svg(tmp_path: Path) -> None:
    source = tmp_path / "game.kif"
    source.write_text(KIF, encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "board.svg"), "--ply", "1"]) == 0
    assert (tmp_path / "board.svg").read_text(encoding="utf-8").lstrip().startswith("<")
