"""Invalidate a tournament's cached public pages whenever something on them changes.

Connected in :meth:`tournaments.apps.TournamentsConfig.ready`; the scoring app adds its
results with :func:`watch` in its own ``ready``. Each receiver
only has to find the tournament id — from the instance when the relation is
already loaded, otherwise with one small query — and bump its cache version. A saved
match bumps only the results and the match's round
(:func:`tournaments.cache.invalidate_results`): other rounds' pairings stay cached.
What hangs on a match (games, results, disputes) bumps the results only: a round's
pairings show the match's own fields, and a confirmation saves the match too.
"""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from clubs.models import Player

from .cache import invalidate, invalidate_results
from .models import (
    Entry,
    Game,
    Match,
    Prize,
    Round,
    RoundExplanation,
    Section,
    StandingsAdjustment,
    Team,
    TeamMember,
    Tournament,
)


def _cached(instance, field: str):
    """The related object if it is already loaded on ``instance``, else None (no query)."""
    descriptor = type(instance)._meta.get_field(field)
    return getattr(instance, field) if descriptor.is_cached(instance) else None


def _tournament_of_round(round_id: int | None) -> int | None:
    if round_id is None:
        return None
    return Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()


def _tournament_of_match(match: Match) -> int | None:
    rnd = _cached(match, "round")
    if rnd is not None:
        return rnd.tournament_id
    return _tournament_of_round(match.round_id)


def _tournament_of_match_id(match_id: int | None) -> int | None:
    if match_id is None:
        return None
    return Match.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True).first()


def _on_tournament(sender, instance: Tournament, **kwargs) -> None:
    invalidate(instance.pk)


def on_owned(sender, instance, **kwargs) -> None:
    """Section, Entry, Round (and the scoring app's sanctions): they carry ``tournament_id``
    themselves."""
    invalidate(instance.tournament_id)


def _on_match(sender, instance: Match, **kwargs) -> None:
    invalidate_results(_tournament_of_match(instance), instance.round_id)


def _on_explanation(sender, instance: RoundExplanation, **kwargs) -> None:
    """A stored explanation is shown on the round's pages (and its byes count in the standings)."""
    rnd = _cached(instance, "round")
    invalidate(rnd.tournament_id if rnd is not None else _tournament_of_round(instance.round_id))


def on_match_part(sender, instance, **kwargs) -> None:
    """Anything with a ``match`` foreign key: games here, results reported in the scoring app."""
    match = _cached(instance, "match")
    if match is not None:
        tournament_id = _tournament_of_match(match)
    else:
        tournament_id = _tournament_of_match_id(instance.match_id)
    invalidate_results(tournament_id, None)


def _on_team_member(sender, instance: TeamMember, **kwargs) -> None:
    """A line-up change: the team match on the pages names the boards."""
    team = _cached(instance, "team")
    tournament_id = (
        team.tournament_id
        if team is not None
        else Team.objects.filter(pk=instance.team_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is not None:
        invalidate(tournament_id)


def _on_player(sender, instance: Player, created: bool = False, **kwargs) -> None:
    """A renamed player changes every tournament they are entered in."""
    if created:
        return
    for tournament_id in set(
        Entry.objects.filter(player_id=instance.pk).values_list("tournament_id", flat=True)
    ):
        invalidate(tournament_id)


RECEIVERS = (
    (Tournament, _on_tournament),
    (Section, on_owned),
    (Entry, on_owned),
    (Round, on_owned),
    (RoundExplanation, _on_explanation),
    (Match, _on_match),
    (Game, on_match_part),
    (Player, _on_player),
    (StandingsAdjustment, on_owned),
    (Prize, on_owned),
    (Team, on_owned),
    (TeamMember, _on_team_member),
)


def watch(model, receiver) -> None:
    """Invalidate on every save and delete of ``model``; apps above this one watch their own models."""
    uid = f"zarik-public-cache-{model._meta.label_lower}"
    post_save.connect(receiver, sender=model, dispatch_uid=f"{uid}-save")
    post_delete.connect(receiver, sender=model, dispatch_uid=f"{uid}-delete")


def connect() -> None:
    for model, receiver in RECEIVERS:
        watch(model, receiver)
