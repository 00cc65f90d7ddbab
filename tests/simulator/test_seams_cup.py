"""Seams of a cup (issue 27): its places, its prizes, and the prize fund they are paid from.

Every event is built and played through the project's own services — the pairing manager
generates and publishes each stage, the result workflow confirms each match, the flow
closes the round — and read back where a user reads it: the public standings and overview,
the standings API, the prize page and the exported workbook.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring import workflow
from tests.factories import EntryFactory, OfficialFactory, TournamentFactory, UserFactory
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import Entry, OfficialRole, TournamentStatus
from tournaments.prizes import services as prizes
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.flow import close_round
from tournaments.standings_service import load_event, prize_awards

pytestmark = pytest.mark.django_db


def _cup(slug: str, size: int = 6, **options):
    """A cup of ``size`` players seeded by rating: draw number 1 is the best seed."""
    t = TournamentFactory(
        slug=slug, system="knockout", rounds_planned=None, seeding="rating", match_length=3,
        pairing_options={"knockout": {"seed_by": "rating", **options}},
    )  # fmt: skip
    for i in range(1, size + 1):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - 10 * i,
                     player__last_name=f"Сеяный{i}", player__first_name="Игрок")  # fmt: skip
    director = UserFactory(username=f"{slug}-director")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    return t, director


def _play_out(t, director) -> list[str]:
    """Every stage to the end, the better seed (the lower draw number) winning every match 3:1."""
    played: list[str] = []
    while True:
        try:
            [rnd] = pm.generate_next(t, user=director)
        except pm.PairingRefused as refused:
            assert refused.problems[0].code == "pairing.knockout_over"
            t.refresh_from_db()
            assert t.status == TournamentStatus.FINISHED
            return played
        pm.publish_round(rnd, user=director)
        played += [row["match_id"] for row in rnd.explanation["pairings"]]
        for match in rnd.matches.filter(entry_b__isnull=False).select_related("entry_a", "entry_b"):
            better_a = match.entry_a.draw_number < match.entry_b.draw_number
            workflow.submit_result(
                match.pk, director, version=match.version, final=(3, 1) if better_a else (1, 3), confirm=True
            )
        close_round(rnd, director)


def _by_draw(t, table) -> list[tuple[str, int]]:
    number = dict(Entry.objects.filter(tournament=t).values_list("id", "draw_number"))
    return [(r.place_label, number[r.player.id]) for r in table.rows]


def _name(t, draw_number: int, language: str = "en") -> str:
    """The player's name as the pages show it in ``language``."""
    entry = Entry.objects.select_related("player").get(tournament=t, draw_number=draw_number)
    return load_event(t).entries[entry.pk].name(language)


def _api_places(client, t) -> dict:
    return client.get(f"/api/tournaments/{t.slug}/standings/").json()["sections"][0]


def _workbook(t, language: str = "en"):
    out = io.BytesIO()
    build_workbook(t, out, language)
    return load_workbook(io.BytesIO(out.getvalue()))


def _sheet_rows(book, title: str) -> list[tuple]:
    return [r for r in book[title].iter_rows(values_only=True) if any(c not in (None, "") for c in r)]


# --- 1. the cup ranking follows the brackets ------------------------------------------------


