"""Rounds over the API: the same pairing manager, permissions, refusals and audit as the organiser's pages."""

import pytest
from rest_framework.test import APIClient

from tests.factories import OfficialFactory, TournamentFactory, UserFactory, confirm_round, enter
from tournaments.api.http.tokens import issue
from tournaments.jobs import progress as jobs
from tournaments.models import AuditEntry, OfficialRole, Round, RoundStatus, TokenScope
from tournaments.rounds.tasks import pair_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    t = TournamentFactory(rounds_planned=3)
    enter(t, [{} for _ in range(8)])
    return t


def _client(tournament, role=OfficialRole.ORGANISER):
    user = UserFactory()
    if role:
        OfficialFactory(tournament=tournament, user=user, role=role)
    client = APIClient()
    client.force_login(user)
    return client


def test_organiser_generates_a_draft_that_only_officials_see(event):
    api = _client(event)
    answer = api.post(f"/api/tournaments/{event.slug}/generate/", {}, format="json")
    assert answer.status_code == 201, answer.content
    [rnd] = answer.json()["rounds"]
    assert rnd["status"] == "draft" and rnd["number"] == 1 and len(rnd["pairings"]) == 4
    first = rnd["pairings"][0]
    assert first["player_a"]["name"].startswith("Игроков") and first["player_b"]["name_latin"]
    assert api.get(f"/api/rounds/{rnd['id']}/").status_code == 200
    assert APIClient().get(f"/api/rounds/{rnd['id']}/").status_code == 404
    assert APIClient().get(f"/api/rounds/?tournament={event.slug}").json()["results"] == []


def test_absent_players_are_not_paired_and_bad_ids_are_field_errors(event):
    api = _client(event)
    absent = list(event.entries.order_by("draw_number").values_list("pk", flat=True)[:2])
    answer = api.post(f"/api/tournaments/{event.slug}/generate/", {"absent": absent}, format="json")
    assert answer.status_code == 201
    paired = {p["player_a"]["entry"] for p in answer.json()["rounds"][0]["pairings"]}
    paired |= {p["player_b"]["entry"] for p in answer.json()["rounds"][0]["pairings"]}
    assert not paired & set(absent) and len(paired) == 6
    Round.objects.all().delete()
    both = api.post(
        f"/api/tournaments/{event.slug}/generate/", {"absent": absent, "half_bye": absent}, format="json"
    )
    assert both.status_code == 400 and "non_field_errors" in both.json()["errors"]
    wrong = api.post(f"/api/tournaments/{event.slug}/generate/", {"absent": [999999]}, format="json")
    assert wrong.status_code == 400 and "absent" in wrong.json()["errors"]


def test_referees_and_strangers_cannot_generate(event):
    assert _client(event, OfficialRole.REFEREE).post(f"/api/tournaments/{event.slug}/generate/", {}).status_code == 403
    assert _client(event, None).post(f"/api/tournaments/{event.slug}/generate/", {}).status_code == 403
    assert APIClient().post(f"/api/tournaments/{event.slug}/generate/", {}).status_code in (401, 403)
    assert not Round.objects.exists()


def test_publish_close_and_refusals_with_codes_in_the_requested_language(event):
    api = _client(event)
    rnd = api.post(f"/api/tournaments/{event.slug}/generate/", {}, format="json").json()["rounds"][0]
    closing = api.post(f"/api/rounds/{rnd['id']}/close/", HTTP_ACCEPT_LANGUAGE="en")
    assert closing.status_code == 409 and closing.json()["code"] == "pairing.close_not_published"
    published = api.post(f"/api/rounds/{rnd['id']}/publish/")
    assert published.status_code == 200 and published.json()["status"] == "published"
    assert APIClient().get(f"/api/rounds/{rnd['id']}/").status_code == 200  # public now
    open_ = api.post(f"/api/rounds/{rnd['id']}/close/", HTTP_ACCEPT_LANGUAGE="ru")
    assert open_.status_code == 409 and "нельзя завершить" in open_.json()["detail"]
    no_reason = api.post(f"/api/rounds/{rnd['id']}/unpublish/", {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert no_reason.status_code == 409 and no_reason.json()["code"] == "pairing.unpublish_needs_reason"
    confirm_round(Round.objects.get(pk=rnd["id"]))
    closed = api.post(f"/api/rounds/{rnd['id']}/close/")
    assert closed.status_code == 200 and closed.json()["status"] == RoundStatus.FINISHED
    actions = set(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert {"round.publish", "round.close"} <= actions


def test_change_swaps_players_and_delete_throws_the_draft_away(event):
    api = _client(event)
    rnd = api.post(f"/api/tournaments/{event.slug}/generate/", {}, format="json").json()["rounds"][0]
    a = rnd["pairings"][0]["player_a"]["entry"]
    b = rnd["pairings"][1]["player_a"]["entry"]
    changed = api.post(
        f"/api/rounds/{rnd['id']}/change/", {"action": "swap", "player_x": a, "player_y": b}, format="json"
    )
    assert changed.status_code == 200, changed.content
    tables = {p["player_a"]["entry"]: p["table"] for p in changed.json()["pairings"]}
    tables |= {p["player_b"]["entry"]: p["table"] for p in changed.json()["pairings"]}
    assert tables[a] == 2 and tables[b] == 1
    same = api.post(f"/api/rounds/{rnd['id']}/change/", {"action": "swap", "player_x": a, "player_y": a}, format="json")
    assert same.status_code == 400
    assert api.delete(f"/api/rounds/{rnd['id']}/").status_code == 204
    assert not Round.objects.exists()
    assert AuditEntry.objects.filter(tournament=event, action="round.delete_draft").exists()


def test_a_background_pairing_is_polled_over_the_api_with_a_token(event):
    organiser = OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user
    job = jobs.start(event.slug)
    pair_round.delay(event.pk, None, organiser.pk, job=job).get(timeout=60)
    _token, key = issue(organiser, "poller", TokenScope.READ)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    state = api.get(f"/api/tournaments/{event.slug}/pairing-jobs/{job}/")
    assert state.status_code == 200, state.content
    assert state.json()["state"] == "SUCCESS"
    [rnd] = state.json()["rounds"]
    assert api.get(f"/api/rounds/{rnd}/").json()["number"] == 1
    assert api.get(f"/api/tournaments/{event.slug}/pairing-jobs/no-such-job/").status_code == 404
    assert _client(event, role=None).get(f"/api/tournaments/{event.slug}/pairing-jobs/{job}/").status_code == 403
