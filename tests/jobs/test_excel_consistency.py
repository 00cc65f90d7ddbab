"""The Excel export says the same thing on every sheet, in the file's language (issue 27, "Excel
consistency"), and the public standings page writes tie-breaks as the scores are written.

Every workbook here is the real one: started on the public export page, built by the export job,
downloaded and read back with openpyxl. The event is a Swiss whose first round holds a win by
forfeit, a double forfeit, a void match and a drawn match, whose second round is played, and
whose third round is still on (four planned): every kind of round cell reaches the file. Draw
numbers start at 11, so a row position (1–8) can never pass for one.
"""

from __future__ import annotations

import io
import re
from datetime import date, datetime
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from openpyxl.workbook import Workbook

from scoring import workflow
from scoring.rules.match.categories import get_category
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.exports import sheet_name
from tournaments.models import Entry, Match, OfficialRole, ResultKind, Tournament
from tournaments.rounds import pairing_manager as pm
from tournaments.standings.crosstable import format_value

pytestmark = pytest.mark.usefixtures("fresh_cache")

SHEETS = ("standings", "crosstable", "pairings", "players")
CATEGORIES = (1, 3, 4, 5, 6, 7, 8, 9)
STARTS, ENDS = date(2026, 3, 7), date(2026, 3, 8)
CYRILLIC = re.compile("[А-Яа-яЁё]")


def swiss(slug: str, tiebreaks: list[str] | None = None) -> Tournament:
    """8 players, 4 rounds of two-game matches (a 1:1 match is drawn: half points)."""
    t = TournamentFactory(
        slug=slug, name="Spring Open", venue="Club Nardy", public=True, starts_on=STARTS, ends_on=ENDS,
        match_format="games", fixed_games=2, match_length=None, rounds_planned=4,
        tiebreaks=tiebreaks or [],
    )  # fmt: skip
    director = UserFactory(username=f"{slug}-director")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    players = [
        {"last_name": f"Игроков{i}", "first_name": "Пётр", "last_name_latin": f"Igrokov{i}",
         "first_name_latin": "Petr", "category": category}
        for i, category in enumerate(CATEGORIES)
    ]  # fmt: skip
    enter(t, players, first_number=11)
    kinds = {1: ResultKind.FORFEIT, 2: ResultKind.DOUBLE_FORFEIT, 3: ResultKind.VOID}
    for number in (1, 2, 3):
        [rnd] = pm.generate_next(t, user=director)
        pm.publish_round(rnd, user=director)
        if number == 3:
            break  # round 3 stays on: its results are pending
        for match in rnd.matches.order_by("table"):
            if match.entry_b_id is None:
                continue
            kind = kinds.get(match.table) if number == 1 else None
            if kind:
                workflow.record_kind_result(
                    match.pk, director, version=match.version, kind=kind,
                    winner="a" if kind == ResultKind.FORFEIT else None, reason="no show",
                )  # fmt: skip
            else:
                final = (1, 1) if match.table % 2 == 0 else (2, 0)
                workflow.submit_result(match.pk, director, version=match.version, final=final, confirm=True)
    return t


def export(client, t: Tournament, lang: str) -> Workbook:
    """The workbook as a visitor gets it: the export page, the job, the download."""
    started = client.post(reverse("public-export", kwargs={"slug": t.slug}), {"lang": lang})
    assert started.status_code == 302, started.content[:300]
    status = client.get(started["Location"] + "status/").json()
    assert status["state"] == "SUCCESS", status
    download = client.get(status["download"])
    return load_workbook(io.BytesIO(b"".join(download.streaming_content)))


def api_standings(client, t: Tournament) -> list[dict]:
    [section] = client.get(f"/api/tournaments/{t.slug}/standings/").json()["sections"]
    return section["rows"]


def table(ws) -> tuple[list, list[tuple]]:
    """The header row (row 3) and the body rows that hold a player (stops at the first blank)."""
    rows = list(ws.iter_rows(values_only=True))
    body = []
    for row in rows[3:]:
        if not any(v is not None for v in row):
            break
        body.append(row)
    return list(rows[2]), body


def draw_numbers(t: Tournament) -> dict[str, int]:
    return {e.player.display_name("ru"): e.draw_number for e in Entry.objects.filter(tournament=t)}


