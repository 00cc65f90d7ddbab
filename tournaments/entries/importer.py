"""Import entries from a CSV, XLSX or FIDE TRF-16 file: read, plan row by row, then apply.

The preview page and ``manage.py import_entries`` run the same three steps:

1. :func:`read_file` turns the file into :class:`Row` objects, numbered as a
   spreadsheet shows them (the header is row 1; a TRF line keeps its line number).
   Columns are recognised by their header in English or Russian (:data:`COLUMNS`:
   one row per column; a newcomer adds a row).
2. :func:`plan` decides each row without writing anything: a new player and
   entry (``create``), an existing player entered (``match``), a person already
   entered (``entered``, left alone), a person who may be a stored player and whom
   the organiser must identify (``decide``: the candidates are shown side by side,
   the row waits until a choice is made), or ``refused`` with ``entry.*`` problems.
   Who a row's person is, is the identity service's rule (:mod:`clubs.identity`):
   names in any alphabet and order, the same club, email and year of birth; a
   namesake of the same club, or the same email, is the person, so importing a file
   twice enters nobody twice; a namesake already entered in this tournament is that
   entry.
3. :func:`apply` writes the plan in one transaction: good rows are imported even
   when others are refused.

Clubs named in the file are matched by name or by slug (the short name in the
club's address), ignoring case and ё. An unknown club is **never created silently**:
its rows wait (``decide``) until the organiser ticks "create the club" in the
preview (``--new-club`` on the command line); new players of a club get an open
membership in it. A stored namesake in any club (any alphabet, ё, transliteration)
is a candidate whatever club the row names or leaves empty; the one namesake no
evidence contradicts (of several, the host club's member) is pre-selected in the
preview (``--accept-proposed`` on the command line) — proposed, never taken silently.

``--dry-run --json`` and the preview print the same plan (:meth:`Plan.as_data`):
per row new / existing #id / already entered / waiting / refused, and the would-be
counts.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from xml.etree import ElementTree

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.text import slugify
from openpyxl import load_workbook
from openpyxl.reader.excel import ExcelReader

from clubs.identity.matching import Fact, Name, Person
from clubs.identity.services import Candidate, IdentityUndecided, identify
from clubs.models import Club, Membership, Player
from clubs.names import clean_name, search_key, to_latin
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.categories import CATEGORIES, get_category
from tournaments.models import Entry, Tournament
from zarik.i18n import current_language

from .problems import ENTRY
from .roster import enter, section_for


class ImportRefused(Exception):
    """The whole file is refused (unknown format, no last name column…)."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.code)


# ---------------------------------------------------------------------------------------------
# columns and rows
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    key: str
    headers: tuple[str, ...]  # English and Russian spellings, compared by :func:`_norm`


COLUMNS: tuple[Column, ...] = (
    Column("last_name", ("last_name", "last name", "surname", "family name", "фамилия")),
    Column("first_name", ("first_name", "first name", "given name", "имя")),
    Column("last_name_latin", ("last_name_latin", "фамилия (лат.)", "фамилия латиницей")),
    Column("first_name_latin", ("first_name_latin", "имя (лат.)", "имя латиницей")),
    Column("club", ("club", "клуб")),
    Column("category", ("category", "категория")),
    Column("rating", ("rating", "рейтинг")),
    Column("email", ("email", "e-mail", "почта", "эл. почта", "электронная почта")),
    Column("birth_year", ("birth_year", "year of birth", "born", "год рождения", "г.р.")),
)


def _spelling(column: Column, language: str) -> str:
    """The column's header as a spreadsheet in ``language`` writes it (the first such spelling)."""
    cyrillic = [h for h in column.headers if re.search("[а-яё]", h)]
    if language == "ru" and cyrillic:
        return cyrillic[0][:1].upper() + cyrillic[0][1:]
    return column.headers[0]


def header_names(keys: Iterable[str], language: str) -> tuple[str, str]:
    """The headers of the columns ``keys`` as the page in ``language`` names them, and the other
    language's spellings (accepted too): the import pages list their own language's first
    (issue 44: the English page listed the Russian headers)."""
    columns = [c for key in keys for c in COLUMNS if c.key == key]
    other = "en" if language == "ru" else "ru"
    return (", ".join(_spelling(c, language) for c in columns),
            ", ".join(dict.fromkeys(_spelling(c, other) for c in columns)))  # fmt: skip


