"""Player profiles, head-to-head, rating history and the expected win % on pairings (issue 13)."""

from __future__ import annotations

import datetime as dt
import re
from math import sqrt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import CategoryChange, Membership, PlayerRating
from clubs.ratings.fibs import win_probability
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    swiss_event,
)
from tournaments.models import Match, RatingChange

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def profile_url(player) -> str:
    return reverse("player-profile", kwargs={"player_id": player.pk})


def play(tournament, number, a, b, score_a, score_b, *, table=1, **match):
    """A confirmed match of round ``number`` between two players' entries (created if needed)."""
    rnd, _ = tournament.rounds.get_or_create(number=number, defaults={"status": "finished"})
    entries = []
    for player in (a, b):
        entry = tournament.entries.filter(player=player).first() or EntryFactory(
            tournament=tournament, player=player
        )
        entries.append(entry)
    winner = "a" if score_a > score_b else "b" if score_b > score_a else ""
    return MatchFactory(
        round=rnd, table=table, entry_a=entries[0], entry_b=entries[1], score_a=score_a,
        score_b=score_b, winner=winner, result_status="confirmed", **match,
    )


def rate(match, player, opponent, seq, before, after, *, expected=0.5, on=dt.date(2026, 3, 1)):
    mine = "a" if match.entry_a.player_id == player.pk else "b"
    sf, sa = (match.score_a, match.score_b) if mine == "a" else (match.score_b, match.score_a)
    return RatingChange.objects.create(
        match=match, player=player, opponent=opponent, pool="backgammon", sequence=seq,
        played_on=on, length=5, score_for=sf, score_against=sa,
        result=1 if sf > sa else 0, expected=expected, rating_before=before,
        rating_after=after, experience_before=seq * 5,
    )


@pytest.fixture
def rivals():
    """Иванов and Петров: 3 confirmed matches in two events (Иванов won 2), one pending, one hidden."""
    ivanov = PlayerFactory(last_name="Иванов", first_name="Иван", last_name_latin="Ivanov",
                           first_name_latin="Ivan", category=5)
    petrov = PlayerFactory(last_name="Петров", first_name="Пётр", last_name_latin="Petrov",
                           first_name_latin="Petr")
    spring = TournamentFactory(name="Весенний кубок", starts_on=dt.date(2026, 4, 1))
    winter = TournamentFactory(name="Зимний турнир", starts_on=dt.date(2026, 1, 10))
    hidden = TournamentFactory(name="Черновик", bare=True)
    play(winter, 1, ivanov, petrov, 5, 3)
    play(winter, 2, petrov, ivanov, 5, 1)
    play(spring, 1, ivanov, petrov, 5, 4)
    pending = play(spring, 2, petrov, ivanov, 0, 0)
    Match.objects.filter(pk=pending.pk).update(result_status="pending", winner="")
    spring.rounds.filter(number=2).update(status="published")
    play(hidden, 1, ivanov, petrov, 0, 5)
    return ivanov, petrov, spring, winter


def test_profile_shows_names_clubs_ratings_events_matches_h2h_and_category_changes(client, rivals):
    ivanov, petrov, spring, winter = rivals
    club = ClubFactory(name="Зарик")
    Membership.objects.create(player=ivanov, club=club, started_on=dt.date(2020, 5, 1))
    PlayerRating.objects.create(player=ivanov, pool="backgammon", rating=1623.456, experience=85,
                                matches=12, last_played=dt.date(2026, 4, 1))
    CategoryChange.objects.create(player=ivanov, category_from=4, category_to=5,
                                  on=dt.date(2025, 9, 1), reason="Победа в чемпионате клуба")
    body = text(client.get(profile_url(ivanov)))
    assert "<h1><bdi>Иванов Иван</bdi></h1>" in body and "Ivan Ivanov" in body
    assert "Зарик" in body and "01.05.2020" in body
    assert "1623,46" in body  # two decimals, in the reader's number format
    assert reverse("player-rating-history", kwargs={"player_id": ivanov.pk, "pool": "backgammon"}) in body
    # events: released ones only, newest first, with place (Иванов won the spring event's only game)
    events = body[body.index('id="events"'):body.index('id="matches"')]
    assert events.index("Весенний кубок") < events.index("Зимний турнир")
    assert "Черновик" not in body
    # every match, the pending one included; head-to-head counts confirmed ones: 3 played, 2 won
    matches = body[body.index('id="matches"'):body.index('id="h2h"')]
    assert matches.count("<tr>") == 5  # header + 4 matches (the hidden event's is not shown)
    assert "5:4" in matches and "1:5" in matches
    h2h = body[body.index('id="h2h"'):body.index('id="category-changes"')]
    assert re.search(r"Петров Пётр</a></td> <td class=\"num\">3</td><td class=\"num\">2</td>"
                     r"<td class=\"num\">1</td>", h2h)
    assert "Победа в чемпионате клуба" in body and "01.09.2025" in body


