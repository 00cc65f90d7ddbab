"""Django's PostgreSQL backend, every call watched by :mod:`zarik.db_watchdog`.

A subclass, not a signal: the health check of a persistent connection (``is_usable``,
``CONN_HEALTH_CHECKS``) runs its ``SELECT 1`` outside the query wrappers, at the start of
a request, and it was there that a page on a frozen connection waited until gunicorn
killed the worker (issue 45).
"""

from __future__ import annotations

from django.db.backends.postgresql import base

from zarik import db_watchdog


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.execute_wrappers.append(db_watchdog.guard)

    def is_usable(self) -> bool:
        with db_watchdog.watching(self):
            return super().is_usable()

    def _commit(self):
        with db_watchdog.watching(self):
            return super()._commit()

    def _rollback(self):
        with db_watchdog.watching(self):
            return super()._rollback()
