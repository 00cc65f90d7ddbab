"""A big event's archive is streamed (issue 50): written a batch of rows at a time as the tables
are read through a cursor, so what an export holds does not grow with the event."""

from __future__ import annotations

import io
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.archive import backup as archive
from tests.factories import swiss_event

pytestmark = pytest.mark.django_db


def test_the_archive_is_written_in_batches_and_reads_back_whole(monkeypatch):
    t = swiss_event(12, slug="streamed")  # 3 rounds of 6 matches, 12 players
    whole = json.loads(json.dumps(archive.dump(t), cls=archive.Encoder))
    monkeypatch.setattr(archive, "CHUNK", 4)
    pieces = archive.chunks(t)
    with CaptureQueriesContext(connection) as queries:
        head = next(pieces)
    assert '"format": "zarik-tournament"' in head and len(queries) == 0  # nothing read yet
    rest = list(pieces)
    text = head + "".join(rest)
    # No piece holds more than a batch of rows (one a line): the export never holds a table.
    assert max(piece.count("\n  {") for piece in rest) <= 4
    assert sum(piece.count("\n  {") for piece in rest) >= 18 + 12  # matches and players
    streamed = json.loads(text)
    assert {k: v for k, v in streamed.items() if k != "exported_at"} == {
        k: v for k, v in whole.items() if k != "exported_at"
    }
    assert len(streamed["tables"]["matches"]) == 18 and len(streamed["players"]) == 12


def test_the_command_writes_what_the_download_streams(tmp_path):
    t = swiss_event(4, slug="command")
    out = io.StringIO()
    archive.export(t, out)
    data = archive.read(io.StringIO(out.getvalue()))
    assert data["slug"] == "command" and len(data["tables"]["entries"]) == 4
