"""Shared fixtures: a real Celery worker for the smoke tests, demo data."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent

# Property tests check behaviour, never speed (that is bench/'s job): no per-example deadline,
# which only made examples fail on a busy machine (a CI box running two suites, say).
hypothesis_settings.register_profile("zarik", deadline=None)
hypothesis_settings.load_profile("zarik")
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _required(env: str) -> bool:
    return os.environ.get(env, "") not in ("", "0")


# `make test` runs the suite on several processes (pytest-xdist, `--dist loadgroup`): each has
# its own test database (pytest-django names it test_<db>_gw<n>), live server and SMTP/webhook
# servers on free ports, and its own chromium. What they cannot each have is the local Redis's
# numbered databases: a real Celery worker takes whatever task is on its broker, and the
# cache tests empty database 14 that bin/serve's worker uses as its broker. So every test
# that touches them runs on one process, one after another.
SHARED_REDIS = "local_redis"


# The longest single tests start first on a worker, so none of them is left running alone at
# the end of the run while the other processes are idle (xdist hands out work in this order).
LONG_FIRST = ("simulator", "long", "browser", "journey")


def _start_rank(item) -> int:
    return next((rank for rank, name in enumerate(LONG_FIRST) if item.get_closest_marker(name)), len(LONG_FIRST))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Put the tests that share the local Redis in one xdist group (before xdist reads it);
    under xdist, start the long ones first (the order is the same on every worker)."""
    if hasattr(config, "workerinput"):
        items.sort(key=_start_rank)
    for item in items:
        if (
            item.get_closest_marker("celery_worker")
            or item.get_closest_marker(SHARED_REDIS)
            or "celery_worker_process" in getattr(item, "fixturenames", ())
        ):
            item.add_marker(pytest.mark.xdist_group(SHARED_REDIS))


@pytest.fixture(autouse=True)
def celery_join_allowed():
    """Each test starts with Celery's "a task is running" flag down.

    Eager tasks (``task.apply``) raise that module-global flag while they run and put back
    what they found. Two eager tasks overlapping in the live server's request threads
    (browser and schemathesis tests) can put back each other's value and leave it up, and a
    later test that joins a result (``.get()``) is then refused as "within a task". The app
    never joins results, so only the tests see it; start each one clean.
    """
    from celery.result import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield


@pytest.fixture(autouse=True)
def fresh_process_memos():
    """Each test starts with this process's kept rows empty, as a new web process would."""
    from tournaments.cache import KeptInProcess

    KeptInProcess.clear_all()


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """PBKDF2's deliberate slowness protects real accounts; tests only need correctness."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    # The private-link guess limit counts 404s per address on the cache, which outlives a
    # test: raised here so the suite's forged-link checks never add up; tests/test_security.py
    # sets its own low limit.
    settings.PRIVATE_LINK_MISS_RATE = "100000/10m"
    settings.API_TOKEN_MISS_RATE = "100000/10m"  # likewise; tests/zarik/test_hardening_bodies.py sets a low one
    # Tests read the standings right after a result; the 1 s rebuild bound has its own test
    # (tests/test_page_cache.py).
    settings.STANDINGS_STALE_SECONDS = 0
    # A withdrawal's grace ends by a timer thread in the embedded set-up, ten minutes later: in
    # the suite it would fire in another test's middle. Its own test turns it on
    # (tests/registration/test_withdrawal_grace.py); the others settle by calling the service.
    settings.WITHDRAWAL_GRACE_TIMER = False
    # Jobs run where they are asked, as Celery's eager mode does, so a test reads the result
    # right after the request; the embedded runner's threads have their own tests
    # (tests/zarik/test_hall_long_work.py, tests/jobs/test_embedded_runner.py).
    settings.EMBEDDED_JOBS = "inline"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Every test writes uploads, exports and job status files under its own temporary folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def demo(db):
    from zarik.management.demo import load_demo

    return load_demo()


@pytest.fixture
def book(db):
    """Only the book's crosstable tournament from the demo (the whole demo takes seconds)."""
    from zarik.management.demo import _user, load_book_crosstable

    return load_book_crosstable(_user("referee"))


