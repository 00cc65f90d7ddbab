"""Test data built with factory_boy: one place that knows how to make a valid object.

Tests ask for what matters to them (``MatchFactory(round__status="draft")``) and
get every other field valid by default, instead of each file growing its own
``Tournament.objects.create(...)`` helpers.
"""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Player
from scoring.models import Result, ResultState
from tournaments.models import (
    Entry,
    Match,
    Official,
    OfficialRole,
    Round,
    RoundStatus,
    Tournament,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("zarik-test")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Клуб {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    last_name = factory.Sequence(lambda n: f"Игроков{n:03d}")
    first_name = "Пётр"
    last_name_latin = factory.Sequence(lambda n: f"Igrokov{n:03d}")
    first_name_latin = "Petr"


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Турнир {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    starts_on = dt.date(2026, 3, 1)
    public = True
    system = "swiss"
    match_length = 5
    rounds_planned = 5


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    draw_number = factory.Sequence(lambda n: n + 1)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    status = RoundStatus.PUBLISHED


class MatchFactory(factory.django.DjangoModelFactory):
    """A pending match between two new entries of the round's tournament."""

    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    entry_a = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..round.tournament"))
    entry_b = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..round.tournament"))


class OfficialFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Official

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = OfficialRole.REFEREE


class ResultFactory(factory.django.DjangoModelFactory):
    """A player's report of a 5:2 win for side A."""

    class Meta:
        model = Result

    match = factory.SubFactory(MatchFactory)
    score_a = 5
    score_b = 2
    state = ResultState.REPORTED
