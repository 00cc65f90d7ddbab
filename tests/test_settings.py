"""Production settings from the environment pass Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_passes_with_production_environment():
    # The browser tests switch Django's async-safety check off for their session; a deployment never would.
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = dict(
        base,
        ZARIK_ENV="production",
        SECRET_KEY="x" * 60 + "-Production-Secret-Key-For-Check-0123456789",
        ALLOWED_HOSTS="zarik.example.org",
        DEBUG="0",
    )
    proc = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["ZARIK_ENV"] = "production"
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120,
    )
    assert proc.returncode != 0 and "SECRET_KEY" in proc.stderr
