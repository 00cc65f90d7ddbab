"""Backup and restore of one whole tournament as a versioned JSON archive.

One table, :data:`PARTS`, says what is archived and in which order: every row is
a model and the lookup from it to its tournament. A new model of a tournament is
one more row; the round-trip test checks that every foreign key of every row
points either at an earlier row or at a model :data:`OUTSIDE` knows how to find
in the receiving database (users by username, players matched or created, clubs
and seasons by slug).

The archive lives in the scoring app because results, disputes and sanctions are
scoring models (apps depend one way: scoring → tournaments → clubs).

Import never overwrites: a tournament with the same slug refuses the archive
with a clear, bilingual problem (``archive.*``), and everything runs in one
transaction, so a refused or broken archive leaves nothing behind. Ids are
remapped; timestamps (the audit log's included) are kept as exported, but an
archived audit line is marked imported (which archive, who restored it, when) and
names the archive's account only as a copy of its name, never an account here
(issue 29: an archive could otherwise forge "admin corrected this result"). Audit
snapshots (``before``/``after``) are history and keep the ids of the database
they were written in.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Club, Membership, Player, Season
from scoring.analysis.models import AnalysisSettings, MatchAnalysis
from scoring.models import Dispute, MatchFile, Result, ResultState, Sanction
from scoring.rules.errors import Catalogue, Problem
from tournaments import audit
from tournaments.models import (
    AuditEntry,
    ByeRequest,
    Entry,
    ForbiddenPair,
    Game,
    Match,
    NumberDraw,
    Official,
    Prize,
    Registration,
    ResultStatus,
    Round,
    RoundExplanation,
    Seat,
    Section,
    StandingsAdjustment,
    Team,
    TeamMember,
    Tournament,
)
from tournaments.ratings import tasks
from tournaments.validation import stored_result_problems

FORMAT = "zarik-tournament"
#: Who restored an archive through ``manage.py import_tournament`` (no account there).
COMMAND_LINE = "manage.py import_tournament"
SLUG = re.compile(r"[-a-zA-Z0-9_]+")  # Django's slug, as in the tournament's URLs
#: Bump when a row's meaning changes; :func:`load` refuses versions it does not know.
VERSION = 1

ARCHIVE = Catalogue(
    "archive",
    {
        "json": (
            "The file is not a JSON archive ({error}). Choose the .json file the export made.",
            "Файл не является архивом JSON ({error}). Выберите файл .json, сохранённый экспортом.",
        ),
        "format": (
            "This JSON file is not a Zarik tournament archive (no “{format}” format mark).",
            "Этот файл JSON — не архив турнира Зарика (нет отметки формата «{format}»).",
        ),
        "version": (
            "The archive is of version {version}; this site reads versions up to {known}. "
            "Update the site or export the tournament again.",
            "Архив версии {version}; сайт читает версии до {known}. "
            "Обновите сайт или выгрузите турнир заново.",
        ),
        "slug_taken": (
            "A tournament with the address “{slug}” already exists here; nothing was imported. "
            "Import it under another address.",
            "Турнир с адресом «{slug}» здесь уже есть; ничего не импортировано. "
            "Импортируйте под другим адресом.",
        ),
        "slug": (
            "“{slug}” cannot be a tournament's address: use up to 80 Latin letters, digits, "
            "hyphens and underscores.",
            "«{slug}» не может быть адресом турнира: до 80 латинских букв, цифр, дефисов "
            "и подчёркиваний.",
        ),
        "result": (
            "The archive's result of round {round}, table {table} ({players}) breaks the rules, "
            "so nothing was imported:",
            "Результат архива в туре {round}, стол {table} ({players_ru}) нарушает правила, "
            "поэтому ничего не импортировано:",
        ),
        "club_missing": (
            "The archive's club “{club}” is not on this site, so the tournament was restored "
            "without a club. Create the club, then choose it in the tournament's settings.",
            "Клуба архива «{club}» на этом сайте нет, поэтому турнир восстановлен без клуба. "
            "Создайте клуб и выберите его в настройках турнира.",
        ),
        "members_missing": (
            "{count} club memberships of the players were not restored: these clubs are not on "
            "this site: {clubs}.",
            "Не восстановлено членств игроков в клубах: {count}; этих клубов на сайте нет: {clubs}.",
        ),
        "broken": (
            "The archive is damaged: {part}, row {row}: {error}. Nothing was imported.",
            "Архив повреждён: {part}, строка {row}: {error}. Ничего не импортировано.",
        ),
    },
)


class ArchiveError(Exception):
    """A refused archive: the problem says what, where and why, in either language.

    ``because``: the rules core's own problems when a restored result breaks a rule,
    said with the players' names (``names``, per language) after the archive's problem.
    """

    def __init__(self, problem: Problem, because: tuple[Problem, ...] = (),
                 names: dict[str, dict[str, str]] | None = None):
        self.problem = problem
        self.because = because
        self.names = names or {}
        super().__init__(self.message("en"))

    def message(self, language: str) -> str:
        lang = "en" if language.startswith("en") else "ru"
        why = " ".join(p.message(lang, self.names.get(lang)) for p in self.because)
        return f"{self.problem.message(lang)} {why}".strip()


@dataclass(frozen=True)
class Part:
    """One archived model: its key in the file, the model and its lookup to the tournament."""

    key: str
    model: type[models.Model]
    to_tournament: str
    #: Fields not archived: a cache the site rebuilds on first read (a match file's kept
    #: replay is binary, made for this build's rules; a restored file replays once, then keeps it).
    leave_out: tuple[str, ...] = ()


#: What a tournament archive holds, parents before children (the import order).
PARTS: tuple[Part, ...] = (
    Part("tournament", Tournament, "pk"),
    Part("sections", Section, "tournament"),
    Part("entries", Entry, "tournament"),
    Part("teams", Team, "tournament"),
    Part("team_members", TeamMember, "team__tournament"),
    Part("registrations", Registration, "tournament"),
    Part("number_draws", NumberDraw, "tournament"),
    Part("officials", Official, "tournament"),
    Part("forbidden_pairs", ForbiddenPair, "tournament"),
    Part("bye_requests", ByeRequest, "entry__tournament"),
    Part("prizes", Prize, "tournament"),
    Part("adjustments", StandingsAdjustment, "tournament"),
    Part("rounds", Round, "tournament"),
    Part("round_explanations", RoundExplanation, "round__tournament"),
    Part("matches", Match, "round__tournament"),
    Part("seats", Seat, "round__tournament"),
    Part("games", Game, "match__round__tournament"),
    Part("results", Result, "match__round__tournament"),
    Part("disputes", Dispute, "match__round__tournament"),
    Part("match_files", MatchFile, "tournament", leave_out=("replay", "replay_key")),
    Part("analysis_settings", AnalysisSettings, "tournament"),
    Part("match_analyses", MatchAnalysis, "tournament"),
    Part("sanctions", Sanction, "tournament"),
    Part("audit", AuditEntry, "tournament"),
)

PLAYER_FIELDS = (
    "last_name", "first_name", "last_name_latin", "first_name_latin",
    "category", "city", "country", "email", "language",
)  # fmt: skip


# ----------------------------------------------------------------------------------------- export


class Encoder(DjangoJSONEncoder):
    """Django's JSON, but times to the microsecond (Django's cuts to milliseconds), so order survives."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


