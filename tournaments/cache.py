"""Public pages cached until their tournament changes — invalidated by events, not by a timer.

Each tournament has a version number in the cache. Every cached fragment's key
contains that number, so bumping it (see :mod:`tournaments.signals`: any saved
or deleted round, entry, section or the tournament itself) makes all of the
tournament's fragments unreachable at once; the stale ones simply age out. No
fragment ever has to be found and deleted, which also works across several web
processes sharing Redis.

Results are finer (issue 17: at ~20 confirmations a second, throwing away every
page on each one meant rebuilding pairings and standings for every visitor). A
saved match, game or result bumps two other numbers instead: the tournament's
*results* version, which every fragment's key also contains by default, and the
version of the match's *round*. A fragment that depends on some rounds' matches
only (the pairings of a round) passes ``rounds=`` and is keyed by their versions
instead of the results version, so a confirmation in round 3 leaves round 2's
pairings cached.

One rebuild per change (:func:`cached_fragment`): the first reader to miss takes
a short lock in the cache and builds; the others wait for its result instead of
all rebuilding the same page at once. A fragment built with ``stale_ok=True``
(the standings) is meanwhile served in its previous version — only when nothing
but results changed since (same tournament version), and only while a rebuild
is under way or that version is younger than ``settings.STANDINGS_STALE_SECONDS``
(1 s): at twenty confirmations a second the standings are rebuilt about once a
second, not twenty times, and never show a result more than that late.

A version is bumped twice: immediately (so the same request or test sees the
change) and again when the transaction commits, so a page rebuilt by another
process between the change and the commit cannot stay cached with old data.

Code that changes rows with ``QuerySet.update()`` or ``bulk_update`` (no
signals) must call :func:`invalidate` itself.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from zarik.i18n import current_language
from zarik.release import release

from .models import Entry, Match, Tournament

T = TypeVar("T")

#: Only for memory hygiene: fragments are never served stale, since the key changes.
FRAGMENT_TIMEOUT = 24 * 60 * 60


#: A builder's lock lasts at most this long (a builder that died frees it then).
BUILD_LOCK_SECONDS = 10
#: Readers wait at most this long for another process's rebuild, then build themselves.
BUILD_WAIT_SECONDS = 2.0
#: How often a waiting reader looks for the rebuilt fragment.
BUILD_POLL_SECONDS = 0.01


def _version_key(tournament_id: int) -> str:
    return f"zarik:tournament:{tournament_id}:version"


def _results_key(tournament_id: int) -> str:
    return f"zarik:tournament:{tournament_id}:results"


def _round_key(round_id: int) -> str:
    return f"zarik:round:{round_id}:version"


def _round_rows_key(round_id: int) -> str:
    """Moves on with any change to the round's match rows, shown on its pairings or not."""
    return f"zarik:round:{round_id}:rows"


#: The version numbers a watcher's request has read, while it runs (:func:`read_once`).
_read = threading.local()


def read_once(view: Callable[..., T]) -> Callable[..., T]:
    """Decorator: the view reads each version number from the cache once (issue 50).

    A public page's 304 is made of versions: the tournament's (to find it by its address),
    its rounds' or its results' (its body's key), the results' again (the live stamp it
    embeds) — each asked of the cache in its own round trip, and under thousands of polling
    phones those round trips were most of a 304. A number read once serves the rest of the
    request; any version this process bumps meanwhile forgets them all (:func:`_bump_all`),
    so a request never misses its own change. Another process's change made while the
    request runs is seen by the next request, as if it had come a moment later.
    """

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        outer = getattr(_read, "numbers", None)
        _read.numbers = {} if outer is None else outer
        try:
            return view(*args, **kwargs)
        finally:
            _read.numbers = outer

    return wrapper


