import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.circuits.file import circuit_file_export
from tournaments.circuits.selectors import circuit_get

from ._files import output_write


class Command(BaseCommand):
    help = "Escreve o arquivo de circuito (JSON) com o ranking calculado (só dados públicos)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="arquivo de saída (padrão: saída padrão)")
        parser.add_argument("--apos", help="o ranking como estava depois desta etapa (endereço do torneio)")

    def handle(self, *args: Any, **options: Any) -> None:
        circuit = circuit_get(slug=options["slug"])
        if circuit is None:
            raise CommandError(f"circuito {options['slug']!r} não encontrado")
        data = circuit_file_export(circuit=circuit, after=options["apos"])
        if data is None:
            raise CommandError(f"{options['apos']!r} não é etapa do circuito {circuit.slug}")
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        output_write(text=text, path=options["output"], stdout=self.stdout)
