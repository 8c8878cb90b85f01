"""The server's log lines as JSON, one object a line (``shogiban serve --log-format json``), for
log collectors: time, level, logger, message, and the game's id when the line is about a game
(logged with ``extra={"game": id}``).

>>> import logging
>>> record = logging.LogRecord("shogiban.web.rooms", logging.WARNING, __file__, 1, "game %s: lease lost",
...                            ("abcd",), None)
>>> record.game = "abcd"
>>> line = JsonFormatter().format(record)
>>> import json; data = json.loads(line); data["level"], data["game"], data["message"]
('warning', 'abcd', 'game abcd: lease lost')
"""

from __future__ import annotations

import json
import logging
import time


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        game = getattr(record, "game", None)
        if isinstance(game, str):
            data["game"] = game
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def use_json_logs(level: str) -> None:
    """Send every log record to standard error as JSON lines, at *level*."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


__all__ = ["JsonFormatter", "use_json_logs"]
