"""The API's HTTP conventions, for every endpoint: tokens, problem details, languages, idempotency,
ETags, throttling, pagination. ``/api/test-clubs/`` is an endpoint written with plain DRF here."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient, APIRequestFactory

from clubs.models import Club
from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tournaments.api.http import tokens
from tournaments.api.http.idempotency import fingerprint_of
from tournaments.models import ApiToken, IdempotencyRecord

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.api_http_urls")]
PROBLEM = "application/problem+json"


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def user():
    return UserFactory()


def _client(key=None, scheme="Token"):
    client = APIClient()
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client


def _is_problem(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["code"] == code
    assert body["type"].endswith(code) and body["title"] and body["detail"] and body["instance"]
    return body


# ----------------------------------------------------------------------------- tokens


@pytest.mark.parametrize("scheme", ["Token", "Bearer"])
def test_a_write_token_acts_as_its_user(user, scheme):
    token, key = tokens.issue(user, "scoreboard", "write")
    assert key.startswith(token.prefix) and token.key_hash != key  # only a hash is stored
    response = _client(key, scheme).post("/api/test-clubs/", {"name": "Зарик-2", "slug": "z2"}, format="json")
    assert response.status_code == 201
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_last_used_is_written_at_most_once_a_minute(user, monkeypatch):
    token, key = tokens.issue(user, "t", "read")
    client = _client(key)
    client.get("/api/tournaments/")
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    client.get("/api/tournaments/")
    assert ApiToken.objects.get(pk=token.pk).last_used_at == first
    tokens._found.clear()  # another web process, whose kept lookup still says "never used"
    tokens._touched.clear()
    client.get("/api/tournaments/")
    assert ApiToken.objects.get(pk=token.pk).last_used_at == first  # the shared marker: no write
    later = first + timedelta(minutes=1, seconds=1)
    monkeypatch.setattr(tokens.timezone, "now", lambda: later)  # a minute on,
    cache.delete(f"zarik:api-token-used:{token.key_hash}")  # when the marker has expired
    client.get("/api/tournaments/")
    assert ApiToken.objects.get(pk=token.pk).last_used_at == later


def test_a_revoked_token_is_refused_at_once_though_lookups_are_kept(user):
    """Token lookups are kept per process; revoking (or deactivating the user) moves them on."""
    token, key = tokens.issue(user, "t", "read")
    client = _client(key)
    assert client.get("/api/tournaments/").status_code == 200
    assert client.get("/api/tournaments/").status_code == 200  # the kept lookup
    tokens.revoke(token)
    _is_problem(client.get("/api/tournaments/"), 401, "api.token_revoked")
    fresh, fresh_key = tokens.issue(user, "u", "read")
    assert _client(fresh_key).get("/api/tournaments/").status_code == 200
    user.is_active = False
    user.save()
    assert _client(fresh_key).get("/api/tournaments/").status_code == 401

def test_another_web_process_finds_a_token_in_the_shared_cache_but_never_a_revoked_one(
    user, django_assert_num_queries
):
    """A lookup is shared through the cache with the version it was read at: a process that
    never saw the token needs no query, the password hash is not cached, and a revoked token
    is read again (and refused) everywhere."""
    token, key = tokens.issue(user, "t", "read")
    assert tokens.find(key).pk == token.pk  # read from the database by this process
    tokens._found.clear()  # another web process: nothing kept in it yet
    with django_assert_num_queries(0):
        found = tokens.find(key)
    assert found.pk == token.pk and found.user.pk == user.pk
    _version, blob = cache.get(f"zarik:api-token:{token.key_hash}")
    assert user.password.encode() not in blob  # the shared copy holds no password hash
    tokens.revoke(token)
    tokens._found.clear()
    assert tokens.find(key).revoked_at is not None
    _is_problem(_client(key).get("/api/tournaments/"), 401, "api.token_revoked")



@pytest.mark.parametrize(("language", "word"), [("en", "read"), ("ru", "чтения")])
def test_a_read_token_may_only_read(user, language, word):
    _token, key = tokens.issue(user, "reader", "read")
    client = _client(key)
    assert client.get("/api/test-clubs/").status_code == 200
    response = client.post("/api/test-clubs/", {"name": "X", "slug": "x"}, format="json",
                           HTTP_ACCEPT_LANGUAGE=language)
    body = _is_problem(response, 403, "api.token_read_only")
    assert word in body["detail"]
    assert not Club.objects.filter(slug="x").exists()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_revoked_and_unknown_tokens_are_refused_with_401(user, language):
    token, key = tokens.issue(user, "old", "write")
    tokens.revoke(token)
    revoked = _client(key).get("/api/test-clubs/", HTTP_ACCEPT_LANGUAGE=language)
    body = _is_problem(revoked, 401, "api.token_revoked")
    assert revoked["WWW-Authenticate"] == "Token"
    assert ("revoked" in body["detail"]) == (language == "en")
    _is_problem(_client("zk_nonsense").get("/api/test-clubs/"), 401, "api.token_invalid")
    _is_problem(_client().get("/api/test-clubs/"), 401, "api.not_authenticated")


def test_session_authentication_still_requires_csrf(user):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get("/api/test-clubs/").status_code == 200
    response = client.post("/api/test-clubs/", {"name": "X", "slug": "x"}, format="json")
    _is_problem(response, 403, "api.forbidden")
    assert "CSRF" in response.json()["detail"]


# ----------------------------------------------------------------------------- problem details


@pytest.mark.parametrize(("language", "text"), [("en", "This field is required."), ("ru", "Обязательное поле.")])
def test_validation_errors_name_each_field_in_the_asked_language(user, language, text):
    client = _client()
    client.force_login(user)
    response = client.post("/api/test-clubs/", {"slug": "x"}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    body = _is_problem(response, 400, "api.invalid")
    assert body["errors"] == {"name": [text]}
    assert response["Content-Language"] == language


@pytest.mark.parametrize(
    ("path", "method", "status", "code"),
    [
        ("/api/tournaments/no-such-event/", "get", 404, "api.not_found"),
        ("/api/no-such-collection/", "get", 404, "api.not_found"),  # Django's 404, not DRF's
        ("/api/ratings/", "post", 405, "api.method_not_allowed"),
        ("/api/tournaments/?page=99", "get", 404, "api.invalid_page"),
    ],
)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_error_is_a_problem_in_the_asked_language(path, method, status, code, language):
    TournamentFactory()
    response = getattr(_client(), method)(path, HTTP_ACCEPT_LANGUAGE=language)
    body = _is_problem(response, status, code)
    cyrillic = any("а" <= ch <= "я" for ch in body["detail"].lower())
    assert cyrillic == (language == "ru"), body["detail"]
    assert cyrillic == (language == "ru") or body["title"]


def test_lang_parameter_wins_over_accept_language():
    response = _client().get("/api/tournaments/?page=99&lang=en", HTTP_ACCEPT_LANGUAGE="ru")
    assert _is_problem(response, 404, "api.invalid_page")["title"] == "Not found"
    assert response["Content-Language"] == "en"


def test_an_unexpected_error_is_a_500_problem(monkeypatch, user):
    from rest_framework import viewsets

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(viewsets.ReadOnlyModelViewSet, "list", boom)
    client = APIClient(raise_request_exception=False)
    body = _is_problem(client.get("/api/tournaments/", HTTP_ACCEPT_LANGUAGE="en"), 500, "api.server_error")
    assert "boom" not in body["detail"]


# ----------------------------------------------------------------------------- pagination


def test_page_size_is_asked_and_capped():
    for _ in range(3):
        TournamentFactory()
    data = _client().get("/api/tournaments/?page_size=2").json()
    assert data["count"] == 3 and len(data["results"]) == 2 and data["next"]
    assert len(_client().get("/api/tournaments/?page_size=100000").json()["results"]) == 3


# ----------------------------------------------------------------------------- idempotency


def test_a_retried_post_is_answered_again_not_done_twice(user):
    _token, key = tokens.issue(user, "w", "write")
    client = _client(key)
    first = client.post("/api/test-clubs/", {"name": "Один", "slug": "one"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = client.post("/api/test-clubs/", {"name": "Один", "slug": "one"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert again.json() == first.json()
    assert Club.objects.filter(slug="one").count() == 1
    other = client.post("/api/test-clubs/", {"name": "Два", "slug": "two"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    _is_problem(other, 422, "api.idempotency_key_reused")
    assert not Club.objects.filter(slug="two").exists()


def test_a_replayed_error_stays_a_problem(user):
    client = _client()
    client.force_login(user)
    for _ in range(2):
        response = client.post("/api/test-clubs/", {"slug": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="bad")
        _is_problem(response, 400, "api.invalid")
    assert response["Idempotent-Replayed"] == "true"


def test_keys_belong_to_their_owner(user):
    other = UserFactory()
    for who, slug in ((user, "a"), (other, "b")):
        client = _client()
        client.force_login(who)
        assert client.post("/api/test-clubs/", {"name": slug, "slug": slug}, format="json",
                           HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    assert Club.objects.filter(slug__in=["a", "b"]).count() == 2


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_duplicate_while_the_first_runs_is_refused(user, language):
    """The first request reserved the key (same request) and has not finished: the second must not act."""
    client = _client()
    client.force_login(user)
    request = APIRequestFactory().post("/api/test-clubs/", {"name": "X", "slug": "x"}, format="json")
    IdempotencyRecord.objects.create(owner=f"user:{user.pk}", key="k", method="POST", path="/api/test-clubs/",
                                     fingerprint=fingerprint_of(request))
    response = client.post("/api/test-clubs/", {"name": "X", "slug": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="k",
                           HTTP_ACCEPT_LANGUAGE=language)
    body = _is_problem(response, 409, "api.idempotency_in_progress")
    assert ("Idempotency-Key" in body["detail"]) and response["Retry-After"] == "1"
    assert not Club.objects.filter(slug="x").exists()


def test_records_older_than_a_day_are_cleaned(user):
    old = IdempotencyRecord.objects.create(owner="user:0", key="old", method="POST", path="/", fingerprint="f",
                                           status=201, body="{}")
    IdempotencyRecord.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=25))
    client = _client()
    client.force_login(user)
    client.post("/api/test-clubs/", {"name": "X", "slug": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="new")
    assert not IdempotencyRecord.objects.filter(pk=old.pk).exists()


# ----------------------------------------------------------------------------- ETags


def test_a_single_resource_has_a_strong_etag_and_answers_304():
    tournament = TournamentFactory()
    client = _client()
    first = client.get(f"/api/tournaments/{tournament.slug}/")
    etag = first["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    again = client.get(f"/api/tournaments/{tournament.slug}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    tournament.name = "Другое имя"
    tournament.save()
    assert client.get(f"/api/tournaments/{tournament.slug}/", HTTP_IF_NONE_MATCH=etag).status_code == 200


@pytest.mark.parametrize("language", ["en", "ru"])
def test_if_match_prevents_a_lost_update(user, language):
    club = ClubFactory(name="Старое")
    client = _client()
    client.force_login(user)
    etag = client.get(f"/api/test-clubs/{club.pk}/")["ETag"]
    # Someone else changes it first.
    assert client.patch(f"/api/test-clubs/{club.pk}/", {"city": "Баку"}, format="json",
                        HTTP_IF_MATCH=etag).status_code == 200
    late = client.patch(f"/api/test-clubs/{club.pk}/", {"name": "Моё"}, format="json", HTTP_IF_MATCH=etag,
                        HTTP_ACCEPT_LANGUAGE=language)
    body = _is_problem(late, 412, "api.precondition_failed")
    assert ("changed" in body["detail"]) == (language == "en")
    club.refresh_from_db()
    assert club.name == "Старое" and club.city == "Баку"
    current = client.get(f"/api/test-clubs/{club.pk}/")["ETag"]
    assert late["ETag"] == current
    assert client.patch(f"/api/test-clubs/{club.pk}/", {"name": "Моё"}, format="json",
                        HTTP_IF_MATCH=current).status_code == 200
    assert client.delete(f"/api/test-clubs/{club.pk}/", HTTP_IF_MATCH=current).status_code == 412
    assert Club.objects.filter(pk=club.pk).exists()


# ----------------------------------------------------------------------------- throttling


@pytest.mark.parametrize("language", ["en", "ru"])
def test_throttled_per_token_with_retry_after(settings, user, language):
    settings.ZARIK_API_THROTTLE_RATES = {"token": "2/min", "user": "100/min", "anon": "100/min"}
    _token, key = tokens.issue(user, "busy", "read")
    client = _client(key)
    assert [client.get("/api/tournaments/").status_code for _ in range(2)] == [200, 200]
    response = client.get("/api/tournaments/", HTTP_ACCEPT_LANGUAGE=language)
    _is_problem(response, 429, "api.throttled")
    assert int(response["Retry-After"]) > 0
    # Another token of the same user, and anonymous readers, have their own budgets.
    _other, other_key = tokens.issue(user, "calm", "read")
    assert _client(other_key).get("/api/tournaments/").status_code == 200
    assert _client().get("/api/tournaments/").status_code == 200


def test_anonymous_readers_are_throttled_by_address(settings):
    settings.ZARIK_API_THROTTLE_RATES = {"token": "100/min", "user": "100/min", "anon": "1/min"}
    client = _client()
    assert client.get("/api/tournaments/").status_code == 200
    _is_problem(client.get("/api/tournaments/"), 429, "api.throttled")


@pytest.mark.django_db(transaction=True)
def test_two_identical_posts_at_once_act_once():
    """Real concurrency (PostgreSQL): the reserved key row lets only one of two simultaneous requests act."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL")
    user = UserFactory()
    _token, key = tokens.issue(user, "w", "write")
    statuses = []

    def post():
        try:
            response = _client(key).post("/api/slow-clubs/", {"name": "Гонка", "slug": "race"}, format="json",
                                         HTTP_IDEMPOTENCY_KEY="race")
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]
    assert Club.objects.filter(slug="race").count() == 1


# --- what the write fuzzing (schemathesis) found: answers, never 500s ------------------------------


@pytest.mark.django_db
def test_a_non_numeric_id_is_a_404_and_a_body_that_is_not_an_object_a_400():
    api = APIClient()
    api.force_authenticate(UserFactory(is_superuser=True))
    assert api.post("/api/matches/null,null/check/", {"final": [0, 0]}, format="json").status_code == 404
    assert api.post("/api/disputes/1e3/rule/", {"outcome": "replace"}, format="json").status_code == 404
    refused = api.post("/api/tournaments/", [None, None], format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and refused.json()["code"] == "api.body_not_object"
    assert "not an array" in refused.json()["detail"]


@pytest.mark.django_db
def test_a_broken_multipart_body_is_a_400(client):
    body = b"--b\r\n" + b"X-Header: " + b"a" * 10000 + b"\r\n\r\nv\r\n--b--\r\n"
    response = client.post("/api/tournaments/", body, content_type="multipart/form-data; boundary=b")
    assert response.status_code == 400


@pytest.mark.django_db
def test_every_match_action_answers_under_the_tournament_route_too():
    """Each POST action of /api/matches/<id>/… also works as /api/tournaments/<slug>/matches/<id>/…
    (the nested route passes the slug to the action; an action that refused it answered 500)."""
    from scoring.entry.api import MatchWorkflowViewSet
    from tests.factories import EntryFactory, MatchFactory, RoundFactory

    t = TournamentFactory(slug="nested")
    match = MatchFactory(
        round=RoundFactory(tournament=t), entry_a=EntryFactory(tournament=t), entry_b=EntryFactory(tournament=t)
    )
    api = APIClient()
    api.force_authenticate(UserFactory(is_superuser=True))
    actions = [a.url_path for a in MatchWorkflowViewSet.get_extra_actions() if a.detail and "post" in a.mapping]
    assert {"report", "confirm", "check", "settle", "clock"} <= set(actions)
    for name in actions:
        answer = api.post(f"/api/tournaments/nested/matches/{match.pk}/{name}/", {}, format="json")
        assert answer.status_code < 500, (name, answer.content[:300])
