"""Issue 28: an integrator gets, lists and revokes API tokens over the API alone."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tournaments.models import ApiToken

pytestmark = pytest.mark.django_db


def _post(client, url, body, **headers):
    return client.post(url, body, content_type="application/json", **headers)


def test_a_token_is_created_with_the_accounts_password_listed_without_its_key_and_revoked_at_once():
    user = UserFactory(username="integrator")
    user.set_password("s3cret-pass")
    user.save()
    created = _post(Client(), "/api/tokens/", {"name": "scoreboard", "scope": "write",
                                               "username": "integrator", "password": "s3cret-pass"})
    assert created.status_code == 201 and created["Location"] == f"/api/tokens/{created.json()['id']}/"
    key = created.json()["key"]
    http = Client(HTTP_AUTHORIZATION=f"Token {key}")
    listed = http.get("/api/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["scoreboard"] and "key" not in listed[0]
    # the token makes another (a phone's read token), then revokes itself
    phone = _post(http, "/api/tokens/", {"name": "phone", "scope": "read"})
    assert phone.status_code == 201 and ApiToken.objects.get(pk=phone.json()["id"]).user == user
    assert http.delete(f"/api/tokens/{created.json()['id']}/").status_code == 204
    assert http.get("/api/tokens/").status_code == 401


def test_a_wrong_password_is_a_401_problem_and_no_token_is_made():
    UserFactory(username="integrator")
    answer = _post(Client(), "/api/tokens/?lang=en", {"name": "x", "username": "integrator", "password": "guess"})
    assert answer.status_code == 401 and answer.json()["code"] == "api.authentication_failed"
    assert not ApiToken.objects.exists()


def test_a_read_token_cannot_make_a_token_and_nobody_revokes_someone_elses():
    owner, other = UserFactory(), UserFactory()
    owner.set_password("pw-owner-1")
    owner.save()
    other.set_password("pw-other-1")
    other.save()
    read = _post(Client(), "/api/tokens/", {"name": "r", "scope": "read", "username": owner.username,
                                            "password": "pw-owner-1"}).json()
    reader = Client(HTTP_AUTHORIZATION=f"Token {read['key']}")
    assert _post(reader, "/api/tokens/", {"name": "w", "scope": "write"}).status_code == 403
    theirs = _post(Client(), "/api/tokens/", {"name": "t", "scope": "write", "username": other.username,
                                              "password": "pw-other-1"}).json()
    mine = Client(HTTP_AUTHORIZATION=f"Token {theirs['key']}")
    assert mine.delete(f"/api/tokens/{read['id']}/").status_code == 404
    assert ApiToken.objects.get(pk=read["id"]).revoked_at is None
