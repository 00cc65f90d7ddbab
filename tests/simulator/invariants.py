"""What must hold of an event after every step of the simulator, one function per guarantee.

Each function takes the event as the simulator holds it (:class:`~tests.simulator.event_machine.Event`)
and fails with a sentence a tournament director would understand. A new guarantee is a new
function here and a line in :data:`EVERY_STEP`; the expensive ones (the workbook, archive and
restore) run at the end of each run and when the simulator exports.
"""

from __future__ import annotations

import io
import itertools
import json
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.test import Client
from openpyxl import load_workbook

from clubs.identity.matching import name_forms
from clubs.identity.services import person_of
from clubs.models import PlayerRating
from scoring.archive import backup as archive
from scoring.models import MatchFile, MatchFileState, Result, ResultState
from scoring.records import match_files
from scoring.viewer.problems import MATCHFILE
from tests.simulator import referee
from tournaments import events
from tournaments import standings as core
from tournaments.access.private_links import path_for
from tournaments.access.visibility import HIDDEN_ROUND_STATUSES
from tournaments.api.tables import crosstable_data
from tournaments.cache import KeptInProcess
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import (
    AuditEntry,
    Entry,
    EntryStatus,
    Match,
    ResultKind,
    ResultStatus,
    Round,
    RoundStatus,
    TeamMember,
    Tournament,
)
from tournaments.pairing import knockout
from tournaments.ratings import service as ratings
from tournaments.rounds.pairing_manager import reading
from tournaments.rounds.pairing_manager.systems import fixed_schedule
from tournaments.standings.prizes import eligible
from tournaments.standings.types import MatchStatus
from tournaments.standings_service import load_event, prize_awards
from tournaments.validation import validate_result

PUBLIC_PAGES = ("", "pairings/", "standings/", "crosstable/", "bracket/", "hall/", "analysis/")
OFFICIAL_PAGES = ("manage/", "manage/rounds/", "manage/entries/", "manage/prizes/", "manage/rulings/",
                  "manage/registrations/")
#: The API's reads under /api/tournaments/<slug>/ (the PR table and the team match answer every event).
API_READS = ("", "standings/", "crosstable/", "pr-table/", "team-match/")


@dataclass(frozen=True)
class Heard:
    """One event as its subscribers heard it: the match it names and, at that moment, the status
    of that match's round (None: no such match), and the result it announces."""

    name: str
    match: int | None
    round_status: str | None
    result: int | None


@dataclass
class Event:
    """The simulated event and the people who look at it (one client per role)."""

    tournament: Tournament
    director: object
    clients: dict[str, Client] = field(default_factory=dict)
    player_entry: object | None = None  # whose private link and /me/ pages are read
    #: The category each entry plays in as the organiser last set it (or as entered), and the
    #: section each entry was first paired in: nothing but the organiser's own act changes them.
    categories: dict[int, int | None] = field(default_factory=dict)
    paired_sections: dict[int, int | None] = field(default_factory=dict)
    #: What the app's subscribers heard of this event (:func:`listen`), in order.
    heard: list[Heard] = field(default_factory=list)
    #: How many times the product's tables were compared with the referee model's (tests/simulator/referee.py).
    comparisons: int = 0

    @property
    def slug(self) -> str:
        return self.tournament.slug

    def rounds(self):
        return Round.objects.filter(tournament=self.tournament).order_by("number")


#: The run whose events are recorded (none between runs): one subscriber for every run.
_listening: list[Event] = []


def listen(event: Event | None) -> None:
    """Record in ``event.heard`` every event the app announces about it from now on (None: stop).

    Subscribed as the webhooks and the emails are (:func:`tournaments.events.subscribe`): the
    recorder hears what they hear, after the commit, in the same order."""
    _listening[:] = [event] if event is not None else []
    events.subscribe(_hear)


def _hear(heard: events.Event) -> None:
    for event in _listening:
        if heard.tournament_id != event.tournament.pk:
            continue
        match = heard.data.get("match")
        status = None
        if match is not None:
            status = Match.objects.filter(pk=match).values_list("round__status", flat=True).first()
        event.heard.append(Heard(heard.name, match, status, heard.data.get("result")))


