"""Records on the product's pages: the viewer, match files up and down, the name mapping,
the side-by-side comparison, and the bulk upload of a round (a Celery job)."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import MatchFile, MatchFileState, Result, ResultState
from scoring.records.match_files import as_book_text, check_text, propose, unpack
from scoring.rules.records.matfile import validate_mat_text
from scoring.viewer.frames import view_text
from tests import paths
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.access import private_links
from tournaments.models import AuditEntry, ResultStatus

pytestmark = pytest.mark.django_db
DATA = paths.DATA / "records"
MAT7 = (DATA / "gnubg_match7_seed5.mat").read_text()  # gnubg 4 : root 8 (…7-point match)


def named(text: str, first: str, second: str) -> str:
    """The .mat file with its players renamed (the score lines carry the names)."""
    return re.sub(r"^ gnubg : (\d+)(\s+)root : (\d+)", lambda m: f" {first} : {m.group(1)}{m.group(2)[: max(1, 31 - len(first) - 5)]}{second} : {m.group(3)}", text, flags=re.M)


@pytest.fixture
def world():
    t = TournamentFactory(
        name="Cube open", slug="cube-open", starts_on=dt.date(2026, 12, 1), match_length=7,
        cube=True, rounds_planned=None,
    )
    referee = OfficialFactory(tournament=t, role="referee").user
    petrov = PlayerFactory(last_name="Петров", first_name="Семён", last_name_latin="Petrov", first_name_latin="Semyon", user=UserFactory())
    orlov = PlayerFactory(last_name="Орлов", first_name="Пётр", last_name_latin="Orlov", first_name_latin="Petr", user=UserFactory())
    fedorov = PlayerFactory(last_name="Фёдоров", last_name_latin="Fedorov")
    sokolov = PlayerFactory(last_name="Соколов", last_name_latin="Sokolov")
    a, b, c, d = enter(t, [petrov, orlov, fedorov, sokolov])
    rnd = RoundFactory(tournament=t, number=1, match_length=7, status="published")
    m1 = MatchFactory(round=rnd, table=1, entry_a=a, entry_b=b, match_length=7)
    m2 = MatchFactory(round=rnd, table=2, entry_a=c, entry_b=d, match_length=7)
    return t, referee, rnd, m1, m2


def test_names_propose_the_mapping_in_any_alphabet(world):
    _t, _ref, _rnd, m1, _m2 = world
    assert propose(m1, ("Orlov", "Петров")) == "b"
    assert propose(m1, ("ПЕТРОВ", "Orlov P.")) == "a"
    assert propose(m1, ("gnubg", "root")) == ""
    _t, _ref, _rnd, _m1, m2 = world
    assert propose(m2, ("Fedorov", "Соколов")) == "a"
    assert propose(m2, ("Федоров", "Sokolov")) == "a"  # ё-insensitive


def _upload(client, match, text, name="m.mat"):
    url = reverse("record-upload", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})
    return client.post(url, {"file": SimpleUploadedFile(name, text.encode(), content_type="text/plain")})


def test_a_player_uploads_maps_compares_and_reports(client, world):
    t, _ref, _rnd, m1, _m2 = world
    client.force_login(m1.entry_b.player.user)  # Orlov uploads a file where he is the first player
    response = _upload(client, m1, named(MAT7, "Orlov", "Petrov"))
    assert response.status_code == 302
    mf = MatchFile.objects.get()
    assert mf.state == MatchFileState.PENDING and mf.proposed == "b" and not mf.first_is
    page = client.get(response.url)
    html = page.content.decode()
    assert page.status_code == 200 and "proposed from the names" in html.lower() or "предложено" in html.lower()
    assert "8:4" in html  # the file's score as A:B (Petrov 8 : Orlov 4), side by side
    # Attaching without saying who is who is refused, with the file kept.
    refused = client.post(response.url, {"action": "attach", "use_result": "1"})
    assert refused.status_code == 400
    assert not Result.objects.filter(match=m1).exists()
    done = client.post(response.url, {"action": "attach", "first_is": "b", "use_result": "1"})
    assert done.status_code == 302
    result = Result.objects.get(match=m1)
    assert (result.score_a, result.score_b, result.state) == (8, 4, ResultState.REPORTED)
    assert len(result.games) == 6 and result.games[0]["record"].lstrip().startswith("Game 1")
    mf.refresh_from_db()
    assert mf.state == MatchFileState.ATTACHED and mf.first_is == "b"
    assert AuditEntry.objects.filter(action="record.attach", object_id=str(mf.pk)).exists()


def test_a_mismatch_is_shown_beside_the_reported_score_before_anything_is_saved(client, world):
    _t, referee, _rnd, m1, _m2 = world
    Result.objects.create(match=m1, score_a=7, score_b=2, reported_side="a")
    client.force_login(referee)
    response = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    html = client.get(response.url + "?first_is=a").content.decode()
    assert "4:8" in html and "7:2" in html  # file vs reported
    assert "differs" in html  # the row is marked
    assert Result.objects.filter(match=m1).count() == 1  # nothing saved by looking


def test_a_referee_attaches_and_enters_the_result_confirmed(client, world):
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    response = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    client.post(response.url, {"action": "attach", "first_is": "a", "use_result": "1"})
    m1.refresh_from_db()
    assert m1.result_status == ResultStatus.CONFIRMED and (m1.score_a, m1.score_b) == (4, 8)
    assert m1.winner == "b" and m1.games.count() == 6


def test_the_viewer_shows_a_position_with_both_numberings_and_ids(client, world):
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    response = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    client.post(response.url, {"action": "attach", "first_is": "a"})
    url = reverse("record-viewer", kwargs={"slug": "cube-open", "match_id": m1.pk})
    html = client.get(url + "?ply=1").content.decode()
    assert "<svg" in html and 'id="ply-1"' in html
    assert "012/11" in html and "13/11" in html  # traditional and through
    assert 'id="posid"' in html and 'id="matchid"' in html and "data-copy" in html
    assert 'data-nav="next"' in html and 'data-nav="prev"' in html
    assert "<script>" not in html and " onclick=" not in html and " style=" not in html
    # out of range clamps; junk is the start; htmx gets the board only
    assert client.get(url + "?ply=99999").status_code == 200
    assert client.get(url + "?ply=abc").status_code == 200
    part = client.get(url + "?ply=2", HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<div id="record-board"') and "<html" not in part
    # a stranger does not see it; a player of the match does
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(m1.entry_a.player.user)
    assert client.get(url).status_code == 200


def test_the_viewer_gives_the_ids_to_analyse_a_play_and_the_score_after_a_game(client, world):
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    text = named(MAT7, "Petrov", "Orlov")
    response = _upload(client, m1, text)
    client.post(response.url, {"action": "attach", "first_is": "a"})
    url = reverse("record-viewer", kwargs={"slug": "cube-open", "match_id": m1.pk})
    view = view_text(text)
    play = view.frames[2]
    html = client.get(url + "?ply=2").content.decode()
    pid, mid, xg = play.analysis_ids
    # The position before the play with its dice: the previous frame's board, the mover on roll.
    assert pid == view.frames[1].position_id and mid != view.frames[1].match_id
    assert f'value="{pid}"' in html and f'value="{mid}"' in html and f'value="{xg}"' in html
    assert 'id="xgid"' in html and "XGID=" in html
    end = view.frames[view.games[0].last]
    html = client.get(url + f"?ply={end.index}").content.decode()
    assert f'value="{end.match_id}"' in html and "match-score-after" in html


def test_downloads_give_the_mat_and_the_books_notation(client, world):
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    response = _upload(client, m1, (DATA / "book_game1_backgammon.txt").read_text(), name="game.txt")
    client.post(response.url, {"action": "attach", "first_is": "a"})
    kw = {"slug": "cube-open", "match_id": m1.pk}
    mat = client.get(reverse("record-download", kwargs={**kw, "fmt": "mat"}))
    assert mat.status_code == 200 and "attachment" in mat["Content-Disposition"]
    body = mat.content.decode()
    assert "Semyon Petrov" in body  # Latin names: GNU Backgammon reads them
    # The book game's automatic doubles (cube at 4 before the first roll) have no .mat entry:
    # a comment line says so, the doubles keep their true values, and it reads back clean.
    assert '; [Automatic doubles "Game 1: 2 (cube 4' in body and "Doubles => 8" in body
    assert validate_mat_text(body).errors == []
    assert view_text(body).games[0].autodoubles == 2
    txt = client.get(reverse("record-download", kwargs={**kw, "fmt": "txt"})).content.decode()
    assert "012/7" in txt and "Партия" in txt
    assert client.get(reverse("record-download", kwargs={**kw, "fmt": "exe"})).status_code == 404


def test_a_private_link_uploads_and_views(client, world):
    _t, _ref, _rnd, m1, _m2 = world
    token = private_links.token_for(m1.entry_a)
    url = reverse("private-record-upload", kwargs={"token": token, "match_id": m1.pk})
    assert client.get(url).status_code == 200
    response = client.post(url, {"text": named(MAT7, "Petrov", "Orlov")})
    assert response.status_code == 302 and f"/p/{token}/records/" in response.url
    assert client.get(response.url).status_code == 200
    client.post(response.url, {"action": "attach", "first_is": "a"})
    viewer = reverse("private-record-viewer", kwargs={"token": token, "match_id": m1.pk})
    assert "<svg" in client.get(viewer).content.decode()


@pytest.mark.parametrize(
    "payload",
    [b"\x00\x01\x02binary", "Ч" * 10 + "1. 6-6 99/1", " 7 point match\n Game 1\n a : 0  b : 0\n 1) 77: 1/2\n", b"\xff\xfe garbage"],
)
def test_broken_files_get_located_problems_never_a_500(client, world, payload):
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    raw = payload if isinstance(payload, bytes) else payload.encode()
    url = reverse("record-upload", kwargs={"slug": "cube-open", "match_id": m1.pk})
    response = client.post(url, {"file": SimpleUploadedFile("x.mat", raw)})
    assert response.status_code in (302, 400)
    if response.status_code == 302:
        page = client.get(response.url)
        assert page.status_code == 200 and 'class="problems file-problems"' in page.content.decode()
    paste = client.post(reverse("record-paste"), {"text": raw.decode("latin-1"), "ply": "3"})
    assert paste.status_code in (200, 400)  # a NUL is refused by name before any view (middleware)


def test_the_paste_viewer_saves_nothing(client):
    response = client.post(reverse("record-paste"), {"text": MAT7, "ply": "5"})
    html = response.content.decode()
    assert response.status_code == 200 and "<svg" in html and 'id="ply-5"' in html
    assert not MatchFile.objects.exists()
    empty = client.post(reverse("record-paste"), {"text": "  "})
    assert empty.status_code == 200 and "errorlist" in empty.content.decode()


def _zip(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_bulk_upload_matches_files_to_pairings_and_waits_for_the_referee(client, world):
    t, referee, rnd, m1, m2 = world
    Result.objects.create(match=m2, score_a=7, score_b=3, reported_side="a")
    client.force_login(referee)
    archive = _zip({
        "t1.mat": named(MAT7, "Orlov", "Петров"),  # matches table 1, crossed
        "t2.mat": named(MAT7, "Fedorov", "Sokolov"),  # table 2, but the reported score is 7:3
        "other.mat": named(MAT7, "Nobody", "Someone"),
        "broken.mat": "\x00",
        "Федоров - Sokolov.txt": (DATA / "book_game1_backgammon.txt").read_text(),  # names in the file name
        # Names inside the file (our .txt export's match line), none in the file name.
        "truncated.txt": "Фёдоров — Sokolov\n\n" + (DATA / "book_game1_backgammon.txt").read_text(),
        "nc.txt": (DATA / "book_game1_backgammon.txt").read_text(),  # no names anywhere
    })
    url = reverse("round-records", kwargs={"slug": t.slug, "round_id": rnd.pk})
    response = client.post(url, {"files": [SimpleUploadedFile("round1.zip", archive), SimpleUploadedFile("bad.zip", b"PK\x03\x04broken")]})
    assert response.status_code == 302 and "job=" in response.url
    report = client.get(response.url).content.decode()
    files = {mf.name: mf for mf in MatchFile.objects.filter(round=rnd)}
    assert files["t1.mat"].match == m1 and files["t1.mat"].proposed == "b"
    assert files["t1.mat"].summary["verdict"] == "matched"
    assert files["t2.mat"].summary["verdict"] == "mismatch"
    assert files["other.mat"].match is None and files["other.mat"].summary["verdict"] == "unmatched"
    assert files["Федоров - Sokolov.txt"].match == m2 and files["Федоров - Sokolov.txt"].proposed == "a"
    assert files["broken.mat"].match is None and files["broken.mat"].problems
    assert all(mf.state == MatchFileState.PENDING for mf in files.values())
    assert not Result.objects.filter(match=m1).exists()  # nothing attached by the upload
    assert files["truncated.txt"].match == m2 and files["truncated.txt"].players == ["Фёдоров", "Sokolov"]
    assert files["nc.txt"].match is None
    assert "Neither the file nor its name says who played" in report or "ни в файле, ни в его имени" in report.lower()
    assert "named like “”" not in report
    # Scores in the pairing's order: the file says Orlov 4 : Петров 8; the pairing is Петров – Орлов.
    row = report.split("t1.mat")[2].split("</tr>")[0]
    assert "8:4" in row and "4:8" not in row
    mismatching = report.split('class="bulk-files mismatch"')[1].split("</table>")[0]
    assert "t2.mat" in mismatching and "t1.mat" not in mismatching
    # The referee confirms one, discards another.
    client.post(reverse("record-file", kwargs={"slug": t.slug, "file_id": files["t1.mat"].pk}),
                {"action": "attach", "first_is": "b", "use_result": "1"})
    m1.refresh_from_db()
    assert m1.result_status == ResultStatus.CONFIRMED and (m1.score_a, m1.score_b) == (8, 4)
    client.post(reverse("round-records-discard", kwargs={"slug": t.slug, "round_id": rnd.pk}),
                {"file": [files["other.mat"].pk]})
    assert MatchFile.objects.get(pk=files["other.mat"].pk).state == MatchFileState.DISCARDED


def test_a_second_file_does_not_replace_the_attached_one_without_the_referee(client, world):
    _t, referee, _rnd, m1, _m2 = world
    client.force_login(referee)
    first = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    client.post(first.url, {"action": "attach", "first_is": "a"})
    client.force_login(m1.entry_a.player.user)
    second = _upload(client, m1, named(MAT7, "Petrov", "Orlov"))
    refused = client.post(second.url, {"action": "attach", "first_is": "a"})
    assert refused.status_code == 400
    assert MatchFile.objects.filter(match=m1, state=MatchFileState.ATTACHED).count() == 1
    client.force_login(referee)
    no_tick = client.post(second.url, {"action": "attach", "first_is": "a"})
    assert no_tick.status_code == 400
    client.post(second.url, {"action": "attach", "first_is": "a", "replace": "1"})
    attached = MatchFile.objects.get(match=m1, state=MatchFileState.ATTACHED)
    assert attached.pk != MatchFile.objects.filter(match=m1).order_by("pk").first().pk


def test_check_text_reads_the_files_players_and_score():
    check = check_text(named(MAT7, "Orlov", "Петров"))
    assert check.players == ("Orlov", "Петров") and check.final == (4, 8) and check.length == 7


#: Money-play rules the book's notation of one game has no words for, so its copy is rightly
#: reported by the book's rules (issue 46; each .mat itself reads by its session's rule):
#: a gnubg game where a taken raccoon went to its taker and that player doubled again (by the
#: book a taken raccoon stays with the raccooner, ch10), and a gammon with the cube in the
#: middle counted single by the Jacoby rule (the book: not used in matches).
BY_GNUBGS_CUBE_RULE = {"gnubg_money_raccoon_taken.mat", "gnubg_money_jacoby.mat"}


@pytest.mark.parametrize(
    "path", [p for p in sorted(DATA.glob("*.mat")) if p.name not in BY_GNUBGS_CUBE_RULE], ids=lambda p: p.name
)
def test_the_books_notation_download_reads_back_to_the_same_positions(path):
    """Each game written in the book's notation replays, through the book's reader, to the
    same positions as the .mat it came from (cube actions in continuation rows)."""
    check = check_text(path.read_text())
    text = as_book_text(check.view, players=("gnubg", "root"), english=False)
    games = text.split("\nПартия №")[1:]
    assert len(games) == len(check.view.games)
    for game, block in zip(check.view.games, games, strict=True):
        again = view_text("Партия №" + block)
        assert not again.problems
        before = [f.position for f in check.view.frames[game.first + 1 : game.last + 1] if f.kind == "play"]
        assert [f.position for f in again.frames if f.kind == "play"] == before


def test_a_damaged_archive_is_named_in_plain_words_without_the_librarys_text():
    """Issue 45: the bulk-upload report showed Python's "Bad CRC-32 for file 'a.mat'"."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("a.mat", b"; [Site \"Zarik\"]\n 5 point match\n" * 20)
    raw = bytearray(buffer.getvalue())
    raw[raw.index(b"Site") + 1] ^= 0xFF  # one byte of the stored file flipped: its CRC no longer matches
    files, [problem] = unpack([("club.zip", bytes(raw))])
    assert files == []
    for lang, words in (("en", "the archive cannot be opened: it is damaged"), ("ru", "архив не открывается")):
        text = problem.message(lang)
        assert words in text and "club.zip" in text
        assert "CRC" not in text and "a.mat'" not in text


