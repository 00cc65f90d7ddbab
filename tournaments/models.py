"""Tournaments, sections, entries, teams, rounds, matches (pairings) and games.

Integrity lives in the database: one entry per player per tournament, unique
draw numbers, a player at most once per round (through :class:`Seat`), and —
in ``scoring.models.Result`` — at most one confirmed result per match.
"""

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.fields import PersonNameField
from clubs.models import RATING_POOL_CHOICES, Category, Club, Player, Season
from scoring.rules.errors import RuleViolation
from tournaments.pairing.options import options_problems
from tournaments.standings.order import parse_tiebreaks
from zarik.i18n import problems_to_validation_error

from .validation import rule_for, time_problems, tournament_problems


class ScoreField(models.DecimalField):
    """A match score stored exactly in halves (issue 15: the equal-moves draw worth ½).

    A decimal column with one place (never a float); read back as an ``int`` when
    whole — so pages, arithmetic and JSON keep showing 5, not 5.0 — and as a
    :class:`~decimal.Decimal` (2.5) when a drawn game made it a half. The
    ``score`` template filter shows the half as "½"; Excel gets the number 0.5.
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_digits", 5)
        kwargs.setdefault("decimal_places", 1)
        super().__init__(*args, **kwargs)

    @staticmethod
    def tidy(value):
        if value is None:
            return None
        if type(value) is Decimal:  # what the database gives: a whole score is the usual case
            whole = int(value)
            if whole == value:
                return whole
            return value.normalize()
        number = Decimal(value) if not isinstance(value, Fraction) else Decimal(value.numerator) / value.denominator
        return int(number) if number == number.to_integral_value() else number.normalize()

    def from_db_value(self, value, expression, connection):
        return self.tidy(value)

    def to_python(self, value):
        if isinstance(value, Fraction):
            return self.tidy(value)
        value = super().to_python(value)
        return self.tidy(value)

    def run_validators(self, value):
        if isinstance(value, int):
            value = Decimal(value)
        super().run_validators(value)

    def get_prep_value(self, value):
        if isinstance(value, Fraction):
            value = Decimal(value.numerator) / value.denominator
        return super().get_prep_value(value)


class ResultKind(models.TextChoices):
    """How a match's result came about (the rules core's ``ResultKind``; a test pins them equal)."""

    PLAYED = "played", _("played")
    FORFEIT = "forfeit", _("win by forfeit")
    DOUBLE_FORFEIT = "double_forfeit", _("double forfeit")
    TIME_FORFEIT = "time_forfeit", _("time forfeit")
    VOID = "void", _("void")


class ForfeitScore(models.TextChoices):
    FULL = "full", _("the winner gets the whole match (e.g. 5:0)")
    PLAYED = "played", _("the points already played stand")


class PenaltyFrom(models.TextChoices):
    """Where a penalty's points come off (the organiser's rule; Part 9 leaves it to them)."""

    STANDINGS = "standings", _("the player's tournament points")
    MATCH = "match", _("the match being played (to the opponent's score)")


class Variant(models.TextChoices):
    BACKGAMMON = "backgammon", _("Backgammon")
    SHORT_NARDY = "short_nardy", _("Short nardy (trictrac)")
    NACKGAMMON = "nackgammon", _("Nackgammon")
    HYPERGAMMON = "hypergammon", _("Hypergammon")
    CAUCASIAN = "caucasian", _("Caucasian short nardy")
    LONG_NARDY = "long_nardy", _("Long nardy")
    KARZAR = "karzar", _("Karzar")


class ScoringSystem(models.TextChoices):
    BACKGAMMON = "backgammon", _("Backgammon 1-2-3")
    TRICTRAC = "trictrac", _("Trictrac 1-2-4-8")
    LONG_NARDY = "long_nardy", _("Long nardy 1-2-3")
    OYUN_MARS = "oyun_mars", _("Oyun and mars only 1-2")


class CompetitionSystem(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    KNOCKOUT = "knockout", _("Knockout (cup)")
    SCHEVENINGEN = "scheveningen", _("Scheveningen")


class MatchFormat(models.TextChoices):
    POINTS = "points", _("To N points")
    GAMES = "games", _("Fixed number of games")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration")
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")


class Seeding(models.TextChoices):
    """How draw numbers are given before round 1 (book Part 9: the open draw is the rule)."""

    DRAW = "draw", _("Open draw of numbers")
    RATING = "rating", _("By rating, highest first")
    CATEGORY = "category", _("By category, then rating")
    REGISTRATION = "registration", _("In order of registration")


class HallShows(models.TextChoices):
    """What the hall display rotates through (``tournaments/public/hall_views.py``)."""

    BOTH = "both", _("pairings, then standings")
    PAIRINGS = "pairings", _("pairings only")
    STANDINGS = "standings", _("standings only")


#: Seconds a hall screen stays: long enough to find a name, short enough to come round.
HALL_EVERY_MIN, HALL_EVERY_MAX = 5, 120


class PrizeSplitRule(models.TextChoices):
    """How players level in the final table share prizes (see ``standings/prizes.py``)."""

    EQUAL = "equal", _("equally, when level on the main score")
    TIEBREAK = "tiebreak", _("by tie-breaks; equally only when still level")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    variant = models.CharField(
        _("game"), max_length=20, choices=Variant.choices, default=Variant.BACKGAMMON
    )
    scoring = models.CharField(
        _("scoring system"), max_length=20, choices=ScoringSystem.choices,
        default=ScoringSystem.BACKGAMMON,
    )
    system = models.CharField(
        _("competition system"), max_length=20, choices=CompetitionSystem.choices,
        default=CompetitionSystem.SWISS,
    )
    match_format = models.CharField(
        _("match format"), max_length=10, choices=MatchFormat.choices, default=MatchFormat.POINTS
    )
    match_length = models.PositiveSmallIntegerField(
        _("match length (points)"), null=True, blank=True, default=5
    )
    fixed_games = models.PositiveSmallIntegerField(_("games per match"), null=True, blank=True)
    cube = models.BooleanField(_("doubling cube"), default=False)
    crawford = models.BooleanField(_("Crawford rule"), default=True)
    holland = models.BooleanField(_("Holland rule"), default=False)
    jacoby = models.BooleanField(
        _("Jacoby rule"), default=False, help_text=_("money play only; never applies in matches")
    )
    beaver = models.BooleanField(_("beaver"), default=False)
    raccoon = models.BooleanField(_("raccoon"), default=False)
    autodouble_limit = models.PositiveSmallIntegerField(_("automatic doubles allowed"), default=0)
    max_cube = models.PositiveSmallIntegerField(_("maximum cube value"), default=64)
    draw_value = models.DecimalField(
        _("value of a drawn game"), max_digits=3, decimal_places=1, default=0.5,
        help_text=_("equal-moves rule: 1 (1:1, as in Perm) or 0.5"),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), null=True, blank=True)
    time_control = models.CharField(_("time control"), max_length=200, blank=True)
    move_seconds = models.PositiveSmallIntegerField(
        _("limit per move (seconds)"), null=True, blank=True,
        help_text=_("the book (Part 9): usually 30, 35, 40 or 45 seconds a move, no more"),
    )
    clock_minutes_per_point = models.PositiveSmallIntegerField(
        _("clock: minutes per point of match length"), null=True, blank=True,
        help_text=_("empty: no clocks; each player gets this many minutes per point (or game)"),
    )
    clock_delay_seconds = models.PositiveSmallIntegerField(_("clock delay per move (s)"), default=0)
    clock_increment_seconds = models.PositiveSmallIntegerField(
        _("clock increment per move (s)"), default=0
    )
    forfeit_score = models.CharField(
        _("score of a forfeit"), max_length=10, choices=ForfeitScore.choices,
        default=ForfeitScore.FULL,
    )
    late_penalty_minutes = models.PositiveSmallIntegerField(
        _("lateness: one penalty point per N minutes"), null=True, blank=True,
        help_text=_("empty: no penalty points for lateness"),
    )
    late_forfeit_minutes = models.PositiveSmallIntegerField(
        _("lateness: forfeit after M minutes"), null=True, blank=True,
        help_text=_("empty: lateness alone never forfeits the match"),
    )
    penalty_from = models.CharField(
        _("penalty points come off"), max_length=10, choices=PenaltyFrom.choices,
        default=PenaltyFrom.STANDINGS,
        help_text=_("a penalty after a warning (Part 9): from the standings, or added to the "
                    "opponent's score in the match being played"),
    )
    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=20, choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
    )
    public = models.BooleanField(
        _("released to the public"), default=False,
        help_text=_("pairings, standings and crosstable are shown on public pages"),
    )
    tiebreaks = models.JSONField(
        _("tie-breaks"), default=list, blank=True,
        help_text=_("ordered metric keys; empty means the default for the system"),
    )
    pairing_options = models.JSONField(_("pairing options"), default=dict, blank=True)
    seeding = models.CharField(
        _("seeding before round 1"), max_length=12, choices=Seeding.choices, default=Seeding.DRAW,
        help_text=_(
            "the book's open draw of numbers, or a seeding the organiser chooses instead; "
            "round 1 is not paired before the draw when the draw is chosen"
        ),
    )
    draw_commitment = models.CharField(
        _("draw commitment"), max_length=64, blank=True,
        help_text=_("SHA-256 of the seed, published before the draw"),
    )
    draw_secret = models.CharField(
        _("committed seed"), max_length=64, blank=True, editable=False,
        help_text=_("kept secret until the draw, then published with it"),
    )
    registration_open = models.BooleanField(
        _("self-registration open"), default=False,
        help_text=_("players may enter themselves on the tournament's public page"),
    )
    registration_deadline = models.DateTimeField(
        _("registration deadline"), null=True, blank=True
    )
    entry_limit = models.PositiveIntegerField(
        _("entry limit"), null=True, blank=True,
        help_text=_("empty: no limit; above it applicants join the waiting list"),
    )
    registration_categories = models.JSONField(
        _("categories allowed to register"), default=list, blank=True,
        help_text=_("category numbers 1–9; empty: all"),
    )
    registration_approval = models.BooleanField(
        _("organiser approves registrations"), default=True
    )
    rated = models.BooleanField(
        _("rated"), default=True,
        help_text=_("confirmed results count for the players' FIBS ratings in the variant's pool"),
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    check_in_required = models.BooleanField(
        _("pair only players who checked in"), default=False,
        help_text=_("players who have not checked in are left out of the next round"),
    )
    # Rulings after the fact and the prize fund (issue 15, items 7 and 10)
    dispute_window = models.PositiveIntegerField(
        _("minutes to dispute a confirmed result"), default=0,
        help_text=_("either player may dispute a confirmed result this long after it was "
                    "confirmed; 0: only a player who took no part in confirming it may"),
    )
    prize_fund = models.DecimalField(
        _("prize fund"), max_digits=12, decimal_places=2, null=True, blank=True,
        help_text=_("the prize table may not pay out more than this (Part 9: fees and sponsors)"),
    )
    # Part 9: "из этих вступительных взносов и спонсорских вложений формируется призовой фонд и
    # отчисления на накладные расходы" — the fees come from the desk (Entry.fee_amount).
    sponsor_money = models.DecimalField(
        _("sponsors' money"), max_digits=12, decimal_places=2, null=True, blank=True,
        help_text=_("what the sponsors put into the prize fund (Part 9)"),
    )
    overheads = models.DecimalField(
        _("overheads"), max_digits=12, decimal_places=2, null=True, blank=True,
        help_text=_("taken from the fees and sponsors' money before the prize fund (hall, boards, referees)"),
    )
    prize_split = models.CharField(
        _("tied places share prizes"), max_length=10, choices=PrizeSplitRule.choices,
        default=PrizeSplitRule.EQUAL,
    )
    hall_shows = models.CharField(
        _("the hall display shows"), max_length=10, choices=HallShows.choices,
        default=HallShows.BOTH,
    )
    hall_every = models.PositiveSmallIntegerField(
        _("seconds each hall screen stays"), default=10,
        validators=[MinValueValidator(HALL_EVERY_MIN), MaxValueValidator(HALL_EVERY_MAX)],
    )
    hall_round_minutes = models.PositiveSmallIntegerField(
        _("round clock, minutes"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text=_("the hall counts down from the round's publication; empty: no clock"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="tournament_ends_after_start",
                violation_error_message=_("A tournament cannot end before it starts."),
            ),
            models.CheckConstraint(
                condition=(Q(match_format="points") & Q(match_length__gte=1))
                | (Q(match_format="games") & Q(fixed_games__gte=1)),
                name="tournament_match_format_complete",
                violation_error_message=_(
                    "A match to N points needs N; a fixed-games match needs the number of games."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", kwargs={"slug": self.slug})

    def clean(self) -> None:
        """Contradicting options, and pairing options / tie-breaks the typed readers refuse.

        Unknown pairing options and tie-breaks are field errors on the JSON field
        they sit in, in the reader's language.
        """
        errors: dict[str, list] = {}
        problems = tournament_problems(self) + time_problems(self)
        if problems:
            errors[NON_FIELD_ERRORS] = problems_to_validation_error(problems).error_list
        if self.system in CompetitionSystem.values:
            bad = options_problems(self.system, self.pairing_options)
            if bad:
                errors["pairing_options"] = problems_to_validation_error(bad).error_list
        try:
            parse_tiebreaks(self.tiebreaks)
        except RuleViolation as exc:
            errors["tiebreaks"] = problems_to_validation_error(exc.problems).error_list
        if errors:
            raise ValidationError(errors)


class SectionGroup(models.TextChoices):
    OPEN = "open", _("Open")
    LOWER = "lower", _("Lower (categories 1–3)")
    MIDDLE = "middle", _("Middle (categories 4–6)")
    HIGHER = "higher", _("Higher (categories 7–9)")


class Section(models.Model):
    """A category group playing inside a tournament, with its own cube rule and match length."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="sections"
    )
    name = models.CharField(_("name"), max_length=100)
    group = models.CharField(
        _("category group"), max_length=10, choices=SectionGroup.choices, default=SectionGroup.OPEN
    )
    min_category = models.PositiveSmallIntegerField(
        _("lowest category"), choices=Category.choices, default=Category.BEGINNER
    )
    max_category = models.PositiveSmallIntegerField(
        _("highest category"), choices=Category.choices, default=Category.GRANDMASTER
    )
    rule_category = models.PositiveSmallIntegerField(
        _("category whose rule applies"), choices=Category.choices, null=True, blank=True,
        help_text=_("cube rule and match length by round from the book's table; empty: the lowest category"),
    )
    cube = models.BooleanField(
        _("doubling cube"), null=True, blank=True, help_text=_("empty: as the category table says")
    )
    match_length = models.PositiveSmallIntegerField(
        _("match length"), null=True, blank=True,
        help_text=_("empty: as the category table says (growing by round for Expert and above)"),
    )
    override_reason = models.CharField(
        _("reason for departing from the category table"), max_length=300, blank=True
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["tournament", "order", "name"]
        verbose_name = _("section")
        verbose_name_plural = _("sections")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_section_name"),
            models.CheckConstraint(
                condition=Q(min_category__lte=F("max_category")),
                name="section_category_range",
                violation_error_message=_("The lowest category must not be above the highest."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.name}"

    def clean(self) -> None:
        """A section departing from the category table must say why (the core insists)."""

        try:
            rule_for(self, 1)
        except RuleViolation as exc:
            raise problems_to_validation_error(exc.problems, "override_reason") from exc

    def rule(self, round_number: int, round_length: int | None = None, reason: str = ""):
        """The match length and cube rule of this section in a round (see scoring.rules.match.categories)."""

        return rule_for(self, round_number, round_length, reason)


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class EntryQuerySet(models.QuerySet):
    """Entries whose every write moves ``updated_at``, the API's ``updated_since`` (issue 47):
    ``update()`` and ``bulk_update()`` skip ``auto_now``, and the desk, the draw and a merge
    write entries that way."""

    def update(self, **kwargs):
        kwargs.setdefault("updated_at", timezone.now())
        return super().update(**kwargs)

    def bulk_update(self, objs, fields, batch_size=None):
        objs, now = list(objs), timezone.now()
        for obj in objs:
            obj.updated_at = now
        return super().bulk_update(objs, [*fields, "updated_at"], batch_size=batch_size)


class Entry(models.Model):
    """A player in a tournament (and a section), with the draw number from the open draw."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="entries",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    draw_number = models.PositiveIntegerField(_("draw number"), null=True, blank=True)
    category = models.PositiveSmallIntegerField(
        _("category in this event"), choices=Category.choices, null=True, blank=True,
        help_text=_(
            "the category the player entered in (book Part 9: players enter the category they "
            "chose); a later change of the player's category does not move it"
        ),
    )
    seed_rating = models.FloatField(_("rating at entry"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    removal = models.CharField(
        _("removed from the event as"), max_length=16, blank=True,
        choices=[("disqualified", _("disqualified")), ("removed", _("removed"))],
        help_text=_("set by a disqualification or removal; shown as a mark in the standings"),
    )
    #: What the director chose for a leaving player's unfinished matches ("forfeit" or "void",
    #: :mod:`tournaments.rounds.pairing_manager.withdrawn`), kept so that a Scheveningen stage
    #: drawn after he left settles his board the same way. Empty: never withdrawn.
    settle = models.CharField(_("unfinished match"), max_length=8, blank=True, editable=False)
    joined_round = models.PositiveSmallIntegerField(
        _("late entry from round"), null=True, blank=True,
        help_text=_("a late entry plays from this round on; empty: from round 1"),
    )
    link_version = models.PositiveIntegerField(
        _("private link version"), default=1, editable=False,
        help_text=_("reissuing the private link raises it, so the old link stops working"),
    )
    fee_amount = models.DecimalField(
        _("fee paid"), max_digits=10, decimal_places=2, null=True, blank=True,
        help_text=_("the entry fee taken at the desk (Part 9)"),
    )
    fee_paid = models.BooleanField(_("fee paid"), default=False)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    # Moved by every write, saved or bulk (EntryQuerySet): the API's ``updated_since``.
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "draw_number", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="one_entry_per_player",
                violation_error_message=_("This player is already entered in this tournament."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "draw_number"], name="unique_draw_number",
                violation_error_message=_("This draw number is already taken in this tournament."),
            ),
        ]

    def __str__(self) -> str:
        prefix = f"{self.draw_number}. " if self.draw_number else ""
        return f"{prefix}{self.player}"

    def save(self, *args, **kwargs) -> None:
        """An entry keeps the category it was entered in: taken from the player on entry when
        the caller did not give one (later changes of the player's category leave it)."""
        if self.category is None and self.player_id is not None and self._state.adding:
            self.category = self.player.category
        super().save(*args, **kwargs)

    @property
    def playing_category(self) -> int | None:
        """The category this entry plays in (an entry made before the field: the player's)."""
        return self.category if self.category is not None else self.player.category


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting approval")
    WAITLISTED = "waitlisted", _("On the waiting list")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")
    CANCELLED = "cancelled", _("Cancelled")


class Registration(models.Model):
    """A self-registration: what an applicant typed, until the organiser makes it an entry.

    Kept apart from :class:`Entry` so an applicant is never paired, drawn or
    ranked before approval.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="registrations",
    )
    last_name = PersonNameField(_("last name"), max_length=100)
    first_name = PersonNameField(_("first name"), max_length=100, blank=True)
    last_name_latin = PersonNameField(_("last name (Latin)"), max_length=100, blank=True)
    first_name_latin = PersonNameField(_("first name (Latin)"), max_length=100, blank=True)
    email = models.EmailField(_("email"))
    language = models.CharField(
        _("language"), max_length=2, blank=True,
        help_text=_("the language the applicant used; their emails put it first"),
    )
    club_name = models.CharField(_("club"), max_length=200, blank=True)
    category = models.PositiveSmallIntegerField(
        _("category"), choices=Category.choices, default=Category.BEGINNER
    )
    rating = models.FloatField(_("rating"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=RegistrationStatus.choices,
        default=RegistrationStatus.PENDING,
    )
    entry = models.OneToOneField(
        "Entry", verbose_name=_("entry"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="registration",
    )
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    signed_in_as = models.ForeignKey(
        Player, verbose_name=_("signed in as"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("the applicant was logged in as this player, under the same name: proof of who they are"),
    )
    email_notifications = models.BooleanField(
        _("emails about the application"), default=True,
        help_text=_("off: the applicant asked for no more emails (a player made from it starts with emails off)"),
    )
    # The applicant's own withdrawal before round 1 can be taken back until ``undo_until``
    # (tournaments.registration.services.WITHDRAWAL_GRACE); meanwhile the place stays theirs.
    # ``withdrawn_from`` is what they had: "pending" or "waitlisted" (the application's status),
    # or "registered" / "checked_in" (their entry's) — what taking it back restores.
    undo_until = models.DateTimeField(_("may take back until"), null=True, blank=True)
    withdrawn_from = models.CharField(_("withdrawn from"), max_length=12, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self) -> str:
        return f"{self.last_name} {self.first_name} · {self.tournament}"


class NumberDraw(models.Model):
    """The open draw of numbers (открытая номерная жеребьёвка), stored so anyone can re-run it.

    ``participants`` is the input list in its canonical order (entry id and
    name); ``numbers`` the draw number each received. Re-running
    :func:`tournaments.draw.numbers.draw_numbers` with ``seed`` on that list gives the
    same numbers.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="draws"
    )
    seed = models.CharField(_("seed"), max_length=64)
    algorithm = models.CharField(_("algorithm"), max_length=40)
    performed_at = models.DateTimeField(_("performed at"))
    performed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("performed by"), null=True, blank=True,
        on_delete=models.SET_NULL,
    )
    participants = models.JSONField(_("participants in canonical order"))
    numbers = models.JSONField(_("numbers drawn"))

    class Meta:
        ordering = ["-performed_at"]
        get_latest_by = "performed_at"
        verbose_name = _("draw of numbers")
        verbose_name_plural = _("draws of numbers")

    def __str__(self) -> str:
        return f"{self.tournament} · {self.performed_at:%Y-%m-%d %H:%M} · {self.seed}"


class Team(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name")
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="members"
    )
    entry = models.OneToOneField(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="team_membership"
    )
    board = models.PositiveSmallIntegerField(_("board"))

    class Meta:
        ordering = ["team", "board"]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [
            models.UniqueConstraint(fields=["team", "board"], name="unique_team_board")
        ]

    def __str__(self) -> str:
        return f"{self.team} #{self.board}: {self.entry.player}"


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="rounds",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT
    )
    match_length = models.PositiveSmallIntegerField(
        _("match length"), null=True, blank=True,
        help_text=_("empty: from the section's category or the tournament"),
    )
    length_override_reason = models.CharField(
        _("reason for overriding the match length"), max_length=300, blank=True
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "section", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], condition=Q(section__isnull=True),
                name="unique_round_number",
            ),
            models.UniqueConstraint(
                fields=["tournament", "section", "number"], condition=Q(section__isnull=False),
                name="unique_section_round_number",
            ),
        ]

    def __str__(self) -> str:
        where = f" · {self.section.name}" if self.section_id else ""
        return f"{self.tournament}{where} · {_('round')} {self.number}"

    @property
    def explanation(self) -> dict[str, Any]:
        """The pairing explanation (:class:`RoundExplanation`), ``{}`` before one is written.

        Read on demand, one query per round (kept on the instance afterwards): it is
        stored apart so that the rows read in bulk — a round's matches with
        ``select_related("round")``, the rounds of the standings — never carry it.
        """
        if self.pk is None:
            return {}
        try:
            return self.explanation_row.data
        except RoundExplanation.DoesNotExist:
            return {}

    def store_explanation(self, data: dict[str, Any]) -> None:
        """Write the round's explanation (one row per round, replaced whole; the old one is not read)."""
        row = RoundExplanation(round=self, data=data)
        row.pk = RoundExplanation.objects.filter(round=self).values_list("pk", flat=True).first()
        row.save(force_update=row.pk is not None, force_insert=row.pk is None)
        self.explanation_row = row

    def clean(self) -> None:
        """A round's match length off the category table needs a recorded reason."""

        if self.section_id is None or not self.match_length:
            return
        try:
            rule_for(self.section, self.number, self.match_length, self.length_override_reason)
        except RuleViolation as exc:
            raise problems_to_validation_error(exc.problems, "length_override_reason") from exc


