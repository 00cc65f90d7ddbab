"""The explanation's move to its own table keeps every stored explanation (issue 32)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0016_entry_keeps_its_category")]
AFTER = [("tournaments", "0017_round_explanation_apart")]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_existing_explanations_move_to_their_table_and_back():
    old = _migrate(BEFORE)
    Tournament, Round = old.get_model("tournaments", "Tournament"), old.get_model("tournaments", "Round")
    t = Tournament.objects.create(name="Old", slug="old", starts_on="2026-03-01")
    kept = {"system": "swiss", "pairings": [{"table": 1, "a": 1, "b": 2}], "byes": []}
    explained = Round.objects.create(tournament=t, number=1, explanation=kept)
    Round.objects.create(tournament=t, number=2, explanation={})
    try:
        new = _migrate(AFTER)
        rows = new.get_model("tournaments", "RoundExplanation").objects.all()
        assert [(r.round_id, r.data) for r in rows] == [(explained.pk, kept)]  # nothing for an empty one
        back = _migrate(BEFORE)
        assert back.get_model("tournaments", "Round").objects.get(pk=explained.pk).explanation == kept
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
