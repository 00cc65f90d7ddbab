"""A withdrawal in a round robin settles every remaining game of the player — published and
draft rounds alike — the way the director chose, so every round can be published and closed
(issue 35). The standings then follow FIDE C.06 and count the free round as no game."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.test import APIClient

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
)
from tournaments.api.tables import crosstable_data, standings_data
from tournaments.entries import status as entry_status
from tournaments.models import (
    CompetitionSystem,
    Match,
    OfficialRole,
    ResultKind,
    ResultStatus,
    RoundStatus,
)
from tournaments.rounds import pairing_manager as pm
from tournaments.standings_service import load_event

pytestmark = pytest.mark.django_db


def _round_robin(slug: str, n: int, cycles: int):
    director = UserFactory()
    t = TournamentFactory(
        name=slug, slug=slug, starts_on=dt.date(2026, 1, 10), system=CompetitionSystem.ROUND_ROBIN,
        bare=True, pairing_options={"cycles": cycles}, public=True,
    )
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    entries = [
        EntryFactory(tournament=t, draw_number=i, player__last_name=f"Круг{slug}{i}")
        for i in range(1, n + 1)
    ]
    rounds = pm.generate_next(t, user=director)
    return t, director, entries, rounds


def _his_open(entry) -> list[Match]:
    return list(
        Match.objects.filter(entry_a=entry).exclude(result_status=ResultStatus.CONFIRMED)
    ) + list(Match.objects.filter(entry_b=entry).exclude(result_status=ResultStatus.CONFIRMED))


@pytest.mark.parametrize("settle", ["forfeit", "void"])
def test_withdrawing_after_cycle_one_settles_every_draft_game_of_cycle_two(settle):
    t, director, entries, rounds = _round_robin(f"rrw-{settle}", 4, 2)
    for rnd in rounds[:3]:  # cycle 1 played and closed
        pm.publish_round(rnd, user=director)
        confirm_round(rnd)
        rnd.status = RoundStatus.FINISHED
        rnd.save()
    gone = entries[3]
    entry_status.withdraw(gone, director, "ill", settle=settle)
    assert _his_open(gone) == []
    later = Match.objects.filter(round__in=rounds[3:]).filter(entry_b__isnull=False)
    his = [m for m in later if gone.pk in (m.entry_a_id, m.entry_b_id)]
    assert len(his) == 3
    for m in his:
        assert m.result_status == ResultStatus.CONFIRMED
        if settle == "forfeit":
            assert m.result_kind == ResultKind.FORFEIT
            assert m.winner == ("b" if m.entry_a_id == gone.pk else "a")
        else:
            assert m.result_kind == ResultKind.VOID
    # Every later round is published and closes as soon as the other table is confirmed.
    for rnd in rounds[3:]:
        pm.publish_round(rnd, user=director)
        for m in rnd.matches.exclude(result_status=ResultStatus.CONFIRMED):
            assert gone.pk not in (m.entry_a_id, m.entry_b_id)
        confirm_round(rnd)
        rnd.refresh_from_db()
        assert rnd.matches.exclude(result_status=ResultStatus.CONFIRMED).count() == 0
    # Played 3 of 6: half, so his results count (FIDE C.06); the forfeits are marked losses.
    table = load_event(t).standings[""]
    assert table.row(gone.pk).counted


def test_withdrawing_in_round_one_leaves_him_out_of_the_standings_but_not_the_crosstable():
    """FIDE C.06: fewer than half of his games played — not counted; the played game stays."""
    t, director, entries, rounds = _round_robin("rrw-early", 4, 1)
    pm.publish_round(rounds[0], user=director)
    confirm_round(rounds[0], winner_of=lambda m: "a")
    gone = next(e for e in entries if rounds[0].matches.filter(entry_a=e).exists())
    entry_status.withdraw(gone, director, "left", settle="forfeit")
    assert _his_open(gone) == []
    for rnd in rounds[1:]:
        pm.publish_round(rnd, user=director)
        confirm_round(rnd)
    event = load_event(t)
    table = event.standings[""]
    row = table.row(gone.pk)
    assert not row.counted and row.place_label == "—" and table.rows[-1] is row
    standing = next(r for r in standings_data(event)["sections"][0]["rows"] if r["entry"] == gone.pk)
    assert standing["counted"] is False and standing["place"] == "—"
    # His win still shows in the public crosstable.
    data = crosstable_data(event)
    mine = next(r for r in data["sections"][0]["rows"] if r["entry"] == gone.pk)
    assert any(c["outcome"] == "win" and not c["text"].startswith("+") for c in mine["cells"])


def test_a_round_whose_every_game_the_withdrawal_settled_closes_when_published():
    """3 players: each round has one match and a free round; after player 3 leaves, the rounds
    where he plays have nothing left to play and close as soon as they are published."""
    t, director, entries, rounds = _round_robin("rrw-three", 3, 1)
    pm.publish_round(rounds[0], user=director)
    gone = entries[2]
    entry_status.withdraw(gone, director, "left", settle="forfeit")
    for rnd in rounds:
        rnd.refresh_from_db()
        if rnd.status == RoundStatus.DRAFT:
            pm.publish_round(rnd, user=director)
        rnd.refresh_from_db()
        his = rnd.matches.filter(entry_b__isnull=False).filter(entry_a=gone).exists() or \
            rnd.matches.filter(entry_b=gone).exists()
        if his:
            assert rnd.status == RoundStatus.FINISHED, rnd.number


def test_a_round_robin_bye_is_no_game_in_the_standings():
    """5 players: whoever loses every match has 0 wins and 0 Sonneborn-Berger (the bye adds
    nothing), and the API shows exact numbers."""
    t, director, entries, rounds = _round_robin("rrw-bye", 5, 1)
    t.tiebreaks = ["wins", "points", "sonneborn_berger"]
    t.save()
    by_number = {e.pk: e.draw_number for e in entries}
    for rnd in rounds:
        pm.publish_round(rnd, user=director)
        # The lower draw number wins every match.
        confirm_round(rnd, winner_of=lambda m: "a" if by_number[m.entry_a_id] < by_number[m.entry_b_id] else "b")
    table = load_event(t).standings[""]
    last = table.row(entries[4].pk)
    assert last.values["wins"] == 0 and last.values["sonneborn_berger"] == 0
    assert [table.row(e.pk).values["wins"] for e in entries] == [4, 3, 2, 1, 0]
    # The API gives the same numbers as JSON numbers (exact decimals, never a float tail).
    body = APIClient().get(f"/api/tournaments/{t.slug}/standings/").content.decode()
    rows = json.loads(body)["sections"][0]["rows"]
    shown = {r["entry"]: {v["key"]: v["value"] for v in r["values"]} for r in rows}
    assert shown[entries[4].pk] == {"wins": 0, "points": 4, "sonneborn_berger": 0}  # 1 point a loss
    assert shown[entries[0].pk]["sonneborn_berger"] == 3 + 2 + 1 + 0  # the beaten players' wins
    assert "99999" not in body and "00001" not in body