#: Rows read and written a batch at a time: a 100,000-player event's archive is streamed, never
#: held whole (issue 50).
CHUNK = 2000


def _part_rows(part: Part, tournament: Tournament) -> models.QuerySet:
    return part.model._default_manager.filter(**{part.to_tournament: tournament.pk})


def _rows(part: Part, tournament: Tournament) -> Iterator[dict[str, Any]]:
    """The part's rows as plain dicts by column (``round_id``, not ``round``): read as values,
    not model instances, which cost most of a big event's export (issue 32), through a
    database cursor :data:`CHUNK` rows at a time."""
    columns = [f.attname for f in part.model._meta.concrete_fields if f.name not in part.leave_out]
    return _part_rows(part, tournament).order_by("pk").values(*columns).iterator(chunk_size=CHUNK)


def _foreign_keys(model: type[models.Model]) -> list[models.ForeignKey]:
    return [f for f in model._meta.concrete_fields if f.is_relation]


def _named(model: type[models.Model], tournament: Tournament, also: Q | None = None) -> models.QuerySet:
    """The rows of ``model`` (players, accounts, clubs, seasons) the archived rows point at:
    found by the database (a subquery per foreign key), not by collecting ids row by row."""
    named = Q(pk__in=[])
    for part in PARTS:
        for field in _foreign_keys(part.model):
            if field.related_model is model:
                named |= Q(pk__in=_part_rows(part, tournament).values(field.attname))
    if also is not None:
        named |= also
    return model._default_manager.filter(named).order_by("pk")


