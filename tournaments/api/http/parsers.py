"""The API's JSON parser: a hostile body is a 400 problem, never a 500.

DRF's parser lets Python's ``RecursionError`` through, so a body of 100,000 nested
brackets (a few hundred kilobytes) ended in a server error (issue 29). Nesting
deeper than Python's recursion limit is refused here as ``api.body_too_deep``, a body that
is not JSON as ``api.invalid_json`` with its line and column (never Python's English, issue 47); an
oversized body is refused before it is read (``api.body_too_large``, 413, in
:func:`tournaments.api.http.errors.exception_handler`).
"""

from __future__ import annotations

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .errors import ApiProblem
from .problems import api_problem


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ApiProblem(400, api_problem("body_too_deep")) from None
        except ParseError as exc:
            # DRF's message is Python's English ("Expecting ',' delimiter…"): say where, in the caller's words.
            cause = exc.__context__
            if isinstance(cause, json.JSONDecodeError):
                raise ApiProblem(400, api_problem("invalid_json", line=cause.lineno, column=cause.colno)) from None
            raise ApiProblem(400, api_problem("body_not_utf8_json")) from None