@pytest.mark.django_db
def test_excel_no_column_is_draw_number_on_every_sheet(client):
    t = swiss("no-column")
    wb = export(client, t, "ru")
    draw = draw_numbers(t)
    assert sorted(draw.values()) == list(range(11, 19))
    standings, crosstable, pairings, players = (wb[sheet_name(k, "ru")] for k in SHEETS)
    for ws, name_header in ((standings, "Игрок"), (crosstable, "Игрок"), (players, "Имя (рус.)")):
        header, body = table(ws)
        no, name = header.index("№"), header.index(name_header)
        assert [row[no] for row in body] == [draw[row[name]] for row in body], ws.title
        assert len(body) == 8
    # The rounds table names each opponent by the same number.
    header, body = table(crosstable)
    name = header.index("Игрок")
    opponents = {}
    for m in Match.objects.filter(round__tournament=t).exclude(entry_b=None).select_related("round"):
        a, b = m.entry_a.player.display_name("ru"), m.entry_b.player.display_name("ru")
        opponents[(a, m.round.number)], opponents[(b, m.round.number)] = draw[b], draw[a]
    for row in body:
        for rnd in (1, 2, 3):
            cell = row[header.index(f"Тур {rnd}")]
            if (row[name], rnd) in opponents:
                assert cell.split()[0] == str(opponents[(row[name], rnd)]), (row[name], rnd, cell)
    header, body = table(pairings)
    first, second = [i for i, h in enumerate(header) if h == "№"]
    a, b = header.index("Игрок 1"), header.index("Игрок 2")
    for row in body:
        assert row[first] == draw[row[a]]
        assert row[b] is None or row[second] == draw[row[b]]


@pytest.mark.django_db
def test_excel_running_total_empty_for_unplayed_rounds(client):
    t = swiss("running")
    header, body = table(export(client, t, "en")[sheet_name("crosstable", "en")])
    sums = [i for i, h in enumerate(header) if h == "Σ"]
    assert len(sums) == 4  # the four planned rounds
    total, name = header.index("Total"), header.index("Player")
    wins = {r["name_latin"]: r["values"][0]["value"] for r in api_standings(client, t)}
    kinds = {}
    for m in Match.objects.filter(round__tournament=t, round__number=1).exclude(entry_b=None):
        for e in (m.entry_a, m.entry_b):
            kinds[e.player.display_name("en")] = m.result_kind
    for row in body:
        after_1, after_2, after_3, after_4 = (row[i] for i in sums)
        # Rounds 1–2 are over for everybody — a forfeit, a double forfeit and a void match too.
        assert isinstance(after_1, int | float) and isinstance(after_2, int | float), row
        assert after_2 == row[total] == wins[row[name]]
        # Round 3 is still on, round 4 not paired: no running total, not the last one repeated.
        assert after_3 is None and after_4 is None, row
    assert {"forfeit", "double_forfeit", "void", "played"} <= set(kinds.values())
    for row in body:
        if kinds.get(row[name]) in ("double_forfeit", "void"):
            assert row[sums[0]] == 0  # shown as nothing gained, not left blank


@pytest.mark.django_db
def test_excel_shared_place_is_number_with_range_column(client):
    t = swiss("shared", tiebreaks=["wins"])  # no tie-break: players level on wins share
    api = {r["name_latin"]: r for r in api_standings(client, t)}
    assert any(r["shared"] for r in api.values())
    wb = export(client, t, "en")
    for key in ("standings", "crosstable"):
        ws = wb[sheet_name(key, "en")]
        header, body = table(ws)
        place, shared, name = header.index("Place"), header.index("Shared places"), header.index("Player")
        assert shared == place + 1
        for i, row in enumerate(body, start=4):
            expected = api[row[name]]
            assert row[place] == int(expected["place"].split("–")[0]), (key, row)
            assert ws.cell(i, place + 1).data_type == "n"  # a number cell, sortable
            assert row[shared] == (expected["place"] if expected["shared"] else None), (key, row)


@pytest.mark.django_db
def test_excel_shared_place_in_the_round_robin_grid_is_number_with_range_row(client):
    """The book's grid writes places in a row under the totals: numbers there too, and the
    ranges in a row of their own under the places they explain."""
    t = TournamentFactory(slug="shared-grid", system="round_robin", public=True, match_format="games",
                          fixed_games=2, match_length=None, rounds_planned=None)  # fmt: skip
    director = UserFactory(username="shared-grid-director")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    enter(t, [{"last_name": f"Кругов{i}", "first_name": "Иван"} for i in range(4)], first_number=11)
    for rnd in pm.generate_next(t, user=director):  # a round robin pairs every round at once
        pm.publish_round(rnd, user=director)
        for match in rnd.matches.exclude(entry_b=None):
            workflow.submit_result(match.pk, director, version=match.version, final=(1, 1), confirm=True)
    assert Match.objects.filter(round__tournament=t).count() == 6
    rows = list(export(client, t, "ru")[sheet_name("crosstable", "ru")].iter_rows(values_only=True))
    assert rows[2][:6] == ("№", "Игрок", 11, 12, 13, 14)  # every player drew every match
    [places] = [r for r in rows if r[0] == "Место"]
    [ranges] = [r for r in rows if r[0] == "Делят места"]
    assert places[2:6] == (1, 1, 1, 1)
    assert ranges[2:6] == ("1–4",) * 4


