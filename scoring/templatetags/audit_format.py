"""``{{ value|audit_json }}``: an audit snapshot as readable JSON (Cyrillic kept, keys sorted)."""

import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder

register = template.Library()


@register.filter
def audit_json(value) -> str:
    if value in (None, "", {}):
        return "—"
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, cls=DjangoJSONEncoder)
