"""The user's own API tokens page: the key shown once, the list, revoking; nobody else's tokens."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.models import ApiToken

pytestmark = pytest.mark.django_db
URL = "/account/tokens/"


def test_the_page_needs_a_login(client):
    assert reverse("account-tokens") == URL
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(("language", "once"), [("en", "shown only once"), ("ru", "показан только один раз")])
def test_create_shows_the_key_once_and_it_works(client, language, once):
    user = UserFactory()
    client.force_login(user)
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    account = reverse("account")
    assert f'href="{account}"' in page  # the header links to the account's page, which links here
    assert f'href="{URL}"' in client.get(account, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    response = client.post(URL, {"name": "табло", "scope": "write"}, HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    token = ApiToken.objects.get(user=user)
    key = html.split('id="new-key" type="text" readonly value="')[1].split('"')[0]
    assert key.startswith(token.prefix) and once in html
    assert key not in client.get(URL).content.decode()  # never again
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/tournaments/").status_code == 200
    listing = client.get(URL).content.decode()
    assert "табло" in listing and token.prefix in listing


@pytest.mark.parametrize(("language", "text"), [("en", "This field is required."), ("ru", "Обязательное поле.")])
def test_a_nameless_token_is_refused_with_a_field_error(client, language, text):
    client.force_login(UserFactory())
    response = client.post(URL, {"name": "", "scope": "read"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200 and text in response.content.decode()
    assert not ApiToken.objects.exists()


def test_revoke_own_token_only(client):
    from tournaments.api.http import tokens

    owner, other = UserFactory(), UserFactory()
    token, key = tokens.issue(owner, "old", "read")
    client.force_login(other)
    assert client.post(reverse("account-token-revoke", args=[token.pk])).status_code == 404
    client.force_login(owner)
    response = client.post(reverse("account-token-revoke", args=[token.pk]), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    token.refresh_from_db()
    assert token.revoked_at is not None and "revoked" in response.content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert api.get("/api/tournaments/").status_code == 401
