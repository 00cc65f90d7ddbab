"""The living style page (issue 44): staff only, every component once in Russian and once in
English."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_style_page_shows_each_component_in_both_languages_to_staff(client):
    client.force_login(UserFactory(is_staff=True))
    html = client.get("/style/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for component in ('class="buttons"', 'class="badge published"', 'class="messages"', 'class="cards"',
                      'class="grid standings"', 'class="errorlist"', 'class="group"'):  # fmt: skip
        assert html.count(component) == 2, component  # once per language
    assert "Сохранить результаты" in html and "Save the results" in html
    assert "--secondary" in html and "swatch-primary" in html
    assert "style=" not in html  # the strict CSP: no inline styles


def test_the_style_page_is_refused_to_everyone_else(client):
    assert client.get("/style/").status_code == 302  # to the login
    client.force_login(UserFactory(is_staff=False))
    assert client.get("/style/").status_code == 403
