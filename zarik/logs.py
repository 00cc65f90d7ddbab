"""Structured logs: one JSON object a line, each carrying the id of the request it belongs to.

:class:`zarik.middleware.RequestIdMiddleware` puts the id in :data:`request_id`
(a context variable, so threads and async tasks keep their own); the filter copies it
onto every record, so a line from deep inside a service still names its request, and
the same id goes back to the client as ``X-Request-ID`` for a support request.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime

request_id: ContextVar[str] = ContextVar("request_id", default="-")

# Attributes every LogRecord has; anything else was passed with ``extra=`` and is logged too.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "request_id"}


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id", …extra, "exc"}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
