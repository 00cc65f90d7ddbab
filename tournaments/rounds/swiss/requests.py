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
    Round,
    RoundStatus,
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
    knockout: dict | None = None, reason: str = "",
) -> Tournament:
    """A new knockout tournament of the Swiss section's top ``top`` players, seeded by place.

    Draw number = Swiss place, and the cup seeds by draw number, so the Swiss winner
    is seed 1 and byes (when ``top`` is not a power of two) go to the best placed —
    the standard seeding order, where seeds 1 and 2 can meet only in the final. The
    cup has the Swiss's officials, so the same director runs it.

    Qualifying is refused while the Swiss is still being played, and when the cut falls
    inside a place the tie-breaks leave shared — unless the director gives a ``reason``,
    which is audited with the qualification.
    """
    _swiss_only(swiss)
    event = load_event(swiss)
    key = "" if section is None else str(section.pk)
    tables = event.standings
    key = key if key in tables else next(iter(tables), "")
    rows = [r for r in tables[key].rows if not r.player.withdrawn] if tables else []
    if top < 2 or top > len(rows):
        raise refuse("qualify_count", top=top, ranked=len(rows))
    reason = reason.strip()
    if not reason:
        _refuse_an_unfinished_swiss(swiss, section)
        _refuse_a_tie_at_the_cut(rows, top)
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
        after = {"cup": cup.slug, "top": top, "section": key, **({"reason": reason} if reason else {})}
        record(user, swiss, "knockout.qualify", cup, None, after)
        record(user, cup, "knockout.qualify", cup, None, after)
    return cup


def _refuse_an_unfinished_swiss(swiss: Tournament, section: Section | None) -> None:
    """The cup takes the final standings: every planned round played and closed."""
    rounds = Round.objects.filter(tournament=swiss)
    if section is not None:
        rounds = rounds.filter(section=section)
    finished = rounds.filter(status=RoundStatus.FINISHED).count()
    open_rounds = rounds.exclude(status=RoundStatus.FINISHED).exists()
    planned = swiss.rounds_planned or finished
    if open_rounds or finished < planned:
        raise refuse("qualify_unfinished", played=finished, planned=max(planned, finished + open_rounds))


def _refuse_a_tie_at_the_cut(rows, top: int) -> None:
    """The last qualifier and the first one out may not share a place (the ranking's keys,
    tie-breaks included, are equal): who goes through would be the list's accident."""
    if top >= len(rows):
        return
    last_in, first_out = rows[top - 1], rows[top]
    if last_in.place == first_out.place:
        shared = [r for r in rows if r.place == last_in.place]
        inside = sum(1 for r in rows[:top] if r.place == last_in.place)
        raise refuse(
            "qualify_tie_at_cut", place=last_in.place_label,
            players=tuple(r.player.name_ru for r in shared), fewer=top - inside, more=top - inside + len(shared),
        )
