"""Issue 36, phone forms: an error summary at the top that takes the focus and links to each
field, the decimal comma in a rating, and a deadline passing while the visitor types."""

from __future__ import annotations

import datetime as dt

import lxml.html
import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory
from tests.smtp import smtp_server
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

FORM = {
    "last_name": "Петров", "first_name": "Пётр", "email": "petrov@example.org",
    "category": "4", "rating": "1612,5",
}  # fmt: skip


@pytest.fixture
def event():
    return TournamentFactory(public=True, registration_open=True, slug="kubok")


def post(client, data, lang="ru"):
    return client.post(reverse("register", kwargs={"slug": "kubok"}), data, HTTP_ACCEPT_LANGUAGE=lang)


@pytest.mark.parametrize(("typed", "stored"), [("1612,5", 1612.5), ("1 612,5", 1612.5), ("1612.5", 1612.5)])
def test_a_rating_typed_with_the_decimal_comma_is_the_number_meant(client, event, typed, stored):
    with smtp_server():
        post(client, {**FORM, "rating": typed})
    assert Registration.objects.get(email="petrov@example.org").rating == stored


def test_the_rating_box_is_text_with_the_decimal_keypad_not_a_number_box(client, event):
    html = lxml.html.fromstring(client.get(reverse("register", kwargs={"slug": "kubok"})).content)
    [box] = html.xpath("//input[@name='rating']")
    assert (box.get("type"), box.get("inputmode")) == ("text", "decimal")


def test_a_refused_form_opens_with_a_focused_summary_linking_to_each_wrong_field(client, event):
    page = post(client, {**FORM, "rating": "много", "email": "not-an-email"}, lang="en")
    html = lxml.html.fromstring(page.content)
    [summary] = html.xpath("//*[@id='error-summary']")
    assert summary.get("role") == "alert" and summary.get("data-focus") is not None
    assert html.xpath("//form[.//input[@name='last_name']]//*[@id='error-summary']")  # above the fields
    targets = [a.get("href") for a in summary.xpath(".//a")]
    assert targets == ["#id_email", "#id_rating"]
    for target in targets:
        assert html.xpath(f"//input[@id='{target[1:]}']")  # each link leads to its field
    assert html.xpath("//input[@name='last_name']")[0].get("value") == "Петров"  # nothing typed is lost


def test_the_deadline_passing_while_typing_keeps_what_was_typed_and_says_why(client, event):
    event.registration_deadline = timezone.now() - dt.timedelta(minutes=1)
    event.save()
    page = post(client, FORM, lang="en")
    html = lxml.html.fromstring(page.content)
    [notice] = html.xpath("//*[@id='registration-closed']")
    assert "deadline" in notice.text_content().lower() or "closed" in notice.text_content().lower()
    assert "cannot be sent" in notice.text_content() and notice.get("data-focus") is not None
    assert html.xpath("//input[@name='last_name']")[0].get("value") == "Петров"
    assert html.xpath("//input[@name='email']")[0].get("value") == "petrov@example.org"
    assert html.xpath("//input[@name='rating']")[0].get("value") == "1612,5"
    assert not html.xpath("//form[.//input[@name='last_name']]//button")  # nothing to send any more
    assert not Registration.objects.exists()
