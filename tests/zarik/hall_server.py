"""The embedded default as a hall runs it: ``manage.py runserver`` on its own SQLite file.

Used by the tests that fire simultaneous requests at a real server (issue 45): the
server is a separate process with the settings a newcomer's ``make run`` gets (no
``DATABASE_URL`` but a file of our own, eager Celery, the console for emails), so the
database locks are SQLite's own, between the server's request threads.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.paths import ROOT

#: The embedded default's server is the same whatever the suite's engine: run once, in the SQLite pass.
EMBEDDED_ONLY = pytest.mark.skipif(os.environ.get("DATABASE_URL", "").startswith("postgres"),
                                   reason="the embedded SQLite server runs in the SQLite pass")

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def embedded_env(db_file: Path, **extra: str) -> dict[str, str]:
    """The environment of ``make run``: nothing set but the database file and the port."""
    drop = {"DATABASE_URL", "ZARIK_ENV", "CACHE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE",
            "DJANGO_ALLOW_ASYNC_UNSAFE", "EMAIL_HOST"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DATABASE_URL=f"sqlite:///{db_file}", DJANGO_SETTINGS_MODULE="zarik.settings",
               PYTHONPATH=str(ROOT), **extra)
    return env


@dataclass
class Answer:
    status: int
    body: str
    seconds: float


@dataclass
class Browser:
    """One visitor: their own cookies (session, CSRF), as a phone in the hall has."""

    base: str
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> Answer:
        return self._send(urllib.request.Request(self.base + path, headers={"Accept-Language": "en"}))

    def post(self, path: str, data: dict[str, str], token: str) -> Answer:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={
            "Accept-Language": "en", "Referer": self.base + path,
            "Content-Type": "application/x-www-form-urlencoded"})
        return self._send(request)

    def token(self, path: str) -> str:
        page = self.get(path)
        assert page.status == 200, page.body[:500]
        return CSRF.search(page.body).group(1)

    def _send(self, request: urllib.request.Request) -> Answer:
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=60) as r:
                return Answer(r.status, r.read().decode(), time.monotonic() - started)
        except urllib.error.HTTPError as e:
            return Answer(e.code, e.read().decode(errors="replace"), time.monotonic() - started)


class HallServer:
    """A migrated SQLite file, a seed script's data in it, and runserver serving it."""

    def __init__(self, tmp: Path, seed: str, host: str = "127.0.0.1", **env: str) -> None:
        self.db_file = tmp / "hall.sqlite3"
        self.port = free_port()
        self.host = host
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = embedded_env(self.db_file, PORT=str(self.port), **env)
        self.log_path = tmp / "runserver.log"
        self.seed = seed
        self.proc: subprocess.Popen | None = None

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=300, check=True)

    def __enter__(self) -> HallServer:
        self.manage("migrate", "--noinput", "-v0")
        subprocess.run([sys.executable, "-c", "import django; django.setup()\n" + self.seed], cwd=ROOT,
                       env=self.env, check=True, timeout=120)
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                assert self.proc.poll() is None, self.log()
                time.sleep(0.2)
        raise AssertionError("runserver did not start: " + self.log())

    def command(self) -> list[str]:
        """``make run``'s own server script (bin/run), on this server's host and port."""
        self.env.update(HOST=self.host, VENV=str(Path(sys.executable).parent.parent))
        return ["sh", "bin/run"]

    def log(self) -> str:
        return self.log_path.read_text()[-4000:]

    def __exit__(self, *exc) -> None:
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # runserver and its reloader child
            self.proc.wait(timeout=30)
        self._log.close()
