"""A production stack whose peers can freeze: gunicorn (``bin/serve``) on PostgreSQL through a
TCP proxy that can stop passing bytes, and a Redis of its own that ``kill -STOP`` freezes.

A frozen peer is the fault no timeout on "connection refused" catches: the kernel still
accepts and acknowledges, nothing ever answers. :class:`FreezableProxy` holds every
byte in both directions while frozen (the connections stay open, as on a database host
that hangs); :class:`OwnRedis` is a ``redis-server`` on a free port that this test
started, so stopping it touches nobody else's Redis.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.paths import ROOT
from tests.zarik.hall_server import free_port


class FreezableProxy:
    """Forwards 127.0.0.1:<port> to ``target``; :meth:`freeze` stops every byte, :meth:`thaw` lets them on."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self.running = threading.Event()
        self.running.set()  # cleared while frozen
        self.closed = threading.Event()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        self.running.clear()

    def thaw(self) -> None:
        self.running.set()

    def close(self) -> None:
        self.closed.set()
        self.running.set()
        self.listener.close()
        for s in self.sockets:
            try:
                s.close()
            except OSError:
                pass

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._pipe, args=(client,), daemon=True).start()

    def _pipe(self, client: socket.socket) -> None:
        self.running.wait()  # a connection made while frozen is accepted, never answered
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        self.sockets += [client, upstream]
        peers = {client: upstream, upstream: client}
        while not self.closed.is_set():
            self.running.wait()
            try:
                readable, _, _ = select.select(list(peers), [], [], 0.1)
                for s in readable:
                    if not self.running.is_set():
                        break
                    data = s.recv(65536)
                    if not data:
                        raise OSError("closed")
                    peers[s].sendall(data)
            except (OSError, ValueError):
                break
        for s in peers:
            try:
                s.close()
            except OSError:
                pass


class OwnRedis:
    """A redis-server on a free port, started and stopped by this test alone."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(tmp)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("redis-server did not start")

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def freeze(self) -> None:
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.thaw()
            self.proc.terminate()
            self.proc.wait(timeout=10)


def timed(method: str, url: str, body: bytes | None = None, headers: dict | None = None,
          limit: float = 60) -> tuple[int | None, bytes, float]:
    """(status, body, seconds); status None when no answer came within ``limit``."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=limit) as r:  # noqa: S310 - our own local server
            return r.status, r.read(), time.monotonic() - started
    except urllib.error.HTTPError as e:
        return e.code, e.read(), time.monotonic() - started
    except OSError:
        return None, b"", time.monotonic() - started


class Stack:
    """``bin/serve`` (gunicorn, no Celery worker: the broker is only published to) on the proxy and the Redis."""

    def __init__(self, tmp: Path, database_url: str, redis: OwnRedis, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CONN_MAX_AGE"}
        self.env = {k: v for k, v in os.environ.items() if k not in drop}
        self.env.update(
            ZARIK_ENV="production", LOCAL_HTTP="1", SECRET_KEY="s" * 60 + "-frozen-stack-0123456789",
            ALLOWED_HOSTS="127.0.0.1", PORT=str(self.port), WEB_CONCURRENCY="2", SERVE_WORKER="0",
            DATABASE_URL=database_url, CACHE_URL=redis.url(1), CELERY_BROKER_URL=redis.url(0),
            VENV=str(Path(sys.executable).parent.parent), MEDIA_ROOT=str(tmp / "media"), STATIC_ROOT=str(tmp / "static"),
            HEALTHZ_TOKEN="frozen-stack-monitor", DB_QUERY_DEADLINE_MS="4000", **env)
        self.log_path = tmp / "serve.log"

    def __enter__(self) -> Stack:
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(["sh", "bin/serve"], cwd=ROOT, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log()
            status, _, _ = timed("GET", self.base + "/healthz/live", limit=2)
            if status == 200:
                return self
            time.sleep(0.5)
        raise AssertionError("bin/serve did not start: " + self.log())

    def log(self) -> str:
        return self.log_path.read_text()[-5000:]

    def __exit__(self, *exc) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self._log.close()
