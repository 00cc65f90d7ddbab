"""Django's PostgreSQL backend, every call watched by :mod:`zarik.db_watchdog`.

A subclass, not a signal: the health check of a persistent connection (``is_usable``,
``CONN_HEALTH_CHECKS``) runs its ``SELECT 1`` outside the query wrappers, at the start of
a request, and it was there that a page on a frozen connection waited until gunicorn
killed the worker (issue 45).
"""

from __future__ import annotations

from django.db.backends.postgresql import base

from zarik import db_watchdog
from zarik.serving import statement_timeout_ms


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.execute_wrappers.append(db_watchdog.guard)

    def get_connection_params(self) -> dict:
        """The settings' options and this process's ``statement_timeout`` (web request or batch:
        :func:`zarik.serving.statement_timeout_ms`), read when the connection opens; a
        ``statement_timeout`` in the settings' ``options`` (``DATABASE_URL``) stays as given."""
        params = super().get_connection_params()
        given = params.get("options") or ""
        if "statement_timeout" not in given:
            timeout = f"-c statement_timeout={statement_timeout_ms()}"
            params["options"] = f"{given} {timeout}" if given else timeout
        return params

    def is_usable(self) -> bool:
        with db_watchdog.watching(self):
            return super().is_usable()

    def _commit(self):
        with db_watchdog.watching(self):
            return super()._commit()

    def _rollback(self):
        with db_watchdog.watching(self):
            return super()._rollback()
