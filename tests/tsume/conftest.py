"""Shared helpers for the tsume tests: the corpus rows of ``tsume/tsume.tsv``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import shared_data_dir


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


@pytest.fixture(scope="session")
def tsume_rows(shared_data: Path) -> list[Row]:
    return read_rows(shared_data / "tsume" / "tsume.tsv")
