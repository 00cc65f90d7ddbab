"""Find the stored players an incoming person may be, and apply the decision rule.

The callers (registration, the entries import, the member import, the API and the
desk's new-player form) build a :class:`~clubs.identity.matching.Person` from what
they were given and call :func:`identify` with the choice a person made, if any:

* ``choice=None`` — the rule decides when it can (:func:`clubs.identity.matching.decide`):
  one certain candidate is the person; nobody found means a new player; otherwise
  :class:`IdentityUndecided` carries the candidates to show side by side;
* ``choice=NEW`` — a person said "none of these: a new player";
* ``choice=<player id>`` — a person picked that candidate.

``self_declared=True`` is for what a visitor typed about themselves on a public form
(self-registration): a name and a club anyone can type never settle who they are on
their own, so only a certain candidate with the same email is taken without a person's
choice; any other candidate waits for the organiser (issue 36: a stranger registering
under a stored player's name and club was attached to that player and their account).

Candidates are narrowed in the database by the words of the name (the folded
search key, :mod:`clubs.names`) and by the email, then compared in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from clubs.models import Membership, Player, PlayerRating
from clubs.names import words
from clubs.ratings.pools import POOLS
from scoring.rules.errors import Problem
from zarik.i18n import current_language

from .matching import Comparison, Fact, Person, decide
from .problems import IDENTITY

NEW = "new"
#: At most this many stored players are compared (the most likely are shown first anyway).
SCAN_LIMIT = 200


@dataclass(frozen=True)
class Candidate:
    """A stored player the person may be, with what a person needs to tell them apart."""

    player: Player
    comparison: Comparison
    clubs: tuple[str, ...]
    #: (pool name in the reader's language, rating) for every pool the player is rated in: the
    #: numbers an organiser compares, not the rating the player once declared (issue 49).
    ratings: tuple[tuple[str, float], ...] = ()

    @property
    def certain(self) -> bool:
        return self.comparison.certain


class IdentityUndecided(Exception):
    """The person may be a stored player: a person must choose (``candidates``) or say "new"."""

    def __init__(self, problem: Problem, candidates: list[Candidate]):
        self.problem = problem
        self.candidates = candidates
        super().__init__(problem.code)


@dataclass(frozen=True)
class Identity:
    """The outcome: ``player`` (a stored one) or None for a new player; the candidates seen."""

    player: Player | None
    candidates: tuple[Candidate, ...] = ()


def person_of(player: Player, clubs: frozenset[int] | None = None) -> Person:
    """A stored player as the matching core sees them (``clubs``: current club ids)."""
    return Person(
        player.last_name, player.first_name, player.last_name_latin, player.first_name_latin,
        player.email, player.birth_year, clubs if clubs is not None else frozenset(), player.rating,
    )  # fmt: skip


def _current_clubs(player_ids: list[int]) -> dict[int, dict[int, str]]:
    out: dict[int, dict[int, str]] = {}
    rows = Membership.objects.filter(Membership.current_q(), player_id__in=player_ids).values_list(
        "player_id", "club_id", "club__name"
    )
    for pid, club_id, name in rows:
        out.setdefault(pid, {})[club_id] = name
    return out


def pool_ratings(player_ids: list[int]) -> dict[int, tuple[tuple[str, float], ...]]:
    """Each player's rating in every pool they are rated in, named in the reader's language (one query)."""
    language = current_language()
    out: dict[int, list[tuple[str, float]]] = {}
    rows = PlayerRating.objects.filter(player_id__in=player_ids).order_by("player_id", "pool")
    for pid, pool, rating in rows.values_list("player_id", "pool", "rating"):
        if pool in POOLS:
            out.setdefault(pid, []).append((POOLS[pool].name(language), rating))
    return {pid: tuple(found) for pid, found in out.items()}


def _stored(person: Person, exclude: set[int]) -> list[Player]:
    """The stored players worth comparing: first those with every word of one form of the name
    (or the same email) — never crowded out by the many who share a given name — then those
    with any word of it (half a name), up to :data:`SCAN_LIMIT` in all."""
    whole, some = Q(), Q()
    for last, first in ((person.last_name, person.first_name), (person.last_name_latin, person.first_name_latin)):
        found = words(f"{last or ''} {first or ''}")
        if found:
            every = Q()
            for word in found:
                every &= Q(search_key__contains=word)
                some |= Q(search_key__contains=word)
            whole |= every
    if person.email.strip():
        whole |= Q(email__iexact=person.email.strip())
    if not whole:
        return []
    players = Player.objects.exclude(pk__in=exclude).order_by("pk")
    first_pass = list(players.filter(whole)[:SCAN_LIMIT])
    seen = {p.pk for p in first_pass}
    rest = SCAN_LIMIT - len(first_pass)
    return first_pass + (list(players.filter(some).exclude(pk__in=seen)[:rest]) if rest > 0 and some else [])


def candidates(person: Person, exclude: set[int] | None = None) -> tuple[int | None, list[Candidate]]:
    """(the certain player's id or None, the candidates most likely first)."""
    players = _stored(person, exclude or set())
    clubs = _current_clubs([p.pk for p in players])
    by_pk = {p.pk: p for p in players}
    rated = pool_ratings(list(by_pk))
    verdict = decide(person, ((p.pk, person_of(p, frozenset(clubs.get(p.pk, {})))) for p in players))
    found = [
        Candidate(by_pk[pk], comparison, tuple(sorted(clubs.get(pk, {}).values())), rated.get(pk, ()))
        for pk, comparison in verdict.candidates
    ]
    return verdict.same, found


def describe(candidate: Candidate) -> str:
    """One line telling a candidate apart: name, Latin name, clubs, birth year, id."""
    player = candidate.player
    parts = [player.full_name]
    if player.latin_name:
        parts.append(player.latin_name)
    parts.extend(candidate.clubs)
    parts.extend(f"{name} {rating:.2f}" for name, rating in candidate.ratings)
    if player.birth_year:
        parts.append(str(player.birth_year))
    parts.append(f"#{player.pk}")
    return " · ".join(parts)


def undecided(person: Person, found: list[Candidate]) -> IdentityUndecided:
    name = " ".join(x for x in (person.last_name, person.first_name) if x)
    listed = "; ".join(describe(c) for c in found)
    return IdentityUndecided(IDENTITY.problem("choose", who=name, candidates=listed), found)


def identify(
    person: Person,
    choice: str | int | None = None,
    exclude: set[int] | None = None,
    *,
    self_declared: bool = False,
) -> Identity:
    """Who ``person`` is, by the rule or by a person's ``choice``; raises :class:`IdentityUndecided`.

    ``self_declared``: the person described themselves (see the module docstring) — the
    rule's certainty counts only when it rests on the same email.

    A chosen id must be one of the candidates: a person confirms a proposal, they do not
    take over an unrelated player through a form field.
    """
    same, found = candidates(person, exclude)
    if choice == NEW:
        return Identity(None, tuple(found))
    if choice not in (None, ""):
        for candidate in found:
            if str(candidate.player.pk) == str(choice):
                return Identity(candidate.player, tuple(found))
        name = " ".join(x for x in (person.last_name, person.first_name) if x)
        raise IdentityUndecided(IDENTITY.problem("not_a_candidate", player=choice, who=name), found)
    if same is not None:
        certain = next(c for c in found if c.player.pk == same)
        if not self_declared or certain.comparison.email is Fact.SAME:
            return Identity(certain.player, tuple(found))
    if not found:
        return Identity(None, ())
    raise undecided(person, found)


def check_new(person: Person) -> None:
    """A form about to create ``person`` as a new player: refused while anyone may be them.

    The organiser's new-player forms (the entries desk, the API, the club's members page)
    call this unless the organiser said "none of these: a new player"; the refusal carries
    the candidates to show side by side (enter or add one of them instead).
    """
    _same, found = candidates(person)
    if found:
        raise undecided(person, found)


def person_from_form(data, club_ids: frozenset = frozenset()) -> Person:
    """A form's cleaned data (the player fields) as the matching core sees it."""
    return Person(
        data.get("last_name", ""), data.get("first_name", ""), data.get("last_name_latin", ""),
        data.get("first_name_latin", ""), data.get("email", ""), data.get("birth_year"), club_ids, data.get("rating"),
    )  # fmt: skip
