"""Printables: score sheets, table and player cards with private-link QR codes, wall and bracket sheets."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.access.private_links import url_for
from tournaments.models import CompetitionSystem, OfficialRole
from tournaments.rounds import pairing_manager as pm


@pytest.fixture
def hall(db):
    t = TournamentFactory(
        name="Кубок клуба", slug="hall-cup", match_length=7, cube=True, crawford=True, beaver=True,
        time_control="40 секунд на ход", rounds_planned=None,
    )
    users = {name: UserFactory(username=name) for name in ("org", "ref", "jury", "player", "outsider")}
    OfficialFactory(tournament=t, user=users["org"], role=OfficialRole.ORGANISER)
    OfficialFactory(tournament=t, user=users["ref"], role=OfficialRole.REFEREE)
    OfficialFactory(tournament=t, user=users["jury"], role=OfficialRole.JURY)
    players = [
        {"last_name": f"Нардист{i}", "first_name": "Иван", "last_name_latin": f"Nardist{i}",
         "first_name_latin": "Ivan", "user": None}
        for i in range(1, 9)
    ]
    players[0]["user"] = users["player"]
    entries = enter(t, players)
    [r1] = pm.generate_next(t, user=users["org"])
    pm.publish_round(r1, user=users["org"])
    return {"t": t, "users": users, "r1": r1, "entries": entries}


def _get(client, user, name, **kwargs):
    client.force_login(user)
    return client.get(reverse(name, kwargs=kwargs))


def test_index_links_every_printable(client, hall):
    response = _get(client, hall["users"]["ref"], "manage-print", slug="hall-cup")
    body = response.content.decode()
    assert response.status_code == 200
    for name, kwargs in (
        ("print-round-sheets", {"round_id": hall["r1"].pk}),
        ("print-table-cards", {"round_id": hall["r1"].pk}),
        ("print-player-cards", {}),
        ("public-standings-print", {}),
    ):
        assert reverse(name, kwargs={"slug": "hall-cup", **kwargs}) in body
    assert reverse("public-pairings-print", kwargs={"slug": "hall-cup"}) + "?round=1" in body


def test_round_score_sheets_one_per_match_with_options_and_ledger(client, hall):
    client.cookies["django_language"] = "ru"
    response = _get(client, hall["users"]["ref"], "print-round-sheets", slug="hall-cup", round_id=hall["r1"].pk)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('class="sheet score-sheet"') == 4
    first = hall["r1"].matches.order_by("table").first()
    assert first.entry_a.player.full_name in body and first.entry_b.player.full_name in body
    assert "до 7 очков" in body and "Кроуфорда" in body and "бивер" in body
    assert "40 секунд на ход" in body and "Кубок клуба" in body
    assert "оюн" not in body or "гэммон" in body  # backgammon scoring: the book's 1-2-3 table
    ledger = re.search(r'<table class="ledger">.*?</table>', body, re.S).group(0)
    assert ledger.count("<tr>") == 1 + 13  # header + 2·7−1 games


def test_single_match_sheet_in_english(client, hall):
    client.cookies["django_language"] = "en"
    m = hall["r1"].matches.order_by("table").last()
    response = _get(client, hall["users"]["org"], "print-match-sheet", slug="hall-cup", match_id=m.pk)
    body = response.content.decode()
    assert response.status_code == 200 and body.count('class="sheet score-sheet"') == 1
    assert "first to 7 points" in body and m.entry_a.player.latin_name in body
    assert f"Table {m.table}" in body or "Table</span>" in body or f"Table {m.table}" in body.replace("\n", " ")


def test_table_cards_one_per_table_with_both_names(client, hall):
    response = _get(client, hall["users"]["org"], "print-table-cards", slug="hall-cup", round_id=hall["r1"].pk)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('class="sheet table-card"') == 4
    m = hall["r1"].matches.order_by("table").first()
    assert m.entry_a.player.full_name in body and m.entry_b.player.full_name in body
    # the private links are on the player cards only: tests/public/test_hall_integrity.py


def test_player_cards_list_every_active_player_with_link(client, hall):
    response = _get(client, hall["users"]["org"], "print-player-cards", slug="hall-cup")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('class="player-card"') == 8
    for e in hall["entries"]:
        assert "http://testserver" + url_for(e) in body


def test_wall_sheets_render(client, hall):
    for name, query in (("public-pairings-print", "?round=1"), ("public-standings-print", "")):
        response = client.get(reverse(name, kwargs={"slug": "hall-cup"}) + query)
        assert response.status_code == 200 and "Нардист1" in response.content.decode()


def test_knockout_draw_sheet_is_landscape_with_the_bracket(client, db):
    t = TournamentFactory(slug="ko", system=CompetitionSystem.KNOCKOUT, rounds_planned=None)
    org = UserFactory(username="ko-org")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    enter(t, [{"last_name": f"Кубковый{i}", "short": True} for i in range(8)])
    for rnd in pm.generate_next(t, user=org):
        pm.publish_round(rnd, user=org)
    response = _get(client, org, "print-bracket", slug="ko")
    body = response.content.decode()
    assert response.status_code == 200
    assert "landscape" in body and '<svg class="bracket"' in body and "Кубковый0" in body


def test_printables_are_not_public(client, hall):
    t = hall["t"]
    urls = [
        reverse("manage-print", kwargs={"slug": "hall-cup"}),
        reverse("print-round-sheets", kwargs={"slug": "hall-cup", "round_id": hall["r1"].pk}),
        reverse("print-table-cards", kwargs={"slug": "hall-cup", "round_id": hall["r1"].pk}),
        reverse("print-player-cards", kwargs={"slug": "hall-cup"}),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(hall["users"]["player"])
    for url in urls:
        assert client.get(url).status_code == 403  # a player of a released tournament
    t.public = False
    t.save()
    client.force_login(hall["users"]["outsider"])
    for url in urls:
        assert client.get(url).status_code == 404  # an unreleased tournament does not exist for them
    # cards carry private links: the referee and the jury print score sheets, not cards
    client.force_login(hall["users"]["jury"])
    assert client.get(urls[1]).status_code == 200
    assert client.get(urls[2]).status_code == 403 and client.get(urls[3]).status_code == 403


def test_a_round_of_another_tournament_is_not_found(client, hall):
    other = TournamentFactory(slug="other")
    enter(other, [{"last_name": "Чужой", "short": True}, {"last_name": "Чужой2", "short": True}])
    [r] = pm.generate_next(other)
    response = _get(client, hall["users"]["org"], "print-round-sheets", slug="hall-cup", round_id=r.pk)
    assert response.status_code == 404


def test_a_big_round_prints_in_parts_of_tables_and_cards_in_parts_of_numbers(client, hall, monkeypatch):
    """Issue 32: 5,000 score sheets are not one print job; the index links each part."""
    from tournaments.public import print_views

    monkeypatch.setattr(print_views, "PRINT_TABLES", 3)
    monkeypatch.setattr(print_views, "PRINT_CARDS", 5)
    ref, org, r1 = hall["users"]["ref"], hall["users"]["org"], hall["r1"]
    index = _get(client, ref, "manage-print", slug="hall-cup").content.decode()
    sheets = reverse("print-round-sheets", kwargs={"slug": "hall-cup", "round_id": r1.pk})
    assert f"{sheets}?tables=1-3" in index and f"{sheets}?tables=4-4" in index
    assert reverse("print-player-cards", kwargs={"slug": "hall-cup"}) + "?numbers=6-8" in index
    assert client.get(sheets).content.decode().count('class="sheet score-sheet"') == 3  # the first part
    assert client.get(sheets, {"tables": "4-4"}).content.decode().count('class="sheet score-sheet"') == 1
    wrong = client.get(sheets, {"tables": "4-x"})
    assert wrong.status_code == 400 and "4-x" in wrong.content.decode()
    client.force_login(org)
    cards = client.get(reverse("print-player-cards", kwargs={"slug": "hall-cup"}), {"numbers": "6-8"})
    body = cards.content.decode()
    assert "Nardist6" in body or "Нардист6" in body
    assert "Нардист1 " not in body and "Nardist1 " not in body
