"""Result reports and confirmations, and the audit log of changes.

A :class:`Result` is one person's account of a match (a referee's entry or a
player's report). Several may exist for a match, but the database allows at
most one *confirmed* result per match (a partial unique index), so a result can
never be counted twice, whatever the number of web processes.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Match, ResultKind, Round, ScoreField, Tournament
from tournaments.validation import validate_result
from zarik.i18n import problems_to_validation_error


class ResultState(models.TextChoices):
    REPORTED = "reported", _("Reported")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")
    SUPERSEDED = "superseded", _("Superseded")
    REJECTED = "rejected", _("Rejected")


class Result(models.Model):
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="results"
    )
    score_a = ScoreField(_("score A"))
    score_b = ScoreField(_("score B"))
    kind = models.CharField(
        _("result kind"), max_length=16, choices=ResultKind.choices, default=ResultKind.PLAYED
    )
    winner = models.CharField(
        _("winner"), max_length=1, blank=True, choices=[("a", "A"), ("b", "B")],
        help_text=_("named by the director for a forfeit or a time forfeit"),
    )
    games = models.JSONField(
        _("games"), default=list, blank=True,
        help_text=_("the ledger as entered: winner, kind, cube, dropped, autodoubles, record"),
    )
    state = models.CharField(
        _("state"), max_length=12, choices=ResultState.choices, default=ResultState.REPORTED
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("reported by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="results_reported",
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("confirmed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="results_confirmed",
    )
    reported_side = models.CharField(
        _("reported by the player of side"), max_length=1, blank=True,
        choices=[("a", "A"), ("b", "B")],
        help_text=_("set when a player reports (also through a private link, with no account)"),
    )
    confirmed_side = models.CharField(
        _("confirmed by the player of side"), max_length=1, blank=True,
        choices=[("a", "A"), ("b", "B")],
    )
    reported_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    note = models.TextField(_("note or reason"), blank=True)

    class Meta:
        ordering = ["match", "-reported_at"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(state="confirmed"),
                name="one_confirmed_result_per_match",
                violation_error_message=_("This match already has a confirmed result."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.score_a}:{self.score_b} ({self.get_state_display()})"

    def clean(self) -> None:
        """Model validation goes through the same core call as every other entry path."""
        if self.match_id is None or self.score_a is None or self.score_b is None:
            return
        verdict = validate_result(
            self.match, final=(self.score_a, self.score_b), games=self.games or None,
            kind=self.kind, winner=self.winner or None,
        )
        if not verdict.ok:
            raise problems_to_validation_error(verdict.problems)


# --- disputes and discipline (issue 7) ----------------------------------------------------


class DisputeState(models.TextChoices):
    OPEN = "open", _("Open: awaiting the director")
    RULED = "ruled", _("Ruled by the director")
    APPEALED = "appealed", _("Appealed to the jury")
    FINAL = "final", _("Final")


class Outcome(models.TextChoices):
    """What a ruling does to the disputed result (director's ruling or the jury's decision)."""

    UPHOLD = "uphold", _("The reported result stands")
    REPLACE = "replace", _("A different result is set")
    VOID = "void", _("The report is void; the match is entered again")
    SUSTAIN = "sustain", _("The director's ruling stands")


class Dispute(models.Model):
    """A contested result (Part 9): the director rules; an appeal goes to the jury, which is final.

    ``result`` is the report that was contested; ``decided_result`` the
    result confirmed by the latest ruling (None when the report was voided).
    """

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="disputes"
    )
    result = models.ForeignKey(
        Result, verbose_name=_("disputed result"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="disputes",
    )
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("raised by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="disputes_raised",
    )
    raised_side = models.CharField(
        _("raised by the player of side"), max_length=1, blank=True,
        choices=[("a", "A"), ("b", "B")],
        help_text=_("set when a player raises it (also through a private link, with no account)"),
    )
    raised_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    reason = models.TextField(_("reason"))
    state = models.CharField(
        _("state"), max_length=10, choices=DisputeState.choices, default=DisputeState.OPEN
    )
    ruling = models.TextField(_("director's ruling"), blank=True)
    ruling_outcome = models.CharField(
        _("ruling outcome"), max_length=10, choices=Outcome.choices, blank=True
    )
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("ruled by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="disputes_ruled",
    )
    ruled_at = models.DateTimeField(_("ruled at"), null=True, blank=True)
    appeal_reason = models.TextField(_("grounds of appeal"), blank=True)
    appealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("appealed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="disputes_appealed",
    )
    appealed_side = models.CharField(
        _("appealed by the player of side"), max_length=1, blank=True,
        choices=[("a", "A"), ("b", "B")],
        help_text=_("set when a player appeals (also through a private link, with no account)"),
    )
    appealed_at = models.DateTimeField(_("appealed at"), null=True, blank=True)
    jury_decision = models.TextField(_("jury's decision"), blank=True)
    jury_outcome = models.CharField(
        _("jury outcome"), max_length=10, choices=Outcome.choices, blank=True
    )
    jury_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by (jury)"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="disputes_decided",
    )
    jury_at = models.DateTimeField(_("jury decided at"), null=True, blank=True)
    decided_result = models.ForeignKey(
        Result, verbose_name=_("result after the ruling"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )

    class Meta:
        ordering = ["-raised_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        indexes = [models.Index(fields=["match", "state"])]

    def __str__(self) -> str:
        return f"{self.match}: {self.get_state_display()}"


class SanctionKind(models.TextChoices):
    WARNING = "warning", _("Warning")
    PENALTY = "penalty", _("Penalty")
    ANNUL = "annul", _("Game annulled (prompting)")
    DISQUALIFICATION = "disqualification", _("Disqualification")


class Sanction(models.Model):
    """A warning, penalty or disqualification (Part 9), with who decided and why."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="sanctions",
    )
    entry = models.ForeignKey(
        "tournaments.Entry", verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="sanctions",
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="sanctions",
    )
    kind = models.CharField(_("kind"), max_length=20, choices=SanctionKind.choices)
    points = models.DecimalField(
        _("penalty points"), max_digits=5, decimal_places=1, null=True, blank=True,
        help_text=_("points deducted, for a penalty"),
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="sanctions_decided",
    )
    decided_as = models.CharField(_("decided as"), max_length=10, blank=True)
    reason = models.TextField(_("reason"))
    at = models.DateTimeField(_("when"), auto_now_add=True)
    game = models.PositiveSmallIntegerField(
        _("game number"), null=True, blank=True,
        help_text=_("for an annulled game: its number in the match"),
    )
    adjustment = models.OneToOneField(
        "tournaments.StandingsAdjustment", verbose_name=_("standings adjustment"), null=True,
        blank=True, on_delete=models.SET_NULL, related_name="sanction",
        help_text=_("a penalty's points taken from the tournament score"),
    )

    class Meta:
        ordering = ["-at"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self) -> str:
        return f"{self.entry}: {self.get_kind_display()}"


