"""The seam "one forbidden pair in round 1 reshuffles the whole round" (issue 27), through the
organiser's services: the director forbids a pair (or keeps clubs apart), generates and
publishes, and the public pairings keep the book's order except the two tables the pair
needs, with the round's explanation saying the order, the pair and why, and the swap.

The book, Part 9 (``part9_competition_rules.ru.txt`` line 9): «В первом туре встречаются
номера 1 и 2, 3 и 4, 5 и 6, и т. д.»; the guarantee is stated in
:mod:`tournaments.pairing.first_round`.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from rest_framework.test import APIClient

from clubs.models import Membership
from tests.factories import (
    ClubFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
    enter,
)
from tournaments.models import OfficialRole
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.swiss import requests as swiss_requests

pytestmark = pytest.mark.django_db

#: One row of the public pairings table: table, A's draw number, …, B's draw number.
ROW = re.compile(
    r'<tr>\s*<td class="num">(\d+)</td>\s*<td class="num[^"]*">(\d+)</td>.*?'
    r'<td class="num[^"]*">(\d+)</td>\s*</tr>',
    re.S,
)


def _event(slug: str, size: int = 8, **options):
    t = TournamentFactory(slug=slug, match_length=3, rounds_planned=5, pairing_options=options)
    director = UserFactory(username=f"{slug}-director")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    entries = enter(
        t, [{"last_name": f"Пара{i}", "first_name": "Игрок"} for i in range(1, size + 1)]
    )
    return t, director, entries


def _published_tables(client, slug: str) -> list[tuple[int, int]]:
    """The tables of the latest round as the public pairings page shows them (draw numbers)."""
    page = client.get(f"/t/{slug}/pairings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    latest = page.split("<h2>Round")[1]  # the newest round is shown first
    return [(int(a), int(b)) for _table, a, b in ROW.findall(latest)]


def _round_notes(client, rnd, language: str) -> list[str]:
    """The round's explanation as the organiser reads it over the API (the page shows the same)."""
    answer = client.get(f"/api/rounds/{rnd.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    return answer.json()["notes"]


def _organiser(director) -> APIClient:
    api = APIClient()
    api.force_login(director)
    return api


def test_one_forbidden_pair_round_one_changes_only_two_pairings(client):
    t, director, entries = _event("seam-forbid")
    swiss_requests.forbid_pair(t, entries[0], entries[1], "братья", director)
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    # was 1–5, 2–6, 3–7, 4–8: the whole round reshuffled by one pair
    assert _published_tables(client, "seam-forbid") == [(1, 3), (2, 4), (5, 6), (7, 8)]

    api = _organiser(director)
    order, swap, why = _round_notes(api, r1, "en")  # the order, the change, then why
    assert "The book's order of round 1 (1–2, 3–4, 5–6, …) would pair" in swap
    assert "№1 Пара1 Игрок – №2 Пара2 Игрок, №3 Пара3 Игрок – №4 Пара4 Игрок" in swap
    assert "but №1 Пара1 Игрок – №2 Пара2 Игрок may not meet" in swap
    assert "exchanged partners: №1 Пара1 Игрок – №3 Пара3 Игрок, №2 Пара2 Игрок – №4" in swap
    assert "Every other table keeps that order." in swap
    assert "the director forbade this pairing" in why and "Reason: братья" in why
    assert order.startswith("Round 1: draw numbers 1–2, 3–4")
    russian = " ".join(_round_notes(api, r1, "ru"))
    assert "По порядку первого тура из книги (1–2, 3–4, 5–6, …) встречались бы" in russian
    assert "обменялись соперниками: №1 Пара1 Игрок – №3 Пара3 Игрок" in russian
    assert "главный судья запретил эту пару" in russian and "Причина: братья" in russian

    client.force_login(director)
    page = client.get(f"/t/seam-forbid/manage/round/{r1.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "exchanged partners" in page.content.decode()  # the organiser's round page too


def test_clubs_kept_apart_in_round_one_change_only_two_pairings(client):
    t, director, entries = _event("seam-club", club_apart_rounds=1)
    club = ClubFactory()
    for e in entries[2:4]:  # numbers 3 and 4, whom the book pairs at table 2
        Membership.objects.create(player=e.player, club=club, started_on=dt.date(2025, 1, 1))
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    assert _published_tables(client, "seam-club") == [(1, 2), (3, 5), (4, 6), (7, 8)]
    notes = " ".join(_round_notes(_organiser(director), r1, "en"))
    assert "would pair №3 Пара3 Игрок – №4 Пара4 Игрок, №5 Пара5 Игрок – №6 Пара6 Игрок" in notes
    assert "exchanged partners: №3 Пара3 Игрок – №5 Пара5 Игрок, №4 Пара4 Игрок – №6" in notes
    assert "players of the same club are kept apart in rounds 1–1" in notes


def test_an_odd_field_keeps_the_bye_and_the_book_order_around_the_forbidden_pair(client):
    t, director, entries = _event("seam-odd", size=9)
    swiss_requests.forbid_pair(t, entries[6], entries[7], "", director)  # numbers 7 and 8
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    # №9 sits out as without the pair; the last table changes with the one above it
    assert _published_tables(client, "seam-odd") == [(1, 2), (3, 4), (5, 7), (6, 8)]
    bye = r1.matches.get(entry_b__isnull=True)
    assert bye.entry_a.draw_number == 9


def test_a_forbidden_pair_in_a_later_round_changes_only_two_pairings(client):
    """Round 2 (the Swiss core's own order: top half v bottom half of each score group): with
    1–5 forbidden, 1 takes the next of the bottom half and 3 the one left — the 0-point group
    keeps its tables. The same round without the pair is the draft deleted first."""
    t, director, entries = _event("seam-later")
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    confirm_round(r1, winner_of=lambda m: "a")  # 1, 3, 5, 7 win
    [free] = pm.generate_next(t, user=director)
    without = {
        frozenset((m.entry_a.draw_number, m.entry_b.draw_number)) for m in free.matches.all()
    }
    assert without == {frozenset(p) for p in ((1, 5), (3, 7), (2, 6), (4, 8))}
    pm.delete_draft(free, user=director)

    swiss_requests.forbid_pair(t, entries[0], entries[4], "тренер и ученик", director)
    [r2] = pm.generate_next(t, user=director)
    pm.publish_round(r2, user=director)
    tables = _published_tables(client, "seam-later")
    assert tables == [(1, 7), (3, 5), (2, 6), (4, 8)]
    assert len(without - {frozenset(p) for p in tables}) == 2
    notes = " ".join(_round_notes(_organiser(director), r2, "en"))
    assert "№1 Пара1 Игрок and №5 Пара5 Игрок would have met in this round" in notes
    assert "Reason: тренер и ученик" in notes