def _versions(keys: Sequence[str]) -> list[int]:
    """The current numbers of these version keys, one cache round trip (created on first use);
    none for the numbers this request has already read (:func:`read_once`).

    A fresh version starts from the clock in nanoseconds, so a version key that
    was evicted can never come back with a number some old fragment still uses.
    """
    memo = getattr(_read, "numbers", None)
    if memo is None:
        return _read_versions(keys)
    missing = [key for key in keys if key not in memo]
    if missing:
        memo.update(zip(missing, _read_versions(missing), strict=True))
    return [memo[key] for key in keys]


def _read_versions(keys: Sequence[str]) -> list[int]:
    found = cache.get_many(list(keys))
    out = []
    for key in keys:
        value = found.get(key)
        if value is None:
            cache.add(key, time.time_ns(), None)
            value = cache.get(key) or time.time_ns()
        out.append(int(value))
    return out


def version(tournament_id: int) -> int:
    """The tournament's current cache version (created on first use)."""
    return _versions([_version_key(tournament_id)])[0]


def round_row_versions(round_ids: Sequence[int]) -> dict[int, int]:
    """Each round's match rows' version (what they are kept by in a process), one cache round
    trip: unlike the round's pages' version it also moves on with a report."""
    ids = list(round_ids)
    return dict(zip(ids, _versions([_round_rows_key(r) for r in ids]), strict=True))


def _forget_read() -> None:
    """A version moved on in this process: the numbers this request read are old."""
    memo = getattr(_read, "numbers", None)
    if memo:
        memo.clear()


def _bump(key: str) -> None:
    _forget_read()
    try:
        cache.incr(key)
    except ValueError:  # never read yet (or evicted): any new number is unused
        cache.set(key, time.time_ns(), None)


def _bump_all(keys: Sequence[str]) -> None:
    """Bump several version keys: in one round trip where the cache can (Redis, see
    :class:`zarik.cache.VersionsRedisCache`), else one by one (the local memory cache)."""
    _forget_read()
    bump_versions = getattr(cache, "bump_versions", None)
    if bump_versions is not None:
        bump_versions(list(keys), time.time_ns())
        return
    for key in keys:
        _bump(key)


def bump(tournament_id: int) -> None:
    _bump(_version_key(tournament_id))


#: Keys to bump again when this thread's transaction commits (several saves, one bump each).
_after_commit = threading.local()


def _now_and_on_commit(keys: Sequence[str]) -> None:
    _bump_all(keys)
    pending = getattr(_after_commit, "keys", None)
    if pending is None:
        pending = _after_commit.keys = set()
    pending.update(keys)
    transaction.on_commit(_bump_pending)


def _bump_pending() -> None:
    """The first commit hook of a transaction bumps every key its saves touched; the others
    find nothing left. (Keys of a rolled-back transaction wait for the next commit: one
    harmless extra bump.)"""
    pending = getattr(_after_commit, "keys", None)
    if pending:
        keys = list(pending)
        pending.clear()
        _bump_all(keys)


def counter(key: str) -> int:
    """The current number of a named version (created on first use): what a cache of something
    other than a tournament's pages is keyed by (e.g. :mod:`tournaments.api.http.tokens`)."""
    return _versions([key])[0]


def counter_with(key: str, other: str) -> tuple[int, object | None]:
    """A named version (as :func:`counter`) and the value cached under ``other``, in one
    cache round trip: a value stored with the version it was read at is checked against
    the current one without a second call."""
    found = cache.get_many([key, other])
    number = found.get(key)
    if number is None:
        number = _versions([key])[0]
    return int(number), found.get(other)


def bump_counter(key: str) -> None:
    """Move a named version on, now and once the transaction commits (as pages' versions)."""
    _now_and_on_commit([key])


def invalidate(tournament_id: int | None) -> None:
    """Drop every cached page of the tournament now, and again once the transaction commits."""
    if tournament_id is None:
        return
    _now_and_on_commit([_version_key(tournament_id)])


