"""Who may do what in which tournament: ONE table, checked on the server by pages, API and admin.

Roles are per tournament: an organiser (director), jury member or referee of one
tournament has no rights in another; superusers act as organisers everywhere
(the back office). A club's organisers (``clubs.ClubRole``) create tournaments
for their club (the ``tournament.create`` row, checked on the club) and act as
organisers of every tournament of that club. Players act on their own matches and entries only — logged in, or through their
entry's private link (a :class:`tournaments.access.private_links.LinkHolder`, which
has no account and no official role anywhere). Part 9 of the book:
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
from datetime import timedelta
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from clubs.models import Club, ClubRole, ClubRoleKind
from tournaments.cache import tournament_by_slug
from tournaments.models import Entry, Match, Official, OfficialRole, Tournament

from .private_links import LinkHolder

ORGANISER = OfficialRole.ORGANISER
JURY = OfficialRole.JURY
REFEREE = OfficialRole.REFEREE
OFFICIALS = frozenset({ORGANISER, JURY, REFEREE})
CLUB_ORGANISER = ClubRoleKind.ORGANISER

#: Result states the conditions look at (``scoring.models.ResultState`` values; the
#: table sits below the scoring app, so it names them rather than importing them).
REPORTED, CONFIRMED = "reported", "confirmed"
#: The dispute state an appeal follows (``scoring.models.DisputeState.RULED``).
RULED = "ruled"

#: (user, the object acted on, True when the user acts as an official) -> allowed?
Condition = Callable[[Any, Any, bool], bool]


@dataclass(frozen=True)
class Rule:
    """One row: which official roles and/or which players may, and any condition on the object.

    ``roles``: officials holding one of these roles in the tournament — never on a
    match they play in. ``players``: a player of the match the action is about
    (or the player of the entry, for actions on an entry). ``club_roles``: for
    actions on a club, the club roles that may.
    ``public``: anyone who may see the tournament. ``condition`` narrows further
    by the object's state (a result already confirmed cannot be confirmed again).
    """

    roles: frozenset[str] = frozenset()
    players: bool = False
    public: bool = False
    club_roles: frozenset[str] = frozenset()
    condition: Condition | None = None


def _not_a_bye(user, match, as_official: bool) -> bool:
    return not match.is_bye


def _reporter_side(result) -> str | None:
    """The side whose player reported ``result`` (None: an official reported it)."""
    if result.reported_side:
        return result.reported_side
    return side_of(result.reported_by, result.match) if result.reported_by_id else None


def _same_account(user, user_id: int | None) -> bool:
    return user.pk is not None and user_id == user.pk


def _confirmable(user, result, as_official: bool) -> bool:
    """A reported result, confirmed by an official or by the reporter's opponent (never the reporter)."""
    if result.state != REPORTED:
        return False
    if as_official:
        return True
    if _same_account(user, result.reported_by_id):
        return False
    return _reporter_side(result) != side_of(user, result.match)


def dispute_window_closed(result, now=None) -> int | None:
    """The window's length in minutes if ``result`` is confirmed and its window has passed, else None.

    The organiser sets the window (``Tournament.dispute_window``, minutes after
    the confirmation); with none set (0) this is always None.
    """
    minutes = result.match.round.tournament.dispute_window
    if result.state != CONFIRMED or not minutes:
        return None
    confirmed_at = result.confirmed_at
    if confirmed_at is not None and (now or timezone.now()) <= confirmed_at + timedelta(minutes=minutes):
        return None
    return minutes


def _disputable(user, result, as_official: bool) -> bool:
    """A result a player of the match may contest.

    With a dispute window set by the organiser, a confirmed result may be
    contested by either player — the one who confirmed it may have been wrong —
    until the window closes. Otherwise (and for reports) only by a player who
    neither reported nor confirmed it (e.g. a result a referee entered).
    """
    if result.state == CONFIRMED and result.match.round.tournament.dispute_window:
        return bool(side_of(user, result.match)) and dispute_window_closed(result) is None
    if result.state not in (REPORTED, CONFIRMED):
        return False
    if _same_account(user, result.reported_by_id) or _same_account(user, result.confirmed_by_id):
        return False
    mine = side_of(user, result.match)
    return mine not in (result.reported_side or None, result.confirmed_side or None)


