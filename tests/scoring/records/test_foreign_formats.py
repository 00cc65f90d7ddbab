"""Records only GNU Backgammon reads (its native .sgf; GamesGrid .sgg, .tmg, .gam) come in
through gnubg: converted to its .mat, then read and guarded like an uploaded .mat (issue 46)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from scoring.models import MatchFile
from scoring.records import gnubg_program, match_files
from tests.scoring.records.test_record_files import DATA, world  # noqa: F401  (fixture)

SGF = (DATA / "gnubg_match5_pass_rows.sgf").read_text()
GNUBG = gnubg_program.find("gnubg", gnubg_program.DEFAULT_DIRS)
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed (.ci/run installs it)")


def test_gnubgs_sgf_is_told_by_its_content_and_other_formats_by_their_extension():
    assert gnubg_program.foreign_format("match.txt", SGF) == "sgf"  # whatever the file is called
    assert gnubg_program.foreign_format("m.sgg", "anything") == "sgg"
    assert gnubg_program.foreign_format("m.mat", (DATA / "gnubg_match7_seed5.mat").read_text()) is None
    assert gnubg_program.foreign_format("chess.sgf", "(;FF[4]GM[1]SZ[19])") is None  # SGF of go, not backgammon


@needs_gnubg
def test_an_sgf_reads_as_the_same_match_as_its_mat():
    check = match_files.read_file(SGF.encode(), name="m5.sgf")
    mat = match_files.read_file((DATA / "gnubg_match5_pass_rows.mat").read_bytes(), name="m5.mat")
    assert check.problems == [] and check.kind == "mat"
    assert (check.final, check.players, check.length) == (mat.final, mat.players, mat.length) == ((2, 10), ("gnubg", "root"), 5)


@needs_gnubg
@pytest.mark.django_db
def test_a_broken_sgf_gets_gnubgs_reason_never_a_500(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    check = match_files.read_file(b"(;FF[4]GM[6]CA[UTF-8] this is no game", name="bad.sgf")
    assert [p.code for p in check.problems] == ["matchfile.not_converted"]
    assert "could not read this .sgf record" in check.problems[0].message("en")
    assert "не смог прочитать" in check.problems[0].message("ru")
    client.force_login(referee)
    url = reverse("record-upload", kwargs={"slug": m1.round.tournament.slug, "match_id": m1.pk})
    response = client.post(url, {"file": SimpleUploadedFile("bad.sgf", b"(;FF[4]GM[6] nothing")}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "could not read this .sgf record" in response.content.decode()
    assert not MatchFile.objects.exists()


@needs_gnubg
@pytest.mark.django_db
def test_a_pasted_sgf_is_read_too(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    url = reverse("record-upload", kwargs={"slug": m1.round.tournament.slug, "match_id": m1.pk})
    assert client.post(url, {"text": SGF}).status_code == 302
    assert MatchFile.objects.get().summary["final"] == [2, 10]


@override_settings(ANALYSIS_GNUBG="/nonexistent/gnubg")
def test_without_gnubg_an_sgf_says_how_to_bring_it():
    check = match_files.read_file(SGF.encode(), name="m5.sgf")
    assert [p.code for p in check.problems] == ["matchfile.needs_gnubg"]
    assert "export it from gnubg as a .mat" in check.problems[0].message("en")


@needs_gnubg
@pytest.mark.django_db
def test_an_sgf_uploaded_to_a_match_is_kept_as_its_mat_and_compared(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    url = reverse("record-upload", kwargs={"slug": m1.round.tournament.slug, "match_id": m1.pk})
    response = client.post(url, {"file": SimpleUploadedFile("petrov-orlov.sgf", SGF.encode())})
    assert response.status_code == 302
    mf = MatchFile.objects.get()
    assert mf.kind == "mat" and mf.text.lstrip().startswith(";") and " 5 point match" in mf.text
    page = client.get(response.url + "?first_is=a").content.decode()
    assert "2:10" in page


@needs_gnubg
@pytest.mark.django_db
def test_the_paste_viewer_shows_an_sgf(client):
    page = client.post(reverse("record-paste"), {"text": SGF}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Position ID" in page or "4HPwATDgc/ABMA" in page
    assert "not a roll" not in page and "no move could be read" not in page
