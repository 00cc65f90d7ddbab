"""How many web processes a host runs by default: read by gunicorn.conf.py and by the
settings' connection check (zarik/production/checks.py), so both count the same processes."""

from __future__ import annotations

import os

#: Sync gunicorn workers per core. On issue 17's load benchmark (2 cores, PostgreSQL and
#: Redis on the same host) 2 per core beat 4 per core on every figure once ratings were
#: batched: steady p95 32–38 ms against 56–64 ms, burst p95 1.2–1.3 s against 1.4–1.5 s.
#: More processes than the cores can run only add switches between them, each with its
#: own cold CPU caches (sequentially one worker spent 9.3 ms CPU on a confirmation,
#: one of 8 spent 11.3 ms).
WORKERS_PER_CORE = 2


def cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def web_concurrency() -> int:
    """``WEB_CONCURRENCY`` when set, else :data:`WORKERS_PER_CORE` per core."""
    return int(os.environ.get("WEB_CONCURRENCY") or WORKERS_PER_CORE * cores())


#: The environment variable that says this process runs commands or worker tasks (set by
#: ``manage.py`` for every command but ``runserver``, and by the Celery worker when it starts).
BATCH_PROCESS = "ZARIK_BATCH_PROCESS"


def run_as_batch() -> None:
    """Say that this process (and the processes it forks) runs management commands or Celery
    worker tasks, not web requests: its statements get :func:`statement_timeout_ms`'s batch limit.
    Call it before the first database connection is opened."""
    os.environ[BATCH_PROCESS] = "1"


def statement_timeout_ms() -> int:
    """The server's ``statement_timeout`` for this process's connections, in milliseconds.

    A web request keeps ``DB_STATEMENT_TIMEOUT_MS`` (20 s): below gunicorn's timeout, so a
    slow or hung database answers 503 before the worker is killed (issue 29). A management
    command or a worker task is not a request anyone waits on: generating, exporting or
    re-rating a 100,000-player event writes or reads for longer than 20 s on a busy server,
    and the web's limit killed such a job half-way (issue 50). They take
    ``DB_BATCH_STATEMENT_TIMEOUT_MS`` (10 minutes): still a bound, so a frozen server frees
    a worker in minutes. Eager tasks (no broker: development, tests) run inside the request
    and keep the web's limit.
    """
    if os.environ.get(BATCH_PROCESS) == "1":
        return int(os.environ.get("DB_BATCH_STATEMENT_TIMEOUT_MS", "600000"))
    return int(os.environ.get("DB_STATEMENT_TIMEOUT_MS", "20000"))


def postgres_timeouts() -> dict[str, object]:
    """libpq options that bound a database that accepts connections but never answers.

    ``connect_timeout`` (``DB_CONNECT_TIMEOUT``, s) bounds opening a connection, the
    handshake included; ``tcp_user_timeout`` and keepalives drop a connection whose host
    went silent. All answer the same 503 as a dropped connection
    (:mod:`tournaments.db_unavailable`) instead of a worker killed by gunicorn's timeout
    (issue 29: 30.5 s, then a bare 500). The ``statement_timeout`` that makes the server
    cancel a statement running longer is added when a connection opens
    (:mod:`zarik.postgresql`, :func:`statement_timeout_ms`): a Celery worker learns what
    it is only after the settings are read. Keep the web's below ``GUNICORN_TIMEOUT`` so
    the 503 is said before the worker is killed.
    """
    connect = int(os.environ.get("DB_CONNECT_TIMEOUT", "5"))
    return {
        "connect_timeout": connect,
        "tcp_user_timeout": int(os.environ.get("DB_TCP_USER_TIMEOUT_MS", "10000")),
        "keepalives": 1,
        "keepalives_idle": 30,
        "keepalives_interval": 10,
        "keepalives_count": 3,
    }


def broker_timeouts() -> dict[str, object]:
    """Celery settings that make a task's publishing fail in seconds when the broker is down or hung.

    ``BROKER_TIMEOUT`` (s) bounds connecting and each socket read of the publisher; one
    retry. Without them a stopped Redis held ``POST …/exports/`` for 19 s and then a 500,
    with the job left QUEUED for ever (issue 29). Workers block on the broker with their
    own one-second polls, well inside the socket timeout.
    """
    timeout = float(os.environ.get("BROKER_TIMEOUT", "3"))
    one_retry = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
    return {
        "broker_connection_timeout": timeout,
        # max_retries…: kombu's own reconnecting when a channel is opened (unbounded otherwise:
        # a refused broker held the first export of each web process 19 s, issue 45).
        "broker_transport_options": {"socket_connect_timeout": timeout, "socket_timeout": timeout,
                                     "socket_keepalive": True, **one_retry},
        "task_publish_retry_policy": one_retry,
        # The Redis result backend (a job's state; subscribed to on every publish) with the
        # same bounds: its default read timeout is 120 s…
        "redis_socket_timeout": timeout,
        "redis_socket_connect_timeout": timeout,
        "redis_retry_on_timeout": False,
        # …and its reconnecting: 20 tries a second apart by default (the 19 s above).
        "result_backend_transport_options": {"retry_policy": one_retry},
    }


def sqlite_options() -> dict[str, object]:
    """SQLite opened for a hall full of phones (``make run HOST=0.0.0.0``).

    Every transaction that writes starts ``BEGIN IMMEDIATE`` (Django 5.1+'s
    ``transaction_mode``): it takes the write lock first and so waits its turn under the
    busy ``timeout`` (``SQLITE_BUSY_TIMEOUT``, s). With SQLite's default deferred
    transactions a transaction that had read and then had to write gave up at once with
    "database is locked" — the busy handler is never called for that upgrade, since
    waiting could deadlock — and issue 45's hall got a 503 saying "nothing was saved" for
    8 of 12 simultaneous registrations. WAL lets pages read while someone writes, and
    ``synchronous=NORMAL`` is WAL's recommended durability (a power cut may lose the last
    commit, never corrupt the file).
    """
    return {
        "timeout": float(os.environ.get("SQLITE_BUSY_TIMEOUT", "20")),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }


def query_deadline() -> float:
    """Seconds one database call may take on this side (``DB_QUERY_DEADLINE_MS``), this process's
    ``statement_timeout`` (:func:`statement_timeout_ms`) and two more by default: the server
    cancels a slow statement first, and :mod:`zarik.db_watchdog` cuts a connection whose server
    went silent. Keep the web's below ``GUNICORN_TIMEOUT``."""
    return int(os.environ.get("DB_QUERY_DEADLINE_MS", str(statement_timeout_ms() + 2000))) / 1000
