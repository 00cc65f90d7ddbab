"""Queue, claim, run and read match analyses (the one path for pages, API, tasks and hooks).

- :func:`request` queues a match (a record attached, a re-run, a round's bulk): audited,
  and a Celery task is sent once the transaction commits. A match that cannot be analysed
  (a nardy variant, no record, gnubg missing) gets its failed state and reason at once.
- :func:`claim_next` is the fair queue: the next analysis comes from the event with the
  fewest analyses running, then the one that started one longest ago, then the oldest
  request — so a round of 50 files in one event never starves a single match elsewhere.
- :func:`run` executes gnubg (:mod:`.engine`) and stores :mod:`.report`'s numbers; any
  failure is a state with a reason and the record is never written to.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from scoring.models import MatchFile, MatchFileState
from scoring.records import gnubg_program, match_files
from scoring.rules.errors import Problem
from scoring.viewer.frames import view_text
from tournaments import audit
from tournaments.access.permissions import (
    official_roles,
    officiated_tournaments,
    visible_tournaments,
)
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.validation import match_spec

from . import engine, report
from .models import AnalysisSettings, AnalysisState, MatchAnalysis, PlayerAnalysisChoice
from .problems import ANALYSIS

logger = logging.getLogger(__name__)

#: Variants gnubg can analyse (it knows only backgammon's rules and equities).
ENGINE_VARIANTS = frozenset({"backgammon"})

_task_sender = None


def set_task_sender(send) -> None:
    """The Celery side registers how to start a worker on the queue (:mod:`.tasks`)."""
    global _task_sender
    _task_sender = send


def program() -> str | None:
    """The gnubg program, or None: then every match says "analysis unavailable"."""
    return gnubg_program.find(
        getattr(settings, "ANALYSIS_GNUBG", "gnubg"), getattr(settings, "ANALYSIS_GNUBG_DIRS", gnubg_program.DEFAULT_DIRS)
    )


def available() -> bool:
    return program() is not None


def time_limit() -> float:
    return float(getattr(settings, "ANALYSIS_TIME_LIMIT", 600))


def settings_for(tournament: Tournament) -> AnalysisSettings:
    """The event's settings (unsaved defaults when the organiser chose nothing)."""
    found = AnalysisSettings.objects.filter(tournament=tournament).first()
    return found or AnalysisSettings(tournament=tournament)


def save_settings(tournament: Tournament, user, *, plies: int, public: bool) -> AnalysisSettings:
    with transaction.atomic():
        row = settings_for(tournament)
        before = {"plies": row.plies, "public": row.public}
        row.plies, row.public = plies, public
        row.save()
        audit.record(user, tournament, "analysis.settings", ("analysissettings", row.pk), before, {"plies": plies, "public": public})
    return row


def problem_of(row: MatchAnalysis) -> Problem | None:
    return Problem.from_data(row.problem) if row.problem else None


def _blocker(match: Match) -> Problem | None:
    tournament = match.round.tournament
    if tournament.variant not in ENGINE_VARIANTS:
        return ANALYSIS.problem("no_engine", variant=tournament.get_variant_display())
    if not available():
        return ANALYSIS.problem("unavailable")
    if match_files.match_record(match) is None:
        return ANALYSIS.problem("no_record")
    return None


def request(match: Match, user=None, *, reason: str = "") -> MatchAnalysis:
    """Queue (or re-queue) the analysis of ``match``; audited; the task starts after commit."""
    tournament = match.round.tournament
    depth = settings_for(tournament).plies
    blocker = _blocker(match)
    with transaction.atomic():
        row = MatchAnalysis.objects.select_for_update().filter(match=match).first()
        existed = row is not None
        if row is None:
            row = MatchAnalysis(match=match, tournament=tournament)
        before = {"state": row.state, "plies": row.plies} if existed else None
        row.plies = depth
        row.requested_by = user if getattr(user, "is_authenticated", False) and getattr(user, "pk", None) else None
        row.queued_at = timezone.now()
        row.started_at = row.finished_at = None
        row.pid = None
        if blocker is None:
            row.state, row.problem = AnalysisState.QUEUED, None
        else:
            row.state, row.problem = AnalysisState.FAILED, blocker.to_data()
            row.finished_at = row.queued_at
        row.save()
        after = {"state": row.state, "plies": row.plies, "reason": reason}
        audit.record(user, tournament, "analysis.rerun" if existed else "analysis.request", row, before, after)
        if blocker is None:
            transaction.on_commit(_send)
    return row


