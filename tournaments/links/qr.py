"""QR codes as inline SVG: drawn on the server with segno, no image files, no external service.

Player cards carry each player's private link this way, so a phone camera opens
the player's own page (:mod:`tournaments.access.private_links`); table cards,
which lie on the shared table, carry only the round's public pairings.
The SVG has a ``viewBox`` and no fixed size: the print CSS decides how big it is.
"""

from __future__ import annotations

import io

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(data: str, *, label: str = "") -> SafeString:
    """``data`` as an inline ``<svg class="qr">``; its ``<title>`` (``label`` or the data) is read aloud."""
    code = segno.make(data, error="m", micro=False)
    svg = code.svg_inline(omitsize=True, border=2, svgclass="qr", title=label or data)
    return mark_safe(svg)  # segno escapes the title; the rest is numbers


def qr_svg_document(data: str, *, label: str = "") -> bytes:
    """``data`` as a standalone SVG file (with its namespace and a size: an ``<img>`` shows it
    without the page's CSS), for the links page's per-player QR."""
    out = io.BytesIO()
    segno.make(data, error="m", micro=False).save(out, kind="svg", scale=4, border=2, title=label or data)
    return out.getvalue()
