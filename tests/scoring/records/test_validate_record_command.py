"""``manage.py validate_record``: readable and JSON output for book records and .mat files."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.paths import DATA, ROOT

RECORDS = DATA / "records"
MANAGE = ROOT / "manage.py"


def _json(path: Path, *args: str) -> dict:
    out = StringIO()
    call_command("validate_record", str(path), "--json", *args, stdout=out)
    text = out.getvalue().strip()
    data = json.loads(text)  # exactly one JSON document, nothing else
    assert {"ok", "variant", "errors", "checkpoints", "result"} <= set(data)
    assert set(data) <= {"ok", "variant", "errors", "notes", "checkpoints", "result", "players", "length", "final"}
    return data


def test_book_game_1_json() -> None:
    data = _json(RECORDS / "book_game1_backgammon.txt")
    assert data["ok"] is True and data["variant"] == "backgammon" and data["errors"] == []
    assert data["result"] == {"winner": "white", "kind": "single", "cube": 32, "points": 32}
    assert [c["ok"] for c in data["checkpoints"]] == [True, True]
    assert set(data["checkpoints"][0]) == {"move", "side", "ok", "diff"}


def test_book_game_4_json_reports_misprints() -> None:
    data = _json(RECORDS / "book_game4_long_nardy.txt", "--lang", "en")
    assert data["ok"] is False and data["variant"] == "long_nardy"
    first = data["errors"][0]
    assert set(first) == {"game", "move", "side", "code", "message"}
    assert (first["move"], first["side"], first["code"]) == (3, "black", "record.wrong_distance")
    assert "5/11" in first["message"]
    bad = [c for c in data["checkpoints"] if not c["ok"]]
    assert bad and bad[0]["diff"]["white"]["1"] == {"expected": 2, "actual": 0}
    assert data["result"]["winner"] == "white" and data["result"]["kind"] == "oyun"


def test_variant_override_changes_the_rules() -> None:
    data = _json(RECORDS / "book_game4_long_nardy.txt", "--variant", "backgammon")
    assert data["variant"] == "backgammon" and data["ok"] is False


def test_mat_file_is_detected_by_content(tmp_path: Path) -> None:
    data = _json(RECORDS / "gnubg_match3_seed7.mat")
    assert data["ok"] is True and data["errors"] == []
    assert data["result"] == {"winner": "white", "kind": "match", "cube": 1, "points": 5}
    broken = tmp_path / "broken.txt"
    broken.write_text(
        (RECORDS / "gnubg_match3_seed7.mat").read_text().replace("52: 13/8", "72: 13/8", 1)
    )
    data = _json(broken, "--lang", "ru")
    assert data["ok"] is False and data["errors"][0]["code"] == "record.bad_dice"
    assert data["errors"][0]["message"].startswith("Партия 1") and data["errors"][0]["game"] == 1
    assert data["final"] == [5, 0] and data["players"] == ["gnubg", "root"] and data["length"] == 3


def test_readable_output_in_both_languages() -> None:
    out = StringIO()
    call_command("validate_record", str(RECORDS / "book_game4_long_nardy.txt"), "--lang", "ru",
                 stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "Найдено проблем: 10." in text and "Ход 3, чёрные" in text
    out = StringIO()
    call_command("validate_record", str(RECORDS / "book_game1_backgammon.txt"), "--lang", "en",
                 stdout=out)  # fmt: skip
    assert "The record is clean." in out.getvalue() and "32 points" in out.getvalue()


@pytest.mark.parametrize(("name", "code"), [("book_game1_backgammon.txt", 0),
                                            ("book_game4_long_nardy.txt", 1)])  # fmt: skip
def test_exit_status_from_the_shell(name: str, code: int) -> None:
    done = subprocess.run(
        [sys.executable, str(MANAGE), "validate_record", str(RECORDS / name), "--json"],
        capture_output=True,
        text=True,
        cwd=MANAGE.parent,
        timeout=120,
    )
    assert done.returncode == code, done.stderr
    assert json.loads(done.stdout)["ok"] is (code == 0)


def test_a_windows_1251_file_reads_as_on_the_site(tmp_path: Path) -> None:
    cp1251 = tmp_path / "game1.txt"
    cp1251.write_bytes((RECORDS / "book_game1_backgammon.txt").read_text().encode("cp1251"))
    data = _json(cp1251)
    assert data["ok"] is True and data["result"]["points"] == 32


def test_an_unreadable_file_still_answers_one_json_object(tmp_path: Path) -> None:
    noise = tmp_path / "noise.mat"
    noise.write_bytes(b"\x00\x01\x02binary")
    done = subprocess.run(
        [sys.executable, str(MANAGE), "validate_record", str(noise), "--json", "--lang", "en"],
        capture_output=True, text=True, cwd=MANAGE.parent, timeout=120,
    )
    assert done.returncode == 2
    answer = json.loads(done.stdout)
    assert answer["ok"] is False and answer["error"]["code"] == "matchfile.not_text"
    assert "not a text file" in answer["error"]["message"]


def test_the_russian_summary_is_russian_and_says_the_final_score() -> None:
    out = StringIO()
    call_command("validate_record", str(RECORDS / "gnubg_match3_seed7.mat"), "--lang", "ru", stdout=out)
    text = out.getvalue()
    assert "Бэкгэммон" in text and "backgammon" not in text.lower().replace("gnubg", "")
    assert "Счёт матча: gnubg 5 : 0 root (матч до 3)." in text and "Матч выиграл gnubg." in text
    out = StringIO()
    call_command("validate_record", str(RECORDS / "book_game1_backgammon.txt"), "--lang", "ru", stdout=out)
    assert "гейм" in out.getvalue() and "single" not in out.getvalue()


@pytest.mark.parametrize("english", [True, False], ids=["en", "ru"])
def test_the_command_reads_the_sites_own_multi_game_txt_export(tmp_path: Path, english: bool) -> None:
    """One reader for the web and the command (issue 46): the match's ``.txt`` download,
    every game in the book's notation, once gave 134 errors here ("Recorded as move 1,
    but it is move 25") while the viewer read it cleanly."""
    from scoring.records.match_files import as_book_text
    from scoring.viewer.frames import view_text

    mat = (RECORDS / "gnubg_match7_seed5.mat").read_text()
    view = view_text(mat)
    path = tmp_path / "match.txt"
    path.write_text(as_book_text(view, players=("Petrov", "Orlov"), english=english), encoding="utf-8")
    data = _json(path)
    assert data["ok"] is True and data["errors"] == []
    assert data["final"] == list(view.final_score) and data["players"] == ["Petrov", "Orlov"]
    assert data["length"] == 7 and data["result"]["winner"] == "black"


def test_the_command_reads_gnubgs_pass_rows() -> None:
    data = _json(RECORDS / "gnubg_match5_pass_rows.mat")
    assert data["ok"] is True and data["final"] == [2, 10]
