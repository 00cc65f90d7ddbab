"""Pages of a long table: a big event's pairings and standings are read a page at a time.

A 10,000-player Swiss has 5,000 tables: one page of all of them weighed megabytes
and took seconds to render (issue 32). Its pages show :data:`PAGE_ROWS` rows, a
pager names each page's range, and the search (name or draw number) says on
which page a player's table or place is, so a player finds theirs in one step.
Small events (up to one page) look exactly as before: no pager at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

PAGE_ROWS = 100  # rows a page: about 80 KB of pairings' HTML, well under 200 KB


@dataclass(frozen=True)
class Page:
    """Page ``number`` (1-based) of ``count``, showing rows ``start``..``stop - 1`` of ``total``."""

    number: int
    count: int
    start: int
    stop: int
    total: int

    @property
    def paged(self) -> bool:
        return self.count > 1


def page_of(total: int, number: int | None, size: int | None = None) -> Page:
    """The page to show; a number past the end shows the last page, none the first."""
    size = size or PAGE_ROWS
    count = max(1, -(-total // size))
    number = min(max(number or 1, 1), count)
    start = (number - 1) * size
    return Page(number, count, start, min(start + size, total), total)


def page_param(request) -> int | None | str:
    """``?page=`` as a number, None when absent, the raw text when it is not a page number."""
    raw = request.GET.get("page", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 100_000:
        return raw
    return int(raw)


def pager_links(page: Page, params: dict[str, object], labels: list[str] | None = None) -> list[dict]:
    """One link a page, keeping the other parameters (round, search); ``labels`` name the ranges."""
    if not page.paged:
        return []
    kept = {k: v for k, v in params.items() if v not in (None, "")}
    return [
        {
            "number": n,
            "url": "?" + urlencode({**kept, "page": n}),
            "label": labels[n - 1] if labels else str(n),
            "current": n == page.number,
        }
        for n in range(1, page.count + 1)
    ]


def slice_blocks(blocks: list[dict], page: Page, key: str = "rows") -> list[dict]:
    """The blocks (rounds or sections, each with its ``key`` rows) cut to the page's rows.

    Rows are counted across the blocks in order; a block with no row on this page is
    left out (its heading would stand alone), unless nothing has any row at all.
    """
    out, seen = [], 0
    for block in blocks:
        rows = block[key]
        lo, hi = max(page.start - seen, 0), max(min(page.stop - seen, len(rows)), 0)
        seen += len(rows)
        if lo < hi or (not rows and page.total == 0):
            out.append({**block, key: rows[lo:hi], "first_row": lo})
    return out or blocks[:1]
