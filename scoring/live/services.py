"""The one place a live step is taken: who may send it, its order, its key, the rules, the end.

Pages and the JSON API call :func:`record_step`; it locks the recording's row, so two
devices (or a step resent after a lost connection) are decided by the database, never
by a process:

* a step whose idempotency ``key`` is already stored is answered with the stored step
  (a resend after a lost answer changes nothing);
* a step numbered ``seq`` must be the next one (``recording.seq + 1``); if the number is
  already taken by the *same* step (a second device that saw the same roll) the two are
  merged, otherwise it is refused with ``live.out_of_order``, naming the step number and
  the position the recording expected;
* the step is checked by the rules core (:func:`scoring.rules.records.live.apply`) before it is
  stored; an illegal play is refused with the core's problems.

When the last step ends the match, :func:`finish` writes the record (``.mat`` for
backgammon, the book's notation otherwise), keeps it through
:func:`scoring.records.match_files.store` and attaches it with
:func:`~scoring.records.match_files.attach`: its score goes to the result workflow as a
report the opponent confirms (or, when a result was already entered, it must agree
with it), and attaching queues the PR analysis (the analysis app's hook).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from scoring import workflow
from scoring.models import ResultState
from scoring.records import match_files
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.problems.live import LIVE
from scoring.rules.records import live as core
from tournaments import cache
from tournaments.access.permissions import allowed
from tournaments.models import Match, ResultStatus
from tournaments.validation import match_spec

from .models import LiveRecording, LiveStep

logger = logging.getLogger(__name__)

#: States already replayed, by (recording, steps): a poll or the next step need not replay.
_STATES: dict[tuple[Any, ...], core.LiveState] = {}
_STATES_MAX = 256


class StepRefused(Exception):
    """A step that was not stored; ``problems`` say why, ``expected`` the step number wanted."""

    def __init__(self, problems: list[Problem], *, expected: int | None = None, status: int = 422):
        super().__init__(problems)
        self.problems = problems
        self.expected = expected
        self.status = status


@dataclass
class StepAnswer:
    step: LiveStep
    duplicate: bool
    snapshot: dict[str, Any] = field(default_factory=dict)


def may_record(user, match: Match, recording: LiveRecording | None = None) -> bool:
    """The match's players (account or private link), its officials, or the appointed recorder."""
    if allowed(user, "live.record", match):
        return True
    return bool(recording and recording.recorder_id and getattr(user, "pk", None) == recording.recorder_id)


def recording_for(match: Match) -> LiveRecording:
    """The match's live recording (created, empty, on first use)."""
    rec, created = LiveRecording.objects.get_or_create(match=match, defaults={"tournament_id": match.round.tournament_id})
    if created or not rec.snapshot:
        rec.snapshot = snapshot(match, state_of(rec, match))
        rec.save(update_fields=["snapshot"])
    return rec


def _steps(rec: LiveRecording) -> list[dict[str, Any]]:
    return list(rec.steps.order_by("seq").values_list("data", flat=True))


def state_of(rec: LiveRecording, match: Match | None = None) -> core.LiveState:
    """The recording's state (replayed from its steps, or from this process's memory)."""
    match = match or rec.match
    spec, variant = match_spec(match), match.round.tournament.variant
    key = _key(rec, spec, variant)
    if key in _STATES:
        return _STATES[key]
    state = core.replay(spec, variant, _steps(rec))
    _remember(key, state)
    return state


def _key(rec: LiveRecording, spec: Any, variant: str) -> tuple[Any, ...]:
    """A remembered state is the recording's after ``seq`` steps under these rules (a changed
    option of the match is a different key, never a stale board)."""
    return (rec.pk, rec.match_id, rec.seq, variant, spec)


def _remember(key: tuple[Any, ...], state: core.LiveState) -> None:
    if len(_STATES) >= _STATES_MAX:
        _STATES.pop(next(iter(_STATES)))
    _STATES[key] = state


def snapshot(match: Match, state: core.LiveState) -> dict[str, Any]:
    """What the live pages and the API show (plain JSON, kept on the recording's row)."""
    data = core.summary(state)
    data["names"] = {"white": match.entry_a.player.full_name,
                     "black": match.entry_b.player.full_name if match.entry_b_id else ""}
    return data


def watcher_state(rec: LiveRecording) -> dict[str, Any]:
    """The one answer of every watcher poll: the board page's ``state.json`` and the API's
    ``/api/matches/<id>/live/`` (the row's snapshot, its step count, recording or finished)."""
    return {**rec.snapshot, "seq": rec.seq, "state": rec.state, "match": rec.match_id}


def is_live(rec: LiveRecording) -> bool:
    """A recording the public is pointed to: steps recorded and the match not over yet."""
    return rec.state == LiveRecording.RECORDING and rec.seq > 0


def live_match_ids(round_ids: list[int]) -> frozenset[int]:
    """The matches of these rounds being recorded now (the pairings' "live" mark), one query."""
    return frozenset(LiveRecording.objects.filter(
        match__round_id__in=round_ids, state=LiveRecording.RECORDING, seq__gt=0,
    ).values_list("match_id", flat=True))


def _shown_changed(match: Match) -> None:
    """The pairings mark a match live from its first step to its end: their cached pages and
    kept rows of its round move on (a step in between changes nothing they show)."""
    cache.invalidate_results(match.round.tournament_id, match.round_id)


def _who(user) -> str:
    entry = getattr(user, "entry", None)
    if entry is not None:
        return f"link:{entry.pk}"
    return f"user:{getattr(user, 'pk', '')}"


