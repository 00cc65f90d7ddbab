"""The frame every public page shares: cached fragments, the page around them, messages.

A page body is a *fragment* rendered from one :func:`load_event` snapshot and
cached under the tournament's cache version (:mod:`tournaments.cache`); only
the frame around it (menu, language switch, search box) is rendered per
request. Fragments are built from published and finished rounds only
(:mod:`tournaments.access.visibility`), so a cached fragment never holds a draft
round and may be served to anyone, officials included.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.safestring import mark_safe

from tournaments import cache as page_cache
from tournaments.access.visibility import public_rounds
from tournaments.models import Round, Tournament
from tournaments.rounds.flow import cached_live_state
from tournaments.standings_service import Event, load_event
from zarik.i18n import current_language

LIVE_REFRESH_TEMPLATE = "scoring/entry/_live_refresh.html"


@dataclass(frozen=True, slots=True)
class Fragment:
    """A cached page body and the status it is served with."""

    html: str
    status: int = 200
    title: str = ""


class Cached:
    """A cached fragment whose tag is known before its body is read (issue 50).

    The tag is the fragment's cache key, which holds every version the body is built from
    (the tournament's, its results' or its rounds', the language, the parameters): one cache
    round trip makes it, so a phone asking again for a page it holds gets its 304 without the
    body being read, unpickled or rendered. The body (:meth:`load`, or any of ``html``,
    ``status``, ``title``) is read on first use; when a standings page serves its previous
    version (``stale_ok``) the tag becomes that version's key, so whoever gets it asks again.
    """

    __slots__ = ("tag", "_keys", "_build", "_stale_ok", "_fragment")

    def __init__(self, keys: tuple[str, str], build: Callable[[], Fragment], stale_ok: bool) -> None:
        self.tag = keys[0]
        self._keys, self._build, self._stale_ok = keys, build, stale_ok
        self._fragment: Fragment | None = None

    def load(self) -> Fragment:
        if self._fragment is None:
            self.tag, self._fragment = page_cache.fragment_at(self._keys, self._build, stale_ok=self._stale_ok)
        return self._fragment

    @property
    def html(self) -> str:
        return self.load().html

    @property
    def status(self) -> int:
        return self.load().status

    @property
    def title(self) -> str:
        return self.load().title


def cached(
    tournament: Tournament,
    name: str,
    build: Callable[[Event], Fragment],
    params: dict[str, object] | None = None,
    *,
    rounds: Iterable[int] | None = None,
    stale_ok: bool = False,
) -> Cached:
    """The fragment ``name`` from the cache, or built from a fresh published-rounds snapshot,
    read when first used (:class:`Cached`: its tag is known first).

    ``rounds`` and ``stale_ok``: see :func:`tournaments.cache.cached_fragment`. A fragment
    keyed by some rounds' versions is built from those rounds' matches only, so it cannot
    show anything that its key does not follow.
    """
    keys = page_cache.fragment_keys(tournament.pk, name, params, rounds)
    return Cached(
        keys,
        lambda: build(page_cache.kept_event(tournament.pk, rounds, lambda: load_event(tournament, rounds=rounds))),
        stale_ok,
    )


def public_round_ids(tournament: Tournament) -> dict[int | None, list[int]]:
    """Round number → ids of its published rounds (one per section), and None → the
    current rounds (the latest of each section), as the pairings page picks them.

    Cached under the tournament's version (publishing a round bumps it), so a pairings
    page keyed by its rounds' versions costs no query to find them.
    """

    def build() -> dict[int | None, list[int]]:
        rows = public_rounds(Round.objects.filter(tournament=tournament)).values_list(
            "id", "number", "section_id"
        )
        out: dict[int | None, list[int]] = {}
        latest: dict[int | None, tuple[int, int]] = {}
        for rid, number, section in rows:
            out.setdefault(number, []).append(rid)
            if section not in latest or number > latest[section][0]:
                latest[section] = (number, rid)
        out[None] = [rid for _number, rid in latest.values()]
        return out

    return page_cache.cached_fragment(tournament.pk, "round-ids", build, rounds=(), small=True)


def player_url_prefix(slug: str) -> str:
    """ "/t/<slug>/player/": templates append "<id>/" (a {% url %} per row of a
    1,000-player table costs more than the rest of the page)."""
    sample = reverse("public-player", kwargs={"slug": slug, "entry_id": 0})
    assert sample.endswith("/0/"), sample
    return sample[: -len("0/")]


def profile_url_prefix() -> str:
    """ "/players/": templates append "<player id>/" for the profile across all tournaments."""
    sample = reverse("player-profile", kwargs={"player_id": 0})
    assert sample.endswith("/0/"), sample
    return sample[: -len("0/")]


def render_fragment(
    template: str, event: Event, status: int = 200, title: str = "", **ctx
) -> Fragment:
    base = {  # not the event: no template reads it, and a test client keeps what they get
        "tournament": event.tournament,
        "lang": current_language(),
        "player_base": player_url_prefix(event.tournament.slug),
        "profile_base": profile_url_prefix(),
    }
    return Fragment(render_to_string(template, {**base, **ctx}), status, title)


#: Rendered table rows remembered per process (≈ 1 KB each): a few big tournaments' pages.
ROW_MEMO_SIZE = 20_000


def render_row(template: str, *, language: str | None = None, **ctx: Any) -> str:
    """One table row's HTML, remembered in this process by its content and language.

    A page rebuilt after one confirmation changes a few rows of hundreds: only those are
    rendered again (rendering 400 rows with the template engine cost more than reading the
    whole event). Every value in ``ctx`` must be hashable (frozen dataclasses, tuples).
    ``language``: the page's, looked up once by a caller rendering many rows.
    """
    lang = language or current_language()
    return mark_safe(_row_html(template, lang, tuple(sorted(ctx.items()))))


@lru_cache(maxsize=ROW_MEMO_SIZE)
def _row_html(template: str, lang: str, items: tuple[tuple[str, Any], ...]) -> str:
    return render_to_string(template, dict(items))


#: Whole pages kept per process for visitors who are nobody in particular (no account, no
#: session): the same HTML for all of them, but for the form's CSRF token (see :func:`page`).
CSRF_SLOT = "zarik-csrf-slot-5c1d"
BODY_SLOT = "zarik-body-slot-9a3e"
_pages = page_cache.KeptInProcess(64)


def forget_pages(*, setting: str = "TEMPLATES", **kwargs: Any) -> None:
    """Templates changed (tests swap them through ``setting_changed``): forget the kept pages and rows."""
    if setting == "TEMPLATES":
        _pages.clear()
        _row_html.cache_clear()


setting_changed.connect(forget_pages, dispatch_uid="zarik-kept-pages")


def _for_anyone(request) -> bool:
    """A visitor the page says nothing personal to: no session (so no private link), no
    messages waiting in a cookie, and not logged in."""
    cookies = request.COOKIES
    return (
        settings.SESSION_COOKIE_NAME not in cookies
        and "messages" not in cookies  # the messages framework's cookie storage
        and not request.user.is_authenticated
    )


def page(
    request,
    tournament: Tournament,
    fragment: Fragment | Cached,
    *,
    page: str,
    template: str = "public/page.html",
    **ctx: Any,
) -> HttpResponse:
    """The fragment in the frame (menu, language switch, live refresh).

    For an anonymous visitor the frame is kept in this process, keyed by everything it shows
    but the body — the tournament's version, the address, the language, the live stamp, the
    title — with slots for the body and for the CSRF token each response fills in: under a
    hall's readers the frame cost as much as serving the cached fragment, and a fragment
    rebuilt after a confirmation would render it again (issue 17).

    Its ETag is made of what the frame shows (the address, the language, the live stamp the
    page embeds) and the body's cache key (:class:`Cached`), all known before the body is
    read: a phone asking again for a page that did not change gets a 304 for the price of
    the versions and the stamp, one or two cache round trips (issue 50), not of its page.
    """
    context = {"tournament": tournament, "page": page, **ctx}
    if not _for_anyone(request):
        body = _loaded(fragment)
        context.update(body=mark_safe(body.html), page_title=body.title)  # our own autoescaped HTML
        return render(request, template, context, status=body.status)
    stamp = cached_live_state(tournament)["stamp"] if ctx.get("live_refresh") else ""
    shown = (
        template, page, current_language(), request.get_full_path(), tournament.pk, stamp,
        tuple(sorted((k, str(v)) for k, v in ctx.items())),
    )  # fmt: skip

    def respond() -> HttpResponse:
        body = _loaded(fragment)
        context.update(body=mark_safe(body.html), page_title=body.title)
        key = (*shown, page_cache.version(tournament.pk), body.title)
        before, after = _pages.get(key, lambda: _frame_around_slot(request, template, context))
        token = get_token(request)  # filled into the frame only: the body is the larger part
        html = "".join((before.replace(CSRF_SLOT, token), body.html, after.replace(CSRF_SLOT, token)))
        return HttpResponse(html, status=body.status)

    # Without its CSRF cookie a kept copy's token is void: such a visitor gets the page anew.
    reuse = settings.CSRF_COOKIE_NAME in request.COOKIES
    return tagged(request, shown, fragment, respond, private=True, reuse=reuse)


def _loaded(fragment: Fragment | Cached) -> Fragment:
    return fragment.load() if isinstance(fragment, Cached) else fragment


def tag_of(fragment: Fragment | Cached) -> str:
    """What stands for the body in an ETag: its cache key, else (a body built per request) its hash."""
    return fragment.tag if isinstance(fragment, Cached) else etag_of(fragment.html)


def tagged(
    request,
    shown: tuple,
    fragment: Fragment | Cached,
    respond: Callable[[], HttpResponse],
    *,
    private: bool = False,
    reuse: bool = True,
) -> HttpResponse:
    """``respond()`` with the ETag of ``shown`` (what is around the body) and the body's tag, or a
    304 when the request names that tag — checked before the body is read (:class:`Cached`).

    Only a 200 is tagged. The tag is taken again after the body is read: a standings page
    serving its previous version is tagged with that version's key, never the current one.
    """
    if reuse:
        not_modified = get_conditional_response(request, etag=etag_of(*shown, tag_of(fragment)))
        if not_modified is not None:
            return _kept(not_modified, etag_of(*shown, tag_of(fragment)), private)
        if isinstance(fragment, Cached):
            fragment.load()  # a previous version served (stale_ok) may be the one the visitor holds
            etag = etag_of(*shown, tag_of(fragment))
            if fragment.status == 200 and get_conditional_response(request, etag=etag) is not None:
                return _kept(HttpResponseNotModified(), etag, private)
    response = respond()
    if response.status_code != 200:
        return response
    return _kept(response, etag_of(*shown, tag_of(fragment)), private)


def _kept(response: HttpResponse, etag: str, private: bool) -> HttpResponse:
    """The tag, and ``Cache-Control: no-cache`` (keep it, but ask each time)."""
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, **({"private": True} if private else {}))
    return response


def etag_of(*parts: object) -> str:
    """A strong ETag for what these parts make (hashing a 100 KB body is a tenth of a millisecond)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(str(part).encode())
        digest.update(b"\0")
    return f'"{digest.hexdigest()}"'


def conditional(
    request, etag: str, respond: Callable[[], HttpResponse], *, private: bool = False, reuse: bool = True
) -> HttpResponse:
    """``304 Not Modified`` when the request's ``If-None-Match`` names ``etag``, else ``respond()``;
    either way with the tag and ``Cache-Control: no-cache`` (keep it, but ask each time).

    What lets thousands of phones watch an event (issue 50): a poll whose page or stamp did
    not change is answered from the cache's versions without rendering or sending the body.
    Short polls with ETags, not server-sent events: gunicorn's sync workers would each be held
    by one open stream. ``private``: the body holds the visitor's CSRF token, so no shared
    cache may keep it. ``reuse=False``: never a 304 (the visitor's copy cannot serve).
    """
    response = (get_conditional_response(request, etag=etag) if reuse else None) or respond()
    if response.status_code in (200, 304):
        _kept(response, etag, private)
    return response


def _frame_around_slot(request, template: str, context: dict[str, Any]) -> tuple[str, str]:
    """The framed page's HTML before and after its body (the body must appear exactly once)."""
    html = render_to_string(template, {**context, "body": BODY_SLOT, "csrf_token": CSRF_SLOT}, request)
    before, slot, after = html.partition(BODY_SLOT)
    assert slot and BODY_SLOT not in after, f"{template} must show its body exactly once"
    return before, after


def message(request, tournament: Tournament, title: str, text: str, status: int) -> HttpResponse:
    return render(
        request,
        "public/message.html",
        {"tournament": tournament, "page_title": title, "message": text, "page": ""},
        status=status,
    )


def live_refresh_template() -> str | None:
    """The scoring app's auto-refresh snippet, if it provides it."""
    try:
        get_template(LIVE_REFRESH_TEMPLATE)
    except TemplateDoesNotExist:
        return None
    return LIVE_REFRESH_TEMPLATE
