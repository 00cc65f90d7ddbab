"""The director's Swiss options as actions: forbidden pairs, requested byes, and the
qualification of a Swiss section's top N into a knockout cup.

Pages (``manage/swiss/``, the player's private page) call these functions and
nothing else; each refuses with a coded ``pairing.*`` problem (RU/EN) and writes
one audit entry (rows of ``tournaments.audit.ACTIONS``). The pairing reads the
rows through ``pairing_manager.constraints.forbidden_pairs_for`` and
``pairing_manager.reading.swiss_input``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

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
    TournamentStatus,
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


def drop_byes_of_a_leaver(entry: Entry, user, reason: str = "") -> int:
    """A player who leaves (withdrawn, disqualified, removed) is paired no more, so his
    requested byes for rounds not yet paired can never be given: they go, each audited as a
    cancellation with the reason. A bye of a round already drawn (a draft included) stays —
    that round's pairing gave it. Returns how many went. Without this the bye-requests list
    kept promising him a bye the pairing would not give (the referee model credited it)."""
    if entry.tournament.system != CompetitionSystem.SWISS:
        return 0
    upcoming = next_number(entry.tournament, entry.section)
    gone = list(ByeRequest.objects.filter(entry=entry, round_number__gte=upcoming).order_by("round_number"))
    for req in gone:
        before = {"entry": entry.pk, "round": req.round_number}
        record(user, entry.tournament, "swiss.cancel_bye", ("byerequest", req.pk), before, None, reason)
        req.delete()
    return len(gone)


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


#: How the organiser decides a place shared across the cut (the book, Part 9, line 71: «при
#: необходимости назначается дополнительный чемпионский отборочный тур» — a play-off when
#: needed); a lot and a stated criterion are the other decisions a chief arbiter takes.
PLAYOFF, LOT, CRITERION = "playoff", "lot", "criterion"
TIE_DECISIONS = (PLAYOFF, LOT, CRITERION)


def playoff_slug(cup_slug: str) -> str:
    """The address of the play-off drawn for a cut, found again by the cup's address."""
    return f"{cup_slug}-playoff"[:80]


@dataclass(frozen=True)
class _Tie:
    """A place shared across the cut: who is in for sure, who shares it, how many go through."""

    place: str
    sure: list  # the rows placed above the shared place
    tied: list  # the rows sharing it
    spots: int  # how many of ``tied`` go through
    fewer: int
    more: int

    def names(self) -> tuple[str, ...]:
        return tuple(r.player.name_ru for r in self.tied)

    def details(self) -> dict:
        return {"place": self.place, "players": self.names(), "spots": self.spots,
                "entries": [r.player.id for r in self.tied]}  # fmt: skip


