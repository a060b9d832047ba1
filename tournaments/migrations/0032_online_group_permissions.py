import importlib

from django.db import migrations


class Migration(migrations.Migration):
    """The Organizadores and Árbitros groups get the permissions of online play's models (salas, tables, seats,
    events, logs, chat, conduct, the online ranking) and the circuits' archive too (as in 0003: the groups hold
    every permission of the app; the site decides who may do what)."""

    dependencies = [
        ("tournaments", "0031_merge_tourney_data"),
    ]

    operations = [
        migrations.RunPython(
            importlib.import_module("tournaments.migrations.0003_group_permissions").grant, migrations.RunPython.noop
        ),
    ]