class MatchFileState(models.TextChoices):
    PENDING = "pending", _("Waiting for a decision")
    ATTACHED = "attached", _("Attached to the match")
    DISCARDED = "discarded", _("Discarded")


class MatchFile(models.Model):
    """An uploaded match file (``.mat``) or game record, kept until a person decides on it.

    A file names its own players; ``first_is`` says which side of the pairing (``a``/``b``)
    the file's first player is, and it is only ever set by a person (``proposed`` is the
    guess from the names). Until then the file's score decides nothing. Bulk uploads of a
    round share a ``batch`` (the job id) and may have no match yet.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="match_files"
    )
    round = models.ForeignKey(
        Round, verbose_name=_("round"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="match_files",
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="files",
    )
    batch = models.CharField(_("bulk upload"), max_length=40, blank=True, db_index=True)
    name = models.CharField(_("file name"), max_length=200, blank=True)
    text = models.TextField(_("content"))
    kind = models.CharField(_("format"), max_length=4, choices=[("mat", ".mat"), ("text", _("book notation"))])
    players = models.JSONField(_("players named in the file"), default=list, blank=True)
    summary = models.JSONField(
        _("what the file says"), default=dict, blank=True,
        help_text=_("length, score and games as replayed by the rules core"),
    )
    problems = models.JSONField(_("problems"), default=list, blank=True)
    proposed = models.CharField(_("proposed side of the first player"), max_length=1, blank=True)
    first_is = models.CharField(
        _("the file's first player is"), max_length=1, blank=True,
        choices=[("a", "A"), ("b", "B")],
    )
    state = models.CharField(
        _("state"), max_length=10, choices=MatchFileState.choices, default=MatchFileState.PENDING
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("uploaded by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="match_files",
    )
    uploaded_side = models.CharField(
        _("uploaded by the player of side"), max_length=1, blank=True,
        choices=[("a", "A"), ("b", "B")],
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    # The replay (frames and problems) kept with the file, so no page replays it again;
    # ``replay_key`` says for which text, game and rules it was made (a mismatch = replay).
    replay = models.BinaryField(_("replay"), blank=True, default=b"", editable=False)
    replay_key = models.CharField(_("replay made for"), max_length=100, blank=True, editable=False)

    class Meta:
        ordering = ["-uploaded_at", "-pk"]
        verbose_name = _("match file")
        verbose_name_plural = _("match files")
        indexes = [models.Index(fields=["match", "state"])]

    def __str__(self) -> str:
        return self.name or f"{self.get_kind_display()} #{self.pk}"
