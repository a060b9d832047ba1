"""Every jogo gets a key (INTERCHANGE.md), unique in its tournament: j1, j2, … in the order of play."""

from django.db import migrations, models


def keys_fill(apps, schema_editor):
    Jogo = apps.get_model("tournaments", "Jogo")
    batch = []
    current, n = None, 0
    for jogo in Jogo.objects.order_by(
        "tournament_id", "stage__order", "round", "third_place", "position", "mesa", "id"
    ):
        if jogo.tournament_id != current:
            current, n = jogo.tournament_id, 0
        n += 1
        jogo.key = f"j{n}"
        batch.append(jogo)
    Jogo.objects.bulk_update(batch, ["key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_desk")]

    operations = [
        migrations.AddField(
            model_name="jogo",
            name="key",
            field=models.CharField(default="", editable=False, max_length=60, verbose_name="código do jogo"),
            preserve_default=False,
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="jogo", constraint=models.UniqueConstraint(fields=("tournament", "key"), name="jogo_key_unique")
        ),
    ]
