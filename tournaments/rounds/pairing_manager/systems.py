"""The pairing systems: ONE table, system → generator and typed options.

Each row's generator reads what its system needs from the models, calls the
pure generator in :mod:`tournaments.pairing` and returns the planned rounds
(tables + explanation data); :func:`.generate.generate_next` does everything
else — checks, writing, the explanation's common part, audit — the same way
for every system. A newcomer adds a pairing system by writing one generator
and adding one row here (and its options dataclass in
:data:`tournaments.pairing.options.SYSTEM_OPTIONS`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from tournaments import pairing as core
from tournaments.models import Entry, EntryStatus, RoundStatus, Section, Tournament, Variant
from tournaments.pairing.knockout import PLAYABLE, WAITING, WALKOVER
from tournaments.pairing.options import parse_options
from tournaments.pairing.problems import WHY
from tournaments.rounds.flow import open_matches
from tournaments.standings.team_match import TeamLineup, team_match
from tournaments.standings_service import load_event

from . import reading
from .refusals import PairingRefused, problem
from .writing import PlannedRound, Table, data, explanation_base


@dataclass
class Request:
    """What the organiser asked for, and what the shell already checked."""

    tournament: Tournament
    section: Section | None
    options: Any
    user: Any = None
    reason: str = ""
    absent: Iterable[int] = ()
    half_bye: Iterable[int] = ()
    overridden: list[Problem] = field(default_factory=list)

    def explanation(self, system: str) -> dict[str, Any]:
        return explanation_base(system, self.user, self.reason, self.overridden)


@dataclass
class Plan:
    """The rounds a generator planned, and the audit entry's after-state."""

    rounds: list[PlannedRound]
    action: str = "round.generate"
    audit_after: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Swiss: one round from the history of the section
# ---------------------------------------------------------------------------------------------


def pair_swiss(req: Request) -> Plan:
    tournament, section = req.tournament, req.section
    number = reading.next_number(tournament, section)
    inp, by_id, late, forbidden = reading.swiss_input(
        tournament, section, number, req.options, absent=req.absent, half_bye=req.half_bye,
        user=req.user,
    )
    result = core.pair_swiss(inp)
    late = [*late, *_late_notes(tournament, section, req.options, number)]
    # Said after the core's own notes: first the order (round 1: the book's, and the tables a
    # pair that may not meet changed), then why that pair may not meet (the director's reason
    # or the club rule).
    why_apart = []
    if forbidden and result.status != "invalid":
        why_apart = _forbidden_notes(inp, result, forbidden)
    if result.status == "invalid":
        raise PairingRefused(result.problems)
    if result.status == "no_rematch_free" and not req.reason.strip():
        raise PairingRefused([*result.problems, problem("rematch_needs_reason")])
    length = reading.match_length_for(tournament, section, number)
    expl = req.explanation("swiss")
    expl["status"] = result.status
    expl["colours"] = inp.options.alternate_colours
    expl["options"] = dataclasses.asdict(inp.options)
    expl["notes"] = data((*late, *result.notes, *why_apart))
    expl["problems"] = data(result.problems)
    expl["groups"] = [
        {
            "score": g.score,
            "players": list(g.players),
            "floated_in": list(g.floated_in),
            "floated_out": list(g.floated_out),
        }
        for g in result.groups
    ]
    tables: list[Table] = []
    for p in result.pairings:
        a, b = p.a, p.b
        if p.white is not None and p.white != a:
            a, b = b, a  # with colours, entry A plays White
        info = {"a": a, "b": b, "white": p.white, "rematch": p.rematch, "notes": data(p.notes)}
        tables.append(Table(by_id[a], by_id[b], length, info))
    for bye in result.byes:
        row = {"player": bye.player, "kind": bye.kind, "points": bye.points, "notes": data(bye.notes)}
        expl["byes"].append(row)
        if bye.kind == "pairing":
            info = {"a": bye.player, "b": None, "bye": True, "rematch": False, "notes": row["notes"]}
            tables.append(Table(by_id[bye.player], None, None, info))
    return Plan(
        [PlannedRound(number, tables, expl, length)],
        audit_after={"number": number, "tables": len(tables), "status": result.status},
    )


