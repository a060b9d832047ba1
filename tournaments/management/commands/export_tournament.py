import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.interchange.writer import tournament_export
from tournaments.models import Tournament

from ._files import output_write


class Command(BaseCommand):
    help = "Escreve o arquivo de torneio (JSON) de um torneio existente."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="arquivo de saída (padrão: saída padrão)")
        parser.add_argument(
            "--include-private",
            action="store_true",
            help="inclui datas de nascimento, contatos e códigos das duplas (backup privado)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist:
            raise CommandError(f"torneio {options['slug']!r} não encontrado") from None
        data = tournament_export(tournament=tournament, include_private=options["include_private"])
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        output_write(text=text, path=options["output"], stdout=self.stdout)
