"""The director's Swiss options as actions: forbidden pairs, requested byes, and the
qualification of a Swiss section's top N into a knockout cup.

Pages (``manage/swiss/``, the player's private page) call these functions and
nothing else; each refuses with a coded ``pairing.*`` problem (RU/EN) and writes
one audit entry (rows of ``tournaments.audit.ACTIONS``). The pairing reads the
rows through ``pairing_manager.constraints.forbidden_pairs_for`` and
``pairing_manager.reading.swiss_input``.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.audit import record
from tournaments.models import (
    ByeRequest,
    CompetitionSystem,
    Entry,
    EntryStatus,
    ForbiddenPair,
    Official,
    Section,
    Seeding,
    Tournament,
)
from tournaments.rounds.pairing_manager.reading import next_number
from tournaments.rounds.pairing_manager.refusals import refuse
from tournaments.standings_service import load_event


def _swiss_only(tournament: Tournament) -> None:
    if tournament.system != CompetitionSystem.SWISS:
        raise refuse("forbid_not_swiss", system=tournament.system)


def forbid_pair(tournament: Tournament, one: Entry, other: Entry, reason: str, user) -> ForbiddenPair:
    """Keep two entries apart in every Swiss round from now on (rounds already paired stay)."""
    _swiss_only(tournament)
    if one.pk == other.pk:
        raise refuse("forbid_same")
    a, b = sorted((one, other), key=lambda e: e.pk)
    if ForbiddenPair.objects.filter(entry_a=a, entry_b=b).exists():
        raise refuse("forbid_exists", a=str(a.player), b=str(b.player))
    with transaction.atomic():
        pair = ForbiddenPair.objects.create(
            tournament=tournament, entry_a=a, entry_b=b, reason=reason.strip()
        )
        after = {"entry_a": a.pk, "entry_b": b.pk, "reason": pair.reason}
        record(user, tournament, "swiss.forbid_pair", ("forbiddenpair", pair.pk), None, after)
    return pair


def allow_pair(pair: ForbiddenPair, user) -> None:
    """Lift a forbidden pair (audited with what it was)."""
    before = {"entry_a": pair.entry_a_id, "entry_b": pair.entry_b_id, "reason": pair.reason}
    with transaction.atomic():
        record(user, pair.tournament, "swiss.allow_pair", ("forbiddenpair", pair.pk), before, None)
        pair.delete()


def request_bye(entry: Entry, round_number: int, user) -> ByeRequest:
    """The player sits out ``round_number`` (not yet paired), scored by ``half_bye_points``."""
    tournament = entry.tournament
    _swiss_only(tournament)
    name = str(entry.player)
    if entry.status == EntryStatus.WITHDRAWN:
        raise refuse("bye_request_withdrawn", player=name)
    upcoming = next_number(tournament, entry.section)
    if round_number < upcoming:
        raise refuse("bye_request_past", round=round_number, next=upcoming)
    if tournament.rounds_planned and round_number > tournament.rounds_planned:
        raise refuse("bye_request_beyond", round=round_number, planned=tournament.rounds_planned)
    if ByeRequest.objects.filter(entry=entry, round_number=round_number).exists():
        raise refuse("bye_request_exists", player=name, round=round_number)
    with transaction.atomic():
        req = ByeRequest.objects.create(entry=entry, round_number=round_number)
        after = {"entry": entry.pk, "round": round_number}
        record(user, tournament, "swiss.request_bye", ("byerequest", req.pk), None, after)
    return req


def cancel_bye(req: ByeRequest, user) -> None:
    """Withdraw a requested bye while its round is not paired yet."""
    entry = req.entry
    upcoming = next_number(entry.tournament, entry.section)
    if req.round_number < upcoming:
        raise refuse("bye_request_past", round=req.round_number, next=upcoming)
    before = {"entry": entry.pk, "round": req.round_number}
    with transaction.atomic():
        record(user, entry.tournament, "swiss.cancel_bye", ("byerequest", req.pk), before, None)
        req.delete()


#: What the cup copies from the Swiss (the game and how a match is played).
_COPIED = (
    "club", "venue", "variant", "scoring", "match_format", "match_length", "fixed_games", "cube",
    "crawford", "holland", "jacoby", "beaver", "raccoon", "autodouble_limit", "max_cube",
    "draw_value", "time_control", "rated", "season",
)


def qualify_to_knockout(
    swiss: Tournament, section: Section | None, top: int, *, name: str, slug: str, user,
    knockout: dict | None = None,
) -> Tournament:
    """A new knockout tournament of the Swiss section's top ``top`` players, seeded by place.

    Draw number = Swiss place, and the cup seeds by draw number, so the Swiss winner
    is seed 1 and byes (when ``top`` is not a power of two) go to the best placed —
    the standard seeding order, where seeds 1 and 2 can meet only in the final. The
    cup has the Swiss's officials, so the same director runs it.
    """
    _swiss_only(swiss)
    event = load_event(swiss)
    key = "" if section is None else str(section.pk)
    tables = event.standings
    key = key if key in tables else next(iter(tables), "")
    rows = [r for r in tables[key].rows if not r.player.withdrawn] if tables else []
    if top < 2 or top > len(rows):
        raise refuse("qualify_count", top=top, ranked=len(rows))
    if Tournament.objects.filter(slug=slug).exists():
        raise refuse("qualify_slug", slug=slug)
    entries = {e.pk: e for e in swiss.entries.select_related("player")}
    with transaction.atomic():
        cup = Tournament.objects.create(
            name=name, slug=slug, starts_on=swiss.ends_on or swiss.starts_on,
            system=CompetitionSystem.KNOCKOUT, seeding=Seeding.RATING,
            pairing_options={"knockout": {"seed_by": "draw_number", **(knockout or {})}},
            **{f: getattr(swiss, f) for f in _COPIED},
        )
        for place, row in enumerate(rows[:top], start=1):
            src = entries[row.player.id]
            Entry.objects.create(
                tournament=cup, player=src.player, draw_number=place, seed_rating=src.seed_rating,
                status=EntryStatus.CHECKED_IN,
            )
        for off in Official.objects.filter(tournament=swiss):
            Official.objects.get_or_create(tournament=cup, user=off.user, role=off.role)
        after = {"cup": cup.slug, "top": top, "section": key}
        record(user, swiss, "knockout.qualify", cup, None, after)
        record(user, cup, "knockout.qualify", cup, None, after)
    return cup
