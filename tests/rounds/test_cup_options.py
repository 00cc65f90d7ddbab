"""A cup's options and match length as the organiser sets them (issue 43): options that make
two players meet twice are refused together, on the page and in the API; a cup plays the
event's match length unless its options give lengths per round."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import ClubRole, ClubRoleKind
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
)
from tests.setup.test_setup_pages import NEW, doc_of, field_errors, form_values, post
from tournaments.models import OfficialRole, Tournament
from tournaments.pairing.knockout import KnockoutEntrant as Entrant
from tournaments.pairing.knockout import KnockoutOptions, build_knockout
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db):
    club = ClubFactory(name="Зарик", slug="zarik")
    user = UserFactory(username="cup-organiser")
    ClubRole.objects.create(club=club, user=user, role=ClubRoleKind.ORGANISER)
    return user


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def create(api, **values):
    body = {"club": "zarik", "name": "Кубок", "starts_on": "2025-04-05", "system": "knockout", **values}
    return api.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")


def test_third_place_and_progressive_consolation_together_are_refused_naming_both():
    with pytest.raises(Exception) as refused:
        build_knockout([Entrant(i, draw_number=i) for i in range(1, 9)],
                       KnockoutOptions(third_place=True, progressive_consolation=True))  # fmt: skip
    [problem] = refused.value.problems
    assert problem.code == "pairing.knockout.exclusive"
    assert "match for third place" in problem.message("en") and "progressive consolation" in problem.message("en")
    assert "матч за третье место" in problem.message("ru")


def test_exclusive_cup_options_are_refused_at_set_up_on_the_page(client, organiser):
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    values = form_values(step2, name="Кубок", system="knockout", knockout__third_place="on",
                         knockout__progressive_consolation="on", step="options")  # fmt: skip
    response = post(client, NEW, values)
    assert response.status_code == 200
    said = field_errors(doc_of(response), "id_knockout__third_place")
    assert "прогрессивный утешительный турнир" in said and "матч за третье место" in said
    assert not Tournament.objects.exists()


def test_exclusive_cup_options_are_refused_at_set_up_in_the_api(api):
    response = create(api, knockout__third_place=True, knockout__progressive_consolation=True)
    assert response.status_code == 400
    [said] = response.json()["errors"]["knockout__third_place"]
    assert "match for third place" in said and "progressive consolation" in said
    assert not Tournament.objects.exists()


def test_a_cup_plays_the_events_match_length_unless_its_options_give_lengths(api, client, organiser):
    plain = create(api, match_length=7, seeding="rating")
    assert plain.status_code == 201, plain.json()
    t = Tournament.objects.get(slug=plain.json()["slug"])
    for i in range(1, 5):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - i)
    [r1] = pm.generate_next(t, user=organiser)
    assert {m.match_length for m in r1.matches.all()} == {7}
    # The same event changed to 9 points later still follows the event.
    assert api.patch(f"/api/tournaments/{t.slug}/", {"match_length": 9}, format="json").status_code == 200
    t.refresh_from_db()
    assert "match_lengths" not in t.pairing_options.get("knockout", {})
    by_round = create(api, name="Кубок 2", match_length=7, knockout__match_lengths="5, 7", knockout__final_length=9)
    assert Tournament.objects.get(slug=by_round.json()["slug"]).pairing_options["knockout"]["match_lengths"] == [5, 7]
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    step3 = post(client, NEW, form_values(step2, name="Кубок 3", system="knockout", match_length="9", step="options"))
    done = post(client, NEW, form_values(step3, step="create"))
    assert done.status_code == 302
    assert "match_lengths" not in Tournament.objects.get(name="Кубок 3").pairing_options.get("knockout", {})


def test_a_cup_drawn_before_the_exclusive_options_rule_still_shows_its_bracket(client):
    """A cup drawn with both options before they were refused together keeps its bracket page
    (the stored bracket is read again as it was drawn, not re-validated)."""
    t = TournamentFactory(slug="old-cup", system="knockout", rounds_planned=None, seeding="rating")
    for i in range(1, 9):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - i)
    org = UserFactory(username="old-cup-director")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    data = r1.explanation
    data["bracket"]["options"].update(third_place=True, progressive_consolation=True)
    r1.store_explanation(data)
    Tournament.objects.filter(pk=t.pk).update(
        pairing_options={"knockout": {"third_place": True, "progressive_consolation": True}}
    )
    page = client.get(reverse("public-bracket", kwargs={"slug": t.slug}))
    assert page.status_code == 200 and page.content.decode().count('<svg class="bracket"') == 3