def _forbidden_notes(inp, result, forbidden: dict[frozenset[int], dict]) -> list[Problem]:
    """Which tables a forbidden pair changed: the pairs the core would have made without
    the options and did not make with them (paired again without, to compare)."""
    free = core.pair_swiss(reading.without_forbidden(inp))
    made = {frozenset(p.players) for p in result.pairings}
    notes = []
    for p in free.pairings:
        pair = frozenset(p.players)
        why = forbidden.get(pair)
        if why is None or pair in made:
            continue
        if why["rule"] == "club":
            notes.append(WHY.problem("club_apart", a=p.a, b=p.b, until=why["until"]))
        else:
            notes.append(WHY.problem("forbidden_pair", a=p.a, b=p.b, comment=why["comment"]))
    return notes


def _late_notes(tournament, section, options, number: int) -> list[Problem]:
    """A late entry's credit for missed rounds, said once: in the round they first play."""
    credits = reading.late_entry_credits(tournament, section, options)
    return [
        WHY.problem(
            "late_entry_points", player=player, missed=missed, points=points,
            each=options.late_entry_points,
        )
        for player, (missed, points) in sorted(credits.items())
        if missed + 1 == number
    ]


# ---------------------------------------------------------------------------------------------
# round robin: every round of every cycle at once (FIDE Berger tables)
# ---------------------------------------------------------------------------------------------


def pair_round_robin(req: Request) -> Plan:
    tournament, section = req.tournament, req.section
    if reading.rounds_of(tournament, section).exists():
        raise PairingRefused(problem("schedule_exists", system="round_robin"))
    entries = reading.playing(reading.entries_of(tournament, section))
    late = reading.ensure_draw_numbers(tournament, entries, req.user)
    entries.sort(key=lambda e: e.draw_number)
    try:
        schedule = core.round_robin(
            [e.draw_number for e in entries],
            cycles=req.options.cycles,
            swap_last_two_rounds=req.options.swap_last_two_rounds,
        )
    except RuleViolation as exc:
        raise PairingRefused(exc.problems) from exc
    by_id = {e.draw_number: e for e in entries}
    planned = []
    for i, rr in enumerate(schedule):
        length = reading.match_length_for(tournament, section, rr.round)
        expl = req.explanation("round_robin")
        expl["cycle"] = rr.cycle
        expl["colours"] = True
        if i == 0:
            expl["notes"] = data(late)
        tables = [
            Table(
                by_id[p.a],
                by_id[p.b],
                length,
                {"a": p.a, "b": p.b, "white": p.white, "rematch": False, "notes": data(p.notes)},
            )
            for p in rr.pairings
        ]
        if rr.bye is not None:
            expl["byes"].append({"player": rr.bye, "kind": "pairing", "points": 1.0, "notes": []})
            info = {"a": rr.bye, "b": None, "bye": True, "rematch": False, "notes": []}
            tables.append(Table(by_id[rr.bye], None, None, info))
        planned.append(PlannedRound(rr.round, tables, expl, length))
    return Plan(planned, "round.generate_all", {"rounds": len(planned)})


# ---------------------------------------------------------------------------------------------
# knockout: the bracket and its first stage, or the next stage from confirmed results
# ---------------------------------------------------------------------------------------------


