"""Issue 43, the chief arbiter's cases: standings, crosstable and prizes, through the real services."""

import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from scoring import workflow
from scoring.models import SanctionKind
from scoring.rules.errors import RuleViolation
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    ResultFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
    swiss_event,
)
from tournaments import cache as page_cache
from tournaments.entries import status as entry_status
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import Entry, Match, OfficialRole, Prize, Round, TournamentStatus
from tournaments.prizes import services as prizes
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.swiss import requests as swiss_requests
from tournaments.standings import build_crosstable, build_round_crosstable
from tournaments.standings_service import load_event, prize_awards

pytestmark = pytest.mark.django_db


def _table(tournament):
    [table] = load_event(tournament).standings.values()
    return table


def test_a_tiebreak_list_without_the_main_score_still_ranks_by_the_score_first():
    """The API schema's own example (``"tiebreaks": ["buchholz"]``): after round 1 of a
    4-player Swiss both winners are 1–2 and both losers 3–4 — Buchholz alone ranked the
    losers (whose opponents won) first."""
    t = swiss_event(4, rounds_done=1, open_round=False, tiebreaks=["buchholz"])
    table = _table(t)
    winners = set(Match.objects.filter(round__tournament=t).values_list("entry_a_id", flat=True))
    assert {r.player.id for r in table.rows if r.place_label == "1–2"} == winners
    assert {r.player.id for r in table.rows if r.place_label == "3–4"} == set(
        Entry.objects.filter(tournament=t).exclude(pk__in=winners).values_list("pk", flat=True)
    )
    assert table.options.tiebreaks == ("wins", "buchholz")


def test_a_round_published_with_a_bye_and_no_result_does_not_move_buchholz():
    """Round 1 closed, round 2 published with its bye and no result yet: Buchholz stays what
    round 1 made it (FIDE C.07: only rounds played count; the bye of round 2 is no result)."""
    t = swiss_event(4, rounds_done=1, open_round=False)
    entries = list(Entry.objects.filter(tournament=t).order_by("draw_number"))
    before = {r.player.id: r.values["buchholz"] for r in _table(t).rows}
    rnd = RoundFactory(tournament=t, number=2)
    MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[2])
    MatchFactory(round=rnd, table=2, entry_a=entries[1], entry_b=None, bye=True, score_a=1)
    Round.objects.filter(pk=rnd.pk).update(status="published")
    after = {r.player.id: r.values["buchholz"] for r in _table(t).rows}
    assert after == before


# --- helpers for the sanctioned and withdrawn cases ----------------------------------------


def _director(t, name: str):
    user = UserFactory(username=name)
    OfficialFactory(tournament=t, user=user, role=OfficialRole.ORGANISER)
    return user


def _prized_event(slug: str):
    """4 players, round 1 played (draws 1 and 3 win 5:2), finished; by wins only the winners
    share 1–2 and pool 1000 + 600."""
    t = swiss_event(4, slug=slug, rounds_done=1, open_round=False, tiebreaks=["wins"],
                    status=TournamentStatus.FINISHED, prize_fund=Decimal("1600"))  # fmt: skip
    Prize.objects.create(tournament=t, place=1, amount=Decimal("1000"))
    Prize.objects.create(tournament=t, place=2, amount=Decimal("600"))
    return t, list(Entry.objects.filter(tournament=t).order_by("draw_number"))


def _workbook_rows(t, sheet: str):
    out = io.BytesIO()
    build_workbook(t, out, "en")
    return list(load_workbook(io.BytesIO(out.getvalue()))[sheet].iter_rows(values_only=True))