def _players(tournament: Tournament) -> Iterator[dict[str, Any]]:
    """The players the archive names, with their current memberships, :data:`CHUNK` at a time.
    Rows as values: a big event's players as model objects cost as much as the rest of the read."""
    players = _named(Player, tournament).values("id", "user_id", *PLAYER_FIELDS).iterator(chunk_size=CHUNK)
    while batch := list(itertools.islice(players, CHUNK)):
        member_of: dict[int, list[dict[str, Any]]] = {}
        for player_id, club_slug, since in Membership.objects.filter(
            player_id__in=[p["id"] for p in batch], ended_on__isnull=True
        ).values_list("player_id", "club__slug", "started_on"):
            member_of.setdefault(player_id, []).append({"club": club_slug, "since": since})
        for p in batch:
            yield {**p, "memberships": member_of.get(p["id"], [])}


def chunks(tournament: Tournament) -> Iterator[str]:
    """The archive of ``tournament`` as text, piece by piece: one row a line.

    The tables come first, each read through a cursor; the people and places they name
    (players, accounts, clubs, seasons) follow, found by the database. So what an export
    holds in memory does not grow with the event (issue 50): a download streams it, the
    command writes it as it comes. Each row goes through the json module's C encoder (an
    indented dump runs the pure Python one, 26 s for a 10,000-player Swiss; issue 32).
    """
    user_model = get_user_model()
    encode = Encoder(ensure_ascii=False).encode
    head = {"format": FORMAT, "version": VERSION, "exported_at": timezone.now(), "slug": tournament.slug}
    yield encode(head)[:-1] + ', "tables": {'
    for i, part in enumerate(PARTS):
        yield ("," if i else "") + "\n " + encode(part.key) + ": ["
        yield from _lines(_rows(part, tournament), encode)
        yield "\n ]"
    yield '\n},\n "players": ['
    yield from _lines(_players(tournament), encode)
    yield '\n ],\n "users": {'
    of_players = Q(pk__in=_named(Player, tournament).values("user_id"))
    users = _named(user_model, tournament, of_players).values_list("pk", user_model.USERNAME_FIELD)
    yield from _lines(users.iterator(chunk_size=CHUNK), lambda pair: f"{encode(str(pair[0]))}: {encode(pair[1])}")
    clubs = dict(_named(Club, tournament).values_list("pk", "slug"))
    seasons = dict(_named(Season, tournament).values_list("pk", "slug"))
    yield f'\n }},\n "clubs": {encode(clubs)},\n "seasons": {encode(seasons)}\n}}\n'


def _lines(items: Iterator[Any], encode: Callable[[Any], str]) -> Iterator[str]:
    """``items`` encoded one a line, comma-separated, :data:`CHUNK` lines a piece."""
    first = True
    while batch := [encode(item) for item in itertools.islice(items, CHUNK)]:
        yield ("" if first else ",") + ",".join("\n  " + line for line in batch)
        first = False


def export(tournament: Tournament, out: IO[str]) -> None:
    """Write the archive of ``tournament`` to the text stream ``out`` as it is read (:func:`chunks`)."""
    for piece in chunks(tournament):
        out.write(piece)


def dump(tournament: Tournament) -> dict[str, Any]:
    """The whole archive as the data a reader of the file gets (for tests and tools; the site
    streams it with :func:`chunks`)."""
    return json.loads("".join(chunks(tournament)))


# ----------------------------------------------------------------------------------------- import


