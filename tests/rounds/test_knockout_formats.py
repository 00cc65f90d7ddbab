"""Double elimination with the reset, progressive consolation: played through the pairing
manager stage by stage, and drawn bracket by bracket with empty slots (page and sheet)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
)
from tournaments.models import OfficialRole, Tournament, TournamentStatus
from tournaments.pairing import knockout as ko
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.flow import close_round
from tournaments.rounds.pairing_manager.reading import knockout_state

pytestmark = pytest.mark.django_db


def cup(n: int, **options) -> tuple[Tournament, object]:
    t = TournamentFactory(
        slug="dbl", system="knockout", rounds_planned=None, seeding="rating",
        pairing_options={"knockout": options},
    )
    for i in range(1, n + 1):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - i, player__last_name=f"Боец{i}")
    org = UserFactory(username="ko-director")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    return t, org


def play(t, org, decide) -> list[str]:
    """Generate, publish, confirm and close stage after stage; ``decide(a, b, meetings)`` →
    "a"/"b". The tournament is marked finished exactly when nothing is left to play."""
    met: dict[frozenset[int], int] = {}
    played: list[str] = []
    finished = False
    while True:
        try:
            [rnd] = pm.generate_next(t, user=org)
        except pm.PairingRefused as exc:
            assert exc.problems[0].code == "pairing.knockout_over"
            assert finished
            return played
        assert not finished, "marked finished with a match left to play"
        pm.publish_round(rnd, user=org)
        played += [row["match_id"] for row in rnd.explanation["pairings"]]

        def winner(m):
            a, b = m.entry_a.draw_number, m.entry_b.draw_number
            key = frozenset((a, b))
            met[key] = met.get(key, 0) + 1
            return decide(a, b, met[key])

        confirm_round(rnd, winner_of=winner)
        close_round(rnd, org)  # as the desk does on the last confirmation
        t.refresh_from_db()
        finished = t.status == TournamentStatus.FINISHED


def test_double_elimination_plays_the_reset_when_the_losers_bracket_champion_wins(client):
    t, org = cup(4, double_elimination=True)

    def decide(a, b, meeting):
        if {a, b} == {1, 2} and meeting == 2:  # the grand final: the losers' bracket wins
            return "a" if a == 2 else "b"
        return "a" if a < b else "b"

    played = play(t, org, decide)
    assert played[-2:] == ["GF", "GF2"]
    bracket, results, _ = knockout_state(t, None)
    assert ko.champion(bracket, results) == 1
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_double_elimination_without_a_reset_when_the_winners_champion_wins(client):
    t, org = cup(4, double_elimination=True)
    played = play(t, org, lambda a, b, _m: "a" if a < b else "b")
    assert played[-1] == "GF" and "GF2" not in played


def test_progressive_consolation_is_played_to_its_own_winner(client):
    t, org = cup(8, progressive_consolation=True)
    played = play(t, org, lambda a, b, _m: "a" if a < b else "b")
    assert {"P1-1", "P1-2", "P2-1", "P2-2", "P3-1"} <= set(played)
    bracket, results, _ = knockout_state(t, None)
    # Lower numbers always win: 5..8 lose first, 5 and 6 win their consolation round, then
    # meet the semi-final losers 3 and 4 — who win; 3 beats 4 for the consolation.
    assert ko.side_champion(bracket, results, ko.PROGRESSIVE) == 3
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_each_bracket_is_drawn_on_its_own_with_empty_slots(client):
    t, org = cup(6, double_elimination=True)
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    body = client.get(reverse("public-bracket", kwargs={"slug": t.slug})).content.decode()
    for heading in ("Main draw|Основная сетка", "Losers|Сетка проигравших", "Grand final|Суперфинал"):
        assert re.search(f"<h2>({heading})", body), heading
    assert body.count('<svg class="bracket"') == 3
    bracket, _results, _ = knockout_state(t, None)
    assert body.count("<rect") == len(bracket.matches)  # every match, played or not
    assert re.search(r"(winner of|победитель) M1-", body)  # slots not yet decided
    # Coordinates are plain numbers even in Russian (no decimal comma inside translate()).
    assert re.findall(r'translate\(([^)]*)\)', body) and all(
        re.fullmatch(r"[\d.]+,[\d.]+", xy) for xy in re.findall(r'translate\(([^)]*)\)', body)
    )
    client.force_login(org)
    sheet = client.get(reverse("print-bracket", kwargs={"slug": t.slug})).content.decode()
    assert sheet.count('<svg class="bracket"') == 3 and "Боец1" in sheet


def test_unreachable_bracket_slots_are_not_drawn(client):
    """Five players, progressive consolation: seeds 1–3 have byes, so the losers of M1-1, M1-3
    and M1-4 do not exist. P1-2 (loser of M1-3 v loser of M1-4) can never be played and is not
    drawn; no slot waits for "the loser of" a bye or "the winner of" P1-2."""
    t, org = cup(5, progressive_consolation=True)
    bracket, _results, _ = knockout_state(t, None)
    assert bracket is None  # drawn with round 1
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    bracket, _results, _ = knockout_state(t, None)
    dead = ko.unreachable(bracket)
    assert {("P1-1", "a"), ("P1-2", "a"), ("P1-2", "b"), ("P2-2", "a")} <= dead
    assert ("P1-1", "b") not in dead and ("M2-1", "a") not in dead
    for language, loser, winner in (("en", "loser of", "winner of"), ("ru", "проигравший", "победитель")):
        body = client.get(reverse("public-bracket", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert body.count("<rect") == len(bracket.matches) - 1  # every match but P1-2
        for bye in ("M1-1", "M1-3", "M1-4"):
            assert f"{loser} {bye}<" not in body, bye
        assert f"{winner} P1-2<" not in body and ">P1-2<" not in body
        assert f"{loser} M1-2<" in body  # a slot still to be decided stays