def _send() -> None:
    if _task_sender is not None:
        _task_sender()


def record_attached(match: Match, user=None) -> None:
    """The hook :func:`scoring.records.match_files.attach` calls: analyse the new record.

    Attaching never fails because of the analysis: a problem here is logged, the file stays
    attached and an official can queue the analysis again from the match's page.
    """
    try:
        with transaction.atomic():
            request(match, user, reason="attached")
    except Exception:  # noqa: BLE001 - the record matters more than its analysis
        logger.exception("could not queue the analysis of match %s", match.pk)


@dataclass
class Bulk:
    queued: int = 0
    failed: int = 0
    skipped: int = 0
    rows: list[MatchAnalysis] = field(default_factory=list)


def request_round(rnd: Round, user=None) -> Bulk:
    """Queue every match of a round that has a record (the fair queue keeps other events going)."""
    out = Bulk()
    matches = Match.objects.filter(round=rnd).select_related("round__tournament").order_by("table", "pk")
    for match in matches:
        if match.entry_b_id is None:
            continue
        if match_files.match_record(match) is None:
            out.skipped += 1
            continue
        row = request(match, user, reason="round")
        out.rows.append(row)
        if row.state == AnalysisState.QUEUED:
            out.queued += 1
        else:
            out.failed += 1
    return out


@dataclass(frozen=True)
class RoundProgress:
    """A round's analyses for its bulk-upload page: how many records, and where each stands."""

    records: int
    counts: dict[str, int]

    @property
    def busy(self) -> int:
        return self.counts.get(AnalysisState.QUEUED, 0) + self.counts.get(AnalysisState.RUNNING, 0)

    @property
    def analysed(self) -> int:
        return sum(self.counts.values())

    @property
    def done_percent(self) -> int:
        return int(100 * (self.analysed - self.busy) / self.analysed) if self.analysed else 100


def round_progress(rnd: Round) -> RoundProgress:
    """Two queries whatever the round's size: its matches with an attached record, its analyses by state."""
    records = (
        MatchFile.objects.filter(match__round=rnd, state=MatchFileState.ATTACHED).values("match_id").distinct().count()
    )
    counts = dict(
        MatchAnalysis.objects.filter(match__round=rnd).values_list("state").annotate(n=Count("pk")).order_by()
    )
    return RoundProgress(records=records, counts={s: counts.get(s, 0) for s in AnalysisState.values})


def reap_stale() -> int:
    """Analyses left running by a worker that died: failed (``analysis.worker_lost``), retryable.

    A live analysis is killed at the time limit, so one running well past it has no process.
    """
    cutoff = timezone.now() - timedelta(seconds=time_limit() + 120)
    stale = list(MatchAnalysis.objects.filter(state=AnalysisState.RUNNING, started_at__lt=cutoff))
    for row in stale:
        _fail(row, ANALYSIS.problem("worker_lost"))
    return len(stale)


def claim_next() -> MatchAnalysis | None:
    """Mark the fairest queued analysis running and return it (None when nothing waits)."""
    reap_stale()
    waiting = list(
        MatchAnalysis.objects.filter(state=AnalysisState.QUEUED).values("tournament_id").annotate(first=Min("queued_at"))
    )
    if not waiting:
        return None
    ids = [w["tournament_id"] for w in waiting]
    busy: dict[int, int] = {}
    last: dict[int, Any] = {}
    for t, running, started in (
        MatchAnalysis.objects.filter(tournament_id__in=ids)
        .values("tournament_id")
        .annotate(running=Count("pk", filter=Q(state=AnalysisState.RUNNING)), last=Max("started_at"))
        .values_list("tournament_id", "running", "last")
    ):
        busy[t], last[t] = running, started
    epoch = datetime.min.replace(tzinfo=UTC)  # an event that never started one goes first

    def fairness(w: dict[str, Any]):
        t = w["tournament_id"]
        return (busy.get(t, 0), last.get(t) or epoch, w["first"])

    for w in sorted(waiting, key=fairness):
        with transaction.atomic():
            row = (
                MatchAnalysis.objects.select_for_update(skip_locked=True)
                .filter(tournament_id=w["tournament_id"], state=AnalysisState.QUEUED)
                .order_by("queued_at", "pk")
                .first()
            )
            if row is None:
                continue
            row.state = AnalysisState.RUNNING
            row.started_at = timezone.now()
            row.attempts += 1
            row.save(update_fields=["state", "started_at", "attempts"])
            return row
    return None


