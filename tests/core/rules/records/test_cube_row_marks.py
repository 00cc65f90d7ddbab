"""The book's cube row is read by its marks, not its column order (issue 46): the offer
(with ×) comes first whichever column it stands in; the take (no ×) answers it."""

from __future__ import annotations

from scoring.rules.records.events import CubeEvent
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import replay

HEAD = "Партия №9. Бэкгэммон.\n\n№ хода\tБелые:\tЧёрные:\n1.\t6–2 13/7, 13/11\t4–1 12/16/17\n"


def _cube_kinds(text: str) -> list[tuple[str, str]]:
    record = parse_record(text)
    return [(e.side, e.actions[0].kind) for e in record.events if isinstance(e, CubeEvent)]


def test_an_answer_left_of_its_offer_is_read_after_the_offer():
    text = HEAD + "2.\t6–1 13/7, 11/10\t\n\tD2\tD2x\n\t...\t4–2 17/21, 19/21\n3.\t6–5 24/18/13\t\n"
    assert _cube_kinds(text) == [("black", "offer"), ("white", "take")]
    report = replay(parse_record(text))
    assert report.errors == []


def test_an_offer_left_of_its_answer_keeps_the_column_order():
    text = HEAD + "2.\tD2x\tD2\n\t6–1 13/7, 11/10\t4–2 17/21, 19/21\n"
    assert _cube_kinds(text) == [("white", "offer"), ("black", "take")]
    assert replay(parse_record(text)).errors == []


def test_a_take_of_another_value_is_not_moved_before_the_offer():
    """Only an answer to that very offer (same face) is read after it; anything else stays as
    printed and the replay says what is wrong with it."""
    text = HEAD + "2.\t6–1 13/7, 11/10\t\n\tD4\tD2x\n"
    assert _cube_kinds(text) == [("white", "take"), ("black", "offer")]
    assert [p.code for p in replay(parse_record(text)).errors][:1] == ["match.no_offer"]
