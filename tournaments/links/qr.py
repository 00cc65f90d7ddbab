"""QR codes as inline SVG: drawn on the server with segno, no image files, no external service.

Player cards carry each player's private link this way, so a phone camera opens
the player's own page (:mod:`tournaments.access.private_links`); table cards,
which lie on the shared table, carry only the round's public pairings.
The SVG has a ``viewBox`` and no fixed size: the print CSS decides how big it is.
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(data: str, *, label: str = "") -> SafeString:
    """``data`` as an inline ``<svg class="qr">``; its ``<title>`` (``label`` or the data) is read aloud."""
    code = segno.make(data, error="m", micro=False)
    svg = code.svg_inline(omitsize=True, border=2, svgclass="qr", title=label or data)
    return mark_safe(svg)  # segno escapes the title; the rest is numbers