# ------------------------------------------------------------------------------------ every step


def pages_answer_for_every_role(event: Event, roles: tuple[str, ...] | None = None) -> None:
    """Every public page, official page and API read answers below 500 for every role
    (``roles``: only these look, to keep a step cheap)."""
    for role, client in event.clients.items():
        if roles is not None and role not in roles:
            continue
        pages = PUBLIC_PAGES + (OFFICIAL_PAGES if role in ("organiser", "referee") else ())
        for page in pages:
            response = client.get(f"/t/{event.slug}/{page}")
            assert response.status_code < 500, f"{role}: /t/{event.slug}/{page} answered {response.status_code}"
        for api in API_READS:
            response = client.get(f"/api/tournaments/{event.slug}/{api}")
            assert response.status_code < 500, f"{role}: API {api or 'tournament'} answered {response.status_code}"
        response = client.get(f"/api/matches/?tournament={event.slug}")
        assert response.status_code < 500, f"{role}: API matches answered {response.status_code}"
    if event.player_entry is not None and (roles is None or "player" in roles):
        page = event.clients["player"].get("/me/")
        assert page.status_code < 500, f"the player's /me/ answered {page.status_code}"
        page = Client().get(path_for(event.player_entry))
        assert page.status_code < 500, f"the player's private link answered {page.status_code}"


def drafts_are_seen_by_officials_only(event: Event) -> None:
    drafts = set(event.rounds().filter(status=RoundStatus.DRAFT).values_list("pk", flat=True))
    if not drafts:
        return
    for role in ("anonymous", "player"):
        listed = event.clients[role].get(f"/api/rounds/?tournament={event.slug}").json()
        rows = listed["results"] if isinstance(listed, dict) else listed
        assert not drafts & {r["id"] for r in rows}, f"a draft round is visible to the {role}"
        for pk in drafts:
            answer = event.clients[role].get(f"/api/rounds/{pk}/")
            assert answer.status_code in (403, 404), f"the draft round answers {answer.status_code} to the {role}"


def no_published_match_waits_for_a_withdrawn_player(event: Event) -> None:
    """Withdrawn and disqualified players (both leave the field) are never left to play."""
    waiting = Match.objects.filter(
        round__tournament=event.tournament, round__status=RoundStatus.PUBLISHED,
        result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED], entry_b__isnull=False,
    )  # fmt: skip
    for m in waiting.select_related("entry_a", "entry_b", "round"):
        for entry in (m.entry_a, m.entry_b):
            assert entry.status != EntryStatus.WITHDRAWN, (
                f"round {m.round.number} table {m.table} waits for {entry.removal or 'withdrawn'} player {entry.pk}"
            )


def a_withdrawal_settles_the_whole_fixed_schedule(event: Event) -> None:
    """Round robin and Scheveningen (issue 35): once a player is withdrawn, no match of his in
    any round of the schedule — drafts included — is left pending, so every round can close.
    A withdrawal after the draw settles them; a team member who withdrew before it is never
    seated (the schedule is refused until his board is mended)."""
    if not fixed_schedule(event.tournament):
        return
    waiting = Match.objects.filter(
        round__tournament=event.tournament, result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED],
    ).filter(Q(entry_a__status=EntryStatus.WITHDRAWN) | Q(entry_b__status=EntryStatus.WITHDRAWN))  # fmt: skip
    left = [(m.round.number, m.table) for m in waiting.select_related("round")]
    assert not left, f"a withdrawn player's matches still wait in the schedule (round, table): {left}"


def a_round_robin_bye_adds_nothing(event: Event, loaded) -> None:
    """A round robin's free round is no game: the tables are the same without the byes."""
    if event.tournament.system != "round_robin":
        return
    games = [m for m in loaded.matches if m.player_b is not None]
    again = core.section_standings(loaded.players, games, loaded.options, loaded.adjustments)
    for key, table in loaded.standings.items():
        assert [(r.player.id, dict(r.values)) for r in table.rows] == [
            (r.player.id, dict(r.values)) for r in again[key].rows
        ], f"the free round changed section {key!r}"


