"""Reading a round's input from the models: entries, earlier rounds, history, match lengths.

Players are identified to the generators by their **draw number** (the number
of the open draw), so the explanation reads as the book does and the organiser
can follow it on the printed list. A late entry without a number gets the next
free one when it is first paired; before round 1 numbers come from the open
draw or the seeding the organiser chose (:func:`ensure_draw_numbers`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from django.db.models import Max

from scoring.rules.errors import Problem, RuleViolation
from tournaments import pairing as core
from tournaments.draw.services import seed_numbers
from tournaments.models import (
    ByeRequest,
    Entry,
    EntryStatus,
    Match,
    ResultStatus,
    Round,
    RoundExplanation,
    RoundStatus,
    Section,
    Seeding,
    Tournament,
)
from tournaments.pairing.history import late_entry_byes
from tournaments.pairing.problems import PAIRING, WHY
from tournaments.validation import rule_for

from .constraints import forbidden_pairs_for
from .refusals import PairingRefused


def section_filter(section: Section | None) -> dict[str, Any]:
    return {"section": section} if section is not None else {"section__isnull": True}


def rounds_of(tournament: Tournament, section: Section | None = None):
    return Round.objects.filter(tournament=tournament, **section_filter(section)).order_by(
        "number"
    )


def next_number(tournament: Tournament, section: Section | None) -> int:
    last = rounds_of(tournament, section).last()
    return (last.number if last else 0) + 1


def entries_of(tournament: Tournament, section: Section | None = None):
    qs = tournament.entries.select_related("player")
    if section is not None:
        qs = qs.filter(section=section)
    return qs.order_by("draw_number", "id")


def playing(entries: Iterable[Entry]) -> list[Entry]:
    return [e for e in entries if e.status != EntryStatus.WITHDRAWN]


def has_players(tournament: Tournament, section: Section | None = None) -> bool:
    """Somebody in the section (or the whole tournament) can be paired: an entry not withdrawn."""
    return entries_of(tournament, section).exclude(status=EntryStatus.WITHDRAWN).exists()


def is_empty(tournament: Tournament, section: Section) -> bool:
    """An empty section: nobody to pair in it and no round ever drawn in it.

    A real event rarely fills every row of the book's table «Категории игроков» (Part 9), so
    a section nobody entered is left out — of "finished" (:mod:`.status`) and of generation
    (:func:`.checks.hard_blockers`) — instead of holding the whole event open for ever.
    """
    return not has_players(tournament, section) and not rounds_of(tournament, section).exists()


def ensure_draw_numbers(tournament: Tournament, entries: list[Entry], user=None) -> list[Problem]:
    """Every paired player has a draw number: by the open draw, the chosen seeding, or late entry.

    Before any round exists, numbers come from the tournament's seeding: with the
    open draw (the book's rule, and the default) round 1 is refused until the
    director holds the draw — numbers are never handed out silently; with
    another seeding every active entry is numbered in that order (audited).
    Once rounds exist, a late entry gets the next free number.
    """
    missing = [e for e in entries if e.draw_number is None and e.status != EntryStatus.WITHDRAWN]
    if not missing:
        return []
    if not Round.objects.filter(tournament=tournament).exists():
        if tournament.seeding == Seeding.DRAW:
            raise PairingRefused(PAIRING.problem("draw_required", count=len(missing)))
        note = seed_numbers(tournament, user)
        numbers = dict(tournament.entries.values_list("pk", "draw_number"))
        for e in entries:
            e.draw_number = numbers.get(e.pk)
        return [note]
    top = tournament.entries.aggregate(m=Max("draw_number"))["m"] or 0
    notes = []
    for e in sorted(missing, key=lambda e: e.pk):
        top += 1
        e.draw_number = top
        e.save(update_fields=["draw_number"])
        notes.append(WHY.problem("late_entry_number", player=top, number=top))
    return notes


def rating(entry: Entry) -> int:
    value = entry.seed_rating if entry.seed_rating is not None else entry.player.rating
    return int(value or 0)


def label(entry: Entry | None) -> str:
    """A player as the organiser reads the printed list: "№5 Иванов И."."""
    if entry is None:
        return "—"
    return f"№{entry.draw_number} {entry.player}" if entry.draw_number else str(entry.player)


def points_of(winner: str, status: str, score_a) -> tuple[float, float]:
    """The match points of a match's two sides from its stored result."""
    if winner == "a":
        return 1.0, 0.0
    if winner == "b":
        return 0.0, 1.0
    if status == ResultStatus.CONFIRMED and score_a is not None:
        return 0.5, 0.5  # a drawn fixed-games match
    return 0.0, 0.0


LATE = "late"


def late_entry_credits(
    tournament: Tournament, section: Section | None, options: core.SwissOptions
) -> dict[int, tuple[int, float]]:
    """Late entries' credit for missed rounds: draw number → (rounds missed, points),
    by the one rule :func:`tournaments.pairing.history.late_entry_byes`."""
    if not options.late_entry_points:
        return {}
    entries = tournament.entries.filter(joined_round__gt=1, draw_number__isnull=False)
    if section is not None:
        entries = entries.filter(section=section)
    out = {}
    for number, joined in entries.values_list("draw_number", "joined_round"):
        byes = late_entry_byes(joined, options.late_entry_points)
        out[number] = (len(byes), sum(points for _r, points in byes))
    return out


def history(
    tournament: Tournament,
    section: Section | None,
    options: core.SwissOptions,
    before: int | None = None,
) -> list[core.TableResult]:
    """Every earlier table and bye of this section as plain results (draft rounds excluded).

    ``before``: only rounds numbered below it — the history round ``before`` was
    (or would be) paired from, so a later round can be paired again after a
    ruling changed an earlier result (:mod:`.recheck`).
    """
    out: list[core.TableResult] = []
    rounds = rounds_of(tournament, section).exclude(status=RoundStatus.DRAFT)
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    rounds = list(rounds)
    for number, (missed, _points) in late_entry_credits(tournament, section, options).items():
        for r in range(1, missed + 1):
            if before is None or r < before:
                out.append(core.TableResult(r, number, None, options.late_entry_points, kind=LATE))
    stored = RoundExplanation.parts((r.pk for r in rounds), "colours", "byes")
    colours = {r.pk: bool(stored.get(r.pk, {}).get("colours")) for r in rounds}
    # Plain rows, not model instances: a 10,000-player Swiss has 5,000 matches a round,
    # and building Match, Entry and Round objects for each cost seconds (issue 32).
    matches = (
        Match.objects.filter(round__in=rounds)
        .order_by("round__number", "table")
        .values_list(
            "round_id", "round__number", "entry_a__draw_number", "entry_b_id", "entry_b__draw_number",
            "winner", "result_status", "score_a", "score_b",
        )
    )
    for round_id, num, a, b_id, b, winner, status, score_a, score_b in matches:
        if b_id is None:
            out.append(core.TableResult(num, a, None, options.bye_points, kind="pairing"))
            continue
        pa, pb = points_of(winner, status, score_a)
        out.append(
            core.TableResult(
                num,
                a,
                b,
                pa,
                pb,
                float(score_a or 0),
                float(score_b or 0),
                white=a if colours[round_id] else None,
            )
        )
    for r in rounds:
        for bye in stored.get(r.pk, {}).get("byes") or []:
            if bye.get("kind") == "requested":
                out.append(
                    core.TableResult(r.number, bye["player"], None, bye["points"], kind="requested")
                )
    return out


def previous_opponents(rnd: Round) -> tuple[set[frozenset[int]], set[int]]:
    """Pairs (entry ids) that already met in this section, and entries that had a pairing bye."""
    earlier = Match.objects.filter(
        round__tournament=rnd.tournament_id,
        round__number__lt=rnd.number,
        **{f"round__{k}": v for k, v in section_filter(rnd.section).items()},
    ).exclude(round__status=RoundStatus.DRAFT)
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for a, b in earlier.values_list("entry_a_id", "entry_b_id"):
        if b is None:
            byes.add(a)
        else:
            met.add(frozenset((a, b)))
    return met, byes


def match_length_for(tournament: Tournament, section: Section | None, number: int) -> int | None:
    """Match length of a round: the section's category table, else the tournament's option."""
    if section is not None:
        try:
            rule = rule_for(section, number)
        except RuleViolation as exc:
            raise PairingRefused(exc.problems) from exc
        if rule is not None:
            return rule.length
    return tournament.match_length if tournament.match_format == "points" else None


def swiss_input(
    tournament: Tournament,
    section: Section | None,
    number: int,
    options: core.SwissOptions,
    *,
    absent: Iterable[int] = (),
    half_bye: Iterable[int] = (),
    user=None,
) -> tuple[core.PairingInput, dict[int, Entry], list[Problem], dict[frozenset[int], dict]]:
    """The Swiss generator's input for round ``number``; ``absent``/``half_bye`` are entry ids.

    Byes players asked for in advance (``ByeRequest`` rows for this round) join
    ``half_bye``; the director's forbidden pairs are added to the players' past
    opponents and returned (those not already played), so the caller can say
    which pairing they changed.
    """
    entries = list(entries_of(tournament, section))
    late = ensure_draw_numbers(tournament, entries, user)
    absent = set(absent)
    # A subquery, not the ids: a 10,000-player Swiss's 10,000 parameters cost more than the read.
    half_bye = set(half_bye) | set(
        ByeRequest.objects.filter(
            entry__in=entries_of(tournament, section), round_number=number
        ).values_list("entry_id", flat=True)
    )
    statuses: dict[int, str] = {}
    entrants = []
    by_id: dict[int, Entry] = {}
    for e in entries:
        if e.draw_number is None:
            continue  # withdrawn before ever getting a number
        by_id[e.draw_number] = e
        entrants.append(core.Entrant(e.draw_number, e.draw_number, rating(e)))
        if e.status == EntryStatus.WITHDRAWN:
            statuses[e.draw_number] = "withdrawn"
        elif e.pk in absent:
            statuses[e.draw_number] = "absent"
        elif e.pk in half_bye:
            statuses[e.draw_number] = "half_bye"
    players = core.build_players(
        entrants, history(tournament, section, options, before=number), statuses,
        score=options.score,
    )
    forbidden = _forbidden_among(
        players, forbidden_pairs_for(tournament, section, number, options.club_apart_rounds)
    )
    inp = core.PairingInput(number, players, options, forbidden_pairs=frozenset(forbidden))
    return inp, by_id, late, forbidden


def _forbidden_among(
    players: tuple[core.SwissPlayer, ...], forbidden: dict[frozenset[int], dict]
) -> dict[frozenset[int], dict]:
    """The forbidden pairs the core must keep apart this round (pair → why, for the
    explanation): both players in the section, and not already opponents (a rematch is
    ruled out anyway, so it changes nothing)."""
    met = {frozenset((p.id, o)) for p in players for o in p.opponents}
    ids = {p.id for p in players}
    return {k: v for k, v in forbidden.items() if k not in met and k <= ids}


def without_forbidden(inp: core.PairingInput) -> core.PairingInput:
    """The same input as if no pair were forbidden (to tell which pairings an option changed)."""
    return replace(inp, forbidden_pairs=frozenset())


def knockout_state(tournament: Tournament, section: Section | None = None):
    """The bracket, the winners recorded so far ``{match id: draw number}`` and scheduled ids."""
    rounds = list(rounds_of(tournament, section))
    if not rounds or "bracket" not in rounds[0].explanation:
        return None, {}, set()
    data = rounds[0].explanation["bracket"]
    opts = dict(data["options"])
    opts["match_lengths"] = tuple(opts["match_lengths"])
    opts["seed_by"] = "draw_number"
    entrants = [core.KnockoutEntrant(pid, draw_number=i + 1) for i, pid in enumerate(data["seeds"])]
    bracket = core.build_knockout(entrants, core.KnockoutOptions(**opts), drawn=True)
    results: dict[str, int] = {}
    scheduled: set[str] = set()
    for rnd in rounds:
        ids = {row["table"]: row.get("match_id") for row in rnd.explanation.get("pairings", [])}
        for m in rnd.matches.select_related("entry_a", "entry_b"):
            mid = ids.get(m.table)
            if not mid:
                continue
            scheduled.add(mid)
            if m.entry_b_id is None or m.result_status != ResultStatus.CONFIRMED:
                continue
            if m.winner in ("a", "b"):
                results[mid] = (m.entry_a if m.winner == "a" else m.entry_b).draw_number
    return bracket, results, scheduled