def pair_knockout(req: Request) -> Plan:
    tournament, section = req.tournament, req.section
    bracket, results, scheduled = reading.knockout_state(tournament, section)
    expl = req.explanation("knockout")
    if bracket is None:
        entries = reading.playing(reading.entries_of(tournament, section))
        late = reading.ensure_draw_numbers(tournament, entries, req.user)
        try:
            bracket = core.build_knockout(
                [core.KnockoutEntrant(e.draw_number, reading.rating(e), e.draw_number) for e in entries],
                req.options,
            )
        except RuleViolation as exc:
            raise PairingRefused(exc.problems) from exc
        expl["bracket"] = {"seeds": list(bracket.seeds), "options": dataclasses.asdict(req.options)}
        expl["notes"] = data(late)
    by_id = {e.draw_number: e for e in tournament.entries.all() if e.draw_number is not None}
    states = core.resolve(bracket, results)
    stage = [s for s in states.values() if s.status == PLAYABLE and s.match.id not in scheduled]
    if not scheduled:
        stage += [
            s
            for s in states.values()
            if s.status == WALKOVER and s.match.round == 1 and s.match.bracket == "main"
        ]
    busy: set[int] = set()
    tables: list[Table] = []
    for s in sorted(stage, key=lambda s: (s.match.bracket != "main", s.match.round, s.match.position)):
        players = [p for p in (s.a, s.b) if p is not None]
        if busy & set(players):
            continue  # the player is already busy this stage; the match waits for the next
        busy.update(players)
        a, b = (players[0], players[1]) if len(players) == 2 else (players[0], None)
        info = {
            "a": a,
            "b": b,
            "bye": b is None,
            "match_id": s.match.id,
            "bracket": s.match.bracket,
            "bracket_round": s.match.round,
            "rematch": False,
            "notes": data(s.match.notes),
        }
        tables.append(Table(by_id[a], by_id[b] if b else None, s.match.length, info))
    if not tables:
        winner = core.champion(bracket, results)
        if winner is not None:
            name = reading.label(by_id.get(winner))
            raise PairingRefused(problem("knockout_over", champion=winner, champion_name=name))
        raise PairingRefused(problem("knockout_waiting"))
    number = reading.next_number(tournament, section)
    lengths = {t.length for t in tables if t.b is not None}
    length = lengths.pop() if len(lengths) == 1 else None
    return Plan(
        [PlannedRound(number, tables, expl, length)],
        audit_after={"number": number, "matches": [t.info["match_id"] for t in tables]},
    )


# ---------------------------------------------------------------------------------------------
# Scheveningen: two teams play all n rounds at once; more teams a knockout of teams
# ---------------------------------------------------------------------------------------------


def pair_scheveningen(req: Request) -> Plan:
    """With four or more teams (an even number, book Part 9) every stage is a Scheveningen
    match of each team pairing (n rounds, written together); the next stage is drawn when
    every result of the stage is confirmed and each team match has a winner."""
    tournament = req.tournament
    teams = {t.pk: t for t in tournament.teams.order_by("pk")}
    existing = list(reading.rounds_of(tournament, None))
    if len(teams) < 2 or len(teams) % 2:
        raise PairingRefused(problem("scheveningen_teams", teams=len(teams)))
    if len(teams) == 2 and existing:
        raise PairingRefused(problem("schedule_exists", system="scheveningen"))
    lineups = {
        pk: [m.entry for m in t.members.select_related("entry__player").order_by("board")]
        for pk, t in teams.items()
    }
    # A member who withdrew before the schedule is drawn is not seated (his team is a board
    # short: the organiser fills the board); after the draw a withdrawal settles his matches,
    # and a later stage keeps him on his board, settled as it is written (.withdrawn).
    withdrawn = [] if existing else [
        (teams[pk].name, board, str(e.player))
        for pk in teams
        for board, e in enumerate(lineups[pk], start=1)
        if e.status == EntryStatus.WITHDRAWN
    ]
    uneven = core.lineup_problems([(teams[pk].name, len(lineups[pk])) for pk in teams], withdrawn)
    if uneven:
        raise PairingRefused(uneven)  # before any draw number is given out below
    first_extra: dict[str, Any] = {}
    if len(teams) == 2:
        a_id, b_id = list(teams)
        stage: list[tuple[str | None, int, int]] = [(None, a_id, b_id)]
    else:
        stage, first_extra = _team_stage(teams, existing, lineups)
    late = reading.ensure_draw_numbers(
        tournament, [e for line in lineups.values() for e in line], req.user
    )
    by_id = {e.draw_number: e for line in lineups.values() for e in line}
    schedules = []
    for _mid, a_id, b_id in stage:
        try:
            schedules.append(
                core.scheveningen(
                    [e.draw_number for e in lineups[a_id]], [e.draw_number for e in lineups[b_id]]
                )
            )
        except RuleViolation as exc:
            raise PairingRefused(exc.problems) from exc
    start = (existing[-1].number if existing else 0) + 1
    planned = []
    for r in range(len(schedules[0])):
        number = start + r
        length = reading.match_length_for(tournament, None, number)
        expl = req.explanation("scheveningen")
        expl["colours"] = True
        expl["team_matches"] = []
        if r == 0:
            expl["notes"] = data(late)
            expl.update(first_extra)
        tables: list[Table] = []
        for (mid, a_id, b_id), schedule in zip(stage, schedules, strict=True):
            first_table = len(tables) + 1
            for p in schedule[r].pairings:
                a, b = (p.a, p.b) if p.white in (None, p.a) else (p.b, p.a)
                info = {"a": a, "b": b, "white": p.white, "rematch": False, "notes": data(p.notes)}
                tables.append(Table(by_id[a], by_id[b], length, info))
            expl["team_matches"].append(
                {
                    "match_id": mid,
                    "teams": [a_id, b_id],
                    "names": [teams[a_id].name, teams[b_id].name],
                    "tables": list(range(first_table, len(tables) + 1)),
                }
            )
        planned.append(PlannedRound(number, tables, expl, length))
    return Plan(planned, "round.generate_all", {"rounds": len(planned)})