def test_a_pending_upload_is_listed_on_the_match_page_for_whoever_may_decide_on_it(client, world):
    """Issue 46: only the round's records page listed pending uploads; the match page now does,
    for the referee and the uploader (on his account and his private link), not the opponent."""
    t, referee, _rnd, m1, _m2 = world
    client.force_login(m1.entry_b.player.user)  # Orlov sends the file from his match page
    sent = _upload(client, m1, named(MAT7, "Orlov", "Petrov"), name="orlov-petrov.mat")
    mf = MatchFile.objects.get()
    page = reverse("result-match", kwargs={"slug": t.slug, "match_id": m1.pk})

    def listed(response) -> bool:
        html = response.content.decode()
        return 'class="pending-files"' in html and "orlov-petrov.mat" in html

    mine = client.get(page)
    assert mine.status_code == 200 and listed(mine)
    assert f'href="{sent.url}"' in mine.content.decode()  # the file's own decision page
    token_b = private_links.token_for(m1.entry_b)
    private = client.get(reverse("private-match", kwargs={"token": token_b, "match_id": m1.pk}))
    assert listed(private) and reverse("private-record-file", kwargs={"token": token_b, "file_id": mf.pk}) in private.content.decode()
    token_a = private_links.token_for(m1.entry_a)
    assert not listed(client.get(reverse("private-match", kwargs={"token": token_a, "match_id": m1.pk})))
    client.force_login(m1.entry_a.player.user)  # Petrov: not his upload, not his decision
    assert not listed(client.get(page))
    client.force_login(referee)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    desk = client.get(reverse("referee-match", kwargs={"slug": t.slug, "match_id": m1.pk}))
    assert listed(desk) and "Загруженные файлы ждут решения" in desk.content.decode()
    client.post(sent.url, {"action": "attach", "first_is": "b", "use_result": "1"})
    assert MatchFile.objects.get().state == MatchFileState.ATTACHED
    assert not listed(client.get(page))  # decided: no longer waiting


def test_the_viewer_gives_loadable_ids_at_a_pending_beaver(client):
    """Issue 46: at a pending double or beaver the viewer's own Match ID is one gnubg refuses;
    beside it stand the IDs of the moment before the offer, which gnubg loads."""
    text = (DATA / "gnubg_money_beavers.mat").read_text()
    view = view_text(text)
    beaver = next(f for f in view.frames if f.offered and f.offer_kind == "beaver")
    before = view.loadable(beaver)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = client.post(reverse("record-paste"), {"text": text, "ply": str(beaver.index)}).content.decode()
    block = page[page.index('class="loadable-ids"'):]
    block = block[: block.index("</dd>")]
    assert f'value="{before.position_id}"' in block and f'value="{before.match_id}"' in block
    assert "cannot load a pending double or beaver" in page
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = client.post(reverse("record-paste"), {"text": text, "ply": str(before.index)}).content.decode()
    assert 'class="loadable-ids"' not in page  # a moment gnubg loads as it is
    page = client.post(reverse("record-paste"), {"text": text, "ply": str(beaver.index)}).content.decode()
    assert "не может загрузить" in page and 'class="loadable-ids"' in page
