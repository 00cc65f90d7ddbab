"""A NUL character in a field is a clear 400 on both engines, never a database error."""

import pytest
from django.contrib.auth import get_user_model

from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(shared_demo):
    """The demo loaded once for this module, not per test (tests/conftest.py: ``shared_demo``)."""


def test_nul_in_a_search_is_a_clear_400(client, demo):
    client.force_login(get_user_model().objects.get(username="referee"))
    response = client.get(f"/t/{SWISS_SLUG}/referee/", {"q": "Али\x00ев"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode() and "q" in response.content.decode()
    assert client.get(f"/t/{SWISS_SLUG}/referee/", {"q": "Алиев"}).status_code == 200


def test_nul_in_a_posted_field_is_refused(client, demo):
    response = client.post("/accounts/login/", {"username": "ref\x00eree", "password": "x"})
    assert response.status_code == 400


def test_lang_in_the_address_shows_a_page_in_that_language_for_that_request_only(client, demo):
    """``?lang=`` works on pages as on the API (issue 34): a shared link can name its language."""
    english = client.get("/t/demo-swiss/standings/?lang=en", HTTP_ACCEPT_LANGUAGE="ru")
    assert english.status_code == 200
    assert english["Content-Language"] == "en"
    assert "<html lang=\"en\">" in english.content.decode()
    assert "Standings" in english.content.decode()
    # The visitor's own choice is untouched: the next page without ?lang= is Russian again.
    russian = client.get("/t/demo-swiss/standings/", HTTP_ACCEPT_LANGUAGE="ru")
    assert russian["Content-Language"] == "ru"
    assert "<html lang=\"ru\">" in russian.content.decode() and "Standings<" not in russian.content.decode()
    # An unknown code changes nothing (no error either).
    assert client.get("/t/demo-swiss/standings/?lang=xx", HTTP_ACCEPT_LANGUAGE="ru")["Content-Language"] == "ru"


def test_nul_in_an_api_query_is_a_problem_as_the_api_documents_every_400(client, db):
    response = client.get("/api/tournaments/?search=a%00b", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == "request.nul_character" and "search" in body["detail"]
