"""Who may do what in which tournament: ONE table, checked on the server by pages, API and admin.

Roles are per tournament: an organiser (director), jury member or referee of one
tournament has no rights in another; superusers act as organisers everywhere
(the back office). Players act on their own matches only. Part 9 of the book:
the administration may not play in the event it runs, so an official who is
also a player of a match acts on that match only as a player — nobody
confirms, rules on or corrects their own match.

A newcomer adds an action by adding a row to :data:`PERMISSIONS`; every check
in the product is :func:`allowed` / :func:`require` with an action name. The
``tests/test_permissions_matrix.py`` matrix pins the table down role by role.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Entry, Match, Official, OfficialRole, Tournament

ORGANISER = OfficialRole.ORGANISER
JURY = OfficialRole.JURY
REFEREE = OfficialRole.REFEREE
OFFICIALS = frozenset({ORGANISER, JURY, REFEREE})

#: Result states the conditions look at (``scoring.models.ResultState`` values; the
#: table sits below the scoring app, so it names them rather than importing them).
REPORTED, CONFIRMED = "reported", "confirmed"

#: (user, the object acted on, True when the user acts as an official) -> allowed?
Condition = Callable[[Any, Any, bool], bool]


@dataclass(frozen=True)
class Rule:
    """One row: which official roles and/or which players may, and any condition on the object.

    ``roles``: officials holding one of these roles in the tournament — never on a
    match they play in. ``players``: a player of the match the action is about.
    ``public``: anyone who may see the tournament. ``condition`` narrows further
    by the object's state (a result already confirmed cannot be confirmed again).
    """

    roles: frozenset[str] = frozenset()
    players: bool = False
    public: bool = False
    condition: Condition | None = None


def _not_a_bye(user, match, as_official: bool) -> bool:
    return not match.is_bye


def _confirmable(user, result, as_official: bool) -> bool:
    """A reported result, confirmed by an official or by the reporter's opponent (never the reporter)."""
    if result.state != REPORTED:
        return False
    if as_official:
        return True
    if result.reported_by_id == user.pk:
        return False
    reporter_side = side_of(result.reported_by, result.match) if result.reported_by_id else None
    return reporter_side != side_of(user, result.match)


def _disputable(user, result, as_official: bool) -> bool:
    """A reported or confirmed result, contested by a player who neither reported nor confirmed it."""
    return result.state in (REPORTED, CONFIRMED) and user.pk not in (
        result.reported_by_id,
        result.confirmed_by_id,
    )


PERMISSIONS: dict[str, Rule] = {
    # the tournament's pages
    "tournament.view": Rule(public=True),
    "tournament.officiate": Rule(roles=OFFICIALS),  # officials' pages: pairings in draft, desk views
    "tournament.edit": Rule(roles=frozenset({ORGANISER})),  # its options, sections, entries, officials
    "round.manage": Rule(roles=frozenset({ORGANISER})),  # generate, adjust, publish, delete drafts
    "desk.run": Rule(roles=frozenset({ORGANISER})),  # check-in, withdrawals, closing rounds
    "sanction.record": Rule(roles=frozenset({ORGANISER, JURY})),  # Part 9: director or jury
    "dispute.list": Rule(roles=frozenset({ORGANISER, JURY})),
    "audit.view": Rule(roles=frozenset({ORGANISER, JURY})),
    # one match and its results
    "match.see": Rule(roles=OFFICIALS, players=True),
    "result.enter": Rule(roles=frozenset({ORGANISER, REFEREE})),
    "result.report": Rule(players=True, condition=_not_a_bye),
    "result.confirm": Rule(roles=frozenset({ORGANISER, REFEREE}), players=True, condition=_confirmable),
    "result.dispute": Rule(players=True, condition=_disputable),
    # disputes: the director rules, a player may appeal, the jury decides (final)
    "dispute.see": Rule(roles=frozenset({ORGANISER, JURY}), players=True),
    "dispute.rule": Rule(roles=frozenset({ORGANISER})),
    "dispute.appeal": Rule(players=True),
    "dispute.decide": Rule(roles=frozenset({JURY})),
}


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
    if user is None or not user.is_authenticated:
        return None
    player_ids = {
        "a": match.entry_a.player.user_id if match.entry_a_id else None,
        "b": match.entry_b.player.user_id if match.entry_b_id else None,
    }
    for side, uid in player_ids.items():
        if uid is not None and uid == user.pk:
            return side
    return None


def match_of(obj: Any) -> Match | None:
    """The match an object is about: the match itself, or a result's or dispute's match."""
    if obj is None or isinstance(obj, Match):
        return obj
    return obj.match


def tournament_of(obj: Any) -> Tournament:
    """The tournament an object belongs to (a tournament, or anything about a match)."""
    if isinstance(obj, Tournament):
        return obj
    return match_of(obj).round.tournament


def allowed(user, action: str, obj: Any) -> bool:
    """May ``user`` do ``action`` on ``obj`` (a tournament, match, result or dispute)?

    Raises ``KeyError`` for an action missing from the table: a typo must fail loudly.
    """
    rule = PERMISSIONS[action]
    tournament = tournament_of(obj)
    match = None if isinstance(obj, Tournament) else match_of(obj)
    if rule.public:
        granted, as_official = can_view(user, tournament), False
    else:
        side = side_of(user, match) if match is not None else None
        as_official = side is None and bool(official_roles(user, tournament) & rule.roles)
        granted = as_official or (rule.players and side is not None)
    if not granted:
        return False
    if rule.condition is None or obj is tournament:
        return True  # a tournament-wide check: may the user do this kind of thing here at all
    return rule.condition(user, obj, as_official)


def require(user, action: str, obj: Any) -> None:
    """:func:`allowed` or ``PermissionDenied`` (a 403 on pages, the API's own error there)."""
    if not allowed(user, action, obj):
        raise PermissionDenied


def acts_as_official(user, match: Match) -> bool:
    """A referee or organiser of the match's tournament who does not play in it."""
    return allowed(user, "result.enter", match)


def is_organiser(user, tournament: Tournament) -> bool:
    return ORGANISER in official_roles(user, tournament)


def tournament_view(action: str):
    """Decorator: load the tournament from ``slug`` and check ``action`` in the table.

    Unreleased tournaments are a 404 to outsiders (no leak of their existence);
    a visible tournament where the user may not do ``action`` is a 403.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            if not can_view(request.user, tournament):
                raise Http404
            require(request.user, action, tournament)
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator
