"""A player's category moves with a date and a reason (book Part 9: categories are earned).

ONE function does it, whoever asks (the player's category page, an import, the
back office): it writes the :class:`~clubs.models.CategoryChange` that the
player's profile shows and updates the player's current category. Who may is
decided by the caller with the permissions table (``club.manage`` on a club the
player belongs to).

**Order by date.** The history is read in date order (entry order within a day), and the
current category is the latest change's. A forgotten change may be entered afterwards with its
own, earlier date (issue 49: it used to be refused, so the history could not be completed): it
takes its place by date, starts from the category in force that day, and every later change's
"from" is set again from the change before it, so the history never contradicts itself and the
current category stays the latest change's.
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
    if not reason:
        problems.append(CLUB.problem("category_reason"))
    if on > dt.date.today():
        problems.append(CLUB.problem("category_future", on=on.isoformat()))
    if not problems and category == in_force_on(player, on):
        problems.append(CLUB.problem("category_unchanged", player=player.full_name, category=category))
    if problems:
        raise RuleViolation(problems)
    change = CategoryChange.objects.create(
        player=player,
        category_from=in_force_on(player, on),
        category_to=category,
        on=on,
        reason=reason,
        decided_by=user if getattr(user, "pk", None) is not None else None,
    )
    _chain(player)
    return change


def _in_date_order(player: Player) -> list[CategoryChange]:
    return list(player.category_changes.order_by("on", "id"))


def in_force_on(player: Player, on: dt.date) -> int:
    """The player's category on ``on``: the current one unless a change is dated later; then the
    last change dated that day or earlier, else the category the first change started from."""
    history = _in_date_order(player)
    if not any(c.on > on for c in history):
        return player.category
    before = [c for c in history if c.on <= on]
    if before:
        return before[-1].category_to
    first = history[0].category_from
    return first if first is not None else player.category


def _chain(player: Player) -> None:
    """Each change starts where the one before it (by date) ended; the player's category is the
    latest change's (a forgotten earlier change leaves it as it is)."""
    history = _in_date_order(player)
    for previous, change in zip(history, history[1:], strict=False):
        if change.category_from != previous.category_to:
            change.category_from = previous.category_to
            change.save(update_fields=["category_from"])
    if history and player.category != history[-1].category_to:
        player.category = history[-1].category_to
        player.save(update_fields=["category"])  # a save, not update(): cached pages hear of it
