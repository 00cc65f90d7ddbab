"""Backup and restore of one tournament: export → import into an empty database → the same event.

Runs on the demo Swiss (two rounds played, the third published, officials, audit log)
and compares what a visitor reads — standings and crosstable — before and after.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django.urls import reverse

from clubs.models import Player
from scoring.archive import backup as archive
from scoring.models import Result
from tests.conftest import FAST_HASHERS
from tournaments.models import AuditEntry, Match, Tournament
from zarik.management.demo import SWISS_SLUG, load_demo

User = get_user_model()


def _visible(client, slug: str, page: str) -> str:
    """A public page's text as a reader sees it (tags and link targets stripped)."""
    html = client.get(reverse(page, kwargs={"slug": slug})).content.decode()
    main = html.split("<main", 1)[-1]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


@pytest.fixture
def demo(transactional_db):
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        load_demo()
    return Tournament.objects.get(slug=SWISS_SLUG)


@pytest.fixture
def demo_here(db):
    """The demo in this test's transaction (a module-wide one would stay open across the flush tests)."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        load_demo()


@pytest.mark.django_db(transaction=True)
def test_round_trip_into_an_empty_database_gives_the_same_event(demo, client, tmp_path):
    before = {page: _visible(client, SWISS_SLUG, page) for page in ("public-standings", "public-crosstable")}
    results = sorted(Result.objects.filter(match__round__tournament=demo).values_list("state", "score_a", "score_b"))
    audit_times = sorted(AuditEntry.objects.filter(tournament=demo).values_list("at", flat=True))
    path = tmp_path / "swiss.json"
    call_command("export_tournament", SWISS_SLUG, str(path), stdout=io.StringIO())

    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    assert not Tournament.objects.exists() and not Player.objects.exists()

    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert "new players" in out.getvalue()
    restored = Tournament.objects.get(slug=SWISS_SLUG)
    for page, text in before.items():
        assert _visible(client, SWISS_SLUG, page) == text, page
    assert sorted(
        Result.objects.filter(match__round__tournament=restored).values_list("state", "score_a", "score_b")
    ) == results
    kept = AuditEntry.objects.filter(tournament=restored).exclude(action="tournament.import")
    assert sorted(kept.values_list("at", flat=True)) == audit_times  # history keeps its times


@pytest.mark.django_db(transaction=True)
def test_a_clash_is_refused_and_another_slug_reuses_the_players(demo, client):
    data = json.loads(json.dumps(archive.dump(demo), cls=archive.Encoder))
    players, matches = Player.objects.count(), Match.objects.count()
    with pytest.raises(archive.ArchiveError) as refused:
        archive.load(data)
    assert refused.value.problem.code == "archive.slug_taken"
    assert "already exists" in refused.value.problem.message("en")
    assert "уже есть" in refused.value.problem.message("ru")
    assert Match.objects.count() == matches  # nothing half-written

    done = archive.load(data, slug="swiss-copy")
    assert done.players_created == 0  # every player matched by account or names
    assert Player.objects.count() == players
    assert _visible(client, "swiss-copy", "public-standings") == _visible(client, SWISS_SLUG, "public-standings")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"not json", "archive.json"),
        (b'{"format": "something else"}', "archive.format"),
        (b'{"format": "zarik-tournament", "version": 99}', "archive.version"),
        (b'{"format": "zarik-tournament", "version": 1, "tables": {"tournament": [{"id": 1, "slug": "x", '
         b'"name": "X", "starts_on": "not a date"}]}}', "archive.broken"),
    ],
)  # fmt: skip
def test_bad_archives_are_refused_clearly_and_leave_nothing(content, code):
    with pytest.raises(archive.ArchiveError) as refused:
        archive.import_file(io.BytesIO(content))
    assert refused.value.problem.code == code
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_command_says_what_went_wrong(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(CommandError, match="not a Zarik tournament archive"):
        call_command("import_tournament", str(bad))
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_tournament", "nope", str(tmp_path / "x.json"))


def test_every_key_of_an_archived_row_can_be_found_on_import():
    """A new model becomes a row of PARTS; its foreign keys must point at earlier rows or outside."""
    seen = set(archive.outside_models())
    for part in archive.PARTS:
        for field in part.model._meta.concrete_fields:
            if field.is_relation:
                assert field.related_model in seen, f"{part.key}.{field.name}"
        seen.add(part.model)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "refusal"), [("en", "already exists"), ("ru", "уже есть")])
def test_the_organiser_downloads_and_restores_on_their_pages(demo_here, client, language, refusal):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    client.force_login(User.objects.get(username="organiser"))
    client.cookies["django_language"] = language
    settings_page = client.get(reverse("manage-settings", kwargs={"slug": SWISS_SLUG})).content.decode()
    link = reverse("manage-archive", kwargs={"slug": SWISS_SLUG})
    assert link in settings_page
    download = client.get(link)
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    assert download.streaming  # written as it is read, never held whole (issue 50)
    body = b"".join(download.streaming_content)

    club = swiss.club
    new_page = client.get(reverse("organise-new") + f"?club={club.slug}").content.decode()
    restore = reverse("organise-restore", kwargs={"club_slug": club.slug})
    assert restore in new_page

    def upload(slug: str):
        from django.core.files.uploadedfile import SimpleUploadedFile

        return client.post(restore, {"slug": slug, "archive": SimpleUploadedFile("a.json", body)})

    refused = upload("")
    assert refused.status_code == 400 and refusal in refused.content.decode()
    kept = upload("bad slug!")  # the typed address stays in the form with the error
    assert kept.status_code == 400 and 'value="bad slug!"' in kept.content.decode()
    done = upload("swiss-restored")
    assert done.status_code == 302 and done["Location"].endswith("/t/swiss-restored/manage/settings/")
    restored = Tournament.objects.get(slug="swiss-restored")
    assert restored.club == club
    assert restored.audit_entries.filter(action="tournament.import").exists()


@pytest.mark.django_db
def test_players_may_neither_download_nor_restore(demo_here, client):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    client.force_login(User.objects.get(username="player1"))
    assert client.get(reverse("manage-archive", kwargs={"slug": SWISS_SLUG})).status_code == 403
    restore = reverse("organise-restore", kwargs={"club_slug": swiss.club.slug})
    assert client.post(restore, {}).status_code == 403
