"""Thin operations on tournaments that several entry points share (admin, commands, views).

The open draw of numbers (book Part 9, «открытая номерная жеребьёвка») in three
public steps: :func:`commit_draw` publishes the SHA-256 of a fresh secret seed,
:func:`perform_draw` draws with that seed and stores everything needed to
re-run it, :func:`check_draw` re-runs it and compares the seed with the
published commitment. A tournament that chose another seeding gets its numbers
from :func:`seed_numbers` when round 1 is paired.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from scoring.rules.errors import Problem, RuleViolation
from tournaments.audit import record
from tournaments.cache import invalidate
from tournaments.models import Entry, EntryStatus, NumberDraw, Round, Seeding, Tournament
from tournaments.pairing.problems import WHY
from tournaments.ratings.service import seeding_ratings
from tournaments.team_match import lineup_problems

from .numbers import ALGORITHM, commitment, draw_numbers, new_seed
from .problems import DRAW


def participants(tournament: Tournament) -> list[Entry]:
    """Entries taking part in the draw, in the canonical order a verifier can rebuild."""
    return list(
        tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
        .select_related("player")
        .order_by("id")
    )


def draw_locked(tournament: Tournament) -> bool:
    """Once any round exists, the numbers are in use: no new draw and no re-seeding."""
    return Round.objects.filter(tournament=tournament).exists()


def perform_refusals(tournament: Tournament) -> list[Problem]:
    """Why the committed draw cannot be held now (empty: it can)."""
    if draw_locked(tournament):
        return [DRAW.problem("rounds_exist")]
    if not tournament.draw_secret:
        return [DRAW.problem("not_committed")]
    return lineup_problems(tournament)


def _lineups_ready(tournament: Tournament) -> None:
    """A Scheveningen event draws its numbers once its teams can be paired: uneven teams
    (4 players against 3) or an odd number of teams are refused before any number is drawn
    (:func:`tournaments.team_match.lineup_problems`)."""
    problems = lineup_problems(tournament)
    if problems:
        raise RuleViolation(problems)


@transaction.atomic
def commit_draw(tournament: Tournament, user=None) -> str:
    """Choose a fresh secret seed and publish its SHA-256; returns the commitment.

    Committing again (before the draw) replaces the seed: the audit log keeps
    every commitment, so a director who keeps re-committing is seen doing it.
    """
    if draw_locked(tournament):
        raise RuleViolation(DRAW.problem("rounds_exist"))
    _lineups_ready(tournament)
    seed = new_seed()
    before = {"draw_commitment": tournament.draw_commitment}
    tournament.draw_secret = seed
    tournament.draw_commitment = commitment(seed)
    tournament.save(update_fields=["draw_secret", "draw_commitment"])
    record(user, tournament, "draw.commit", tournament, before, {"draw_commitment": tournament.draw_commitment})
    return tournament.draw_commitment


@transaction.atomic
def perform_draw(tournament: Tournament, seed: str | None = None, user=None) -> NumberDraw:
    """Give every active entry a random draw number and store how, for verification.

    Without ``seed`` the committed seed is used (and consumed), else a fresh one;
    refused once a round exists.
    """
    if draw_locked(tournament):
        raise RuleViolation(DRAW.problem("rounds_exist"))
    _lineups_ready(tournament)
    entries = participants(tournament)
    if not entries:
        raise RuleViolation(DRAW.problem("no_participants"))
    if seed is None:
        seed = tournament.draw_secret or new_seed()
    numbers = draw_numbers(seed, [str(e.pk) for e in entries])
    # Clear first so the unique (tournament, draw_number) index never sees a transient clash.
    tournament.entries.update(draw_number=None)
    for entry, number in zip(entries, numbers, strict=True):
        entry.draw_number = number
    Entry.objects.bulk_update(entries, ["draw_number"])
    if tournament.draw_secret:
        Tournament.objects.filter(pk=tournament.pk).update(draw_secret="")
        tournament.draw_secret = ""
    invalidate(tournament.pk)  # bulk updates send no signals
    draw = NumberDraw.objects.create(
        tournament=tournament,
        seed=seed,
        algorithm=ALGORITHM,
        performed_at=timezone.now(),
        performed_by=user if getattr(user, "pk", None) else None,
        participants=[{"entry": e.pk, "name": e.player.full_name} for e in entries],
        numbers=numbers,
    )
    record(
        user,
        tournament,
        "draw.perform",
        tournament,
        None,
        {"seed": seed, "commitment": tournament.draw_commitment, "entries": len(entries)},
    )
    return draw


def verify_draw(draw: NumberDraw) -> bool:
    """Re-run a stored draw from its seed and participant list: True if the numbers match."""
    keys = [str(p["entry"]) for p in draw.participants]
    return draw_numbers(draw.seed, keys) == list(draw.numbers)


@dataclass(frozen=True)
class DrawCheck:
    """What a verifier learns: do the numbers reproduce, does the seed match the commitment."""

    reproduced: bool
    commitment: str  # as published (may be empty: no commitment before this draw)
    seed_hash: str

    @property
    def committed(self) -> bool:
        return bool(self.commitment)

    @property
    def matches(self) -> bool:
        return self.committed and self.commitment == self.seed_hash

    @property
    def ok(self) -> bool:
        return self.reproduced and (self.matches or not self.committed)

    def problems(self, seed: str) -> list[Problem]:
        out = []
        if not self.reproduced:
            out.append(DRAW.problem("not_reproduced", seed=seed))
        if not self.committed:
            out.append(DRAW.problem("no_commitment"))
        elif not self.matches:
            out.append(DRAW.problem("commitment_mismatch", seed=seed, commitment=self.commitment))
        return out


def check_draw(draw: NumberDraw) -> DrawCheck:
    """Re-run ``draw`` and compare SHA-256 of its seed with the tournament's published commitment."""
    return DrawCheck(
        reproduced=verify_draw(draw),
        commitment=draw.tournament.draw_commitment,
        seed_hash=commitment(draw.seed),
    )


