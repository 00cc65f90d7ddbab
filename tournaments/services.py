"""Thin operations on tournaments that several entry points share (admin, commands, views)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .cache import invalidate
from .draw import ALGORITHM, draw_numbers, new_seed
from .models import Entry, EntryStatus, NumberDraw, Tournament


def _participants(tournament: Tournament) -> list[Entry]:
    """Entries taking part in the draw, in the canonical order a verifier can rebuild."""
    return list(
        tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
        .select_related("player")
        .order_by("id")
    )


@transaction.atomic
def perform_draw(tournament: Tournament, seed: str | None = None, user=None) -> NumberDraw:
    """Give every active entry a random draw number and store how, for verification."""
    seed = seed or new_seed()
    entries = _participants(tournament)
    numbers = draw_numbers(seed, [str(e.pk) for e in entries])
    # Clear first so the unique (tournament, draw_number) index never sees a transient clash.
    tournament.entries.update(draw_number=None)
    for entry, number in zip(entries, numbers, strict=True):
        entry.draw_number = number
    Entry.objects.bulk_update(entries, ["draw_number"])
    invalidate(tournament.pk)  # bulk updates send no signals
    return NumberDraw.objects.create(
        tournament=tournament,
        seed=seed,
        algorithm=ALGORITHM,
        performed_at=timezone.now(),
        performed_by=user if getattr(user, "is_authenticated", False) else None,
        participants=[{"entry": e.pk, "name": e.player.full_name} for e in entries],
        numbers=numbers,
    )


def verify_draw(draw: NumberDraw) -> bool:
    """Re-run a stored draw from its seed and participant list: True if the numbers match."""
    keys = [str(p["entry"]) for p in draw.participants]
    return draw_numbers(draw.seed, keys) == list(draw.numbers)