def test_profile_in_english_uses_latin_names(client, rivals):
    ivanov, *_ = rivals
    client.cookies["django_language"] = "en"
    body = text(client.get(profile_url(ivanov)))
    assert "<h1><bdi>Ivan Ivanov</bdi></h1>" in body and "Иванов Иван" in body
    assert "Petr Petrov" in body and "Head-to-head" in body
    assert "1 of 2" in body


def test_head_to_head_page_counts_and_lists_their_matches(client, rivals):
    ivanov, petrov, *_ = rivals
    body = text(client.get(reverse("player-h2h", kwargs={"player_id": ivanov.pk, "other_id": petrov.pk})))
    assert '<dd id="h2h-matches">3</dd>' in body
    assert '<dd id="h2h-wins">2</dd>' in body and '<dd id="h2h-losses">1</dd>' in body
    assert body.count("<tr>") == 5  # header + 3 confirmed + 1 pending; the unreleased one hidden
    other_side = text(client.get(reverse("player-h2h", kwargs={"player_id": petrov.pk, "other_id": ivanov.pk})))
    assert '<dd id="h2h-wins">1</dd>' in other_side and '<dd id="h2h-losses">2</dd>' in other_side


def test_unknown_players_pools_and_self_h2h_are_404(client, rivals):
    ivanov, *_ = rivals
    assert client.get(reverse("player-profile", kwargs={"player_id": 999999})).status_code == 404
    assert client.get(reverse("player-h2h", kwargs={"player_id": ivanov.pk, "other_id": ivanov.pk})).status_code == 404
    assert client.get(reverse("player-h2h", kwargs={"player_id": ivanov.pk, "other_id": 999999})).status_code == 404
    bad_pool = reverse("player-rating-history", kwargs={"player_id": ivanov.pk, "pool": "chess"})
    assert client.get(bad_pool).status_code == 404
    assert client.get(profile_url(ivanov) + "?page=abc").status_code == 200


