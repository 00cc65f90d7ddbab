"""Demo data loads idempotently; the pages show it in Russian and in English."""

import pytest
from django.core.management import call_command

from clubs.models import Club, Player
from scoring.models import Result
from tournaments.models import Entry, Game, Match, Round, RoundStatus, Tournament
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG

pytestmark = pytest.mark.django_db


def snapshot():
    return {
        "tournaments": list(Tournament.objects.order_by("pk").values_list("pk", "slug", "name")),
        "players": list(Player.objects.order_by("pk").values_list("pk", "last_name", "rating")),
        "entries": list(Entry.objects.order_by("pk").values_list("pk", "player_id", "draw_number")),
        "matches": list(
            Match.objects.order_by("pk").values_list("pk", "entry_a", "entry_b", "score_a", "score_b")
        ),
        "games": Game.objects.count(),
        "results": Result.objects.count(),
        "clubs": Club.objects.count(),
    }


def test_load_demo_twice_gives_the_same_data():
    call_command("load_demo")
    first = snapshot()
    call_command("load_demo")
    assert snapshot() == first


def test_book_crosstable_demo_matches_the_book(demo):
    book = Tournament.objects.get(slug=BOOK_SLUG)
    names = list(book.entries.order_by("draw_number").values_list("player__last_name", flat=True))
    assert names == ["Иванов", "Петров", "Сидоров", "Белов", "Серов", "Чернов"]
    matches = Match.objects.filter(round__tournament=book)
    assert matches.count() == 15
    totals = dict.fromkeys(names, 0)
    for m in matches.select_related("entry_a__player", "entry_b__player"):
        totals[m.entry_a.player.last_name] += m.score_a
        totals[m.entry_b.player.last_name] += m.score_b
    assert [totals[n] for n in names] == [21, 22, 27, 26, 22, 19]
    petrov_serov = matches.get(
        entry_a__player__last_name__in=["Петров", "Серов"],
        entry_b__player__last_name__in=["Петров", "Серов"],
    )
    winner = petrov_serov.entry_a if petrov_serov.winner == "a" else petrov_serov.entry_b
    assert winner.player.last_name == "Петров"


def test_swiss_demo_is_in_round_three(demo):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    assert swiss.entries.count() == 24
    assert swiss.entries.values("player__category").distinct().count() >= 4
    assert Club.objects.filter(memberships__player__entries__tournament=swiss).distinct().count() == 2
    statuses = list(swiss.rounds.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.FINISHED, RoundStatus.FINISHED, RoundStatus.PUBLISHED]
    r3 = Round.objects.get(tournament=swiss, number=3)
    assert r3.matches.count() == 12 and not r3.matches.filter(score_a__isnull=False).exists()
    # Nobody meets the same opponent twice in the demo.
    pairs = [frozenset((m.entry_a_id, m.entry_b_id)) for m in Match.objects.filter(round__tournament=swiss)]
    assert len(pairs) == len(set(pairs))


@pytest.mark.parametrize(
    ("language", "heading", "players"), [("ru", "Турниры", "Игроки"), ("en", "Tournaments", "Players")]
)
def test_pages_in_both_languages(client, demo, language, heading, players):
    client.cookies["django_language"] = language
    home = client.get("/")
    assert home.status_code == 200
    text = home.content.decode()
    assert heading in text
    assert "Осенний кубок клубов 2026" in text and "Результаты матчей" in text
    page = client.get(f"/t/{BOOK_SLUG}/")
    assert page.status_code == 200
    body = page.content.decode()
    # The one public overview: the roster and the current (last) round with its scores.
    name = "Sidorov" if language == "en" else "Сидоров"
    assert players in body and name in body and "5:3" in body


def test_language_switch_sets_the_language(client, demo):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert "Tournaments" in response.content.decode()


def test_unreleased_tournament_is_hidden_from_the_public(client, demo):
    t = Tournament.objects.get(slug=SWISS_SLUG)  # saved, as the organiser's form does: the signals move its cache version on
    t.public = False
    t.save(update_fields=["public"])
    assert client.get(f"/t/{SWISS_SLUG}/").status_code == 404
    assert "Осенний кубок" not in client.get("/").content.decode()


def test_unknown_tournament_is_404_not_500(client, db):
    assert client.get("/t/no-such-thing/").status_code == 404
