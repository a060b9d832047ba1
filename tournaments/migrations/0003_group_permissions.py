"""The auth groups get their meaning: organizers edit everything of the tournaments app, referees the súmulas.

"Organizadores" (comissão organizadora, DOMAIN.md §8): every permission of the
tournaments app. "Árbitros": view everything, and add, change and delete jogos,
partidas and mãos (the súmula).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

APP = "tournaments"
REFEREE_WRITES = ("jogo", "partida", "mao")


def _permissions(apps):
    app_config = apps.get_app_config(APP)
    app_config.models_module = True  # a migration's app config stub has none; create_permissions needs one
    create_permissions(app_config, apps=apps, verbosity=0)  # normally made after migrate; needed now
    return apps.get_model("auth", "Permission").objects.filter(content_type__app_label=APP)


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    permissions = _permissions(apps)
    organizers, _ = Group.objects.get_or_create(name="Organizadores")
    organizers.permissions.add(*permissions)
    referee_codenames = [p.codename for p in permissions if p.codename.startswith("view_")]
    referee_codenames += [f"{action}_{model}" for model in REFEREE_WRITES for action in ("add", "change", "delete")]
    referees, _ = Group.objects.get_or_create(name="Árbitros")
    referees.permissions.add(*permissions.filter(codename__in=referee_codenames))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    permissions = apps.get_model("auth", "Permission").objects.filter(content_type__app_label=APP)
    for group in Group.objects.filter(name__in=("Organizadores", "Árbitros")):
        group.permissions.remove(*permissions)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_auth_groups"), ("contenttypes", "0002_remove_content_type_name")]
    operations = [migrations.RunPython(grant, revoke)]
