"""Production settings from the environment: deploy checks clean, and the settings that were
seen failing in production refuse to start (tests run ``manage.py`` in a subprocess, so the
settings module is read exactly as a server would read it)."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.paths import ROOT

SECRET = "x" * 60 + "-Production-Secret-Key-For-Check-0123456789"


def production_env(**overrides) -> dict:
    # The browser tests switch Django's async-safety check off for their session; a deployment never would.
    base = {k: v for k, v in os.environ.items()
            if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "CACHE_URL", "CONN_MAX_AGE"}}
    env = dict(
        base,
        ZARIK_ENV="production",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="zarik.example.org",
        CACHE_URL="redis://127.0.0.1:6379/15",
        DEBUG="0",
    )
    env.update(overrides)
    return {k: v for k, v in env.items() if v is not None}


def run(args, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_check_deploy_passes_with_production_environment():
    proc = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = production_env(SECRET_KEY=None)
    proc = run(["manage.py", "check"], env)
    assert proc.returncode != 0 and "SECRET_KEY" in proc.stderr


def test_production_without_a_shared_cache_fails_the_checks_and_the_web_server():
    env = production_env(CACHE_URL=None)
    proc = run(["manage.py", "check", "--deploy"], env)
    assert proc.returncode != 0
    assert "zarik.E001" in proc.stderr and "CACHE_URL=redis://" in proc.stderr
    # gunicorn imports zarik.wsgi and runs no checks: the module itself refuses.
    proc = run(["-c", "import zarik.wsgi"], env)
    assert proc.returncode != 0 and "zarik.E001" in proc.stderr


def test_more_persistent_connections_than_postgresql_allows_is_refused():
    env = production_env(DATABASE_URL="postgres://zarik@127.0.0.1:5432/zarik", WEB_CONCURRENCY="12",
                         GUNICORN_THREADS="8", CELERY_CONCURRENCY="4", DB_MAX_CONNECTIONS="100")
    proc = run(["manage.py", "check"], env)
    assert proc.returncode != 0 and "zarik.E002" in proc.stderr
    assert "reach 105" in proc.stderr  # 12 × 8 + 4 + 5
    env["GUNICORN_THREADS"] = "2"  # 12 × 2 + 4 + 5 = 33: fine
    proc = run(["manage.py", "check"], env)
    assert proc.returncode == 0, proc.stderr


def test_gunicorn_and_the_connection_check_count_two_workers_per_core_of_the_cpu_set():
    """gunicorn.conf.py and settings.WEB_CONCURRENCY read one default (zarik.serving): a
    container limited to one core runs 2 workers, not the host's count; the env overrides."""
    if not shutil.which("taskset"):
        pytest.skip("taskset (util-linux) is not installed")
    env = production_env(WEB_CONCURRENCY=None)
    one_core = ["taskset", "-c", "0", sys.executable]
    config = subprocess.run([*one_core, "-m", "gunicorn", "--print-config", "zarik.wsgi:application"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert re.search(r"^workers\s+= 2$", config.stdout, re.M), config.stdout + config.stderr
    setting = subprocess.run([*one_core, "-c", "import django; django.setup(); from django.conf import settings; "
                              "print(settings.WEB_CONCURRENCY)"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=120)  # fmt: skip
    assert setting.stdout.strip() == "2", setting.stderr
    env["WEB_CONCURRENCY"] = "5"
    config = subprocess.run([*one_core, "-m", "gunicorn", "--print-config", "zarik.wsgi:application"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert re.search(r"^workers\s+= 5$", config.stdout, re.M), config.stdout


DUMP = """
import json, django
django.setup()
from django.conf import settings as s
from rest_framework.settings import api_settings
print(json.dumps({
    "conn_max_age": s.DATABASES["default"]["CONN_MAX_AGE"],
    "conn_health_checks": s.DATABASES["default"]["CONN_HEALTH_CHECKS"],
    "auth": [c.__name__ for c in api_settings.DEFAULT_AUTHENTICATION_CLASSES],
    "hsts": s.SECURE_HSTS_SECONDS, "session_secure": s.SESSION_COOKIE_SECURE,
    "csrf_secure": s.CSRF_COOKIE_SECURE, "referrer": s.SECURE_REFERRER_POLICY,
    "middleware": s.MIDDLEWARE, "log_format": s.LOG_FORMAT,
    "swagger": s.SPECTACULAR_SETTINGS.get("SWAGGER_UI_DIST"),
    "max_fields": s.DATA_UPLOAD_MAX_NUMBER_FIELDS,
}))
"""


def dump(env) -> dict:
    proc = run(["-c", DUMP], dict(env, DJANGO_SETTINGS_MODULE="zarik.settings"))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_production_settings_harden_what_development_leaves_easy():
    prod = dump(production_env())
    assert prod["conn_max_age"] == 60 and prod["conn_health_checks"] is True
    assert "BasicAuthentication" not in prod["auth"]  # passwords are not sent with every API call
    assert {"ApiTokenAuthentication", "SessionAuthentication"} <= set(prod["auth"])
    assert prod["hsts"] >= 31536000 and prod["session_secure"] and prod["csrf_secure"]
    assert prod["referrer"] == "same-origin"
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in prod["middleware"]
    assert "csp.middleware.CSPMiddleware" in prod["middleware"]
    assert prod["log_format"] == "json" and prod["swagger"] == "SIDECAR"
    assert 1000 <= prod["max_fields"] <= 10000
    # Basic authentication can be switched back on (axes still locks out guessing).
    assert "BasicAuthentication" in dump(production_env(API_BASIC_AUTH="1"))["auth"]
    # runserver starts a thread per request: there connections are never kept.
    dev = {k: v for k, v in os.environ.items() if k not in {"ZARIK_ENV", "CONN_MAX_AGE"}}
    assert dump(dev)["conn_max_age"] == 0


WARMED_UP = """
import gc, socket
import zarik.wsgi
from zarik.celery import app
assert app.finalized, "Celery's task registry is set up before gunicorn forks"
open_sockets = [s for s in gc.get_objects() if isinstance(s, socket.socket) and s.fileno() != -1]
print(len(open_sockets))
"""


def test_the_web_process_warms_up_before_the_fork_without_opening_a_connection():
    """gunicorn forks its workers from the process that imported ``zarik.wsgi`` (preload_app):
    what it set up (URLs, templates, Celery's registry) every worker inherits, but a socket it
    opened would be shared by all of them, so it opens none (not even to the broker)."""
    env = production_env(CELERY_BROKER_URL="redis://127.0.0.1:6379/15")
    done = run(["-c", WARMED_UP], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
