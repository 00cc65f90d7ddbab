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
    Game,
    Match,
    Official,
    OfficialRole,
    RatingChange,
    ResultStatus,
    Round,
    RoundStatus,
    Section,
    Team,
    TeamMember,
    Tournament,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("zarik-test")

    class Params:
        admin = factory.Trait(is_staff=True, is_superuser=True)


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

    class Params:
        # Only a last name (and what the test passes), like a player typed in a hurry.
        short = factory.Trait(first_name="", last_name_latin="", first_name_latin="")


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

    class Params:
        # The model's own defaults: not released, no number of rounds planned.
        bare = factory.Trait(public=False, rounds_planned=None)


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Группа {n}")


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

    class Params:
        draft = factory.Trait(status=RoundStatus.DRAFT)
        finished = factory.Trait(status=RoundStatus.FINISHED)


def _winner(match) -> str:
    if match.score_a is None or match.score_b is None or match.score_a == match.score_b:
        return ""
    return "a" if match.score_a > match.score_b else "b"


class MatchFactory(factory.django.DjangoModelFactory):
    """A pending match between two new entries of the round's tournament."""

    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    entry_a = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..round.tournament"))
    entry_b = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..round.tournament"))

    class Params:
        # A result on the match itself; the winner follows the score (5:2 for A unless told).
        scored = factory.Trait(score_a=5, score_b=2, winner=factory.LazyAttribute(_winner))
        confirmed = factory.Trait(scored=True, result_status=ResultStatus.CONFIRMED)
        bye = factory.Trait(entry_b=None)


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    match = factory.SubFactory(MatchFactory)
    number = factory.Sequence(lambda n: n + 1)
    winner = "a"
    kind = "single"


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Команда {n}")


class TeamMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamMember

    team = factory.SubFactory(TeamFactory)
    entry = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..team.tournament"))
    board = 1


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


# --- results and whole events -----------------------------------------------------------------------------


def confirm_round(rnd: Round, *, winner_of=None, loser_score: int = 1) -> None:
    """Confirm every result of a round by direct model writes (as a referee would end up).

    The winner scores the match length (5 if unset); by default A wins at odd tables.
    """
    for m in rnd.matches.filter(entry_b__isnull=False):
        side = winner_of(m) if winner_of else ("a" if m.table % 2 else "b")
        length = m.match_length or 5
        m.score_a, m.score_b = (length, loser_score) if side == "a" else (loser_score, length)
        m.winner = side
        m.result_status = ResultStatus.CONFIRMED
        m.save()


def enter(tournament: Tournament, players, *, first_number: int | None = 1, **entry) -> list[Entry]:
    """Enter ``players`` (Player objects, or dicts of PlayerFactory fields) one by one.

    Draw numbers run from ``first_number`` (``None``: no numbers drawn yet).
    """
    entries = []
    for i, player in enumerate(players):
        if isinstance(player, dict):
            player = PlayerFactory(**player)
        number = None if first_number is None else first_number + i
        entries.append(EntryFactory(tournament=tournament, player=player, draw_number=number, **entry))
    return entries


def swiss_event(
    size: int,
    *,
    slug: str | None = None,
    rounds_done: int = 2,
    open_round: bool = True,
    public: bool = True,
    **fields,
) -> Tournament:
    """A Swiss of ``size`` players, Игроков000 Пётр (Igrokov000 Petr) and on.

    Rounds 1..``rounds_done`` are finished (A wins 5:2 at every table), then, with
    ``open_round``, one more round is published with its results pending. Round ``n``
    pairs entry ``2k`` with entry ``2k + 2n - 1``: a different opponent each round.
    Rows go in with ``bulk_create``, so hundreds of players cost a handful of queries.
    """
    t = TournamentFactory(
        **{"name": f"Swiss {size}", "public": public, **({"slug": slug} if slug else {}), **fields}
    )
    players = Player.objects.bulk_create(
        PlayerFactory.build(last_name=f"Игроков{i:03d}", last_name_latin=f"Igrokov{i:03d}")
        for i in range(size)
    )
    entries = Entry.objects.bulk_create(
        EntryFactory.build(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(players)
    )
    for number in range(1, rounds_done + 1 + int(open_round)):
        finished = number <= rounds_done
        rnd = RoundFactory(tournament=t, number=number, finished=finished)
        step = 2 * number - 1
        Match.objects.bulk_create(
            MatchFactory.build(
                round=rnd,
                table=k + 1,
                entry_a=entries[2 * k],
                entry_b=entries[(2 * k + step) % size],
                confirmed=finished,
            )
            for k in range(size // 2)
        )
    return t


def rated_on(player: Player, day: dt.date, *, pool: str = "backgammon", public: bool = True):
    """A rated match ``player`` won on ``day`` in a released (``public``) event, with its rating change.

    Only the change's date matters to the lists ("last rated match", "active in the last N months"
    read it from the changes of released events); the numbers are left as the test stored them.
    """
    event = TournamentFactory(starts_on=day, public=public, rated=True)
    a, b = enter(event, [player, PlayerFactory()])
    match = MatchFactory(round=RoundFactory(tournament=event, number=1), table=1, entry_a=a, entry_b=b,
                         confirmed=True, score_a=5, score_b=1, winner="a")  # fmt: skip
    return RatingChange.objects.create(
        match=match, player=player, opponent=b.player, pool=pool, sequence=match.pk, played_on=day, length=5,
        score_for=5, score_against=1, result=1, expected=0.5, rating_before=1500, rating_after=1510,
        experience_before=0,
    )  # fmt: skip
