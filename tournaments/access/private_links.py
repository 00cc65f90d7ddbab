"""Private links: every entry's personal signed address, used without an account.

Like Tabbycat's private URLs, the link is the player's key to their own page:
see the pairing, report and confirm results, check in. The token is the entry's
id and :attr:`Entry.link_version`, signed with the site's secret key, so it
cannot be guessed or altered; the organiser reissues a link by raising the
version, which makes every older token for that entry invalid at once.

Whoever holds a valid link acts as a :class:`LinkHolder`: the entry's player,
with no official role anywhere. The permissions table treats it like the
player's own account (``tournaments.access.permissions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.db.models import F
from django.urls import reverse

from tournaments.models import Entry
from zarik import site

SALT = "zarik.entry-link"


def token_for(entry: Entry) -> str:
    """The entry's current private token (changes when the link is reissued)."""
    return signing.Signer(salt=SALT).sign(f"{entry.pk}.{entry.link_version}")


def path_for(entry: Entry) -> str:
    """The private page's path (no host): ``/p/<token>/``."""
    return reverse("private-entry", kwargs={"token": token_for(entry)})


def url_for(entry: Entry, request=None) -> str:
    """The private page's full address, for QR codes, emails and printed cards."""
    path = path_for(entry)
    return site.absolute(path, request) if request is not None else path


def _signed(token: str) -> tuple[int, int] | None:
    """The (entry id, link version) a genuine token carries; None for a forged or malformed one."""
    try:
        value = signing.Signer(salt=SALT).unsign(token)
        entry_id, version = (int(part) for part in value.split("."))
    except (signing.BadSignature, ValueError):
        return None
    return entry_id, version


def signed(token: str) -> bool:
    """Whether ``token`` carries this site's signature (no database): a link we issued, current or not.

    The guess limiter lets these through however many forged links came from the same
    address, so a hall behind one Wi-Fi address is never locked out by one player
    typing made-up links (issue 29); a forged token can never pass this check.
    """
    return _signed(token) is not None


def entry_for(token: str) -> Entry | None:
    """The entry a token opens, or None when it is forged, malformed or reissued since."""
    carried = _signed(token)
    if carried is None:
        return None
    entry_id, version = carried
    return (
        Entry.objects.select_related("tournament", "player")
        .filter(pk=entry_id, link_version=version)
        .first()
    )


def was_reissued(token: str) -> bool:
    """Is this a genuine link the organiser has since replaced (not a forged or unknown one)?

    Only our signature makes a token genuine, so saying "this link was replaced"
    tells a guesser nothing; a player who posts through an old link learns why
    nothing happened instead of meeting a bare "not found".
    """
    carried = _signed(token)
    if carried is None:
        return False
    entry_id, version = carried
    return Entry.objects.filter(pk=entry_id, link_version__gt=version).exists()


#: Salt of the entry's API key: another signature than the link's, so neither opens the other's door.
API_KEY_SALT = "zarik.entry-api-key"
#: How an entry's API key starts (an account's token starts ``zk_``).
API_KEY_PREFIX = "ze_"


def api_key_for(entry: Entry) -> str:
    """The API key a player's app gets for this entry's private link (issue 47).

    Signed like the link and carrying the same link version, so reissuing the link
    revokes the key with it and no table of keys is kept; a forged key fails the
    signature without a database query, so the guess limiter never counts a key we issued.
    """
    return API_KEY_PREFIX + signing.Signer(salt=API_KEY_SALT).sign(f"{entry.pk}.{entry.link_version}")


def _api_key_carries(key: str) -> tuple[int, int] | None:
    if not key.startswith(API_KEY_PREFIX):
        return None
    try:
        value = signing.Signer(salt=API_KEY_SALT).unsign(key[len(API_KEY_PREFIX):])
        entry_id, version = (int(part) for part in value.split("."))
    except (signing.BadSignature, ValueError):
        return None
    return entry_id, version


def api_key_signed(key: str) -> bool:
    """Whether ``key`` is an entry key this site issued (current or since reissued); no database."""
    return _api_key_carries(key) is not None


def entry_for_api_key(key: str) -> tuple[Entry | None, bool]:
    """The entry an API key acts for, and whether the key is genuine (signed by us).

    ``(None, True)``: a genuine key whose link has been reissued since (revoked);
    ``(None, False)``: a forged or malformed key.
    """
    carried = _api_key_carries(key)
    if carried is None:
        return None, False
    entry_id, version = carried
    entry = (
        Entry.objects.select_related("tournament", "player")
        .filter(pk=entry_id, link_version=version)
        .first()
    )
    return entry, True


def reissue(entry: Entry) -> Entry:
    """Give the entry a new link; the old one stops working."""
    Entry.objects.filter(pk=entry.pk).update(link_version=F("link_version") + 1)
    entry.refresh_from_db(fields=["link_version"])
    return entry


@dataclass(frozen=True, eq=False)
class LinkHolder:
    """Whoever opened an entry's private link: that entry's player, without an account.

    Quacks like a user where the permissions table and the services look
    (``is_authenticated``, ``is_superuser``, ``pk``); ``pk`` is None so nothing
    is ever written as made by a user account.
    """

    entry: Entry
    is_authenticated = True
    is_anonymous = False
    is_superuser = False
    is_staff = False
    pk = None
    id = None

    @property
    def username(self) -> str:
        return self.entry.player.full_name

    def __str__(self) -> str:
        return self.username