class _Resolver:
    """Old ids of the archive → ids in this database, per model."""

    def __init__(self, data: dict[str, Any], restored_by: str = ""):
        self.maps: dict[type[models.Model], dict[int, int | None]] = {}
        users = data.get("users") or {}
        self.archive_users = {str(k): str(v) for k, v in users.items()} if isinstance(users, dict) else {}
        self.provenance = f"{data.get('slug', '')} ({data.get('exported_at', '')})"[:200]
        self.restored_by = restored_by[:150]
        self.restored_at = timezone.now()
        user_model = get_user_model()
        by_name = dict(
            user_model.objects.filter(
                **{f"{user_model.USERNAME_FIELD}__in": list(data.get("users", {}).values())}
            ).values_list(user_model.USERNAME_FIELD, "pk")
        )
        self.maps[user_model] = {int(k): by_name.get(v) for k, v in data.get("users", {}).items()}
        self.maps[Club] = _by_slug(Club, data.get("clubs", {}))
        self.maps[Season] = _by_slug(Season, data.get("seasons", {}))
        self.maps[Player] = {}
        self.players_created = 0
        for row in data.get("players", []):
            self.maps[Player][int(row["id"])] = self._player(row)

    def _player(self, row: dict[str, Any]) -> int:
        """The same person here: by their account, else by all four names (one match), else new."""
        user_id = self.maps[get_user_model()].get(row.get("user_id") or -1)
        if user_id is not None:
            found = Player.objects.filter(user_id=user_id).values_list("pk", flat=True).first()
            if found:
                return found
        names = {f: row.get(f) or "" for f in PLAYER_FIELDS[:4]}
        same = list(Player.objects.filter(**names).values_list("pk", flat=True)[:2])
        if len(same) == 1:
            return same[0]
        fields = {f: row[f] for f in PLAYER_FIELDS if f in row}
        taken = user_id is not None and Player.objects.filter(user_id=user_id).exists()
        player = Player.objects.create(user_id=None if taken else user_id, **fields)
        self.players_created += 1
        return player.pk

    def mark_imported(self, line: AuditEntry, row: dict[str, Any]) -> None:
        """An archived audit line keeps its history but says it was imported, never who acted *here*.

        Its account is the archive's (a name copy in ``actor``), not an account of this
        database that happens to share the username: a forged "admin, result.correct"
        reads as the archive's claim, with which archive, who restored it and when.
        """
        archived_user = row.get("user_id")
        named = self.archive_users.get(str(archived_user), "") if archived_user is not None else ""
        line.user_id = None
        line.actor = str(row.get("actor") or named)[:150]
        line.imported_from = self.provenance
        line.imported_by = self.restored_by
        line.imported_at = self.restored_at

    def new_id(self, model: type[models.Model], old: int | None, nullable: bool) -> int | None:
        if old is None:
            return None
        mapped = self.maps.get(model, {}).get(int(old))
        if mapped is None and not nullable:
            raise LookupError(f"{model._meta.model_name} #{old} is not in the archive")
        return mapped


def _by_slug(model: type[models.Model], slugs: dict[str, str]) -> dict[int, int | None]:
    here = dict(model._default_manager.filter(slug__in=list(slugs.values())).values_list("slug", "pk"))
    return {int(k): here.get(v) for k, v in slugs.items()}


def outside_models() -> tuple[type[models.Model], ...]:
    """Models outside the archive that a row may point at; :class:`_Resolver` finds them here."""
    return (get_user_model(), Player, Club, Season)


