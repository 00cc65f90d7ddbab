"""A registration while the mail server fails: saved, said plainly, no server's words on the page.

Issue 45: the public thank-you page showed the raw SMTP error (with a server path) and
still said a confirmation was sent. A real SMTP client against a port where nothing
listens here (the mail server down).
"""

from __future__ import annotations

import socket

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

FORM = {"last_name": "Семёнов", "first_name": "Иван", "email": "ivan@example.org", "category": "4"}


@pytest.fixture
def mail_server_down(settings):
    with socket.socket() as s:  # a free port, closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 2


@pytest.mark.parametrize(("lang", "saved", "reason"), [
    ("en", "Your application is saved, but the confirmation", "the mail server could not be reached"),
    ("ru", "Ваша заявка сохранена, но подтверждение", "почтовый сервер недоступен"),
])
def test_the_thank_you_page_says_the_email_failed_without_the_servers_words(client, mail_server_down, lang,
                                                                              saved, reason):
    t = TournamentFactory(registration_open=True, registration_approval=True)
    page = client.post(reverse("register", kwargs={"slug": t.slug}), FORM, HTTP_ACCEPT_LANGUAGE=lang)
    html = page.content.decode()
    assert page.status_code == 200 and Registration.objects.filter(tournament=t).count() == 1
    assert saved in html and reason in html
    assert "A confirmation was sent" not in html and "Подтверждение отправлено" not in html
    assert "Errno" not in html and "Connection refused" not in html and "127.0.0.1" not in html