@pytest.mark.django_db
def test_excel_sheet_names_and_headers_follow_language_ru_and_en(client):
    t = swiss("language")
    ru, en = export(client, t, "ru"), export(client, t, "en")
    assert ru.sheetnames == ["Турнирное положение", "Турнирная таблица", "Пары", "Участники"]
    assert en.sheetnames == ["Standings", "Crosstable", "Pairings", "Players"]
    for ws in ru.worksheets:
        header, _body = table(ws)
        for cell in header:
            if isinstance(cell, str) and cell not in ("№", "Σ"):
                assert CYRILLIC.search(cell), f"{ws.title}: {cell!r} is not Russian"
        assert CYRILLIC.search(ws.cell(1, 1).value)  # the heading after the event's name
    # An English file has nothing Russian in it but the players' Russian spelling, which
    # the Players sheet keeps in its own column by design.
    for ws in en.worksheets:
        assert not CYRILLIC.search(ws.title)
        header, _body = table(ws)
        skip = header.index("Name (Russian)") if "Name (Russian)" in header else None
        for row in ws.iter_rows(values_only=True):
            for i, cell in enumerate(row):
                if i != skip and isinstance(cell, str):
                    assert not CYRILLIC.search(cell), f"{ws.title}: {cell!r}"


@pytest.mark.django_db
def test_excel_players_sheet_category_filled(client):
    t = swiss("category")
    category = {e.draw_number: e.player.category for e in Entry.objects.filter(tournament=t)}
    for lang, header_text in (("ru", "Категория"), ("en", "Category")):
        header, body = table(export(client, t, lang)[sheet_name("players", lang)])
        column, no = header.index(header_text), header.index("№" if lang == "ru" else "No.")
        for row in body:
            found = get_category(category[row[no]])
            assert row[column] == f"{found.number} · {found.ru if lang == 'ru' else found.en}", row
    assert sorted(category.values()) == sorted(CATEGORIES)


@pytest.mark.django_db
def test_excel_dates_and_places_are_date_and_number_cells(client):
    t = swiss("cells")
    for lang, shown in (("ru", "DD.MM.YYYY"), ("en", "YYYY-MM-DD")):
        wb = export(client, t, lang)
        for ws in wb.worksheets:
            first, last = ws.cell(2, 1), ws.cell(2, 2)
            assert first.is_date and last.is_date, ws.title
            assert (first.value, last.value) == (datetime(2026, 3, 7), datetime(2026, 3, 8))
            assert first.number_format == shown
            assert ws.column_dimensions["A"].width >= 10  # a date, not "########"
            assert ws.cell(2, 3).value == "Club Nardy"
        ws = wb[sheet_name("standings", lang)]
        assert [ws.cell(r, 1).data_type for r in range(4, 12)] == ["n"] * 8


# --- the web: tie-breaks written as the scores are --------------------------------------------


class _Cells(HTMLParser):
    """The text of every <th>/<td> of the standings table, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


@pytest.mark.django_db
def test_web_sonneborn_berger_shows_half(client):
    t = swiss("sb-web")
    api = api_standings(client, t)
    sb = [next(v["value"] for v in r["values"] if v["key"] == "sonneborn_berger") for r in api]
    assert any(v % 1 == 0.5 for v in sb) and any(v % 0.5 for v in sb)  # halves and quarters
    client.cookies["django_language"] = "en"
    parser = _Cells()
    parser.feed(client.get(reverse("public-standings", kwargs={"slug": t.slug})).content.decode())
    header, *rows = [r for r in parser.rows if r]
    column = header.index("SB")
    shown = [row[column] for row in rows]
    fraction = {0: "", 0.25: "¼", 0.5: "½", 0.75: "¾"}
    assert shown == [f"{int(v) or ''}{fraction[v % 1]}" or "0" for v in sb]
    assert not any("." in s for s in shown)


@given(st.integers(min_value=-400, max_value=400))
def test_web_value_format_reads_back_every_quarter(quarters):
    """The one formatter of the pages' numbers loses nothing: "2¾" is 2.75, "-½" is -0.5."""
    text = format_value(quarters / 4)
    assert "." not in text
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-")
    whole = "".join(ch for ch in body if ch.isdigit())
    part = {"": 0, "¼": 0.25, "½": 0.5, "¾": 0.75}[body[len(whole):]]
    assert sign * (int(whole or 0) + part) == quarters / 4
