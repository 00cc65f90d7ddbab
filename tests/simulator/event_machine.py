"""The whole-event simulator: hypothesis plays whole events and checks the event after every step.

Each run sets an event up (a system and its options, a field, a match format, a variant, a
forfeit rule, a dispute window, prizes), then takes actions in any order the rules allow —
pair, publish, unpublish, delete a draft; players report, confirm and dispute; the director
confirms, corrects, settles forfeits, voids, applies lateness, sanctions and disqualifies,
rules on disputes; the jury decides appeals; players are entered late, withdraw, ask for
byes, are kept apart; the organiser sets the category an entry plays in and players earn
another; a namesake registers and is approved as a new player or refused; a match's record is
attached (despite its problems, with a reason, when it names other players); the analysis
settings change; a Swiss qualifies its top into a cup; rounds are closed; the workbook
is exported — through the same services the pages and the API call. A refusal is a normal
outcome (a coded problem); anything else that escapes is a failure. Every action runs as if
its request committed: what waits for the commit (ratings, emails, closing the round) runs
after it. After every step the guarantees of :mod:`tests.simulator.invariants` must hold; on
a failure hypothesis prints the shortest sequence of steps that breaks one.

Most of an event is rounds played out, so that is the common step (:data:`WEIGHTS`); an action
that only makes sense at some moment (ruling on a dispute, changing a draft) waits for it
(``when``, a test of the event's :class:`Moment`), and the desk's chores (fees, categories,
analysis settings…) happen a few times an event (``at_most``). Every run leaves a record of what
it played (:mod:`tests.simulator.coverage`): the suite and ``make soak`` print it as a table.

A new option is a new draw in :meth:`EventMachine.set_up`; a new action a new ``@action``; a new
guarantee a new function in ``invariants``. ``make soak`` runs it for as long as you ask.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Q
from django.test import Client, TestCase
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from hypothesis.strategies._internal.featureflags import FeatureFlags, FeatureStrategy
from rest_framework.test import APIClient

from clubs.categories import change_category
from clubs.identity.services import NEW
from clubs.models import Membership, Player
from clubs.names import to_latin
from scoring import workflow
from scoring.analysis.services import settings_for
from scoring.models import (
    Dispute,
    DisputeState,
    MatchFile,
    MatchFileState,
    Outcome,
    Sanction,
    SanctionKind,
)
from scoring.rules.errors import RuleViolation
from tests.factories import (
    ClubFactory,
    OfficialFactory,
    PlayerFactory,
    SectionFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tests.simulator import coverage, invariants
from tests.simulator.forms import form_fields, grid_prefix
from tests.simulator.records import mat_for
from tournaments.access import private_links
from tournaments.access.private_links import token_for
from tournaments.draw import services as draw
from tournaments.entries import importer, roster, teams
from tournaments.entries import status as entry_status
from tournaments.models import (
    Entry,
    EntryStatus,
    ForfeitScore,
    Match,
    OfficialRole,
    PenaltyFrom,
    PrizeSplitRule,
    Registration,
    RegistrationStatus,
    ResultKind,
    ResultStatus,
    Round,
    RoundStatus,
    Team,
    TeamMember,
    TournamentStatus,
    Variant,
)
from tournaments.prizes import services as prizes
from tournaments.rounds import flow
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.pairing_manager.reading import next_number
from tournaments.rounds.pairing_manager.systems import fixed_schedule
from tournaments.rounds.swiss import requests as swiss
from tournaments.validation import match_spec

#: Each run's event gets its own slug, players and officials (runs share one database).
_runs = itertools.count(1)
#: What an action may answer instead of doing it: a coded refusal, shown to the user as such.
REFUSALS = (pm.PairingRefused, workflow.ResultError, entry_status.EntryRefused, RuleViolation,
            importer.ImportRefused)
SYSTEMS = {"swiss": (4, 9), "round_robin": (3, 6), "knockout": (4, 8), "scheveningen": (4, 8)}
#: The knockout's options, one draw each (the core refuses the combinations the book does not know).
KNOCKOUT_OPTIONS = (
    {}, {"third_place": True}, {"consolation": True}, {"consolation": True, "last_chance": True},
    {"progressive_consolation": True}, {"double_elimination": True},
    {"double_elimination": True, "single_grand_final": True},
)  # fmt: skip
PRIZES = {1: Decimal(3000), 2: Decimal(2000), 3: Decimal(1000)}
PLAYED_ROUNDS = (RoundStatus.PUBLISHED, RoundStatus.FINISHED)

#: The plainest event :meth:`EventMachine.set_up` can make (backgammon to 3, no cube, one cycle, no
#: prizes, sections, clubs or lateness): a fixed-path seam test names only what it is about,
#: ``machine.set_up(**{**PLAIN, "system": "round_robin", "size": 5})``.
PLAIN = dict(
    system="swiss", size=4, length=3, cube=False, forfeit_score=ForfeitScore.FULL, games=None,
    variant=Variant.BACKGAMMON, knockout={}, cycles=1, half_bye=0.0, late_points=0.0, window=0,
    lateness=False, fund=None, split=PrizeSplitRule.EQUAL, sections=False, clubs=0,
    penalty_from=PenaltyFrom.STANDINGS,
)  # fmt: skip


#: The set-up's draws, one per option (:meth:`EventMachine.set_up`; :func:`playing` fixes the system).
SET_UP = dict(
    # Each system with equal weight: hypothesis draws a choice among a few near its first one far
    # more often (a 5-minute soak played knockouts, first in the list, in half its events and no
    # Swiss, the last); a number from a wide range spread over the systems is drawn evenly.
    system=st.integers(min_value=0, max_value=2**16 - 1).map(lambda n: sorted(SYSTEMS)[n % len(SYSTEMS)]),
    size=st.integers(min_value=3, max_value=9),
    length=st.sampled_from([1, 3, 5]),
    cube=st.booleans(),
    forfeit_score=st.sampled_from(ForfeitScore.values),
    games=st.sampled_from([None, None, 1, 2, 3, 4]),
    variant=st.sampled_from([Variant.BACKGAMMON, Variant.BACKGAMMON, Variant.LONG_NARDY]),
    knockout=st.sampled_from(KNOCKOUT_OPTIONS),
    cycles=st.sampled_from([1, 2]),
    half_bye=st.sampled_from([0.0, 0.5, 1.0]),
    late_points=st.sampled_from([0.0, 0.5]),
    window=st.sampled_from([0, 60]),
    lateness=st.booleans(),
    fund=st.sampled_from([None, Decimal(6000), Decimal(8000)]),
    split=st.sampled_from(PrizeSplitRule.values),
    sections=st.booleans(),
    clubs=st.sampled_from([0, 0, 2, 3]),
    penalty_from=st.sampled_from(PenaltyFrom.values),
    teams=st.sampled_from([2, 2, 4]),
)


@dataclass(frozen=True)
class Moment:
    """What the event looks like between two steps, read once a step for the actions' ``when``."""

    rounds: int
    drafts: int
    published: int
    pending: int  # tables of published or closed rounds waiting for a result (reported ones included)
    confirmed: int
    played: int  # confirmed results of games actually played
    open_disputes: int
    ruled_disputes: int
    playing: int  # entries not withdrawn
    finished: bool
    system: str
    variant: str


def action(*, when: Callable[[Moment], bool] | None = None, at_most: int | None = None, **arguments):
    """A rule of the machine (``arguments``: hypothesis's strategies, as ``@rule`` takes them),
    counted by name in the event's coverage record, offered only at the moment ``when`` says
    and at most ``at_most`` times an event (the desk's chores do not crowd out the play)."""

    def wrap(function):
        name = function.__name__

        @functools.wraps(function)
        def counted(self, *args, **kwargs):
            self.played.actions[name] += 1
            try:
                return function(self, *args, **kwargs)
            except BaseException as failure:  # a soak stopped while hypothesis shrinks still says so
                self.played.failure = self.played.failure or f"{name}: {failure!r}"[:300]
                raise

        def allowed(self) -> bool:
            if self.event is None or (at_most is not None and self.played.actions[name] >= at_most):
                return False
            return when is None or bool(when(self.moment))

        return precondition(allowed)(rule(**arguments)(counted))

    return wrap