def one_person_is_entered_once(event: Event) -> None:
    """No two entries of the event are the same person written two ways (any alphabet, ё,
    word order, case: the identity core's name forms)."""
    seen: dict[frozenset[str], int] = {}
    for entry in event.tournament.entries.select_related("player"):
        for form in name_forms(person_of(entry.player)):
            other = seen.setdefault(form, entry.pk)
            assert other == entry.pk, f"entries {other} and {entry.pk} are one person: {sorted(form)}"


def every_confirmed_result_passes_the_rules_core(event: Event) -> None:
    confirmed = Match.objects.filter(
        round__tournament=event.tournament, result_status=ResultStatus.CONFIRMED, entry_b__isnull=False,
        result_kind=ResultKind.PLAYED,
    )  # fmt: skip
    for m in confirmed.select_related("round__tournament"):
        verdict = validate_result(m, final=(m.score_a, m.score_b))
        assert verdict.ok, f"round {m.round.number} table {m.table}: {verdict.problems}"


def a_kept_read_is_a_fresh_read(event: Event, loaded) -> None:
    """The event as this process read it, reusing the rounds it kept from earlier reads
    (issue 32), is the event read afresh: no action leaves a kept round behind."""
    KeptInProcess.clear_all()
    fresh = load_event(event.tournament)
    assert loaded.pairings == fresh.pairings, "a kept round's pairings differ from the database"
    assert loaded.matches == fresh.matches, "a kept round's matches differ from the database"
    assert [(r.player.id, r.place, dict(r.values)) for t in loaded.standings.values() for r in t.rows] == [
        (r.player.id, r.place, dict(r.values)) for t in fresh.standings.values() for r in t.rows
    ], "the standings from kept rounds differ from a fresh read"


def places_follow_the_ranking(event: Event, loaded) -> None:
    for table in loaded.standings.values():
        for upper, lower in itertools.pairwise(table.rows):
            assert upper.place <= lower.place, f"place {upper.place} listed above {lower.place}"
            if upper.place == lower.place and upper.placed and lower.placed:  # "—" rows share no place
                assert upper.values == lower.values, f"shared place {upper.place} with different keys"


def buchholz_within_the_rounds_played(event: Event, loaded) -> None:
    """No one's opponents can have scored more than every round played so far allows."""
    if event.tournament.system != "swiss":
        return
    played = max((m.round for m in loaded.matches if m.status == MatchStatus.FINISHED), default=0)
    for table in loaded.standings.values():
        for row in table.rows:
            buchholz = row.values.get("buchholz")
            if buchholz is not None:
                assert buchholz <= played * played, f"Buchholz {buchholz} after {played} rounds"


def a_finished_cup_ranks_its_champion_first(event: Event, loaded) -> tuple[int, int | None] | None:
    """Once a cup's final is decided, its winner is first and the finalist second
    (side brackets — third place, consolation, last chance — never above them)."""
    if event.tournament.system != "knockout":
        return None
    final = _the_final(event)
    if final is None:
        return None
    winner, loser = final
    places = loaded.places()
    # A disqualified player has no place at all (issue 43): "—", whatever he won.
    gone = set(Entry.objects.filter(pk__in=[p for p in (winner, loser) if p], status=EntryStatus.WITHDRAWN)
               .exclude(removal="").values_list("pk", flat=True))  # fmt: skip
    if winner not in gone:
        assert places.get(winner) == "1", f"the champion is placed {places.get(winner)}"
    if loser is not None and loser not in gone and winner not in gone:
        assert places.get(loser) == "2", f"the finalist is placed {places.get(loser)}"
    return winner, loser


