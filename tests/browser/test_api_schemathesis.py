"""Schemathesis against our own OpenAPI schema on a live server: no 500s, no schema or media-type violations.

Property-based: schemathesis generates requests from ``/api/schema/`` (the one
drf-spectacular builds from the code) and checks every answer. It is slow, so it
is marked ``browser`` and runs once, in the PostgreSQL pass of CI. The demo data
gives the generated requests real tournaments, rounds and matches to hit; the
requests carry a read-write token of the demo organiser. Every answer, success or
refusal, must match the schema declared for its status and its media type (errors:
``application/problem+json``, declared by ``tournaments.api.http.schema``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tournaments.api.http.tokens import issue
from tournaments.models import TokenScope
from zarik.management.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
CLI = Path(sys.executable).with_name("st")


def run_schemathesis(base: str, key: str, *args: str) -> subprocess.CompletedProcess:
    command = [
        str(CLI), "run", f"{base}/api/schema/",
        "--checks", "not_a_server_error,response_schema_conformance,content_type_conformance",
        "-H", f"Authorization: Token {key}",
        "--max-examples", os.environ.get("ZARIK_SCHEMATHESIS_EXAMPLES", "10"),
        "--request-timeout", "20", "--no-color", *args,
    ]  # fmt: skip
    timeout = int(os.environ.get("ZARIK_SCHEMATHESIS_TIMEOUT", "1500"))
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as late:  # keep what it found so far: the log says which operations
        out = late.stdout.decode() if isinstance(late.stdout, bytes) else (late.stdout or "")
        return subprocess.CompletedProcess(command, 124, out, f"schemathesis ran past {timeout} s")


@pytest.fixture
def organiser_key(live_server):
    load_demo()
    organiser = get_user_model().objects.get(username="organiser")
    _token, key = issue(organiser, "schemathesis", TokenScope.WRITE)
    return key


def test_reading_the_api_finds_no_server_error_and_no_schema_violation(live_server, organiser_key):
    if not CLI.exists() and not shutil.which("st"):
        pytest.fail("schemathesis is not installed (requirements-dev.txt)")
    done = run_schemathesis(live_server.url, organiser_key, "--include-method", "GET")
    Path(os.environ.get("ZARIK_SCHEMATHESIS_LOG", "/tmp/zarik-schemathesis.log")).write_text(done.stdout + done.stderr)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_writing_to_the_api_finds_no_server_error_and_no_schema_violation(live_server, organiser_key):
    """POST, PATCH and DELETE with generated bodies: refusals are 4xx problems that match the schema."""
    if not CLI.exists() and not shutil.which("st"):
        pytest.fail("schemathesis is not installed (requirements-dev.txt)")
    methods = ("--include-method", "POST", "--include-method", "PATCH", "--include-method", "DELETE")
    done = run_schemathesis(live_server.url, organiser_key, *methods)
    log = Path(os.environ.get("ZARIK_SCHEMATHESIS_LOG", "/tmp/zarik-schemathesis.log"))
    log.with_suffix(".write.log").write_text(done.stdout + done.stderr)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
