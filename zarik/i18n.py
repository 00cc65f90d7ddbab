"""The shell's one rule for "which language is this reader using", and problems shown in it.

Pages, the API, forms and commands render the cores' coded problems with
:func:`current_language`; stored problems (explanations, audit entries) are
rendered here at read time, so each reader sees their own language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import get_language

from scoring.rules.errors import Problem, is_english


def current_language() -> str:
    """``"en"`` or ``"ru"``: the active Django language reduced to the two the product speaks."""
    return "en" if is_english(get_language() or "ru") else "ru"


def supported_language(code: str | None) -> str | None:
    """``code`` (``"ru"``, ``"en-GB"``…) as one of ``settings.LANGUAGES``, or None if we do not speak it."""
    code = (code or "").strip().lower()
    for language, _name in settings.LANGUAGES:
        if code == language or code.startswith(language + "-"):
            return language
    return None


def problems_to_validation_error(
    problems: Iterable[Problem], field: str | None = None, names: Mapping[str, str] | None = None
) -> ValidationError:
    """Core problems as a Django ValidationError in the active language, codes kept."""
    language = current_language()
    errors = [ValidationError(p.message(language, names), code=p.code) for p in problems]
    return ValidationError({field: errors} if field else errors)
