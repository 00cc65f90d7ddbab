"""Issue 36: opening registration makes the form reachable to visitors, even before the
event is public; the wizard's summary shows it and the status follows the README
(draft → registration)."""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

from clubs.models import ClubRole, ClubRoleKind
from tests.factories import ClubFactory, OfficialFactory, TournamentFactory, UserFactory
from tests.setup.test_setup_pages import NEW, form_values, post
from tests.smtp import smtp_server
from tournaments.models import OfficialRole, Registration, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

FORM = {
    "last_name": "Петров", "first_name": "Пётр", "email": "petrov@example.org",
    "category": "4", "rating": "1500",
}  # fmt: skip


def test_a_visitor_reaches_the_form_of_a_hidden_event_once_registration_is_open(client):
    event = TournamentFactory(public=False, registration_open=False, slug="hidden")
    url = reverse("register", kwargs={"slug": "hidden"})
    assert client.get(url).status_code == 404  # closed and hidden: nothing to see
    client.force_login(OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user)
    client.post(reverse("manage-registration-open", kwargs={"slug": "hidden"}), {"open": "1"})
    manage = client.get(reverse("manage-registrations", kwargs={"slug": "hidden"})).content.decode()
    assert 'id="form-only-public"' in manage  # the organiser is told what visitors see
    event.refresh_from_db()
    assert event.status == TournamentStatus.REGISTRATION
    client.logout()
    page = client.get(url)
    assert page.status_code == 200 and "<form" in page.content.decode()
    assert reverse("tournament", kwargs={"slug": "hidden"}) + '"' not in page.content.decode()  # no dead link
    with smtp_server():
        client.post(url, FORM)
    assert Registration.objects.filter(tournament=event, email="petrov@example.org").exists()
    assert client.get(reverse("tournament", kwargs={"slug": "hidden"})).status_code == 404  # pages stay hidden


def test_the_wizard_summary_shows_self_registration_and_visibility_and_the_status_follows(client):
    club = ClubFactory(name="Зарик", slug="zarik")
    organiser = UserFactory(username="clubber")
    ClubRole.objects.create(club=club, user=organiser, role=ClubRoleKind.ORGANISER)
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    step3 = post(client, NEW, form_values(step2, name="Открытый", registration_open="on", step="options"))
    html = step3.content.decode()
    assert 'id="form-only-public"' in html
    post(client, NEW, form_values(step3, step="create"))
    t = Tournament.objects.get(name="Открытый")
    assert (t.registration_open, t.public, t.status) == (True, False, TournamentStatus.REGISTRATION)


def test_the_wizard_summary_says_self_registration_is_off_when_it_is(client):
    club = ClubFactory(name="Зарик", slug="zarik")
    organiser = UserFactory(username="clubber")
    ClubRole.objects.create(club=club, user=organiser, role=ClubRoleKind.ORGANISER)
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    step3 = post(client, NEW, form_values(step2, name="Закрытый", step="options"))
    html = step3.content.decode()
    assert 'id="form-only-public"' not in html
    shown = {}  # the summary, one list of facts per group of options
    for facts in lxml.html.fromstring(html).xpath("//dl[@class='facts']"):
        terms, values = facts.findall("dt"), facts.findall("dd")
        shown |= {t.text_content(): v.text_content() for t, v in zip(terms, values, strict=True)}
    for name in ("public", "registration_open"):
        label = str(Tournament._meta.get_field(name).verbose_name)
        assert shown[label[0].upper() + label[1:]] == "нет" or shown.get(label) == "нет", (name, shown)
    post(client, NEW, form_values(step3, step="create"))
    assert Tournament.objects.get(name="Закрытый").status == TournamentStatus.DRAFT