def test_cup_ranking_finalist_above_third_place_winner(client):
    """6 players, a third-place match, the better seed always winning: 1 beats 2 in the final,
    3 beats 4 for third; 5 and 6 (out in the first round) share 5–6. Was: the third-place
    winner above the finalist (a later "round reached")."""
    t, director = _cup("cup-third", third_place=True)
    assert "3P" in _play_out(t, director)
    table = load_event(t).standings[""]
    assert _by_draw(t, table) == [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5–6", 5), ("5–6", 6)]
    assert table.side_tables == ()

    api = _api_places(client, t)
    assert [(row["place"], row["name"]) for row in api["rows"]][:3] == [
        ("1", "Сеяный1 Игрок"), ("2", "Сеяный2 Игрок"), ("3", "Сеяный3 Игрок")
    ]
    assert api["brackets"] == []

    rows = _sheet_rows(_workbook(t), "Standings")
    header = next(i for i, r in enumerate(rows) if r[0] == "Place")
    # (place, shared range, draw number): places are numbers, a shared one its first number + its range
    assert [(r[0], r[1] or "", r[2]) for r in rows[header + 1:header + 7]] == [
        (1, "", 1), (2, "", 2), (3, "", 3), (4, "", 4), (5, "5–6", 5), (5, "5–6", 6)
    ]


def test_cup_ranking_semi_final_losers_share_third_without_a_third_place_match():
    t, director = _cup("cup-plain")
    _play_out(t, director)
    assert _by_draw(t, load_event(t).standings[""]) == [
        ("1", 1), ("2", 2), ("3–4", 3), ("3–4", 4), ("5–6", 5), ("5–6", 6)
    ]


def test_cup_ranking_consolation_winner_below_finalist_in_its_own_table(client):
    """The consolation (first-round losers: 5 and 6 … and the players who lost right after
    a bye) is its own table; its winner is not in the main draw's places above the finalist."""
    t, director = _cup("cup-cons", size=8, consolation=True)
    _play_out(t, director)
    event = load_event(t)
    table = event.standings[""]
    assert _by_draw(t, table) == [
        ("1", 1), ("2", 2), ("3–4", 3), ("3–4", 4), ("5–8", 5), ("5–8", 6), ("5–8", 7), ("5–8", 8)
    ]
    [side] = table.side_tables
    assert side.bracket == "consolation"
    assert _by_draw(t, side) == [("1", 5), ("2", 6), ("3–4", 7), ("3–4", 8)]

    api = _api_places(client, t)
    [bracket] = api["brackets"]
    assert bracket["bracket"] == "consolation" and bracket["name_en"] == "Consolation"
    assert [row["place"] for row in bracket["rows"]] == ["1", "2", "3–4", "3–4"]
    assert [row["place"] for row in api["rows"]][:2] == ["1", "2"]

    page = client.get(reverse("public-standings", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200 and "Consolation" in html
    # the main table (champion first) comes before the consolation's table
    assert html.index(_name(t, 1)) < html.index("Consolation") < html.rindex(_name(t, 5))

    book = _workbook(t)
    standings = _sheet_rows(book, "Standings")
    header = next(i for i, r in enumerate(standings) if r[0] == "Place")
    assert [(r[0], r[1] or "") for r in standings[header + 1:header + 9]] == [
        (1, ""), (2, ""), (3, "3–4"), (3, "3–4"), (5, "5–8"), (5, "5–8"), (5, "5–8"), (5, "5–8")
    ]
    sides = _sheet_rows(book, "Side brackets")
    title = next(i for i, r in enumerate(sides) if r[0] == "Consolation")
    assert [(r[0], r[1] or "", r[2]) for r in sides[title + 2:title + 6]] == [
        (1, "", 5), (2, "", 6), (3, "3–4", 7), (3, "3–4", 8)
    ]


def test_cup_ranking_progressive_consolation_below_champion(client):
    """With a progressive consolation the losers' draw plays on after the final: its winner
    was ranked above the champion. Now the champion is first, the progressive table its own."""
    t, director = _cup("cup-prog", progressive_consolation=True)
    played = _play_out(t, director)
    assert any(mid.startswith("P") for mid in played)
    event = load_event(t)
    table = event.standings[""]
    assert _by_draw(t, table)[:2] == [("1", 1), ("2", 2)]
    assert [label for label, _n in _by_draw(t, table)] == ["1", "2", "3–4", "3–4", "5–6", "5–6"]
    [side] = table.side_tables
    assert side.bracket == "progressive"
    assert _by_draw(t, side)[0] == ("1", 3)  # the best semi-final loser wins the losers' draw

    overview = client.get(reverse("public-overview", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="en")
    html = overview.content.decode()
    leaders = html[html.index('class="leaders"'):]
    assert leaders.index(_name(t, 1)) < leaders.index(_name(t, 2)) < leaders.index("Progressive consolation")
    # the losers' draw's winner (3) heads its own list, after the main leaders
    assert leaders.index("Progressive consolation") < leaders.rindex(_name(t, 3))


def test_cup_ranking_double_elimination_places_by_the_losers_bracket():
    """Double elimination, the better seed winning: 1 champion, 2 (lost the grand final) second,
    then the losers' bracket decides: 3 went out in its final."""
    t, director = _cup("cup-double", size=4, double_elimination=True)
    _play_out(t, director)
    assert _by_draw(t, load_event(t).standings[""]) == [("1", 1), ("2", 2), ("3", 3), ("4", 4)]


# --- 2. cup prizes follow the places ---------------------------------------------------------


def test_cup_prizes_follow_places(client):
    """1st 3,000 / 2nd 2,000 / 3rd 1,000 with the default split (equal when level on the main
    score): was 1,000 to each of six players (a cup has no wins column, so all were level)."""
    t, director = _cup("cup-prizes", third_place=True)
    prizes.set_fund(t, director, fund=Decimal("6000"), split="equal")  # no prize beyond the fund
    for place, amount in ((1, "3000"), (2, "2000"), (3, "1000")):
        prizes.set_prize(t, director, section=None, place=place, amount=Decimal(amount))
    _play_out(t, director)
    assert t.prize_split == "equal"
    awards = prize_awards(load_event(t))
    by_draw = {Entry.objects.get(pk=k).draw_number: v for k, v in awards.amounts.items()}
    assert by_draw == {1: Decimal("3000.00"), 2: Decimal("2000.00"), 3: Decimal("1000.00")}

    html = client.get(reverse("public-standings", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3000.00" in html and "1000.00" in html and "500.00" not in html
    assert "the main draw decides the places" in html

    rows = _sheet_rows(_workbook(t), "Standings")
    header = next(i for i, r in enumerate(rows) if r[0] == "Place")
    prize = rows[header].index("Prize")
    assert [(r[2], r[prize]) for r in rows[header + 1:header + 7]] == [
        (1, 3000), (2, 2000), (3, 1000), (4, None), (5, None), (6, None)
    ]


def test_cup_prizes_shared_places_share_the_prizes_they_cover():
    """Without a third-place match the semi-final losers share 3–4 and the prizes of 3rd and 4th."""
    t, director = _cup("cup-prizes-shared")
    prizes.set_fund(t, director, fund=Decimal("6500"), split="equal")  # no prize beyond the fund
    for place, amount in ((1, "3000"), (2, "2000"), (3, "1000"), (4, "500")):
        prizes.set_prize(t, director, section=None, place=place, amount=Decimal(amount))
    _play_out(t, director)
    awards = prize_awards(load_event(t))
    by_draw = {Entry.objects.get(pk=k).draw_number: v for k, v in awards.amounts.items()}
    assert by_draw == {1: Decimal("3000.00"), 2: Decimal("2000.00"), 3: Decimal("750.00"), 4: Decimal("750.00")}


# --- 3. the prize fund is formed from fees and sponsors, less overheads -----------------------


def test_prize_fund_breakdown_refuses_prizes_beyond_the_formed_fund(client):
    """Part 9: the fund is the entry fees plus the sponsors' money, less the overheads. The
    organiser's page shows that sum line by line; with no fund announced, a prize that would
    take the table beyond it is refused (RU/EN, issue 43: it used to be only a warning, and the
    payouts followed the table)."""
    t, director = _cup("cup-fund")
    t.entry_fee = Decimal("500")
    t.save(update_fields=["entry_fee"])
    client.force_login(director)
    page = reverse("manage-prizes", kwargs={"slug": t.slug})
    for entry in Entry.objects.filter(tournament=t, draw_number__lte=4):
        client.post(reverse("manage-entry-fee", kwargs={"slug": t.slug, "entry_id": entry.pk}),
                    {"fee_amount": "", "fee_paid": "on"})  # fmt: skip
    saved = client.post(page, {"form": "fund", "sponsors": "5000", "overheads": "1000", "fund": "", "split": "equal"})
    assert saved.status_code == 302
    for place, amount in ((1, "3000"), (2, "2000")):
        assert client.post(page, {"form": "prize", "place": place, "amount": amount}).status_code == 302
    over = client.post(page, {"form": "prize", "place": 3, "amount": "1500"}, HTTP_ACCEPT_LANGUAGE="en")
    assert over.status_code == 400
    assert "The prizes add up to 6500, 500 more than the prize fund formed" in over.content.decode()
    russian = client.post(page, {"form": "prize", "place": 3, "amount": "1500"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Сумма призов 6500 на 500 больше призового фонда" in russian.content.decode()

    t.refresh_from_db()
    check = prizes.fund_check(t)
    assert (check.fees.collected, check.sponsors, check.overheads, check.fund, check.prizes) == (
        Decimal("2000.00"), Decimal("5000.00"), Decimal("1000.00"), Decimal("6000.00"), Decimal("5000.00")
    )
    assert check.problems == []
    english = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "4 paid × 500.00" in english
    assert all(value in english for value in ("2000.00", "5000.00", "1000.00", "6000.00"))

    # a sponsor's extra 500 closes the gap: the prize is accepted
    client.post(page, {"form": "fund", "sponsors": "5500", "overheads": "1000", "fund": "", "split": "equal"})
    assert client.post(page, {"form": "prize", "place": 3, "amount": "1500"}).status_code == 302
    t.refresh_from_db()
    assert prizes.fund_check(t).problems == []
    # and lowering the sponsors' money below the table is refused in turn
    lowered = client.post(page, {"form": "fund", "sponsors": "5000", "overheads": "1000", "fund": "", "split": "equal"})
    assert lowered.status_code == 400
    t.refresh_from_db()
    assert t.sponsor_money == Decimal("5500")


def test_prize_fund_announced_beyond_what_fees_and_sponsors_provide_is_flagged(client):
    t, director = _cup("cup-announced")
    client.force_login(director)
    page = reverse("manage-prizes", kwargs={"slug": t.slug})
    client.post(page, {"form": "fund", "sponsors": "1000", "overheads": "1500", "fund": "3000", "split": "equal"})
    t.refresh_from_db()
    codes = [p.code for p in prizes.fund_check(t).problems]
    assert codes == ["standings.overheads_over_income", "standings.announced_over_formed_fund"]
    # what was typed is kept when the form is refused
    refused = client.post(page, {"form": "fund", "sponsors": "много", "overheads": "0", "fund": "", "split": "equal"},
                          HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert refused.status_code == 400 and 'value="много"' in refused.content.decode()
