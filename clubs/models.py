"""Clubs, players (people) and their memberships."""

import datetime as dt

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .fields import PersonNameField
from .names import greeting_name, player_key
from .ratings.pools import POOLS
from .ratings.starts import ENTRY, NEW, PLAYER


class Category(models.IntegerChoices):
    """The book's nine player categories (Part 9, table "Категории игроков").

    The cube rule and match length of each live in ``scoring.rules.match.categories``;
    this enumeration is only what the database stores.
    """

    BEGINNER = 1, _("1 · Beginner")
    NOVICE = 2, _("2 · Novice")
    PUPIL = 3, _("3 · Pupil")
    AMATEUR = 4, _("4 · Amateur")
    INTERMEDIATE = 5, _("5 · Intermediate")
    ADVANCED = 6, _("6 · Advanced")
    EXPERT = 7, _("7 · Expert")
    MASTER = 8, _("8 · Master")
    GRANDMASTER = 9, _("9 · Grandmaster")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    website = models.URLField(_("website"), blank=True)
    founded = models.DateField(_("founded"), null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays: names in Cyrillic and in Latin letters, category, rating."""

    last_name = PersonNameField(_("last name"), max_length=100)
    first_name = PersonNameField(_("first name"), max_length=100, blank=True)
    last_name_latin = PersonNameField(_("last name (Latin)"), max_length=100, blank=True)
    first_name_latin = PersonNameField(_("first name (Latin)"), max_length=100, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    category = models.PositiveSmallIntegerField(
        _("category"), choices=Category.choices, default=Category.BEGINNER
    )
    rating = models.FloatField(_("rating"), default=1500.0, help_text=_("FIBS-style rating"))
    experience = models.PositiveIntegerField(
        _("experience"), default=0, help_text=_("match points played, for the FIBS formula")
    )
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"), null=True, blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
        help_text=_("tells namesakes apart (clubs.identity); never shown publicly"),
    )
    email = models.EmailField(_("email"), blank=True)
    email_notifications = models.BooleanField(
        _("email notifications"), default=True,
        help_text=_("pairings, results to confirm, rulings; the player can opt out from any email"),
    )
    language = models.CharField(
        _("language"), max_length=5, blank=True, choices=settings.LANGUAGES,
        help_text=_("for emails; empty: the site's language"),
    )
    search_key = models.CharField(
        _("search key"), max_length=250, blank=True, editable=False, db_index=True,
        help_text=_("the name in every alphabet, folded for search (clubs.names)"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["last_name_latin"])]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs) -> None:
        """Keep the search key in step with the names (see :mod:`clubs.names`)."""
        self.search_key = self.name_key()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "search_key" not in update_fields:
            kwargs["update_fields"] = [*update_fields, "search_key"]
        super().save(*args, **kwargs)

    def name_key(self) -> str:
        return player_key(self.last_name, self.first_name, self.last_name_latin, self.first_name_latin)

    @property
    def full_name(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()

    @property
    def latin_name(self) -> str:
        return f"{self.first_name_latin} {self.last_name_latin}".strip()

    def display_name(self, language: str = "ru") -> str:
        """The name in the reader's alphabet: Latin for English readers when we have it."""
        if language.startswith("en") and self.last_name_latin:
            return self.latin_name
        return self.full_name

    def greeting_name(self, language: str = "ru") -> str:
        """The name an email greets the player by (English: given name first, see :mod:`clubs.names`)."""
        return greeting_name(self.last_name, self.first_name, self.last_name_latin, self.first_name_latin, language)


RATING_POOL_CHOICES = [(pool.key, pool.name_en) for pool in POOLS.values()]
#: The sources of a first rating in a pool, as :mod:`clubs.ratings.starts` names them.
START_SOURCE_CHOICES = [
    (ENTRY, _("rating at entry")),
    (PLAYER, _("imported or declared rating")),
    (NEW, _("new player, 1500")),
]


class PlayerRating(models.Model):
    """A player's current FIBS rating and experience in one pool (see ``clubs.ratings``).

    Always what replaying the confirmed results in order gives; written only by
    ``tournaments.ratings.service``, never by hand.
    """

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.CharField(_("rating pool"), max_length=20, choices=RATING_POOL_CHOICES)
    rating = models.FloatField(_("rating"), default=1500.0)
    experience = models.PositiveIntegerField(
        _("experience"), default=0, help_text=_("match points played in rated matches of the pool")
    )
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_played = models.DateField(_("last rated match"), null=True, blank=True)
    start_rating = models.FloatField(
        _("start rating"), default=1500.0, help_text=_("the rating the player started the pool with")
    )
    start_source = models.CharField(
        _("start source"), max_length=8, choices=START_SOURCE_CHOICES, default=NEW,
        help_text=_("where the start came from (clubs.ratings.starts)"),
    )

    class Meta:
        ordering = ["pool", "-rating"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "pool"], name="one_rating_per_pool")
        ]
        indexes = [models.Index(fields=["pool", "-rating"])]

    def __str__(self) -> str:
        return f"{self.player} · {self.pool} · {self.rating:.2f}"


class CategoryChange(models.Model):
    """A player's category moved (book Part 9: categories are earned), with when and why."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="category_changes",
    )
    category_from = models.PositiveSmallIntegerField(
        _("from category"), choices=Category.choices, null=True, blank=True
    )
    category_to = models.PositiveSmallIntegerField(_("to category"), choices=Category.choices)
    on = models.DateField(_("date"))
    reason = models.CharField(_("reason"), max_length=300)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL,
    )

    class Meta:
        ordering = ["player", "-on", "-id"]
        verbose_name = _("category change")
        verbose_name_plural = _("category changes")

    def __str__(self) -> str:
        return f"{self.player}: {self.category_from} → {self.category_to} ({self.on})"


class Season(models.Model):
    """A club's series of tournaments with its own standings (points by place, best N of M)."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    points_by_place = models.JSONField(
        _("points by place"), default=list, blank=True,
        help_text=_("season points for 1st, 2nd, 3rd … place in each event"),
    )
    best_of = models.PositiveSmallIntegerField(
        _("best N events count"), null=True, blank=True,
        help_text=_("empty: every event counts"),
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    public = models.BooleanField(_("public"), default=True)

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"


class ClubRoleKind(models.TextChoices):
    ORGANISER = "organiser", _("Organiser")


class ClubRole(models.Model):
    """A user's standing role in a club: a club organiser creates the club's tournaments.

    What each role may do is decided by ``tournaments.access.permissions.PERMISSIONS``,
    never here.
    """

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="club_roles",
    )
    role = models.CharField(
        _("role"), max_length=12, choices=ClubRoleKind.choices, default=ClubRoleKind.ORGANISER
    )

    class Meta:
        ordering = ["club", "role"]
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="unique_club_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.club}"


class Membership(models.Model):
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    started_on = models.DateField(_("member since"))
    ended_on = models.DateField(_("member until"), null=True, blank=True)

    class Meta:
        ordering = ["club", "player"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_on__isnull=True) | Q(ended_on__gte=F("started_on")),
                name="membership_ends_after_start",
                violation_error_message=_("A membership cannot end before it starts."),
            ),
            models.UniqueConstraint(
                fields=["player", "club"],
                condition=Q(ended_on__isnull=True),
                name="one_open_membership_per_club",
                violation_error_message=_("This player is already a current member of this club."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"

    @staticmethod
    def current_q(prefix: str = "", on: dt.date | None = None) -> Q:
        """THE rule for a current membership: no end date, or an end date not passed yet.

        "Member until 30.06.2027" is a member on every day up to and including that date;
        ending a membership on a future date does not end it now (issue 37). ``prefix``
        reaches memberships through a relation (``"memberships__"``).
        """
        day = on or timezone.localdate()
        return Q(**{f"{prefix}ended_on__isnull": True}) | Q(**{f"{prefix}ended_on__gte": day})

    def is_current(self, on: dt.date | None = None) -> bool:
        """:meth:`current_q` for one row already read."""
        return self.ended_on is None or self.ended_on >= (on or timezone.localdate())


class ChouetteCubeMode(models.TextChoices):
    """ch10–11: each team member has their own cube, or one cube serves the whole team."""

    OWN = "own", _("own cube for each member")
    COMMON = "common", _("one common cube")


class ChouetteSession(models.Model):
    """A club night's chouette («Швец», book ch10–11): its players in the order of the draw.

    The games are stored as entered; the seats, amounts and totals are always derived by the
    core (:mod:`scoring.rules.chouette`), so there is one ledger rule and nothing to keep in step.
    """

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="chouette_sessions"
    )
    name = models.CharField(_("name"), max_length=200)
    played_on = models.DateField(_("date"))
    players = models.JSONField(
        _("players"), default=list,
        help_text=_("in the order of the draw: the box, the captain, then the queue"),
    )
    cube_mode = models.CharField(
        _("cube"), max_length=8, choices=ChouetteCubeMode.choices, default=ChouetteCubeMode.OWN
    )
    stake = models.DecimalField(
        _("stake per point"), max_digits=9, decimal_places=2, default=1,
        help_text=_("what one point is worth when the night is settled"),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["club", "-played_on", "-pk"]
        verbose_name = _("chouette session")
        verbose_name_plural = _("chouette sessions")

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"


class ChouetteGame(models.Model):
    """One game of a chouette session as the table saw it (see :class:`scoring.rules.chouette.Game`)."""

    session = models.ForeignKey(
        ChouetteSession, verbose_name=_("session"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveIntegerField(_("game"))
    box = models.CharField(_("box"), max_length=200)
    captain = models.CharField(_("captain"), max_length=200)
    winner = models.CharField(
        _("winner"), max_length=4, choices=[("box", _("the box")), ("team", _("the team"))]
    )
    kind = models.CharField(_("result"), max_length=12, default="single")
    #: ``[{"player": name, "cube": 2, "passed": false}, …]`` for every team member.
    members = models.JSONField(_("team members"), default=list)

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("chouette game")
        verbose_name_plural = _("chouette games")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_chouette_game_number")
        ]

    def __str__(self) -> str:
        return f"{self.session} · {self.number}"