def _the_final(event: Event) -> tuple[int, int | None] | None:
    """(champion, finalist) as entry ids once the bracket's last match is decided; the finalist
    is None when the final was a walkover. The core names the deciding match."""
    bracket, results, _ = reading.knockout_state(event.tournament)
    if bracket is None or knockout.champion(bracket, results) is None:
        return None
    states = knockout.resolve(bracket, results)
    final_id = next(
        (mid for mid in ("GF2", "GF") if mid in states and states[mid].status != knockout.VOID),
        max((m for m in bracket.matches if m.bracket == knockout.MAIN), key=lambda m: m.round).id,
    )
    # A final settled in a draft (his opponent withdrew after the semi-final: the withdrawal
    # settles the drafted final as a forfeit) is decided for the bracket but not yet shown:
    # the standings count public rounds only, so the champion is first once it is published
    # (found at seed dfaa6146ea1e: "the champion is placed 1–2" with the final a draft).
    for rnd in reading.rounds_of(event.tournament, None):
        drawn = {row.get("match_id") for row in (rnd.explanation or {}).get("pairings", [])}
        if final_id in drawn and rnd.status in HIDDEN_ROUND_STATUSES:
            return None
    state = states[final_id]
    by_number = dict(event.tournament.entries.values_list("draw_number", "pk"))
    loser = by_number.get(state.loser) if state.status == knockout.DONE else None
    return by_number[state.winner], loser


def prizes_within_the_fund_and_by_place(event: Event, loaded) -> None:
    """Prizes never exceed the fund; a better place never gets less; a cup pays its
    champion the first prize and its finalist the second."""
    tournament = event.tournament
    if not tournament.prizes.exists():
        return
    awards = prize_awards(loaded)
    paid = sum(awards.amounts.values(), Decimal(0)) if awards.amounts else Decimal(0)
    if tournament.prize_fund is not None:
        assert paid <= tournament.prize_fund, f"prizes {paid} exceed the fund {tournament.prize_fund}"
    for table in loaded.standings.values():
        # Only players still in the event win prizes (withdrawn, disqualified: none, and the
        # prizes go down the table to the others — manual, organiser/prizes, "Who may win a prize").
        amounts = [awards.amounts.get(row.player.id, Decimal(0)) for row in table.rows if eligible(row)]
        assert amounts == sorted(amounts, reverse=True), f"prizes do not follow the places: {amounts}"
        assert not any(awards.amounts.get(row.player.id) for row in table.rows if not eligible(row)), (
            "a withdrawn or disqualified player is paid a prize"
        )
    final = a_finished_cup_ranks_its_champion_first(event, loaded)
    gone = {e.id for e in loaded.entries.values() if e.status == "withdrawn"}
    if final is not None and not gone.intersection(final):  # a finalist gone: the prizes move down
        table = {p.place: p.amount for p in tournament.prizes.filter(section__isnull=True)}
        for entry_id, place in zip(final, (1, 2), strict=True):
            if entry_id is not None and place in table:
                assert awards.amounts.get(entry_id) == table[place], (
                    f"place {place} of the cup is paid {awards.amounts.get(entry_id)}, not {table[place]}"
                )


def ratings_equal_a_full_recompute(event: Event) -> None:
    """The ratings updated result by result equal a rebuild of the pool from scratch."""
    pool = ratings.pool_for(event.tournament)
    if pool is None:
        return
    now = _ratings_of(pool)
    with transaction.atomic():
        ratings.recompute(pool, 1)
        rebuilt = _ratings_of(pool)
        transaction.set_rollback(True)
    assert now == rebuilt, f"step-by-step ratings differ from a full recompute: {now} != {rebuilt}"


def _ratings_of(pool: str) -> dict[int, tuple]:
    rows = PlayerRating.objects.filter(pool=pool).values_list("player_id", "rating", "experience", "matches")
    return {pid: (round(float(r), 6), e, m) for pid, r, e, m in rows}


