"""Saving an event's setup, whoever asks: the organiser's pages and the write API.

The pages and the API validate with the same forms (``tournaments/setup_forms.py``:
``Tournament.clean`` problems on their fields, the locks after round 1); what
happens once the input is valid — which rows are written, who becomes organiser,
what the audit log says — is decided here, once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments import audit
from tournaments.models import Official, OfficialRole, Section, Tournament
from tournaments.ratings.tasks import rerate_after_toggle
from tournaments.rounds.pairing_manager.status import update_status

from .problems import SETUP


class SetupRefused(Exception):
    """A setup change the rules forbid (a coded, bilingual problem; the API answers 409)."""

    def __init__(self, problem):
        super().__init__(problem.code)
        self.problem = problem


def draft_from_preset(preset, club) -> Tournament:
    """An unsaved tournament with ``preset``'s values: the wizard's and the API's starting point."""
    return Tournament(club=club, starts_on=timezone.localdate(), **preset.tournament_values())


@transaction.atomic
def create_tournament(club, user, tournament: Tournament, sections=(), preset_key: str = "") -> Tournament:
    """Save a validated, unsaved ``tournament`` of ``club`` with its ``sections`` (unsaved Sections).

    The creator becomes its organiser; the creation is audited with the preset used.
    """
    tournament.club = club
    tournament.save()
    for section in sections:
        section.tournament = tournament
        section.save()
    Official.objects.get_or_create(tournament=tournament, user=user, role=OfficialRole.ORGANISER)
    audit.record(user, tournament, "tournament.create", tournament, None, tournament,
                 f"preset: {preset_key}" if preset_key else "")  # fmt: skip
    update_status(tournament, user)  # opened for registration: the status says so (the manual: organiser, "The status")
    return tournament


@transaction.atomic
def save_settings(form, user, before: dict | None, was_rated: bool) -> Tournament:
    """Save a valid settings form of an existing tournament; rebuild ratings if 'rated' flipped.

    ``before`` and ``was_rated`` are taken before the form validates (validation writes
    the new values into the instance).
    """
    tournament = form.instance
    form.save()
    audit.record(user, tournament, "tournament.settings", tournament, before, tournament)
    if tournament.rated != was_rated:
        rerate_after_toggle(tournament)
    update_status(tournament, user)  # registration opened or closed here moves draft ↔ registration
    return tournament


def is_empty(tournament: Tournament) -> bool:
    """No entries and no rounds: nothing anyone played or entered would be lost."""
    return not tournament.entries.exists() and not tournament.rounds.exists()


@transaction.atomic
def delete_tournament(tournament: Tournament, user) -> None:
    """Delete an empty tournament (refused ``setup.not_empty`` otherwise), audited."""
    if not is_empty(tournament):
        raise SetupRefused(SETUP.problem("not_empty", tournament=tournament.name))
    audit.record(user, None, "tournament.delete", tournament, audit.snapshot(tournament), None)
    tournament.delete()


@transaction.atomic
def save_section(section: Section, tournament: Tournament, user) -> Section:
    before = audit.snapshot(Section.objects.get(pk=section.pk)) if section.pk else None
    action = "section.change" if section.pk else "section.add"
    section.tournament = tournament
    section.save()
    audit.record(user, tournament, action, section, before, section)
    update_status(tournament, user)  # a section added to a finished event is still to be played
    return section


def section_in_use(section: Section) -> bool:
    return section.entries.exists() or section.rounds.exists()


@transaction.atomic
def delete_section(section: Section, user) -> None:
    if section_in_use(section):
        raise SetupRefused(SETUP.problem("section_in_use", section=section.name))
    tournament = section.tournament
    audit.record(user, tournament, "section.delete", section, audit.snapshot(section), None)
    section.delete()
    update_status(tournament, user)  # the last open section gone: the event may be finished now


@transaction.atomic
def appoint_official(tournament: Tournament, user, person, role: str) -> Official:
    """Appoint ``person`` (checked by ``OfficialForm``: not already in the role, not playing)."""
    official = Official.objects.create(tournament=tournament, user=person, role=role)
    audit.record(user, tournament, "official.appoint", official, None, official)
    return official


def removal_refused(official: Official):
    """The problem removing ``official`` would cause (the last organiser of a club-less event)."""
    tournament = official.tournament
    organisers = tournament.officials.filter(role=OfficialRole.ORGANISER)
    if official.role == OfficialRole.ORGANISER and organisers.count() <= 1 and not tournament.club_id:
        return SETUP.problem("last_organiser")
    return None


@transaction.atomic
def remove_official(official: Official, user) -> None:
    problem = removal_refused(official)
    if problem is not None:
        raise SetupRefused(problem)
    audit.record(user, official.tournament, "official.remove", official, official, None)
    official.delete()
