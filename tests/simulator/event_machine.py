"""The whole-event simulator: hypothesis plays whole events and checks the event after every step.

Each run sets an event up (a system, a field, a match format and its options), then takes
actions in any order the rules allow — pair, publish, delete a draft, enter results, forfeits,
voids, withdrawals with either settle mode, ratings — through the same services the pages and
the API call (``pairing_manager``, ``scoring.workflow``, ``entries.status``). A refusal is a
normal outcome (a coded problem); anything else that escapes is a failure. After every step
the invariants of :meth:`EventMachine.check_the_event` must hold; on a failure hypothesis prints
the shortest sequence of steps that breaks one.

A new option is a new draw in :meth:`EventMachine.set_up`; a new action a new ``@rule``; a new
guarantee a new line in the invariant. ``make soak`` runs it for as long as you ask.
"""

from __future__ import annotations

import io
import itertools
import json

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from openpyxl import load_workbook

from scoring import workflow
from scoring.archive import backup as archive
from tests.factories import OfficialFactory, TournamentFactory, enter
from tournaments.api.tables import crosstable_data
from tournaments.entries import status as entry_status
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import (
    EntryStatus,
    ForfeitScore,
    Match,
    OfficialRole,
    ResultKind,
    ResultStatus,
    Round,
    RoundStatus,
)
from tournaments.rounds import pairing_manager as pm
from tournaments.standings.types import MatchStatus
from tournaments.standings_service import load_event
from tournaments.validation import validate_result

#: Each run's event gets its own slug, players and director (runs share one database).
_runs = itertools.count(1)
#: What an action may answer instead of doing it: a coded refusal, shown to the user as such.
REFUSALS = (pm.PairingRefused, workflow.ResultError, entry_status.EntryRefused)
SYSTEMS = {"swiss": (4, 9), "round_robin": (3, 6), "knockout": (4, 8)}
PUBLIC_PAGES = ("", "pairings/", "standings/", "crosstable/")