def invalidate_results(tournament_id: int | None, round_id: int | None, *, shown: bool = True) -> None:
    """A match of ``round_id`` changed (its score, players, games or results): drop every
    fragment that depends on results and the round's kept match rows, and, if the change
    is ``shown`` on the round's pairings, the fragments of that round, now and on commit.
    ``round_id`` None: something hanging on a match (a game, a report) changed, not the match."""
    if tournament_id is None:
        return
    keys = [_results_key(tournament_id)]
    if round_id is not None:
        keys.append(_round_rows_key(round_id))
        if shown:
            keys.append(_round_key(round_id))
    _now_and_on_commit(keys)


def _scope(tournament_id: int, rounds: Iterable[int] | None) -> tuple[str, str]:
    """(the tournament version part, the results part) of a fragment's key."""
    keys = [_version_key(tournament_id)]
    if rounds is None:
        keys.append(_results_key(tournament_id))
    else:
        keys.extend(_round_key(r) for r in sorted(set(rounds)))
    numbers = _versions(keys)
    return f"v{numbers[0]}", "-".join(map(str, numbers[1:]))


def fragment_key(
    tournament_id: int,
    name: str,
    params: Mapping[str, object] | None = None,
    rounds: Iterable[int] | None = None,
) -> str:
    """The cache key of one fragment in the current language and version.

    ``rounds``: the fragment shows the matches of these rounds only (keyed by their
    versions); by default it depends on every result of the tournament.
    """
    return _key(tournament_id, name, params, rounds)[0]


def _key(
    tournament_id: int,
    name: str,
    params: Mapping[str, object] | None,
    rounds: Iterable[int] | None,
) -> tuple[str, str]:
    """(the fragment's key, the key of its latest version under the same tournament version)."""
    digest = ""
    if params:
        canonical = repr(sorted((str(k), str(v)) for k, v in params.items()))
        digest = hashlib.sha1(canonical.encode()).hexdigest()[:16]
    lang = current_language()
    tournament, results = _scope(tournament_id, rounds)
    # The release: an upgrade's templates and views never serve (or tag) a page the old one rendered.
    base = f"zarik:tournament:{tournament_id}:{release()}:{tournament}:{lang}:{name}:{digest}"
    return f"{base}:r{results}", f"{base}:latest"


def cached_fragment(
    tournament_id: int,
    name: str,
    build: Callable[[], T],
    params: Mapping[str, object] | None = None,
    *,
    rounds: Iterable[int] | None = None,
    stale_ok: bool = False,
    small: bool = False,
) -> T:
    """The fragment from the cache, or ``build()`` it and keep it until the next change.

    ``build`` may return any picklable value (a page keeps its HTML together
    with its HTTP status, so a "no such round" page is cached like any other).
    Only one process builds a missing fragment at a time; the others wait for it
    (at most :data:`BUILD_WAIT_SECONDS`), or with ``stale_ok`` get the previous
    version built under the same tournament version (only results changed since).
    """
    return fragment_at(fragment_keys(tournament_id, name, params, rounds), build, stale_ok=stale_ok, small=small)[1]


def fragment_keys(
    tournament_id: int,
    name: str,
    params: Mapping[str, object] | None = None,
    rounds: Iterable[int] | None = None,
) -> tuple[str, str]:
    """(the fragment's key now, the key of its latest version under the same tournament
    version), one cache round trip for the versions and nothing read: what a page's ETag is
    made of, known before the page is (issue 50: a 304 costs the versions, not the page)."""
    return _key(tournament_id, name, params, rounds)


