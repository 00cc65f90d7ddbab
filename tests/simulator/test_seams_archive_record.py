"""Seam found by the simulator: a tournament whose match has an attached record could not be
archived (the file's kept replay is binary, and the archive is JSON). The archive leaves the
kept replay out; the restored file is replayed when first read, and reads the same."""

from __future__ import annotations

import io
import json

import pytest

from scoring.archive import backup as archive
from scoring.models import MatchFile, MatchFileState
from scoring.records import match_files
from tests.factories import MatchFactory, UserFactory
from tests.simulator.records import mat_for

pytestmark = pytest.mark.django_db


def test_an_event_with_an_attached_record_archives_and_restores():
    match = MatchFactory(confirmed=True)
    tournament = match.round.tournament
    user = UserFactory(is_superuser=True)
    text = mat_for((match.score_a, match.score_b), length=0, players=("Fedorov", "Sokolov"), seed=7)
    mf = match_files.store(match_files.check_text(text, name="m.mat"), tournament=tournament, match=match)
    assert bytes(MatchFile.objects.get(pk=mf.pk).replay)  # the replay is kept with the file
    match_files.attach(mf, user, first_is="a", despite=True, despite_reason="names typed at home")
    out = io.StringIO()
    archive.export(tournament, out)
    restored = archive.load(json.loads(out.getvalue()), user, slug="restored").tournament
    copy = MatchFile.objects.get(tournament=restored)
    assert copy.state == MatchFileState.ATTACHED and copy.text == text
    check = match_files.stored_check(copy, restored.variant)
    assert check.final == match_files.stored_check(mf, tournament.variant).final