class RoundExplanation(models.Model):
    """A round's pairing explanation, in its own table (issue 32).

    The explanation grows with the field (166 KB of JSON at 2,000 players); as a
    column of :class:`Round` it rode along with every match read with its round
    and made generating, notifying and exporting a big Swiss quadratic in time
    and memory. Here it is read only where it is shown or used
    (:attr:`Round.explanation`).
    """

    round = models.OneToOneField(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="explanation_row"
    )
    data = models.JSONField(_("pairing explanation"), default=dict, blank=True)

    class Meta:
        verbose_name = _("pairing explanation")
        verbose_name_plural = _("pairing explanations")

    def __str__(self) -> str:
        return str(self.round)

    @classmethod
    def parts(cls, round_ids, *keys: str) -> dict[int, dict[str, Any]]:
        """``{round id: {key: value}}`` for a few top-level keys of each round's explanation.

        The database extracts the keys, so reading the byes or the colour flag of every
        round never transfers the whole explanation (its pairings grow with the field).
        A round without an explanation (or without a key) reads as missing keys.
        """
        rows = cls.objects.filter(round_id__in=list(round_ids)).values_list(
            "round_id", *(f"data__{k}" for k in keys)
        )
        return {
            row[0]: {k: v for k, v in zip(keys, row[1:], strict=True) if v is not None} for row in rows
        }


