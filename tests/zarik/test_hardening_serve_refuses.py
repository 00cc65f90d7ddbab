"""``bin/serve`` refuses to start with a weak ``SECRET_KEY`` or an empty ``ALLOWED_HOSTS``.

Run for real: ``bin/serve`` in a subprocess with the production environment, a
database URL that leads nowhere (the refusal must come before any migration), and
each bad setting in turn. Before issue 29 it started (Django says these at WARNING
level, which ``--fail-level ERROR`` lets through), and every page answered 500 or 400.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.zarik.test_settings import production_env


def _serve(**overrides) -> subprocess.CompletedProcess:
    env = production_env(DATABASE_URL="postgres://nobody@127.0.0.1:1/nothing",
                         VENV=str(Path(sys.executable).parent.parent), **overrides)
    return subprocess.run(["sh", "bin/serve"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("key", ["x", "django-insecure-" + "abcdefghij" * 6, "ab" * 40])
def test_bin_serve_refuses_a_weak_secret_key(key):
    proc = _serve(SECRET_KEY=key)
    assert proc.returncode != 0
    assert "zarik.E003" in proc.stderr and "SECRET_KEY is weak" in proc.stderr
    assert "refusing to start" in proc.stderr
    assert "Operations to perform" not in proc.stdout  # refused before migrating


def test_bin_serve_refuses_an_empty_allowed_hosts():
    proc = _serve(ALLOWED_HOSTS="")
    assert proc.returncode != 0
    assert "zarik.E004" in proc.stderr and "ALLOWED_HOSTS is empty" in proc.stderr


def test_the_web_server_module_refuses_a_weak_secret_key_too():
    """gunicorn imports zarik.wsgi without bin/serve: the module itself refuses."""
    proc = subprocess.run([sys.executable, "-c", "import zarik.wsgi"], cwd=ROOT,
                          env=production_env(SECRET_KEY="x"), capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "zarik.E003" in proc.stderr


def test_bin_serve_refuses_allowed_hosts_that_accept_any_host():
    """Issue 45: ``ALLOWED_HOSTS='*'`` passed ``check --deploy`` and served any Host header."""
    proc = _serve(ALLOWED_HOSTS="zarik.example.org,*")
    assert proc.returncode != 0
    assert "zarik.E011" in proc.stderr and "accepts any host" in proc.stderr
    assert "Operations to perform" not in proc.stdout
