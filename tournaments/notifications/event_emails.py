"""Email notifications: who hears of which event, in their own language, with a one-click opt-out.

ONE table, :data:`NOTIFICATIONS`: an event name → who receives it (a function
of the event) → the subject and the template ``templates/notifications/email/notify_<kind>.txt``.
Players are written to at ``Player.email`` in ``Player.language`` (the site's
language when unset) unless they turned ``Player.email_notifications`` off;
every player's email carries a signed opt-out link (:func:`opt_out_url`, also the
``List-Unsubscribe`` header). Organisers (officials with the organiser role and an
email on their account) hear of disputes and finished rounds.

Sending runs in a Celery task (``tasks.send_notifications``, eager without a
broker) after the change commits; a failing SMTP server is logged, never raised.
An event that writes to a whole round (a publication: 10,000 players in a big
Swiss) is split by :func:`batches` into ranges of tables, each its own task sent
over one SMTP connection, so no worker holds or sends a whole field at once.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage, get_connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from tournaments import cache as page_cache
from tournaments.access import private_links
from tournaments.account.people import person_name
from tournaments.events import Event
from tournaments.models import Entry, Match, Official, OfficialRole, Registration, Tournament
from zarik.site import absolute

from . import event_details

logger = logging.getLogger(__name__)

OPT_OUT_SALT = "zarik.email-opt-out"


@dataclass
class Recipient:
    """One email to send: the address, its language, the player (for the opt-out) and what to say."""

    address: str
    language: str
    player: Player | None = None
    context: dict[str, Any] = field(default_factory=dict)


Recipients = Callable[[Event, Tournament], Iterable[Recipient]]


@dataclass(frozen=True)
class Notification:
    kind: str  # the template is email/notify_<kind>.txt
    subject: str  # lazily translated; %(tournament)s, %(round)s
    recipients: Recipients
    to_players: bool = True  # written to the tournament's players (else to its organisers)


def language_of(player: Player | None, entry: Entry | None = None) -> str:
    """The player's language; else the one they registered for this event in; else the site's.

    A registration never changes a stored player (issue 36), so a known player who applied
    from an English browser keeps an empty ``Player.language`` and is written to in the
    language of that application.
    """
    code = player.language if player is not None else ""
    if code not in ("ru", "en") and entry is not None:
        try:
            code = entry.registration.language  # fetched with the matches (:func:`_matches`)
        except Registration.DoesNotExist:
            code = ""
    return code if code in ("ru", "en") else settings.LANGUAGE_CODE


# --------------------------------------------------------------------------- opt-out


def opt_out_token(player: Player) -> str:
    return signing.Signer(salt=OPT_OUT_SALT).sign(str(player.pk))


def player_for(token: str) -> Player | None:
    """The player an opt-out token names, or None when it is forged or malformed."""
    try:
        return Player.objects.filter(pk=int(signing.Signer(salt=OPT_OUT_SALT).unsign(token))).first()
    except (signing.BadSignature, ValueError):
        return None


def opt_out_url(player: Player) -> str:
    return absolute(reverse("email-opt-out", kwargs={"token": opt_out_token(player)}))


# --------------------------------------------------------------------------- recipients


def _player_recipient(entry: Entry | None, **context: Any) -> Recipient | None:
    """The entry's player, if they have an address and did not opt out."""
    if entry is None:
        return None
    player = entry.player
    if not player.email or not player.email_notifications:
        return None
    language = language_of(player, entry)
    # Other people in the letter (the opponent, the reporter) are named in the reader's
    # alphabet, as the greeting is: an English letter says "Dmitry Smirnov", not «Смирнов Дмитрий».
    named = {k: v.display_name(language) if isinstance(v, Player) else v for k, v in context.items()}
    context = {
        "name": player.greeting_name(language), "link": absolute(private_links.path_for(entry)), **named,
    }
    return Recipient(player.email, language, player, context)


def _seat(match: Match, entry: Entry) -> dict[str, Any]:
    """What a player needs about their match: table, opponent, length."""
    opponent = match.entry_b if match.entry_a_id == entry.pk else match.entry_a
    length = event_details.match_length(match)
    return {
        "match": match,
        "table": match.table,
        "opponent": opponent.player if opponent else "",  # named in the reader's alphabet
        "opponent_number": opponent.draw_number if opponent else None,
        "points": length.get("points"),
        "games": length.get("games"),
    }


#: Tables per email batch of a round's event (two emails a table): one task, one SMTP connection.
BATCH_TABLES = 200


def _matches(tables: Any = None, **where) -> list[Match]:
    """The matches with what an email names; ``tables`` ``[first, last]`` keeps one batch's range."""
    if tables:
        where.update(table__gte=int(tables[0]), table__lte=int(tables[1]))
    return list(
        Match.objects.filter(**where).select_related(
            "round__tournament", "round__section", "entry_a__player", "entry_b__player",
            "entry_a__registration", "entry_b__registration",
        )
    )


def _round_players(event: Event, tournament: Tournament) -> Iterable[Recipient]:
    """Round published: every player of the round, with their table, opponent and length."""
    for match in _matches(event.data.get("tables"), round_id=event.data.get("round")):
        for entry in (match.entry_a, match.entry_b):
            if entry is not None:
                r = _player_recipient(entry, round=match.round.number, **_seat(match, entry))
                if r is not None:
                    yield r


def _repaired_players(event: Event, tournament: Tournament) -> Iterable[Recipient]:
    """Round re-paired: the entries whose pairing changed, with their new table and opponent."""
    changed = set(event.data.get("entries") or ())
    for match in _matches(event.data.get("tables"), round_id=event.data.get("round")):
        for entry in (match.entry_a, match.entry_b):
            if entry is not None and entry.pk in changed:
                r = _player_recipient(entry, round=match.round.number, **_seat(match, entry))
                if r is not None:
                    yield r


def _reporter_opponent(event: Event, tournament: Tournament) -> Iterable[Recipient]:
    """Result reported by one player: their opponent is asked to confirm it."""
    side = event.data.get("side")
    if side not in ("a", "b"):
        return
    for match in _matches(pk=event.data.get("match")):
        me, reporter = (match.entry_b, match.entry_a) if side == "a" else (match.entry_a, match.entry_b)
        result = event_details.describe(event).get("result")
        score = (result if isinstance(result, dict) else {}).get("score") or [None, None]
        mine, theirs = (score[1], score[0]) if side == "a" else (score[0], score[1])
        r = _player_recipient(
            me, round=match.round.number, reporter=reporter.player if reporter else "",
            my_score=mine, their_score=theirs, **(_seat(match, me) if me else {}),
        )
        if r is not None:
            yield r


def _disputing_players(event: Event, tournament: Tournament) -> Iterable[Recipient]:
    """A ruling on a dispute: both players of the match, with the ruling's words."""
    about = event_details.describe(event).get("dispute") or {}
    for match in _matches(pk=event.data.get("match")):
        for entry in (match.entry_a, match.entry_b):
            r = _player_recipient(
                entry, round=match.round.number, final=bool(event.data.get("final")),
                ruling=about.get("jury_decision") or about.get("ruling") or "",
                score=[match.score_a, match.score_b] if match.result_status == "confirmed" else None,
                **(_seat(match, entry) if entry else {}),
            )
            if r is not None:
                yield r


def _organisers(event: Event, tournament: Tournament) -> Iterable[Recipient]:
    """The tournament's organisers with an email; their player profile (if any) decides the opt-out."""
    described = event_details.describe(event)
    officials = (
        Official.objects.filter(tournament=tournament, role=OfficialRole.ORGANISER)
        .exclude(Q(user__email="") | Q(user__email__isnull=True))
        .select_related("user")
    )
    seen: set[str] = set()
    for official in officials:
        user = official.user
        player = Player.objects.filter(user=user).first()
        if user.email in seen or (player is not None and not player.email_notifications):
            continue
        seen.add(user.email)
        language = language_of(player)
        name = player.greeting_name(language) if player is not None else ""
        context = {"name": name or person_name(user, language), **described}
        yield Recipient(user.email, language, player, context)


#: Event name → what is sent and to whom. A newcomer adds a row and a template.
NOTIFICATIONS: dict[str, tuple[Notification, ...]] = {
    "round.published": (
        Notification("round_published", _("Round %(round)s: your pairing · %(tournament)s"), _round_players),
    ),
    "round.repaired": (
        Notification("round_repaired", _("Round %(round)s: your pairing changed · %(tournament)s"), _repaired_players),
    ),
    "result.reported": (
        Notification("result_reported", _("Please confirm your result · %(tournament)s"), _reporter_opponent),
    ),
    "dispute.ruled": (
        Notification("dispute_ruled", _("A ruling on your dispute · %(tournament)s"), _disputing_players),
    ),
    "dispute.opened": (
        Notification("dispute_opened", _("A result was disputed · %(tournament)s"), _organisers, to_players=False),
    ),
    "round.awaiting": (
        Notification("round_awaiting", _("Round %(round)s is ready to close · %(tournament)s"), _organisers, to_players=False),
    ),
    "round.finished": (
        Notification("round_finished", _("Round %(round)s is finished · %(tournament)s"), _organisers, to_players=False),
    ),
}


#: The events written to a whole round's players: sent in batches of tables (:func:`batches`).
ROUND_WIDE = frozenset({"round.published", "round.repaired"})


def batches(event: Event) -> list[tuple[int, int]]:
    """The ranges of tables ``(first, last)`` the event's emails are sent in, one task each.

    Empty when the event needs no split: not a round-wide event, already one batch
    (its data carries ``tables``), or a round small enough for one batch.
    """
    if event.name not in ROUND_WIDE or event.data.get("tables"):
        return []
    tables = list(
        Match.objects.filter(round_id=event.data.get("round"), table__isnull=False)
        .order_by("table")
        .values_list("table", flat=True)
    )
    if len(tables) <= BATCH_TABLES:
        return []
    return [
        (tables[i], tables[min(i + BATCH_TABLES, len(tables)) - 1]) for i in range(0, len(tables), BATCH_TABLES)
    ]


def worth_a_task(event: Event) -> bool:
    """Whether the event may send any email: False when it writes only to players and no
    player of the tournament takes emails (one cached answer per tournament version; a
    saved player or entry changes it). Most events of a big day are reports, and most
    halls give no addresses: those cost no background task (issue 17)."""
    notes = NOTIFICATIONS.get(event.name, ())
    if any(not note.to_players for note in notes):
        return True
    if not notes:
        return False
    return page_cache.cached_fragment(
        event.tournament_id, "players-take-email", lambda: _players_take_email(event.tournament_id), rounds=()
    )


def _players_take_email(tournament_id: int) -> bool:
    return (
        Entry.objects.filter(tournament_id=tournament_id, player__email_notifications=True)
        .exclude(player__email="")
        .exists()
    )


# --------------------------------------------------------------------------- sending


def compose(note: Notification, tournament: Tournament, recipient: Recipient) -> EmailMessage:
    """The email for one recipient, wholly in their language, with the opt-out link and header."""
    context = {"tournament": tournament, **recipient.context}
    headers = {}
    if recipient.player is not None:
        context["opt_out"] = opt_out_url(recipient.player)
        headers = {
            "List-Unsubscribe": f"<{context['opt_out']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    round_number = context.get("round")
    if isinstance(round_number, dict):
        round_number = round_number.get("number")
    context["round_number"] = round_number
    slug = {"slug": tournament.slug}
    context["tournament_url"] = absolute(reverse("tournament", kwargs=slug))
    context["disputes_url"] = absolute(reverse("dispute-list", kwargs=slug))
    context["desk_url"] = absolute(reverse("desk", kwargs=slug))
    with translation.override(recipient.language):
        subject = str(note.subject) % {"tournament": tournament.name, "round": round_number or ""}
        body = render_to_string(f"notifications/email/notify_{note.kind}.txt", context).strip() + "\n"
    return EmailMessage(subject, body, None, [recipient.address], headers=headers)


def messages_for(event: Event) -> list[EmailMessage]:
    tournament = Tournament.objects.filter(pk=event.tournament_id).first()
    if tournament is None:
        return []
    out = []
    for note in NOTIFICATIONS.get(event.name, ()):
        out.extend(compose(note, tournament, r) for r in note.recipients(event, tournament))
    return out


def send_for(event: Event) -> int:
    """Send every email the event calls for over one connection; returns how many went.

    A failing message is logged and the rest still go (each is tried on its own
    when the batch as a whole fails)."""
    messages = messages_for(event)
    if not messages:
        return 0
    connection = get_connection(fail_silently=False)
    try:
        connection.open()
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("notification %s: the mail server refused the connection: %s", event.name, exc)
        return 0
    sent = 0
    try:
        for message in messages:
            message.connection = connection
            try:
                message.send()
            except (smtplib.SMTPException, OSError) as exc:
                logger.warning("notification %s to %s failed: %s", event.name, message.to, exc)
            else:
                sent += 1
    finally:
        connection.close()
    return sent
