"""A score read from the database: whole as an int, a half as a Decimal (issue 15), whatever the path."""

from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tournaments.models import ScoreField

halves = st.integers(min_value=-2000, max_value=2000).map(lambda n: Decimal(n) / 2)


@given(halves, st.sampled_from([0, 1, 2]))
def test_a_stored_score_reads_as_int_when_whole_and_as_its_half_otherwise(value, places):
    stored = value.quantize(Decimal(1).scaleb(-places)) if places else value  # 5, 5.0, 5.00 as the column gives it
    if value != stored:
        return
    read = ScoreField().from_db_value(stored, None, None)
    assert read == value
    if value == int(value):
        assert type(read) is int
    else:
        assert type(read) is Decimal and str(read) == str(value.normalize())
    assert read == ScoreField.tidy(Fraction(str(value)))  # the same as a Fraction's (a drawn game's ½)