def check_every_step(event: Event, step: int) -> None:
    """Everything but the pages for every step; the pages for one role a step, in turn
    (each role reads them every fourth step; every role at the end of the run)."""
    roles = tuple(event.clients)
    pages_answer_for_every_role(event, (roles[step % len(roles)],))
    drafts_are_seen_by_officials_only(event)
    no_published_match_waits_for_a_withdrawn_player(event)
    a_withdrawal_settles_the_whole_fixed_schedule(event)
    one_person_is_entered_once(event)
    every_confirmed_result_passes_the_rules_core(event)
    loaded = load_event(event.tournament)
    a_kept_read_is_a_fresh_read(event, loaded)
    places_follow_the_ranking(event, loaded)
    a_round_robin_bye_adds_nothing(event, loaded)
    buchholz_within_the_rounds_played(event, loaded)
    a_finished_cup_ranks_its_champion_first(event, loaded)
    prizes_within_the_fund_and_by_place(event, loaded)
    ratings_equal_a_full_recompute(event)
    the_tables_agree_with_the_referee(event, loaded)
    team_score_is_the_sum_of_the_individual_results(event)
    an_entry_keeps_its_category_and_its_paired_section(event)
    no_file_with_problems_is_attached_without_a_reason(event)
    no_event_names_a_match_of_a_draft(event)
    every_confirmed_result_is_announced(event)


def the_tables_agree_with_the_referee(event: Event, loaded) -> None:
    """Differential testing (issue 43): the standings, crosstable totals, places, prizes and
    champion the product shows equal what the referee model (:mod:`tests.simulator.referee`)
    computes by hand from the raw results. Each comparison counts in ``event.comparisons``; a
    disagreement names the player, the column, both answers and the rule's source."""
    client = event.clients["organiser"]
    raw = referee.read(client, event.tournament)
    verdict = referee.judge(raw)
    if not verdict.tables:
        the_cut_to_the_cup_is_the_referees(event)  # a cup is placed by its bracket (above)
        return
    api = client.get(f"/api/tournaments/{event.slug}/standings/?page_size=500").json()
    names = {e: raw.entries[e]["name"] for e in raw.entries}

    def agree(what: str, entry: int | None, product, model, source: str) -> None:
        event.comparisons += 1
        who = f"{names.get(entry, entry)} (entry {entry})" if entry is not None else "the event"
        assert product == model, (
            f"{what} of {who}: the product says {product!r}, the referee {model!r} (rule: {source})"
        )

    shown = {s["name"]: s for s in api["sections"]}
    for name, rows in verdict.tables.items():
        section = shown.get(name)
        agree(f"section {name!r} listed", None, section is not None, True, "every section has a table")
        got = _by_place((r["entry"], r["place"] if r["counted"] else "—") for r in section["rows"])
        model = {r.entry: r for r in rows}
        keys = {r["entry"]: {v["key"]: v["value"] for v in r["values"]} for r in section["rows"]}
        mine = {e: {k: _number(v) for k, v in r.values.items()} for e, r in model.items()}
        agree(f"section {name!r}: the places", None, got, _by_place((r.entry, r.place) for r in rows),
              "main score first (book Part 9 l.71), then the tie-breaks; shared ranges; disqualified and "
              "not-counted players without a place (issue 43; FIDE C.06 5.4.1); the product's keys "
              f"{keys}, the referee's {mine}")  # fmt: skip
        for row in section["rows"]:
            mine = model.get(row["entry"])
            if mine is None or not row["counted"] or not mine.counted:
                continue
            for value in row["values"]:
                if value["key"] in mine.values:
                    agree(f"{value['key']!r} in section {name!r}", row["entry"], value["value"],
                          _number(mine.values[value["key"]]), _SOURCES.get(value["key"], "the manual"))  # fmt: skip
    crosstable = client.get(f"/api/tournaments/{event.slug}/crosstable/").json()
    for section in crosstable["sections"]:
        for row in section["rows"]:
            if row["entry"] in verdict.totals:
                agree("the crosstable total", row["entry"], _number(row["total"]), _number(verdict.totals[row["entry"]]),
                      "the crosstable's total is the book's «Итого», game points (Part 9 l.71), a penalty "
                      "included when points are the main score (issue 43)")  # fmt: skip
    if verdict.prizes is not None:
        awards = prize_awards(loaded).amounts
        paid = {e: a for e, a in awards.items() if a}
        agree("the prizes", None, paid, verdict.prizes,
              "by place and the split rule, within the fund; no prize to a withdrawn, disqualified or "
              "not-counted player (manual, organiser/prizes, 'Who may win a prize'; issue 43)")  # fmt: skip
        if raw.fund is not None:
            agree("the prizes within the fund", None, sum(paid.values(), Decimal(0)) <= raw.fund, True,
                  "Part 9 l.45: the prize fund")  # fmt: skip
    if raw.strength and len(raw.strength) > 1:
        champion = api.get("champion") or {}
        agree("the event finished", None, bool(champion.get("finished")), verdict.finished,
              "a category championship finishes when its sections with players have (issue 43)")
        if verdict.finished:
            winners = {w["name"]: sorted(w["entries"]) for w in champion.get("winners", []) if w["entries"]}
            agree("the section winners", None, winners,
                  {s: sorted(w) for s, w in verdict.winners.items() if w}, "book Part 9 l.73")
            agree("the absolute champion", None, (champion.get("champion"), sorted(champion.get("playoff_between", []))),
                  (verdict.champion, verdict.playoff), "book Part 9 l.73 and l.71 (play-off)")  # fmt: skip


