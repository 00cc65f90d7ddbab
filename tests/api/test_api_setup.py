"""The event's setup over HTTP: the same forms, services, rights and refusals as the organiser's pages."""

import pytest
from rest_framework.test import APIClient

from clubs.models import ClubRole, ClubRoleKind
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, Entry, Tournament
from tournaments.setup.presets import BY_KEY

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(slug="zarik")


@pytest.fixture
def api(club):
    user = UserFactory(username="clubber")
    ClubRole.objects.create(club=club, user=user, role=ClubRoleKind.ORGANISER)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _create(api, **values):
    body = {"club": "zarik", "name": "Spring Swiss", "starts_on": "2025-04-05", **values}
    return api.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")


def test_a_club_organiser_creates_changes_and_deletes_an_empty_tournament(api):
    response = _create(api, rounds_planned=5, tiebreaks=["buchholz"])
    assert response.status_code == 201, response.json()
    slug = response.json()["slug"]
    assert Tournament.objects.get(slug=slug).officials.filter(user__username="clubber").exists()
    changed = api.patch(f"/api/tournaments/{slug}/", {"venue": "Hall 2"}, format="json")
    assert changed.status_code == 200 and changed.json()["venue"] == "Hall 2"
    assert api.delete(f"/api/tournaments/{slug}/").status_code == 204
    assert not Tournament.objects.filter(slug=slug).exists()


def test_validation_errors_keep_the_field_names(api):
    response = _create(api, match_length=-3)
    assert response.status_code == 400
    assert "match_length" in response.json()["errors"]


def test_strangers_cannot_create_or_change(club):
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert _create(stranger).status_code == 403
    tournament = TournamentFactory(public=True)
    assert stranger.patch(f"/api/tournaments/{tournament.slug}/", {"venue": "x"}, format="json").status_code == 403
    hidden = TournamentFactory(public=False)
    assert stranger.patch(f"/api/tournaments/{hidden.slug}/", {"venue": "x"}, format="json").status_code == 404


def test_a_tournament_with_entries_is_not_deleted(api):
    slug = _create(api).json()["slug"]
    EntryFactory(tournament=Tournament.objects.get(slug=slug))
    response = api.delete(f"/api/tournaments/{slug}/")
    assert response.status_code == 409 and response.json()["code"] == "setup.not_empty"


def test_entries_one_many_withdraw_and_the_audit(api):
    slug = _create(api).json()["slug"]
    stored = PlayerFactory()
    one = api.post(f"/api/tournaments/{slug}/entries/", {"player": stored.pk}, format="json")
    assert one.status_code == 201, one.json()
    many = api.post(
        f"/api/tournaments/{slug}/entries/",
        [{"last_name": "Петров", "first_name": "Иван", "category": 5},
         {"last_name": "Сидоров", "first_name": "Пётр", "category": 3}],
        format="json",
    )
    assert many.status_code == 201, many.json()
    assert Entry.objects.filter(tournament__slug=slug).count() == 3
    bad = api.post(f"/api/tournaments/{slug}/entries/", [{"first_name": "x"}], format="json")
    assert bad.status_code == 400 and "0.last_name" in bad.json()["errors"]  # the item and its field
    entry_id = one.json()["id"]
    out = api.post(f"/api/tournaments/{slug}/entries/{entry_id}/withdraw/", {"reason": "ill"}, format="json")
    assert out.status_code == 200 and out.json()["status"] == "withdrawn"
    assert AuditEntry.objects.filter(action="entry.add").count() == 3


def test_import_dry_run_writes_nothing(api):
    slug = _create(api).json()["slug"]
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = "last_name,first_name,category\nИванов,Иван,4\n".encode()
    upload = SimpleUploadedFile("list.csv", data, content_type="text/csv")
    response = api.post(f"/api/tournaments/{slug}/entries/import/?dry_run=1", {"file": upload}, format="multipart")
    assert response.status_code == 200, response.json()
    assert set(response.json()) == {"created", "existing", "errors", "undecided"}
    assert not Entry.objects.filter(tournament__slug=slug).exists()


def test_officials_appoint_and_remove(api):
    slug = _create(api).json()["slug"]
    UserFactory(username="ref", email="ref@example.org")
    made = api.post(f"/api/tournaments/{slug}/officials/", {"user": "ref@example.org", "role": "referee"}, format="json")
    assert made.status_code == 201, made.json()
    unknown = api.post(f"/api/tournaments/{slug}/officials/", {"user": "nobody", "role": "referee"}, format="json")
    assert unknown.status_code == 400 and "user" in unknown.json()["errors"]
    assert api.delete(f"/api/tournaments/{slug}/officials/{made.json()['id']}/").status_code == 204


def test_the_open_draw_commit_perform_and_record(api):
    slug = _create(api).json()["slug"]
    tournament = Tournament.objects.get(slug=slug)
    for _ in range(4):
        EntryFactory(tournament=tournament, draw_number=None)
    assert api.post(f"/api/tournaments/{slug}/draw/perform/").status_code == 409
    assert api.post(f"/api/tournaments/{slug}/draw/commit/").status_code == 200
    done = api.post(f"/api/tournaments/{slug}/draw/perform/")
    assert done.status_code == 200 and len(done.json()["numbers"]) == 4 and done.json()["verified"]
    assert APIClient().get(f"/api/tournaments/{slug}/draw/").status_code in (200, 404)