def _norm(header: str) -> str:
    return re.sub(r"[\s_.\-()]+", "", str(header).strip().lower().replace("ё", "е"))


_HEADER_KEYS = {_norm(h): c.key for c in COLUMNS for h in c.headers}

MAX_RATING = 4000


@dataclass
class Row:
    number: int  # as a spreadsheet shows it: the header is row 1
    values: dict[str, str]

    def get(self, key: str) -> str:
        return clean_name(self.values.get(key) or "")  # the name rule, for every column of every format

    def to_data(self) -> dict:
        return {"number": self.number, "values": self.values}

    @classmethod
    def from_data(cls, data: dict) -> Row:
        return cls(int(data["number"]), {str(k): str(v) for k, v in data["values"].items()})


# ---------------------------------------------------------------------------------------------
# step 1: reading a file
# ---------------------------------------------------------------------------------------------


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _rows_from_table(table: Iterable[tuple[int, list]]) -> list[Row]:
    """(spreadsheet row number, cells) → rows keyed by column; the first non-empty row is the header."""
    header: dict[int, str] | None = None
    rows = []
    for number, cells in table:
        texts = [_cell(c) for c in cells]
        if not any(texts):
            continue
        if header is None:
            header = {i: _HEADER_KEYS[_norm(t)] for i, t in enumerate(texts) if _norm(t) in _HEADER_KEYS}
            if "last_name" not in header.values():
                raise ImportRefused(ENTRY.problem("import_no_last_name_column"))
            continue
        rows.append(Row(number, {key: texts[i] if i < len(texts) else "" for i, key in header.items()}))
    if header is None:
        raise ImportRefused(ENTRY.problem("import_empty"))
    return rows