def qualify_to_knockout(
    swiss: Tournament, section: Section | None, top: int, *, name: str, slug: str, user,
    knockout: dict | None = None, reason: str = "", tie_decision: str = "",
    tie_chosen: Sequence[int] = (), tie_note: str = "",
) -> Tournament:
    """A new knockout tournament of the Swiss section's top ``top`` players, seeded by place.

    Draw number = Swiss place, and the cup seeds by draw number, so the Swiss winner
    is seed 1 and byes (when ``top`` is not a power of two) go to the best placed —
    the standard seeding order, where seeds 1 and 2 can meet only in the final. The
    cup has the Swiss's officials, so the same director runs it, and plays the Swiss's
    match length unless ``knockout`` gives per-round lengths.

    Qualifying is refused while the Swiss is still being played, unless the director
    gives a ``reason`` (audited). A place the tie-breaks leave shared across the cut is
    refused until the director decides it (``tie_decision``; the book, Part 9, line 71: «при
    необходимости назначается дополнительный чемпионский отборочный тур»):

    * ``playoff`` — the first call draws a play-off knockout among the tied players
      (address :func:`playoff_slug`, same officials and match rules) and returns *it*;
      once it is over, the same call takes its best placed into the cup;
    * ``lot`` — the product draws the lot; the drawn order is recorded;
    * ``criterion`` — the director states it (``tie_note``) and chooses ``tie_chosen``
      (entry ids) among the tied players.

    The decision, the tied players and who went through are recorded in the audit.
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
    if Tournament.objects.filter(slug=slug).exists():
        raise refuse("qualify_slug", slug=slug)
    tie = _tie_at_the_cut(rows, top)
    decided: dict = {}  # the tie's decision, for the audit
    qualifiers = rows[:top]
    if tie is not None:
        if tie_decision not in TIE_DECISIONS:
            resize = "both" if tie.fewer >= 2 else "more"
            raise refuse("qualify_tie_at_cut", fewer=tie.fewer, more=tie.more, resize=resize, **tie.details())
        if tie_decision == PLAYOFF and not Tournament.objects.filter(slug=playoff_slug(slug)).exists():
            return _draw_playoff(swiss, tie, slug, user, key)
        through, decided = _decide(tie, tie_decision, slug, tie_chosen, tie_note)
        qualifiers = [*tie.sure, *through]
    entries = {e.pk: e for e in swiss.entries.select_related("player")}
    with transaction.atomic():
        cup = _knockout_of(swiss, name, slug, {"seed_by": "draw_number", **(knockout or {})})
        for place, row in enumerate(qualifiers, start=1):
            src = entries[row.player.id]
            Entry.objects.create(
                tournament=cup, player=src.player, draw_number=place, seed_rating=src.seed_rating,
                status=EntryStatus.CHECKED_IN,
            )
        after = {"cup": cup.slug, "top": top, "section": key, **({"reason": reason} if reason else {}),
                 **({"tie": decided} if decided else {})}  # fmt: skip
        record(user, swiss, "knockout.qualify", cup, None, after)
        record(user, cup, "knockout.qualify", cup, None, after)
    return cup


def _decide(tie: _Tie, decision: str, slug: str, chosen: Sequence[int], note: str) -> tuple[list, dict]:
    """The tied rows that go through by the director's decision, and the decision as the audit
    records it (the tied entries, who went through, the lot's drawn order, the criterion)."""
    record_of: dict = {"decision": decision, "place": tie.place, "tied": [r.player.id for r in tie.tied]}
    if decision == PLAYOFF:
        through = _playoff_winners(Tournament.objects.get(slug=playoff_slug(slug)), tie)
        record_of["playoff"] = playoff_slug(slug)
    elif decision == LOT:
        drawn = list(tie.tied)
        random.SystemRandom().shuffle(drawn)
        through = drawn[: tie.spots]
        record_of["lot"] = [r.player.id for r in drawn]
    else:
        through = _chosen(tie, chosen, note)
        record_of["note"] = note.strip()
    record_of["through"] = [r.player.id for r in through]
    return through, record_of


def _knockout_of(swiss: Tournament, name: str, slug: str, options: dict) -> Tournament:
    """A knockout tournament with the Swiss's game, match rules and officials (no entries)."""
    cup = Tournament.objects.create(
        name=name, slug=slug, starts_on=swiss.ends_on or swiss.starts_on,
        system=CompetitionSystem.KNOCKOUT, seeding=Seeding.RATING, rounds_planned=None,
        pairing_options={"knockout": options}, **{f: getattr(swiss, f) for f in _COPIED},
    )  # fmt: skip
    for off in Official.objects.filter(tournament=swiss):
        Official.objects.get_or_create(tournament=cup, user=off.user, role=off.role)
    return cup


def _draw_playoff(swiss: Tournament, tie: _Tie, cup_slug: str, user, key: str) -> Tournament:
    """The play-off among the tied players: a knockout seeded in the standings' order, with a
    match for third place when three of four go through (so places 1–3 are not shared)."""
    options: dict = {"seed_by": "draw_number"}
    if tie.spots == 3 and len(tie.tied) >= 4:
        options["third_place"] = True
    entries = {e.pk: e for e in swiss.entries.select_related("player")}
    with transaction.atomic():
        playoff = _knockout_of(
            swiss, f"{swiss.name}: {gettext('play-off for place %(place)s') % {'place': tie.place}}",
            playoff_slug(cup_slug), options,
        )  # fmt: skip
        for number, row in enumerate(tie.tied, start=1):
            src = entries[row.player.id]
            Entry.objects.create(tournament=playoff, player=src.player, draw_number=number,
                                 seed_rating=src.seed_rating, status=EntryStatus.CHECKED_IN)  # fmt: skip
        after = {"playoff": playoff.slug, "cup": cup_slug, "section": key, "place": tie.place,
                 "tied": [r.player.id for r in tie.tied], "spots": tie.spots}  # fmt: skip
        record(user, swiss, "knockout.cut_playoff", playoff, None, after)
        record(user, playoff, "knockout.cut_playoff", playoff, None, after)
    return playoff


def _playoff_winners(playoff: Tournament, tie: _Tie) -> list:
    """The tied rows in the play-off's order, its best ``spots`` placed: refused while it is
    played, if it seats other players, or if its own places leave the cut shared."""
    swiss_entry = dict(Entry.objects.filter(pk__in=[r.player.id for r in tie.tied]).values_list("player_id", "pk"))
    by_entry = {r.player.id: r for r in tie.tied}
    seated = dict(playoff.entries.values_list("pk", "player_id"))
    if set(seated.values()) != set(swiss_entry):
        raise refuse("qualify_playoff_players", slug=playoff.slug, **tie.details())
    if playoff.status != TournamentStatus.FINISHED:
        raise refuse("qualify_playoff_open", slug=playoff.slug, place=tie.place)
    own = next(iter(load_event(playoff).standings.values())).rows
    last = own[tie.spots - 1]
    if last.place_to > tie.spots:
        shared = [r for r in own if r.place == last.place]
        raise refuse("qualify_playoff_tie", slug=playoff.slug, place=tie.place,
                     playoff_place=last.place_label,
                     players=tuple(r.player.name_ru for r in shared))  # fmt: skip
    return [by_entry[swiss_entry[seated[r.player.id]]] for r in own[: tie.spots]]


def _chosen(tie: _Tie, chosen: Sequence[int], note: str) -> list:
    """The tied rows the director chose by a stated criterion, in the standings' order."""
    wanted = {int(pk) for pk in chosen}
    through = [r for r in tie.tied if r.player.id in wanted]
    if not note.strip() or len(through) != tie.spots or len(wanted) != tie.spots:
        raise refuse("qualify_tie_chosen", **tie.details())
    return through


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


def _tie_at_the_cut(rows, top: int) -> _Tie | None:
    """The place the last qualifier shares with the first one out (the ranking's keys,
    tie-breaks included, are equal), or None: who goes through must not be the list's
    accident, so such a place waits for the director's decision."""
    if top >= len(rows):
        return None
    last_in, first_out = rows[top - 1], rows[top]
    if last_in.place != first_out.place:
        return None
    tied = [r for r in rows if r.place == last_in.place]
    sure = [r for r in rows if r.place < last_in.place]
    spots = top - len(sure)
    return _Tie(last_in.place_label, sure, tied, spots, fewer=len(sure), more=len(sure) + len(tied))