def test_matches_say_their_tournament_and_name_players():
    first, second = TournamentFactory(public=True), TournamentFactory(public=True)
    for t in (first, second):
        rnd = RoundFactory(tournament=t, number=4, status="published")
        MatchFactory(round=rnd)
    data = APIClient().get(f"/api/matches/?tournament={first.slug}&round=4").json()["results"]
    assert len(data) == 1 and data[0]["tournament"] == first.slug and data[0]["round"] == 4
    assert data[0]["player_a"]["name"]
    # the round's number as the pages show it, and beside it the id its own address takes
    rnd = APIClient().get(f"/api/rounds/{data[0]['round_id']}/").json()
    assert rnd["number"] == 4 and rnd["tournament"] == first.slug
    nested = APIClient().get(f"/api/tournaments/{first.slug}/matches/").json()["results"]
    assert [m["id"] for m in nested] == [data[0]["id"]]


def test_the_openapi_schema_builds_without_warnings():
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


def test_import_creates_a_named_club_only_when_asked(api):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from clubs.models import Club

    slug = _create(api).json()["slug"]
    data = "last_name,first_name,club\nИванов,Иван,Клуб Новый\n".encode()
    url = f"/api/tournaments/{slug}/entries/import/"
    waits = api.post(url, {"file": SimpleUploadedFile("a.csv", data, content_type="text/csv")}, format="multipart")
    assert waits.status_code == 200 and waits.json()["created"] == 0
    assert "Клуб Новый" in waits.json()["undecided"][0]["message"] and not Club.objects.filter(name="Клуб Новый").exists()
    done = api.post(url, {"file": SimpleUploadedFile("a.csv", data, content_type="text/csv"), "new_club": "Клуб Новый"},
                    format="multipart")  # fmt: skip
    assert done.status_code == 200 and done.json()["created"] == 1
    assert Entry.objects.get(tournament__slug=slug).player.memberships.get().club.name == "Клуб Новый"


def test_a_preset_makes_the_same_sections_through_the_api_as_in_the_wizard(api, club):
    """Issue 35: ``preset: "category_championship"`` without ``sections`` creates the preset's
    sections (one code path with the wizard: ``Preset.section_values``), each playing its
    category's match length and cube rule from round 1."""
    made = _create(api, preset="category_championship", slug="cats")
    assert made.status_code == 201, made.json()
    t = Tournament.objects.get(slug="cats")
    sections = list(t.sections.order_by("order"))
    expected = BY_KEY["category_championship"].section_values("en")
    assert [(s.name, s.min_category, s.max_category, s.rule_category) for s in sections] == [
        (e["name"], e["min_category"], e["max_category"], e["rule_category"]) for e in expected
    ]
    assert [(s.rule(1).length, s.rule(1).cube) for s in sections] == [
        (5, False), (7, True), (9, True), (11, True), (11, True), (13, True)
    ]
    # The organiser may still name their own sections (or none: an empty list).
    own = _create(api, preset="category_championship", slug="cats-own", sections=[])
    assert own.status_code == 201 and not Tournament.objects.get(slug="cats-own").sections.exists()


def test_an_unknown_tiebreak_key_is_refused_naming_it_and_the_order_is_kept(api):
    """``PATCH {"tiebreaks": ["nonsense"]}`` answered 200 and reset the order to ``[]``
    mid-event (issue 43): now a 400 naming the key, and the stored order is unchanged."""
    slug = _create(api, tiebreaks=["wins", "buchholz"]).json()["slug"]
    response = api.patch(f"/api/tournaments/{slug}/", {"tiebreaks": ["nonsense"]}, format="json",
                         HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert response.status_code == 400, response.json()
    assert "nonsense" in str(response.json())
    assert Tournament.objects.get(slug=slug).tiebreaks == ["wins", "buchholz"]
    russian = api.patch(f"/api/tournaments/{slug}/", {"tiebreaks": ["buchholz", "nonsense"]}, format="json",
                        HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert russian.status_code == 400 and "Неизвестный" in str(russian.json())


def test_a_tiebreak_list_without_the_main_score_is_stored_with_the_score_first(api):
    """The schema's example ``["buchholz"]`` is stored (and shown) as the order that ranks:
    the Swiss's main score, match wins, then Buchholz."""
    response = _create(api, tiebreaks=["buchholz"])
    assert response.status_code == 201, response.json()
    assert response.json()["tiebreaks"] == ["wins", "buchholz"]
    slug = response.json()["slug"]
    changed = api.patch(f"/api/tournaments/{slug}/", {"tiebreaks": ["buchholz", "points"]}, format="json")
    assert changed.status_code == 200 and changed.json()["tiebreaks"] == ["wins", "buchholz", "points"]
