"""Who may do what in a tournament. Every view and action checks here, on the server.

Roles are per tournament: an organiser (director) or jury member or referee of
one tournament has no rights in another. Superusers act as organisers
everywhere (the back office). Players act on their own matches only.
"""

from __future__ import annotations

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Entry, Match, Official, OfficialRole, Tournament

ORGANISER = OfficialRole.ORGANISER
JURY = OfficialRole.JURY
REFEREE = OfficialRole.REFEREE


def official_roles(user, tournament: Tournament) -> set[str]:
    """The official roles ``user`` holds in ``tournament`` (cached on the user object per request)."""
    if not user.is_authenticated:
        return set()
    cache = user.__dict__.setdefault("_zarik_roles", {})
    if tournament.pk not in cache:
        roles = set(
            Official.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
        )
        if user.is_superuser:
            roles.add(ORGANISER)
        cache[tournament.pk] = roles
    return cache[tournament.pk]


def is_organiser(user, tournament: Tournament) -> bool:
    return ORGANISER in official_roles(user, tournament)


def is_jury(user, tournament: Tournament) -> bool:
    return JURY in official_roles(user, tournament)


def is_referee(user, tournament: Tournament) -> bool:
    """Referees enter and confirm results; organisers may do everything a referee may."""
    return bool(official_roles(user, tournament) & {ORGANISER, REFEREE})


def can_view(user, tournament: Tournament) -> bool:
    """Released tournaments are public; unreleased ones only for their officials."""
    return tournament.public or bool(official_roles(user, tournament))


def visible_tournaments(user):
    """The tournaments ``user`` may see: the queryset form of :func:`can_view`."""
    qs = Tournament.objects.all()
    if user.is_superuser:
        return qs
    if user.is_authenticated:
        return qs.filter(Q(public=True) | Q(officials__user=user)).distinct()
    return qs.filter(public=True)


def player_entry(user, tournament: Tournament) -> Entry | None:
    """The user's own entry in the tournament, if they play in it."""
    if not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=tournament, player__user=user).first()


def side_of(user, match: Match) -> str | None:
    """'a' or 'b' when ``user`` is a player of ``match``, else None."""
    if not user.is_authenticated:
        return None
    player_ids = {
        "a": match.entry_a.player.user_id if match.entry_a_id else None,
        "b": match.entry_b.player.user_id if match.entry_b_id else None,
    }
    for side, uid in player_ids.items():
        if uid is not None and uid == user.pk:
            return side
    return None


def tournament_view(*, roles: tuple[str, ...] = (), allow_public: bool = False):
    """Decorator: load the tournament from ``slug`` and check the user's role in it.

    ``allow_public`` views need only :func:`can_view`; otherwise one of
    ``roles`` is required. Unreleased tournaments are a 404 to outsiders (no
    leak of their existence); a missing role on a visible one is a 403.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            if not can_view(request.user, tournament):
                raise Http404
            if not allow_public and not (official_roles(request.user, tournament) & set(roles)):
                raise PermissionDenied
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator
