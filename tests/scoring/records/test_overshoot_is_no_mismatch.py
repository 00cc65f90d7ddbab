"""A match won by an overshoot (gnubg's file ends 4:8 in a match to 7; the official result is
4:7) is no mismatch on the record page, at attaching, in the bulk upload or in the API (issue 46)."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import workflow
from scoring.models import MatchFile, MatchFileState
from tests.scoring.records.test_record_files import MAT7, named, world  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _confirm(match, referee, final):
    workflow.submit_result(match.pk, referee, version=match.version, final=final, confirm=True)
    match.refresh_from_db()


def _upload(client, match, text):
    url = reverse("record-upload", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})
    return client.post(url, {"file": SimpleUploadedFile("m.mat", text.encode(), content_type="text/plain")})


def test_the_record_page_shows_the_capped_score_and_no_official_mismatch(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    _confirm(m1, referee, (4, 7))
    client.force_login(referee)
    response = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    html = client.get(response.url + "?first_is=a").content.decode()
    assert "4:8" in html and "4:7" in html  # the file's raw score with the capped one beside it
    assert "differs from the official" not in html and "отличается от официального" not in html


def test_an_overshoot_file_attaches_without_being_forced(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    _confirm(m1, referee, (4, 7))
    client.force_login(referee)
    response = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    done = client.post(response.url, {"action": "attach", "first_is": "a"})
    assert done.status_code == 302
    assert MatchFile.objects.get().state == MatchFileState.ATTACHED


def test_a_really_different_official_score_still_needs_the_forced_attach(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    _confirm(m1, referee, (3, 7))
    client.force_login(referee)
    response = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    html = client.get(response.url + "?first_is=a").content.decode()
    assert "differs from the official" in html or "отличается от официального" in html
    assert client.post(response.url, {"action": "attach", "first_is": "a"}).status_code == 400


def test_the_bulk_upload_counts_an_overshoot_file_as_matched(client, world):  # noqa: F811
    t, referee, rnd, m1, _m2 = world
    _confirm(m1, referee, (4, 7))
    client.force_login(referee)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("t1.mat", named(MAT7, "Petrov", "Orlov"))
    url = reverse("round-records", kwargs={"slug": t.slug, "round_id": rnd.pk})
    client.post(url, {"files": [SimpleUploadedFile("round.zip", buffer.getvalue())]})
    assert MatchFile.objects.get(name="t1.mat").summary["verdict"] == "matched"


def test_the_api_check_gives_the_same_capped_result_for_both_scores(client, world):  # noqa: F811
    _t, _referee, _rnd, m1, _m2 = world
    for final in ([4, 8], [4, 7]):
        body = client.post(f"/api/matches/{m1.pk}/check/", {"final": final}, content_type="application/json").json()
        assert body["ok"] and body["capped"] == [4, 7]
