"""Attaching a match file: nothing unread is attached; problems need a choice with a reason."""

from __future__ import annotations

import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import MatchFile, MatchFileState
from scoring.viewer.frames import view_text
from tests.scoring.records.test_record_files import MAT7, named, world  # noqa: F401  (fixture)
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _upload_bytes(client, match, raw: bytes, name="m.mat"):
    url = reverse("record-upload", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})
    return client.post(url, {"file": SimpleUploadedFile(name, raw, content_type="text/plain")})


def test_a_file_with_no_move_is_never_attached(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    response = _upload_bytes(client, m1, b"just some words, no moves at all\n" * 3, name="x.txt")
    assert response.status_code == 302
    refused = client.post(response.url, {"action": "attach", "first_is": "a", "despite": "1", "despite_reason": "x"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "cannot be attached" in html or "нельзя прикрепить" in html
    assert MatchFile.objects.get().state == MatchFileState.PENDING
    # Random bytes too: refused, not attached.
    response = _upload_bytes(client, m1, os.urandom(2000), name="noise.mat")
    if response.status_code == 302 and "/records/" in response.url:
        client.post(response.url, {"action": "attach", "first_is": "a", "despite": "1", "despite_reason": "x"})
    assert not MatchFile.objects.filter(state=MatchFileState.ATTACHED).exists()


def test_problems_need_an_explicit_choice_with_a_reason_which_is_audited(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    broken = named(MAT7, "Petrov", "Orlov").replace(" Petrov : 1 ", " Petrov : 3 ", 1)
    assert broken != named(MAT7, "Petrov", "Orlov")
    response = _upload_bytes(client, m1, broken.encode())
    page = client.get(response.url + "?first_is=a").content.decode()
    assert 'name="despite"' in page and 'name="despite_reason"' in page
    plain = client.post(response.url, {"action": "attach", "first_is": "a"})
    assert plain.status_code == 400 and "despite" in plain.content.decode()
    no_reason = client.post(response.url, {"action": "attach", "first_is": "a", "despite": "1", "despite_reason": " "})
    assert no_reason.status_code == 400
    assert MatchFile.objects.get().state == MatchFileState.PENDING
    done = client.post(
        response.url,
        {"action": "attach", "first_is": "a", "despite": "1", "despite_reason": "the score line is a typo"},
    )
    assert done.status_code == 302
    mf = MatchFile.objects.get()
    assert mf.state == MatchFileState.ATTACHED
    entry = AuditEntry.objects.get(action="record.attach", object_id=str(mf.pk))
    assert entry.reason == "the score line is a typo" and entry.after["despite_problems"] is True


def test_other_players_names_are_a_warning_and_need_the_choice(client, world):  # noqa: F811
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    response = _upload_bytes(client, m1, named(MAT7, "Fedorov", "Sokolov").encode())
    page = client.get(response.url + "?first_is=a").content.decode()
    assert "Fedorov" in page and ("not named like" in page or "не похожи" in page)
    refused = client.post(response.url, {"action": "attach", "first_is": "a"})
    assert refused.status_code == 400
    assert MatchFile.objects.get().state == MatchFileState.PENDING


def test_no_page_replays_a_stored_file(client, world, monkeypatch):  # noqa: F811
    """The replay is kept with the file: viewer steps, the decision page and downloads use it."""
    from scoring.records import match_files, replays

    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    response = _upload_bytes(client, m1, named(MAT7, "Petrov", "Orlov").encode())
    mf = MatchFile.objects.get()
    assert mf.replay and mf.replay_key == replays.replay_key(mf.text, "backgammon")
    client.post(response.url, {"action": "attach", "first_is": "a"})
    replays._VIEWS.clear()  # a fresh process: only the database has the replay
    mf.refresh_from_db()
    stored, fresh = replays.view_for(mf.text, "backgammon", mf), view_text(mf.text)
    assert stored is not fresh and list(stored.frames) == fresh.frames
    assert (stored.games, stored.problems, stored.final_score) == (fresh.games, fresh.problems, fresh.final_score)
    replays._VIEWS.clear()

    def replaying(*_a, **_k):
        raise AssertionError("a page replayed a stored file")

    monkeypatch.setattr(replays, "view_text", replaying)
    monkeypatch.setattr(match_files, "view_text", replaying)
    kw = {"slug": "cube-open", "match_id": m1.pk}
    viewer = reverse("record-viewer", kwargs=kw)
    for ply in (0, 5, 200):
        assert client.get(f"{viewer}?ply={ply}").status_code == 200
    assert client.get(reverse("record-download", kwargs={**kw, "fmt": "txt"})).status_code == 200
    assert client.get(reverse("record-download", kwargs={**kw, "fmt": "mat"})).status_code == 200
    assert client.get(response.url).status_code == 200
