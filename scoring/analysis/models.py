"""One analysis per match, the event's analysis settings, a player's choice to show PR."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from tournaments.models import Match, Tournament


class AnalysisState(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class Depth(models.IntegerChoices):
    """How deep gnubg looks: 0-ply is fast (a club night), 2-ply is the standard for events."""

    FAST = 0, _("0-ply (fast)")
    STANDARD = 2, _("2-ply (standard)")


class AnalysisSettings(models.Model):
    """What the organiser chose for the event (no row: 0-ply, PR shown to players and officials)."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="analysis_settings"
    )
    plies = models.PositiveSmallIntegerField(_("analysis depth"), choices=Depth.choices, default=Depth.FAST)
    public = models.BooleanField(
        _("PR is public"), default=False,
        help_text=_("everyone sees the players' PR; otherwise only each player and the officials"),
    )

    class Meta:
        verbose_name = _("analysis settings")
        verbose_name_plural = _("analysis settings")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.plies}-ply"


class PlayerAnalysisChoice(models.Model):
    """A player's own choice to show their PR everywhere (no row: as each event says)."""

    player = models.OneToOneField(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="analysis_choice"
    )
    public = models.BooleanField(_("my PR is public"), default=False)

    class Meta:
        verbose_name = _("PR visibility choice")
        verbose_name_plural = _("PR visibility choices")

    def __str__(self) -> str:
        return f"{self.player_id}: {'public' if self.public else 'hidden'}"


class MatchAnalysis(models.Model):
    """GNU Backgammon's analysis of a match's record and what it costs to show it.

    ``report`` is the full report (:func:`scoring.analysis.report.build`, in the file's
    sides); PR and decisions are copied per pairing side (``a``/``b``) for tables, which
    read them without the report. ``engine_rate_*`` is gnubg's own overall error rate
    (mEMG) for the same side: PR × 2 equals it to gnubg's rounding.
    """

    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="analysis")
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="analyses"
    )
    state = models.CharField(_("state"), max_length=8, choices=AnalysisState.choices, default=AnalysisState.QUEUED)
    problem = models.JSONField(_("reason"), null=True, blank=True)
    plies = models.PositiveSmallIntegerField(_("depth"), default=0)
    first_is = models.CharField(_("the file's first player is"), max_length=1, default="a")
    record_sha = models.CharField(_("record checksum"), max_length=64, blank=True)
    report = models.JSONField(_("report"), null=True, blank=True)
    pr_a = models.FloatField(_("PR of A"), null=True, blank=True)
    pr_b = models.FloatField(_("PR of B"), null=True, blank=True)
    decisions_a = models.PositiveIntegerField(_("decisions of A"), default=0)
    decisions_b = models.PositiveIntegerField(_("decisions of B"), default=0)
    engine_rate_a = models.FloatField(_("gnubg error rate of A"), null=True, blank=True)
    engine_rate_b = models.FloatField(_("gnubg error rate of B"), null=True, blank=True)
    seconds = models.FloatField(_("seconds"), null=True, blank=True)
    pid = models.PositiveIntegerField(_("engine process"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        indexes = [models.Index(fields=["state", "queued_at"]), models.Index(fields=["tournament", "state"])]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.state}"
