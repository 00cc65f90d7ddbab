"""The language of an API request: ``?lang=`` first, then ``Accept-Language``, else the site's default.

Pages also follow the visitor's cookie and session; an API client states its
language in each request, so two clients of one browser session get what they ask.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation.trans_real import parse_accept_lang_header

from zarik.i18n import supported_language as _supported

API_PREFIX = "/api/"


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def request_language(request) -> str:
    """The language the request asks for, reduced to one the product speaks."""
    asked = _supported(request.GET.get("lang", ""))
    if asked:
        return asked
    for code, _quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        asked = _supported(code)
        if asked:
            return asked
    return settings.LANGUAGE_CODE