class EventMachine(RuleBasedStateMachine):
    """One event per run; the state is in the database, read back by every rule and invariant.

    Each run lives in its own savepoint, rolled back at its end: runs (and hypothesis's
    replays while it shrinks a failure) start from the same database, and an error in one
    run cannot leave the connection unusable for the next.
    """

    def __init__(self):
        super().__init__()
        self._savepoint = transaction.atomic()
        self._savepoint.__enter__()

    # ----------------------------------------------------------------------------- set-up

    @initialize(
        system=st.sampled_from(sorted(SYSTEMS)),
        size=st.integers(min_value=3, max_value=9),
        length=st.sampled_from([1, 3, 5]),
        cube=st.booleans(),
        forfeit_score=st.sampled_from(ForfeitScore.values),
        games=st.sampled_from([None, None, 1, 2, 3, 4]),
    )
    def set_up(self, system, size, length, cube, forfeit_score, games):
        """``games``: None plays to ``length`` points, else a fixed number of games (odd or even:
        an even number can end level, which a knockout must refuse)."""
        low, high = SYSTEMS[system]
        size = min(max(size, low), high)
        run = next(_runs)
        self.slug = f"sim-{run}"
        self.tournament = TournamentFactory(
            name=f"Симуляция {run}", slug=self.slug, system=system, match_length=length, cube=cube,
            crawford=cube, forfeit_score=forfeit_score,
            match_format="points" if games is None else "games", fixed_games=games, draw_value="0.5",
            rounds_planned=None if system != "swiss" else min(size - 1, 5),
        )  # fmt: skip
        self.director = get_user_model().objects.create(username=f"sim-director-{run}")
        OfficialFactory(tournament=self.tournament, user=self.director, role=OfficialRole.ORGANISER)
        enter(self.tournament, [{"last_name": f"Сим{run}x{i}", "first_name": "Игрок"} for i in range(size)])
        self.anonymous = Client()
        self.organiser = Client()
        self.organiser.force_login(self.director)
        self.steps = 0

    # ----------------------------------------------------------------------------- helpers

    def _rounds(self):
        return Round.objects.filter(tournament=self.tournament).order_by("number")

    def _pending(self):
        return list(
            Match.objects.filter(
                round__tournament=self.tournament, round__status=RoundStatus.PUBLISHED,
                entry_b__isnull=False, result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED],
            ).order_by("round__number", "table")
        )  # fmt: skip

    def _attempt(self, action, *args, **kwargs):
        """Do ``action``; a coded refusal is an answer, not a failure."""
        self.steps += 1
        try:
            return action(*args, **kwargs)
        except REFUSALS as refusal:
            problems = getattr(refusal, "problems", None) or [getattr(refusal, "problem", None)]
            assert all(p is not None for p in problems), f"a refusal without a problem: {refusal!r}"
            return None

    # ----------------------------------------------------------------------------- actions

    @rule()
    def pair_the_next_round(self):
        self._attempt(pm.generate_next, self.tournament, user=self.director)

    @rule()
    def publish_the_draft(self):
        draft = self._rounds().filter(status=RoundStatus.DRAFT).first()
        if draft is not None:
            self._attempt(pm.publish_round, draft, user=self.director)

    @rule()
    def delete_the_draft(self):
        draft = self._rounds().filter(status=RoundStatus.DRAFT).last()
        if draft is not None:
            self._attempt(pm.delete_draft, draft, user=self.director)

    @rule(pick=st.integers(min_value=0, max_value=50), winner=st.sampled_from("ab"),
          loser=st.integers(min_value=0, max_value=4))  # fmt: skip
    def confirm_a_played_result(self, pick, winner, loser):
        pending = self._pending()
        if not pending:
            return
        match = pending[pick % len(pending)]
        if self.tournament.match_format == "games":
            games = self.tournament.fixed_games
            won = min(games, loser + (games + 1) // 2)  # from a bare majority up to a whitewash
            final = (won, games - won) if winner == "a" else (games - won, won)
        else:
            length = match.match_length or self.tournament.match_length
            loser = min(loser, length - 1)
            final = (length, loser) if winner == "a" else (loser, length)
        self._attempt(workflow.submit_result, match.pk, self.director, version=match.version, final=final, confirm=True)

    @rule(pick=st.integers(min_value=0, max_value=50),
          kind=st.sampled_from([ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT, ResultKind.VOID]),
          winner=st.sampled_from("ab"))  # fmt: skip
    def settle_a_match_without_play(self, pick, kind, winner):
        pending = self._pending()
        if not pending:
            return
        match = pending[pick % len(pending)]
        self._attempt(
            workflow.record_kind_result, match.pk, self.director, version=match.version, kind=kind,
            winner=winner if kind == ResultKind.FORFEIT else None, reason="simulated",
        )  # fmt: skip

    @rule(pick=st.integers(min_value=0, max_value=50), settle=st.sampled_from(entry_status.SETTLE_CHOICES))
    def withdraw_a_player(self, pick, settle):
        entries = list(self.tournament.entries.exclude(status=EntryStatus.WITHDRAWN).order_by("pk"))
        if len(entries) > 2:
            entry = entries[pick % len(entries)]
            self._attempt(entry_status.withdraw, entry, self.director, reason="simulated", settle=settle)

    @precondition(lambda self: self.steps > 3)
    @rule()
    def export_the_workbook(self):
        self.steps += 1
        self._workbook_agrees_with_the_standings()

    # ----------------------------------------------------------------------------- invariants

    @invariant()
    def check_the_event(self):
        if not hasattr(self, "tournament"):
            return
        self._pages_answer_for_every_role()
        self._no_published_match_waits_for_a_withdrawn_player()
        self._every_confirmed_result_passes_the_rules_core()
        event = load_event(self.tournament)
        self._places_follow_the_ranking(event)
        self._buchholz_within_the_rounds_played(event)
        self._a_finished_cup_ranks_its_champion_first(event)

    def _pages_answer_for_every_role(self):
        for client in (self.anonymous, self.organiser):
            for page in PUBLIC_PAGES:
                response = client.get(f"/t/{self.slug}/{page}")
                assert response.status_code < 500, f"/t/{self.slug}/{page}: {response.status_code}"
            api = client.get(f"/api/tournaments/{self.slug}/standings/")
            assert api.status_code < 500, f"standings API: {api.status_code}"
        drafts = set(self._rounds().filter(status=RoundStatus.DRAFT).values_list("pk", flat=True))
        listed = self.anonymous.get(f"/api/rounds/?tournament={self.slug}").json()
        rows = listed["results"] if isinstance(listed, dict) else listed
        assert not drafts & {r["id"] for r in rows}, "a draft round is visible to the public"

    def _no_published_match_waits_for_a_withdrawn_player(self):
        waiting = Match.objects.filter(
            round__tournament=self.tournament, round__status=RoundStatus.PUBLISHED,
            result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED],
        ).filter(entry_b__isnull=False)  # fmt: skip
        for m in waiting.select_related("entry_a", "entry_b"):
            assert EntryStatus.WITHDRAWN not in (m.entry_a.status, m.entry_b.status), (
                f"round {m.round.number} table {m.table} waits for a withdrawn player"
            )

    def _every_confirmed_result_passes_the_rules_core(self):
        confirmed = Match.objects.filter(
            round__tournament=self.tournament, result_status=ResultStatus.CONFIRMED, entry_b__isnull=False,
            result_kind=ResultKind.PLAYED,
        )  # fmt: skip
        for m in confirmed.select_related("round__tournament"):
            verdict = validate_result(m, final=(m.score_a, m.score_b))
            assert verdict.ok, f"round {m.round.number} table {m.table}: {verdict.problems}"

    def _places_follow_the_ranking(self, event):
        for table in event.standings.values():
            rows = list(table.rows)
            for upper, lower in itertools.pairwise(rows):
                assert upper.place <= lower.place
                if upper.place == lower.place:
                    assert upper.values == lower.values, f"shared place {upper.place} with different keys"

    def _buchholz_within_the_rounds_played(self, event):
        if self.tournament.system != "swiss":
            return
        played = max((m.round for m in event.matches if m.status == MatchStatus.FINISHED), default=0)
        for table in event.standings.values():
            for row in table.rows:
                buchholz = row.values.get("buchholz")
                if buchholz is not None:
                    assert buchholz <= played * played, f"Buchholz {buchholz} after {played} rounds"

    def _a_finished_cup_ranks_its_champion_first(self, event):
        """Once a cup's final is decided, its winner is first and the finalist second."""
        if self.tournament.system != "knockout":
            return
        last = self._rounds().filter(status=RoundStatus.PUBLISHED).last()
        if last is None or last.matches.count() != 1:
            return
        final = last.matches.get()
        entrants = self.tournament.entries.count()
        if final.entry_b_id is None or final.result_status != ResultStatus.CONFIRMED or not final.winner:
            return
        if 2 ** (last.number - 1) < entrants / 2:
            return  # one match left early (withdrawals), not the final of the full bracket
        winner, loser = (final.entry_a_id, final.entry_b_id) if final.winner == "a" else (final.entry_b_id, final.entry_a_id)
        places = event.places()
        assert places.get(winner) == "1", f"the champion is placed {places.get(winner)}"
        assert places.get(loser) == "2", f"the finalist is placed {places.get(loser)}"

    def _workbook_agrees_with_the_standings(self):
        out = io.BytesIO()
        build_workbook(self.tournament, out, "ru")
        api = self.organiser.get(f"/api/tournaments/{self.slug}/standings/").json()
        order = [row["name"] for section in api["sections"] for row in section["rows"]]
        sheet = load_workbook(io.BytesIO(out.getvalue()), read_only=True).worksheets[0]
        names = set(order)
        in_sheet = [cell for row in sheet.iter_rows(values_only=True) for cell in row if cell in names]
        assert in_sheet == order, "the workbook's standings disagree with the standings API"

    def _archive_and_restore_give_the_same_tables(self):
        """A tournament restored from its archive ranks and crosses exactly as the original
        (compared by the players' names: the copy has its own ids)."""
        out = io.StringIO()
        archive.export(self.tournament, out)
        restored = archive.load(json.loads(out.getvalue()), self.director, slug=f"{self.slug}-restored").tournament
        assert self._tables(restored) == self._tables(self.tournament), "the restored tables differ"

    def _tables(self, tournament):
        event = load_event(tournament)
        name = {e.id: e.name_ru for e in event.entries.values()}
        standings = [
            [(name[r.player.id], r.place, r.place_to, sorted(r.values.items())) for r in table.rows]
            for table in event.standings.values()
        ]
        crosstable = [
            [
                (row["name"], row["place"], row["total"],
                 [(name[c["opponent"]], c["text"], c["outcome"], c["scores"]) for c in row["cells"]])
                for row in section["rows"]
            ]
            for section in crosstable_data(event)["sections"]
        ]  # fmt: skip
        return standings, crosstable

    def teardown(self):
        try:
            if hasattr(self, "tournament") and self.steps and not transaction.get_connection().needs_rollback:
                self._workbook_agrees_with_the_standings()
                self._archive_and_restore_give_the_same_tables()
        finally:
            transaction.set_rollback(True)
            self._savepoint.__exit__(None, None, None)

