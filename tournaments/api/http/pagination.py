"""Page-number pagination for every collection: ``?page=``, ``?page_size=`` up to 500, errors as problems.

Every page also answers an RFC 8288 ``Link`` header (``first``, ``prev``, ``next``,
``last``), so a client walks a collection without reading the body's ``next``.
"""

from __future__ import annotations

from django.core.paginator import InvalidPage
from rest_framework.pagination import PageNumberPagination
from rest_framework.utils.urls import remove_query_param, replace_query_param

from .errors import ApiProblem
from .problems import api_problem


class ApiPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500

    def paginate_queryset(self, queryset, request, view=None):
        page_size = self.get_page_size(request)
        if not page_size:
            return None
        paginator = self.django_paginator_class(queryset, page_size)
        page_number = self.get_page_number(request, paginator)
        try:
            self.page = paginator.page(page_number)
        except InvalidPage as exc:
            # Django's own words ("That page contains no results") come in the active language.
            raise ApiProblem(404, api_problem("invalid_page", page=page_number, reason=str(exc))) from exc
        if paginator.num_pages > 1 and self.template is not None:
            self.display_page_controls = True
        self.request = request
        return list(self.page)

    def get_paginated_response(self, data):
        return self.with_link_header(super().get_paginated_response(data))

    def with_link_header(self, response):
        """The response with this page's ``Link`` header (for a body shaped otherwise, such as
        the standings' sections: :mod:`tournaments.api.tables`)."""
        links = self.links()
        if links:
            response["Link"] = ", ".join(f'<{url}>; rel="{rel}"' for rel, url in links)
        return response

    def links(self) -> list[tuple[str, str]]:
        """(rel, absolute URL) of the pages around this one."""
        url = self.request.build_absolute_uri()
        paginator = self.page.paginator
        out = [("first", remove_query_param(url, self.page_query_param))]
        if self.page.has_previous():
            out.append(("prev", self.get_previous_link()))
        if self.page.has_next():
            out.append(("next", self.get_next_link()))
        out.append(("last", replace_query_param(url, self.page_query_param, paginator.num_pages)))
        return out