def _fail(row: MatchAnalysis, problem: Problem) -> MatchAnalysis:
    row.state, row.problem, row.finished_at, row.pid = AnalysisState.FAILED, problem.to_data(), timezone.now(), None
    row.save(update_fields=["state", "problem", "finished_at", "pid"])
    return row


def run(row: MatchAnalysis) -> MatchAnalysis:
    """Analyse a claimed (running) match; every outcome is a stored state, nothing raises."""
    try:
        return _run(row)
    except Exception as exc:  # noqa: BLE001 - an analysis ends with a state the page can show
        logger.exception("analysis of match %s failed", row.match_id)
        return _fail(row, ANALYSIS.problem("crashed", reason=type(exc).__name__))


def _run(row: MatchAnalysis) -> MatchAnalysis:
    match = Match.objects.select_related("round__tournament").get(pk=row.match_id)
    blocker = _blocker(match)
    if blocker is not None:
        return _fail(row, blocker)
    text, mf = match_files.match_record(match)
    tournament = match.round.tournament
    first_is = (mf.first_is if mf is not None else "") or "a"
    players = match_files.player_names(match, first_is, "en")
    mat = match_files.as_mat(text, variant=tournament.variant, length=match_spec(match).length or 0, players=players)
    exe = program()

    def started(pid: int) -> None:
        MatchAnalysis.objects.filter(pk=row.pk).update(pid=pid)

    try:
        out = engine.analyse(mat, plies=row.plies, timeout=time_limit(), program=exe, on_start=started)
    except engine.EngineError as exc:
        return _fail(row, ANALYSIS.problem(exc.code, **exc.details))
    built = report.build(out.match, out.statistics_text, view_text(mat, variant=tournament.variant))
    side_of = {"a": "first", "b": "second"} if first_is == "a" else {"a": "second", "b": "first"}
    players_stats = built["players"]
    rates = built.get("engine_error_rate") or {}
    row.report = {**built, "first_is": first_is, "mat": mat}
    row.first_is = first_is
    row.record_sha = hashlib.sha256(text.encode()).hexdigest()
    row.pr_a = players_stats.get(side_of["a"], {}).get("pr")
    row.pr_b = players_stats.get(side_of["b"], {}).get("pr")
    row.decisions_a = players_stats.get(side_of["a"], {}).get("decisions", 0)
    row.decisions_b = players_stats.get(side_of["b"], {}).get("decisions", 0)
    row.engine_rate_a = rates.get(side_of["a"])
    row.engine_rate_b = rates.get(side_of["b"])
    row.seconds = round(out.seconds, 3)
    row.state, row.problem, row.finished_at, row.pid = AnalysisState.DONE, None, timezone.now(), None
    row.save()
    return row


def run_next() -> MatchAnalysis | None:
    """One worker's turn: claim the fairest queued analysis and run it."""
    row = claim_next()
    return run(row) if row is not None else None


# --------------------------------------------------------------------------- who may see PR


@dataclass(frozen=True, slots=True)
class Viewer:
    """What decides whether a reader sees a player's PR in one event."""

    official: bool
    own_players: frozenset[int]
    event_public: bool

    def sees(self, player_id: int | None, choices: dict[int, bool]) -> bool:
        """Officials and the player always; others when the player chose so, else as the event says."""
        if player_id is None:
            return False
        if self.official or player_id in self.own_players:
            return True
        return choices.get(player_id, self.event_public)


def viewer(user, tournament: Tournament, event: AnalysisSettings | None = None) -> Viewer:
    own: set[int] = set()
    entry = getattr(user, "entry", None)  # a private-link holder
    if entry is not None and getattr(entry, "player_id", None):
        own.add(entry.player_id)
    elif getattr(user, "is_authenticated", False) and getattr(user, "pk", None):
        player = getattr(user, "player", None) if hasattr(user, "player") else None
        if player is not None:
            own.add(player.pk)
    official = bool(official_roles(user, tournament)) if getattr(user, "is_authenticated", False) else False
    event = event or settings_for(tournament)
    return Viewer(official=official, own_players=frozenset(own), event_public=event.public)


