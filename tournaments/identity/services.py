"""Merge two players who are one person: the organiser confirms, everything moves, ratings recompute.

:func:`merge` keeps ``keep`` and deletes ``gone`` after moving onto ``keep``:

* entries (so results, standings, seasons and prizes follow: they hang on entries);
* club memberships (an open membership of a club both are in becomes one, from the
  earlier start date), and the category history (it is ordered by date anyway);
* the user account, when only ``gone`` has one;
* the rating history: every :class:`~tournaments.models.RatingChange` of ``gone`` (as
  player or opponent) is ``keep``'s; each pool ``gone`` played in is then recomputed
  from ``gone``'s first rated match (``tournaments.ratings.service.recompute``), because
  one person's experience and rating now run through both halves in played order;
* empty details of ``keep`` (Latin names, email, year of birth, city, country) are
  filled from ``gone``; nothing ``keep`` already has is overwritten.

Refused (``merge.*``) when both were entered in one tournament (one person cannot play
twice in an event: they may even have played each other), when both have a user account,
or without a reason. Who may: a superuser, or an organiser of a club both players belong
(or belonged) to — or of the kept player's club when the other belongs to no club.
One audit line (``player.merge``) keeps both players' details as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Min

from clubs.models import CategoryChange, Club, Membership, Player, PlayerRating
from scoring.rules.errors import Problem
from tournaments import audit
from tournaments.access.permissions import allowed
from tournaments.cache import invalidate
from tournaments.models import Entry, RatingChange
from tournaments.ratings.service import recompute

from .problems import MERGE

#: Details filled on the kept player when theirs are empty.
FILLED = ("last_name_latin", "first_name_latin", "email", "birth_year", "city", "country")


class MergeRefused(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.code)


@dataclass
class Merged:
    """What the merge did, for the page to say."""

    player: Player
    entries: int = 0
    memberships: int = 0
    rating_changes: int = 0
    pools: list[str] = field(default_factory=list)
    filled: list[str] = field(default_factory=list)


def _clubs(player: Player) -> set[int]:
    return set(Membership.objects.filter(player=player).values_list("club_id", flat=True))


def may_merge(user, keep: Player, gone: Player) -> bool:
    """A superuser; or an organiser of a club both belong (or belonged) to, or of ``keep``'s
    club when ``gone`` belongs to no club (the rule is in the module docstring)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    keep_clubs, gone_clubs = _clubs(keep), _clubs(gone)
    shared = keep_clubs & gone_clubs if gone_clubs else keep_clubs
    return any(allowed(user, "club.manage", club) for club in Club.objects.filter(pk__in=shared))


def _refusal(keep: Player, gone: Player, reason: str) -> Problem | None:
    if keep.pk == gone.pk:
        return MERGE.problem("same_player")
    if not reason.strip():
        return MERGE.problem("reason")
    both = (
        Entry.objects.filter(player=keep, tournament__entries__player=gone)
        .values_list("tournament__name", flat=True)
        .distinct()
    )
    if both:
        return MERGE.problem("both_entered", keep=keep.full_name, gone=gone.full_name, events=", ".join(both))
    if keep.user_id and gone.user_id:
        return MERGE.problem("two_accounts", keep=keep.full_name, gone=gone.full_name)
    return None


def _move_memberships(keep: Player, gone: Player) -> int:
    moved = 0
    for membership in Membership.objects.filter(player=gone).order_by("pk"):
        open_here = None
        if membership.ended_on is None:
            open_here = Membership.objects.filter(player=keep, club_id=membership.club_id, ended_on__isnull=True).first()
        if open_here is not None:  # one open membership per club: the earlier start stands
            if membership.started_on < open_here.started_on:
                Membership.objects.filter(pk=open_here.pk).update(started_on=membership.started_on)
            membership.delete()
        else:
            Membership.objects.filter(pk=membership.pk).update(player=keep)
        moved += 1
    return moved


@transaction.atomic
def merge(keep: Player, gone: Player, user, reason: str) -> Merged:
    """Make ``gone`` part of ``keep`` (see the module docstring); raises :class:`MergeRefused`."""
    if not may_merge(user, keep, gone):
        raise PermissionDenied
    keep, gone = (Player.objects.select_for_update().get(pk=p.pk) for p in (keep, gone))
    problem = _refusal(keep, gone, reason)
    if problem is not None:
        raise MergeRefused(problem)
    before = {"keep": audit.snapshot(keep), "gone": audit.snapshot(gone)}
    done = Merged(keep)
    starts = dict(
        RatingChange.objects.filter(player=gone).values("pool").annotate(first=Min("sequence")).values_list("pool", "first")
    )
    tournaments = set(Entry.objects.filter(player=gone).values_list("tournament_id", flat=True))
    done.entries = Entry.objects.filter(player=gone).update(player=keep)
    done.memberships = _move_memberships(keep, gone)
    CategoryChange.objects.filter(player=gone).update(player=keep)
    done.rating_changes = RatingChange.objects.filter(player=gone).update(player=keep)
    RatingChange.objects.filter(opponent=gone).update(opponent=keep)
    PlayerRating.objects.filter(player=gone).delete()
    for name in FILLED:
        if getattr(keep, name) in (None, "") and getattr(gone, name) not in (None, ""):
            setattr(keep, name, getattr(gone, name))
            done.filled.append(name)
    account = gone.user_id
    gone.delete()
    if account and not keep.user_id:
        keep.user_id = account
        done.filled.append("user")
    keep.save()
    for pool, first in sorted(starts.items()):
        recompute(pool, first)
        done.pools.append(pool)
    audit.record(user, None, "player.merge", keep, before, audit.snapshot(keep), reason)
    for tournament_id in tournaments:
        invalidate(tournament_id)
    keep.refresh_from_db()
    done.player = keep
    return done
