"""Models → standings core: what the public pages and the export rank, read with fixed queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    GameFactory,
    MatchFactory,
    RoundFactory,
    SectionFactory,
    TournamentFactory,
    enter,
    swiss_event,
)
from tournaments.models import (
    Entry,
    ResultStatus,
    Round,
    Tournament,
)
from tournaments.standings_service import (
    find_entries,
    load_event,
    normalize_name,
    standings_options,
)
from zarik.management.demo import BOOK_SLUG

pytestmark = pytest.mark.django_db


def make_tournament(
    slug: str, names: list[tuple[str, str]], **fields
) -> tuple[Tournament, list[Entry]]:
    """A public round robin (unless told otherwise) with players named (Cyrillic, Latin)."""
    fields = {"name": slug, "starts_on": dt.date(2026, 1, 10), "system": "round_robin", **fields}
    tournament = TournamentFactory(slug=slug, rounds_planned=None, **fields)
    players = [{"last_name": ru, "last_name_latin": latin, "short": True} for ru, latin in names]
    return tournament, enter(tournament, players)


def play(
    rnd: Round, a: Entry, b: Entry | None, score=None, table=None, status=ResultStatus.CONFIRMED
):
    if score is None:
        return MatchFactory(round=rnd, entry_a=a, entry_b=b, table=table)
    return MatchFactory(
        round=rnd, entry_a=a, entry_b=b, table=table, scored=True,
        score_a=score[0], score_b=score[1], result_status=status,
    )




def names(rows) -> list[str]:
    return [r.player.name_ru for r in rows]


def test_book_demo_ranks_as_the_book_with_four_queries(book):
    with CaptureQueriesContext(connection) as queries:
        event = load_event(book)
    assert len(queries) == 4  # entries+players, rounds, matches, the rulings' adjustments
    table = event.standings[""]
    assert names(table.rows) == ["Сидоров", "Белов", "Петров", "Серов", "Иванов", "Чернов"]
    assert [r.values["points"] for r in table.rows] == [27, 26, 22, 22, 21, 19]
    # Петров is third, not sharing 3–4 with Серов: he won their match 5:4.
    assert [r.place_label for r in table.rows] == ["1", "2", "3", "4", "5", "6"]
    assert table.row(event.players[1].id).values["h2h"] == 1.0


def test_long_spelling_head_to_head_is_understood(book):
    assert book.slug == BOOK_SLUG
    book.tiebreaks = ["points", "head_to_head"]
    options, problems = standings_options(book)
    assert options.tiebreaks == ("points", "h2h") and problems == []


def test_empty_tiebreaks_mean_the_system_default():
    swiss, _ = make_tournament("sw", [("А", "A")], system="swiss", tiebreaks=[])
    options, problems = standings_options(swiss)
    assert options.tiebreaks[0] == "wins" and "buchholz" in options.tiebreaks and not problems
    rr, _ = make_tournament("rr", [("Б", "B")])
    assert standings_options(rr)[0].tiebreaks == ("points", "h2h")


def test_unknown_tiebreak_falls_back_to_default_and_says_why_in_both_languages():
    t, _ = make_tournament("bad-tb", [("А", "A")], tiebreaks=["points", "luck"])
    options, problems = standings_options(t)
    assert options.tiebreaks == ("points", "h2h")
    assert problems and "luck" in problems[0].en and "luck" in problems[0].ru
    t.tiebreaks = {"not": "a list"}
    options, problems = standings_options(t)
    assert problems[0].code == "standings.tiebreaks_not_a_list"


def test_only_confirmed_results_count_and_draft_rounds_stay_hidden():
    t, (a, b, c, d) = make_tournament(
        "rules", [("Аа", "Aa"), ("Бб", "Bb"), ("Вв", "Vv"), ("Гг", "Gg")]
    )
    r1 = RoundFactory(tournament=t, number=1, finished=True)
    play(r1, a, b, (5, 3), table=1)
    play(r1, c, d, (5, 1), table=2, status=ResultStatus.REPORTED)  # not confirmed yet
    draft = RoundFactory(tournament=t, number=2, draft=True)
    play(draft, a, c, table=1)
    event = load_event(t)
    assert [p.round for p in event.pairings] == [1, 1]
    points = {r.player.name_ru: r.values["points"] for r in event.standings[""].rows}
    assert points == {"Аа": 5, "Бб": 3, "Вв": 0, "Гг": 0}
    assert [r.number for r in event.current_rounds()] == [1]


def test_a_bye_counts_as_a_won_match_once_its_round_is_published():
    t, (a, b, c) = make_tournament(
        "bye", [("Аа", "Aa"), ("Бб", "Bb"), ("Вв", "Vv")], system="swiss"
    )
    r1 = RoundFactory(tournament=t, number=1)
    play(r1, a, b, table=1)  # pending
    play(r1, c, None)
    table = load_event(t).standings[""]
    assert names(table.rows)[0] == "Вв" and table.rows[0].values["wins"] == 1


def test_sections_rank_separately_and_the_absolute_champion_is_named(client):
    t, (a, b, c, d) = make_tournament(
        "secs", [("Аа", "Aa"), ("Бб", "Bb"), ("Вв", "Vv"), ("Гг", "Gg")], public=True
    )
    low = SectionFactory(tournament=t, name="Младшая", order=2)
    high = SectionFactory(tournament=t, name="Старшая", order=1)
    Entry.objects.filter(pk__in=[a.pk, b.pk]).update(section=low)
    Entry.objects.filter(pk__in=[c.pk, d.pk]).update(section=high)
    rl = RoundFactory(tournament=t, section=low, number=1, finished=True)
    rh = RoundFactory(tournament=t, section=high, number=1, finished=True)
    play(rl, a, b, (3, 5), table=1)
    play(rh, c, d, (7, 2), table=1)
    event = load_event(t)
    assert list(event.sections.values()) == ["Старшая", "Младшая"]  # the sections' order
    by_section = {event.sections[k]: names(v.rows) for k, v in event.standings.items()}
    assert by_section == {"Старшая": ["Вв", "Гг"], "Младшая": ["Бб", "Аа"]}
    # Mid-event nobody holds the title; finished, the strongest section's winner does.
    assert event.champion is not None and event.champion.champion is None
    for entry, category in ((a, 3), (b, 3), (c, 8), (d, 8)):
        entry.refresh_from_db()
        entry.category = category
        entry.save()  # a save: the cached rows hear of it
    t.status = "finished"
    t.save()
    event = load_event(t)
    assert event.champion.champion.name_ru == "Вв"
    assert [(k, names_of) for k, names_of in ((event.sections[k], [p.name_ru for p in ps])
            for k, ps in event.champion.winners)] == [("Старшая", ["Вв"]), ("Младшая", ["Бб"])]  # fmt: skip
    api = client.get("/api/tournaments/secs/standings/").json()["champion"]
    assert api["finished"] and api["champion"] == c.pk and api["playoff_between"] == []
    assert [w["entries"] for w in api["winners"]] == [[c.pk], [b.pk]]
    page = client.get("/t/secs/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Absolute champion — the winner of the strongest section: <strong>Vv" in page
    assert "Младшая: <strong>Bb" in page


def test_gammon_wins_are_counted_from_the_ledger_only_when_chosen():
    t, (a, b) = make_tournament("gam", [("Аа", "Aa"), ("Бб", "Bb")], tiebreaks=["wins", "gammons"])
    r1 = RoundFactory(tournament=t, number=1, finished=True)
    m = play(r1, a, b, (5, 4), table=1)
    for number, (winner, kind) in enumerate(
        [("a", "gammon"), ("b", "single"), ("b", "koks"), ("a", "mars"), ("a", "single")], 1
    ):
        GameFactory(match=m, number=number, winner=winner, kind=kind)
    with CaptureQueriesContext(connection) as queries:
        event = load_event(t)
    assert len(queries) == 5  # + one aggregate over the games
    values = {r.player.name_ru: r.values["gammons"] for r in event.standings[""].rows}
    assert values == {"Аа": 2, "Бб": 1}
    plain, _ = make_tournament("nogam", [("Вв", "Vv")])
    with CaptureQueriesContext(connection) as queries:
        load_event(plain)
    assert len(queries) == 3  # entries, rounds, adjustments: no round published, no match read


def test_query_count_does_not_grow_with_the_event():
    counts = []
    for size in (4, 40):
        t = swiss_event(size, slug=f"size-{size}", rounds_done=2, open_round=False)
        with CaptureQueriesContext(connection) as queries:
            event = load_event(t, with_clubs=True)
            assert len(event.standings[""].rows) == size
        counts.append(len(queries))
    assert counts[0] == counts[1] == 5  # entries, rounds, matches, adjustments, clubs


def test_the_clubs_are_read_without_a_parameter_per_player():
    """The players' clubs are picked by a subquery of the entries: a 100,000-player event's
    ids sent one by one passed PostgreSQL's limit of 65,535 parameters (issue 50)."""
    from clubs.models import Membership
    from tests.factories import ClubFactory

    sizes = {}
    for size in (4, 40):
        t = swiss_event(size, slug=f"clubs-{size}", rounds_done=1, open_round=False)
        club = ClubFactory(name=f"Нарды {size}")
        first = t.entries.order_by("draw_number").first()
        Membership.objects.create(player=first.player, club=club, started_on=dt.date(2025, 1, 1))
        with CaptureQueriesContext(connection) as queries:
            event = load_event(t, with_clubs=True)
        assert event.clubs == {first.player_id: f"Нарды {size}"}
        sizes[size] = max(len(q["sql"]) for q in queries if "membership" in q["sql"])
    assert abs(sizes[40] - sizes[4]) <= 4  # the same statement, not one id a player


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("сидоров", ["Сидоров Пётр"]),
        ("SIDOROV", ["Сидоров Пётр"]),
        ("петр", ["Сидоров Пётр"]),
        ("petr sid", ["Сидоров Пётр"]),
        ("ов", ["Сидоров Пётр", "Белов Иван"]),
        ("  ", []),
        ("Кузнецов", []),
    ],
)
def test_find_my_table_by_cyrillic_or_latin_name(query, found):
    t = TournamentFactory(slug="find", name="find", starts_on=dt.date(2026, 1, 1), bare=True)
    players = [
        {"last_name": last, "first_name": first, "last_name_latin": last_l, "first_name_latin": first_l}
        for last, first, last_l, first_l in [
            ("Сидоров", "Пётр", "Sidorov", "Petr"),
            ("Белов", "Иван", "Belov", "Ivan"),
        ]
    ]
    enter(t, players, first_number=None)
    event = load_event(t)
    assert [event.entries[i].name_ru for i in find_entries(event, query)] == found


def test_normalize_name_ignores_case_and_yo():
    assert (
        normalize_name("  ФЁДОРОВ   Артём ") == normalize_name("федоров артем") == "федоров артем"
    )