def read_csv(data: bytes) -> list[Row]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(ENTRY.problem("import_encoding")) from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(",;\t", key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return _rows_from_table(enumerate(reader, start=1))
    except csv.Error:
        raise ImportRefused(ENTRY.problem("import_unreadable", kind="CSV")) from None


def _refuse_zip_bomb(name: str, data: bytes) -> None:
    """An XLSX is a zip: its central directory says what it unpacks to, before anything is unpacked.

    Python's zip reader never unpacks a member past the size its directory gives, so
    the sum checked here bounds the memory the workbook can take (issue 29: a 343 KB
    file held a million rows).
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError):
        raise ImportRefused(ENTRY.problem("import_unreadable", kind="XLSX")) from None
    if len(members) > MAX_XLSX_MEMBERS or sum(m.file_size for m in members) > MAX_XLSX_UNPACKED:
        raise ImportRefused(ENTRY.problem("import_unpacked_too_large", file=name,
                                          limit=MAX_XLSX_UNPACKED // 2**20))


def _first_sheet_member(data: bytes) -> tuple[zipfile.ZipFile, str]:
    """The zip member of the workbook's first worksheet, found the way openpyxl finds it."""
    reader = ExcelReader(io.BytesIO(data), read_only=True, data_only=True)
    reader.read_manifest()
    reader.read_workbook()
    for _sheet, rel in reader.parser.find_sheets():
        if rel.Type.endswith("/worksheet"):
            return reader.archive, rel.target
    raise ValueError("no worksheet")


def _refuse_too_many_rows(name: str, data: bytes) -> None:
    """Count the first sheet's ``<row>`` elements as they stream by and stop past the limit.

    openpyxl opens a sheet without a ``<dimension>`` by reading it to the end to look for
    one (its parser waits for the *end* of ``<sheetData>``), so a 45 KB file of 5,000,000
    empty ``<row/>`` held a worker 7–8 s before our own count began (issue 45). This pass
    reacts to each row's *start* and stops at :data:`MAX_IMPORT_ROWS` + 1, so a file is
    refused after reading at most that many rows; a file within the limit is then read
    by openpyxl as before.
    """
    archive, member = _first_sheet_member(data)
    parser = ElementTree.XMLPullParser(events=("start",))
    rows = 0
    with archive.open(member) as sheet:
        while chunk := sheet.read(64 * 1024):
            parser.feed(chunk)
            for _event, element in parser.read_events():
                if element.tag.rpartition("}")[2] == "row":
                    rows += 1
                    if rows > MAX_IMPORT_ROWS:
                        raise ImportRefused(ENTRY.problem("import_too_many_rows", file=name, limit=MAX_IMPORT_ROWS))
                element.clear()


def read_xlsx(data: bytes, name: str = "XLSX") -> list[Row]:
    """The first sheet's rows, read as a stream: past :data:`MAX_IMPORT_ROWS` rows it stops and refuses."""
    _refuse_zip_bomb(name, data)
    table = []
    try:
        _refuse_too_many_rows(name, data)
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        sheet = book.worksheets[0]
        for i, cells in enumerate(sheet.iter_rows(values_only=True, max_col=MAX_IMPORT_COLUMNS), start=1):
            if i > MAX_IMPORT_ROWS:
                book.close()
                raise ImportRefused(ENTRY.problem("import_too_many_rows", file=name, limit=MAX_IMPORT_ROWS))
            table.append((i, list(cells)))
        book.close()
    except ImportRefused:
        raise
    except Exception:  # a broken zip or workbook: openpyxl raises many kinds
        raise ImportRefused(ENTRY.problem("import_unreadable", kind="XLSX")) from None
    return _rows_from_table(table)


def read_trf(data: bytes) -> list[Row]:
    """The ``001`` player lines of a TRF-16 file: name "Last, First" in columns 15–47, rating 49–52,
    the year of the birth date (columns 70–79, ``YYYY/MM/DD``) for telling namesakes apart."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(ENTRY.problem("import_encoding")) from None
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("001"):
            continue
        padded = line.ljust(80)
        last, _, first = padded[14:47].strip().partition(",")
        born = padded[69:73]
        rows.append(
            Row(
                number,
                {"last_name": last.strip(), "first_name": first.strip(), "rating": padded[48:52].strip(),
                 "birth_year": born if born.isdigit() and born != "0000" else "", "trf": "1"},
            )
        )
    if not rows:
        raise ImportRefused(ENTRY.problem("import_empty"))
    return rows


def _looks_like_trf(data: bytes) -> bool:
    head = data[:4000].decode("utf-8", errors="ignore").lstrip("\ufeff")
    return any(line.startswith(("001 ", "012 ")) for line in head.splitlines())


# An import file's limit: a 10,000-player list in CSV or XLSX is well under 1 MB, and parsing
# (XLSX is a zip) costs memory in proportion, so anything bigger is refused before reading.
MAX_IMPORT_BYTES = 2 * 2**20
#: Rows of a spreadsheet read before an import is refused (the biggest club list is a few
#: thousand), and its columns read (a list has a dozen); both bound a workbook without a
#: ``<dimension>``, which openpyxl cannot size in advance.
MAX_IMPORT_ROWS = 20_000
MAX_IMPORT_COLUMNS = 64
#: What an XLSX may unpack to, and how many files it may hold, by its zip directory.
MAX_XLSX_UNPACKED = 32 * 2**20
MAX_XLSX_MEMBERS = 200


def _refuse_too_large(name: str, size: int) -> None:
    if size > MAX_IMPORT_BYTES:
        raise ImportRefused(ENTRY.problem(
            "import_too_large", file=name, size=-(-size // 1024), limit=MAX_IMPORT_BYTES // 1024))


def read_upload(upload) -> list[Row]:
    """The rows of an uploaded file (pages and API), its size checked before it is read."""
    _refuse_too_large(upload.name, upload.size)
    return read_file(upload.name, upload.read())


def read_file(name: str, data: bytes) -> list[Row]:
    """The rows of an uploaded file, by its content first (a zip is XLSX), then its name."""
    _refuse_too_large(name, len(data))
    lower = name.lower()
    if data[:4] == b"PK\x03\x04":
        return read_xlsx(data, name)
    if lower.endswith((".trf", ".trfx")) or _looks_like_trf(data):
        return read_trf(data)
    if b"\x00" in data[:4000] or lower.endswith((".xls", ".xlsx", ".ods")):
        raise ImportRefused(ENTRY.problem("import_format", file=name))
    return read_csv(data)


# ---------------------------------------------------------------------------------------------
# step 2: the plan
# ---------------------------------------------------------------------------------------------

CREATE, MATCH, ENTERED, REFUSED = "create", "match", "entered", "refused"
DECIDE = "decide"  # may be a stored player: imported only once the organiser says who (clubs.identity)


@dataclass
class PlanRow:
    row: Row
    action: str = CREATE
    problems: list[Problem] = field(default_factory=list)
    player: Player | None = None
    club: Club | None = None
    club_name: str = ""
    category: int | None = None
    rating: float | None = None
    birth_year: int | None = None
    candidates: list[Candidate] = field(default_factory=list)
    proposed: int | None = None  # the candidate pre-selected in the preview (the organiser confirms)
    unknown_club: bool = False  # the row names a club nobody knows, not (yet) to be created

    @property
    def name(self) -> str:
        return f"{self.row.get('last_name')} {self.row.get('first_name')}".strip()

    def messages(self, language: str) -> list[str]:
        return [p.message(language) for p in self.problems]


#: What a row's plan is called in ``--json`` and the API: a reader's word, not the code's.
PLAN_WORDS = {CREATE: "new", MATCH: "existing", ENTERED: "entered", DECIDE: "waiting", REFUSED: "refused"}


@dataclass
class Plan:
    rows: list[PlanRow]
    new_clubs: list[str]
    unknown_clubs: list[str] = field(default_factory=list)  # named, unknown, not approved: rows wait

    def count(self, *actions: str) -> int:
        return sum(1 for r in self.rows if r.action in actions)

    def summary(self, language: str) -> dict:
        """What ``--json`` prints after an import: entries created, people already entered, refused rows."""
        return {
            "created": self.count(CREATE, MATCH),
            "existing": self.count(ENTERED),
            "errors": [
                {"row": r.row.number, "message": " ".join(r.messages(language))}
                for r in self.rows
                if r.action == REFUSED
            ],
            "undecided": [
                {"row": r.row.number, "message": " ".join(r.messages(language)),
                 "candidates": [c.player.pk for c in r.candidates]}
                for r in self.rows
                if r.action == DECIDE
            ],
        }  # fmt: skip

    def as_data(self, language: str, *, dry_run: bool) -> dict:
        """The plan row by row and its counts, for ``--json`` (a dry run says "would", never "created").

        Each row: ``plan`` is new / existing (``player`` is its id) / entered / waiting
        (``candidates``, ``proposed``) / refused (``message``).
        """
        rows = []
        for r in self.rows:
            line = {"row": r.row.number, "name": r.name, "plan": PLAN_WORDS[r.action],
                    "player": r.player.pk if r.player is not None and r.action in (MATCH, ENTERED) else None,
                    "club": r.club.slug if r.club is not None else (r.club_name or None)}  # fmt: skip
            if r.action == DECIDE:
                line["candidates"] = [c.player.pk for c in r.candidates]
                line["proposed"] = r.proposed
            if r.problems:
                line["message"] = " ".join(r.messages(language))
            rows.append(line)
        counts = {
            "entries": self.count(CREATE, MATCH), "new_players": self.count(CREATE),
            "existing_players": self.count(MATCH), "already_entered": self.count(ENTERED),
            "waiting": self.count(DECIDE), "refused": self.count(REFUSED),
            "new_clubs": list(self.new_clubs), "unknown_clubs": list(self.unknown_clubs),
        }  # fmt: skip
        out = self.summary(language)
        if dry_run:
            del out["created"]
            return {"dry_run": True, "would_be": counts, **out, "rows": rows}
        return {**out, "done": counts, "rows": rows}


def parse_category(text: str) -> int:
    """1–9, "5 · Intermediate", or the book's name in English or Russian; RuleViolation if none."""
    leading = re.match(r"\s*([1-9])(?!\d)", text)
    if leading:
        return int(leading.group(1))
    try:
        return get_category(text).number
    except RuleViolation:
        wanted = text.strip().lower()
        for c in CATEGORIES:
            parts = {p.strip() for p in re.split(r"[()]", c.ru.lower()) if p.strip()}
            if wanted in parts:
                return c.number
        raise


def parse_rating(text: str) -> float:
    value = float(text.replace("\u00a0", "").replace(" ", "").replace(",", "."))
    if not 0 <= value <= MAX_RATING:
        raise ValueError(text)
    return value


def _check(row: Row, item: PlanRow) -> None:
    if not row.get("last_name"):
        item.problems.append(ENTRY.problem("import_no_last_name"))
    if text := row.get("category"):
        try:
            item.category = parse_category(text)
        except RuleViolation:
            item.problems.append(ENTRY.problem("import_bad_category", value=text))
    if text := row.get("rating"):
        try:
            item.rating = parse_rating(text)
        except ValueError:
            item.problems.append(ENTRY.problem("import_bad_rating", value=text, top=MAX_RATING))
        if item.rating == 0 and row.get("trf"):
            item.rating = None  # TRF writes 0 for "no rating"
    if text := row.get("email"):
        try:
            validate_email(text)
        except ValidationError:
            item.problems.append(ENTRY.problem("import_bad_email", value=text))
    if text := row.get("birth_year"):
        if text.strip().isdigit() and MIN_BIRTH_YEAR <= int(text) <= date.today().year:
            item.birth_year = int(text)
        else:
            item.problems.append(ENTRY.problem("import_bad_birth_year", value=text))


def name_key(last: str, first: str) -> str:
    return search_key(f"{last} {first}")


MIN_BIRTH_YEAR = 1900


def person(item: PlanRow) -> Person:
    """A row's person as the identity service sees them."""
    row = item.row
    return Person(
        row.get("last_name"), row.get("first_name"), row.get("last_name_latin"), row.get("first_name_latin"),
        row.get("email"), item.birth_year, frozenset({item.club.pk}) if item.club else frozenset(), item.rating,
    )  # fmt: skip


def choices_from(data) -> dict[int, str]:
    """The organiser's answers on a preview: ``person-<row>`` = a proposed player's id or ``new``."""
    out = {}
    for key, value in data.items():
        if key.startswith("person-") and key[7:].isdigit() and value:
            out[int(key[7:])] = str(value)
    return out


def club_key(name: str) -> str:
    """How a club typed in a file is compared: case and ё ignored, surrounding spaces dropped."""
    return " ".join(name.replace("ё", "е").replace("Ё", "Е").casefold().split())


def _known_clubs() -> dict[str, Club]:
    """Every club by its name and by its slug (:func:`club_key`); a name wins over another club's slug."""
    found: dict[str, Club] = {}
    clubs = list(Club.objects.all())
    for club in clubs:
        found.setdefault(club_key(club.slug), club)
    for club in clubs:
        found[club_key(club.name)] = club
    return found


#: A rating in the file this far from the stored player's still proposes them (lists differ by date).
PROPOSAL_RATING_GAP = 150


def _proposal(candidates: list[Candidate], host_club: str | None) -> int | None:
    """The one candidate to pre-select in the preview (the organiser still confirms it).

    The only namesake (any alphabet) whom no evidence contradicts — not another birth year
    or email, not only other clubs than the row's, not a rating further than
    :data:`PROPOSAL_RATING_GAP` from the row's; of several, the only one who is a member
    of the event's host club (``host_club``: its name).
    """
    namesakes = [
        c for c in candidates
        if c.comparison.name is Name.SAME and not c.comparison.contradicted and c.comparison.club is not Fact.DIFFERENT
        and (c.comparison.rating_gap is None or c.comparison.rating_gap <= PROPOSAL_RATING_GAP)
    ]  # fmt: skip
    if len(namesakes) > 1 and host_club:
        namesakes = [c for c in namesakes if host_club in c.clubs]
    return namesakes[0].player.pk if len(namesakes) == 1 else None


def _identify(item: PlanRow, choice: str | None, entered: set[int], host_club: str | None = None) -> None:
    """Set ``item.player`` (None: a new player) or make the row wait for a choice (``decide``)."""
    try:
        found = identify(person(item), choice)
    except IdentityUndecided as exc:
        item.candidates = exc.candidates
        here = [c for c in exc.candidates if c.player.pk in entered and c.comparison.name is Name.SAME]
        if choice is None and len(here) == 1:
            item.player = here[0].player  # the namesake already in this event: that entry
            return
        item.problems.append(exc.problem)
        item.action = DECIDE
        item.proposed = _proposal(exc.candidates, host_club)
        return
    item.player, item.candidates = found.player, list(found.candidates)


def plan(
    tournament: Tournament, rows: list[Row], choices: dict[int, str] | None = None,
    new_clubs: Iterable[str] = (),
) -> Plan:  # fmt: skip
    """Decide every row; writes nothing. ``choices``: the organiser's answers (:func:`choices_from`);
    ``new_clubs``: the unknown clubs the organiser chose to create (names as typed)."""
    clubs = _known_clubs()
    approved = {club_key(n) for n in new_clubs if n.strip()}
    entered = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    seen: dict[tuple, int] = {}
    creating: dict[str, str] = {}
    unknown: dict[str, str] = {}
    items = []
    for row in rows:
        item = PlanRow(row)
        items.append(item)
        _check(row, item)
        item.club_name = row.get("club")
        if item.club_name:
            item.club = clubs.get(club_key(item.club_name))
            if item.club is None:
                if club_key(item.club_name) in approved:
                    creating.setdefault(club_key(item.club_name), item.club_name)
                else:
                    unknown.setdefault(club_key(item.club_name), item.club_name)
                    item.unknown_club = True
        if item.problems:
            item.action = REFUSED
            continue
        last, first = row.get("last_name"), row.get("first_name")
        _identify(item, (choices or {}).get(row.number), entered, tournament.club.name if tournament.club else None)
        who = ("p", item.player.pk) if item.player else (name_key(last, first), club_key(item.club_name))
        if who in seen:
            item.problems = [ENTRY.problem("import_duplicate", first=seen[who])]
            item.action = REFUSED
            continue
        seen[who] = row.number
        if item.unknown_club:
            item.problems.append(ENTRY.problem("import_unknown_club", club=item.club_name))
            item.action = DECIDE
        if item.action == DECIDE:
            continue
        if item.player is None:
            item.action = CREATE
        elif item.player.pk in entered:
            item.action = ENTERED
        else:
            item.action = MATCH
    wanted = {club_key(i.club_name) for i in items if i.action in (CREATE, MATCH) and i.club_name}
    return Plan(items, [name for key, name in creating.items() if key in wanted], list(unknown.values()))


# ---------------------------------------------------------------------------------------------
# step 3: writing it
# ---------------------------------------------------------------------------------------------


def _new_club(name: str) -> Club:
    base = slugify(to_latin(name))[:70] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return Club.objects.create(name=name, slug=slug)


def _new_player(item: PlanRow) -> Player:
    row = item.row
    player = Player(
        last_name=row.get("last_name"),
        first_name=row.get("first_name"),
        last_name_latin=row.get("last_name_latin"),
        first_name_latin=row.get("first_name_latin"),
        email=row.get("email"),
        birth_year=item.birth_year,
    )
    if item.category is not None:
        player.category = item.category
    if item.rating is not None:
        player.rating = item.rating
    player.save()
    if item.club is not None:
        Membership.objects.create(player=player, club=item.club, started_on=date.today())
    return player


@transaction.atomic
def apply(
    tournament: Tournament, rows: list[Row], user, reason: str = "import", choices: dict[int, str] | None = None,
    new_clubs: Iterable[str] = (),
) -> Plan:  # fmt: skip
    """Plan ``rows`` again (the database may have changed since the preview) and write the plan.

    Rows still waiting for the organiser's choice (``decide``) are not imported; only the
    clubs in ``new_clubs`` (the organiser's explicit choice) are created.
    """
    result = plan(tournament, rows, choices, new_clubs)
    created_clubs = {club_key(name): _new_club(name) for name in result.new_clubs}
    for item in result.rows:
        if item.action not in (CREATE, MATCH):
            continue
        if item.club is None and item.club_name:
            item.club = created_clubs[club_key(item.club_name)]
        if item.action == CREATE:
            item.player = _new_player(item)
        player = item.player
        section = section_for(tournament, item.category or player.category)
        entry = enter(tournament, player, user, section, reason, category=item.category or player.category)
        if item.rating is not None and entry.seed_rating != item.rating:
            Entry.objects.filter(pk=entry.pk).update(seed_rating=item.rating)
    return result


# ---------------------------------------------------------------------------------------------
# the same file as a club's member list (the club's members page)
# ---------------------------------------------------------------------------------------------

MEMBER = "member"  # a current member of the club already: left alone


def plan_members(club: Club, rows: list[Row], choices: dict[int, str] | None = None) -> Plan:
    """Decide every row of a member list for ``club``; writes nothing.

    The same reading and checks as an entry list; a row's ``club`` column is
    ignored (the list is the club's). Who the row is, is the identity service's
    rule: a current member of the club with the same name (or anyone with the same
    email) is that player — left alone when a member already (``member``), else
    joining (``match``); a namesake elsewhere (another club, no club, another
    alphabet) is proposed to the organiser (``decide``), never taken over; nobody
    found is a new player (``create``).
    """
    seen: dict[tuple, int] = {}
    members = set(club.memberships.filter(Membership.current_q()).values_list("player_id", flat=True))
    items = []
    for row in rows:
        item = PlanRow(row, club=club, club_name=club.name)
        items.append(item)
        _check(row, item)
        if item.problems:
            item.action = REFUSED
            continue
        last, first = row.get("last_name"), row.get("first_name")
        _identify(item, (choices or {}).get(row.number), set())
        who = ("p", item.player.pk) if item.player else (name_key(last, first),)
        if who in seen:
            item.problems = [ENTRY.problem("import_duplicate", first=seen[who])]
            item.action = REFUSED
            continue
        seen[who] = row.number
        if item.action == DECIDE:
            continue
        if item.player is None:
            item.action = CREATE
        else:
            item.action = MEMBER if item.player.pk in members else MATCH
    return Plan(items, [])


@transaction.atomic
def apply_members(
    club: Club, rows: list[Row], on: date | None = None, choices: dict[int, str] | None = None
) -> Plan:
    """Plan ``rows`` again and write it: new players, and open memberships from ``on`` (today).

    Rows still waiting for the organiser's choice (``decide``) are not imported.
    """
    result = plan_members(club, rows, choices)
    started = on or date.today()
    for item in result.rows:
        if item.action == CREATE:
            item.player = _new_player(item)  # with its open membership in the club
        elif item.action == MATCH:
            Membership.objects.create(player=item.player, club=club, started_on=started)
    return result


# --- the preview between upload and "Import": the parsed rows wait in the session --------------


def stash_upload(session, key: str, form) -> list[Row] | None:
    """Read the valid upload ``form``'s file and keep its rows under ``key`` until confirmed.

    A file refused as a whole becomes the form's ``file`` error (None is returned).
    Both import pages (entries, club members) use this, so confirming never needs the
    file again.
    """
    upload = form.cleaned_data["file"]
    try:
        rows = read_upload(upload)
    except ImportRefused as exc:
        form.add_error("file", exc.problem.message(current_language()))
        return None
    session[key] = {"name": upload.name, "rows": [r.to_data() for r in rows]}
    return rows


def stashed_rows(session, key: str) -> tuple[list[Row], str] | None:
    """The rows kept by :func:`stash_upload` and the file's name, or None when the preview expired."""
    stored = session.get(key)
    if not stored:
        return None
    return [Row.from_data(r) for r in stored["rows"]], stored.get("name", "")


def keep_rows(session, key: str, rows: list[Row]) -> None:
    """Keep only ``rows`` of the stashed upload (those still waiting for the organiser's choice)."""
    stored = session.get(key) or {}
    session[key] = {"name": stored.get("name", ""), "rows": [r.to_data() for r in rows]}