def fragment_at(
    keys: tuple[str, str], build: Callable[[], T], *, stale_ok: bool = False, small: bool = False
) -> tuple[str, T]:
    """(the key the value served was built under, the value) of the fragment at ``keys``
    (:func:`fragment_keys`), read or built as :func:`cached_fragment` says.

    The key differs from ``keys[0]`` only when ``stale_ok`` serves the previous version: a
    page's ETag is made of the key it was built under, so a visitor holding a previous
    version is never told it holds the current one.

    ``small``: a value read by every poll (the live stamp, the ids of the public rounds) is
    also kept in this process under its key, which names every version it is built from, so
    a kept value is never stale: no cache round trip until a version moves on.
    """
    key, latest = keys
    if small:
        kept = _small.peek(key)
        if kept is not None:
            return key, kept
    if not stale_ok:
        value = cache.get(key)
        if value is not None:
            if small:
                _small.put(key, value)
            return key, value
    else:
        found = cache.get_many([key, latest])
        if key in found:
            if small:
                _small.put(key, found[key])
            return key, found[key]
        previous = found.get(latest)  # (built at, value, key) of the newest version built
        if previous is not None and time.time() - previous[0] < settings.STANDINGS_STALE_SECONDS:
            return _built_under(previous), previous[1]
    lock = f"{key}:building"
    owner = cache.add(lock, 1, BUILD_LOCK_SECONDS)
    if not owner:
        kept = _while_built(key, lock, latest if stale_ok else None)
        if kept is not None:
            return kept
    try:
        built_at = time.time()
        value = build()
        kept_too = {latest: (built_at, value, key)} if stale_ok else {}
        cache.set_many({key: value, **kept_too}, FRAGMENT_TIMEOUT)
        if small:
            _small.put(key, value)
    finally:
        if owner:  # never another builder's lock
            cache.delete(lock)
    return key, value


def _built_under(previous: tuple) -> str:
    """The key a latest version was built under (a (built at, value) pair kept before keys
    were: a key no page's tag names, so whoever holds it gets the page again)."""
    return previous[2] if len(previous) > 2 else f"unknown:{previous[0]}"


def _while_built(key: str, lock: str, latest: str | None) -> tuple[str, object] | None:
    """Another process is building ``key``: the previous version (``latest``), else the new
    one once it is built, with the key each was built under; None when the builder is gone
    (or the cache is down): build it."""
    if latest is not None:
        previous = cache.get(latest)
        if previous is not None:
            return _built_under(previous), previous[1]
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    while time.monotonic() < deadline:
        found = cache.get_many([key, lock])
        if key in found:
            return key, found[key]
        if lock not in found:
            return None
        time.sleep(BUILD_POLL_SECONDS)
    return None


class KeptInProcess:
    """A bounded dict one process keeps, for values keyed by a version that every change
    moves on (so a kept value is never stale): emptied whole when full, which is rare and
    cheap next to the work it saves; safe to use from several threads."""

    #: Every instance, so that tests can start each one as a new process would (:meth:`clear_all`).
    _all: list[KeptInProcess] = []

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: dict = {}
        self._lock = threading.Lock()
        KeptInProcess._all.append(self)

    def get(self, key, build: Callable[[], T]) -> T:
        """The value kept under ``key``, or ``build()`` it and keep it."""
        value = self._items.get(key)
        if value is None:
            value = build()
            self.put(key, value)
        return value

    def peek(self, key):
        return self._items.get(key)

    def put(self, key, value) -> None:
        with self._lock:
            if len(self._items) >= self.size:
                self._items.clear()
            self._items[key] = value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    @classmethod
    def clear_all(cls) -> None:
        """Empty every instance: a test's database may reuse the ids of an earlier test's rows
        (a flush resets the sequences), which no production database does."""
        for kept in cls._all:
            kept.clear()


#: Small values kept per process under their exact cache key (:func:`fragment_at`'s ``small``).
_small = KeptInProcess(4096)

#: Tournament rows kept per process, by (id, cache version): a few events' worth.
_tournaments = KeptInProcess(64)


def _tournament_at(tournament_id: int, number: int) -> Tournament:
    """The tournament at this cache version, read from the database once per version in each
    process: joining its 52 columns into each match query cost a millisecond of query
    compilation and planning per request (issue 17). Any saved change to a tournament bumps
    its version (the signals of :mod:`tournaments.signals`, twice: now and on commit)."""
    blob = _tournaments.get(
        (tournament_id, number), lambda: pickle.dumps(Tournament.objects.get(pk=tournament_id))
    )
    return pickle.loads(blob)