class ResultStatus(models.TextChoices):
    PENDING = "pending", _("Not played yet")
    REPORTED = "reported", _("Reported, awaiting confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


def result_stands(status: str, score_a, score_b) -> bool:
    """Whether a match's result counts, in the standings and the ratings alike: confirmed, or
    confirmed and now disputed — a result stands (marked disputed) until a ruling changes it;
    a disputed *report* was never confirmed and has no score on the match, so it does not."""
    if status == ResultStatus.CONFIRMED:
        return True
    return status == ResultStatus.DISPUTED and score_a is not None and score_b is not None


#: :func:`result_stands` as a query, for reads in bulk (the ratings' pool, the standings).
RESULT_STANDS = Q(result_status=ResultStatus.CONFIRMED) | Q(
    result_status=ResultStatus.DISPUTED, score_a__isnull=False, score_b__isnull=False
)


class Match(models.Model):
    """One pairing in a round: two entries, or one entry and a bye.

    ``score_a``/``score_b``/``winner`` hold the official result once a result
    is confirmed (see ``scoring.models.Result``); ``version`` guards against
    lost updates when two people save the same match at once.
    """

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="matches"
    )
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    entry_a = models.ForeignKey(
        Entry, verbose_name=_("player A"), on_delete=models.PROTECT, related_name="matches_as_a"
    )
    entry_b = models.ForeignKey(
        Entry, verbose_name=_("player B"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="matches_as_b", help_text=_("empty means a bye"),
    )
    match_length = models.PositiveSmallIntegerField(_("match length"), null=True, blank=True)
    result_status = models.CharField(
        _("result"), max_length=10, choices=ResultStatus.choices, default=ResultStatus.PENDING
    )
    score_a = ScoreField(_("score A"), null=True, blank=True)
    score_b = ScoreField(_("score B"), null=True, blank=True)
    winner = models.CharField(
        _("winner"), max_length=1, blank=True, choices=[("a", "A"), ("b", "B")]
    )
    result_kind = models.CharField(
        _("result kind"), max_length=16, choices=ResultKind.choices, default=ResultKind.PLAYED
    )
    start_a = models.PositiveSmallIntegerField(
        _("starting score A"), default=0, help_text=_("penalty points for the opponent's lateness")
    )
    start_b = models.PositiveSmallIntegerField(_("starting score B"), default=0)
    clock_minutes_per_point = models.PositiveSmallIntegerField(
        _("clock: minutes per point of match length"), null=True, blank=True,
        help_text=_("clocks installed on this match by the director (Part 9); empty: the tournament's"),
    )
    clock_delay_seconds = models.PositiveSmallIntegerField(
        _("clock delay per move (s)"), null=True, blank=True
    )
    clock_increment_seconds = models.PositiveSmallIntegerField(
        _("clock increment per move (s)"), null=True, blank=True
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["round", "table", "id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(entry_b__isnull=True) | ~Q(entry_a=F("entry_b")),
                name="match_two_different_players",
                violation_error_message=_("A player cannot be paired against themselves."),
            ),
            models.CheckConstraint(
                condition=(Q(score_a__isnull=True) | Q(score_a__gte=0))
                & (Q(score_b__isnull=True) | Q(score_b__gte=0)),
                name="match_scores_not_negative",
            ),
            models.UniqueConstraint(
                fields=["round", "table"], name="unique_table_per_round",
                violation_error_message=_("This table is already used in this round."),
            ),
        ]
        indexes = [models.Index(fields=["round", "result_status"])]

    def __str__(self) -> str:
        b = self.entry_b.player if self.entry_b_id else _("bye")
        return f"{self.entry_a.player} – {b}"

    def save(self, *args, **kwargs) -> None:
        with transaction.atomic():
            super().save(*args, **kwargs)
            self.sync_seats()

    @property
    def result_stands(self) -> bool:
        """See :func:`result_stands`."""
        return result_stands(self.result_status, self.score_a, self.score_b)

    def side_names(self, language: str = "ru") -> dict[str, str]:
        """The players' names by side ("a", "b"), so problems about a side name the player."""
        names = {"a": self.entry_a.player.display_name(language)}
        if self.entry_b_id:
            names["b"] = self.entry_b.player.display_name(language)
        return names

    @property
    def is_bye(self) -> bool:
        return self.entry_b_id is None

    def sync_seats(self) -> None:
        """Keep the :class:`Seat` rows in step with the two entries.

        The seats carry the database's guarantee that a player sits at most
        once per round; a conflicting pairing fails with an IntegrityError.
        """
        wanted = {"a": self.entry_a_id, "b": self.entry_b_id}
        existing = {seat.side: seat for seat in self.seats.all()}
        for side, entry_id in wanted.items():
            seat = existing.get(side)
            if entry_id is None:
                if seat:
                    seat.delete()
            elif seat is None:
                Seat.objects.create(match=self, round_id=self.round_id, entry_id=entry_id, side=side)
            elif seat.entry_id != entry_id or seat.round_id != self.round_id:
                seat.entry_id, seat.round_id = entry_id, self.round_id
                seat.save(update_fields=["entry", "round"])


class Seat(models.Model):
    """A player's place in a round: unique per (round, entry), so nobody plays twice a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    side = models.CharField(max_length=1, choices=[("a", "A"), ("b", "B")])

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entry"], name="player_once_per_round",
                violation_error_message=_("This player is already paired in this round."),
            ),
            models.UniqueConstraint(fields=["match", "side"], name="one_seat_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.entry} ({self.side})"


class GameKind(models.TextChoices):
    SINGLE = "single", _("single game (oyun)")
    GAMMON = "gammon", _("gammon (mars)")
    BACKGAMMON = "backgammon", _("backgammon (koks)")
    OYUN = "oyun", _("oyun")
    MARS = "mars", _("mars")
    HOME_MARS = "home_mars", _("home mars")
    KOKS = "koks", _("koks")
    DRAW = "draw", _("draw (equal moves)")


class Game(models.Model):
    """A game of the official ledger of a match (written when a result is confirmed)."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game number"))
    winner = models.CharField(
        _("winner"), max_length=1, blank=True, choices=[("a", "A"), ("b", "B")]
    )
    kind = models.CharField(_("kind"), max_length=12, choices=GameKind.choices)
    cube = models.PositiveSmallIntegerField(_("cube value"), default=1)
    dropped = models.BooleanField(_("double dropped"), default=False)
    autodoubles = models.PositiveSmallIntegerField(_("automatic doubles"), default=0)
    record = models.TextField(_("game record"), blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_game_number"),
            models.CheckConstraint(condition=Q(cube__gte=1), name="game_cube_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.number}"


class OfficialRole(models.TextChoices):
    ORGANISER = "organiser", _("Organiser (director)")
    JURY = "jury", _("Jury")
    REFEREE = "referee", _("Referee")


class Official(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="officials"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="official_roles",
    )
    role = models.CharField(_("role"), max_length=10, choices=OfficialRole.choices)

    class Meta:
        ordering = ["tournament", "role"]
        verbose_name = _("official")
        verbose_name_plural = _("officials")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="unique_official_role"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.tournament}"


# --- the audit log -------------------------------------------------------------------------


class AuditEntry(models.Model):
    """Who changed what and when, with the state before and after. Append-only."""

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("who"), null=True, blank=True,
        on_delete=models.SET_NULL,
    )
    # SET_NULL, not CASCADE: the log outlives what it describes (deleting an empty tournament
    # keeps its history); on PostgreSQL a trigger refuses any other UPDATE, every DELETE and
    # TRUNCATE, and a detaching UPDATE unless the account or tournament is really gone by the
    # commit (migration 0013_audit_provenance); SQLite refuses every other UPDATE.
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="audit_entries",
    )
    action = models.CharField(_("action"), max_length=40)
    object_type = models.CharField(_("object type"), max_length=40)
    object_id = models.CharField(_("object id"), max_length=40)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # Who acted, as a copy of the account's name taken when the line was written: the line
    # still says who after the account is deleted (``user`` then detaches), and an imported
    # line names the archive's account without pointing at any account here.
    actor = models.CharField(_("who (name kept)"), max_length=150, blank=True)
    # Provenance of a line restored from an archive (empty for what happened here): which
    # archive, who restored it and when. Imported lines never carry a local ``user``.
    imported_from = models.CharField(_("imported from"), max_length=200, blank=True)
    imported_by = models.CharField(_("restored by"), max_length=150, blank=True)
    imported_at = models.DateTimeField(_("restored at"), null=True, blank=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        # The index keeps the name it was born with in the scoring app (moved here in issue 11).
        indexes = [
            models.Index(fields=["object_type", "object_id"], name="scoring_aud_object__355c40_idx")
        ]

    def __str__(self) -> str:
        who = self.actor or self.user
        imported = f" (imported from {self.imported_from})" if self.imported_from else ""
        return f"{self.at:%Y-%m-%d %H:%M} {who} {self.action} {self.object_type}#{self.object_id}{imported}"

    @property
    def is_imported(self) -> bool:
        return bool(self.imported_from)


# --- ratings ---------------------------------------------------------------------------------


class RatingChange(models.Model):
    """One player's rating change from one rated match: the rating history, in order.

    ``sequence`` is the match's place in the pool's played order and ``played_on`` the
    day it was played (the dating rule: ``clubs.ratings.order``), so replaying the
    changes in ``sequence`` order reproduces every rating (``clubs.ratings``).
    """

    # No single-column indexes on match and player: the unique (match, player) and the
    # (player, pool, sequence) indexes lead with them, and each index costs every recompute.
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="rating_changes",
        db_index=False,
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="rating_changes",
        db_index=False,
    )
    opponent = models.ForeignKey(
        Player, verbose_name=_("opponent"), on_delete=models.CASCADE, related_name="+"
    )
    pool = models.CharField(_("rating pool"), max_length=20, choices=RATING_POOL_CHOICES)
    sequence = models.PositiveBigIntegerField(_("order"))
    played_on = models.DateField(_("date"))
    length = models.PositiveSmallIntegerField(_("match length (points or games)"))
    score_for = models.DecimalField(_("score"), max_digits=5, decimal_places=1)
    score_against = models.DecimalField(_("opponent's score"), max_digits=5, decimal_places=1)
    result = models.DecimalField(_("result (1, ½, 0)"), max_digits=2, decimal_places=1)
    expected = models.FloatField(_("expected score"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    experience_before = models.PositiveIntegerField(_("experience before"))

    class Meta:
        ordering = ["pool", "sequence", "player"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_rating_change_per_player"),
        ]
        indexes = [
            models.Index(fields=["player", "pool", "sequence"]),
            models.Index(fields=["pool", "sequence"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.pool} #{self.sequence}: {self.rating_before:.2f} → {self.rating_after:.2f}"


# --- the API: tokens and idempotency; webhooks --------------------------------------------


class TokenScope(models.TextChoices):
    READ = "read", _("Read only")
    WRITE = "write", _("Read and write")


class ApiToken(models.Model):
    """A user's API token: acts with the user's rights, narrowed to reading for a read token.

    Only a hash of the key is stored (the key is shown once, when it is created);
    ``prefix`` lets the owner tell their tokens apart.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=12, db_index=True)
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True)
    scope = models.CharField(_("scope"), max_length=5, choices=TokenScope.choices, default=TokenScope.READ)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user} · {self.name} ({self.prefix}…)"


class IdempotencyRecord(models.Model):
    """The answer to a POST sent with an ``Idempotency-Key``: a retry gets it again, not a second action."""

    owner = models.CharField(_("owner"), max_length=64)  # "user:<id>" or "token:<id>"
    key = models.CharField(_("idempotency key"), max_length=255)
    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=500)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    status = models.PositiveSmallIntegerField(_("status"), null=True, blank=True)
    body = models.JSONField(_("response body"), null=True, blank=True)
    headers = models.JSONField(_("response headers"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="one_answer_per_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.owner} {self.method} {self.path} [{self.key}]"


class WebhookSubscription(models.Model):
    """An integrator's URL that hears of a tournament's (or a club's) events, signed with ``secret``."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="webhooks",
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="webhooks",
    )
    url = models.URLField(_("URL"), max_length=500)
    secret = models.CharField(_("signing secret"), max_length=64)
    events = models.JSONField(_("events"), default=list, blank=True, help_text=_("empty: every event"))
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, blank=True,
        on_delete=models.SET_NULL,
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # The receiver's circuit (tournaments/notifications/webhook_circuit.py): failed attempts in a
    # row, and while it is open, until when no attempt is made.
    failures_in_row = models.PositiveIntegerField(_("failed attempts in a row"), default=0)
    circuit_open_until = models.DateTimeField(_("paused after failures until"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False) | Q(club__isnull=False),
                name="webhook_has_a_tournament_or_a_club",
            )
        ]

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    DELIVERED = "delivered", _("Delivered")
    FAILED = "failed", _("Failed")


class WebhookDelivery(models.Model):
    """One event sent to one subscription: the delivery log (status, attempts, the last response)."""

    subscription = models.ForeignKey(
        WebhookSubscription, verbose_name=_("webhook"), on_delete=models.CASCADE,
        related_name="deliveries",
    )
    event = models.CharField(_("event"), max_length=40)
    event_id = models.CharField(_("event id"), max_length=40, db_index=True)
    payload = models.JSONField(_("payload"))
    status = models.CharField(
        _("status"), max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    response_status = models.PositiveSmallIntegerField(_("last response status"), null=True, blank=True)
    response_body = models.TextField(_("last response (start)"), blank=True)
    error = models.CharField(_("last error"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")

    def __str__(self) -> str:
        return f"{self.event} → {self.subscription} ({self.status})"


class StandingsAdjustment(models.Model):
    """Points a ruling adds to (negative: takes from) one entry's main score in the standings.

    The standings core reads these rows as plain :class:`~tournaments.standings.Adjustment`
    data; a penalty "from tournament points" (Part 9: the director fines a slow
    player after a warning) is one of them. Pages mark the changed value and
    print ``reason`` in the legend.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="adjustments",
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("player"), on_delete=models.CASCADE, related_name="adjustments"
    )
    points = models.DecimalField(_("points"), max_digits=5, decimal_places=1)
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("standings adjustment")
        verbose_name_plural = _("standings adjustments")

    def __str__(self) -> str:
        return f"{self.entry}: {self.points}"


class Prize(models.Model):
    """One line of the prize table: the amount for a place, overall or in one section."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="prizes"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="prizes", help_text=_("empty: the whole tournament's table"),
    )
    place = models.PositiveSmallIntegerField(_("place"))
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["tournament", "section", "place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "section", "place"], name="one_prize_per_place",
                violation_error_message=_("This place already has a prize."),
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1) & Q(amount__gte=0), name="prize_place_and_amount",
                violation_error_message=_("Places start at 1 and amounts are not negative."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.place} — {self.amount}"


class ForbiddenPair(models.Model):
    """Two entries the Swiss must never pair (a family, a coach and pupil — the director's call).

    Stored with ``entry_a_id < entry_b_id`` so a pair exists once whichever way it was
    picked; the pairing reads them through ``pairing_manager.constraints``.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="forbidden_pairs",
    )
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.UniqueConstraint(fields=["entry_a", "entry_b"], name="one_forbidden_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_a} ≠ {self.entry_b}"


class ByeRequest(models.Model):
    """A player's advance request to sit out round ``round_number`` (scored by the
    Swiss option ``half_bye_points``: 0, ½ or 1 as the organiser's rule says)."""

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="bye_requests"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["round_number", "entry"]
        verbose_name = _("requested bye")
        verbose_name_plural = _("requested byes")
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="one_bye_request"),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.round_number}"