def _expected_problem(rec: LiveRecording, state: core.LiveState, got: int, language: str = "en") -> Problem:
    ids = core.ids(state)
    what = core.expected_what(state, language)
    if ids.get("position_id"):
        what += f", Position ID {ids['position_id']}"
    return LIVE.problem("out_of_order", expected=rec.seq + 1, got=got, expected_what=what)


def record_step(match: Match, user, *, seq: int, key: str, step: dict[str, Any]) -> StepAnswer:
    """Store one step of ``match``'s live recording (see the module docstring for the rules)."""
    key = str(key or "").strip()[:64]
    if not key:
        raise StepRefused([LIVE.problem("bad_step", reason="no idempotency key")], status=400)
    if not isinstance(step, dict) or "kind" not in step:
        raise StepRefused([LIVE.problem("bad_step", reason="no step kind")], status=400)
    step = {k: v for k, v in step.items() if k in ("kind", "dice", "side", "text", "numbering", "result")}
    recording_for(match)
    with transaction.atomic():
        rec = LiveRecording.objects.select_for_update().get(match=match)
        if not may_record(user, match, rec):
            raise PermissionDenied
        stored = rec.steps.filter(key=key).first()
        if stored is not None:
            return StepAnswer(stored, True, rec.snapshot)
        state = state_of(rec, match)
        if seq != rec.seq + 1:
            same = rec.steps.filter(seq=seq).first() if 0 < seq <= rec.seq else None
            if same is not None and same.data == step:
                return StepAnswer(same, True, rec.snapshot)  # a second device saw the same step
            raise StepRefused([_expected_problem(rec, state, seq)], expected=rec.seq + 1, status=409)
        try:
            after = core.apply(state, step)
        except RuleViolation as exc:
            raise StepRefused(list(exc.problems), expected=rec.seq + 1) from None
        try:
            with transaction.atomic():
                stored = LiveStep.objects.create(recording=rec, seq=seq, key=key, kind=step["kind"], data=step, by=_who(user))
        except IntegrityError:
            raise StepRefused([_expected_problem(rec, state, seq)], expected=rec.seq + 1, status=409) from None
        rec.seq = seq
        _remember(_key(rec, state.spec, state.variant), after)
        rec.snapshot = snapshot(match, after)
        rec.save(update_fields=["seq", "snapshot", "updated_at"])
        if after.phase == core.OVER:
            finish(rec, match, after, user)
        if seq == 1 or after.phase == core.OVER:
            _shown_changed(match)
    return StepAnswer(stored, False, rec.snapshot)


def finish(rec: LiveRecording, match: Match, state: core.LiveState, user) -> None:
    """The match is over: keep the record, attach it, and report its score (or check it).

    Any refusal here (a result already entered that differs, a disputed match) leaves the
    steps stored and the file kept for the referee, with the problem on the recording.
    """
    rec.state = LiveRecording.FINISHED
    names = (match.entry_a.player.full_name, match.entry_b.player.full_name if match.entry_b_id else "")
    kind, text = core.record_text(state, names)
    tournament = match.round.tournament
    check = match_files.check_text(text, variant=tournament.variant, name="recorded live." + ("mat" if kind == "mat" else "txt"))
    mf = match_files.store(check, tournament=tournament, match=match, user=user)  # provenance: name and rec.record_file
    rec.record_file = mf
    reporter = user if allowed(user, "result.report", match) or allowed(user, "result.enter", match) else rec.appointed_by
    entered = _entered_score(match)
    problem = None
    try:
        with transaction.atomic():
            if entered is not None and not match_spec(match).same_result(state.score, entered):
                problem = LIVE.problem("result_differs", recorded=f"{state.score[0]}:{state.score[1]}",
                                       entered=f"{entered[0]}:{entered[1]}")
                if match.result_status == ResultStatus.CONFIRMED:
                    raise match_files.FileRefused([problem])
            use_result = entered is None or problem is not None
            match.refresh_from_db()
            match_files.attach(mf, reporter, first_is="a", use_result=use_result, confirm=False,
                               despite=problem is not None, despite_reason="recorded live" if problem else "")
    except (match_files.FileRefused, workflow.ResultError, PermissionDenied) as exc:
        problems = getattr(exc, "problems", None) or [getattr(exc, "problem", None) or problem]
        rec.problem = [p.to_data() for p in problems if p is not None]
        logger.info("live recording of match %s kept, not attached: %s", match.pk, rec.problem)
    rec.save(update_fields=["state", "record_file", "problem", "updated_at"])


def _entered_score(match: Match) -> tuple[Any, Any] | None:
    if match.result_status == ResultStatus.CONFIRMED:
        return match.score_a, match.score_b
    reported = match.results.filter(state=ResultState.REPORTED).order_by("-pk").first()
    return (reported.score_a, reported.score_b) if reported else None


def appoint(match: Match, official, *, recorder, featured: bool) -> LiveRecording:
    """A referee names the recorder (an account) of a feature table, or clears them."""
    if not allowed(official, "live.appoint", match):
        raise PermissionDenied
    rec = recording_for(match)
    rec.recorder = recorder
    rec.appointed_by = official if getattr(official, "pk", None) else None
    rec.featured = featured
    rec.save(update_fields=["recorder", "appointed_by", "featured", "updated_at"])
    return rec


def featured(tournament) -> list[LiveRecording]:
    return list(LiveRecording.objects.filter(tournament=tournament, featured=True).select_related("match").order_by("pk"))


def feature_etag_by_slug(slug: str) -> str:
    """The hall slot's ETag: each featured recording and its step count (one small query)."""
    rows = LiveRecording.objects.filter(tournament__slug=slug, featured=True).order_by("pk").values_list("pk", "seq")
    return "f-" + "-".join(f"{pk}.{seq}" for pk, seq in rows)
