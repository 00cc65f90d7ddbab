"""``manage.py swiss_pair``: pairs the next round of a TRF file; clear errors, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.paths import ROOT
from tournaments.pairing.simulate import simulate
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.trf import dump_trf, from_results


@pytest.fixture
def trf_file(tmp_path):
    t = simulate(15, 3, seed=11)
    names = {e.id: f"Игрок {e.id}" for e in t.entrants}
    path = tmp_path / "club.trf"
    path.write_text(dump_trf(from_results(t.entrants, t.results, names, "Club", 7)), "utf-8")
    return path, pair_swiss(t.next_input())


def test_json_output_is_exactly_pairs_and_bye_with_start_numbers(trf_file):
    path, expected = trf_file
    out = StringIO()
    call_command("swiss_pair", str(path), "--json", stdout=out)
    payload = json.loads(out.getvalue())
    assert set(payload) == {"pairs", "bye"}
    assert payload["pairs"] == [[p.a, p.b] for p in expected.pairings]
    assert payload["bye"] is not None and payload["bye"] == expected.pairing_bye
    used = sorted([x for pair in payload["pairs"] for x in pair] + [payload["bye"]])
    assert used == list(range(1, 16))


def test_readable_output_lists_tables_names_and_the_bye(trf_file):
    path, expected = trf_file
    out = StringIO()
    call_command("swiss_pair", str(path), stdout=out)
    text = out.getvalue()
    assert "round 4" in text
    first = expected.pairings[0]
    assert f"Игрок {first.a}" in text and f"Игрок {first.b}" in text
    assert f"bye: {expected.pairing_bye:>4}" in text


def test_malformed_file_is_a_command_error_naming_the_line(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text("012 X\n001    1      Short line\n", "utf-8")
    with pytest.raises(CommandError, match="line 2"):
        call_command("swiss_pair", str(bad), "--json", stdout=StringIO())


def test_command_line_prints_no_traceback_for_a_bad_file(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text("012 X\n@@@ nonsense\n", "utf-8")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "swiss_pair", str(bad), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "line 2" in proc.stderr


@pytest.mark.parametrize("content", ["", "\n \n", "012 Club\nXXR 7\n"])
def test_a_file_with_no_players_fails_instead_of_pairing_nobody(tmp_path, content):
    empty = tmp_path / "empty.trf"
    empty.write_text(content, "utf-8")
    with pytest.raises(CommandError, match="no player lines"):
        call_command("swiss_pair", str(empty), "--json", stdout=StringIO())
