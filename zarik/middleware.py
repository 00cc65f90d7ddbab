"""Request hygiene shared by every page and the API."""

from django.http import HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _


class RejectNulBytesMiddleware:
    """Refuse a NUL character in query or form fields with a 400, before any view runs.

    PostgreSQL text cannot hold NUL, so such a value would otherwise turn a
    harmless search into a database error (a 500) on one engine but not the
    other. No keyboard types it; uploaded files are not inspected.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        fields = [request.GET]
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            try:
                fields.append(request.POST)
            except MultiPartParserError as exc:
                return HttpResponseBadRequest(
                    _("The form data could not be read (%(reason)s). Send it again.") % {"reason": exc},
                    content_type="text/plain; charset=utf-8",
                )
        for data in fields:
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    return HttpResponseBadRequest(
                        _("The field “%(field)s” contains a NUL character, which cannot be stored. "
                          "Remove it and try again.") % {"field": key.replace("\x00", "")},
                        content_type="text/plain; charset=utf-8",
                    )
        return self.get_response(request)
