"""The time control a record states: CSA ``$TIME`` / ``$TIME_LIMIT`` or KIF 持ち時間 and 秒読み.

>>> from shogiban.kifu.headers import Headers
>>> time_control(Headers([("$TIME", "900+0+5")]))
TimeControl.of(900, increment=5)
>>> time_control(Headers([("持ち時間", "各６時間"), ("秒読み", "60秒")]))
TimeControl.of(21600, byoyomi=60)

:class:`TimeControl` is the game's (:mod:`shogiban.game.timecontrol`), re-exported here.
"""

from __future__ import annotations

import re
import unicodedata

from shogiban.game.timecontrol import TimeControl
from shogiban.kifu.headers import Headers

# Numbers have at most 9 digits (int() refuses 4,300), and no neighbouring parts overlap.
_NUMBER = r"[0-9]{1,9}(?:\.[0-9]{1,9})?"
_CSA_TIME = re.compile(rf"\s*({_NUMBER})\+({_NUMBER})(?:\+({_NUMBER}))?\s*$")
_CSA_LIMIT = re.compile(r"\s*([0-9]{1,9}):([0-9]{1,9})\+([0-9]{1,9})\s*$")
_PART = re.compile(r"(?<![0-9])([0-9]{1,9})\s*(時間|分|秒)")


def _seconds(text: str) -> float | None:
    total = 0.0
    found = False
    for number, unit in _PART.findall(text):
        found = True
        total += int(number) * {"時間": 3600, "分": 60, "秒": 1}[unit]
    return total if found else None


def time_control(headers: Headers) -> TimeControl | None:
    """The time control *headers* state, or None when they state none that can be read."""
    value = headers.get("$TIME")
    if value is not None and (m := _CSA_TIME.match(value)):
        return TimeControl(float(m.group(1)), float(m.group(2)), float(m.group(3) or 0))
    limit = headers.get("持ち時間") or headers.get("$TIME_LIMIT")
    if limit is None:
        return None
    if m := _CSA_LIMIT.match(limit):
        return TimeControl(int(m.group(1)) * 3600 + int(m.group(2)) * 60.0, float(m.group(3)))
    text = unicodedata.normalize("NFKC", limit)
    byoyomi = 0.0
    # "切れたら1分将棋" and "秒読み30秒" inside 持ち時間 give the byoyomi.
    extra = re.search(r"(切れたら|秒読み)(.*)", text)
    if extra:
        byoyomi = _seconds(extra.group(2)) or 0.0
        text = text[: extra.start()]
    main = _seconds(text)
    if main is None:
        return None
    stated = headers.get("秒読み")
    if stated is not None:
        byoyomi = _seconds(unicodedata.normalize("NFKC", stated)) or byoyomi
    return TimeControl(main, byoyomi)


__all__ = ["TimeControl", "time_control"]
