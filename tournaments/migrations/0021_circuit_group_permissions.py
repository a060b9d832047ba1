import importlib

from django.db import migrations


class Migration(migrations.Migration):
    """The Organizadores and Árbitros groups get the permissions of the circuits' and the atletas' audit models
    too (as in 0003: the groups hold every permission of the app; the site decides who may do what)."""

    dependencies = [
        ("tournaments", "0020_atleta_audit"),
    ]

    operations = [
        migrations.RunPython(
            importlib.import_module("tournaments.migrations.0003_group_permissions").grant, migrations.RunPython.noop
        ),
    ]