#: Slug → tournament id, kept per process: the row kept by version says whether it still holds.
_ids_by_slug = KeptInProcess(1024)


def tournament_by_slug(slug: str) -> Tournament | None:
    """The tournament with this address as of its cache version, or None: what every page of
    a tournament starts with, without a query once this process has seen it (issue 17).

    A renamed slug or a deleted tournament moves the version on, so a kept row whose slug no
    longer matches (or none at all) sends the lookup back to the database.
    """
    kept_id = _ids_by_slug.peek(slug)
    kept = None if kept_id is None else _current_tournament(kept_id)
    if kept is not None and kept.slug == slug:
        return kept
    tournament_id = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if tournament_id is None:
        return None
    _ids_by_slug.put(slug, tournament_id)
    return _current_tournament(tournament_id)


def _current_tournament(tournament_id: int) -> Tournament | None:
    """The tournament at its current version, or None if it was deleted meanwhile."""
    # The results' version comes in the same round trip: a watcher's page reads it next.
    number = _versions([_version_key(tournament_id), _results_key(tournament_id)])[0]
    try:
        return _tournament_at(tournament_id, number)
    except Tournament.DoesNotExist:
        return None


#: Events read for public pages, kept per process by the versions their pages are keyed by:
#: the last two (a 10,000-player event is tens of megabytes).
_events = KeptInProcess(2)


def kept_event(tournament_id: int, rounds: Iterable[int] | None, build: Callable[[], T]) -> T:
    """The event snapshot ``build()`` makes, shared by every fragment of the same versions.

    A big event's pages are many fragments (each page of the standings, each search):
    each built the whole event again, seconds at 10,000 players (issue 32). Kept under the
    same versions as the fragments, a kept snapshot is never older than the page it makes.
    """
    shown = None if rounds is None else tuple(sorted(rounds))
    return _events.get((tournament_id, _scope(tournament_id, shown), shown), build)


#: A tournament's entries with their players, pickled one by one, kept per process by (id,
#: cache version) as they are asked for: a few events' worth.
_entries = KeptInProcess(16)


def _entries_at(tournament_id: int, number: int, wanted: Iterable[int]) -> dict[int, bytes]:
    """The kept entries of this version, with ``wanted`` read (one query) if not kept yet.

    Only the entries asked for are read: reading the whole field on the first report
    after each change cost 1.5 s at 10,000 players (issue 32); the kept ones still spare
    every later report of the version its query."""
    kept: dict[int, bytes] = _entries.get((tournament_id, number), dict)
    missing = [pk for pk in wanted if pk is not None and pk not in kept]
    if missing:
        for entry in Entry.objects.filter(pk__in=missing, tournament_id=tournament_id).select_related("player"):
            kept[entry.pk] = pickle.dumps(entry)
    return kept


def complete_at_version(match: Match) -> Match:
    """Give a match read with its round alone its tournament and its two entries with their
    players, as of the tournament's cache version (one cache round trip; the rows are read
    from the database once per version in each process).

    Every report, confirmation and match read needs them; joining the entries, the players
    and the tournament into each match query cost more Python in compiling the SQL than the
    rest of the request (issue 17). An entry or player saved or deleted bumps the
    tournament's version (:mod:`tournaments.signals`), so what is kept under a version is
    that version's; an entry the kept rows lack (added since) is read on its own. Each call
    unpickles its own instances, so no two requests share one.
    """
    tournament_id = match.round.tournament_id
    number = version(tournament_id)
    match.round.tournament = _tournament_at(tournament_id, number)
    kept = _entries_at(tournament_id, number, (match.entry_a_id, match.entry_b_id))
    for side in ("a", "b"):
        entry_id = getattr(match, f"entry_{side}_id")
        if entry_id is None:
            continue
        blob = kept.get(entry_id)
        entry = pickle.loads(blob) if blob else Entry.objects.select_related("player").get(pk=entry_id)
        setattr(match, f"entry_{side}", entry)
    return match