def choices_for(player_ids: Iterable[int]) -> dict[int, bool]:
    return dict(PlayerAnalysisChoice.objects.filter(player_id__in=list(player_ids)).values_list("player_id", "public"))


def set_choice(player, public: bool, user=None) -> None:
    """Public everywhere, or back to the default (the player, the officials; public events)."""
    if public:
        PlayerAnalysisChoice.objects.update_or_create(player=player, defaults={"public": True})
    else:
        PlayerAnalysisChoice.objects.filter(player=player).delete()


# --------------------------------------------------------------------------- the PR table


@dataclass
class PrRow:
    entry_id: int
    player_id: int
    name: str
    visible: bool
    matches: int = 0
    decisions: int = 0
    error_sum: float = 0.0  # PR × decisions, so the event's PR is exact over all decisions
    best: float | None = None
    rounds: dict[int, tuple[float, int]] = field(default_factory=dict)
    #: The depths of the analyses behind the row: a 0-ply PR is not a 2-ply PR (issue 46).
    depths: set[int] = field(default_factory=set)
    #: Analyses that stopped before the record's end (gnubg read only part of it).
    partial: int = 0

    @property
    def depth(self) -> str:
        return "/".join(str(d) for d in sorted(self.depths))

    @property
    def pr(self) -> float | None:
        return round(self.error_sum / self.decisions, 2) if self.decisions else None

    @property
    def small(self) -> bool:
        return self.decisions < report.SMALL_SAMPLE

    def round_pr(self, number: int) -> float | None:
        got = self.rounds.get(number)
        return round(got[0] / got[1], 2) if got and got[1] else None


@dataclass
class PrTable:
    rows: list[PrRow]
    rounds: list[int]
    counts: dict[str, int]


def pr_table(tournament: Tournament, user, language: str = "ru") -> PrTable:
    """Every player's PR in the event: overall, best match, per round; a fixed number of queries."""
    event = settings_for(tournament)
    who = viewer(user, tournament, event)
    done = list(
        MatchAnalysis.objects.filter(tournament=tournament, state=AnalysisState.DONE).values_list(
            "match__round__number", "match__entry_a_id", "match__entry_b_id", "pr_a", "pr_b", "decisions_a", "decisions_b",
            "plies", "report__partial__game",  # one key of the report, never the report itself
        )
    )
    counts = dict(MatchAnalysis.objects.filter(tournament=tournament).values_list("state").annotate(n=Count("pk")))
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    choices = choices_for(e.player_id for e in entries.values())
    rows: dict[int, PrRow] = {}
    rounds: set[int] = set()
    for number, ea, eb, pra, prb, da, db, plies, stopped in done:
        rounds.add(number)
        for entry_id, pr, dec in ((ea, pra, da), (eb, prb, db)):
            entry = entries.get(entry_id)
            if entry is None or pr is None:
                continue
            r = rows.get(entry_id)
            if r is None:
                r = rows[entry_id] = PrRow(
                    entry_id, entry.player_id, entry.player.display_name(language),
                    who.sees(entry.player_id, choices),
                )
            r.matches += 1
            r.depths.add(plies)
            r.partial += stopped is not None
            r.decisions += dec
            r.error_sum += pr * dec
            r.best = pr if r.best is None else min(r.best, pr)
            s, n = r.rounds.get(number, (0.0, 0))
            r.rounds[number] = (s + pr * dec, n + dec)
    ordered = sorted(rows.values(), key=lambda r: (not r.visible, r.pr if r.pr is not None else 1e9, r.name))
    return PrTable(rows=ordered, rounds=sorted(rounds), counts={s: counts.get(s, 0) for s in AnalysisState.values})


# --------------------------------------------------------------------------- a player's history


