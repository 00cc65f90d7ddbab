"""The Swiss → cup cut (issue 43): a place shared across the cut waits for the organiser's
decision — a play-off, a lot or a stated criterion — on the page and in the API alike, and the
API takes the page's ``reason`` for an unfinished Swiss."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
)
from tournaments.models import AuditEntry, OfficialRole, Tournament, TournamentStatus
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.flow import close_round
from tournaments.rounds.swiss import requests as swiss_requests

pytestmark = pytest.mark.django_db

URL = "/t/cut/manage/swiss/qualify/"


def lower_number_wins(m) -> str:
    return "a" if m.entry_a.draw_number < m.entry_b.draw_number else "b"


def play_all(t: Tournament, director, rounds: int) -> None:
    for _ in range(rounds):
        [rnd] = pm.generate_next(t, user=director)
        pm.publish_round(rnd, user=director)
        confirm_round(rnd, winner_of=lower_number_wins)
        close_round(rnd, director)


@pytest.fixture
def director(db):
    return UserFactory(username="cut-director")


@pytest.fixture
def tied(director) -> Tournament:
    """Four players, two rounds, 5:1 at every table: №1 wins both, №2 and №3 one each (against
    №4 and against №1's loser alike) and are level on every tie-break — place 2–3 is shared."""
    t = TournamentFactory(slug="cut", seeding="rating", rounds_planned=2, match_length=7)
    for i in range(1, 5):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - i, player__last_name=f"Игрок{i}")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    play_all(t, director, 2)
    return t


def seeds(cup: Tournament) -> list[str]:
    return [e.player.last_name for e in cup.entries.select_related("player").order_by("draw_number")]


def qualify_form(**extra) -> dict:
    return {"qualify-top": 2, "qualify-name": "Кубок", "qualify-slug": "cut-cup", **extra}


def test_a_tie_at_the_swiss_cut_is_refused_until_the_organiser_decides_and_a_lot_decides_it(client, director, tied):
    client.force_login(director)
    refused = client.post(URL, qualify_form(**{"qualify-reason": "the cup starts tonight"}))
    body = refused.content.decode()
    assert refused.status_code == 400
    # Coded, names the place and both players, offers the three decisions; a reason alone
    # (which used to cut in the list's order) is no decision.
    assert "2–3" in body and "Игрок2" in body and "Игрок3" in body and "жребий" in body
    assert 'value="playoff"' in body and 'value="lot"' in body and 'value="criterion"' in body
    assert 'id="id_qualify-tie_decision_helptext"' in body  # the choices explained beside the field
    assert not Tournament.objects.filter(slug="cut-cup").exists()
    lot = client.post(URL, qualify_form(**{"qualify-tie_decision": "lot"}))
    assert lot.status_code == 302
    cup = Tournament.objects.get(slug="cut-cup")
    first, second = seeds(cup)
    assert first == "Игрок1" and second in ("Игрок2", "Игрок3")
    audit = AuditEntry.objects.get(action="knockout.qualify", tournament=tied)
    tie = audit.after["tie"]
    assert tie["decision"] == "lot" and tie["place"] == "2–3" and len(tie["lot"]) == 2
    assert tie["through"] == tie["lot"][:1]


def test_a_criterion_decides_the_cut_through_the_api_with_the_players_chosen(director, tied):
    api = APIClient()
    api.force_authenticate(director)
    url = "/api/tournaments/cut/qualify/"
    body = {"top": 2, "name": "Cup", "slug": "cut-cup"}
    undecided = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert undecided.status_code == 409 and undecided.json()["code"] == "pairing.qualify_tie_at_cut"
    said = undecided.json()["detail"]
    assert "Игрок2" in said and "2–3" in said and "or take 3 players." in said and "take 1" not in said
    third = tied.entries.get(draw_number=3)
    assert sorted(undecided.json()["tied_entries"]) == sorted([tied.entries.get(draw_number=2).pk, third.pk])
    unstated = api.post(url, {**body, "tie_decision": "criterion", "tie_chosen": [third.pk]}, format="json")
    assert unstated.status_code == 409 and unstated.json()["code"] == "pairing.qualify_tie_chosen"
    done = api.post(url, {**body, "tie_decision": "criterion", "tie_chosen": [third.pk],
                          "tie_note": "the lower draw number loses"}, format="json")  # fmt: skip
    assert done.status_code == 201, done.json()
    assert done.json()["stage"] == "cup"
    assert seeds(Tournament.objects.get(slug="cut-cup")) == ["Игрок1", "Игрок3"]
    tie = AuditEntry.objects.get(action="knockout.qualify", tournament=tied).after["tie"]
    assert tie["decision"] == "criterion" and tie["through"] == [third.pk]
    assert tie["note"] == "the lower draw number loses"


def test_a_play_off_decides_the_cut_and_the_cup_takes_its_winner(client, director, tied):
    client.force_login(director)
    drawn = client.post(URL, qualify_form(**{"qualify-tie_decision": "playoff"}))
    playoff = Tournament.objects.get(slug=swiss_requests.playoff_slug("cut-cup"))
    assert drawn.status_code == 302 and drawn["Location"] == f"/t/{playoff.slug}/manage/"
    assert sorted(seeds(playoff)) == ["Игрок2", "Игрок3"] and not Tournament.objects.filter(slug="cut-cup").exists()
    assert playoff.match_length == 7 and playoff.officials.filter(user=director).exists()
    early = client.post(URL, qualify_form(**{"qualify-tie_decision": "playoff"}))
    assert early.status_code == 400 and "cut-cup-playoff" in early.content.decode()
    [rnd] = pm.generate_next(playoff, user=director)
    pm.publish_round(rnd, user=director)
    confirm_round(rnd, winner_of=lambda m: "a" if m.entry_a.player.last_name == "Игрок3" else "b")
    close_round(rnd, director)
    playoff.refresh_from_db()
    assert playoff.status == TournamentStatus.FINISHED
    done = client.post(URL, qualify_form(**{"qualify-tie_decision": "playoff"}))
    assert done.status_code == 302
    assert seeds(Tournament.objects.get(slug="cut-cup")) == ["Игрок1", "Игрок3"]
    assert AuditEntry.objects.filter(action="knockout.cut_playoff", tournament=tied).exists()


def test_the_api_qualifies_an_unfinished_swiss_with_a_reason_as_the_page_does(director):
    t = TournamentFactory(slug="early", seeding="rating", rounds_planned=3)
    for i in range(1, 5):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - i, player__last_name=f"Ранний{i}")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    play_all(t, director, 1)
    api = APIClient()
    api.force_authenticate(director)
    body = {"top": 2, "name": "Cup", "slug": "early-cup"}
    unfinished = api.post("/api/tournaments/early/qualify/", body, format="json")
    assert unfinished.status_code == 409 and unfinished.json()["code"] == "pairing.qualify_unfinished"
    done = api.post("/api/tournaments/early/qualify/", {**body, "reason": "the hall closes at ten"}, format="json")
    assert done.status_code == 201, done.json()
    after = AuditEntry.objects.get(action="knockout.qualify", tournament=t).after
    assert after["reason"] == "the hall closes at ten"