def _check_header(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(ARCHIVE.problem("format", format=FORMAT))
    version = data.get("version")
    if not isinstance(version, int) or version > VERSION or version < 1:
        raise ArchiveError(ARCHIVE.problem("version", version=version, known=VERSION))


def read(stream: IO[str] | IO[bytes]) -> dict[str, Any]:
    """The archive's data, or :class:`ArchiveError` for a file that is not one."""
    try:
        data = json.load(stream)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArchiveError(ARCHIVE.problem("json", error=str(exc)[:120])) from None
    _check_header(data)
    return data


@dataclass
class Imported:
    tournament: Tournament
    rows: int
    players_created: int
    skipped: int
    #: What was restored but could not be linked here (the club, memberships), said plainly.
    warnings: list[Problem] = dataclasses.field(default_factory=list)


def _build(part: Part, row: dict[str, Any], resolver: _Resolver, ids: dict) -> models.Model | None:
    """A new, unsaved instance of ``row`` with its keys remapped; None when it cannot exist here."""
    obj = part.model()
    for field in part.model._meta.concrete_fields:
        if field.primary_key:
            continue
        value = row.get(field.attname, field.get_default())
        if field.is_relation and value is not None:
            target = field.related_model
            if target in ids:
                value = ids[target].get(int(value))
                if value is None:
                    raise LookupError(f"{field.name} #{row[field.attname]} is not in the archive")
            else:
                value = resolver.new_id(target, value, nullable=True)
                if value is None and not field.null:
                    return None  # e.g. an official whose account does not exist here
        elif value is not None:
            value = field.to_python(value)
        setattr(obj, field.attname, value)
    if part.model is AuditEntry:
        if obj.object_type:
            owner = next((p.model for p in PARTS if p.model._meta.model_name == obj.object_type), None)
            if owner in ids and str(obj.object_id).isdigit():
                obj.object_id = str(ids[owner].get(int(obj.object_id), obj.object_id))
        resolver.mark_imported(obj, row)
    return obj


def _refuse_results_against_the_rules(match_ids) -> None:
    """Every restored result through the rules core, as if typed; the first that breaks one refuses all.

    The official ledger (the match's score, winner and games) and every live report
    (reported, confirmed, disputed) go through :func:`tournaments.validation.stored_result_problems`,
    the one entry point result entry uses. Superseded and rejected reports are history
    and are kept as they are. Called inside :func:`load`'s transaction, so a refusal
    writes nothing.
    """
    live = (ResultState.REPORTED, ResultState.CONFIRMED, ResultState.DISPUTED)
    matches = (
        Match.objects.filter(pk__in=list(match_ids))
        .select_related("round__tournament", "round__section", "entry_a__player", "entry_a__section",
                        "entry_b__player")
        .prefetch_related("games", "results")
        .order_by("round__number", "table", "pk")
    )
    for match in matches:
        ledger = [
            {"winner": g.winner, "kind": g.kind, "cube": g.cube, "dropped": g.dropped,
             "autodoubles": g.autodoubles}
            for g in sorted(match.games.all(), key=lambda g: g.number)
        ]
        problems = stored_result_problems(
            match, score=(match.score_a, match.score_b), kind=match.result_kind, winner=match.winner,
            games=ledger, winner_required=match.result_status == ResultStatus.CONFIRMED,
        )
        for result in match.results.all():
            if problems:
                break
            if result.state in live:
                problems = stored_result_problems(
                    match, score=(result.score_a, result.score_b), kind=result.kind,
                    winner=result.winner, games=result.games or None, winner_required=False,
                )
        if problems:
            names = {lang: match.side_names(lang) for lang in ("en", "ru")}
            players = {lang: " – ".join(names[lang].values()) for lang in names}
            raise ArchiveError(
                ARCHIVE.problem("result", round=match.round.number, table=match.table or "—",
                                players=players["en"], players_ru=players["ru"]),
                because=problems, names=names,
            )


def _link_club(tournament: Tournament, data: dict[str, Any], head: dict[str, Any],
               club: Club | None) -> list[Problem]:
    """The tournament's club: the one chosen, else the archive's when it exists here, else a warning."""
    if club is not None or tournament.club_id is not None:
        return []
    archived = head.get("club_id")
    slug = (data.get("clubs") or {}).get(str(archived)) if archived is not None else None
    return [ARCHIVE.problem("club_missing", club=slug)] if slug else []


def _date(text: Any) -> datetime.date:
    """A membership's start as archived; today when it is missing or unreadable (it is not a result)."""
    try:
        return datetime.date.fromisoformat(str(text))
    except ValueError:
        return timezone.localdate()


def _restore_memberships(data: dict[str, Any], resolver: _Resolver) -> list[Problem]:
    """Each player's open club memberships, where the club exists here and they are not members yet.

    The players' club is what the standings, the Excel export and the entry import
    show and match on; a restore that dropped it lost the club column silently.
    """
    rows = [r for r in data.get("players") or [] if isinstance(r, dict)]
    wanted = {m.get("club") for r in rows for m in r.get("memberships") or [] if isinstance(m, dict)}
    clubs = dict(Club.objects.filter(slug__in=[s for s in wanted if isinstance(s, str)]).values_list("slug", "pk"))
    missing: dict[str, int] = {}
    for row in rows:
        player_id = resolver.maps[Player].get(int(row["id"]))
        for membership in row.get("memberships") or []:
            slug = membership.get("club") if isinstance(membership, dict) else None
            if slug not in clubs:
                missing[str(slug)] = missing.get(str(slug), 0) + 1
                continue
            if not Membership.objects.filter(player_id=player_id, club_id=clubs[slug], ended_on__isnull=True).exists():
                Membership.objects.create(
                    player_id=player_id, club_id=clubs[slug], started_on=_date(membership.get("since")),
                )
    if not missing:
        return []
    return [ARCHIVE.problem("members_missing", count=sum(missing.values()), clubs=", ".join(sorted(missing)))]


def _explanations_apart(tables: dict[str, Any]) -> dict[str, Any]:
    """An archive written before issue 32 keeps each round's explanation in the round's row:
    the rows of ``round_explanations`` are made from it, so such an archive restores whole."""
    if "round_explanations" in tables:
        return tables
    rounds = [r for r in tables.get("rounds") or [] if isinstance(r, dict)]
    kept = [
        {"id": n, "round_id": r.get("id"), "data": r["explanation"]}
        for n, r in enumerate(rounds, start=1)
        if r.get("explanation")
    ]
    return {**tables, "round_explanations": kept}


@transaction.atomic
def load(data: dict[str, Any], user=None, *, slug: str | None = None, club: Club | None = None) -> Imported:
    """Create the archived tournament in this database; :class:`ArchiveError` if it cannot.

    ``slug`` imports it under another address; ``club`` makes it that club's
    (the organiser's import page), else the archive's club when it exists here.
    """
    _check_header(data)
    tables = data.get("tables") or {}
    head = (tables.get("tournament") or [None])[0]
    if not isinstance(head, dict):
        raise ArchiveError(ARCHIVE.problem("broken", part="tournament", row=1, error="missing"))
    slug = slug or head.get("slug", "")
    if not isinstance(slug, str) or not SLUG.fullmatch(slug) or len(slug) > 80:
        raise ArchiveError(ARCHIVE.problem("slug", slug=slug))
    if Tournament.objects.filter(slug=slug).exists():
        raise ArchiveError(ARCHIVE.problem("slug_taken", slug=slug))
    account = user if user is not None and getattr(user, "is_authenticated", False) else None
    resolver = _Resolver(data, account.get_username() if account is not None else COMMAND_LINE)
    tables = _explanations_apart(tables)
    ids: dict[type[models.Model], dict[int, int]] = {}
    count = skipped = 0
    for part in PARTS:
        ids[part.model] = {}
        for n, row in enumerate(tables.get(part.key) or [], start=1):
            try:
                obj = _build(part, row, resolver, ids)
                if obj is None:
                    skipped += 1
                    continue
                if part.model is Tournament:
                    obj.slug = slug
                    if club is not None:
                        obj.club_id = club.pk
                # raw: keep the archive's timestamps (auto_now_add would stamp "now").
                obj.save_base(raw=True)
            except ArchiveError:
                raise
            except Exception as exc:  # any bad row: the whole import rolls back with its place
                raise ArchiveError(
                    ARCHIVE.problem("broken", part=part.key, row=n, error=f"{type(exc).__name__}: {exc}"[:200])
                ) from exc
            ids[part.model][int(row["id"])] = obj.pk
            count += 1
    _refuse_results_against_the_rules(ids[Match].values())
    tournament = Tournament.objects.get(pk=ids[Tournament][int(head["id"])])
    audit.record(
        account, tournament, "tournament.import", tournament, None,
        {"archive": data.get("slug", ""), "exported_at": data.get("exported_at"), "rows": count,
         "audit_lines_imported": len(ids[AuditEntry]), "restored_by": resolver.restored_by},
        data.get("slug", ""),
    )
    if tournament.rated:
        tasks.rerate_after_toggle(tournament)  # its confirmed results join the pool's ratings
    warnings = _link_club(tournament, data, head, club) + _restore_memberships(data, resolver)
    return Imported(tournament, count, resolver.players_created, skipped, warnings)


def import_file(stream: IO[str] | IO[bytes], user=None, **kwargs: Any) -> Imported:
    """Read and load an archive file (the command and the organiser's page)."""
    return load(read(stream), user, **kwargs)
