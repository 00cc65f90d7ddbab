"""The tournament's status follows its rounds by itself: ONE function, :func:`update_status`.

The status is computed from facts, never toggled by hand in several places:

* **finished** — some round has been published, and in every section (or in the
  whole tournament, for a system that pairs it at once) nothing remains to
  play — an empty section (nobody entered it, no round drawn: :func:`.reading.is_empty`)
  is left out, as a real event rarely fills every row of the book's category table: the system's row in :data:`.systems.SYSTEMS` answers (``over``: Swiss —
  ``rounds_planned`` rounds closed; round robin — every scheduled round closed;
  knockout — the final decided; Scheveningen — every round closed and the team
  knockout won);
* **in progress** — some round has been published (or played), and something
  remains; so a round generated after "finished" brings the tournament back;
* **registration** — no round is published yet, and the tournament has entries
  or its self-registration is open. Decided here so the organiser never has to
  remember it: a tournament with players in it is taking registrations, and a
  withdrawn publication of round 1 brings it back there;
* **draft** — otherwise (nothing public about it yet): a tournament in draft
  without entries and with registration closed stays in draft.

Called where rounds change — and where sections do (a section created or deleted, an entry
moved, withdrawn or reinstated: :mod:`tournaments.setup.services`,
:mod:`tournaments.entries`) — generating (:mod:`.generate`), publishing and
withdrawing a publication (:mod:`.lifecycle`), and closing a round
(:func:`tournaments.rounds.flow.close_round` sends ``round_closed`` and
:func:`~tournaments.rounds.flow.reopen_for` ``round_reopened``, connected to
:func:`on_round_finished_or_reopened` in the app's ``ready``). Other pages that open
registration or add entries may call it too; it is idempotent and cheap.
"""

from __future__ import annotations

from tournaments import audit
from tournaments.cache import invalidate
from tournaments.models import Round, RoundStatus, Tournament, TournamentStatus

from .reading import is_empty
from .systems import SYSTEMS


def _over(tournament: Tournament) -> bool:
    system = SYSTEMS[tournament.system]
    sections = list(tournament.sections.all()) if system.per_section else []
    sections = [s for s in sections if not is_empty(tournament, s)]
    return all(system.over(tournament, section) for section in sections or [None])


def status_for(tournament: Tournament) -> str:
    """What the status should be now (see the module's docstring)."""
    rounds = Round.objects.filter(tournament=tournament)
    if rounds.exclude(status=RoundStatus.DRAFT).exists():
        return TournamentStatus.FINISHED if _over(tournament) else TournamentStatus.IN_PROGRESS
    if tournament.registration_open or tournament.entries.exists():
        return TournamentStatus.REGISTRATION
    return TournamentStatus.DRAFT


def update_status(tournament: Tournament, user=None) -> str:
    """Move the status to what the rounds say; a move is saved and audited. Returns the status."""
    wanted = status_for(tournament)
    if wanted != tournament.status:
        before = {"status": tournament.status}
        Tournament.objects.filter(pk=tournament.pk).update(status=wanted)
        tournament.status = wanted
        invalidate(tournament.pk)  # update() sends no signal
        audit.record(user, tournament, "tournament.status", tournament, before, {"status": wanted})
    return wanted


def on_round_finished_or_reopened(sender, round: Round, user=None, **kwargs) -> None:
    """Receiver of :data:`tournaments.rounds.flow.round_closed` and ``round_reopened``."""
    update_status(round.tournament, user)
