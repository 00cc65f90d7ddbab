"""Fill ``Player.search_key`` for the players already stored; on PostgreSQL, a trigram index.

The key is :func:`clubs.names.player_key` of the names (new and changed players get
it in ``Player.save``). On PostgreSQL the ``pg_trgm`` extension and a GIN trigram
index on the key make ``clubs.search`` fast and typo-tolerant; other databases
search with a plain ``icontains`` and need neither.
"""

from django.db import migrations

from clubs.names import player_key

INDEX = "clubs_player_search_key_trgm"


def fill_keys(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    batch = []
    for p in Player.objects.only(
        "last_name", "first_name", "last_name_latin", "first_name_latin"
    ).iterator(chunk_size=1000):
        p.search_key = player_key(p.last_name, p.first_name, p.last_name_latin, p.first_name_latin)
        batch.append(p)
        if len(batch) >= 1000:
            Player.objects.bulk_update(batch, ["search_key"])
            batch = []
    if batch:
        Player.objects.bulk_update(batch, ["search_key"])


def trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON clubs_player USING gin (search_key gin_trgm_ops)"
    )


def drop_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("clubs", "0002_club_roles_email_search_key")]

    operations = [
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RunPython(trigram_index, drop_trigram_index),
    ]
