"""Unknown query parameters are refused, as unknown body fields are (issue 47).

``?player=7``, ``?status=confirmed`` and ``?bogus=1`` used to return the whole list
as if nothing had been asked, so a client's typo read as "no filter". The parameters
an operation takes are the ones ``/api/schema/`` declares for it (the schema is the
contract, as for bodies: :mod:`.strict_body`); any other answers 400
``api.unknown_parameters`` with ``errors`` naming each (and the nearest declared name
when one is close) before the view runs. ``lang`` and ``format`` are the API's own on
every address. Operations the schema does not list (the browsable root, the docs)
are not checked.

The declared parameters are read from the schema once per process, and only when a
request has a query string at all (most have none).
"""

from __future__ import annotations

import difflib
import re
import threading

from drf_spectacular.generators import SchemaGenerator

from zarik.i18n import current_language

from .errors import problem_response
from .language import is_api
from .problems import api_problem

#: Parameters every address of the API takes.
EVERYWHERE = frozenset({"lang", "format"})

_lock = threading.Lock()
_declared: list[tuple[int, re.Pattern[str], dict[str, frozenset[str]]]] | None = None


def _table() -> list[tuple[int, re.Pattern[str], dict[str, frozenset[str]]]]:
    """(placeholders, path pattern, method → query parameter names) of every operation in the schema."""
    global _declared
    with _lock:
        if _declared is None:
            schema = SchemaGenerator().get_schema(request=None, public=True)
            table = []
            for template, item in schema["paths"].items():
                pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")  # paths: [a-z0-9/_-]
                methods = {
                    method.upper(): frozenset(p["name"] for p in operation.get("parameters", []) if p["in"] == "query")
                    for method, operation in item.items() if isinstance(operation, dict)
                }  # fmt: skip
                table.append((template.count("{"), pattern, methods))
            _declared = sorted(table, key=lambda row: row[0])  # the most specific template first
        return _declared


def declared_parameters(path: str, method: str) -> frozenset[str] | None:
    """The query parameters the schema declares for ``method`` at ``path``; None: not in the schema."""
    for _placeholders, pattern, methods in _table():
        if pattern.match(path):
            if method in methods:
                return methods[method] | EVERYWHERE
            return None  # the view answers 405
    return None


class StrictQueryMiddleware:
    """Refuses query parameters the called operation does not declare (under ``/api/``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not request.GET or not is_api(request) or not hasattr(view_func, "cls"):
            return None
        method = "GET" if request.method == "HEAD" else request.method
        declared = declared_parameters(request.path_info, method)
        if declared is None:
            return None
        unknown = [name for name in request.GET if name not in declared]
        if not unknown:
            return None
        language = current_language()
        errors = {}
        for name in unknown:
            near = difflib.get_close_matches(name, sorted(declared - EVERYWHERE), n=1, cutoff=0.75)
            message = (
                api_problem("unknown_parameter_near", near=near[0]) if near else api_problem("unknown_parameter")
            ).message(language)
            errors[name] = [message]
        problem = api_problem("unknown_parameters", parameters=", ".join(unknown))
        return problem_response(request, 400, problem, errors=errors)
