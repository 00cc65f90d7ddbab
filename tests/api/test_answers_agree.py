"""Issues 45 and 47: answers that leaked or disagreed.

Permission comes before validation (someone else's match is a 403 whatever the body or
version says); a draft round's match is a 409 to the officials who see it in the round;
a dispute link is given only to those who may read it; a read-only field in a PATCH is
refused naming it, never accepted and ignored.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory, OfficialFactory, UserFactory, swiss_event
from tournaments.access import private_links
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import AuditEntry, OfficialRole, Round, RoundStatus, TokenScope, Tournament
from tournaments.setup.forms import SetupOptionsForm

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    _token, key = issue_token(user, "t", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


def _post(client, url, body):
    return client.post(url, body, content_type="application/json")


@pytest.fixture
def event():
    tournament = swiss_event(4, rounds_done=0)
    rnd = Round.objects.get(tournament=tournament, status=RoundStatus.PUBLISHED)
    first, second = rnd.matches.order_by("table")
    return tournament, rnd, first, second


def test_a_player_acting_on_someone_elses_match_gets_403_before_the_version_or_the_body(event):
    _tournament, _rnd, first, second = event
    other = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(second.entry_a)}")
    url = f"/api/matches/{first.pk}/"
    stale = _post(other, url + "report/", {"final": [5, 1], "version": first.version + 7})
    assert stale.status_code == 403 and stale.json()["code"] == "workflow.forbidden"
    for action, body in (("report/", {"final": "five"}), ("confirm/", {}), ("dispute/", {"reason": 3})):
        assert _post(other, url + action, body).status_code == 403, action
    outsider = _client(UserFactory())
    assert _post(outsider, url + "settle/", {"kind": "nonsense"}).status_code == 403
    # the match's own player with a wrong version still learns it is stale
    own = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(first.entry_a)}")
    assert _post(own, url + "report/", {"final": [5, 1], "version": first.version + 7}).json()["code"] == "workflow.stale"


def test_a_draft_rounds_match_is_409_to_its_officials_and_404_to_everyone_else(event):
    tournament, rnd, first, _second = event
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.DRAFT)
    director = UserFactory()
    OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
    desk = _client(director)
    url = f"/api/matches/{first.pk}/"
    for method, path, body in (("get", "", None), ("post", "check/", {"final": [5, 1]}),
                               ("post", "report/", {"final": [5, 1], "version": first.version})):  # fmt: skip
        answer = desk.get(url) if method == "get" else _post(desk, url + path, body)
        assert answer.status_code == 409 and answer.json()["code"] == "workflow.draft_round", path
    assert Client().get(url).status_code == 404
    assert _client(UserFactory()).get(url).status_code == 404


def test_a_dispute_link_in_a_match_answers_200_to_whoever_is_given_it(event):
    tournament, _rnd, first, _second = event
    reporter = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(first.entry_a)}")
    opponent = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(first.entry_b)}")
    url = f"/api/matches/{first.pk}/"
    reported = _post(reporter, url + "report/", {"final": [5, 0], "version": first.version}).json()
    _post(opponent, url + "dispute/", {"result": reported["id"], "version": reported["match_version"], "reason": "5:4"})
    referee, director = UserFactory(), UserFactory()
    OfficialFactory(tournament=tournament, user=referee, role=OfficialRole.REFEREE)
    OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
    shown = {}
    for name, client in (("referee", _client(referee)), ("director", _client(director)), ("player", opponent)):
        link = client.get(url).json()["result_state"]["dispute"]
        shown[name] = link is not None
        if link is not None:
            assert client.get(link["href"]).status_code == 200, name
    assert shown == {"referee": False, "director": True, "player": True}


def test_a_read_only_field_in_a_patch_is_refused_naming_it_and_nothing_changes():
    club = ClubFactory()
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    desk = _client(director)
    assert _post(desk, "/api/tournaments/", {
        "club": club.slug, "name": "Fixed", "slug": "fixed", "starts_on": "2026-05-01", "system": "swiss",
        "rounds_planned": 3, "match_length": 5, "public": True,
    }).status_code == 201  # fmt: skip
    lines = AuditEntry.objects.count()
    refused = desk.patch("/api/tournaments/fixed/", {"club": ClubFactory().slug, "venue": "Hall 2"},
                         content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "api.read_only_fields" and list(body["errors"]) == ["club"]
    assert "Только для чтения" in body["errors"]["club"][0]
    assert Tournament.objects.get(slug="fixed").venue != "Hall 2" and AuditEntry.objects.count() == lines
    mixed = desk.patch("/api/tournaments/fixed/", {"club": "x", "venu": "Hall 2"}, content_type="application/json")
    assert mixed.json()["code"] == "api.unknown_fields" and set(mixed.json()["errors"]) == {"club", "venu"}
    assert desk.patch("/api/tournaments/fixed/", {"venue": "Hall 2"}, content_type="application/json").status_code == 200


def test_the_slug_of_an_event_that_has_started_is_fixed_on_the_api_and_the_settings_page(client, event):
    tournament, _rnd, _first, _second = event
    director = UserFactory()
    OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
    refused = _client(director).patch(f"/api/tournaments/{tournament.slug}/", {"slug": "renamed"},
                                      content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert refused.status_code == 400 and "напечатанные QR-коды" in refused.json()["errors"]["slug"][0]
    form = SetupOptionsForm({**SetupOptionsForm(instance=tournament).initial, "slug": "renamed"}, instance=tournament)
    assert not form.is_valid() and "slug" in form.errors
    assert Tournament.objects.filter(slug=tournament.slug).exists()
    assert _client(director).patch(f"/api/tournaments/{tournament.slug}/", {"venue": "Hall 3"},
                                   content_type="application/json").status_code == 200  # fmt: skip


@pytest.mark.parametrize(("language", "words"), [("ru", "строке 1, столбце 2"), ("en", "line 1, column 2")])
def test_a_body_that_is_not_json_says_where_in_the_callers_language_without_pythons_words(language, words):
    answer = Client().post("/api/entry-tokens/", "{bad", content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert answer.status_code == 400 and answer.json()["code"] == "api.invalid_json"
    assert words in answer.json()["detail"] and "Expecting" not in answer.json()["detail"]


def test_a_stranger_asking_for_a_bye_gets_403_whatever_the_body(event):
    tournament, _rnd, first, _second = event
    stranger = _client(UserFactory())
    for body in ({"entry": "x", "round": "y"}, {"entry": first.entry_a_id, "round": 2}):
        assert _post(stranger, f"/api/tournaments/{tournament.slug}/bye-requests/", body).status_code == 403
    player = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(first.entry_a)}")
    assert _post(player, f"/api/tournaments/{tournament.slug}/bye-requests/", {"entry": "x", "round": 2}).status_code == 400


def test_a_file_import_with_an_idempotency_key_is_answered_and_replayed_not_a_500(event):
    """Found by schemathesis once the header was declared: a multipart body read by an earlier
    middleware could not be fingerprinted (a 500)."""
    tournament, _rnd, _first, _second = event
    director = UserFactory()
    OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
    desk = _client(director)
    url = f"/api/tournaments/{tournament.slug}/entries/import/?dry_run=1"

    def send():
        csv = SimpleUploadedFile("list.csv", "last_name,first_name,category\nИванов,Иван,4\n".encode(), "text/csv")
        return desk.post(url, {"file": csv}, HTTP_IDEMPOTENCY_KEY="import-1")

    first = send()
    assert first.status_code == 200, first.content[:300]
    again = send()
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
