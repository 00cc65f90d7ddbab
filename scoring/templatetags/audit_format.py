"""Audit page filters: ``audit_json`` (a snapshot as readable JSON) and ``audit_action`` (an action's label)."""

import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder

from tournaments.audit import action_label, object_type_label
from zarik.i18n import current_language

register = template.Library()


@register.filter
def audit_json(value) -> str:
    if value in (None, "", {}):
        return "—"
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, cls=DjangoJSONEncoder)


@register.filter
def audit_action(code: str) -> str:
    """An audited action's code as the audit page says it, in the reader's language."""
    return action_label(code, current_language())


@register.filter
def audit_object(model_name: str) -> str:
    """An audited object's kind in the reader's language, as the filter lists it."""
    return object_type_label(model_name)
