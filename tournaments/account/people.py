"""Who did something, as people know them: ONE place for a person's name and role on every page and email.

Results ("confirmed by"), rulings ("signed by"), the jury's decisions, sanctions,
the audit log and emails name the account behind an action. Never the login:

1. a player's account is the player's name in the reader's alphabet
   (:meth:`clubs.models.Player.display_name`: Latin for English readers when the
   player has a Latin name) — the name the standings show;
2. else the name the account gave itself on its settings page (``/account/``:
   :class:`django.contrib.auth.models.User` ``last_name`` and ``first_name``), in the
   records' order (family name first, as the book lists players); an English reader
   sees a Cyrillic name transliterated (:func:`clubs.names.to_latin`);
3. only when the account has no name at all, its login.

:func:`person_label` adds the person's role in the event (organiser, referee, jury,
the host club's organiser, the site's administrator), so a reader knows a ruling is
an official's. The roles of one event are read once per event object (no query per
row). Russian sentences around a name use neutral forms («подтверждено: …»), never
a guessed verb ending.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from clubs.models import ClubRole
from clubs.names import to_latin
from tournaments.models import Official, OfficialRole, Tournament
from zarik.i18n import current_language

#: A role's word after a name, one row per role (strongest first when a person has several).
ROLE_WORDS = {
    OfficialRole.ORGANISER: _("organiser"),
    OfficialRole.JURY: _("jury"),
    OfficialRole.REFEREE: _("referee"),
    "club": _("club organiser"),
    "staff": _("administrator"),
}
_ORDER = list(ROLE_WORDS)
_ROLES_ATTR = "_people_roles"


def _is_cyrillic(text: str) -> bool:
    return any("\u0400" <= ch <= "\u04ff" for ch in text)


def own_name(user, language: str = "ru") -> str:
    """The name an account gave itself, or "": family name first in Russian (as the records
    list players), given name first in English (as :attr:`clubs.models.Player.latin_name`)."""
    last = (getattr(user, "last_name", "") or "").strip()
    first = (getattr(user, "first_name", "") or "").strip()
    return f"{first} {last}".strip() if language.startswith("en") else f"{last} {first}".strip()


def person_name(user, language: str | None = None) -> str:
    """The name to show for ``user`` in ``language`` (the page's by default); "" for nobody."""
    if user is None:
        return ""
    language = language or current_language()
    try:
        player = user.player
    except (ObjectDoesNotExist, AttributeError):
        player = None
    if player is not None:
        name = player.display_name(language)
        if name:
            return name
    name = own_name(user, language)
    if name:
        if language.startswith("en") and _is_cyrillic(name):
            return " ".join(w.capitalize() for w in to_latin(name).split())
        return name
    return user.get_username() if hasattr(user, "get_username") else str(user)


def _roles(tournament: Tournament) -> dict[int, str]:
    """user id → their strongest role in the event, read once per event object."""
    cached = getattr(tournament, _ROLES_ATTR, None)
    if cached is not None:
        return cached
    found: dict[int, str] = {}
    for user_id, role in Official.objects.filter(tournament=tournament).values_list("user_id", "role"):
        if user_id not in found or _ORDER.index(role) < _ORDER.index(found[user_id]):
            found[user_id] = role
    if tournament.club_id:
        for user_id in ClubRole.objects.filter(club_id=tournament.club_id).values_list("user_id", flat=True):
            found.setdefault(user_id, "club")
    setattr(tournament, _ROLES_ATTR, found)
    return found


def person_role(user, tournament: Tournament | None) -> str:
    """The person's role in the event as a word ("" for a player or nobody in particular)."""
    if user is None:
        return ""
    role = _roles(tournament).get(user.pk) if tournament is not None else None
    if role is None and getattr(user, "is_staff", False):
        role = "staff"
    return str(ROLE_WORDS[role]) if role else ""


def person_label(user, tournament: Tournament | None = None, language: str | None = None) -> str:
    """"Name (role)" — the name of :func:`person_name`, with the role in the event when there is one."""
    name = person_name(user, language)
    if not name:
        return ""
    if language:
        with override(language):
            role = person_role(user, tournament)
    else:
        role = person_role(user, tournament)
    return f"{name} ({role})" if role else name
