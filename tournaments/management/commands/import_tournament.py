import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import RuleError, RuleViolation
from tournaments.interchange.jsonfile import tournament_file_parse
from tournaments.limits import FILE_MAX_BYTES
from tournaments.services import tournament_import


class Command(BaseCommand):
    help = "Cria um torneio a partir de um arquivo de torneio (JSON); FILE '-' lê da entrada padrão."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="caminho do arquivo JSON, ou - para a entrada padrão")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        # one byte more than allowed is enough to refuse a file too big, without reading all of it
        if path == "-":
            raw = sys.stdin.buffer.read(FILE_MAX_BYTES + 1)
        else:
            try:
                with open(path, "rb") as fh:
                    raw = fh.read(FILE_MAX_BYTES + 1)
            except OSError as exc:
                raise CommandError(f"não foi possível ler {path}: {exc.strerror}") from exc
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
