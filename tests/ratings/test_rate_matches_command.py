"""``manage.py rate_matches``: the ratings core behind a command that needs no database content."""

from __future__ import annotations

import json
import math
import random
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from clubs.ratings.fibs import k_factor, win_probability


def run(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("rate_matches", str(path), *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "matches.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def by_hand(start, matches):
    """The issue's formula, written out once more, independently of the core."""
    table = {k: [v["rating"], v["experience"]] for k, v in start.items()}
    for m in matches:
        a, b = table.setdefault(m["a"], [1500.0, 0]), table.setdefault(m["b"], [1500.0, 0])
        n = m.get("length") or m["games"]
        if "games" in m:
            s = 1.0 if m["score_a"] > m["score_b"] else 0.0 if m["score_a"] < m["score_b"] else 0.5
        else:
            s = 1.0 if m["score_a"] >= n else 0.0
        ea = 1 / (10 ** ((b[0] - a[0]) * math.sqrt(n) / 2000) + 1)
        da = 4 * max(1, 5 - a[1] / 100) * math.sqrt(n) * (s - ea)
        db = 4 * max(1, 5 - b[1] / 100) * math.sqrt(n) * ((1 - s) - (1 - ea))
        a[0] += da
        b[0] += db
        a[1] += n
        b[1] += n
    return table


def random_history(rng: random.Random, players: int, count: int):
    names = [f"Игрок {i}" for i in range(players)]
    start = {n: {"rating": rng.uniform(1200, 1900), "experience": rng.randrange(0, 900)}
             for n in names[: players // 2]}  # fmt: skip
    matches = []
    for _ in range(count):
        a, b = rng.sample(names, 2)
        if rng.random() < 0.7:
            n = rng.choice([1, 3, 5, 7, 9, 11])
            lose = rng.randrange(0, n)
            x, y = (n + rng.randrange(0, 3), lose) if rng.random() < 0.5 else (lose, n)
            matches.append({"a": a, "b": b, "length": n, "score_a": x, "score_b": y})
        else:
            g = rng.choice([2, 4, 6])
            x = rng.randrange(0, 2 * g + 1) / 2
            matches.append({"a": a, "b": b, "games": g, "score_a": x, "score_b": g - x})
    return start, matches


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_json_output_agrees_with_the_formula_on_a_long_random_history(tmp_path, seed):
    start, matches = random_history(random.Random(seed), 40, 2000)
    code, out, _ = run(write(tmp_path, {"start": start, "matches": matches}), "--json")
    assert code == 0
    ratings = json.loads(out)["ratings"]
    expected = by_hand(start, matches)
    assert set(ratings) == set(expected)
    for name, (rating, experience) in expected.items():
        assert ratings[name]["rating"] == pytest.approx(rating, abs=1e-6)
        assert ratings[name]["experience"] == experience


def test_start_is_optional_and_the_table_shows_two_decimals(tmp_path):
    data = {"matches": [{"a": "Ivanov", "b": "Petrov", "length": 5, "score_a": 5, "score_b": 3}]}
    code, out, _ = run(write(tmp_path, data), "--lang", "en")
    assert code == 0
    up = 1500 + 4 * k_factor(0) * math.sqrt(5) * (1 - win_probability(1500, 1500, 5))
    assert f"{up:.2f}" in out and "Ivanov" in out.splitlines()[1]
    assert "Player" in out.splitlines()[0]


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        ({"matches": [{"a": "A", "b": "B", "length": 5, "score_a": 4, "score_b": 3}]},
         "ratings.points_score", "Match 1 (A – B)"),
        ({"start": {"A": {"rating": 1500, "experience": -5}}, "matches": []},
         "ratings.bad_experience", "A"),
        ({"start": {"A": {"rating": "high", "experience": 0}}, "matches": []},
         "ratings.bad_rating", "high"),
        ({"matches": [{"a": "A", "b": "B", "games": 4, "score_a": 3, "score_b": 3}]},
         "ratings.games_score", "Match 1 (A – B)"),
        ({"matches": [{"a": "A", "b": "B", "length": 0, "score_a": 0, "score_b": 0}]},
         "ratings.bad_length", "Match 1"),
        ({"matches": [{"a": "A", "b": "B", "score_a": 1, "score_b": 0}]},
         "ratings.length_and_games", "Match 1"),
        ({"matches": [{"a": "A", "length": 3, "score_a": 3, "score_b": 0}]},
         "ratings.missing_field", "\"b\""),
        ({"match": []}, "ratings.bad_file", "matches"),
    ],
)  # fmt: skip
def test_bad_input_is_a_coded_error_naming_the_match_exit_1(tmp_path, data, code, words):
    status, out, _ = run(write(tmp_path, data), "--json", "--lang", "en")
    assert status == 1
    errors = json.loads(out)["errors"]
    assert code in [e["code"] for e in errors]
    assert any(words in e["message"] for e in errors)


def test_unknown_player_with_strict_and_russian_text(tmp_path):
    data = {"start": {"A": {"rating": 1600, "experience": 0}},
            "matches": [{"a": "A", "b": "Б", "length": 3, "score_a": 3, "score_b": 1}]}  # fmt: skip
    status, _, err = run(write(tmp_path, data), "--strict", "--lang", "ru")
    assert status == 1
    assert "ratings.unknown_player: Матч 1 (A – Б): игрока Б нет в начальной таблице." in err
    assert run(write(tmp_path, data), "--json")[0] == 0  # without --strict Б starts at 1500


def test_unreadable_and_broken_files(tmp_path):
    status, _, err = run(tmp_path / "absent.json", "--lang", "en")
    assert status == 1 and "ratings.file_unreadable" in err
    status, out, _ = run(write(tmp_path, "{not json"), "--json", "--lang", "en")
    assert status == 1 and json.loads(out)["errors"][0]["code"] == "ratings.file_not_json"
