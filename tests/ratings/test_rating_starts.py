"""Where a player new to a pool starts (issue 49): the rating at entry, else the player's, else 1500.

Regressions: an imported 1650 player used to start the pool at 1500 (one win: 1522.36,
``expected 0.5``), and the pairings showed no expected win % before or after round 1.
The start is a pool rule, so a full recompute reproduces it; the list shows it and its source.
"""

from __future__ import annotations

import io
import re
from math import sqrt

import pytest
from django.core.cache import cache
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import PlayerRating
from clubs.ratings.fibs import rating_change, win_probability
from tests.factories import MatchFactory, PlayerFactory, UserFactory
from tests.ratings.test_ratings_service import event, play
from tournaments.models import Entry, RatingChange
from tournaments.ratings import service as ratings_service

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def director():
    return UserFactory()


def _seed(entry: Entry, rating: float | None) -> Entry:
    Entry.objects.filter(pk=entry.pk).update(seed_rating=rating)
    entry.refresh_from_db()
    return entry


def _starts(pool="backgammon") -> dict[int, tuple[float, str, float]]:
    return {r.player_id: (r.start_rating, r.start_source, r.rating) for r in PlayerRating.objects.filter(pool=pool)}


def test_an_imported_entry_rating_is_the_start_not_1500(director):
    imported, newcomer = PlayerFactory(rating=1650), PlayerFactory()
    _, (a, b), (r1, *_) = event(director, [imported, newcomer])
    _seed(a, 1650)
    _seed(b, None)
    match = play(director, r1, a, b, (5, 2))
    mine = RatingChange.objects.get(match=match, player=imported)
    e = win_probability(1650, 1500, 5)
    assert mine.rating_before == 1650 and mine.expected == pytest.approx(e)
    assert mine.rating_after == pytest.approx(1650 + 4 * 5 * sqrt(5) * (1 - e))  # K = 5: experience 0
    assert round(mine.rating_after, 2) != 1522.36  # the old 1500 start's number
    starts = _starts()
    assert starts[imported.pk][:2] == (1650, "entry") and starts[newcomer.pk][:2] == (1500, "new")


def test_the_players_imported_or_declared_rating_starts_him_when_the_entry_has_none(director):
    declared, other = PlayerFactory(rating=1720), PlayerFactory(rating=1500)
    _, (a, b), (r1, *_) = event(director, [declared, other])
    _seed(a, None)
    _seed(b, 1500)  # a stated 1500 is the newcomer's number: "new", whatever states it
    play(director, r1, a, b, (1, 5))
    starts = _starts()
    assert starts[declared.pk][:2] == (1720, "player") and starts[other.pk][:2] == (1500, "new")
    assert RatingChange.objects.get(player=declared).rating_before == 1720


def test_a_full_recompute_reproduces_every_start_and_rating(director):
    p = PlayerFactory.create_batch(4)
    _, e, (r1, r2, _) = event(director, p)
    for entry, seed in zip(e, (1650, None, 1580.5, 1400), strict=True):
        _seed(entry, seed)
    play(director, r1, e[0], e[1], (5, 3))
    play(director, r1, e[2], e[3], (2, 5))
    play(director, r2, e[0], e[3], (5, 4))
    incremental = _starts()
    ratings_service.recompute("backgammon", 1)
    again = _starts()
    assert set(again) == set(incremental)
    for pid, (start, source, rating) in incremental.items():
        assert again[pid][:2] == (start, source) and again[pid][2] == pytest.approx(rating, abs=1e-9)
    assert again[p[2].pk][:2] == (1580.5, "entry") and again[p[1].pk][:2] == (1500, "new")


def test_the_start_is_the_entry_of_the_first_match_played_even_when_rated_later(director):
    """A past event rated after a later one: the player's start moves to the past event's entry."""
    hero, rival = PlayerFactory(), PlayerFactory()
    _, (a2, b2), (later, *_) = event(director, [hero, rival], starts_on="2026-05-01")
    _seed(a2, 1800)
    play(director, later, a2, b2, (5, 0))
    assert _starts()[hero.pk][:2] == (1800, "entry")
    _, (a1, b1), (past, *_) = event(director, [hero, rival], starts_on="2026-01-10")
    _seed(a1, 1610)
    play(director, past, a1, b1, (5, 1))
    ratings_service.recompute("backgammon", 1)  # what the late result's scheduled recompute does
    first = RatingChange.objects.filter(player=hero).order_by("sequence").first()
    assert first.match.round.tournament.starts_on.isoformat() == "2026-01-10"
    assert first.rating_before == 1610 and _starts()[hero.pk][:2] == (1610, "entry")