def _team_stage(
    teams: dict[int, Any], existing: list, lineups: dict[int, list[Entry]]
) -> tuple[list[tuple[str | None, int, int]], dict[str, Any]]:
    """The next stage of a knockout of teams: ``[(match id, team A pk, team B pk)]``."""
    if not existing:
        bracket = core.team_knockout(
            [core.KnockoutEntrant(pk, draw_number=i + 1) for i, pk in enumerate(teams)]
        )
        extra = {"team_bracket": {"seeds": list(bracket.seeds)}}
        results: dict[str, int] = {}
        scheduled: set[str] = set()
    else:
        seeds = existing[0].explanation["team_bracket"]["seeds"]
        bracket = core.team_knockout(
            [core.KnockoutEntrant(pk, draw_number=i + 1) for i, pk in enumerate(seeds)]
        )
        extra = {}
        open_rounds = [r.number for r in existing if open_matches(r).exists()]
        if open_rounds:
            raise PairingRefused(problem("team_stage_open", rounds=open_rounds))
        results, scheduled = _team_results(existing, teams, lineups)
    states = core.resolve(bracket, results)
    stage = [
        (s.match.id, s.a, s.b)
        for s in states.values()
        if s.status == PLAYABLE and s.match.id not in scheduled
    ]
    if not stage:
        winner = core.champion(bracket, results)
        name = teams[winner].name if winner in teams else "—"
        raise PairingRefused(problem("knockout_over", champion=winner, champion_name=name))
    return stage, extra


def _team_results(
    existing: list, teams: dict[int, Any], lineups: dict[int, list[Entry]]
) -> tuple[dict[str, int], set[str]]:
    """Winning team of every team match played so far, scored by the standings core's team
    match (match wins, then points; a forfeit counts as the forfeit it is) — the same score
    the pages, the workbook and the API show."""
    sides: dict[str, tuple[int, int]] = {}
    for rnd in existing:
        for tm in rnd.explanation.get("team_matches", []):
            sides[tm["match_id"]] = tuple(tm["teams"])
    tournament = existing[0].tournament
    matches = load_event(tournament).matches
    lineup = {
        pk: TeamLineup(pk, teams[pk].name, tuple(e.pk for e in lineups[pk])) for pk in teams
    }
    results: dict[str, int] = {}
    for mid, (a_id, b_id) in sides.items():
        leader = team_match(lineup[a_id], lineup[b_id], matches).total.leader
        if leader is None:
            raise PairingRefused(
                problem("team_tie", match=mid, team_a=teams[a_id].name, team_b=teams[b_id].name)
            )
        results[mid] = a_id if leader == "a" else b_id
    return results, set(sides)


# ---------------------------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------------------------


def swiss_defaults(tournament: Tournament) -> dict[str, Any]:
    """Long nardy played to a number of games alternates colours unless told otherwise."""
    alternate = tournament.variant == Variant.LONG_NARDY and tournament.match_format == "games"
    return {"alternate_colours": alternate}


def knockout_defaults(tournament: Tournament) -> dict[str, Any]:
    return {"match_lengths": [tournament.match_length or 5]}


def no_defaults(tournament: Tournament) -> dict[str, Any]:
    return {}


# ---------------------------------------------------------------------------------------------
# "nothing remains to play": each system's own answer (read by .status, never by a page)
# ---------------------------------------------------------------------------------------------


def _all_finished(rounds: list) -> bool:
    return bool(rounds) and all(r.status == RoundStatus.FINISHED for r in rounds)


def swiss_over(tournament: Tournament, section: Section | None) -> bool:
    """The planned number of rounds is played and closed (no plan: never over by itself)."""
    rounds = list(reading.rounds_of(tournament, section))
    planned = tournament.rounds_planned
    return bool(planned) and _all_finished(rounds) and rounds[-1].number >= planned


