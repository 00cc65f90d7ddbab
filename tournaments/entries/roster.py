"""Adding and removing entries, whoever does it: the entries desk, the import, a team sheet.

One place decides what an added entry looks like: its section (the one section
whose categories include the player's, when the organiser does not choose), its
rating at entry, and — once round 1 is published — the round a late entry plays
from (the next round of its section). Every change is audited. Who may is the
permissions table's ``tournament.edit`` row.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max

from clubs.models import Category, Membership, Player
from tournaments import audit
from tournaments.access.permissions import allowed
from tournaments.events import emit
from tournaments.models import Entry, Round, RoundStatus, Section, Tournament
from tournaments.rounds.pairing_manager.status import update_status

from .problems import ENTRY
from .status import EntryRefused

EDIT = "tournament.edit"


def late_round(tournament: Tournament, section: Section | None) -> int | None:
    """The round a player entered now starts from: None before round 1 is published."""
    rounds = Round.objects.filter(
        tournament=tournament, status__in=(RoundStatus.PUBLISHED, RoundStatus.FINISHED)
    )
    if section is not None and tournament.sections.exists():
        rounds = rounds.filter(section=section)
    last = rounds.aggregate(last=Max("number"))["last"]
    return None if last is None else last + 1


def section_for(tournament: Tournament, category: int) -> Section | None:
    """The one section whose category range holds ``category`` (None when none or several do)."""
    found = list(
        tournament.sections.filter(min_category__lte=category, max_category__gte=category)[:2]
    )
    return found[0] if len(found) == 1 else None


def is_entered(tournament: Tournament, player: Player) -> bool:
    return Entry.objects.filter(tournament=tournament, player=player).exists()


@transaction.atomic
def add_entry(
    tournament: Tournament, player: Player, user, section: Section | None = None, reason: str = ""
) -> Entry:
    """Enter ``player`` if ``user`` may edit the tournament (see :func:`enter`)."""
    if not allowed(user, EDIT, tournament):
        raise PermissionDenied
    return enter(tournament, player, user, section, reason)


@transaction.atomic
def enter(
    tournament: Tournament, player: Player, user, section: Section | None = None, reason: str = "",
    category: int | None = None,
) -> Entry:
    """Enter ``player`` (the caller has checked the right to: a page, or the server's console).

    The entry keeps ``category`` (default: the player's now) as the category it plays in
    (book Part 9: players «записываются в выбранную ими категорию»). Refused
    (``entry.already_entered``) when they are entered already.
    """
    if is_entered(tournament, player):
        raise EntryRefused(ENTRY.problem("already_entered", who=player.full_name))
    category = category if category is not None else player.category
    if section is None:
        section = section_for(tournament, category)
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        category=category,
        section=section,
        seed_rating=player.rating,
        joined_round=late_round(tournament, section),
    )
    audit.record(user, tournament, "entry.add", entry, None, entry, reason)
    emit("entry.added", tournament.pk, entry=entry.pk)
    update_status(tournament, user)
    return entry


@transaction.atomic
def add_new_player(
    tournament: Tournament, player: Player, user, club=None, section: Section | None = None
) -> Entry:
    """Save a new ``player`` (validated, unsaved), make them a member of ``club`` from today, enter them."""
    if not allowed(user, EDIT, tournament):
        raise PermissionDenied
    player.save()
    if club is not None:
        Membership.objects.create(player=player, club=club, started_on=date.today())
    return enter(tournament, player, user, section)


def was_paired(entry: Entry) -> bool:
    return entry.seats.exists() or entry.matches_as_a.exists() or entry.matches_as_b.exists()


@transaction.atomic
def remove_entry(entry: Entry, user, reason: str = "") -> None:
    """Delete an entry that was never paired (a paired player is withdrawn instead)."""
    if not allowed(user, EDIT, entry.tournament):
        raise PermissionDenied
    if was_paired(entry):
        raise EntryRefused(ENTRY.problem("remove_paired", who=entry.player.full_name))
    before = audit.snapshot(entry)
    audit.record(user, entry.tournament, "entry.remove", entry, before, None, reason)
    entry.delete()
    update_status(entry.tournament, user)


#: "Not given" for :func:`change_entry`'s optional fields (``None`` is a value: no section, no rating).
UNCHANGED = object()


@transaction.atomic
def change_entry(
    entry: Entry, user, *, section=UNCHANGED, seed_rating=UNCHANGED, category=UNCHANGED, reason: str = ""
) -> Entry:
    """Move an entry to a section, set its rating at entry and/or the category it plays in,
    audited (the entries page and the API).

    The rating at entry seeds the pairings (``draw.services``, ``pairing_manager.reading``),
    so once the player has been paired it is fixed: changing it would rewrite the basis of
    pairings already made. The section is fixed once the entry is paired too (issue 35):
    its matches belong to that section's table, and moving the entry would take them out
    of both sections' tables (``entry.section_played``).

    ``category`` is the category the entry plays in, within this event only: the event's
    organiser sets it (the right to edit the tournament), without being the player's club
    and without touching the player's own category or its history. Not yet paired, an
    entry whose new category leaves its section moves to the one section that holds it.
    """
    if not allowed(user, EDIT, entry.tournament):
        raise PermissionDenied
    if seed_rating is not UNCHANGED and seed_rating != entry.seed_rating and was_paired(entry):
        raise EntryRefused(ENTRY.problem("rating_paired", who=entry.player.full_name))
    paired = was_paired(entry)
    if category is not UNCHANGED:
        if category not in Category.values:
            raise EntryRefused(ENTRY.problem("category_unknown", category=category))
        if section is UNCHANGED and not paired and category != entry.category:
            found = section_for(entry.tournament, category)
            if found is not None:
                section = found
        target = entry.section if section is UNCHANGED else section
        if target is not None and not target.min_category <= category <= target.max_category:
            raise EntryRefused(ENTRY.problem(
                "category_outside_section", category=category, section=target.name,
                low=target.min_category, high=target.max_category, who=entry.player.full_name,
            ))  # fmt: skip
    if section is not UNCHANGED and section != entry.section and paired:
        raise EntryRefused(ENTRY.problem(
            "section_played", who=entry.player.full_name,
            section=entry.section.name if entry.section else "—",
        ))  # fmt: skip
    before = audit.snapshot(entry)
    fields = []
    if category is not UNCHANGED and category != entry.category:
        entry.category = category
        fields.append("category")
    if section is not UNCHANGED and section != entry.section:
        entry.section = section
        fields.append("section")
    if seed_rating is not UNCHANGED and seed_rating != entry.seed_rating:
        entry.seed_rating = seed_rating
        fields.append("seed_rating")
    if fields:
        entry.save(update_fields=fields)
        audit.record(user, entry.tournament, "entry.change", entry, before, entry, reason)
        if "section" in fields:
            update_status(entry.tournament, user)  # a section emptied or filled by the move
    return entry
