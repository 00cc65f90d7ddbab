"""The webhook event types as documentation: made from the one table of events and the one table of shapes.

:data:`tournaments.events.EVENTS` (name, meaning, data keys) and
:data:`tournaments.notifications.event_details.SHAPES` (each key's shape) give the
``GET /api/webhook-events/`` list, one ``Webhook…`` schema component per event in the
OpenAPI document (:func:`add_webhook_schemas`, a drf-spectacular post-processing hook) and
the manual's table (:func:`readme_table`, docs/snippets/webhook-events.md, kept in step by a test). Nothing here is
written twice: a new event or data key shows up everywhere at once.
"""

from __future__ import annotations

from typing import Any

from tournaments.events import EVENTS

from .event_details import SHAPES

#: The manual's event table (docs/snippets/webhook-events.md) sits between these two lines (the test names the block to paste when they differ).
README_START = "<!-- webhook-events: generated from tournaments/events.py; tests/api/test_webhook_event_types.py -->"
README_END = "<!-- /webhook-events -->"


def data_schema(name: str) -> dict[str, Any]:
    keys = EVENTS[name].data
    return {"type": "object", "properties": {key: SHAPES[key] for key in keys}, "required": list(keys)}


def payload_schema(name: str) -> dict[str, Any]:
    """The whole body a receiver gets for ``name`` (``webhooks.payload``'s envelope around the data)."""
    kind = EVENTS[name]
    return {
        "type": "object",
        "description": f"{kind.en}. / {kind.ru}.",
        "properties": {
            "id": {"type": "string", "format": "uuid", "description": "the event's id: the same in a redelivery"},
            "event": {"type": "string", "enum": [name]},
            "created": {"type": "string", "format": "date-time"},
            "tournament": {"type": "object", "properties": {"slug": {"type": "string"}, "name": {"type": "string"}},
                           "required": ["slug", "name"]},
            "data": data_schema(name),
        },
        "required": ["id", "event", "created", "tournament", "data"],
    }  # fmt: skip


def component_name(name: str) -> str:
    """``round.published`` → ``WebhookRoundPublished``."""
    return "Webhook" + "".join(part.capitalize() for part in name.replace("_", ".").split("."))


def event_types() -> list[dict[str, Any]]:
    """Every event type with its meaning (EN, RU) and its payload's ``data`` schema."""
    return [
        {"event": name, "description": kind.en, "description_ru": kind.ru, "data": data_schema(name),
         "schema": f"#/components/schemas/{component_name(name)}"}
        for name, kind in EVENTS.items()
    ]  # fmt: skip


def add_webhook_schemas(result: dict, generator, request, public) -> dict:
    """drf-spectacular post-processing hook: one component per event type's payload."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name in EVENTS:
        schemas[component_name(name)] = payload_schema(name)
    return result


def _shape_words(shape: dict[str, Any]) -> str:
    if shape.get("type") == "object":
        inner = [
            f"{key}[{_shape_words(value['items'])}]" if value.get("type") == "array" else key
            for key, value in shape.get("properties", {}).items()
        ]
        return "{" + ", ".join(inner) + "}"
    if shape.get("type") == "array":
        item = shape.get("items", {})
        return f"[{_shape_words(item)}, …]" if item.get("type") == "object" else f"[{item.get('type', '')}, …]"
    words = shape.get("type", "")
    if "enum" in shape:
        words = " or ".join(f"`{v}`" for v in shape["enum"])  # not "|": a Markdown table cell
    return words + (f" — {shape['description']}" if shape.get("description") else "")


def readme_table() -> str:
    """The manual's block: one row per event, its meaning and each data key's shape."""
    lines = [README_START, "", "| event | when | `data` |", "|---|---|---|"]
    for name, kind in EVENTS.items():
        data = "; ".join(f"`{key}`: {_shape_words(SHAPES[key])}" for key in kind.data)
        lines.append(f"| `{name}` | {kind.en} | {data} |")
    lines += ["", README_END]
    return "\n".join(lines)