@pytest.fixture
def shared_demo(demo_once, db, fresh_cache):
    """The demo loaded once for the module (``demo_once``), for tests that need it per test.

    Each test runs in its own savepoint on it and starts with an empty cache, so no page one
    test cached is served to the next. A module opts in with ``def demo(shared_demo)``.
    """


@pytest.fixture
def fresh_cache():
    """An empty cache before and after the test (pages cache their fragments)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="module")
def demo_once(django_db_setup, django_db_blocker):
    """The demo loaded once for the module, inside a transaction rolled back at its end.

    Each test still runs in its own savepoint (pytest-django's ``db``), so tests stay
    independent; loading the demo per test would cost seconds each. Module fixtures that
    depend on this one add to the same transaction (and hash passwords as fast).
    """
    from django.db import transaction
    from django.test import override_settings

    from zarik.management.demo import load_demo

    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        with transaction.atomic():
            load_demo()
            yield
            transaction.set_rollback(True)


def forget_celery_connections() -> None:
    """Drop the broker pool and result backend Celery caches on first use.

    Celery picks its producer pool and result backend even for eager runs and
    keeps them: after an eager task, a later real-worker test would send to
    the placeholder in-memory broker and read from a disabled backend.
    """
    from zarik.celery import app

    app._pool = None
    if "amqp" in app.__dict__:
        app.__dict__["amqp"]._producer_pool = None
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


@pytest.fixture
def celery_worker_app(celery_worker_process):
    """The Celery app pointed at a real worker (see :func:`celery_worker_process`)."""
    return celery_worker_process[0]


@pytest.fixture
def worker_pool() -> list[str]:
    """The real worker's pool options; a test module may override this fixture (webhook lanes: threads)."""
    return ["--pool=solo"]


@pytest.fixture
def celery_worker_process(settings, worker_pool):
    """A real ``celery worker`` process on ZARIK_TEST_BROKER_URL: (the app pointed at it, the process).

    Skipped without a broker, unless ZARIK_REQUIRE_WORKER=1 (as in CI) makes
    that a failure. The worker gets this test's database settings so tasks
    that read the database see what the test committed (use transactional_db).
    """
    broker = os.environ.get("ZARIK_TEST_BROKER_URL")
    if not broker:
        if _required("ZARIK_REQUIRE_WORKER"):
            pytest.fail("ZARIK_REQUIRE_WORKER is set but ZARIK_TEST_BROKER_URL is not")
        pytest.skip("no ZARIK_TEST_BROKER_URL: the real-worker smoke test needs a broker")
    from django.db import connection

    from zarik.celery import app

    db = connection.settings_dict
    env = dict(os.environ, CELERY_BROKER_URL=broker, CELERY_RESULT_BACKEND=broker)
    if db["ENGINE"].endswith("postgresql"):
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
    else:
        env["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
    env.setdefault("MEDIA_ROOT", str(settings.MEDIA_ROOT))
    # A queue of this pytest process's own: two xdist workers' real-worker tests may run at the
    # same time on the one broker, and a Celery worker taking the other test's task reads the
    # other test database and finds nothing (the task is lost to its own test).
    own_queue = f"zarik-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "zarik", "worker", *worker_pool, "-Q", own_queue,
         "--loglevel=warning", "--without-heartbeat", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    old = {k: app.conf.get(k) for k in ("task_always_eager", "broker_url", "result_backend", "task_default_queue")}
    forget_celery_connections()
    app.conf.update(task_always_eager=False, broker_url=broker, result_backend=broker, task_default_queue=own_queue)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if app.control.ping(timeout=0.5):
                    break
            except Exception:  # broker not answering yet
                time.sleep(0.3)
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                pytest.fail(f"celery worker exited early:\n{out}")
        else:
            pytest.fail("celery worker did not answer a ping within 30 s")
        yield app, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        app.conf.update(old)
        forget_celery_connections()
