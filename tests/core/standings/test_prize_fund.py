"""The prize fund as the book forms it (Part 9, line 45): entry fees and sponsors' money,
less the overheads; the warnings when prizes or an announced fund go beyond it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.prizes import FundFormation, fund_problems

money = st.integers(min_value=0, max_value=10**9)


@given(fees=money, sponsors=money, overheads=money, prizes=money)
def test_prize_fund_breakdown_warns_when_prizes_exceed_fund(fees, sponsors, overheads, prizes):
    formation = FundFormation(paid=3, fees=fees, sponsors=sponsors, overheads=overheads)
    assert formation.fund == max(fees + sponsors - overheads, 0)
    codes = [p.code for p in fund_problems(formation, prizes)]
    assert ("standings.prizes_over_formed_fund" in codes) == (prizes > formation.fund)
    assert ("standings.overheads_over_income" in codes) == (overheads > fees + sponsors)


def test_prize_fund_messages_name_the_sums_in_both_languages():
    formation = FundFormation(paid=4, fees=200_000, sponsors=500_000, overheads=100_000, fee=50_000)
    assert formation.fees_are_fee_times_paid and formation.fund == 600_000
    [over, announced] = fund_problems(formation, 650_000, announced=700_000)
    assert "6500, 500 more than the prize fund formed" in over.message("en")
    assert "Сумма призов 6500 на 500 больше призового фонда" in over.message("ru")
    assert "7000 is 1000 more" in announced.message("en")
    assert fund_problems(formation, 600_000, announced=600_000) == []
