"""System checks for settings that cannot go wrong in production.

Each one was seen failing: two gunicorn workers with private (local-memory) caches
served stale pairings after a confirmed result, and more threads holding persistent
connections than PostgreSQL allows answered 500. They are errors, so ``manage.py
check``/``migrate`` refuse, and ``zarik/wsgi.py`` refuses to start the web server too.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

SHARED_CACHE_BACKENDS = (
    "zarik.cache.ResilientRedisCache",  # Redis, a miss while Redis is down (the default with CACHE_URL)
    "django.core.cache.backends.redis.RedisCache",
    "django.core.cache.backends.memcached.PyMemcacheCache",
    "django.core.cache.backends.memcached.PyLibMCCache",
    "django.core.cache.backends.db.DatabaseCache",
)


def production_errors() -> list[Error | Warning]:
    """The problems of the production settings in force (none outside production)."""
    if not getattr(settings, "PRODUCTION", False):
        return []
    problems: list[Error | Warning] = []
    backend = settings.CACHES["default"]["BACKEND"]
    if backend not in SHARED_CACHE_BACKENDS:
        problems.append(Error(
            f"The cache is {backend.rsplit('.', 1)[-1]}, private to each process: with several web "
            "processes pages stay stale after a confirmed result.",
            hint="Set CACHE_URL=redis://host:6379/1 (a cache shared by every web process and worker).",
            id="zarik.E001",
        ))
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql") and settings.CONN_MAX_AGE:
        per_host = settings.WEB_CONCURRENCY * settings.GUNICORN_THREADS
        needed = per_host * settings.DB_HOSTS + settings.CELERY_CONCURRENCY + 5
        if needed > settings.DB_MAX_CONNECTIONS:
            problems.append(Error(
                f"Persistent database connections could reach {needed} (WEB_CONCURRENCY × "
                f"GUNICORN_THREADS × DB_CLIENT_HOSTS = {per_host * settings.DB_HOSTS}, + "
                f"CELERY_CONCURRENCY {settings.CELERY_CONCURRENCY}, + 5 for commands), more than "
                f"DB_MAX_CONNECTIONS={settings.DB_MAX_CONNECTIONS}.",
                hint="Lower the workers or threads, raise PostgreSQL's max_connections (and "
                     "DB_MAX_CONNECTIONS), put PgBouncer in front, or set CONN_MAX_AGE=0.",
                id="zarik.E002",
            ))
    return problems


@register(Tags.compatibility)
def check_production(app_configs=None, **kwargs):
    return production_errors()
