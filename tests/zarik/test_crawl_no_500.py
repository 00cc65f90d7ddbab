"""Never a 500: every page reachable by following links, for every role, answers sanely.

A breadth-first crawl of the site from the home page (GET only, same site,
logout and language switch excluded), plus the same pages with hostile query
strings. Anything 500 fails with the URL that broke.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

HREF = re.compile(r'href="([^"#]+)"')
# /help/ is the built manual (static files; tests/zarik/test_help.py and the manual's browser test walk it).
SKIP = ("/accounts/logout", "/i18n/", "/admin/", "/static/", "/media/", "/api/docs", "/help/")
HOSTILE = ["?round=abc", "?round=-1", "?q=%00%27%22<script>", "?layout=nope", "?section=999999",
           "?page=0", "?page=abc", "?since=2026-13-45", "?object_type=nope"]


def crawl(client, start="/", limit=400) -> dict[str, int]:
    seen: dict[str, int] = {}
    queue = [start]
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response.status_code
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for href in HREF.findall(response.content.decode()):
            target = urljoin(url, unescape(href))
            parts = urlsplit(target)
            if parts.netloc and parts.netloc != "testserver":
                continue
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if path.startswith(SKIP) or path in seen:
                continue
            queue.append(path)
    return seen


@pytest.fixture
def demo(shared_demo):
    """The demo loaded once for this module, not per role (tests/conftest.py: ``shared_demo``)."""


@pytest.mark.long
@pytest.mark.parametrize("username", [None, "player1", "referee", "organiser", "jury", "admin"])
def test_no_page_reachable_by_links_answers_500(client, demo, username):
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    pages = crawl(client)
    assert len(pages) > 10
    broken = {u: s for u, s in pages.items() if s >= 500}
    assert not broken, broken
    for url in [u for u, s in pages.items() if s == 200 and "/t/" in u][:60]:
        base = url.split("?")[0]
        for query in HOSTILE:
            status = client.get(base + query).status_code
            assert status < 500, base + query
