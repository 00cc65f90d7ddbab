"""Issue 47: query parameters that say what they do — unknown ones refused, filters by id, incremental sync.

``?player=7``, ``?status=confirmed`` and ``?bogus=1`` used to return the whole list; now a
parameter the operation does not declare in ``/api/schema/`` is a 400 naming it, as an
unknown body field is. ``round_id``, ``player`` and ``club`` narrow by id or slug, and
``updated_since`` gives a sync client only the matches that changed.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import ClubFactory, TournamentFactory, swiss_event
from tournaments.access import private_links
from tournaments.models import Match, Round, RoundStatus

pytestmark = pytest.mark.django_db


def _get(url, **params):
    return Client(HTTP_ACCEPT_LANGUAGE="en").get(url, params)


@pytest.mark.parametrize(("url", "params", "named"), [
    ("/api/tournaments/", {"bogus": "1"}, ["bogus"]),
    ("/api/matches/", {"status": "confirmed"}, ["status"]),
    ("/api/rounds/", {"player": "7", "tournament": "x"}, ["player"]),
    ("/api/entries/", {"tournamnet": "x", "q": "y"}, ["tournamnet", "q"]),
    ("/api/tournaments/nowhere/standings/", {"section": "1"}, ["section"]),
])  # fmt: skip
def test_an_unknown_query_parameter_is_refused_naming_it(url, params, named):
    answer = _get(url, **params)
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "api.unknown_parameters" and list(body["errors"]) == named


def test_the_refusal_suggests_the_nearest_parameter_in_the_callers_language():
    answer = Client().get("/api/entries/", {"tournamnet": "x"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.json()["errors"]["tournamnet"] == ["Неизвестный параметр запроса; возможно, имелось в виду «tournament»?"]


def test_declared_and_global_parameters_pass():
    TournamentFactory(slug="open", public=True)
    for url, params in [("/api/tournaments/", {"lang": "en", "page": "1", "page_size": "5"}),
                        ("/api/tournaments/open/", {"format": "json"}), ("/api/players/", {"q": "Semenov"})]:  # fmt: skip
        assert _get(url, **params).status_code == 200, url


def test_round_id_narrows_to_one_round_while_round_is_its_number_in_every_tournament():
    first, second = swiss_event(4, rounds_done=0), swiss_event(4, rounds_done=0)
    [theirs] = Round.objects.filter(tournament=second)
    assert _get("/api/matches/", round=1).json()["count"] == 4  # round 1 of both events
    by_id = _get("/api/matches/", round_id=theirs.pk).json()
    assert {m["id"] for m in by_id["results"]} == set(theirs.matches.values_list("pk", flat=True))
    assert first.slug not in {m["tournament"] for m in by_id["results"]}


def test_player_narrows_matches_and_entries_to_one_players():
    event = swiss_event(4, rounds_done=1)
    match = Match.objects.filter(round__tournament=event).order_by("round__number", "table").first()
    player, entry = match.entry_a.player_id, match.entry_a_id
    matches = _get("/api/matches/", player=player).json()["results"]
    assert len(matches) == 2 and all(entry in (m["player_a"]["entry"], m["player_b"]["entry"]) for m in matches)
    assert [e["player"] for e in _get("/api/entries/", player=player).json()["results"]] == [player]


def test_tournaments_by_club():
    club = ClubFactory(slug="tula")
    TournamentFactory(club=club, slug="tula-open", public=True)
    TournamentFactory(slug="elsewhere", public=True)
    assert [t["slug"] for t in _get("/api/tournaments/", club="tula").json()["results"]] == ["tula-open"]


def test_updated_since_gives_only_the_matches_changed_or_published_since():
    event = swiss_event(4, rounds_done=0)
    rnd = Round.objects.get(tournament=event)
    Round.objects.filter(pk=rnd.pk).update(published_at=timezone.now() - timedelta(hours=1))
    Match.objects.filter(round=rnd).update(updated_at=timezone.now() - timedelta(hours=1))
    since = timezone.now() - timedelta(minutes=1)
    assert _get("/api/matches/", tournament=event.slug, updated_since=since.isoformat()).json()["count"] == 0
    played = rnd.matches.order_by("table").first()
    player = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(played.entry_a)}")
    player.post(f"/api/matches/{played.pk}/report/", {"final": [5, 1], "version": played.version},
                content_type="application/json")  # fmt: skip
    changed = _get("/api/matches/", tournament=event.slug, updated_since=since.isoformat()).json()
    assert [m["id"] for m in changed["results"]] == [played.pk]
    nxt = Round.objects.create(tournament=event, number=2, status=RoundStatus.PUBLISHED, published_at=timezone.now())
    Match.objects.filter(pk=played.pk).update(round=nxt)  # a match of a round published just now
    assert _get("/api/matches/", tournament=event.slug, updated_since=since.isoformat()).json()["count"] == 1
    bad = _get("/api/matches/", updated_since="yesterday")
    assert bad.status_code == 400 and "updated_since" in bad.json()["errors"]


def test_a_tournament_embeds_its_entries_and_rounds_in_one_call_when_asked():
    event = swiss_event(4, rounds_done=1)
    plain = _get(f"/api/tournaments/{event.slug}/").json()
    assert "entries" not in plain and "rounds" not in plain
    whole = _get(f"/api/tournaments/{event.slug}/", include="entries,rounds").json()
    assert [e["id"] for e in whole["entries"]] == [e["id"] for e in _get("/api/entries/", tournament=event.slug).json()["results"]]
    assert [r["number"] for r in whole["rounds"]] == [1, 2]
    assert {m["id"] for r in whole["rounds"] for m in r["matches"]} == set(
        Match.objects.filter(round__tournament=event).values_list("pk", flat=True)
    )
    Round.objects.filter(tournament=event, number=2).update(status=RoundStatus.DRAFT)
    assert [r["number"] for r in _get(f"/api/tournaments/{event.slug}/", include="rounds").json()["rounds"]] == [1]
    unknown = _get(f"/api/tournaments/{event.slug}/", include="entries,standings")
    assert unknown.status_code == 400 and "standings" in unknown.json()["errors"]["include"][0]


def test_updated_since_gives_only_the_entries_changed_since_and_refuses_a_bad_time():
    """Issue 47: entries sync too. Every write moves ``updated_at`` — a form's save and the
    desk's bulk writes (a withdrawal, the draw's numbers) alike."""
    from tests.factories import UserFactory
    from tournaments.entries.status import withdraw
    from tournaments.models import Entry

    event = swiss_event(4, rounds_done=0, open_round=False)
    Entry.objects.filter(tournament=event).update(updated_at=timezone.now() - timedelta(hours=1))
    since = timezone.now() - timedelta(minutes=1)
    assert _get("/api/entries/", tournament=event.slug, updated_since=since.isoformat()).json()["count"] == 0
    leaver = event.entries.order_by("draw_number").last()
    withdraw(leaver, UserFactory(is_superuser=True), reason="ill")  # an update(), not a save()
    changed = _get("/api/entries/", tournament=event.slug, updated_since=since.isoformat()).json()
    assert [e["id"] for e in changed["results"]] == [leaver.pk] and changed["results"][0]["status"] == "withdrawn"
    assert changed["results"][0]["updated_at"] >= since.isoformat()[:19]
    for bad in ("yesterday", "2026-13-01T00:00:00Z"):
        answer = _get("/api/entries/", updated_since=bad)
        assert answer.status_code == 400 and "updated_since" in answer.json()["errors"], bad


def test_the_standings_carry_a_version_and_since_version_answers_nothing_while_they_stand(fresh_cache):
    """Issue 47: a sync client reads the standings only when they changed; a result moves the version."""
    event = swiss_event(4, rounds_done=1, open_round=True)
    url = f"/api/tournaments/{event.slug}/standings/"
    first = _get(url).json()
    assert first["changed"] is True and first["sections"] and len(first["version"]) == 32
    assert _get(url, lang="ru").json()["version"] == first["version"]  # the same in every language
    same = _get(url, since_version=first["version"]).json()
    assert same["changed"] is False and same["sections"] == [] and same["version"] == first["version"]
    assert same["count"] == first["count"]
    played = Match.objects.filter(round__tournament=event, round__number=2).order_by("table").first()
    from scoring.workflow import submit_result
    from tests.factories import UserFactory

    submit_result(played.pk, UserFactory(is_superuser=True), version=played.version, final=(5, 1), confirm=True)
    after = _get(url, since_version=first["version"]).json()
    assert after["changed"] is True and after["version"] != first["version"] and after["sections"]
