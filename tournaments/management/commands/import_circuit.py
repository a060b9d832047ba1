from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.circuits.file import circuit_file_parse, circuit_import
from tournaments.circuits.services import CircuitRefused
from tournaments.limits import CIRCUIT_FILE_MAX_BYTES

from ._files import input_read


class Command(BaseCommand):
    help = (
        "Cria um circuito a partir de um arquivo de circuito (JSON) sobre torneios já no site; FILE '-' lê da "
        "entrada padrão. Escreve o endereço do circuito na última linha."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="caminho do arquivo JSON, ou - para a entrada padrão")
        parser.add_argument("--organizador", help="nome de usuário de quem organiza o circuito no site")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        raw = input_read(path=path, limit=CIRCUIT_FILE_MAX_BYTES)
        try:  # read as a tournament file is: size, UTF-8, nesting, repeated keys, NUL, numbers no column holds
            data = circuit_file_parse(raw=raw)
        except CircuitRefused as exc:
            self._refuse(exc.problems)
        user = None
        if options["organizador"]:
            user = get_user_model().objects.filter(username=options["organizador"]).first()
            if user is None:
                self._refuse([("--organizador", f"não há conta {options['organizador']!r} no site")])
        try:
            circuit = circuit_import(data=data, user=user)
        except CircuitRefused as exc:
            self._refuse(exc.problems)
        self.stdout.write(circuit.slug)

    def _refuse(self, problems: list[tuple[str, str]]) -> None:
        """One line per problem, each with its place, and exit status 1; nothing was written (one transaction)."""
        if not getattr(self, "_called_from_command_line", False):
            raise CommandError("\n".join(f"{w}: {m}" if w else m for w, m in problems))
        for where, message in problems:
            self.stderr.write(f"{where}: {message}" if where else message)
        raise SystemExit(1)