def history(size: int):
    """A player with ``size`` rated matches against ``size`` opponents in two events, and a category change."""
    hero = PlayerFactory(last_name="Герой", last_name_latin="Geroy")
    events = [TournamentFactory(), TournamentFactory()]
    rating = 1500.0
    for i in range(size):
        rival = PlayerFactory()
        m = play(events[i % 2], i // 2 + 1, hero, rival, 5, i % 5, table=1)
        rate(m, hero, rival, i + 1, rating, rating + 3.5)
        rating += 3.5
    PlayerRating.objects.create(player=hero, pool="backgammon", rating=rating, experience=5 * size,
                                matches=size)
    Membership.objects.create(player=hero, club=ClubFactory(), started_on=dt.date(2020, 1, 1))
    CategoryChange.objects.create(player=hero, category_to=3, on=dt.date(2025, 1, 1), reason="x")
    return hero


def count(client, address) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(address)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_profile_and_history_cost_the_same_queries_for_a_short_and_a_long_history(
    client, django_assert_num_queries
):
    short, long = history(3), history(40)
    pages = [
        lambda p: profile_url(p),
        lambda p: reverse("player-rating-history", kwargs={"player_id": p.pk, "pool": "backgammon"}),
    ]
    for page in pages:
        cold = []
        for hero in (short, long):
            cache.clear()
            cold.append(count(client, page(hero)))
        assert cold[0] == cold[1], cold
    # Profile, cold page cache: player, memberships, ratings, entries, 3 reads of the events for
    # their places, match count + page, head-to-head ×2, category changes, the rated matches of
    # events the reader may not see (issue 37's privacy rule), the analysed matches (PR history).
    cache.clear()
    with django_assert_num_queries(15):  # incl. the events' standings adjustments
        client.get(profile_url(long))
    with django_assert_num_queries(11):  # the events' places now come from the page cache
        client.get(profile_url(long))
    with django_assert_num_queries(3):  # player, current rating, the changes
        client.get(reverse("player-rating-history", kwargs={"player_id": long.pk, "pool": "backgammon"}))


def test_rating_history_table_and_svg_graph(client):
    hero = history(4)
    address = reverse("player-rating-history", kwargs={"player_id": hero.pk, "pool": "backgammon"})
    client.cookies["django_language"] = "en"
    body = text(client.get(address))
    svg = body[body.index("<svg"):body.index("</svg>")]
    assert 'role="img"' in svg and "<title id=" in svg and "<desc id=" in svg
    assert re.findall(r'data-rating="([\d.]+)"', svg) == ["1500.00", "1503.50", "1507.00", "1510.50", "1514.00"]
    assert ">Rating</text>" in svg and ">Rated matches, in order</text>" in svg  # labelled axes
    table = body[body.index("rating-changes"):]
    assert table.count("<tr>") == 5  # header + 4 changes, newest first
    assert table.index("1514.00") < table.index("1503.50")
    assert "+3.50" in table and "0.500" in table
    empty = text(client.get(reverse("player-rating-history", kwargs={"player_id": hero.pk, "pool": "long_nardy"})))
    assert "<svg" not in empty


# --- links and the expected win % on the tournament's public pages ---------------------------


def test_every_name_on_pairings_standings_and_crosstables_links_to_the_profile(client):
    t = swiss_event(6, slug="links")
    players = {e.player_id for e in t.entries.all()}
    for name in ("public-pairings", "public-standings", "public-crosstable", "public-crosstable-rounds"):
        body = client.get(reverse(name, kwargs={"slug": t.slug})).content.decode()
        linked = {int(pid) for pid in re.findall(r'class="profile-link[^"]*" href="/players/(\d+)/"', body)}
        assert linked == players, name
    entry = t.entries.first()
    page = client.get(reverse("public-player", kwargs={"slug": t.slug, "entry_id": entry.pk}))
    assert f'id="profile-link" href="/players/{entry.player_id}/"' in page.content.decode()


def test_pairings_show_the_favourites_expected_win_percent(client):
    t = TournamentFactory(slug="odds", match_length=7)
    rnd = RoundFactory(tournament=t, number=1)
    strong, weak, newcomer = PlayerFactory(), PlayerFactory(), PlayerFactory()
    PlayerRating.objects.create(player=strong, pool="backgammon", rating=1700)
    PlayerRating.objects.create(player=weak, pool="backgammon", rating=1550)
    m = MatchFactory(round=rnd, table=1, entry_a__player=weak, entry_b__player=strong)
    MatchFactory(round=rnd, table=2, entry_a__player=newcomer, bye=True)
    body = text(client.get(reverse("public-pairings", kwargs={"slug": t.slug})))
    expected = 1 / (10 ** ((1550 - 1700) * sqrt(7) / 2000) + 1)
    assert win_probability(1700, 1550, 7) == pytest.approx(expected)
    percent = round(expected * 100)
    row = re.search(r'<tr>\s*<td class="num">1</td>(.*?)</tr>', body).group(1)
    # next to the favourite (side B), not to the other player
    assert re.search(rf'{m.entry_b.player.full_name}</bdi></a> <a class="profile-link[^>]*>↗</a> '
                     rf'<small class="chance"[^>]*>{percent}%</small>', row)
    assert row.count('class="chance"') == 1
    bye_row = re.search(r'<tr>\s*<td class="num">2</td>(.*?)</tr>', body).group(1)
    assert "chance" not in bye_row


def test_a_rated_result_shows_the_chance_stored_before_the_match(client):
    t = TournamentFactory(slug="stored")
    a, b = PlayerFactory(), PlayerFactory()
    m = play(t, 1, a, b, 5, 2)
    rate(m, a, b, 1, 1500, 1510, expected=0.31)
    rate(m, b, a, 1, 1640, 1630, expected=0.69)
    PlayerRating.objects.create(player=a, pool="backgammon", rating=1510)
    body = text(client.get(reverse("public-pairings", kwargs={"slug": t.slug})))
    assert '<small class="chance" ' in body and ">69%</small>" in body


def test_fixed_games_long_nardy_uses_the_number_of_games_and_the_long_nardy_pool(client):
    t = TournamentFactory(slug="games", variant="long_nardy", scoring="long_nardy",
                          match_format="games", match_length=None, fixed_games=4)
    rnd = RoundFactory(tournament=t, number=1)
    a, b = PlayerFactory(), PlayerFactory()
    PlayerRating.objects.create(player=a, pool="long_nardy", rating=1580)
    PlayerRating.objects.create(player=a, pool="backgammon", rating=1200)  # another pool: ignored
    MatchFactory(round=rnd, table=1, entry_a__player=a, entry_b__player=b)
    body = text(client.get(reverse("public-pairings", kwargs={"slug": t.slug})))
    percent = round(win_probability(1580, 1500, 4) * 100)
    assert f">{percent}%</small>" in body
