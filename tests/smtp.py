"""A real local SMTP server (aiosmtpd) for tests that check the emails people receive."""

from __future__ import annotations

import email
import email.policy
import socket
from contextlib import contextmanager

from aiosmtpd.controller import Controller
from django.test import override_settings


class Inbox:
    """Collects every message the server receives, parsed."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.messages if address in m["X-Envelope-To"]]

    @staticmethod
    def body(message) -> str:
        return message.get_body(preferencelist=("plain",)).get_content()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def smtp_server():
    """Start the server on a free port and point Django's SMTP backend at it."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=port,
            EMAIL_USE_TLS=False,
            EMAIL_HOST_USER="",
            EMAIL_HOST_PASSWORD="",
            DEFAULT_FROM_EMAIL="zarik@example.org",
        ):
            yield inbox
    finally:
        controller.stop()