def the_cut_to_the_cup_is_the_referees(event: Event) -> None:
    """A cup qualified from a Swiss (issue 43): its players are the referee's top N of the Swiss
    (withdrawn players do not go through), and a cut that falls inside a place the tie-breaks
    leave shared is never made silently — the qualification carries the director's reason."""
    audit = AuditEntry.objects.filter(action="knockout.qualify", after__cup=event.slug).exclude(
        tournament=event.tournament
    ).select_related("tournament").first()  # fmt: skip
    if audit is None or audit.tournament is None:
        return
    swiss, after = audit.tournament, audit.after or {}
    client = event.clients["organiser"]
    raw = referee.read(client, swiss)
    verdict = referee.judge(raw)
    by_key = {str(s.pk): s.name for s in swiss.sections.all()}
    rows = verdict.tables.get(by_key.get(after.get("section"), ""), [])
    rows = [r for r in rows if r.place != "—" and raw.entries[r.entry]["status"] != "withdrawn"]
    top = int(after.get("top", 0))
    # The qualifiers are seeded by their Swiss place (draw numbers 1..top); a late entry into the
    # cup afterwards is no qualifier.
    cup = {e["player"] for e in referee.read(client, event.tournament).entries.values()
           if e["draw_number"] is not None and e["draw_number"] <= top}  # fmt: skip
    player = {r.entry: raw.entries[r.entry]["player"] for r in rows}
    cut = rows[top - 1].place if 0 < top <= len(rows) else None
    sure = {player[r.entry] for r in rows[:top] if r.place != cut}
    tied = {player[r.entry] for r in rows if r.place == cut}
    event.comparisons += 1
    assert sure <= cup and cup <= sure | tied, (
        f"the cup's players {sorted(cup)} are not the referee's top {top} of {swiss.slug}: "
        f"{sorted(sure)} and, from the place {cut} the cut falls in, some of {sorted(tied)} (FIDE C.07: "
        "the ranking decides; manual, organiser/systems, 'Swiss → cup')"
    )
    if top < len(rows) and rows[top].place == cut:
        event.comparisons += 1
        assert (after.get("reason") or "").strip() or after.get("tie"), (
            f"the cut to the cup after place {cut} of {swiss.slug} falls among {sorted(tied)}, level on "
            "every tie-break, and was made without the director's reason (issue 43: a tie at the cut is "
            "never broken silently)"
        )


#: Where each column's rule is written (for a disagreement's message).
_SOURCES = {
    "wins": "match wins, a level match ½, a bye 1, penalties off (book Part 9 l.71; manual, referee, 'Forfeits …')",
    "points": "game points scored (book Part 9 l.71, 'Итого'); penalties off when the main score",
    "buchholz": "FIDE C.07 Buchholz with the virtual opponent, rounds with results only "
                "(manual, referee, 'Forfeits …'; issue 43)",
    "median_buchholz": "FIDE C.07 Buchholz less the best and worst (manual, referee, 'Forfeits …')",
    "sonneborn_berger": "FIDE C.07 Sonneborn-Berger; a round robin's unplayed game against the real "
                        "opponent (manual, organiser/systems, 'Tie-breaks')",
    "difference": "points scored minus against",
    "against": "game points conceded",
}


