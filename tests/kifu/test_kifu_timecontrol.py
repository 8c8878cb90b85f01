"""Time controls survive every record format: main time, byoyomi and Fischer increment, exactly
(shogiban.kifu.timecontrol, issue "One player, one stored game state", bug 2)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from shogiban import Board
from shogiban.game import Clock, PlayedMove, TimeControl
from shogiban.kifu import Game, Headers, read_game, write_game
from shogiban.kifu.csa import read_csa, write_csa
from shogiban.kifu.kif import read_kif, write_kif
from shogiban.kifu.losses import Loss
from shogiban.kifu.timecontrol import csa_time_info, kif_time_headers, time_control
from shogiban.pieces import Color
from shogiban.usi.match import Match, MatchConfig
from shogiban.web.clock import ClockView
from shogiban.web.records import RoomRecord, export_record, room_record

CONTROLS = {
    "sudden death 90 s": TimeControl.of(90),
    "sudden death 10 min": TimeControl.of(600),
    "1 h 30 min + 30 s byoyomi": TimeControl.of(5400, byoyomi=30),
    "5 min + 10 s increment": TimeControl.of(300, increment=10),
    "0 main + 10 s byoyomi": TimeControl.of(0, byoyomi=10),
    "90 s + 10 s byoyomi": TimeControl.of(90, byoyomi=10),
    "1 min 30.5 s + 2.25 s increment": TimeControl.of(90.5, increment=2.25),
    "10 min + 30 s byoyomi + 5 s increment": TimeControl.of(600, byoyomi=30, increment=5),
    "0 main + 5 s increment": TimeControl.of(0, increment=5),
}
#: What CSA V2.2's $TIME_LIMIT (HH:MM+SS) can carry: whole minutes of main time, whole seconds of
#: byoyomi, no increment.  The others are written as V3.0's $TIME (and reported as a loss).
V22_LIMITS = {
    "sudden death 10 min": "00:10+00",
    "1 h 30 min + 30 s byoyomi": "01:30+30",
    "0 main + 10 s byoyomi": "00:00+10",
}


def game_with(control: TimeControl) -> Game:
    game = Game(headers=Headers([("先手", "甲"), ("後手", "乙"), *kif_time_headers(control)]))
    game.root.add_variation(Board().parse_usi("7g7f"))
    return game


@pytest.mark.parametrize("name", CONTROLS)
@pytest.mark.parametrize("fmt", ["kif", "kifu", "ki2", "ki2u", "jkf", "csa"])
def test_round_trip(name: str, fmt: str) -> None:
    control = CONTROLS[name]
    game = game_with(control)
    assert game.time_control() == control
    options = {"version": "3.0"} if fmt == "csa" else {}
    losses: list[Loss] = []
    again = read_game(write_game(game, fmt, losses=losses, **options), format=fmt)
    assert again.time_control() == control
    assert not [loss for loss in losses if loss.what == "time_control"]
    # and on through every other format
    for other in ("kif", "csa", "jkf", "ki2"):
        assert read_game(write_game(again, other), format=other).time_control() == control, other


@pytest.mark.parametrize("name", CONTROLS)
def test_csa_v22(name: str) -> None:
    control = CONTROLS[name]
    losses: list[Loss] = []
    text = write_csa(game_with(control), losses=losses)
    assert read_csa(text).time_control() == control
    if name in V22_LIMITS:
        assert f"$TIME_LIMIT:{V22_LIMITS[name]}\n" in text
        assert "$TIME:" not in text
        assert not losses
    else:
        assert "$TIME_LIMIT" not in text
        assert "$TIME:" in text
        assert [loss.what for loss in losses] == ["time_control"]


def test_csa_v3_time_line() -> None:
    assert csa_time_info(TimeControl.of(900, increment=5), "3.0") == ("TIME", "900+0+5")
    assert csa_time_info(TimeControl.of(90.5, byoyomi=10), "3.0") == ("TIME", "90.5+10+0")
    assert csa_time_info(TimeControl(), "3.0") is None
    assert "$TIME:1500+0+0\n" in write_csa(game_with(TimeControl.of(1500)), version="3.0")


def test_kif_wording() -> None:
    assert kif_time_headers(TimeControl.of(90)) == [("持ち時間", "1分30秒")]
    assert kif_time_headers(TimeControl.of(5400, byoyomi=30)) == [("持ち時間", "1時間30分"), ("秒読み", "30秒")]
    assert kif_time_headers(TimeControl.of(300, increment=10)) == [("持ち時間", "5分+10秒加算")]
    assert kif_time_headers(TimeControl.of(0, byoyomi=10)) == [("持ち時間", "0分"), ("秒読み", "10秒")]
    assert kif_time_headers(TimeControl()) == []


# -- regressions: the quoted cases of the issue ------------------------------------------------


def test_5min_plus_10s_kasan_reads_as_300s_main_and_10s_increment() -> None:
    game = read_kif("持ち時間：5分+10秒加算\n手合割：平手\n   1 ７六歩(77)\n")
    assert game.time_control() == TimeControl.of(300, increment=10)


def test_5min_plus_10s_kasan_is_not_csa_00_10_plus_00() -> None:
    game = read_kif("持ち時間：5分+10秒加算\n手合割：平手\n   1 ７六歩(77)\n")
    v22 = write_csa(game)
    assert "00:10+00" not in v22
    assert "$TIME:300+0+10\n" in v22
    assert "$TIME:300+0+10\n" in write_csa(game, version="3.0")


def test_web_10min_plus_30s_reads_as_byoyomi() -> None:
    # What the web used to write for 10 min + 30 s byoyomi; a "+" part without 加算 is byoyomi.
    assert time_control(Headers([("持ち時間", "10分+30秒")])) == TimeControl.of(600, byoyomi=30)
    assert time_control(Headers([("持ち時間", "10分+30秒加算")])) == TimeControl.of(600, increment=30)


def test_match_60s_plus_5s_beside_byoyomi_reads_as_increment() -> None:
    # The match runner used to write the increment after "+" and the byoyomi on its own line.
    headers = Headers([("持ち時間", "60秒+5秒"), ("秒読み", "10秒")])
    assert time_control(headers) == TimeControl.of(60, byoyomi=10, increment=5)


def test_shogihome_minutes_seconds_and_csa_hours_minutes() -> None:
    assert time_control(Headers([("持ち時間", "10:00+10")])) == TimeControl.of(600, byoyomi=10)
    assert time_control(Headers([("$TIME_LIMIT", "10:00+10")])) == TimeControl.of(36000, byoyomi=10)
    assert time_control(Headers([("持ち時間", "30+0+5")])) == TimeControl.of(30, increment=5)
    # CSA V2.2 $TIME_LIMIT keeps its own key, and becomes 持ち時間 in KIF words
    game = read_csa("V2.2\n$TIME_LIMIT:00:25+00\nPI\n+\n+7776FU\n")
    assert game.headers["$TIME_LIMIT"] == "00:25+00"
    assert "持ち時間：25分\n" in write_kif(game)


def test_unreadable_time_is_kept() -> None:
    game = read_kif("持ち時間：一億年\n手合割：平手\n   1 ７六歩(77)\n")
    assert game.time_control() is None
    assert "持ち時間：一億年\n" in write_kif(game)
    assert "'持ち時間：一億年\n" in write_csa(game)


def test_same_format_keeps_the_wording() -> None:
    text = "持ち時間：60分 切れたら1分将棋\n手合割：平手\n   1 ７六歩(77)\n"
    game = read_kif(text)
    assert game.time_control() == TimeControl.of(3600, byoyomi=60)
    assert "持ち時間：60分 切れたら1分将棋\n" in write_kif(game)
    assert "$TIME_LIMIT:01:00+60\n" in write_csa(game)


# -- the web's record and the match runner's headers ---------------------------------------------


def fake_room(control: TimeControl) -> Any:
    board = Board()
    board.push(board.parse_usi("7g7f"))
    seat = SimpleNamespace(kind="human", name="甲", level=None)
    return SimpleNamespace(
        id="g1", board=SimpleNamespace(starting_sfen=board.starting_sfen, move_stack=board.move_stack,
                                       sfen=board.sfen, turn=board.turn, illegal_move=None),
        created_at=0.0, clock=ClockView(Clock(control)), seats={Color.BLACK: seat, Color.WHITE: seat},
        services=SimpleNamespace(usi_name=None), outcome=None,
        state=SimpleNamespace(moves=[PlayedMove("7g7f", timedelta(milliseconds=1500))]),
    )


@pytest.mark.parametrize("name", CONTROLS)
def test_web_export_record(name: str) -> None:
    control = CONTROLS[name]
    record: RoomRecord = room_record(cast(Any, fake_room(control)))
    assert dict(record.headers)["持ち時間"] == kif_time_headers(control)[0][1]
    for fmt in ("kif", "ki2", "csa", "jkf"):
        download = export_record(record, fmt)
        assert read_game(download.content, format=fmt).time_control() == control, fmt


def test_web_writes_seconds_of_main_time() -> None:
    record = room_record(cast(Any, fake_room(TimeControl.of(90, byoyomi=30))))
    assert ("持ち時間", "1分30秒") in record.headers
    assert ("秒読み", "30秒") in record.headers


@pytest.mark.parametrize("name", CONTROLS)
def test_match_headers(name: str) -> None:
    control = CONTROLS[name]
    player = cast(Any, SimpleNamespace(name="p"))
    headers = Match((player, player), MatchConfig(time_control=control)).headers("a", "b", False)
    assert time_control(headers) == control
    assert "60秒+5秒" not in str(headers)


# -- the shared records that state a time control -------------------------------------------------

SHARED = {
    "csa_protocol_logs/shogihome-usi-csa-bridge/14/record.kifu": TimeControl.of(600, byoyomi=10),
    "csa_protocol_logs/shogihome-usi-csa-bridge/15/record.kifu": TimeControl.of(10, byoyomi=30),
    "csa_protocol_logs/shogihome-usi-csa-bridge/19/record.kifu": TimeControl.of(30),
    "csa_protocol_logs/shogihome-usi-csa-bridge/31/record.kifu": TimeControl.of(30, byoyomi=5),
    "csa_protocol_logs/shogihome-usi-csa-bridge/1/record.kifu": TimeControl.of(30, increment=5),
    "csa_protocol_logs/shogihome-usi-csa-bridge/16/record.kifu": None,  # 600+0+10 against 600+30+0
    "csa/json-kifu-format/example.csa": TimeControl.of(1500),
    "kif/json-kifu-format/20081220kyoochi.kif": TimeControl.of(3600, byoyomi=60),
    "kif/json-kifu-format/jt201409130101.kif": TimeControl.of(600),
    "kif/json-kifu-format/kiou201403160101.kif": TimeControl.of(14400),
    "ki2/json-kifu-format/20091203.ki2": TimeControl.of(900, byoyomi=30),
    "jkf/tsshogi/sample04.jkf": TimeControl.of(0, byoyomi=10),
    "jkf/tsshogi/sample01.jkf": None,  # 一億年
    "jkf/json-kifu-format/ryuou201409020101.jkf": TimeControl.of(18000),
    "multi_format/ShogiBoardQ-kiou202503020101/kiou202503020101.kif": TimeControl.of(14400, byoyomi=60),
    "multi_format/ShogiBoardQ-kiou202503020101/kiou202503020101.csa": TimeControl.of(14400),  # $TIME_LIMIT:4時間
    "multi_format/ShogiBoardQ-kiou202503020101/kiou202503020101.jkf": TimeControl.of(14400, byoyomi=60),
}


@pytest.mark.parametrize("rel", SHARED)
def test_shared_records(shared_data: Path, rel: str) -> None:
    game = read_game(shared_data / rel)
    expected = SHARED[rel]
    assert game.time_control() == expected
    if expected is not None:
        for fmt in ("kifu", "ki2u", "jkf"):
            assert read_game(write_game(game, fmt), format=fmt).time_control() == expected, fmt
        assert read_csa(write_csa(game, version="3.0")).time_control() == expected
        assert read_csa(write_csa(game)).time_control() == expected