def latest_draw(tournament: Tournament) -> NumberDraw | None:
    return tournament.draws.order_by("-performed_at", "-pk").first()


# ---------------------------------------------------------------------------------------------
# seedings other than the open draw
# ---------------------------------------------------------------------------------------------


def _rating(entry: Entry) -> float:
    """The rating to seed by: the pool's current rating (set by :func:`seed_numbers`), else the
    rating at entry, else the player's declared rating (:func:`ratings_service.seeding_ratings`)."""
    value = getattr(entry, "seeding_rating", None)
    if value is None:
        value = entry.seed_rating if entry.seed_rating is not None else entry.player.rating
    return float(value or 0)


#: Seeding → sort key of an entry (smaller first). A newcomer adds a seeding by adding a row.
SEEDING_ORDER = {
    Seeding.RATING: lambda e: (-_rating(e), e.pk),
    Seeding.CATEGORY: lambda e: (-int(e.player.category or 0), -_rating(e), e.pk),
    Seeding.REGISTRATION: lambda e: (e.registered_at, e.pk),
}


@transaction.atomic
def seed_numbers(tournament: Tournament, user=None) -> Problem:
    """Number every active entry 1…n in the order of the tournament's chosen seeding (audited).

    Only for seedings other than the open draw; the note returned goes into
    round 1's explanation.
    """
    order = SEEDING_ORDER[Seeding(tournament.seeding)]
    entries = participants(tournament)
    ratings = seeding_ratings(tournament, entries)
    for entry in entries:
        entry.seeding_rating = ratings[entry.pk]
    entries.sort(key=order)
    before = {e.pk: e.draw_number for e in entries}
    tournament.entries.update(draw_number=None)
    for number, entry in enumerate(entries, start=1):
        entry.draw_number = number
    Entry.objects.bulk_update(entries, ["draw_number"])
    invalidate(tournament.pk)
    record(
        user,
        tournament,
        "draw.seed",
        tournament,
        {"numbers": before},
        {"seeding": tournament.seeding, "numbers": {e.pk: e.draw_number for e in entries}},
    )
    return WHY.problem("seeded_numbers", count=len(entries), seeding=tournament.seeding)