def test_a_correction_replays_from_the_match_and_keeps_the_starts(director):
    p = PlayerFactory.create_batch(3)
    _, e, (r1, r2, _) = event(director, p)
    _seed(e[0], 1700)
    _seed(e[1], 1450)
    play(director, r1, e[0], e[1], (5, 2))
    play(director, r2, e[0], e[2], (5, 3))
    later = RatingChange.objects.filter(pool="backgammon").order_by("-sequence").first().sequence
    ratings_service.recompute("backgammon", later)  # a partial replay of the last match only
    starts = _starts()
    assert starts[p[0].pk][:2] == (1700, "entry") and starts[p[1].pk][:2] == (1450, "entry")
    assert starts[p[2].pk][:2] == (1500, "new")


def test_the_rating_list_page_excel_and_api_show_each_start_and_its_source(director, client):
    imported, declared, newcomer = PlayerFactory(rating=1650), PlayerFactory(rating=1720), PlayerFactory()
    _, (a, b, c), (r1, r2, _) = event(director, [imported, declared, newcomer])
    _seed(a, 1650)
    _seed(b, None)
    _seed(c, None)
    play(director, r1, a, b, (5, 2))
    play(director, r2, a, c, (5, 2))
    page = client.get(reverse("rating-list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = page[page.index(imported.full_name):page.index("</tr>", page.index(imported.full_name))]
    assert '<span class="num">1650.00</span> <small>rating at entry</small>' in row
    assert "prov." in row  # 2 rated matches: provisional until 30
    row = page[page.index(declared.full_name):page.index("</tr>", page.index(declared.full_name))]
    assert "1720.00</span> <small>imported or declared rating</small>" in row
    russian = client.get(reverse("rating-list"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "рейтинг при регистрации" in russian and "новый игрок, 1500" in russian
    sheet = load_workbook(io.BytesIO(client.get(reverse("rating-export"), HTTP_ACCEPT_LANGUAGE="en").content)).active
    header = [cell.value for cell in sheet[3]]
    rows = {r[1]: dict(zip(header, r, strict=True)) for r in sheet.iter_rows(min_row=4, values_only=True)}
    mine = rows[imported.display_name("en")]
    assert (mine["Start"], mine["Start from"]) == (1650, "rating at entry")
    assert rows[newcomer.display_name("en")]["Start from"] == "new player, 1500"
    api = {r["player"]: r for r in client.get("/api/ratings/?pool=backgammon").json()["results"]}
    assert (api[declared.pk]["start_rating"], api[declared.pk]["start_source"]) == (1720, "player")
    assert api[imported.pk]["provisional"] is True


def _chance(client, slug: str, round_number: int) -> str:
    cache.clear()
    body = client.get(reverse("public-pairings", kwargs={"slug": slug}), {"round": round_number}).content.decode()
    found = re.findall(r'<small class="chance"[^>]*>(\d+)%</small>', body)
    return found[0] if found else ""


def test_pairings_show_the_expected_win_percent_from_the_start_before_and_after_round_one(director, client):
    imported, newcomer = PlayerFactory(rating=1650), PlayerFactory()
    t, (a, b), (r1, *_) = event(director, [imported, newcomer])
    _seed(a, 1650)
    _seed(b, None)
    expected = round(win_probability(1650, 1500, t.match_length) * 100)
    MatchFactory(round=r1, table=1, entry_a=a, entry_b=b)
    assert _chance(client, t.slug, 1) == str(expected)  # round 1, nobody rated yet in the pool
    r1.matches.all().delete()
    play(director, r1, a, b, (5, 2), table=1)
    assert _chance(client, t.slug, 1) == str(expected)  # the stored expected score of the rated match


def test_the_expected_score_uses_the_opponents_start_too(director):
    strong, weak = PlayerFactory(), PlayerFactory()
    _, (a, b), (r1, *_) = event(director, [strong, weak])
    _seed(a, 1800)
    _seed(b, 1400)
    match = play(director, r1, b, a, (5, 3))  # the upset
    change = RatingChange.objects.get(match=match, player=weak)
    assert change.expected == pytest.approx(win_probability(1400, 1800, 5))
    assert change.rating_after == pytest.approx(1400 + rating_change(1400, 1800, 0, 5, 1.0))
