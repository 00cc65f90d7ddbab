"""Entry fees at the desk and the prize fund (issue 15, item 10; the book's Part 9).

"Из этих вступительных взносов и спонсорских вложений формируется призовой
фонд": the desk records who paid, the organiser sets the fund, the prize per
place and the rule for tied places, and the standings and the Excel export
show who gets what.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory, swiss_event
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import AuditEntry, Entry, Prize, TournamentStatus
from tournaments.standings_service import load_event, prize_awards

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    # 4 players, round 1 played: draws 1 and 3 won 5:2; by wins only, 1–2 and 3–4 are shared
    club = ClubFactory(name="Зарик")
    return swiss_event(
        4, slug="cup", rounds_done=1, open_round=False, club=club, tiebreaks=["wins"],
        entry_fee=Decimal("500"), status=TournamentStatus.FINISHED,
    )


@pytest.fixture
def organiser(event, client):
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=event.club, user=user)
    client.force_login(user)
    return user


def url(name, **kw):
    return reverse(name, kwargs={"slug": "cup", **kw})


def test_the_desk_records_fees_audited_and_refuses_what_is_not_money(client, event, organiser):
    first, second = event.entries.order_by("draw_number")[:2]
    client.post(url("manage-entry-fee", entry_id=first.pk), {"fee_amount": "500", "fee_paid": "on"})
    # ticking "paid" with no amount takes the tournament's fee
    client.post(url("manage-entry-fee", entry_id=second.pk), {"fee_amount": "", "fee_paid": "on"})
    assert list(
        Entry.objects.filter(pk__in=[first.pk, second.pk]).values_list("fee_amount", "fee_paid")
    ) == [(Decimal("500.00"), True)] * 2
    audit = AuditEntry.objects.filter(action="entry.fee", object_id=str(first.pk)).get()
    assert audit.after["fee_paid"] is True and audit.before["fee_paid"] is False
    answer = client.post(
        url("manage-entry-fee", entry_id=first.pk), {"fee_amount": "пятьсот", "fee_paid": "on"},
        follow=True, HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "Уплаченный взнос должен быть денежной суммой" in answer.content.decode()
    assert Entry.objects.get(pk=first.pk).fee_amount == Decimal("500.00")
    page = client.get(url("manage-prizes"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 of 4 players paid; collected 1000.00." in page


def test_prizes_split_over_shared_places_and_show_on_standings_and_export(client, event, organiser):
    prizes = url("manage-prizes")
    assert client.post(prizes, {"form": "fund", "fund": "1000", "split": "equal"}).status_code == 302
    for place, amount in ((1, "600"), (2, "300"), (3, "99.99")):
        assert client.post(prizes, {"form": "prize", "place": place, "amount": amount}).status_code == 302
    # over the fund: refused with the core's reason, the input kept, nothing saved
    over = client.post(prizes, {"form": "prize", "place": 4, "amount": "50"}, HTTP_ACCEPT_LANGUAGE="en")
    text = over.content.decode()
    assert over.status_code == 400 and "more than the prize fund of 1000" in text and 'value="50"' in text
    assert not Prize.objects.filter(tournament=event, place=4).exists()
    assert AuditEntry.objects.filter(action="prize.set", tournament=event).count() == 3
    assert AuditEntry.objects.filter(action="prize.fund", tournament=event).exists()

    awards = prize_awards(load_event(event))
    by_number = {Entry.objects.get(pk=k).draw_number: v for k, v in awards.amounts.items()}
    # places 1–2 (draws 1 and 3) pool 900; places 3–4 pool 99.99 (one kopeck more to the first)
    assert by_number == {
        1: Decimal("450.00"), 3: Decimal("450.00"), 2: Decimal("50.00"), 4: Decimal("49.99")
    }
    assert awards.paid == Decimal("999.99") <= Decimal("1000")

    page = client.get(reverse("public-standings", kwargs={"slug": "cup"}), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert "<th>Prize</th>" in html and "450.00" in html and "49.99" in html

    out = io.BytesIO()
    build_workbook(event, out, "en")
    rows = list(load_workbook(io.BytesIO(out.getvalue()))["Standings"].iter_rows(values_only=True))
    header = next(r for r in rows if r and "Prize" in r)
    column = header.index("Prize")
    body = rows[rows.index(header) + 1:]
    paid = sorted(float(r[column]) for r in body if r and len(r) > column and r[column] not in ("", None))
    assert paid == [49.99, 50.0, 450.0, 450.0]


def test_by_tie_break_the_table_order_decides_and_lowering_the_fund_below_the_table_is_refused(
    client, event, organiser
):
    event.tiebreaks = ["wins", "h2h", "points"]
    event.prize_split = "tiebreak"
    event.sponsor_money = Decimal("1000")  # the fund formed: no prize beyond it (issue 43)
    event.save()
    prizes = url("manage-prizes")
    for place, amount in ((1, "600"), (2, "300")):
        client.post(prizes, {"form": "prize", "place": place, "amount": amount})
    refused = client.post(prizes, {"form": "fund", "fund": "800", "split": "tiebreak"})
    assert refused.status_code == 400 and "900" in refused.content.decode()
    event.refresh_from_db()
    assert event.prize_fund is None