def schedule_over(tournament: Tournament, section: Section | None) -> bool:
    """A round robin draws its whole schedule at once: over when every round is closed."""
    return _all_finished(list(reading.rounds_of(tournament, section)))


def knockout_over(tournament: Tournament, section: Section | None) -> bool:
    """Every drawn stage is closed, the final has a winner and no side bracket (consolation,
    progressive consolation, a grand-final reset) has a match left to play."""
    if not _all_finished(list(reading.rounds_of(tournament, section))):
        return False
    bracket, results, _scheduled = reading.knockout_state(tournament, section)
    if bracket is None or core.champion(bracket, results) is None:
        return False
    return all(s.status not in (WAITING, PLAYABLE) for s in core.resolve(bracket, results).values())


def scheveningen_over(tournament: Tournament, section: Section | None) -> bool:
    """Every round closed, and with more than two teams the team knockout has its winner."""
    existing = list(reading.rounds_of(tournament, None))
    if not _all_finished(existing):
        return False
    teams = {t.pk: t for t in tournament.teams.order_by("pk")}
    if len(teams) <= 2:
        return True
    lineups = {
        pk: [m.entry for m in t.members.select_related("entry").order_by("board")]
        for pk, t in teams.items()
    }
    try:
        _team_stage(teams, existing, lineups)
    except PairingRefused as exc:
        return any(p.code == "pairing.knockout_over" for p in exc.problems)
    return False


@dataclass(frozen=True)
class System:
    """One pairing system as the manager runs it."""

    key: str
    generate: Callable[[Request], Plan]
    #: The tournament's own defaults for options the JSON leaves out.
    defaults: Callable[[Tournament], dict[str, Any]] = no_defaults
    #: Pairs inside each section (False: the whole tournament at once, e.g. teams).
    per_section: bool = True
    #: "Round still open" and "rounds planned" may be overridden with a reason.
    overridable: bool = False
    #: A round beyond ``rounds_planned`` needs a reason.
    planned_rounds: bool = False
    #: Pairings may be changed by hand (swap, set) — the schedule does not decide them.
    by_hand: bool = False
    #: A second pairing bye needs a reason (in a schedule, byes are part of it).
    limits_byes: bool = False
    #: Nothing remains to play in this section (the tournament's status then moves to finished).
    over: Callable[[Tournament, Section | None], bool] = schedule_over
    #: Who meets whom is decided in advance (a schedule, a bracket) and a draft is never paired
    #: again: a withdrawal settles the player's matches in draft rounds too
    #: (:func:`fixed_schedule`), and rounds written later that seat him (a cup's or a team
    #: knockout's next stage) are settled as they are written. False: a draft seating him is
    #: paired again without him (:mod:`.redraw`).
    fixed_schedule: bool = False


SYSTEMS: dict[str, System] = {
    row.key: row
    for row in (
        System(
            "swiss",
            pair_swiss,
            swiss_defaults,
            overridable=True,
            planned_rounds=True,
            by_hand=True,
            limits_byes=True,
            over=swiss_over,
        ),
        System("round_robin", pair_round_robin, fixed_schedule=True),
        System(
            "knockout", pair_knockout, knockout_defaults, overridable=True, over=knockout_over,
            fixed_schedule=True,
        ),
        System(
            "scheveningen", pair_scheveningen, per_section=False, over=scheveningen_over,
            fixed_schedule=True,
        ),
    )
}


def fixed_schedule(tournament: Tournament) -> bool:
    """The tournament's rounds are a fixed schedule (round robin, Scheveningen, a cup's
    bracket): a withdrawn player's remaining matches are settled in every round, drafts
    included, since no draft is ever paired again without him — in a cup the bracket fixes his
    opponent, who goes through by forfeit (or the match is void), as in a published stage."""
    row = SYSTEMS.get(tournament.system)
    return bool(row and row.fixed_schedule)


def options_of(tournament: Tournament, system: System | None = None) -> Any:
    """The tournament's typed pairing options (unknown keys and bad values are refused)."""
    system = system or SYSTEMS[tournament.system]
    try:
        return parse_options(system.key, tournament.pairing_options, system.defaults(tournament))
    except RuleViolation as exc:
        raise PairingRefused(exc.problems) from exc
