"""A restore keeps the club: the tournament's club and its players' memberships, or says what it could not link.

Before issue 29 a restored tournament had no club and its new players no club
(the Excel's club column went empty) with no word said.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Membership, Player
from scoring.archive import backup as archive
from tests.conftest import FAST_HASHERS
from tournaments.models import Tournament
from zarik.management.demo import SWISS_SLUG, load_demo

User = get_user_model()


@pytest.fixture
def dumped(db, settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    load_demo()
    return json.loads(json.dumps(archive.dump(Tournament.objects.get(slug=SWISS_SLUG)), cls=archive.Encoder))


def _as_strangers(data: dict) -> dict:
    """The archive's players renamed and without accounts: the restore must create them."""
    for row in data["players"]:
        row["last_name"] += "-restored"
        row["last_name_latin"] = (row["last_name_latin"] or "") + "-restored"
        row["user_id"] = None
    return data


def test_restored_players_get_their_club_memberships_back(dumped):
    club = Tournament.objects.get(slug=SWISS_SLUG).club
    members = sum(1 for row in dumped["players"] if any(m["club"] == club.slug for m in row["memberships"]))
    assert members, "the demo's players are members of its club"

    done = archive.load(_as_strangers(dumped), slug="swiss-members")

    assert done.tournament.club == club and done.warnings == []
    created = Player.objects.filter(last_name__endswith="-restored")
    assert created.count() == done.players_created
    assert Membership.objects.filter(player__in=created, club=club, ended_on=None).count() == members


def test_a_club_not_on_this_site_is_said_plainly(dumped):
    data = _as_strangers(dumped)
    data["clubs"] = {k: "gone-club" for k in data["clubs"]}
    for row in data["players"]:
        for membership in row["memberships"]:
            membership["club"] = "gone-club"

    done = archive.load(data, slug="swiss-clubless")

    assert done.tournament.club is None
    assert [w.code for w in done.warnings] == ["archive.club_missing", "archive.members_missing"]
    assert "gone-club" in done.warnings[0].message("en") and "нет" in done.warnings[0].message("ru")


def test_the_restore_page_shows_what_could_not_be_linked(dumped, client):
    data = _as_strangers(dumped)
    for row in data["players"]:
        for membership in row["memberships"]:
            membership["club"] = "gone-club"
    club = Tournament.objects.get(slug=SWISS_SLUG).club
    client.force_login(User.objects.get(username="organiser"))
    client.cookies["django_language"] = "ru"

    page = client.post(
        reverse("organise-restore", kwargs={"club_slug": club.slug}),
        {"slug": "swiss-warned", "archive": SimpleUploadedFile("a.json", json.dumps(data).encode())},
        follow=True,
    )

    assert page.status_code == 200
    assert "этих клубов на сайте нет: gone-club" in page.content.decode()
