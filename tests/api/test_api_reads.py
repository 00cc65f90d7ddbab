"""Standings, crosstable, ratings, exports and disputes over the API."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.models import Match
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(shared_demo):
    """The demo loaded once for this module, not per test (tests/conftest.py: ``shared_demo``)."""


def test_standings_name_players_and_give_each_tiebreak_key_names_and_value(demo):
    data = APIClient().get(f"/api/tournaments/{SWISS_SLUG}/standings/").json()
    section = data["sections"][0]
    metric = section["metrics"][0]
    assert metric["key"] and metric["name_ru"] and metric["name_en"]
    row = section["rows"][0]
    assert row["place"] == "1" and row["name"] and row["entry"]
    assert [v["key"] for v in row["values"]] == [m["key"] for m in section["metrics"]]


def test_crosstable_of_the_book_event(demo):
    data = APIClient().get(f"/api/tournaments/{BOOK_SLUG}/crosstable/").json()
    rows = data["sections"][0]["rows"]
    assert len(rows) == 6 and all(len(r["cells"]) == 5 for r in rows)


def test_unreleased_tournament_has_no_standings(demo):
    from tournaments.models import Tournament

    t = Tournament.objects.get(slug=SWISS_SLUG)  # saved, as the organiser's form does: the signals move its cache version on
    t.public = False
    t.save(update_fields=["public"])
    assert APIClient().get(f"/api/tournaments/{SWISS_SLUG}/standings/").status_code == 404


def test_rating_list_filters_are_checked(demo):
    api = APIClient()
    assert api.get("/api/ratings/").status_code == 200
    assert api.get("/api/ratings/?pool=chess").status_code == 400
    assert api.get("/api/players/999999/rating-history/").status_code == 404


def test_export_job_runs_and_the_workbook_downloads(demo):
    api = APIClient()
    started = api.post(f"/api/tournaments/{BOOK_SLUG}/exports/", {"lang": "en"}, format="json")
    assert started.status_code == 202, started.content
    job = started.json()["job"]
    status = api.get(f"/api/tournaments/{BOOK_SLUG}/exports/{job}/").json()
    assert status["state"] == "SUCCESS" and status["percent"] == 100
    download = api.get(f"/api/tournaments/{BOOK_SLUG}/exports/{job}/download/")
    assert download.status_code == 200 and b"".join(download.streaming_content)[:2] == b"PK"


def test_dispute_ruling_appeal_and_jury_decision(demo):
    users = get_user_model().objects
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=3).order_by("table").first()
    a, b = APIClient(), APIClient()
    a.force_login(users.get(player__entries=match.entry_a))
    b.force_login(users.get(player__entries=match.entry_b))
    report = a.post(f"/api/matches/{match.pk}/report/", {"final": [7, 3], "version": match.version}, format="json").json()
    assert set(report["players"]) == {"a", "b"}
    opened = b.post(
        f"/api/matches/{match.pk}/dispute/",
        {"result": report["id"], "version": report["match_version"], "reason": "It was 3:7"},
        format="json",
    )
    assert opened.status_code == 201, opened.content
    dispute = opened.json()
    director, jury = APIClient(), APIClient()
    director.force_login(users.get(username="organiser"))
    jury.force_login(users.get(username="jury"))
    assert a.post(f"/api/disputes/{dispute['id']}/rule/", {"outcome": "uphold", "ruling": "x", "version": dispute["match_version"]}, format="json").status_code == 403
    ruled = director.post(
        f"/api/disputes/{dispute['id']}/rule/",
        {"outcome": "uphold", "ruling": "The sheet says 7:3", "version": dispute["match_version"]},
        format="json",
    )
    assert ruled.status_code == 200 and ruled.json()["state"] == "ruled"
    appealed = b.post(f"/api/disputes/{dispute['id']}/appeal/", {"reason": "Witnesses"}, format="json")
    assert appealed.status_code == 200 and appealed.json()["state"] == "appealed"
    final = jury.post(
        f"/api/disputes/{dispute['id']}/decide/",
        {"outcome": "sustain", "decision": "Ruling stands", "version": appealed.json()["match_version"]},
        format="json",
    )
    assert final.status_code == 200 and final.json()["state"] == "final"
