"""A real local HTTP server for tests that check the webhooks integrators receive.

While it runs, ``WEBHOOK_ALLOW_LOCAL`` is on: deliveries refuse local addresses
otherwise (``tournaments/notifications/webhook_transport.py``)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import override_settings


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """Records every POST; answers the statuses of ``script`` in turn, then ``default``."""

    url: str = ""
    requests: list[Received] = field(default_factory=list)
    script: list[int] = field(default_factory=list)
    default: int = 200
    location: str = ""  # sent with a 3xx answer


@contextmanager
def webhook_receiver(script=(), default: int = 200, location: str = "", allow_local: bool = True):
    receiver = Receiver(script=list(script), default=default, location=location)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's hook name)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            receiver.requests.append(Received(self.path, dict(self.headers.items()), body))
            status = receiver.script.pop(0) if receiver.script else receiver.default
            answer = b'{"ok": true}' if status < 400 else b"receiver is down"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            if 300 <= status < 400 and receiver.location:
                self.send_header("Location", receiver.location)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):  # keep the test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with override_settings(WEBHOOK_ALLOW_LOCAL=allow_local):
            yield receiver
    finally:
        server.shutdown()
        server.server_close()