def appeal_window_closed(dispute, now=None) -> int | None:
    """The window's length in minutes if the director ruled on ``dispute`` and the time to appeal has passed.

    The book gives the final word to the jury when a player disagrees with the
    director's decision (Part 9, ``part9_competition_rules.ru.txt`` line 37) and
    sets no time for it; FIDE's Tournament Rules (Handbook C.06, VII.4) let a
    player appeal a ruling "not later than the deadline specifically fixed in
    advance". The deadline fixed in advance here is the organiser's dispute
    window (``Tournament.dispute_window``), counted from the ruling: the same
    minutes a player has to contest a confirmed result. With no window (0)
    a ruling may be appealed until the jury decides. Only a ruled dispute has
    this window: an appealed or final one is refused for its state instead.
    """
    minutes = dispute.match.round.tournament.dispute_window
    if dispute.state != RULED or not minutes or dispute.ruled_at is None:
        return None
    if (now or timezone.now()) <= dispute.ruled_at + timedelta(minutes=minutes):
        return None
    return minutes


def _appealable(user, obj, as_official: bool) -> bool:
    """A player of the match may appeal the ruling until the organiser's window closes.

    Asked of a match (may this user appeal rulings on it at all?) only the row's players decide.
    """
    return isinstance(obj, Match) or appeal_window_closed(obj) is None


PERMISSIONS: dict[str, Rule] = {
    # a club (checked on the Club): its organisers create its tournaments
    "tournament.create": Rule(club_roles=frozenset({CLUB_ORGANISER})),
    "club.manage": Rule(club_roles=frozenset({CLUB_ORGANISER})),  # organisers, members, categories, seasons
    # the tournament's pages
    "tournament.view": Rule(public=True),
    "tournament.officiate": Rule(roles=OFFICIALS),  # officials' pages: pairings in draft, desk views
    "tournament.edit": Rule(roles=frozenset({ORGANISER})),  # its options, sections, entries, officials
    "round.manage": Rule(roles=frozenset({ORGANISER})),  # generate, adjust, publish, delete drafts
    "desk.run": Rule(roles=frozenset({ORGANISER})),  # check-in, withdrawals, closing rounds
    # one entry (checked on the Entry): its own player, by account or private link, or the desk
    "entry.check_in": Rule(roles=frozenset({ORGANISER}), players=True),
    "entry.see": Rule(roles=OFFICIALS, players=True),  # the entry's private page
    "entry.request_bye": Rule(roles=frozenset({ORGANISER}), players=True),  # sit out round k
    "sanction.record": Rule(roles=frozenset({ORGANISER, JURY})),  # Part 9: director or jury
    "dispute.list": Rule(roles=frozenset({ORGANISER, JURY})),
    "audit.view": Rule(roles=frozenset({ORGANISER, JURY})),
    # one match and its results
    "match.see": Rule(roles=OFFICIALS, players=True),
    "result.enter": Rule(roles=frozenset({ORGANISER, REFEREE})),
    "analysis.run": Rule(roles=OFFICIALS),  # queue or re-run GNU Backgammon's analysis of a match
    "result.report": Rule(players=True, condition=_not_a_bye),
    # the live board: the players (account or link) or an official record a match step by step;
    # an official appoints a recorder (an account) for a feature table
    "live.record": Rule(roles=frozenset({ORGANISER, REFEREE}), players=True, condition=_not_a_bye),
    "live.appoint": Rule(roles=frozenset({ORGANISER, REFEREE})),
    # a match file (.mat or record) for the match: its referee or its players (account or link)
    "record.upload": Rule(roles=frozenset({ORGANISER, REFEREE}), players=True, condition=_not_a_bye),
    "result.confirm": Rule(roles=frozenset({ORGANISER, REFEREE}), players=True, condition=_confirmable),
    "result.dispute": Rule(players=True, condition=_disputable),
    # disputes: the director rules, a player may appeal, the jury decides (final)
    "dispute.see": Rule(roles=frozenset({ORGANISER, JURY}), players=True),
    "dispute.rule": Rule(roles=frozenset({ORGANISER})),
    "dispute.appeal": Rule(players=True, condition=_appealable),
    "dispute.decide": Rule(roles=frozenset({JURY})),
}


def club_roles(user, club: Club | None) -> set[str]:
    """The roles ``user`` holds in ``club`` (superusers hold every role everywhere)."""
    if club is None or not user.is_authenticated or user.pk is None:
        return set()
    if user.is_superuser:
        return {CLUB_ORGANISER}
    cache = user.__dict__.setdefault("_zarik_club_roles", {})
    if club.pk not in cache:
        cache[club.pk] = set(
            ClubRole.objects.filter(club=club, user=user).values_list("role", flat=True)
        )
    return cache[club.pk]


def organised_clubs(user):
    """The clubs where ``user`` may create tournaments (all of them for superusers)."""
    if not user.is_authenticated or user.pk is None:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(roles__user=user, roles__role=CLUB_ORGANISER).distinct()


