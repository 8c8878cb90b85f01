"""The time control of a record: the one conversion between a :class:`TimeControl` (main time,
byoyomi and Fischer increment in seconds) and the headers of every record format.

>>> from shogiban.kifu.headers import Headers
>>> time_control(Headers([("$TIME", "900+0+5")]))
TimeControl.of(900, increment=5)
>>> time_control(Headers([("持ち時間", "各６時間"), ("秒読み", "60秒")]))
TimeControl.of(21600, byoyomi=60)
>>> time_control(Headers([("持ち時間", "5分+10秒加算")]))
TimeControl.of(300, increment=10)
>>> kif_time_headers(TimeControl.of(5400, byoyomi=30))
[('持ち時間', '1時間30分'), ('秒読み', '30秒')]
>>> csa_time_info(TimeControl.of(5400, byoyomi=30), "2.2"), csa_time_info(TimeControl.of(90), "3.0")
(('TIME_LIMIT', '01:30+30'), ('TIME', '90+0+0'))

Conventions (what the writers write, and what the reader reads):

* **KIF, KI2 and JKF** (JKF's header keys are KIF's): ``持ち時間`` is the main time in Japanese
  units, hours, minutes and seconds with no zero part (``1時間30分``, ``1分30秒``, ``0分``),
  followed by ``+N秒加算`` for a Fischer increment (``5分+10秒加算``); the byoyomi is the standard
  ``秒読み：30秒`` line.  The reader also takes the byoyomi inside 持ち時間 (``10分+30秒``: a
  ``+`` part without 加算 is byoyomi, as the web used to write it and 将棋倶楽部24 words it; it
  is the increment only when a 秒読み line states the byoyomi: the match runner used to write
  ``60秒+5秒`` with ``秒読み``), ``60分 切れたら1分将棋``, ``秒読み30秒``, ``各６時間``, full-width
  digits, parenthesised remarks (``（考慮時間10分）``, ignored), and ShogiHome's forms: from a CSA
  game ShogiHome writes ``持ち時間：MM:SS+SS`` (minutes:seconds of main time + byoyomi seconds —
  its own record of ``Total_Time:600``, ``Byoyomi:10`` says ``10:00+10``) or, with an increment,
  ``main+byoyomi+increment`` in seconds (``30+0+5``); ``先手持ち時間`` / ``後手持ち時間`` (an
  asymmetric clock) give the time control only when both are the same.
* **CSA V3.0**: ``$TIME:main+byoyomi+increment``, seconds with up to 3 decimals.
* **CSA V2.2**: ``$TIME_LIMIT:HH:MM+SS`` (hours:minutes of main time + byoyomi seconds, as the
  CSA record specification and its example ``$TIME_LIMIT:00:25+00`` say; note that the same
  ``A:B+C`` means minutes:seconds in ShogiHome's 持ち時間).  It cannot carry seconds in the main
  time, fractions of a second or an increment: then the V2.2 writer writes V3.0's ``$TIME`` line
  instead (which this reader and V3.0 readers read; strict V2.2 readers ignore it) and reports a
  :class:`~shogiban.kifu.losses.Loss`.
* No format holds byoyomi *periods*: a record states one period (the game's default).

:class:`TimeControl` is the game's (:mod:`shogiban.game.timecontrol`), re-exported here.
"""

from __future__ import annotations

import re
import unicodedata

from shogiban.game.timecontrol import TimeControl
from shogiban.kifu.headers import Headers

#: Header keys that state the (symmetric) time control; writers replace them all by their format's.
TIME_KEYS = ("持ち時間", "秒読み", "$TIME", "$TIME_LIMIT")
#: Header keys of an asymmetric clock (ShogiHome), kept verbatim.
SIDE_TIME_KEYS = ("先手持ち時間", "後手持ち時間")

# Numbers have at most 9 digits (int() refuses 4,300), and no neighbouring parts overlap.
_NUMBER = r"[0-9]{1,9}(?:\.[0-9]{1,9})?"
_CSA_TIME = re.compile(rf"\s*({_NUMBER})\+({_NUMBER})(?:\+({_NUMBER}))?\s*$")
_CSA_LIMIT = re.compile(r"\s*([0-9]{1,9}):([0-9]{1,9})\+([0-9]{1,9})\s*$")
_MINUTES_SECONDS = re.compile(r"\s*([0-9]{1,9}):([0-9]{1,2})(?:\+([0-9]{1,9}))?\s*$")
_UNIT = {"時間": 3600, "分": 60, "秒": 1}
_PART = rf"(?<![0-9.])({_NUMBER})\s*(時間|分|秒)"
_DURATION = re.compile(rf"(?:{_PART}\s*)+")
_ONE_PART = re.compile(_PART)
_REMARK = re.compile(r"\([^()]*\)")


def _seconds(text: str) -> float:
    return sum(float(n) * _UNIT[u] for n, u in _ONE_PART.findall(text))


def _japanese(text: str, byoyomi_stated: bool) -> TimeControl | None:
    """Main time, byoyomi and increment in Japanese wording (already NFKC-normalised)."""
    text = _REMARK.sub(" ", text)
    main: float | None = None
    byoyomi = increment = 0.0
    for m in _DURATION.finditer(text):
        # Only the neighbourhood counts (and slicing whole texts would be quadratic).
        before, after = text[max(0, m.start() - 16): m.start()], text[m.end(): m.end() + 16]
        amount = _seconds(m.group(0))
        if after.lstrip().startswith(("加算", "ずつ加算")) or before.rstrip().endswith("フィッシャー"):
            increment = amount
        elif main is None and not re.search(r"(切れたら|秒読み)\s*$", before):
            main = amount
        elif byoyomi_stated and not increment and before.rstrip().endswith("+"):
            increment = amount  # "60秒+5秒" beside a 秒読み line: the old match runner's increment
        elif not byoyomi:
            byoyomi = amount
    if main is None and not (byoyomi or increment):
        return None
    return TimeControl(main or 0.0, byoyomi, increment)


def _limit(value: str, byoyomi_stated: bool) -> TimeControl | None:
    """A 持ち時間 value in any of the forms the module docstring lists."""
    text = unicodedata.normalize("NFKC", value)
    if (m := _CSA_TIME.match(text)) and m.group(3) is not None:  # ShogiHome: seconds, main+byoyomi+increment
        return TimeControl(float(m.group(1)), float(m.group(2)), float(m.group(3)))
    if m := _MINUTES_SECONDS.match(text):  # ShogiHome: MM:SS+SS
        return TimeControl(int(m.group(1)) * 60 + float(m.group(2)), float(m.group(3) or 0))
    return _japanese(text, byoyomi_stated)


def _side(headers: Headers) -> TimeControl | None:
    black, white = (headers.get(key) for key in SIDE_TIME_KEYS)
    if black is None or white is None:
        return None
    tc = _limit(black, False)
    return tc if tc is not None and tc == _limit(white, False) else None


def time_control(headers: Headers) -> TimeControl | None:
    """The time control *headers* state, or None when they state none that can be read."""
    value = headers.get("$TIME")
    if value is not None and (m := _CSA_TIME.match(value)):
        return TimeControl(float(m.group(1)), float(m.group(2)), float(m.group(3) or 0))
    stated = headers.get("秒読み")
    byoyomi = _seconds(unicodedata.normalize("NFKC", stated)) if stated is not None else None
    found: TimeControl | None = None
    limit = headers.get("$TIME_LIMIT")
    if limit is not None and (m := _CSA_LIMIT.match(limit)):  # CSA V2.2: HH:MM+SS
        found = TimeControl((int(m.group(1)) * 60 + int(m.group(2))) * 60.0, float(m.group(3)))
    else:
        text = headers.get("持ち時間") or limit
        if text is not None:
            found = _limit(text, bool(byoyomi))
    if found is None:
        found = _side(headers)
    if found is None:
        return TimeControl(0.0, byoyomi) if byoyomi else None
    if byoyomi:
        return TimeControl(found.main, byoyomi, found.increment)
    return found


def _amount(seconds: float) -> str:
    """Seconds as ``1.5`` or ``30``: at most 3 decimals (as CSA V3.0 times), none when whole."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".") or "0"


def japanese_duration(seconds: float) -> str:
    """*seconds* in Japanese units without zero parts: ``1時間30分``, ``1分30秒``, ``0分``."""
    whole = int(seconds)
    fraction = seconds - whole
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours}時間"] if hours else []
    parts += [f"{minutes}分"] if minutes else []
    if secs or fraction:
        parts.append(f"{_amount(secs + fraction)}秒")
    return "".join(parts) or "0分"


def kif_time_headers(control: TimeControl) -> list[tuple[str, str]]:
    """The KIF / KI2 / JKF header pairs of *control*: 持ち時間 (with ``+N秒加算``) and 秒読み;
    none for no clock."""
    if not control.enabled:
        return []
    limit = japanese_duration(control.main)
    if control.increment:
        limit += f"+{_amount(control.increment)}秒加算"
    pairs = [("持ち時間", limit)]
    if control.byoyomi:
        pairs.append(("秒読み", f"{_amount(control.byoyomi)}秒"))
    return pairs


def csa_time_limit(control: TimeControl) -> str | None:
    """CSA V2.2 ``$TIME_LIMIT`` value ``HH:MM+SS``, or None when it cannot carry *control*
    (seconds in the main time, fractions, an increment)."""
    if control.increment or control.main % 60 or not float(control.byoyomi).is_integer():
        return None
    minutes = int(control.main) // 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}+{int(control.byoyomi):02d}"


def csa_time_info(control: TimeControl, version: str) -> tuple[str, str] | None:
    """The CSA information line of *control* as ``(key, value)``: V3.0 ``$TIME``, V2.2
    ``$TIME_LIMIT`` when it can carry it, else V3.0's ``$TIME``; None for no clock."""
    if not control.enabled:
        return None
    if not version.startswith("3"):
        limit = csa_time_limit(control)
        if limit is not None:
            return ("TIME_LIMIT", limit)
    return ("TIME", f"{_amount(control.main)}+{_amount(control.byoyomi)}+{_amount(control.increment)}")


def _own_pairs(pairs: list[tuple[str, str]], fmt: str) -> list[tuple[str, str]]:
    """The time pairs *fmt* writes as they are (in the form its readers expect)."""
    if fmt == "kif":
        return [p for p in pairs if p[0] in ("持ち時間", "秒読み")]
    own = [p for p in pairs if p[0] == "$TIME" and _CSA_TIME.match(p[1])]
    if fmt == "csa2.2":
        own += [p for p in pairs if p[0] == "$TIME_LIMIT" and _CSA_LIMIT.match(p[1])]
    return own


def time_header_pairs(headers: Headers, fmt: str) -> tuple[list[tuple[str, str]], str | None]:
    """*headers*' pairs for writing *fmt* (``kif`` — also KI2 and JKF —, ``csa2.2``, ``csa3.0``)
    and why the format loses part of the time control (None when it loses nothing).

    When the format's own time headers (KIF 持ち時間 and 秒読み, CSA ``$TIME`` or V2.2's
    ``$TIME_LIMIT``) already state the whole time control, they are kept word for word (a record
    read and written in one format keeps its headers) and the other formats' dropped; otherwise
    every time key (:data:`TIME_KEYS`) is replaced, where the first of them stood, by the format's
    own (``$``-keys for CSA).  Headers whose time control cannot be read stay as they are (a CSA
    ``$TIME_LIMIT`` becomes 持ち時間 in KIF)."""
    pairs = headers.pairs()
    at = next((i for i, (k, _) in enumerate(pairs) if k in TIME_KEYS), None)
    control = time_control(headers) if at is not None else None
    if at is None or control is None:
        if fmt.startswith("csa"):
            return pairs, None
        return [("持ち時間" if k == "$TIME_LIMIT" else k, v) for k, v in pairs], None
    lost = None
    own = _own_pairs(pairs, fmt)
    new: list[tuple[str, str]]
    if own and time_control(Headers(own)) == control:
        new = own
    elif fmt.startswith("csa"):
        info = csa_time_info(control, fmt[3:])
        new = [] if info is None else [("$" + info[0], info[1])]
    else:
        new = kif_time_headers(control)
    if fmt == "csa2.2" and any(k == "$TIME" for k, _ in new):
        lost = "csa 2.2 $TIME_LIMIT holds no increment or seconds of main time: written as V3.0 $TIME"
    rest = [p for p in pairs[at:] if p[0] not in TIME_KEYS]
    return [*pairs[:at], *new, *rest], lost


__all__ = [
    "SIDE_TIME_KEYS", "TIME_KEYS", "TimeControl", "csa_time_info", "csa_time_limit", "japanese_duration",
    "kif_time_headers", "time_control", "time_header_pairs",
]
