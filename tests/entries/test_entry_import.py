"""Importing entries from CSV, XLSX and TRF-16: the command exactly as issue 12 says, and the plan."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import Workbook

from clubs.models import Club, Membership, Player
from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
)
from tournaments.models import AuditEntry, Entry

pytestmark = pytest.mark.django_db

RU_HEADER = ["Фамилия", "Имя", "Клуб", "Категория", "Рейтинг", "email"]
EN_HEADER = ["last_name", "first_name", "club", "category", "rating", "email"]
ROWS = [
    ["Семёнов", "Юрий", "Нарды-Клуб", "5", "1620", "yury@example.org"],  # row 2: good
    ["", "Без фамилии", "", "3", "", ""],  # row 3: no last name
    ["Хайкин", "Борис", "", "мастер", "1800,5", ""],  # row 4: good, category by name
    ["Щукин", "Иван", "", "10", "", ""],  # row 5: bad category
    ["Петров", "Пётр", "", "2", "много", ""],  # row 6: bad rating
    ["Сидоров", "Олег", "", "", "", "not-an-email"],  # row 7: bad email
    ["Semenov", "Yury", "нарды-клуб", "", "", ""],  # row 8: the same person as row 2
]
EXPECTED_ERROR_ROWS = [3, 5, 6, 7, 8]


def write_csv(path, header, rows, *, bom=False, delimiter=","):
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows([header, *rows])
    path.write_bytes(("\ufeff" if bom else "").encode() + out.getvalue().encode("utf-8"))
    return path


def write_xlsx(path, header, rows):
    book = Workbook()
    sheet = book.active
    sheet.append(header)
    for r in rows:
        sheet.append([int(c) if c.isdigit() else c for c in r])
    book.save(path)
    return path


def run(slug, path, *args):
    from io import StringIO

    out = StringIO()
    call_command("import_entries", slug, str(path), *args, stdout=out)
    return out.getvalue()


def run_json(slug, path, *args):
    return json.loads(run(slug, path, "--json", *args))


NEW_CLUB = ("--new-club", "Нарды-Клуб")  # the organiser's explicit choice: create the club ROWS name


@pytest.fixture
def event():
    return TournamentFactory(slug="club-open")


@pytest.mark.parametrize("bom", [False, True], ids=["utf8", "utf8-bom"])
@pytest.mark.parametrize("header", [RU_HEADER, EN_HEADER], ids=["ru", "en"])
def test_csv_good_rows_imported_bad_rows_refused_with_spreadsheet_row_numbers(event, tmp_path, bom, header):
    path = write_csv(tmp_path / "entries.csv", header, ROWS, bom=bom)
    summary = run_json("club-open", path, *NEW_CLUB)
    assert summary["created"] == 2 and summary["existing"] == 0
    assert [e["row"] for e in summary["errors"]] == EXPECTED_ERROR_ROWS
    assert set(summary) == {"created", "existing", "errors", "undecided", "done", "rows"}
    assert summary["undecided"] == []
    assert all(set(e) == {"row", "message"} for e in summary["errors"])
    assert summary["errors"][0]["message"] == "No last name."
    assert "10" in summary["errors"][1]["message"]
    assert summary["errors"][4]["message"] == "The same person as row 2."
    names = sorted(Entry.objects.filter(tournament=event).values_list("player__last_name", flat=True))
    assert names == ["Семёнов", "Хайкин"]
    semenov = Player.objects.get(last_name="Семёнов")
    assert (semenov.category, semenov.rating, semenov.email) == (5, 1620.0, "yury@example.org")
    assert Player.objects.get(last_name="Хайкин").category == 8 and Player.objects.get(last_name="Хайкин").rating == 1800.5
    club = Club.objects.get(name="Нарды-Клуб")  # an unknown club is created when the organiser says so
    assert Membership.objects.filter(player=semenov, club=club, ended_on__isnull=True).exists()


def test_reimport_changes_nothing(event, tmp_path):
    path = write_csv(tmp_path / "entries.csv", RU_HEADER, ROWS)
    run_json("club-open", path, *NEW_CLUB)
    counts = (Player.objects.count(), Entry.objects.count(), Club.objects.count())
    again = run_json("club-open", path, *NEW_CLUB)
    assert again["created"] == 0 and again["existing"] == 2
    assert (Player.objects.count(), Entry.objects.count(), Club.objects.count()) == counts


def test_dry_run_writes_nothing_and_gives_the_plan_per_row(event, tmp_path):
    path = write_csv(tmp_path / "entries.csv", RU_HEADER, ROWS)
    summary = run_json("club-open", path, "--dry-run", *NEW_CLUB)
    assert "created" not in summary and summary["dry_run"] is True  # nothing was created
    assert summary["would_be"] == {
        "entries": 2, "new_players": 2, "existing_players": 0, "already_entered": 0, "waiting": 0,
        "refused": 5, "new_clubs": ["Нарды-Клуб"], "unknown_clubs": [],
    }  # fmt: skip
    plans = {r["row"]: r["plan"] for r in summary["rows"]}
    assert plans == {2: "new", 3: "refused", 4: "new", 5: "refused", 6: "refused", 7: "refused", 8: "refused"}
    assert summary["rows"][-1]["message"] == "The same person as row 2."
    assert not Entry.objects.exists() and not Player.objects.exists() and not Club.objects.exists()
    assert not AuditEntry.objects.exists()


def test_an_unknown_club_is_never_created_silently(event, tmp_path):
    path = write_csv(tmp_path / "entries.csv", RU_HEADER, ROWS)
    summary = run_json("club-open", path)
    assert summary["done"]["unknown_clubs"] == ["Нарды-Клуб"] and summary["done"]["new_clubs"] == []
    waiting = [r for r in summary["rows"] if r["plan"] == "waiting"]
    assert [r["row"] for r in waiting] == [2] and "Нарды-Клуб" in waiting[0]["message"]
    assert not Club.objects.exists() and not Player.objects.filter(last_name="Семёнов").exists()


def test_a_club_is_found_by_its_slug_or_its_name_in_any_case(event, tmp_path):
    club = ClubFactory(name="Нарды-Клуб «Зарик»", slug="zarik-club")
    rows = [["Алиев", "Рашид", "zarik-club", "", "", ""], ["Гусейнов", "Эльдар", "НАРДЫ-КЛУБ «ЗАРИК»", "", "", ""]]
    summary = run_json("club-open", write_csv(tmp_path / "e.csv", RU_HEADER, rows))
    assert summary["created"] == 2 and Club.objects.count() == 1
    assert Membership.objects.filter(club=club).count() == 2


def test_xlsx_with_numbers_in_cells(event, tmp_path):
    path = write_xlsx(tmp_path / "entries.xlsx", EN_HEADER, ROWS)
    summary = run_json("club-open", path, *NEW_CLUB)
    assert summary["created"] == 2
    assert [e["row"] for e in summary["errors"]] == EXPECTED_ERROR_ROWS
    assert Player.objects.get(last_name="Семёнов").category == 5


def test_russian_messages_on_request(event, tmp_path):
    path = write_csv(tmp_path / "entries.csv", RU_HEADER, ROWS)
    summary = run_json("club-open", path, "--dry-run", "--language", "ru")
    assert summary["errors"][0]["message"] == "Нет фамилии."


def test_existing_player_of_the_club_is_matched_not_duplicated(event, tmp_path):
    club = ClubFactory(name="Нарды-Клуб")
    player = PlayerFactory(last_name="Семёнов", first_name="Юрий", last_name_latin="", first_name_latin="")
    Membership.objects.create(player=player, club=club, started_on="2020-01-01")
    path = write_csv(tmp_path / "e.csv", EN_HEADER, [["Semyonov", "Yuriy", "НАРДЫ-КЛУБ", "", "", ""]])
    assert run_json("club-open", path)["created"] == 1
    assert Entry.objects.get(tournament=event).player == player
    assert Player.objects.count() == 1 and Club.objects.count() == 1


def test_player_already_entered_counts_as_existing(event, tmp_path):
    EntryFactory(tournament=event, player=PlayerFactory(last_name="Хайкин", first_name="Борис", short=False))
    path = write_csv(tmp_path / "e.csv", RU_HEADER, [["Хайкин", "Борис", "", "", "", ""]], delimiter=";")
    summary = run_json("club-open", path)
    assert (summary["created"], summary["existing"], summary["errors"], summary["undecided"]) == (0, 1, [], [])
    assert summary["rows"] == [{"row": 2, "name": "Хайкин Борис", "plan": "entered",
                                "player": Entry.objects.get().player_id, "club": None}]


def test_late_import_after_round_one_is_published(event, tmp_path):
    RoundFactory(tournament=event, number=1)
    path = write_csv(tmp_path / "e.csv", RU_HEADER, [["Хайкин", "Борис", "", "", "", ""]])
    run_json("club-open", path)
    assert Entry.objects.get(tournament=event).joined_round == 2


TRF = """012 Club Open
042 2026/03/01
001    1 m    Semenov, Yury                     1620 RUS             1980/01/01  0.0    1
001    2 m    Хайкин, Борис                     0000 RUS                         0.0    2
001    3 m                                      1500 RUS                         0.0    3
"""


def test_trf_player_lines(event, tmp_path):
    path = tmp_path / "event.trf"
    path.write_text(TRF, encoding="utf-8")
    summary = run_json("club-open", path)
    assert summary["created"] == 2
    assert summary["errors"] == [{"row": 5, "message": "No last name."}]
    semenov = Player.objects.get(last_name="Semenov")
    assert (semenov.first_name, semenov.rating) == ("Yury", 1620.0)
    assert Player.objects.get(last_name="Хайкин").rating == 1500.0  # 0000: no rating, the default


def test_refused_files(event, tmp_path):
    no_name = write_csv(tmp_path / "x.csv", ["Имя", "Клуб"], [["Юрий", "К"]])
    with pytest.raises(CommandError, match="No last name column"):
        run("club-open", no_name)
    latin1 = tmp_path / "y.csv"
    latin1.write_bytes("Фамилия\nСемёнов\n".encode("cp1251"))
    with pytest.raises(CommandError, match="UTF-8"):
        run("club-open", latin1)
    with pytest.raises(CommandError, match="No tournament"):
        run("nope", latin1)
    assert not Entry.objects.exists()


def test_refused_file_in_json_is_still_the_json_shape(event, tmp_path, capsys):
    no_name = write_csv(tmp_path / "x.csv", ["Имя"], [["Юрий"]])
    from io import StringIO

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("import_entries", "club-open", str(no_name), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["created"] == 0 and data["errors"][0]["row"] == 1
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("import_entries", "club-open", str(no_name), "--json", "--dry-run", stdout=out)
    data = json.loads(out.getvalue())
    assert "created" not in data and data["dry_run"] is True and data["errors"][0]["row"] == 1


def test_human_output_lists_rows(event, tmp_path):
    path = write_csv(tmp_path / "entries.csv", RU_HEADER, ROWS)
    text = run("club-open", path, "--dry-run", *NEW_CLUB)
    assert "Dry run: 2 would be entered, 0 already entered, 5 refused." in text
    assert "new club: Нарды-Клуб" in text
    assert "unknown club, not created: Нарды-Клуб" in run("club-open", path, "--dry-run")


@pytest.mark.parametrize("row", [["Mamedov", "Farid", "", "", "1850", ""], ["Мамедов", "Фарид", "", "", "", ""]])
def test_a_namesake_in_another_alphabet_is_proposed_not_duplicated(tmp_path, row):
    """Issue 30: «Mamedov,Farid,,,1850» (or «Мамедов,Фарид», no club) is the organiser's member Мамедов Фарид."""
    club = ClubFactory(name="Нарды-Клуб «Зарик»", slug="zarik-club")
    TournamentFactory(slug="host-open", club=club)
    farid = PlayerFactory(last_name="Мамедов", first_name="Фарид", last_name_latin="Mamedov",
                          first_name_latin="Farid", rating=1850, category=8)  # fmt: skip
    Membership.objects.create(player=farid, club=club, started_on="2020-01-01")
    path = write_csv(tmp_path / "e.csv", EN_HEADER, [row])
    plan = run_json("host-open", path, "--dry-run")
    assert plan["rows"] == [{"row": 2, "name": f"{row[0]} {row[1]}", "plan": "waiting", "player": None,
                             "club": None, "candidates": [farid.pk], "proposed": farid.pk,
                             "message": plan["rows"][0]["message"]}]  # fmt: skip
    assert plan["would_be"]["new_players"] == 0 and f"#{farid.pk}" in plan["rows"][0]["message"]
    assert f"(proposed: #{farid.pk})" in run("host-open", path, "--dry-run")
    done = run_json("host-open", path, "--accept-proposed")
    assert done["rows"][0]["plan"] == "existing" and done["rows"][0]["player"] == farid.pk
    assert Player.objects.count() == 1 and Entry.objects.get().player == farid
