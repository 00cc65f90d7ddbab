"""Issue 28: a write answers where the resource is (``Location``) and its current ``ETag``."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import TokenScope

pytestmark = pytest.mark.django_db


@pytest.fixture
def http():
    club = ClubFactory(slug="zarik")
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    _token, key = issue_token(director, "written", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def test_a_created_tournament_answers_its_location_and_the_etag_its_get_answers(http):
    created = http.post("/api/tournaments/", {"club": "zarik", "name": "Written", "slug": "written",
                                              "starts_on": "2026-05-01"}, content_type="application/json")
    assert created.status_code == 201 and created["Location"] == "/api/tournaments/written/"
    read = http.get(created["Location"])
    assert created["ETag"] == read["ETag"]
    changed = http.patch("/api/tournaments/written/", {"venue": "Hall 2"}, content_type="application/json",
                         HTTP_IF_MATCH=created["ETag"])
    assert changed.status_code == 200 and changed["ETag"] == http.get("/api/tournaments/written/")["ETag"]
    stale = http.patch("/api/tournaments/written/", {"venue": "Hall 3"}, content_type="application/json",
                       HTTP_IF_MATCH=created["ETag"])
    assert stale.status_code == 412  # the tag from the creation is no longer current


def test_a_created_section_answers_its_nested_location(http):
    http.post("/api/tournaments/", {"club": "zarik", "name": "Sections", "slug": "sections",
                                    "starts_on": "2026-05-01"}, content_type="application/json")
    created = http.post("/api/tournaments/sections/sections/", {"name": "Высшая", "min_category": 7, "max_category": 9,
                                                                    "cube": True, "match_length": 11, "order": 1, "group": "higher"},
                        content_type="application/json")
    assert created.status_code == 201, created.json()["errors"]
    assert created["Location"] == f"/api/tournaments/sections/sections/{created.json()['id']}/"
    assert created["ETag"] == http.get(created["Location"])["ETag"]


def test_the_etag_a_write_answers_is_not_charged_to_the_clients_rate(http, settings, fresh_cache):
    """The server reads the resource for the tag itself: two requests of a client are two, not four."""
    settings.ZARIK_API_THROTTLE_RATES = {"token": "2/min", "user": "100/min", "anon": "100/min"}
    created = http.post("/api/tournaments/", {"club": "zarik", "name": "Rated", "slug": "rated",
                                              "starts_on": "2026-05-01"}, content_type="application/json")
    assert created.status_code == 201 and created["ETag"]
    assert http.get(created["Location"]).status_code == 200
    assert http.get(created["Location"]).status_code == 429  # the third is over the rate


def test_the_schemas_section_example_creates_a_section_as_written(http):
    """The example body has no ``order`` (the schema does not require it): the section goes first."""
    http.post("/api/tournaments/", {"club": "zarik", "name": "Example", "slug": "example",
                                    "starts_on": "2026-05-01"}, content_type="application/json")
    example = {"name": "Высшая", "group": "higher", "min_category": 7, "max_category": 9, "cube": True, "match_length": 11}
    created = http.post("/api/tournaments/example/sections/", example, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["order"] == 0
