"""Audit page filters: ``audit_changes`` (what an entry changed, ``label: old → new``),
``audit_when`` (a moment in the site's time zone), ``audit_action`` (an action's label)."""

import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.formats import date_format

from tournaments.audit import WHEN_FORMAT, action_label, changes, object_type_label
from zarik.i18n import current_language

register = template.Library()


@register.filter
def audit_json(value) -> str:
    if value in (None, "", {}):
        return "—"
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, cls=DjangoJSONEncoder)


@register.filter
def audit_changes(entry) -> list:
    """The entry's changes field by field, in the reader's language and the site's time zone."""
    return changes(entry.object_type, entry.before, entry.after)


@register.filter
def audit_when(moment) -> str:
    """A moment as the audit pages write it: local time only (the zone is named once, above)."""
    return date_format(timezone.localtime(moment), WHEN_FORMAT) if moment else "—"


@register.simple_tag
def audit_zone() -> str:
    """The time zone the audit pages' times are in (the site's)."""
    return timezone.get_current_timezone_name()


@register.filter
def audit_action(code: str) -> str:
    """An audited action's code as the audit page says it, in the reader's language."""
    return action_label(code, current_language())


@register.filter
def audit_object(model_name: str) -> str:
    """An audited object's kind in the reader's language, as the filter lists it."""
    return object_type_label(model_name)