def _by_place(rows) -> list[tuple[str, list[int]]]:
    """Places in table order, each with its players (in any order: a shared place lists its
    players as the product chooses)."""
    out: list[tuple[str, list[int]]] = []
    for entry, place in rows:
        if out and out[-1][0] == place:
            out[-1][1].append(entry)
        else:
            out.append((place, [entry]))
    return [(place, sorted(entries)) for place, entries in out]


def _number(value) -> float | None:
    return None if value is None else round(float(value), 6)


def no_event_names_a_match_of_a_draft(event: Event) -> None:
    """Nobody hears of a draft (:mod:`tournaments.access.visibility`): no webhook or email is
    about a match whose round was not public when it was sent — a withdrawal settling a fixed
    schedule's drafts included (their results are announced when each round is published)."""
    told = [(h.name, h.match, h.round_status) for h in event.heard
            if h.match is not None and (h.round_status is None or h.round_status in HIDDEN_ROUND_STATUSES)]  # fmt: skip
    assert not told, f"events named a match of a draft, or no match (event, match, its round's status): {told}"


def every_confirmed_result_is_announced(event: Event) -> None:
    """Every confirmed result of a public round has been announced (``result.confirmed``): one
    settled in a draft by a withdrawal, when its round was published."""
    announced = {h.result for h in event.heard if h.name == "result.confirmed"}
    confirmed = Result.objects.filter(match__round__tournament=event.tournament, state=ResultState.CONFIRMED)
    unheard = sorted(
        confirmed.exclude(match__round__status__in=HIDDEN_ROUND_STATUSES).exclude(pk__in=announced)
        .values_list("match__round__number", "match__table")
    )  # fmt: skip
    assert not unheard, f"confirmed results nobody was told of (round, table): {unheard}"


def an_entry_keeps_its_category_and_its_paired_section(event: Event) -> None:
    """Issue 35: an entry plays in the category it was entered in until the event's organiser
    sets another (a change of the player's own category leaves it), and an entry once paired
    never changes section (its matches belong to that section's table)."""
    paired = set(
        Match.objects.filter(round__tournament=event.tournament).values_list("entry_a_id", flat=True)
    ) | set(Match.objects.filter(round__tournament=event.tournament).values_list("entry_b_id", flat=True))
    for pk, category, section in Entry.objects.filter(tournament=event.tournament).values_list(
        "pk", "category", "section_id"
    ):
        expected = event.categories.setdefault(pk, category)
        assert category == expected, f"entry {pk} plays in category {category}, the organiser set {expected}"
        if pk in paired:
            first = event.paired_sections.setdefault(pk, section)
            assert section == first, f"entry {pk} was paired in section {first} and is now in {section}"


def no_file_with_problems_is_attached_without_a_reason(event: Event) -> None:
    """A match record with problems of its own, or naming other players, or of another
    length, is attached only by a person's explicit choice whose reason the audit log keeps
    (a score that differs may arise later, by a correction, and is not the file's)."""
    lasting = {MATCHFILE.code(c) for c in ("names_differ", "length_differs")}
    attached = MatchFile.objects.filter(tournament=event.tournament, state=MatchFileState.ATTACHED)
    for mf in attached.select_related("match__round__tournament", "match__entry_a__player", "match__entry_b__player"):
        check = match_files.stored_check(mf, event.tournament.variant)
        issues = [p.code for p in check.problems]
        issues += [p.code for p in match_files.compare(mf.match, check, mf.first_is).problems if p.code in lasting]
        if not issues:
            continue
        audit = AuditEntry.objects.filter(action="record.attach", object_id=str(mf.pk)).order_by("-pk").first()
        assert audit is not None and audit.reason.strip() and (audit.after or {}).get("despite_problems"), (
            f"match file {mf.pk} with problems {issues} is attached without a reason in the audit log"
        )


