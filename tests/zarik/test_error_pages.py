"""404 and 500 pages in the reader's language with a way back (issue 44: a Russian user got
Django's bare English "Not Found" and no link)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_a_missing_page_answers_404_in_russian_with_the_sites_navigation(client):
    response = client.get("/t/no-such-event/pairings/", HTTP_ACCEPT_LANGUAGE="ru")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Страница не найдена" in html and "Not Found" not in html
    assert '<header class="site">' in html and 'href="/"' in html
    assert "/t/no-such-event/pairings/" in html  # says which address has no page


def test_an_address_nothing_answers_gets_the_english_page_in_english(client):
    response = client.get("/no/such/address/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and 'lang="en"' in html and '<a href="/">Tournaments</a>' in html


def test_the_server_error_page_is_translated_and_needs_no_context():
    request = RequestFactory().get("/")
    with translation.override("ru"):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert "На сервере произошла ошибка" in html and 'lang="ru"' in html and 'href="/"' in html
