"""``manage.py validate_match``: the thin shell over the match core, as a referee uses it."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(path: Path, *args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("validate_match", str(path), *args, stdout=out)
        code = 0
    except SystemExit as exc:
        code = int(exc.code)
    return code, out.getvalue()


def write(tmp_path: Path, data: object, name: str = "match.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_good_ledger_json_output(tmp_path):
    data = {
        "length": 5,
        "cube": True,
        "games": [
            {"winner": "a", "kind": "gammon", "cube": 2},
            {"winner": "b", "kind": "single"},
            {"winner": "a", "kind": "single", "cube": 2, "dropped": True},
        ],
        "final": [6, 1],
    }
    code, out = run(write(tmp_path, data), "--json")
    assert code == 0
    assert json.loads(out) == {
        "ok": True,
        "errors": [],
        "score": [6, 1],
        "winner": "a",
        "crawford_game": 2,
        "capped": [5, 1],  # 6:1 in a match to 5 is the result 5:1 (issue 46)
    }


def test_refused_ledger_lists_each_error_with_its_game(tmp_path):
    data = {
        "length": 5,
        "cube": True,
        "games": [
            {"winner": "a", "kind": "gammon", "cube": 2},
            {"winner": "b", "kind": "single", "cube": 2},
            {"winner": "a", "kind": "koks"},
        ],
    }
    code, out = run(write(tmp_path, data), "--json", "--lang", "en")
    payload = json.loads(out)
    assert code == 1 and payload["ok"] is False
    found = [(e["game"], e["code"]) for e in payload["errors"]]
    assert (2, "match.cube_in_crawford") in found
    assert (3, "match.bad_kind") in found
    assert (None, "match.match_unfinished") in found
    assert all(e["message"] for e in payload["errors"])
    assert payload["crawford_game"] == 2 and payload["winner"] is None


def test_summary_only_uses_defaults_for_missing_keys(tmp_path):
    # No "scoring", no "cube": backgammon without the cube, as in the book's crosstable.
    assert run(write(tmp_path, {"length": 5, "final": [7, 4]}), "--json")[0] == 0
    code, out = run(write(tmp_path, {"length": 5, "final": [9, 4]}), "--json")
    assert code == 1
    assert [e["code"] for e in json.loads(out)["errors"]] == ["match.final_jump_impossible"]


def test_messages_follow_the_language(tmp_path):
    path = write(tmp_path, {"length": 5, "final": [5, 5]})
    ru = json.loads(run(path, "--json", "--lang", "ru")[1])["errors"][0]["message"]
    en = json.loads(run(path, "--json", "--lang", "en")[1])["errors"][0]["message"]
    assert "обоих" in ru and "Both" in en


def test_text_output_for_a_referee(tmp_path):
    data = {
        "length": 3,
        "cube": True,
        "games": [{"winner": "b", "kind": "gammon"}, {"winner": "b", "kind": "single", "cube": 2}],
    }
    code, out = run(write(tmp_path, data), "--lang", "en")
    assert code == 1
    assert "Result refused" in out and "Crawford game: 2" in out
    assert "match.cube_in_crawford: Game 2: This is the Crawford game" in out


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ({"length": "five", "final": [5, 0]}, "length"),
        ({"length": 5, "cube": "yes", "final": [5, 0]}, "cube"),
        ({"length": 5, "lenght": 5, "final": [5, 0]}, "lenght"),
        ({"length": 5, "games": [{"winner": "a"}]}, "Game 1: kind"),
        ({"length": 5, "games": [{"winner": "a", "kind": "single", "cube": "2"}]}, "Game 1: cube"),
        ({"length": 5, "final": [5]}, "final"),
        ([1, 2, 3], "input"),
    ],
)
def test_malformed_fields_give_a_clear_error_object(tmp_path, content, field):
    code, out = run(write(tmp_path, content), "--json", "--lang", "en")
    payload = json.loads(out)
    assert code == 1 and payload["ok"] is False
    assert payload["errors"][0]["code"] == "match.bad_input"
    assert payload["errors"][0]["message"].startswith(f"{field}:")


def test_game_field_errors_carry_the_game_number(tmp_path):
    content = {"length": 5, "games": [{"winner": "a", "kind": "single"}, {"kind": 3}]}
    payload = json.loads(run(write(tmp_path, content), "--json")[1])
    assert [e["game"] for e in payload["errors"]] == [2]


def test_broken_json_is_an_error_object_not_a_traceback(tmp_path):
    code, out = run(write(tmp_path, '{"length": 5, "final": [5, 0]'), "--json", "--lang", "en")
    payload = json.loads(out)
    assert code == 2
    assert payload["errors"][0]["code"] == "match.file_not_json"
    assert "not valid JSON" in payload["errors"][0]["message"]


def test_a_file_that_is_not_utf8_is_named_in_russian_too(tmp_path):
    path = tmp_path / "cp1251.json"
    path.write_bytes('{"length": 5, "note": "Иванов"}'.encode("cp1251"))
    code, out = run(path, "--json", "--lang", "ru")
    payload = json.loads(out)
    assert code == 2 and payload["errors"][0]["code"] == "match.file_not_utf8"
    assert "не текст в кодировке UTF-8" in payload["errors"][0]["message"]


def test_missing_file_without_json_is_a_command_error(tmp_path):
    with pytest.raises(CommandError) as info:
        call_command("validate_match", str(tmp_path / "absent.json"), "--lang", "en")
    assert "cannot read" in str(info.value)
