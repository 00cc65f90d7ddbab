"""A live recording of one match and its steps, numbered from 1 with an idempotency key each.

The steps are the record (replayed by :mod:`scoring.rules.records.live`); ``snapshot`` keeps what
the watchers' pages show so a poll reads one row, and ``seq`` (the number of steps kept)
is the ETag of every live page.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models import MatchFile
from tournaments.models import Match, Tournament


class LiveRecording(models.Model):
    RECORDING, FINISHED = "recording", "finished"

    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="live")
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
                                   related_name="live_recordings")
    recorder = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("appointed recorder"), null=True,
                                 blank=True, on_delete=models.SET_NULL, related_name="live_recordings")
    appointed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("appointed by"), null=True,
                                     blank=True, on_delete=models.SET_NULL, related_name="+")
    featured = models.BooleanField(_("feature table"), default=False)
    seq = models.PositiveIntegerField(_("steps recorded"), default=0)
    state = models.CharField(_("state"), max_length=12, default=RECORDING,
                             choices=[(RECORDING, _("Recording")), (FINISHED, _("Finished"))])
    snapshot = models.JSONField(_("current board"), default=dict, blank=True)
    record_file = models.ForeignKey(MatchFile, verbose_name=_("recorded file"), null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    problem = models.JSONField(_("problem at the end"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("live recording")
        verbose_name_plural = _("live recordings")

    def __str__(self) -> str:
        return f"live {self.match_id} ({self.seq})"


class LiveStep(models.Model):
    recording = models.ForeignKey(LiveRecording, on_delete=models.CASCADE, related_name="steps")
    seq = models.PositiveIntegerField(_("number"))
    key = models.CharField(_("idempotency key"), max_length=64)
    kind = models.CharField(_("kind"), max_length=12)
    data = models.JSONField(_("step"))
    by = models.CharField(_("recorded by"), max_length=80, blank=True)
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["recording", "seq"], name="live_step_seq_unique"),
            models.UniqueConstraint(fields=["recording", "key"], name="live_step_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.seq}: {self.kind}"
