"""``Idempotency-Key`` on POSTs under ``/api/``: a retried request never doubles an action.

The first request with a key reserves the row (owner, key) — the unique
constraint decides, so of two requests at once only one acts; the other is
told ``409 api.idempotency_in_progress``. When the first finishes its answer is
stored; a retry with the same key and the same request (method, path, body)
gets that answer again with ``Idempotent-Replayed: true``; the same key with a
different request is ``422 api.idempotency_key_reused``. A server error
releases the key (nothing was done, a retry may act). Records older than
24 hours are deleted whenever a new key is reserved.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.core.exceptions import RequestDataTooBig
from django.db import IntegrityError, transaction
from django.http import HttpResponse, RawPostDataException
from django.utils import timezone

from tournaments.models import IdempotencyRecord

from . import entry_tokens, tokens
from .errors import problem_response
from .language import is_api
from .problems import api_problem

HEADER = "HTTP_IDEMPOTENCY_KEY"
KEEP_FOR = timedelta(hours=24)
#: Response headers stored with the answer and sent again on a replay.
KEPT_HEADERS = ("Content-Type", "Location", "Content-Location", "ETag", "Content-Language", "Retry-After")


def owner_of(request) -> str:
    """Whose key this is: the token's, else the logged-in user's, else Basic credentials', else the session's or IP's."""
    authorization = request.META.get("HTTP_AUTHORIZATION", "")
    key = tokens.key_from_header(authorization)
    if key and entry_tokens.is_entry_key(key):
        return f"entry-key:{tokens.hash_key(key)[:32]}"
    if key:
        token = tokens.find(key)
        return f"token:{token.pk}" if token else f"key:{tokens.hash_key(key)[:32]}"
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    if authorization:
        return f"auth:{tokens.hash_key(authorization)[:32]}"
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        return f"session:{session.session_key}"
    return f"anon:{request.META.get('REMOTE_ADDR', '')}"


def fingerprint_of(request) -> str:
    digest = hashlib.sha256(f"{request.method}\n{request.get_full_path()}\n".encode())
    try:
        digest.update(request.body)
    except RequestDataTooBig:  # a large upload: its length and type stand for it
        digest.update(f"{request.META.get('CONTENT_TYPE')}:{request.META.get('CONTENT_LENGTH')}".encode())
    except RawPostDataException:  # a form an earlier middleware parsed: its fields and files stand for it
        digest.update(repr(sorted(request.POST.lists())).encode())
        for name, upload in sorted(request.FILES.items()):
            digest.update(f"{name}:{upload.name}:{upload.size}".encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


def _replay(record: IdempotencyRecord) -> HttpResponse:
    response = HttpResponse((record.body or "").encode(), status=record.status)
    for name, value in record.headers.items():
        response[name] = value
    response["Idempotent-Replayed"] = "true"
    return response


class IdempotencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.META.get(HEADER)
        if request.method != "POST" or not key or not is_api(request):
            return self.get_response(request)
        if len(key) > 255:
            return problem_response(request, 400, api_problem("idempotency_key_too_long"))
        owner, fingerprint = owner_of(request), fingerprint_of(request)
        IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - KEEP_FOR).delete()
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    owner=owner, key=key, method=request.method, path=request.path[:500],
                    fingerprint=fingerprint,
                )
        except IntegrityError:
            existing = IdempotencyRecord.objects.filter(owner=owner, key=key).first()
            if existing is None:  # released in between: the caller may simply retry
                return problem_response(request, 409, api_problem("idempotency_in_progress"))
            if existing.fingerprint != fingerprint:
                return problem_response(request, 422, api_problem("idempotency_key_reused"))
            if existing.status is None:
                return problem_response(request, 409, api_problem("idempotency_in_progress"),
                                        headers={"Retry-After": "1"})
            return _replay(existing)
        try:
            response = self.get_response(request)
        except BaseException:
            record.delete()
            raise
        self._store(record, response)
        return response

    @staticmethod
    def _store(record: IdempotencyRecord, response) -> None:
        if response.status_code >= 500 or getattr(response, "streaming", False):
            record.delete()
            return
        try:
            body = response.content.decode("utf-8")
        except UnicodeDecodeError:
            record.delete()
            return
        record.status = response.status_code
        record.body = body
        record.headers = {name: response[name] for name in KEPT_HEADERS if name in response}
        record.save(update_fields=["status", "body", "headers"])
