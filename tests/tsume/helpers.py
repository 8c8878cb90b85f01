"""Helpers for the tsume tests: the corpus rows of ``tsume/tsume.tsv``, and turning a problem round."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from corpus import shared_data_dir


@dataclass(frozen=True)
class Row:
    """One row of the shared tsume corpus."""

    index: int
    id: str
    sfen: str
    length: str
    solution: str
    verification: str

    @property
    def plies(self) -> int:
        """The recorded length in plies (``no_mate_within_N`` rows give N)."""
        return int(self.length.rsplit("_", 1)[-1])

    @property
    def test_id(self) -> str:
        return f"{self.index:04d}-{self.id}"


def read_rows(path: Path) -> list[Row]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            rows.append(Row(len(rows), cells[0], cells[1], cells[2], cells[3], cells[5]))
    return rows


def corpus_rows() -> list[Row]:
    """Rows of the shared corpus, or an empty list when it is absent (tests then skip)."""
    found = shared_data_dir()
    if found is None or not (found / "tsume" / "tsume.tsv").is_file():
        return []
    return read_rows(found / "tsume" / "tsume.tsv")


def flip_sfen(sfen: str) -> str:
    """The same position with the colours exchanged and the board turned round (sente's problem
    becomes gote's)."""
    board, turn, hands, *rest = sfen.split()
    rows = []
    for row in reversed(board.split("/")):
        cells: list[str] = []
        i = 0
        while i < len(row):
            if row[i].isdigit():
                cells.extend([""] * int(row[i]))
                i += 1
            else:
                size = 2 if row[i] == "+" else 1
                cells.append(row[i : i + size].swapcase())
                i += size
        text, empty = "", 0
        for cell in reversed(cells):
            if cell:
                text += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(text + (str(empty) if empty else ""))
    swapped = "-" if hands == "-" else hands.swapcase()
    return " ".join(["/".join(rows), "w" if turn == "b" else "b", swapped, *rest])


def flip_usi(usi: str) -> str:
    """A USI move seen from the other side (see :func:`flip_sfen`)."""
    def square(text: str) -> str:
        return f"{10 - int(text[0])}{'abcdefghi'[8 - 'abcdefghi'.index(text[1])]}"

    if usi[1] == "*":
        return usi[:2] + square(usi[2:4])
    return square(usi[0:2]) + square(usi[2:4]) + usi[4:]
