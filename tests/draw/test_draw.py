"""The open draw of numbers: random, but reproducible by anyone from the published seed."""

import datetime as dt

import pytest
from django.core.management import CommandError, call_command

from tests.factories import TournamentFactory, enter
from tournaments.draw.numbers import draw_numbers
from tournaments.draw.services import perform_draw, verify_draw
from tournaments.models import EntryStatus


def test_same_seed_same_numbers():
    keys = [str(i) for i in range(30)]
    assert draw_numbers("abc123", keys) == draw_numbers("abc123", keys)
    assert sorted(draw_numbers("abc123", keys)) == list(range(1, 31))


def test_different_seeds_give_different_draws():
    keys = [str(i) for i in range(30)]
    assert draw_numbers("seed-1", keys) != draw_numbers("seed-2", keys)


@pytest.fixture
def tournament(db):
    t = TournamentFactory(name="Open", slug="open", starts_on=dt.date(2026, 3, 1), bare=True)
    enter(t, [{"last_name": f"П{i}", "short": True} for i in range(10)], first_number=None)
    return t


def test_draw_assigns_each_active_entry_a_unique_number_and_stores_seed(tournament):
    withdrawn = tournament.entries.first()
    withdrawn.status = EntryStatus.WITHDRAWN
    withdrawn.save()
    draw = perform_draw(tournament, seed="feedbeef")
    numbers = list(tournament.entries.exclude(pk=withdrawn.pk).values_list("draw_number", flat=True))
    assert sorted(numbers) == list(range(1, 10))
    assert tournament.entries.get(pk=withdrawn.pk).draw_number is None
    assert draw.seed == "feedbeef" and draw.performed_at is not None
    assert verify_draw(draw)


def test_redraw_with_same_seed_gives_same_numbers(tournament):
    perform_draw(tournament, seed="s1")
    first = dict(tournament.entries.values_list("pk", "draw_number"))
    perform_draw(tournament, seed="other")
    perform_draw(tournament, seed="s1")
    assert dict(tournament.entries.values_list("pk", "draw_number")) == first


def test_tampered_draw_does_not_verify(tournament):
    draw = perform_draw(tournament, seed="s1")
    draw.numbers = list(reversed(draw.numbers))
    assert not verify_draw(draw)


def test_command_draws_and_verifies(tournament, capsys):
    call_command("draw_numbers", "open", "--seed", "cafe")
    out = capsys.readouterr().out
    assert "cafe" in out
    call_command("draw_numbers", "open", "--verify")
    assert "verified" in capsys.readouterr().out


def test_command_names_an_unknown_tournament(db):
    with pytest.raises(CommandError, match="nope"):
        call_command("draw_numbers", "nope")
