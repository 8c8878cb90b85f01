from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest

from shogiban.analysis import Analyser, Label
from shogiban.analysis.report import evaluation_svg, label_text, situation_text, summary_headers, summary_rows
from shogiban.engines import Limit, Score, SimpleEngine
from shogiban.kifu import read_game

SVG = "{http://www.w3.org/2000/svg}"


def _schema() -> dict[str, object]:
    data = json.loads(resources.files("shogiban.analysis").joinpath("analysis.schema.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def test_labels_in_every_language() -> None:
    assert [label_text(label, "ja") for label in Label] == ["疑問手", "悪手", "大悪手"]
    assert [label_text(label, "zh-Hant") for label in Label] == ["疑問手", "惡手", "大惡手"]
    assert [label_text(label, "zh-Hans") for label in Label] == ["疑问手", "恶手", "大恶手"]
    assert [label_text(label, "en") for label in Label] == ["Inaccuracy", "Mistake", "Blunder"]
    assert situation_text(Score(cp=-700), "ja") == "後手優勢"
    assert situation_text(Score(mate=3), "en") == "Sente winning"
    assert situation_text(Score(cp=0), "zh-Hans") == "均势"


def test_graph_summary_and_json(engine: SimpleEngine) -> None:
    analysis = Analyser(engine, Limit(depth=3)).game(read_game("+7776FU\n-3334FU\n+8833UM\n-2233KA\n"))
    svg = evaluation_svg(analysis, title="gift <1>")
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert root.find(SVG + "title") is not None
    polyline = root.find(SVG + "polyline")
    assert polyline is not None
    assert len(polyline.attrib["points"].split()) == 5
    dots = [c for c in root.iter(SVG + "circle") if c.attrib.get("fill") == "#c0392b"]
    assert len(dots) == 1  # the blunder
    rows = summary_rows(analysis, "ja")
    assert [row.side for row in rows] == ["先手", "後手"]
    assert rows[0].labels[Label.BLUNDER] == 1
    assert "3手目" in rows[0].worst_move
    assert len(summary_headers("ja")) == 7
    data = analysis.to_json(name="gift")
    jsonschema.validate(data, _schema())
    assert [p["label"] for p in data["positions"][1:]] == [None, None, "blunder", None]
    assert data["players"]["black"]["labels"]["blunder"] == 1


def test_the_schema_refuses_what_is_not_an_analysis(engine: SimpleEngine) -> None:
    analysis = Analyser(engine, Limit(depth=1)).game(read_game("+7776FU\n"))
    data = analysis.to_json()
    data["positions"][1]["label"] = "brilliant"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, _schema())
