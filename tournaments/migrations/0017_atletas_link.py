"""Every existing player linked to an atleta (DOMAIN §7.1), by the automatic rule of ``scoring.atleta``: the same
normalized name and birth date join; anyone else is an atleta of their own. The atletas' Nível is computed by
``manage.py nivel_rebuild`` (it reads the results as the site does)."""

from django.db import migrations

from scoring.atleta import atleta_identity, name_normalize


def link(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    Atleta = apps.get_model("tournaments", "Atleta")
    AtletaNivel = apps.get_model("tournaments", "AtletaNivel")
    by_identity = {}
    # the most recent player last: their name is the atleta's
    players = list(Player.objects.filter(atleta__isnull=True).order_by("tournament__date", "tournament_id", "id"))
    for p in players:
        ident = atleta_identity(name=p.name, birth_date=p.birth_date)
        atleta = by_identity.get(ident) if ident is not None else None
        if atleta is None:
            atleta = Atleta.objects.create(
                key=f"t{p.pk}", name=p.name, name_search=name_normalize(p.name), identity=ident
            )
            atleta.key = f"a{atleta.pk}"
            atleta.save(update_fields=["key"])
            AtletaNivel.objects.create(atleta=atleta)
            if ident is not None:
                by_identity[ident] = atleta
        elif atleta.name != p.name:
            atleta.name, atleta.name_search = p.name, name_normalize(p.name)
            atleta.save(update_fields=["name", "name_search"])
        p.atleta_id = atleta.pk
    Player.objects.bulk_update(players, ["atleta"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_atletas")]

    operations = [migrations.RunPython(link, migrations.RunPython.noop)]
