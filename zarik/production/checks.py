"""System checks for settings that cannot go wrong in production.

Each one was seen failing: two gunicorn workers with private (local-memory) caches
served stale pairings after a confirmed result, and more threads holding persistent
connections than PostgreSQL allows answered 500. They are errors, so ``manage.py
check``/``migrate`` refuse, and ``zarik/wsgi.py`` refuses to start the web server too.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)

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
    problems.extend(_secret_key_and_hosts())
    return problems


def _secret_key_and_hosts() -> list[Error]:
    """Django says these at WARNING level (security.W009, W020), which ``--fail-level ERROR``
    lets through: ``bin/serve`` started with ``SECRET_KEY=x`` (sessions and private links
    forgeable) or no ``ALLOWED_HOSTS`` (every page a 400). Here they are errors, with Django's
    own thresholds (issue 29)."""
    problems: list[Error] = []
    key = str(settings.SECRET_KEY or "")
    if (len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
            or key.startswith(SECRET_KEY_INSECURE_PREFIX)):
        problems.append(Error(
            f"SECRET_KEY is weak: {len(key)} characters, {len(set(key))} different; sessions, "
            "private links and password resets signed with it can be forged.",
            hint=f"Set SECRET_KEY to at least {SECRET_KEY_MIN_LENGTH} random characters, e.g. "
                 "python -c 'import secrets; print(secrets.token_urlsafe(50))'.",
            id="zarik.E003",
        ))
    if not settings.ALLOWED_HOSTS:
        problems.append(Error(
            "ALLOWED_HOSTS is empty: every request would be refused with 400.",
            hint="Set ALLOWED_HOSTS to the site's host names, comma-separated (e.g. zarik.example.org).",
            id="zarik.E004",
        ))
    wildcard = [host for host in settings.ALLOWED_HOSTS if host.strip() in ("*", ".")]
    if wildcard:
        problems.append(Error(
            "ALLOWED_HOSTS accepts any host ('*'): a forged Host header then makes the links of "
            "password resets and emails, and poisons cached pages (issue 45).",
            hint="Name the site's host names instead, comma-separated (e.g. zarik.example.org).",
            id="zarik.E011",
        ))
    return problems


@register(Tags.compatibility)
def check_production(app_configs=None, **kwargs):
    return production_errors()
