from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import RuleError, RuleViolation
from tournaments.interchange.jsonfile import tournament_file_parse
from tournaments.limits import FILE_MAX_BYTES
from tournaments.services import tournament_import

from ._files import input_read


class Command(BaseCommand):
    help = "Cria um torneio a partir de um arquivo de torneio (JSON); FILE '-' lê da entrada padrão."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="caminho do arquivo JSON, ou - para a entrada padrão")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        raw = input_read(path=path, limit=FILE_MAX_BYTES)
        try:
            data = tournament_file_parse(raw=raw)
        except RuleViolation as exc:
            if not getattr(self, "_called_from_command_line", False):
                raise CommandError("\n".join(str(e) for e in exc.errors)) from exc
            self._refuse(exc.errors)  # from the shell: the problems alone, without the exception's name
        try:
            tournament = tournament_import(data=data)
        except RuleViolation as exc:
            self._refuse(exc.errors)
        self.stdout.write(tournament.slug)

    def _refuse(self, errors: list[RuleError]) -> None:
        """One line per problem, each with its place, and exit status 1; nothing was written (one transaction)."""
        for error in errors:
            self.stderr.write(str(error))
        raise SystemExit(1)