def test_a_disqualified_player_has_no_place_and_no_prize(client):
    """Disqualified with his past results kept: no place, out of the shared range, no prize —
    on the page, in the API's table and in Excel, whose Players sheet says "disqualified"; his
    game stays in the crosstable. The standings read before the sanction are not served after
    it (the sanction moves the standings' version)."""
    t, entries = _prized_event("dq-prize")
    director = _director(t, "dq-director")
    first = _table(t)  # a kept read before the sanction
    assert {first.row(entries[0].pk).place_label, first.row(entries[2].pk).place_label} == {"1–2"}
    assert client.get("/t/dq-prize/standings/").status_code == 200  # the page cached, too
    workflow.record_sanction(t, entries[0], director, kind=SanctionKind.DISQUALIFICATION,
                             reason="cheating", past="keep")  # fmt: skip

    table = _table(t)
    out = table.row(entries[0].pk)
    assert out.place_label == "—" and not out.placed and out.excluded
    assert table.rows[-1].player.id == entries[0].pk
    assert table.row(entries[2].pk).place_label == "1"  # alone, no longer "1–2"
    awards = prize_awards(load_event(t)).amounts
    assert entries[0].pk not in awards
    assert awards[entries[2].pk] == Decimal("1000.00")
    assert sum(awards.values()) == Decimal("1600.00")  # place 2's 600: the next players, level, pool it

    page = client.get("/t/dq-prize/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1–2" not in page and "(disqualified)" in page
    api_rows = client.get("/api/tournaments/dq-prize/standings/").json()["sections"][0]["rows"]
    [api_row] = [r for r in api_rows if r["entry"] == entries[0].pk]
    assert (api_row["place"], api_row["removal"]) == ("—", "disqualified")
    assert "1–2" not in {r["place"] for r in api_rows}
    players = _workbook_rows(t, "Players")
    status = {r[0]: r[-1] for r in players if r and r[0] in (1, 2, 3, 4)}
    assert status == {1: "disqualified", 2: None, 3: None, 4: None}
    standings = _workbook_rows(t, "Standings")
    names = {r[3]: r for r in standings if r and len(r) > 3 and r[2] in (1, 2, 3, 4)}
    assert any(r[0] == "—" for r in names.values())
    assert "1–2" not in {str(c) for r in standings for c in r if c is not None}
    crosstable = _workbook_rows(t, "Crosstable")
    assert any("5:2" in str(c) or "2:5" in str(c) for r in crosstable for c in r if c)


def test_a_withdrawal_a_sanction_and_a_ruling_each_move_the_standings_version():
    """A kept read after each: every one of them changes what the standings show at once."""
    t, entries = _prized_event("versions")
    director = _director(t, "versions-director")
    _table(t)
    before = page_cache.version(t.pk)
    entry_status.withdraw(entries[1], director, reason="left")
    assert page_cache.version(t.pk) != before
    assert _table(t).row(entries[1].pk).player.withdrawn
    assert entries[1].pk not in prize_awards(load_event(t)).amounts

    before = page_cache.version(t.pk)
    workflow.record_sanction(t, entries[3], director, kind=SanctionKind.WARNING, reason="talking")
    assert page_cache.version(t.pk) != before

    before = page_cache.version(t.pk)
    workflow.record_sanction(t, entries[3], director, kind=SanctionKind.DISQUALIFICATION, reason="again")
    assert page_cache.version(t.pk) != before
    assert _table(t).row(entries[3].pk).place_label == "—"

    match = Match.objects.get(round__tournament=t, entry_a=entries[2])
    result = ResultFactory(match=match, score_a=5, score_b=2, state="confirmed", reported_by=director)
    player = entries[3].player
    player.user = UserFactory(username="versions-disputer")
    player.save(update_fields=["user"])
    dispute = workflow.dispute_result(match.pk, result.pk, player.user, version=match.version, reason="no")
    match.refresh_from_db()
    kept = _table(t)
    assert kept.row(entries[2].pk).values["wins"] == 1
    workflow.rule_dispute(dispute.pk, director, outcome="replace", ruling="by the sheet: 2:5",
                          version=match.version, final=(2, 5))  # fmt: skip
    assert _table(t).row(entries[2].pk).values["wins"] == 0


def test_a_round_robin_crosstable_leaves_an_uncounted_withdrawal_out_of_the_totals(client):
    """FIDE C.06 5.4.1: a player who withdrew before playing half of his games is not counted.
    The crosstable keeps his games for the record, but "Итого" leaves them out (agreeing with
    the standings), shows "—" for him and says why — on the page and in Excel."""
    t = TournamentFactory(slug="rr-gone", system="round_robin", rounds_planned=3, tiebreaks=["points"])
    entries = enter(t, [{"last_name": f"Круг{i}", "first_name": "Игрок"} for i in range(4)])
    rnd = RoundFactory(tournament=t, number=1)
    MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[1], confirmed=True)  # 5:2
    MatchFactory(round=rnd, table=2, entry_a=entries[2], entry_b=entries[3], confirmed=True)
    Entry.objects.filter(pk=entries[1].pk).update(status="withdrawn")
    page_cache.invalidate(t.pk)
    event = load_event(t)
    [table] = event.standings.values()
    assert not table.row(entries[1].pk).counted
    assert table.row(entries[0].pk).values["points"] == 0  # his win over the uncounted player left out
    grid = build_crosstable(event.players, event.matches, standings=table)
    i = grid.players.index(next(p for p in grid.players if p.id == entries[0].pk))
    assert grid.totals[i] == 0 and "5:2" in "".join(grid.text(r, i) for r in range(4))
    assert grid.total_text(grid.players.index(next(p for p in grid.players if p.id == entries[1].pk))) == "—"
    page = client.get("/t/rr-gone/crosstable/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Not counted: Krug1" in page or "Not counted:" in page
    rows = _workbook_rows(t, "Crosstable")
    assert any(str(c).startswith("Not counted") for r in rows for c in r if c)


def test_the_excel_crosstable_totals_include_penalties_as_the_page_does():
    """A penalty point on the tournament score: the standings sheet shows "0*", and so does the
    crosstable's total by rounds (it used to show the running total without the penalty)."""
    t = swiss_event(4, slug="penalised", rounds_done=1, open_round=False)
    director = _director(t, "penalty-director")
    loser = Entry.objects.get(tournament=t, draw_number=2)
    workflow.record_sanction(t, loser, director, kind=SanctionKind.WARNING, reason="slow")
    workflow.record_sanction(t, loser, director, kind=SanctionKind.PENALTY, reason="slow again", points=1)
    winner = Entry.objects.get(tournament=t, draw_number=1)
    workflow.record_sanction(t, winner, director, kind=SanctionKind.WARNING, reason="slow")
    workflow.record_sanction(t, winner, director, kind=SanctionKind.PENALTY, reason="slow again", points=1)
    rows = _workbook_rows(t, "Crosstable")
    header = next(r for r in rows if r and "Player" in r)
    total = header.index("Total")
    by_name = {r[3].split()[-1]: r[total] for r in rows[rows.index(header) + 1:] if r and r[3]}
    assert by_name[winner.player.last_name_latin] == "0*"
    assert by_name[loser.player.last_name_latin] == "-1*"


def test_a_requested_half_point_bye_shows_as_half_a_point_in_the_crosstable():
    """A bye asked for in advance scores ½ (the organiser's rule): "bye ½" in the crosstable by
    rounds and in Excel, not the bare "bye" of a full-point pairing bye."""
    t = TournamentFactory(slug="half-bye", pairing_options={"half_bye_points": 0.5}, seeding="rating")
    director = _director(t, "half-bye-director")
    entries = enter(t, [{"last_name": f"Бай{i}", "first_name": "Игрок"} for i in range(5)])
    swiss_requests.request_bye(entries[2], 1, director)
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    event = load_event(t)
    [table] = event.standings.values()
    rounds = build_round_crosstable(event.players, event.matches, standings=table)
    row = next(r for r in rounds.rows if r.player.id == entries[2].pk)
    assert row.cells[0].text("en") == "bye ½" and row.cells[0].text("ru") == "своб. ½"
    assert row.total == 0.5
    rows = _workbook_rows(t, "Crosstable")
    assert "bye ½" in {str(c) for r in rows for c in r if c}


def test_a_withdrawn_player_keeps_his_place_but_his_prize_share_goes_down_the_table(client):
    """He left before the end: still on the table at his place, but no prize; the places' prizes
    go to the eligible players as if he were not there (one function for the page, the API and
    Excel: ``tournaments.standings.prizes.eligible``)."""
    t, entries = _prized_event("withdrawn-prize")
    director = _director(t, "withdrawn-prize-director")
    winner, other = entries[0], entries[2]
    entry_status.withdraw(winner, director, reason="left early")
    table = _table(t)
    assert table.row(winner.pk).place_label == "1–2"  # his results stand: he keeps his place
    awards = prize_awards(load_event(t)).amounts
    assert winner.pk not in awards
    assert awards[other.pk] == Decimal("1000.00")
    assert awards[entries[1].pk] == awards[entries[3].pk] == Decimal("300.00")  # 2nd's 600, level
    standings = _workbook_rows(t, "Standings")
    paid = sorted(float(r[-1]) for r in standings if r and len(r) > 4 and r[2] in (1, 2, 3, 4) and r[-1] not in ("", None))
    assert paid == [300.0, 300.0, 1000.0]


def test_a_prize_beyond_the_formed_fund_is_refused_when_no_fund_is_announced():
    """No fund announced: the fund formed from the fees and the sponsors caps the table (the
    manual, organiser/prizes, "The prize fund and the prizes": never above the fund); refused
    with a coded problem, RU and EN, nothing saved."""
    t = swiss_event(4, slug="formed-cap", rounds_done=0, open_round=False, sponsor_money=Decimal("1000"))
    director = _director(t, "formed-cap-director")
    prizes.set_prize(t, director, section=None, place=1, amount=Decimal("700"))
    with pytest.raises(RuleViolation) as refused:
        prizes.set_prize(t, director, section=None, place=2, amount=Decimal("400"))
    [problem] = refused.value.problems
    assert problem.code == "standings.prizes_over_formed_fund"
    assert "1100" in problem.message("en") and "Сумма призов 1100" in problem.message("ru")
    assert not Prize.objects.filter(tournament=t, place=2).exists()
