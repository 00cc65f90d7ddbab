"""The living style page (/style/, staff only): every component of the design system as the
pages use it, in Russian and in English, so a change to static/css/zarik.css is seen in one place
before it is seen on forty pages (issue 44)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render

#: The palette's tokens as the page shows them: (token, its job).
TOKENS = (
    "primary", "primary-strong", "primary-soft", "secondary", "secondary-strong", "secondary-soft",
    "fg", "muted", "surface", "line", "success", "success-soft", "warning", "warning-soft",
    "danger", "danger-soft", "info", "info-soft",
)  # fmt: skip


@login_required
def style(request):
    if not request.user.is_staff:
        raise PermissionDenied
    return render(request, "style.html", {"tokens": TOKENS, "languages": ("ru", "en")})