def player_history(player, user) -> list[dict[str, Any]]:
    """One player's PR per event (done analyses) that the reader may see, in date order.

    A fixed number of queries whatever the history: the analyses, the events the reader may
    see, those they officiate, the events' settings and the player's own choice.
    """
    rows = list(
        MatchAnalysis.objects.filter(state=AnalysisState.DONE)
        .filter(Q(match__entry_a__player=player) | Q(match__entry_b__player=player))
        .values_list("tournament_id", "match__entry_a__player_id", "pr_a", "pr_b", "decisions_a", "decisions_b")
    )
    if not rows:
        return []
    ids = {r[0] for r in rows}
    tournaments = {t.pk: t for t in visible_tournaments(user).filter(pk__in=ids)}
    officiated = set(officiated_tournaments(user).filter(pk__in=ids).values_list("pk", flat=True))
    events = {s.tournament_id: s for s in AnalysisSettings.objects.filter(tournament_id__in=list(tournaments))}
    choice = choices_for([player.pk])
    own = getattr(user, "is_authenticated", False) and player.user_id is not None and player.user_id == user.pk
    totals: dict[int, list[float]] = defaultdict(lambda: [0.0, 0, 0])
    for tid, a_player, pra, prb, da, db in rows:
        pr, dec = (pra, da) if a_player == player.pk else (prb, db)
        if pr is None or tid not in tournaments:
            continue
        t = totals[tid]
        t[0] += pr * dec
        t[1] += dec
        t[2] += 1
    out = []
    for tid, (err, dec, n) in totals.items():
        event = events.get(tid) or AnalysisSettings(tournament=tournaments[tid])
        who = Viewer(official=tid in officiated, own_players=frozenset({player.pk} if own else ()), event_public=event.public)
        if not who.sees(player.pk, choice):
            continue
        out.append({
            "tournament": tournaments[tid], "pr": round(err / dec, 2) if dec else None, "decisions": dec,
            "matches": n, "small": dec < report.SMALL_SAMPLE,
        })
    out.sort(key=lambda r: (r["tournament"].starts_on, r["tournament"].pk))
    return out


# --------------------------------------------------------------------------- one match, for pages and the API


def match_summary(match: Match, user, language: str = "ru") -> dict[str, Any]:
    """What a reader may know of one match's analysis: state, reason, each side's figures.

    A side's PR, counts and worst decisions are there only when the reader may see that
    player's PR (:class:`Viewer`); the state and its reason are for everyone who sees the match.
    """
    tournament = match.round.tournament
    row = MatchAnalysis.objects.filter(match=match).first()
    out: dict[str, Any] = {
        "match": match.pk,
        "variant": tournament.variant,
        "engine": tournament.variant in ENGINE_VARIANTS,
        "available": available(),
        "state": row.state if row else None,
        "reason": None,
        "plies": row.plies if row else settings_for(tournament).plies,
        "finished_at": row.finished_at if row else None,
        "sides": {},
        "strip": [],
        "partial": None,
    }
    if row is not None and row.problem:
        problem = Problem.from_data(row.problem)
        out["reason"] = {"code": problem.code, "message": problem.message(language)}
    elif row is None and tournament.variant not in ENGINE_VARIANTS:
        problem = ANALYSIS.problem("no_engine", variant=tournament.get_variant_display())
        out["reason"] = {"code": problem.code, "message": problem.message(language)}
    if row is None or row.state != AnalysisState.DONE or not row.report:
        return out
    out["partial"] = row.report.get("partial")
    who = viewer(user, tournament)
    names = match.side_names(language)
    entries = {"a": match.entry_a, "b": match.entry_b}
    choices = choices_for(e.player_id for e in entries.values() if e is not None)
    file_side = {"a": "first", "b": "second"} if row.first_is == "a" else {"a": "second", "b": "first"}
    visible_file_sides = set()
    for side in ("a", "b"):
        entry = entries[side]
        if entry is None:
            continue
        visible = who.sees(entry.player_id, choices)
        stats = dict(row.report["players"].get(file_side[side], {}))
        # gnubg's own figure beside ours (PR × 2 = its error rate), for a reader to check.
        stats["engine_error_rate"] = row.engine_rate_a if side == "a" else row.engine_rate_b
        out["sides"][side] = {
            "name": names.get(side, side.upper()),
            "player": entry.player_id,
            "visible": visible,
            "stats": stats if visible else None,
            "small": stats.get("decisions", 0) < report.SMALL_SAMPLE if visible else None,
            "worst": row.report["worst"].get(file_side[side], []) if visible else [],
            "games": [
                {"number": g["number"], **(g["players"].get(file_side[side]) or {})} for g in row.report["games"]
            ] if visible else [],
        }
        if visible:
            visible_file_sides.add(file_side[side])
    sides_by_file = {v: k for k, v in file_side.items()}
    out["strip"] = [
        {**s, "side": sides_by_file[s["side"]]} for s in row.report.get("strip", []) if s["side"] in visible_file_sides
    ]
    return out