#: The actions no run switches off. Hypothesis switches a random share of the rules off for each
#: run (swarm testing), half of them on average: a run without "play a round out" or "the director
#: rules" never gets past its first open round, and one without "the event is over" may find no
#: action allowed once its event has ended.
ALWAYS_ON = ("play_a_round_out", "the_director_rules", "the_event_is_over")


class _SwarmWithTheCommonPath(FeatureStrategy):
    """Hypothesis's swarm of rules, with :data:`ALWAYS_ON` never switched off (hypothesis has no
    public switch for it: its own feature flags, told which features stay enabled)."""

    def do_draw(self, data):
        return FeatureFlags(data, enabled=ALWAYS_ON, at_least_one_of=self._at_least_one_of)


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
        self.event: invariants.Event | None = None
        self.steps = 0
        #: What this run played (its coverage record); ``outcomes``: "service done", "service refused
        #: <problem code>", "service forbidden" and the rules' own counts.
        self.played = coverage.Played(system="")
        self.outcomes: Counter[str] = self.played.outcomes
        self._moment: Moment | None = None
        self._idle = False  # the last action changed nothing: the invariants need not run again
        self._tournaments: list = []  # the event's tournaments: one, or a Swiss and its cup
        self.last_refusal: tuple = ()  # the problems of the last refused service call (:meth:`_attempt`)
        strategy = self._rules_strategy
        strategy.enabled_rules_strategy = st.shared(
            _SwarmWithTheCommonPath(at_least_one_of={r.function.__name__ for r in strategy.rules}),
            key=("enabled rules", self),
        )  # fmt: skip

    # ----------------------------------------------------------------------------- set-up

    @initialize(**SET_UP)
    def set_up(self, system, size, length, cube, forfeit_score, games, variant, knockout, cycles,
               half_bye, late_points, window, lateness, fund, split, sections, clubs, penalty_from,
               teams=2):  # fmt: skip
        """``games``: None plays to ``length`` points, else a fixed number of games (odd or even:
        an even number can end level, which a knockout must refuse). Long nardy has no cube.
        ``teams``: a Scheveningen event's teams — two play one match; four are a knockout of team
        matches, a stage drawn at a time from line-ups fixed at the first draw (two unless told:
        the seam tests that call this step directly were written before the option)."""
        low, high = SYSTEMS[system]
        size = min(max(size, low), high)
        if system == "scheveningen":
            size = max(size - size % teams, 2 * teams)  # teams of equal size, two boards at least
        run = next(_runs)
        options = {
            "swiss": {"half_bye_points": half_bye, "late_entry_points": late_points,
                      "club_apart_rounds": 2 if clubs else 0},
            "round_robin": {"cycles": cycles},
            "knockout": {"knockout": {**knockout, "match_lengths": [length]}},
            "scheveningen": {},
        }[system]
        cube = cube and variant != Variant.LONG_NARDY
        tournament = TournamentFactory(
            name=f"Симуляция {run}", slug=f"sim-{run}", system=system, variant=variant, match_length=length,
            cube=cube, crawford=cube, forfeit_score=forfeit_score,
            match_format="points" if games is None else "games", fixed_games=games, draw_value="0.5",
            rounds_planned=None if system != "swiss" else min(size - 1, 5), pairing_options=options,
            dispute_window=window, late_penalty_minutes=5 if lateness else None,
            late_forfeit_minutes=30 if lateness else None, penalty_from=penalty_from,
        )  # fmt: skip
        users = get_user_model().objects
        director = users.create(username=f"sim-director-{run}")
        self.referee = users.create(username=f"sim-referee-{run}")
        self.jury = users.create(username=f"sim-jury-{run}")
        for user, role in ((director, OfficialRole.ORGANISER), (self.referee, OfficialRole.REFEREE),
                           (self.jury, OfficialRole.JURY)):  # fmt: skip
            OfficialFactory(tournament=tournament, user=user, role=role)
        players = [
            PlayerFactory(last_name=f"Сим{run}x{i}", first_name="Игрок", user=UserFactory(username=f"sim-{run}-p{i}"),
                          category=3 if i % 2 else 7)
            for i in range(size)
        ]  # fmt: skip
        homes = [ClubFactory(name=f"Клуб {run}-{n}") for n in range(clubs)]
        for i, player in enumerate(players if homes else ()):
            Membership.objects.create(player=player, club=homes[i % len(homes)], started_on=date(2020, 1, 1))
        # Sections play the category table's matches to points (a fixed number of games is no
        # category's format: every result would be refused, ``match.category_length``).
        split_up = sections and system in ("swiss", "round_robin") and size >= 4 and games is None
        if split_up:
            # The sections' lengths and cube are the event's, not the category table's: an override,
            # which the rules core takes only with the organiser's reason (else every round of the
            # section is refused, ``match.override_needs_reason``).
            why = "simulated: the club's own lengths"
            SectionFactory(tournament=tournament, name="Мастера", min_category=1, max_category=4, cube=cube,
                           match_length=length, override_reason=why)  # fmt: skip
            SectionFactory(tournament=tournament, name="Любители", min_category=5, max_category=9, cube=False,
                           match_length=max(1, length - 2), override_reason=why)  # fmt: skip
        entries = [
            enter(tournament, [player], first_number=i + 1,
                  section=roster.section_for(tournament, player.category) if split_up else None)[0]
            for i, player in enumerate(players)
        ]  # fmt: skip
        if system == "scheveningen":
            self._teams(tournament, director, entries, teams)
        if fund is not None:
            prizes.set_fund(tournament, director, fund=fund, split=split)
            for place, amount in PRIZES.items():
                prizes.set_prize(tournament, director, section=None, place=place, amount=amount)
        # A stored player of the club, not entered: applicants register under their name.
        self.known = PlayerFactory(last_name=f"Сим{run}known", first_name="Игрок", email=f"known{run}@example.org",
                                   user=UserFactory(username=f"sim-{run}-known"), category=5)  # fmt: skip
        self.event = invariants.Event(tournament, director, player_entry=entries[0])
        invariants.listen(self.event)
        for role, user in (("anonymous", None), ("organiser", director), ("referee", self.referee),
                           ("player", players[0].user)):  # fmt: skip
            client = Client()
            if user is not None:
                client.force_login(user)
            self.event.clients[role] = client
        self.api = APIClient()
        self.api.force_authenticate(director)
        self.run = run
        self._tournaments = [tournament]
        self.played.system = system
        self.played.options = self._options(
            system, options, variant=variant, cube=cube, games=games, split_up=split_up, fund=fund,
            lateness=lateness, window=window, forfeit_score=forfeit_score, penalty_from=penalty_from, teams=teams,
        )  # fmt: skip
        self._moment = None

    @staticmethod
    def _options(system, options, *, variant, cube, games, split_up, fund, lateness, window, forfeit_score,
                 penalty_from, teams) -> list[str]:  # fmt: skip
        """The event's options as the coverage table counts them, one label each."""
        labels = [f"variant {variant}", "cube" if cube else "no cube", f"games {games}" if games else "points",
                  f"forfeit {forfeit_score}", f"penalty from {penalty_from}"]  # fmt: skip
        labels += [label for on, label in ((split_up, "sections"), (fund is not None, "prizes"),
                                           (lateness, "lateness"), (window, "dispute window")) if on]  # fmt: skip
        if system == "knockout":
            chosen = sorted(k for k, v in options["knockout"].items() if v is True)
            labels.append("knockout " + ("+".join(chosen) or "plain"))
        elif system == "round_robin":
            labels.append(f"cycles {options['cycles']}")
        elif system == "scheveningen":
            labels.append(f"teams {teams}")
        else:
            labels += [f"half-bye {options['half_bye_points']}", f"late entry {options['late_entry_points']}"]
            labels += ["clubs apart"] if options["club_apart_rounds"] else []
        return labels

    @staticmethod
    def _teams(tournament, director, entries, count):
        """``count`` teams, by draw number, boards 1, 2, … (the teams desk's services)."""
        boards = len(entries) // count
        for number, name in enumerate(("Москва", "Баку", "Ереван", "Тбилиси")[:count]):
            team = teams.create_team(director, tournament, Team(name=name))
            for board, entry in enumerate(entries[number * boards:(number + 1) * boards], start=1):
                teams.put_on_board(director, tournament, team, entry, board)
        # Issue 35: uneven teams are refused at the teams step (the open draw), before any number.
        last = team.members.order_by("board").last()
        teams.take_off(director, last)
        try:
            draw.commit_draw(tournament, director)
        except RuleViolation as refused:
            assert refused.problems[0].code == "pairing.scheveningen.uneven_teams", refused.problems
        else:
            raise AssertionError("the open draw accepted uneven teams")
        teams.put_on_board(director, tournament, team, last.entry, last.board)

    # ----------------------------------------------------------------------------- helpers

    @property
    def tournament(self):
        return self.event.tournament

    @property
    def director(self):
        return self.event.director

    @property
    def slug(self):
        return self.event.slug

    @property
    def moment(self) -> Moment:
        """The event now, read once a step (the invariant check forgets it after every action)."""
        if self._moment is None:
            t = self.tournament
            rounds = Round.objects.filter(tournament=t)
            matches = Match.objects.filter(round__tournament=t, entry_b__isnull=False)
            confirmed = matches.filter(result_status=ResultStatus.CONFIRMED)
            disputes = Dispute.objects.filter(match__round__tournament=t)
            self._moment = Moment(
                rounds=rounds.count(), drafts=rounds.filter(status=RoundStatus.DRAFT).count(),
                published=rounds.filter(status=RoundStatus.PUBLISHED).count(),
                pending=matches.filter(round__status__in=PLAYED_ROUNDS,
                                       result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED]).count(),
                confirmed=confirmed.count(), played=confirmed.filter(result_kind=ResultKind.PLAYED).count(),
                open_disputes=disputes.filter(state=DisputeState.OPEN).count(),
                ruled_disputes=disputes.filter(state=DisputeState.RULED).count(),
                playing=t.entries.exclude(status=EntryStatus.WITHDRAWN).count(),
                finished=type(t).objects.filter(pk=t.pk, status=TournamentStatus.FINISHED).exists(),
                system=t.system, variant=t.variant,
            )  # fmt: skip
        return self._moment

    def _pending(self):
        """Tables waiting for a result: of published rounds, and of closed ones whose result a
        ruling voided (the match is to be played again; no next round is paired until it is)."""
        return list(
            Match.objects.filter(
                round__tournament=self.tournament, round__status__in=PLAYED_ROUNDS,
                entry_b__isnull=False, result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED],
            ).select_related("entry_a__player__user", "entry_b__player__user").order_by("round__number", "table")
        )  # fmt: skip

    def _confirmed(self):
        return list(
            Match.objects.filter(
                round__tournament=self.tournament, entry_b__isnull=False, result_status=ResultStatus.CONFIRMED,
            ).select_related("entry_a__player__user", "entry_b__player__user").order_by("round__number", "table")
        )  # fmt: skip

    def _entries(self, *, playing: bool = True):
        entries = self.tournament.entries.select_related("player__user").order_by("pk")
        return list(entries.exclude(status=EntryStatus.WITHDRAWN) if playing else entries)

    def _final_score(self, match, winner: str, loser: int) -> tuple[int, int]:
        """A score the rules allow: a bare majority up to a whitewash (fixed games), or the
        match's length (its section's, its round's, or the event's) against ``loser`` points."""
        if self.tournament.match_format == "games":
            games = self.tournament.fixed_games
            won = min(games, loser + (games + 1) // 2)
            return (won, games - won) if winner == "a" else (games - won, won)
        length = match_spec(match).length
        loser = min(loser, length - 1)
        return (length, loser) if winner == "a" else (loser, length)

    def _attempt(self, action, *args, **kwargs):
        """Do ``action`` as one request that commits; a coded refusal is an answer, not a failure."""
        self.steps += 1
        name = action.__name__
        try:
            with TestCase.captureOnCommitCallbacks(execute=True), transaction.atomic():
                done = action(*args, **kwargs)
        except REFUSALS as refusal:
            problems = getattr(refusal, "problems", None) or [getattr(refusal, "problem", None)]
            assert all(p is not None for p in problems), f"a refusal without a problem: {refusal!r}"
            self.outcomes[f"{name} refused"] += 1
            self.last_refusal = tuple(problems)
            for code in sorted({p.code for p in problems}):  # each refusal kind, by its problem's code
                self.outcomes[f"{name} refused {code}"] += 1
            return None
        except PermissionDenied:
            self.outcomes[f"{name} forbidden"] += 1
            return None  # the page answers 403; the rule asked on behalf of someone not allowed
        self.outcomes[f"{name} done"] += 1
        return done

    def _without_an_account(self, *entries) -> bool:
        """True (counted) when one of the entries' players has no account: entered by name or
        registered as a new person, he acts through his private link, not as a logged-in user."""
        if any(e.player.user_id is None for e in entries):
            self.outcomes["a player without an account: his link instead"] += 1
            return True
        return False

    @staticmethod
    def _pick(items, pick):
        return items[pick % len(items)] if items else None

    # ----------------------------------------------------------------------------- rounds

    def _pair(self):
        """The director pairs the next round, in each section; before round 1 he holds the open
        draw when an entry is still without a number (a late entry or an approved application:
        round 1 is refused, ``pairing.draw_required``, until he does — book Part 9)."""
        if not self.moment.rounds and self.tournament.entries.filter(
            draw_number__isnull=True).exclude(status=EntryStatus.WITHDRAWN).exists():  # fmt: skip
            self._attempt(draw.commit_draw, self.tournament, self.director)
            self._attempt(draw.perform_draw, self.tournament, user=self.director)
        for section in list(self.tournament.sections.order_by("pk")) or [None]:
            before = self.outcomes["generate_next refused pairing.rematch_needs_reason"]
            self._attempt(pm.generate_next, self.tournament, section, user=self.director)
            if self.outcomes["generate_next refused pairing.rematch_needs_reason"] > before:
                # A small field (or one thinned by withdrawals) has no pairing without a rematch:
                # the director allows it with a reason (FIDE C.04.1 a: a rematch only when unavoidable).
                self._attempt(pm.generate_next, self.tournament, section, user=self.director,
                              reason="simulated: no pairing without a rematch is left")  # fmt: skip

    def _publish_the_drafts(self, *, next_only: bool = False):
        """Publish the drafts (``next_only``: each section's next one, as a round is played —
        a round robin's schedule is drawn at once and published round by round)."""
        seen = set()
        for draft in self.event.rounds().filter(status=RoundStatus.DRAFT):
            if next_only and draft.section_id in seen:
                continue
            seen.add(draft.section_id)
            self._attempt(pm.publish_round, draft, user=self.director)
            draft.refresh_from_db()
            gone = draft.matches.filter(Q(entry_a__status=EntryStatus.WITHDRAWN) | Q(entry_b__status=EntryStatus.WITHDRAWN))
            if draft.status == RoundStatus.DRAFT and gone.exists() and not fixed_schedule(self.tournament):
                # A Swiss or cup draft paired before a withdrawal is refused (``publish_withdrawn``):
                # the director deletes it and pairs again without the player.
                self._attempt(pm.delete_draft, draft, user=self.director)

    @action(when=lambda m: not m.finished and not m.drafts and not m.pending, publish=st.booleans())
    def pair_the_next_round(self, publish):
        """``publish``: the director publishes the new draft at once, as most do. Asked once
        nothing waits to be played: a round still open (a result under dispute) is refused,
        ``pairing.round_open``, as is a finished knockout's or a Swiss's with no pairing left."""
        self._pair()
        if publish:
            self._publish_the_drafts()

    @action(when=lambda m: not m.finished or m.pending)
    def play_a_round_out(self, scores: list[tuple[str, int]] | None = None):
        """What most of an event is, in its two moments, as at the hall: once nothing is left to
        play, the next round paired (if no draft waits) and published; once a round is out, every
        table's result entered by the desk — a players' report waiting for confirmation too (a
        refusal on one table leaves it open, as at the desk); the last confirmation closes the
        round. Between the two, the round is open: lateness, reports, the grid, settlements and
        clocks have their moment (a round played out in one step left them none).

        No drawn arguments: hypothesis's simplest example (every choice its first) picks the first
        argument-free rule allowed, and that should play the event out. The scores vary by table
        and round (``scores`` fixes them); the desk's other actions draw theirs."""
        if not self.moment.pending:
            if not self.moment.drafts and not self.moment.finished:
                self._pair()
            self._publish_the_drafts(next_only=True)
            return
        for i, match in enumerate(self._pending()):
            turn = i + self.played.actions["play_a_round_out"]
            winner, loser = scores[i % len(scores)] if scores else ("ab"[turn % 2], turn * 7 % 5)
            final = self._final_score(match, winner, loser)
            self._attempt(workflow.submit_result, match.pk, self.director, version=match.version, final=final,
                          confirm=True)  # fmt: skip

    @action(when=lambda m: m.drafts)
    def publish_the_draft(self):
        draft = self.event.rounds().filter(status=RoundStatus.DRAFT).first()
        if draft is not None:
            self._attempt(pm.publish_round, draft, user=self.director)

    @action(when=lambda m: m.drafts, at_most=1)
    def delete_the_draft(self):
        draft = self.event.rounds().filter(status=RoundStatus.DRAFT).last()
        if draft is not None:
            self._attempt(pm.delete_draft, draft, user=self.director)

    @action(when=lambda m: m.drafts, at_most=2,
            one=st.integers(min_value=0, max_value=50), other=st.integers(min_value=0, max_value=50))  # fmt: skip
    def the_director_changes_the_draft(self, one, other):
        """Two players of the draft exchange opponents (the round page's swap)."""
        draft = self.event.rounds().filter(status=RoundStatus.DRAFT).first()
        if draft is None:
            return
        seated = sorted({pk for m in draft.matches.all() for pk in (m.entry_a_id, m.entry_b_id) if pk})
        if len(seated) > 1:
            x, y = self._pick(seated, one), self._pick(seated, other)
            self._attempt(pm.swap_players, draft, x, y, user=self.director, reason="simulated: keep apart")

    @action(when=lambda m: m.published, at_most=1)
    def unpublish_the_last_round(self):
        last = self.event.rounds().filter(status=RoundStatus.PUBLISHED).last()
        if last is not None:
            self._attempt(pm.unpublish_round, last, user=self.director, reason="simulated: wrong board")

    @action(when=lambda m: m.published, which=st.sampled_from(["first", "last"]))
    def close_the_round(self, which="first"):
        """The director's "close the round" on the first or the last published round (the last
        confirmation closes it by itself; this closes one whose last result was confirmed in a
        way that did not, or says it is still open)."""
        published = self.event.rounds().filter(status=RoundStatus.PUBLISHED)
        current = published.first() if which == "first" else published.last()
        if current is not None:
            closed = self._attempt(flow.close, current, self.director)
            if closed is not None:
                self.outcomes[f"close {closed}"] += 1

    # ----------------------------------------------------------------------------- results

    @action(when=lambda m: m.pending, results=st.lists(st.tuples(st.integers(min_value=0, max_value=50), st.sampled_from("ab"),
                                     st.integers(min_value=0, max_value=4), st.booleans()), min_size=1, max_size=4))  # fmt: skip
    def director_enters_results(self, results):
        """A few score sheets at the desk, one by one; with ``ledger`` the games too, one point
        each (the loser's first), as a scoresheet lists them."""
        for pick, winner, loser, ledger in results:
            match = self._pick(self._pending(), pick)
            if match is None:
                return
            final = self._final_score(match, winner, loser)
            games = self._games(final) if ledger else None
            self._attempt(workflow.submit_result, match.pk, self.director, version=match.version, final=final,
                          games=games, confirm=True)  # fmt: skip

    def _games(self, final: tuple[int, int]) -> list[dict]:
        single = "oyun" if self.tournament.variant == Variant.LONG_NARDY else "single"
        won, lost = ("a", "b") if final[0] > final[1] else ("b", "a")
        high, low = max(final), min(final)
        return [{"winner": lost, "kind": single}] * low + [{"winner": won, "kind": single}] * high

    @action(when=lambda m: m.pending, pick=st.integers(min_value=0, max_value=50), winner=st.sampled_from("ab"),
          loser=st.integers(min_value=0, max_value=4), reporter=st.sampled_from("ab"),
          answer=st.sampled_from(["confirm", "confirm", "dispute", "wait", "counter"]))  # fmt: skip
    def a_player_reports_and_the_opponent_answers(self, pick, winner, loser, reporter, answer):
        match = self._pick(self._pending(), pick)
        if match is None:
            return
        one, other = (match.entry_a, match.entry_b) if reporter == "a" else (match.entry_b, match.entry_a)
        if self._without_an_account(one, other):
            return
        final = self._final_score(match, winner, loser)
        report = self._attempt(workflow.submit_result, match.pk, one.player.user, version=match.version, final=final)
        if report is None or answer == "wait":
            return
        match.refresh_from_db()
        opponent = other.player.user
        if answer == "confirm":
            self._attempt(workflow.confirm_result, match.pk, report.pk, opponent, version=match.version)
        elif answer == "dispute":
            self._attempt(workflow.dispute_result, match.pk, report.pk, opponent, version=match.version,
                          reason="simulated: the score was different")  # fmt: skip
        else:
            other_final = self._final_score(match, "b" if winner == "a" else "a", loser)
            self._attempt(workflow.submit_result, match.pk, opponent, version=match.version, final=other_final)

    @action(when=lambda m: m.confirmed, at_most=2, pick=st.integers(min_value=0, max_value=50), winner=st.sampled_from("ab"),
          loser=st.integers(min_value=0, max_value=4))  # fmt: skip
    def director_corrects_a_confirmed_result(self, pick, winner, loser):
        match = self._pick(self._confirmed(), pick)
        if match is not None:
            final = self._final_score(match, winner, loser)
            self._attempt(workflow.submit_result, match.pk, self.director, version=match.version, final=final,
                          confirm=True, reason="simulated: the scoresheet was misread")  # fmt: skip

    @action(when=lambda m: m.pending, at_most=3, pick=st.integers(min_value=0, max_value=50),
          kind=st.sampled_from([ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT, ResultKind.TIME_FORFEIT,
                                ResultKind.VOID]),
          winner=st.sampled_from("ab"), played=st.integers(min_value=0, max_value=2))  # fmt: skip
    def settle_a_match_without_play(self, pick, kind, winner, played):
        match = self._pick(self._pending(), pick)
        if match is None:
            return
        sheet = None
        if kind == ResultKind.TIME_FORFEIT:
            sheet = (played, 0) if winner == "a" else (0, played)
        self._attempt(
            workflow.record_kind_result, match.pk, self.director, version=match.version, kind=kind,
            winner=winner if kind in (ResultKind.FORFEIT, ResultKind.TIME_FORFEIT) else None,
            reason="simulated", played=sheet,
        )  # fmt: skip

    @action(when=lambda m: m.pending, at_most=2, pick=st.integers(min_value=0, max_value=50), side=st.sampled_from("ab"),
          minutes=st.sampled_from([3, 12, 40]))  # fmt: skip
    def a_player_is_late(self, pick, side, minutes):
        match = self._pick(self._pending(), pick)
        if match is not None:
            self._attempt(workflow.apply_lateness, match.pk, self.director, version=match.version, late_side=side,
                          minutes=minutes, reason="simulated")  # fmt: skip

    @action(when=lambda m: m.published, typed=st.lists(st.tuples(st.integers(min_value=0, max_value=50), st.sampled_from("ab"),
                                   st.integers(min_value=0, max_value=4)), max_size=2),
          tick=st.booleans())  # fmt: skip
    def the_referee_saves_the_results_grid(self, typed, tick):
        """The referee opens the round's grid, types some rows and saves the page as the browser
        sends it (every field as shown). Only what was typed may become confirmed."""
        current = self.event.rounds().filter(status=RoundStatus.PUBLISHED).first()
        if current is None:
            return
        self.steps += 1
        client = self.event.clients["referee"]
        url = f"/t/{self.slug}/manage/round/{current.pk}/results/"
        page = client.get(url)
        assert page.status_code == 200, f"the results grid answered {page.status_code}"
        fields = form_fields(page.content.decode())
        before = dict(current.matches.values_list("pk", "result_status"))
        matches = {m.pk: m for m in current.matches.filter(entry_b__isnull=False).order_by("table")}
        typed_pks = set()
        for pk, status in before.items():
            if status == ResultStatus.REPORTED and tick and f"m{pk}-confirm" in fields:
                fields[f"m{pk}-confirm"] = "1"  # the referee ticks the players' report
                typed_pks.add(pk)
                break
        for pick, winner, loser in typed:
            match = self._pick(list(matches.values()), pick)
            if match is None or match.result_status != ResultStatus.PENDING:
                continue
            prefix = grid_prefix(fields, match)
            if prefix is None:
                continue
            fields[f"{prefix}-a"], fields[f"{prefix}-b"] = map(str, self._final_score(match, winner, loser))
            typed_pks.add(match.pk)
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = client.post(url, fields)
        assert answer.status_code < 500, f"saving the results grid answered {answer.status_code}"
        for pk, status in current.matches.values_list("pk", "result_status"):
            if before.get(pk) == ResultStatus.REPORTED and pk not in typed_pks:
                assert status != ResultStatus.CONFIRMED, (
                    "the results grid confirmed a player's report nobody confirmed"
                )

    @action(when=lambda m: m.pending, at_most=2, typed=st.lists(st.tuples(st.integers(min_value=0, max_value=50),
          st.sampled_from("ab"), st.integers(min_value=0, max_value=4), st.booleans()), min_size=1, max_size=4))  # fmt: skip
    def the_desk_sends_results_in_one_call(self, typed):
        """A desk app sends score sheets as one batch (``POST /api/rounds/<id>/results/``, issue
        47), the results grid's twin: each row is checked and saved or refused alone. ``stale``
        sends a row with a version the match is not at (another desk's copy): that row is refused and writes
        nothing, the others are saved."""
        current = self.event.rounds().filter(status=RoundStatus.PUBLISHED).first()
        pending = [m for m in self._pending() if current is not None and m.round_id == current.pk]
        if not pending:
            return
        self.steps += 1
        rows, chosen = [], {}
        for pick, winner, loser, stale in typed:
            match = self._pick(pending, pick)
            if match.pk in chosen:
                continue
            chosen[match.pk] = stale
            rows.append({"match": match.pk, "final": list(self._final_score(match, winner, loser)),
                         "version": match.version + 1 if stale else match.version})  # fmt: skip
        before = {m.pk: (m.version, m.result_status) for m in Match.objects.filter(pk__in=chosen)}
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = self.api.post(f"/api/rounds/{current.pk}/results/", {"results": rows}, format="json")
        assert answer.status_code < 500, f"the results batch answered {answer.status_code}"
        if answer.status_code != 200:
            self.outcomes[f"results batch answered {answer.status_code} {answer.json().get('code', '')}"] += 1
            return
        for row in answer.json()["rows"]:
            self.outcomes[f"results batch row {row['state']}"] += 1
            match = Match.objects.get(pk=row["match"])
            if chosen.get(row["match"]):
                assert row["state"] == "refused", f"a row with a stale version was {row['state']}"
            if row["state"] == "refused":
                assert (match.version, match.result_status) == before[match.pk], "a refused row wrote something"

    @action(when=lambda m: m.pending, at_most=2, pick=st.integers(min_value=0, max_value=50),
          winner=st.sampled_from("ab"), loser=st.integers(min_value=0, max_value=4))  # fmt: skip
    def players_play_by_their_entry_keys(self, pick, winner, loser):
        """Two players with only their private links (issue 47): each app exchanges its link for
        an entry key, one reports through its key and the other confirms through the action the
        match offers him. Neither may touch a match that is not his own."""
        match = self._pick(self._pending(), pick)
        if match is None:
            return
        self.steps += 1
        apps = []
        for entry in (match.entry_a, match.entry_b):
            link = "https://zarik.example" + private_links.url_for(entry)
            exchanged = Client().post("/api/entry-tokens/", {"link": link}, content_type="application/json")
            assert exchanged.status_code == 201, f"exchanging a private link answered {exchanged.status_code}"
            apps.append(Client(HTTP_AUTHORIZATION=f"Bearer {exchanged.json()['key']}"))
        reporter, opponent = apps if winner == "a" else apps[::-1]
        final = list(self._final_score(match, winner, loser))
        with TestCase.captureOnCommitCallbacks(execute=True):
            report = reporter.post(f"/api/matches/{match.pk}/report/", {"final": final, "version": match.version},
                                   content_type="application/json")  # fmt: skip
        assert report.status_code < 500, f"a report by an entry key answered {report.status_code}"
        if report.status_code not in (200, 201):
            self.outcomes[f"entry key report answered {report.status_code} {report.json().get('code', '')}"] += 1
            return
        self.outcomes["entry key report done"] += 1
        seen = opponent.get(f"/api/matches/{match.pk}/").json()
        confirm = next((a for a in seen["result_state"]["actions"] if a["action"] == "confirm"), None)
        assert confirm is not None, f"the opponent is not offered the confirmation: {seen['result_state']}"
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = opponent.post(confirm["href"], confirm["body"], content_type="application/json")
        assert answer.status_code < 500, f"a confirmation by an entry key answered {answer.status_code}"
        self.outcomes[f"entry key confirm answered {answer.status_code}"] += 1
        others = Match.objects.filter(round=match.round, entry_b__isnull=False).exclude(pk=match.pk).first()
        if others is not None and others.entry_a_id not in (match.entry_a_id, match.entry_b_id) and \
                others.entry_b_id not in (match.entry_a_id, match.entry_b_id):  # fmt: skip
            stranger = reporter.post(f"/api/matches/{others.pk}/report/", {"final": final, "version": others.version},
                                     content_type="application/json")  # fmt: skip
            assert stranger.status_code in (403, 404), f"a key reported someone else's match: {stranger.status_code}"

    @action(when=lambda m: m.pending, at_most=1, pick=st.integers(min_value=0, max_value=50), minutes=st.sampled_from([None, 2, 3]))
    def the_director_installs_a_clock(self, pick, minutes):
        match = self._pick(self._pending(), pick)
        if match is not None:
            self._attempt(workflow.install_clock, match.pk, self.director, version=match.version,
                          minutes_per_point=minutes, delay_seconds=12, reason="simulated: slow play")  # fmt: skip

    @action(at_most=2, pick=st.integers(min_value=0, max_value=50), amount=st.sampled_from(["1500", "1500,00", "0", "-5", "x"]),
          paid=st.booleans())  # fmt: skip
    def a_player_pays_the_fee(self, pick, amount, paid):
        """Typed as at the desk (a decimal comma, nonsense): refused with a problem or recorded."""
        entry = self._pick(self._entries(playing=False), pick)
        if entry is not None:
            self._attempt(prizes.record_fee, entry, self.director, amount=amount, paid=paid)

    # ----------------------------------------------------------------------------- disputes

    @action(when=lambda m: m.played, at_most=2, pick=st.integers(min_value=0, max_value=50), side=st.sampled_from("ab"))
    def a_player_disputes_a_confirmed_result(self, pick, side):
        match = self._pick([m for m in self._confirmed() if m.result_kind == ResultKind.PLAYED], pick)
        if match is None:
            return
        result = match.results.order_by("-pk").first()
        entry = match.entry_a if side == "a" else match.entry_b
        if result is not None and not self._without_an_account(entry):
            self._attempt(workflow.dispute_result, match.pk, result.pk, entry.player.user, version=match.version,
                          reason="simulated: I did not agree")  # fmt: skip

    def _disputes(self, state):
        return list(Dispute.objects.filter(match__round__tournament=self.tournament, state=state).order_by("pk"))

    @action(when=lambda m: m.open_disputes, pick=st.integers(min_value=0, max_value=50),
          outcome=st.sampled_from([Outcome.UPHOLD, Outcome.REPLACE, Outcome.VOID]),
          winner=st.sampled_from("ab"), loser=st.integers(min_value=0, max_value=4))  # fmt: skip
    def the_director_rules(self, pick, outcome, winner, loser):
        dispute = self._pick(self._disputes(DisputeState.OPEN), pick)
        if dispute is None:
            return
        match = dispute.match
        final = self._final_score(match, winner, loser) if outcome == Outcome.REPLACE else None
        self._attempt(workflow.rule_dispute, dispute.pk, self.director, outcome=outcome, version=match.version,
                      ruling="simulated ruling", final=final)  # fmt: skip

    @action(when=lambda m: m.ruled_disputes, at_most=2, pick=st.integers(min_value=0, max_value=50),
          outcome=st.sampled_from([Outcome.SUSTAIN, Outcome.UPHOLD, Outcome.REPLACE, Outcome.VOID]),
          winner=st.sampled_from("ab"), loser=st.integers(min_value=0, max_value=4), side=st.sampled_from("ab"),
          via_link=st.booleans())  # fmt: skip
    def a_player_appeals_and_the_jury_decides(self, pick, outcome, winner, loser, side, via_link):
        dispute = self._pick(self._disputes(DisputeState.RULED), pick)
        if dispute is None:
            return
        match = dispute.match
        if via_link or self._without_an_account(match.entry_a if side == "a" else match.entry_b):
            # the player's private page, no login (the same service behind it)
            self.steps += 1
            entry = match.entry_a if side == "a" else match.entry_b
            url = reverse("private-appeal", kwargs={"token": token_for(entry), "match_id": match.pk})
            with TestCase.captureOnCommitCallbacks(execute=True):
                answer = Client().post(url, {"dispute": dispute.pk, "reason": "simulated: I appeal by my link"})
            assert answer.status_code < 500, f"the private appeal answered {answer.status_code}"
        else:
            appellant = (match.entry_a if side == "a" else match.entry_b).player.user
            self._attempt(workflow.appeal_dispute, dispute.pk, appellant, reason="simulated: I appeal")
        match.refresh_from_db()
        final = self._final_score(match, winner, loser) if outcome == Outcome.REPLACE else None
        self._attempt(workflow.decide_appeal, dispute.pk, self.jury, outcome=outcome, decision="simulated decision",
                      version=match.version, final=final)  # fmt: skip

    # ----------------------------------------------------------------------------- players

    @action(when=lambda m: m.playing > 3, at_most=1, pick=st.integers(min_value=0, max_value=50), settle=st.sampled_from(entry_status.SETTLE_CHOICES))
    def a_player_withdraws(self, pick, settle):
        entries = self._entries()
        if len(entries) > 2:
            entry = self._pick(entries, pick)
            self._attempt(entry_status.withdraw, entry, self.director, reason="simulated", settle=settle)

    @action(when=lambda m: m.system == "scheveningen", at_most=2, pick=st.integers(min_value=0, max_value=50))
    def the_director_mends_a_line_up(self, pick):
        """Scheveningen (issue 35): before the draw, a withdrawn member's board is mended — he
        is taken off, and every other team's last board too, so the teams stay even; once round 1
        is paired every change of a line-up is refused (the schedule is built from the boards)."""
        if self.tournament.system != "scheveningen":
            return
        members = list(TeamMember.objects.filter(team__tournament=self.tournament).select_related("team", "entry"))
        if self.tournament.rounds.exists():
            member = self._pick(members, pick)
            if member is not None:
                before = self.outcomes["take_off refused"]
                self._attempt(teams.take_off, self.director, member)
                assert self.outcomes["take_off refused"] == before + 1, "a line-up changed after the draw"
            return
        gone = [m for m in members if m.entry.status == EntryStatus.WITHDRAWN]
        member = self._pick(gone, pick)
        if member is None:
            return
        self._attempt(teams.take_off, self.director, member)
        last: dict[int, TeamMember] = {}
        for m in members:
            if m.team_id != member.team_id and m.entry.status != EntryStatus.WITHDRAWN:
                if m.team_id not in last or m.board > last[m.team_id].board:
                    last[m.team_id] = m
        for other in last.values():
            self._attempt(teams.take_off, self.director, other)

    @action(when=lambda m: m.playing > 2, at_most=3, pick=st.integers(min_value=0, max_value=50),
          kind=st.sampled_from([SanctionKind.WARNING, SanctionKind.PENALTY, SanctionKind.DISQUALIFICATION,
                                SanctionKind.ANNUL]),
          past=st.sampled_from(["keep", "void"]), settle=st.sampled_from(entry_status.SETTLE_CHOICES))  # fmt: skip
    def the_director_sanctions(self, pick, kind, past, settle):
        entries = self._entries()
        if len(entries) <= 2 and kind == SanctionKind.DISQUALIFICATION:
            return
        entry = self._pick(entries, pick)
        if entry is None:
            return
        mine = [m for m in self._pending() + self._confirmed() if entry.pk in (m.entry_a_id, m.entry_b_id)]
        match = self._pick(mine, pick)
        self._attempt(
            workflow.record_sanction, self.tournament, entry, self.director, kind=kind, reason="simulated",
            points=1 if kind == SanctionKind.PENALTY else None, match=match, past=past, settle=settle,
            game=1 if kind == SanctionKind.ANNUL else None,
        )  # fmt: skip

    @action(at_most=2)
    def a_player_enters_late(self):
        # Numbered by late entries, not by steps: the identity core folds doubled letters (and
        # digits), so "late1" and "late11" were one person written two ways.
        self.late_entries = getattr(self, "late_entries", 0) + 1
        player = PlayerFactory(last_name=f"Сим{self.run}late{self.late_entries}", first_name="Поздний",
                               user=UserFactory(username=f"sim-{self.run}-late{self.late_entries}"))  # fmt: skip
        self._attempt(roster.enter, self.tournament, player, self.director, reason="simulated late entry")

    @action(at_most=1, pick=st.integers(min_value=0, max_value=50),
          spelling=st.sampled_from(["latin", "order", "yo", "case"]))  # fmt: skip
    def the_same_person_is_imported_again(self, pick, spelling):
        """An entries file names an entered player another way (Latin letters, given name first,
        е for ё, capitals): the import matches them or holds the row; never a second player."""
        entry = self._pick(self._entries(playing=False), pick)
        if entry is None:
            return
        player = entry.player
        last, first = {
            "latin": (to_latin(player.last_name), to_latin(player.first_name)),
            "order": (player.first_name, player.last_name),
            "yo": (player.last_name.replace("е", "ё"), player.first_name.replace("ё", "е")),
            "case": (player.last_name.upper(), player.first_name.lower()),
        }[spelling]
        rows = importer.read_csv(f"last_name,first_name\n{last},{first}\n".encode())
        self._attempt(importer.apply, self.tournament, rows, self.director, reason="simulated import")

    @action(when=lambda m: m.system == "swiss" and not m.finished, at_most=2, pick=st.integers(min_value=0, max_value=50), ahead=st.integers(min_value=0, max_value=1))
    def a_player_asks_for_a_bye(self, pick, ahead):
        entry = self._pick(self._entries(), pick)
        if entry is not None and not self._without_an_account(entry):
            number = next_number(self.tournament, entry.section) + ahead
            self._attempt(swiss.request_bye, entry, number, entry.player.user)

    @action(when=lambda m: m.system == "swiss" and not m.finished, at_most=2, one=st.integers(min_value=0, max_value=50), other=st.integers(min_value=0, max_value=50))
    def the_director_keeps_two_apart(self, one, other):
        entries = self._entries()
        if len(entries) > 1:
            self._attempt(swiss.forbid_pair, self.tournament, self._pick(entries, one), self._pick(entries, other),
                          "simulated: family", self.director)  # fmt: skip

    @action(when=lambda m: m.system == "swiss" and m.finished, at_most=1, top=st.sampled_from([2, 4]),
            reason=st.sampled_from(["", "simulated: the director's call"]),
            decision=st.sampled_from(["lot", "criterion", ""]))  # fmt: skip
    def the_swiss_qualifies_to_a_cup(self, top, reason, decision):
        """The simulation goes on with the cup (the Swiss stays as it is). A place shared across
        the cut is refused (``pairing.qualify_tie_at_cut``) until the director decides it: here by
        a lot or by a stated criterion choosing the first tied players (the play-off has its own
        tests); with no decision the cut stays refused, never broken silently."""
        ask = dict(name=f"Кубок {self.run}", slug=f"sim-{self.run}-cup", user=self.director, reason=reason)
        self.last_refusal = ()
        cup = self._attempt(swiss.qualify_to_knockout, self.tournament, None, top, **ask)
        tie = next((p for p in self.last_refusal if p.code == "pairing.qualify_tie_at_cut"), None)
        if cup is None and tie is not None and decision:
            chosen = tie.details["entries"][: tie.details["spots"]] if decision == "criterion" else ()
            cup = self._attempt(swiss.qualify_to_knockout, self.tournament, None, top, tie_decision=decision,
                                tie_chosen=chosen, tie_note="simulated: the better rating", **ask)  # fmt: skip
        if cup is not None:
            self._tournaments.append(cup)
            self.event.tournament = cup
            self.event.player_entry = cup.entries.order_by("pk").first()

    # ----------------------------------------------------------------------------- categories

    @action(at_most=2, pick=st.integers(min_value=0, max_value=50), category=st.integers(min_value=0, max_value=10),
          via_api=st.booleans())  # fmt: skip
    def the_organiser_sets_an_entry_category(self, pick, category, via_api):
        """The category an entry plays in, within this event (entries page or the API); a
        category the book does not know, or outside the entry's section, is a coded refusal;
        a paired entry is never moved to another section (the invariant checks)."""
        entry = self._pick(self._entries(playing=False), pick)
        if entry is None:
            return
        self.steps += 1
        before = (entry.category, entry.section_id)
        if via_api:
            answer = self.api.patch(f"/api/tournaments/{self.slug}/entries/{entry.pk}/",
                                    {"category": category, "reason": "simulated: by rating"}, format="json")  # fmt: skip
            assert answer.status_code in (200, 400, 409), f"setting a category answered {answer.status_code}"
            if answer.status_code != 200:
                code = answer.json().get("code", "")
                assert code, f"a category refusal without a coded problem: {answer.json()}"
        else:
            url = reverse("manage-entry", kwargs={"slug": self.slug, "entry_id": entry.pk})
            with TestCase.captureOnCommitCallbacks(execute=True):
                answer = self.event.clients["organiser"].post(url, {"action": "category", "category": str(category),
                                                                    "reason": "simulated"})  # fmt: skip
            assert answer.status_code == 302, f"the entries page's category answered {answer.status_code}"
        entry.refresh_from_db()
        if (entry.category, entry.section_id) == before:
            self.outcomes["set category unchanged"] += 1
            return
        assert entry.category == category, f"asked category {category}, the entry plays in {entry.category}"
        self.event.categories[entry.pk] = entry.category
        self.outcomes["set category done"] += 1

    @action(at_most=1, pick=st.integers(min_value=0, max_value=50), category=st.integers(min_value=1, max_value=9))
    def a_player_earns_another_category(self, pick, category):
        """The player's own category moves (book Part 9): their entries here stay as entered."""
        entry = self._pick(self._entries(playing=False), pick)
        if entry is not None:
            self._attempt(change_category, entry.player, category, reason="simulated: won the open", user=self.director)

    # ----------------------------------------------------------------------------- registration

    def _people(self) -> dict[int, tuple]:
        """Every stored player's email, account and entries (what a registration must not touch)."""
        entries: dict[int, list] = {}
        for row in Entry.objects.order_by("pk").values_list("player_id", "pk", "tournament_id", "status", "category"):
            entries.setdefault(row[0], []).append(row[1:])
        return {pk: (email, user, entries.get(pk, []))
                for pk, email, user in Player.objects.values_list("pk", "email", "user_id")}  # fmt: skip

    @action(at_most=1, pick=st.integers(min_value=0, max_value=50), decision=st.sampled_from(["new", "refuse"]),
          spelling=st.sampled_from(["same", "latin", "yo"]))  # fmt: skip
    def a_namesake_registers(self, pick, decision, spelling):
        """Someone types a stored player's name with their own email on the public form; the
        organiser approves them as a new player or refuses. No stored player's email, account
        or entries change; a name already in the event is refused (not entered twice)."""
        pool = [self.known] + [e.player for e in self._entries(playing=False)]
        player = self._pick(pool, pick)
        self.steps += 1
        organiser = self.event.clients["organiser"]
        if not self.tournament.registration_open:
            answer = organiser.post(reverse("manage-registration-open", kwargs={"slug": self.slug}), {"open": "1"})
            assert answer.status_code == 302, f"opening registration answered {answer.status_code}"
            self.tournament.refresh_from_db()
        last, first = {
            "same": (player.last_name, player.first_name),
            "latin": (to_latin(player.last_name), to_latin(player.first_name)),
            "yo": (player.last_name.replace("е", "ё"), player.first_name),
        }[spelling]
        form = {"last_name": last, "first_name": first, "last_name_latin": "", "first_name_latin": "",
                "email": f"namesake{self.run}-{self.steps}@example.org", "club_name": "",
                "category": str(player.category), "rating": ""}  # fmt: skip
        before = self._people()
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = Client().post(reverse("register", kwargs={"slug": self.slug}), form)
        assert answer.status_code < 500, f"the registration form answered {answer.status_code}"
        reg = Registration.objects.filter(tournament=self.tournament, email=form["email"]).first()
        if reg is not None and reg.status in (RegistrationStatus.PENDING, RegistrationStatus.WAITLISTED):
            named = any(e.player.full_name == player.full_name for e in self._entries(playing=False))
            action = "refuse" if decision == "refuse" or named else "approve"
            url = reverse("manage-registration-decide",
                          kwargs={"slug": self.slug, "registration_id": reg.pk, "action": action})  # fmt: skip
            data = {"player": NEW, "over_limit_reason": "simulated"} if action == "approve" else {"reason": "simulated"}
            with TestCase.captureOnCommitCallbacks(execute=True):
                answer = organiser.post(url, data)
            assert answer.status_code == 302, f"deciding the application answered {answer.status_code}"
            reg.refresh_from_db()
            self.outcomes[f"registration {reg.status}"] += 1
        after = self._people()
        changed = [pk for pk, was in before.items() if after.get(pk) != was]
        assert not changed, f"a registration changed stored players {changed}: {[before[pk] for pk in changed]}"

    # ----------------------------------------------------------------------------- records and analysis

    @action(when=lambda m: m.played and m.variant == Variant.BACKGAMMON, at_most=2,
            pick=st.integers(min_value=0, max_value=50), names=st.sampled_from(["pairing", "pairing", "other"]),
            seed=st.integers(min_value=0, max_value=10**6))  # fmt: skip
    def a_record_is_attached(self, pick, names, seed):
        """The desk uploads the match's record (written by the rules core's exporter for the
        match's result) and attaches it; a record naming other players is refused until the
        desk ticks "despite" with a reason."""
        match = self._pick([m for m in self._confirmed() if m.result_kind == ResultKind.PLAYED], pick)
        if match is None:
            return
        self.steps += 1
        a, b = match.entry_a.player, match.entry_b.player
        players = ((to_latin(a.last_name), to_latin(b.last_name)) if names == "pairing"
                   else (f"Fedorov{seed}", f"Sokolov{seed}"))  # fmt: skip
        length = match_spec(match).length if self.tournament.match_format == "points" else 0
        text = mat_for((match.score_a, match.score_b), length=length or 0, players=players, seed=seed)
        client = self.event.clients["organiser"]
        upload = reverse("record-upload", kwargs={"slug": self.slug, "match_id": match.pk})
        answer = client.post(upload, {"file": SimpleUploadedFile("m.mat", text.encode(), content_type="text/plain")})
        assert answer.status_code == 302, f"uploading a record answered {answer.status_code}"
        page, mf = answer.url, MatchFile.objects.filter(match=match).order_by("-pk").first()
        attach = {"action": "attach", "first_is": "a", "replace": "1"}
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = client.post(page, attach)
        mf.refresh_from_db()
        if names == "pairing":
            assert answer.status_code == 302 and mf.state == MatchFileState.ATTACHED, (
                f"the record of the match's own result was not attached ({answer.status_code}): "
                f"{mf.problems}"
            )
            self.outcomes["attach done"] += 1
            return
        assert answer.status_code == 400 and mf.state == MatchFileState.PENDING, (
            "a record naming other players was attached without 'despite'"
        )
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = client.post(page, {**attach, "despite": "1", "despite_reason": "simulated: names typed at home"})
        mf.refresh_from_db()
        assert answer.status_code == 302 and mf.state == MatchFileState.ATTACHED, (
            f"a record attached despite its problems, with a reason, answered {answer.status_code}"
        )
        self.outcomes["attach despite done"] += 1

    @action(at_most=2, plies=st.sampled_from(["0", "2", "2", "5", "x"]), public=st.booleans())
    def the_organiser_sets_the_analysis(self, plies, public):
        """PR public or not, 0-ply or 2-ply (a depth gnubg does not offer is refused, said)."""
        self.steps += 1
        before = settings_for(self.tournament)
        data = {"plies": plies, **({"public": "on"} if public else {})}
        answer = self.event.clients["organiser"].post(reverse("analysis-settings", kwargs={"slug": self.slug}), data)
        assert answer.status_code == 302, f"saving the analysis settings answered {answer.status_code}"
        now = settings_for(self.tournament)
        if plies in ("0", "2"):
            assert (now.plies, now.public) == (int(plies), public), "the analysis settings were not saved"
        else:
            assert (now.plies, now.public) == (before.plies, before.public), "a refused depth changed the settings"

    # ----------------------------------------------------------------------------- exports

    @action(when=lambda m: m.rounds, at_most=1)
    def export_the_workbook(self):
        self.steps += 1
        invariants.workbook_agrees_with_the_standings(self.event)

    # ----------------------------------------------------------------------------- invariants

    @action(when=lambda m: m.finished)
    def the_event_is_over(self):
        """Nothing is left to play: a step that changes nothing, so the invariants are not checked
        again — a run whose event ended before its last step spends the rest at no cost."""
        self._idle = True

    @invariant()
    def check_the_event(self):
        if self._idle:
            self._idle = False
            return
        self._moment = None  # an action has run: the next step reads the event afresh
        if self.event is not None:
            try:
                invariants.check_every_step(self.event, self.steps)
            except BaseException as failure:
                self.played.failure = self.played.failure or f"invariant: {failure!r}"[:300]
                raise

    def _record(self) -> None:
        """What this run played, for the coverage table: kept in the process (the suite) and
        appended to ``ZARIK_SIMULATOR_TALLY`` (a soak), one line an event."""
        played = self.played
        played.steps = sum(played.actions.values()) - played.actions["the_event_is_over"]
        played.comparisons = self.event.comparisons
        if not transaction.get_connection().needs_rollback:
            rounds = Round.objects.filter(tournament__in=self._tournaments)
            played.rounds = rounds.count()
            played.rounds_closed = rounds.filter(status=RoundStatus.FINISHED).count()
            played.finished = type(self.tournament).objects.filter(
                pk=self.tournament.pk, status=TournamentStatus.FINISHED).exists()  # fmt: skip
            confirmed = Match.objects.filter(round__tournament__in=self._tournaments, entry_b__isnull=False,
                                             result_status=ResultStatus.CONFIRMED)  # fmt: skip
            played.results = Counter(confirmed.values_list("result_kind", flat=True))
            played.sanctions = Counter(Sanction.objects.filter(tournament__in=self._tournaments)
                                       .values_list("kind", flat=True))  # fmt: skip
        coverage.SESSION.append(played)
        tally = os.environ.get("ZARIK_SIMULATOR_TALLY")
        if tally:
            with open(tally, "a", encoding="utf-8") as out:
                out.write(played.line() + "\n")

    def teardown(self):
        if self.event is not None:
            self._record()
        try:
            if self.event is not None and self.steps and not transaction.get_connection().needs_rollback:
                invariants.pages_answer_for_every_role(self.event)
                invariants.workbook_agrees_with_the_standings(self.event)
                invariants.archive_and_restore_give_the_same_tables(self.event)
        finally:
            invariants.listen(None)
            transaction.set_rollback(True)
            self._savepoint.__exit__(None, None, None)


#: How many times more often hypothesis offers an action than one of weight 1 (an alias of the
#: rule per extra share: hypothesis picks uniformly among the rules allowed at that moment).
#: An event is mostly rounds played out; a dispute waits for a ruling before its round can close.
#: A round is played out in two steps (paired and published, then its results): at 8 the open
#: round's own actions (reports, lateness, the grid, settlements) were never reached in a soak
#: and three steps in five came after the event had ended; at 4 events still finish.
WEIGHTS = {"play_a_round_out": 4, "the_director_rules": 3, "close_the_round": 2, "director_enters_results": 2,
           "a_player_reports_and_the_opponent_answers": 3, "settle_a_match_without_play": 2}  # fmt: skip
for _name, _weight in WEIGHTS.items():
    for _copy in range(1, _weight):
        setattr(EventMachine, f"{_name}__{_copy}", getattr(EventMachine, _name))


def playing(system: str) -> type[EventMachine]:
    """The machine with its system fixed: the suite plays each system in a test of its own, so
    each is played whatever hypothesis draws (a failure's steps name the system it played)."""

    class OneSystem(EventMachine):
        @initialize(**{**SET_UP, "system": st.just(system)})
        def set_up(self, **options):
            super().set_up(**options)

    OneSystem.__name__ = OneSystem.__qualname__ = f"EventMachine_{system}"
    return OneSystem
