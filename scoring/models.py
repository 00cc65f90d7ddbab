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

from tournaments.models import Match


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
    score_a = models.PositiveSmallIntegerField(_("score A"))
    score_b = models.PositiveSmallIntegerField(_("score B"))
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


class AuditEntry(models.Model):
    """Who changed what and when, with the state before and after."""

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("who"), null=True, blank=True,
        on_delete=models.SET_NULL,
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("tournament"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="audit_entries",
    )
    action = models.CharField(_("action"), max_length=40)
    object_type = models.CharField(_("object type"), max_length=40)
    object_id = models.CharField(_("object id"), max_length=40)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user} {self.action} {self.object_type}#{self.object_id}"
