"""The REST API: released tournaments read-only, and the result check through the core."""

import pytest

from tournaments.models import Match, Tournament
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(shared_demo):
    """The demo loaded once for this module, not per test (tests/conftest.py: ``shared_demo``)."""


def test_lists_released_tournaments_only(client, demo):
    t = Tournament.objects.get(slug=SWISS_SLUG)  # saved, as the organiser's form does: the signals move its cache version on
    t.public = False
    t.save(update_fields=["public"])
    data = client.get("/api/tournaments/").json()
    assert [t["slug"] for t in data["results"]] == [BOOK_SLUG]
    assert client.get(f"/api/tournaments/{SWISS_SLUG}/").status_code == 404


def test_entries_and_rounds_of_the_book_tournament(client, demo):
    entries = client.get(f"/api/tournaments/{BOOK_SLUG}/entries/").json()["results"]
    assert [e["name"] for e in entries][:3] == ["Иванов", "Петров", "Сидоров"]
    rounds = client.get(f"/api/tournaments/{BOOK_SLUG}/rounds/").json()["results"]
    assert len(rounds) == 5 and all(len(r["matches"]) == 3 for r in rounds)


@pytest.mark.parametrize(
    ("payload", "ok", "code"),
    [
        ({"final": [5, 3]}, True, None),
        ({"final": [9, 4]}, False, "match.final_jump_impossible"),
        ({"final": [4, 3]}, False, "match.match_unfinished"),
    ],
)
def test_check_uses_the_match_rules_core(client, demo, payload, ok, code):
    match = Match.objects.filter(round__tournament__slug=BOOK_SLUG).first()
    response = client.post(
        f"/api/matches/{match.pk}/check/", payload, content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    verdict = response.json()
    assert verdict["ok"] is ok
    if code:
        assert code in [e["code"] for e in verdict["errors"]]


def test_check_refuses_malformed_input_with_a_400(client, demo):
    match = Match.objects.filter(round__tournament__slug=BOOK_SLUG).first()
    response = client.post(f"/api/matches/{match.pk}/check/", {"final": ["x"]}, content_type="application/json")
    assert response.status_code == 400
    assert client.post(f"/api/matches/{match.pk}/check/", {}, content_type="application/json").status_code == 400


def test_openapi_schema_is_served(client, db):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/matches/{id}/check/" in response.content


def _round3_match():
    return Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=3).order_by("table").first()


def test_player_reports_and_opponent_confirms_through_the_api(client, demo):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    match = _round3_match()
    a_user = users.get(player__entries=match.entry_a)
    b_user = users.get(player__entries=match.entry_b)
    client.force_login(a_user)
    report = client.post(
        f"/api/matches/{match.pk}/report/", {"final": [7, 3], "version": match.version},
        content_type="application/json",
    )
    assert report.status_code == 201, report.content
    body = report.json()
    assert body["state"] == "reported"
    # The reporter cannot confirm their own report.
    own = client.post(
        f"/api/matches/{match.pk}/confirm/", {"result": body["id"], "version": body["match_version"]},
        content_type="application/json",
    )
    assert own.status_code == 403
    client.force_login(b_user)
    confirm = client.post(
        f"/api/matches/{match.pk}/confirm/", {"result": body["id"], "version": body["match_version"]},
        content_type="application/json",
    )
    assert confirm.status_code == 200 and confirm.json()["state"] == "confirmed"
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.result_status) == (7, 3, "confirmed")


def test_api_refuses_stale_versions_and_impossible_scores(client, demo):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="referee"))
    match = _round3_match()
    bad = client.post(
        f"/api/matches/{match.pk}/report/", {"final": [12, 3], "version": match.version},
        content_type="application/json", HTTP_ACCEPT_LANGUAGE="en",
    )
    assert bad.status_code == 400 and bad.json()["errors"]["result"] and bad.json()["problems"]
    stale = client.post(
        f"/api/matches/{match.pk}/report/", {"final": [7, 3], "version": match.version + 5},
        content_type="application/json",
    )
    assert stale.status_code == 409 and stale["Content-Type"] == "application/problem+json"
    assert stale.json()["code"].startswith("workflow.stale") and "reason" not in stale.json()
    assert [p["code"] for p in stale.json()["problems"]] == [stale.json()["code"]]


def test_anonymous_cannot_report(client, demo):
    match = _round3_match()
    response = client.post(
        f"/api/matches/{match.pk}/report/", {"final": [7, 3], "version": 1}, content_type="application/json"
    )
    assert response.status_code in (401, 403)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_impossible_score_names_the_player_not_a_side_letter(client, demo, language):
    """9:4 in a 5-point match: the message says who would have needed more, by name."""
    match = Match.objects.filter(round__tournament__slug=BOOK_SLUG).first()
    response = client.post(
        f"/api/matches/{match.pk}/check/", {"final": [9, 4]}, content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    [error] = [e for e in response.json()["errors"] if e["code"] == "match.final_jump_impossible"]
    name = match.entry_a.player.display_name(language)
    assert name and name in error["message"], error["message"]
    assert not error["message"].startswith(("a ", "b "))