def team_score_is_the_sum_of_the_individual_results(event: Event) -> None:
    """Scheveningen (issue 35): the team match the API shows is its players' results added up,
    forfeits included — a win 1 to the winner's team, a level match ½ each, a double forfeit
    nothing, a void match nothing; points as recorded — counted here from the stored matches."""
    if event.tournament.system != "scheveningen":
        return
    team_of = dict(TeamMember.objects.filter(team__tournament=event.tournament).values_list("entry_id", "team_id"))
    expected: dict[tuple[int, int], list[Decimal]] = {}
    rows = Match.objects.filter(
        round__tournament=event.tournament, round__status__in=[RoundStatus.PUBLISHED, RoundStatus.FINISHED],
        entry_b__isnull=False,
    ).exclude(result_kind=ResultKind.VOID)  # fmt: skip
    for m in rows:
        if not m.result_stands or m.score_a is None:
            continue
        ta, tb = team_of.get(m.entry_a_id), team_of.get(m.entry_b_id)
        key, flip = ((ta, tb), False) if ta < tb else ((tb, ta), True)
        wins = {"a": (1, 0), "b": (0, 1), "": (Decimal("0.5"), Decimal("0.5"))}[m.winner]
        if m.result_kind == ResultKind.DOUBLE_FORFEIT:
            wins = (0, 0)
        row = [wins[0], wins[1], Decimal(m.score_a), Decimal(m.score_b)]
        if flip:
            row = [row[1], row[0], row[3], row[2]]
        total = expected.setdefault(key, [Decimal(0)] * 4)
        for i, value in enumerate(row):
            total[i] += value
    shown = event.clients["organiser"].get(f"/api/tournaments/{event.slug}/team-match/").json()["matches"]
    for match in shown:
        ids = (match["team_a"]["id"], match["team_b"]["id"])
        key, flip = (ids, False) if ids[0] < ids[1] else ((ids[1], ids[0]), True)
        got = [Decimal(str(v)) for v in match["total"]["match_points"] + match["total"]["points"]]
        if flip:
            got = [got[1], got[0], got[3], got[2]]
        want = expected.get(key, [Decimal(0)] * 4)
        assert got == want, f"the team match {ids} shows {got}, its players' results add up to {want}"


# ------------------------------------------------------------------------------------ the whole event


def workbook_agrees_with_the_standings(event: Event) -> None:
    out = io.BytesIO()
    build_workbook(event.tournament, out, "ru")
    api = event.clients["organiser"].get(f"/api/tournaments/{event.slug}/standings/").json()
    order = [row["name"] for section in api["sections"] for row in section["rows"]]
    sheet = load_workbook(io.BytesIO(out.getvalue()), read_only=True).worksheets[0]
    assert _standings_names(sheet) == order, "the workbook's standings disagree with the standings API"


def _standings_names(sheet) -> list[str]:
    """The player column of each table on the sheet, top to bottom (a table ends at a blank row;
    the penalties' footnote below the tables names players too, and is not a table)."""
    names, column = [], None
    for row in sheet.iter_rows(values_only=True):
        if "Игрок" in row:
            column = row.index("Игрок")
        elif not any(cell not in (None, "") for cell in row):
            column = None
        elif column is not None:
            names.append(row[column])
    return names


def archive_and_restore_give_the_same_tables(event: Event) -> None:
    """A tournament restored from its archive ranks and crosses exactly as the original
    (compared by the players' names: the copy has its own ids)."""
    out = io.StringIO()
    archive.export(event.tournament, out)
    with transaction.atomic():
        restored = archive.load(json.loads(out.getvalue()), event.director, slug=f"{event.slug}-restored").tournament
        assert _tables(restored) == _tables(event.tournament), "the restored tables differ"
        transaction.set_rollback(True)


def _tables(tournament):
    loaded = load_event(tournament)
    name = {e.id: e.name_ru for e in loaded.entries.values()}
    standings = [
        [(name[r.player.id], r.place, r.place_to, sorted(r.values.items())) for r in table.rows]
        for table in loaded.standings.values()
    ]
    crosstable = [
        [
            (row["name"], row["place"], row["total"],
             [(name[c["opponent"]], c["text"], c["outcome"], c["scores"]) for c in row["cells"]])
            for row in section["rows"]
        ]
        for section in crosstable_data(loaded)["sections"]
    ]  # fmt: skip
    return standings, crosstable
