"""Page-number pagination for every collection: ``?page=``, ``?page_size=`` up to 500, errors as problems."""

from __future__ import annotations

from django.core.paginator import InvalidPage
from rest_framework.pagination import PageNumberPagination

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
