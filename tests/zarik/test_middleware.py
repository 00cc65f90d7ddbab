"""A NUL character in a field is a clear 400 on both engines, never a database error."""

import pytest
from django.contrib.auth import get_user_model

from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db


def test_nul_in_a_search_is_a_clear_400(client, demo):
    client.force_login(get_user_model().objects.get(username="referee"))
    response = client.get(f"/t/{SWISS_SLUG}/referee/", {"q": "Али\x00ев"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode() and "q" in response.content.decode()
    assert client.get(f"/t/{SWISS_SLUG}/referee/", {"q": "Алиев"}).status_code == 200


def test_nul_in_a_posted_field_is_refused(client, demo):
    response = client.post("/accounts/login/", {"username": "ref\x00eree", "password": "x"})
    assert response.status_code == 400
