"""The public rating list: one pool's current ratings (``clubs.PlayerRating``), filtered.

The page, its Excel export and the club page all read the list here, so the
filters mean the same everywhere. A fixed number of queries whatever the size
of the list or the players' history: the ratings with their players (one join),
and each listed player's current clubs (one prefetch).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Exists, Expression, OuterRef, Prefetch, QuerySet
from django.utils import timezone

from clubs.models import Club, Membership, Player, PlayerRating
from clubs.ratings.lists import shared_ranks

#: "Active in the last N months": at most this many.
MAX_MONTHS = 600


@dataclass(frozen=True)
class Filters:
    pool: str
    club: Club | None = None
    city: str = ""
    category: int | None = None
    months: int | None = None
    order: str = "-rating"


def months_ago(today: date, months: int) -> date:
    """The same day ``months`` calendar months earlier (the month's last day if it is shorter)."""
    year, month = divmod(today.year * 12 + today.month - 1 - months, 12)
    month += 1
    for day in (today.day, 30, 29, 28):
        try:
            return date(year, month, day)
        except ValueError:
            continue
    raise AssertionError("unreachable")


def current_memberships() -> Prefetch:
    return Prefetch(
        "player__memberships",
        queryset=Membership.objects.filter(Membership.current_q()).select_related("club").order_by("club__name"),
        to_attr="current_memberships",
    )


def same_city(city: str) -> list[str]:
    """Every stored spelling of ``city`` ignoring case, in any alphabet's case rules (one query).

    SQLite's ``lower()``/``LIKE`` fold ASCII letters only, so ``iexact`` told «Казань» from
    «казань» there; Python's ``casefold`` is the same on both engines (issue 37).
    """
    wanted = city.strip().casefold()
    stored = Player.objects.exclude(city="").order_by().values_list("city", flat=True).distinct()
    return [c for c in stored if c.strip().casefold() == wanted]


def rating_list(filters: Filters, last_played: Expression) -> QuerySet:
    """The filtered ratings in list order (highest first unless asked otherwise).

    ``last_played``: the expression giving each row's shown "last rated match" (``shown_last_played``),
    which the months filter counts too. The privacy rule decides it and lives with the rating
    history, above this app (``tournaments.player_history.last_public_played``), so it is passed down.
    """
    qs = PlayerRating.objects.filter(pool=filters.pool).select_related("player")
    qs = qs.annotate(shown_last_played=last_played)
    if filters.club is not None:
        members = Membership.objects.filter(Membership.current_q(), player_id=OuterRef("player_id"), club=filters.club)
        qs = qs.filter(Exists(members))
    if filters.city:
        qs = qs.filter(player__city__in=same_city(filters.city))
    if filters.category is not None:
        qs = qs.filter(player__category=filters.category)
    if filters.months is not None:
        qs = qs.filter(shown_last_played__gte=months_ago(timezone.localdate(), filters.months))
    tail = ("player__last_name", "player__first_name", "pk")
    order = ("rating", *tail) if filters.order == "rating" else ("-rating", *tail)
    return qs.prefetch_related(current_memberships()).order_by(*order)


def list_ranks(filters: Filters, last_played: Expression) -> dict[float, tuple[int, int]]:
    """Shared ranks within the filtered list (:func:`clubs.ratings.lists.shared_ranks`), one query."""
    rows = rating_list(filters, last_played).prefetch_related(None).order_by().values_list("rating", flat=True)
    return shared_ranks(rows)
