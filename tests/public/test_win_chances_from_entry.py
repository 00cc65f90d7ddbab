"""Ratings that mean something from day one (issue 30).

A new event's pool has no ratings yet, so every table used to show 50%. The win
chance now falls back to the entry's own rating (imported or typed), says so in its
title, and shows nothing when nobody is rated or the chance is even.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clubs.models import PlayerRating
from clubs.ratings.fibs import win_probability
from tests.factories import MatchFactory, RoundFactory, TournamentFactory

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def row_of(body: str, table: int) -> str:
    return re.search(rf'<tr>\s*<td class="num">{table}</td>(.*?)</tr>', body, re.S).group(1)


def test_entry_ratings_give_the_chance_when_the_pool_has_none(client):
    t = TournamentFactory(slug="day-one", match_length=7)
    m = MatchFactory(round=RoundFactory(tournament=t, number=1), table=1,
                     entry_a__seed_rating=1850, entry_b__seed_rating=1500)  # fmt: skip
    body = client.get(reverse("public-pairings", kwargs={"slug": t.slug}), **EN).content.decode()
    row = row_of(body, 1)
    percent = round(win_probability(1850, 1500, 7) * 100)
    assert percent > 50
    assert re.search(rf'/player/{m.entry_a.pk}/"><bdi>[^<]*</bdi></a>[^<]*<a [^>]*>↗</a> <small class="chance" '
                     rf'title="[^"]*ratings given at entry[^"]*">{percent}%</small>', row)  # fmt: skip


def test_the_pool_rating_wins_over_the_entry_rating(client):
    t = TournamentFactory(slug="pool-first", match_length=7)
    m = MatchFactory(round=RoundFactory(tournament=t, number=1), table=1,
                     entry_a__seed_rating=1850, entry_b__seed_rating=1500)  # fmt: skip
    PlayerRating.objects.create(player=m.entry_a.player, pool="backgammon", rating=1400)
    PlayerRating.objects.create(player=m.entry_b.player, pool="backgammon", rating=1600)
    body = client.get(reverse("public-pairings", kwargs={"slug": t.slug}), **EN).content.decode()
    row = row_of(body, 1)
    percent = round(win_probability(1600, 1400, 7) * 100)
    assert re.search(rf'/player/{m.entry_b.pk}/"><bdi>[^<]*</bdi></a>[^<]*<a [^>]*>↗</a> <small class="chance" '
                     rf'title="[^"]*players’ ratings">{percent}%</small>', row)  # fmt: skip
    assert "ratings given at entry" not in row


@pytest.mark.parametrize("ratings", [(None, None), (1600, 1600)])
def test_no_meaningless_fifty_percent_on_the_sheets(client, ratings):
    t = TournamentFactory(slug="even", match_length=7)
    a, b = ratings
    MatchFactory(round=RoundFactory(tournament=t, number=1), table=1,
                 entry_a__seed_rating=a, entry_b__seed_rating=b)  # fmt: skip
    for name in ("public-pairings", "public-pairings-print"):
        body = client.get(reverse(name, kwargs={"slug": t.slug}), **EN).content.decode()
        assert 'class="chance"' not in body and "50%" not in body, name