def official_roles(user, tournament: Tournament) -> set[str]:
    """The official roles ``user`` holds in ``tournament`` (cached on the user object per request).

    A club organiser is an organiser of every tournament of the club.
    """
    if not user.is_authenticated or user.pk is None:
        return set()
    cache = user.__dict__.setdefault("_zarik_roles", {})
    if tournament.pk not in cache:
        roles = set(
            Official.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
        )
        if user.is_superuser:
            roles.add(ORGANISER)
        if tournament.club_id and CLUB_ORGANISER in club_roles(user, tournament.club):
            roles.add(ORGANISER)
        cache[tournament.pk] = roles
    return cache[tournament.pk]


def can_view(user, tournament: Tournament) -> bool:
    """Released tournaments are public; unreleased ones only for their officials and link holders."""
    if tournament.public or bool(official_roles(user, tournament)):
        return True
    return isinstance(user, LinkHolder) and user.entry.tournament_id == tournament.pk


def visible_tournaments(user):
    """The tournaments ``user`` may see: the queryset form of :func:`can_view`."""
    qs = Tournament.objects.all()
    if user.is_superuser:
        return qs
    if user.is_authenticated and user.pk is not None:
        return qs.filter(
            Q(public=True)
            | Q(officials__user=user)
            | Q(club__roles__user=user, club__roles__role=CLUB_ORGANISER)
        ).distinct()
    if isinstance(user, LinkHolder):  # the link's own event, released or not (as can_view says)
        return qs.filter(Q(public=True) | Q(pk=user.entry.tournament_id))
    return qs.filter(public=True)


def officiated_tournaments(user):
    """The tournaments where ``user`` holds an official role: the queryset form of :func:`official_roles`."""
    qs = Tournament.objects.all()
    if user.is_superuser:
        return qs
    if not user.is_authenticated or user.pk is None:
        return qs.none()
    return qs.filter(
        Q(officials__user=user) | Q(club__roles__user=user, club__roles__role=CLUB_ORGANISER)
    ).distinct()


def player_entry(user, tournament: Tournament) -> Entry | None:
    """The user's own entry in the tournament, if they play in it."""
    if isinstance(user, LinkHolder):
        return user.entry if user.entry.tournament_id == tournament.pk else None
    if not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=tournament, player__user=user).first()


def owns_entry(user, entry: Entry) -> bool:
    """Is ``user`` the player of ``entry`` (by account or by the entry's private link)?"""
    if isinstance(user, LinkHolder):
        return user.entry.pk == entry.pk
    return bool(user.is_authenticated and entry.player.user_id and entry.player.user_id == user.pk)


def side_of(user, match: Match) -> str | None:
    """'a' or 'b' when ``user`` is a player of ``match``, else None."""
    if user is None or not user.is_authenticated:
        return None
    if isinstance(user, LinkHolder):
        for side, entry_id in (("a", match.entry_a_id), ("b", match.entry_b_id)):
            if entry_id is not None and entry_id == user.entry.pk:
                return side
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
    """The tournament an object belongs to (a tournament, an entry, or anything about a match)."""
    if isinstance(obj, Tournament):
        return obj
    if isinstance(obj, Entry):
        return obj.tournament
    return match_of(obj).round.tournament


def allowed(user, action: str, obj: Any) -> bool:
    """May ``user`` do ``action`` on ``obj`` (a club, tournament, entry, match, result or dispute)?

    Raises ``KeyError`` for an action missing from the table: a typo must fail loudly.
    """
    rule = PERMISSIONS[action]
    if isinstance(obj, Club):
        return bool(club_roles(user, obj) & rule.club_roles)
    tournament = tournament_of(obj)
    if rule.public:
        granted, as_official = can_view(user, tournament), False
    elif isinstance(obj, Entry):
        plays = owns_entry(user, obj)
        as_official = not plays and bool(official_roles(user, tournament) & rule.roles)
        granted = as_official or (rule.players and plays)
    else:
        match = None if isinstance(obj, Tournament) else match_of(obj)
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


def login_first(view):
    """Anonymous visitors of a non-public page go to the login page (then come back)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def tournament_view(action: str):
    """Decorator: load the tournament from ``slug`` and check ``action`` in the table.

    Unreleased tournaments are a 404 to outsiders (no leak of their existence);
    a visible tournament where the user may not do ``action`` is a 403.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = tournament_by_slug(slug)
            if tournament is None:
                raise Http404
            if not can_view(request.user, tournament):
                raise Http404
            require(request.user, action, tournament)
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator
