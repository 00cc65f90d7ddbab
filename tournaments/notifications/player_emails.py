"""Emails to players: registration received / approved / waitlisted / refused, and their private link.

ONE table, :data:`EMAILS`: a kind, its subject and its body template
(``templates/notifications/email/<kind>.txt``). Every email is bilingual: the body in the
language the applicant used first (Russian when unknown), then in the other,
so a player always reads it whatever the organiser's language. The private
link goes in full, from ``SITE_URL`` (:mod:`zarik.site`) like every link in an email. Sending never
breaks the action that caused it: a failure is logged and reported back.
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass

from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from tournaments.access import private_links
from tournaments.models import Entry, Tournament
from zarik.site import absolute

logger = logging.getLogger(__name__)

LANGUAGES = ("ru", "en")
SEPARATOR = "\n\n— — — — — — — — — —\n\n"


@dataclass(frozen=True)
class Email:
    subject: str  # lazily translated, with %(tournament)s
    template: str


EMAILS: dict[str, Email] = {
    "received": Email(_("Application received: %(tournament)s"), "notifications/email/received.txt"),
    "approved": Email(_("You are entered: %(tournament)s"), "notifications/email/approved.txt"),
    "waitlisted": Email(_("On the waiting list: %(tournament)s"), "notifications/email/waitlisted.txt"),
    "offered": Email(_("A place is free for you: %(tournament)s"), "notifications/email/offered.txt"),
    "refused": Email(_("Application refused: %(tournament)s"), "notifications/email/refused.txt"),
    "cancelled": Email(_("Application withdrawn: %(tournament)s"), "notifications/email/cancelled.txt"),
    "link": Email(_("Your private link: %(tournament)s"), "notifications/email/link.txt"),
}


def private_url(entry: Entry) -> str:
    """The entry's private page in full (:func:`zarik.site.absolute`, the one source of links)."""
    return absolute(private_links.path_for(entry))


def _order(language: str) -> tuple[str, ...]:
    first = language if language in LANGUAGES else "ru"
    return (first,) + tuple(code for code in LANGUAGES if code != first)


def compose(kind: str, tournament: Tournament, context: dict, language: str = "") -> tuple[str, str]:
    """The subject and the bilingual body of an email of ``kind``.

    ``context["names"]`` (language → name) greets the reader in each part in that
    language's order (English: the given name first); else ``context["name"]``.
    """
    email = EMAILS[kind]
    subjects, bodies = [], []
    for code in _order(language):
        with translation.override(code):
            subjects.append(str(email.subject) % {"tournament": tournament.name})
            greeting = {"name": context["names"][code]} if "names" in context else {}
            bodies.append(
                render_to_string(email.template, {"tournament": tournament, **context, **greeting}).strip()
            )
    return " / ".join(subjects), SEPARATOR.join(bodies) + "\n"


def send(
    kind: str, to: str, tournament: Tournament, context: dict, language: str = "", unsubscribe: str = ""
) -> str:
    """Send one email; returns "" when sent, else the error (logged, never raised).

    ``unsubscribe``: the reader's opt-out address, sent as the one-click
    ``List-Unsubscribe`` header (RFC 8058) a mail client shows as "Unsubscribe".
    """
    subject, body = compose(kind, tournament, context, language)
    # The languages of the body in their order (RFC 3282 allows a list): a mail client or a
    # screen reader then knows the text is Russian and English, not guessed from the first words.
    headers = {"Content-Language": ", ".join(_order(language))}
    if unsubscribe:
        headers |= {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    try:
        EmailMessage(subject, body, None, [to], headers=headers).send()
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("email %s to %s failed: %s", kind, to, exc)
        return str(failure_reason(exc))
    return ""


def failure_reason(exc: BaseException) -> str:
    """What a reader is told of a failed email: the kind of failure, never the server's own
    words (they name hosts, paths and software: issue 45 found a server path on the public
    thank-you page). The full error is in the log."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return _("the mail server refused the address")
    if isinstance(exc, smtplib.SMTPException):
        return _("the mail server refused the message")
    return _("the mail server could not be reached")
