"""A player's category moves with a date and a reason (book Part 9: categories are earned).

ONE function does it, whoever asks (the player's category page, an import, the
back office): it writes the :class:`~clubs.models.CategoryChange` that the
player's profile shows and updates the player's current category. Who may is
decided by the caller with the permissions table (``club.manage`` on a club the
player belongs to).

A change is never dated before the player's last change (``club.category_backdated``):
the history is read in date order and the current category is the latest-dated
change's, so a back-dated 7 → 5 before a 6 → 7 would leave the history contradicting
the current category (issue 37). A correction is a new change dated today.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from scoring.rules.errors import RuleViolation

from .models import Category, CategoryChange, Player
from .problems import CLUB


@transaction.atomic
def change_category(
    player: Player, category: int, *, reason: str, on: dt.date | None = None, user=None
) -> CategoryChange:
    """Move ``player`` to ``category``; refused (``club.category_*``) with nothing written."""
    on = on or dt.date.today()
    reason = (reason or "").strip()
    problems = []
    if category not in Category.values:
        problems.append(CLUB.problem("category_unknown", category=category))
    elif category == player.category:
        problems.append(CLUB.problem("category_unchanged", player=player.full_name, category=category))
    if not reason:
        problems.append(CLUB.problem("category_reason"))
    if on > dt.date.today():
        problems.append(CLUB.problem("category_future", on=on.isoformat()))
    last = player.category_changes.order_by("-on").values_list("on", flat=True).first()
    if last is not None and on < last:
        problems.append(CLUB.problem("category_backdated", player=player.full_name, on=on.isoformat(),
                                     last=last.isoformat()))  # fmt: skip
    if problems:
        raise RuleViolation(problems)
    change = CategoryChange.objects.create(
        player=player,
        category_from=player.category,
        category_to=category,
        on=on,
        reason=reason,
        decided_by=user if getattr(user, "pk", None) is not None else None,
    )
    player.category = category
    player.save(update_fields=["category"])  # a save, not update(): cached pages hear of it
    return change
