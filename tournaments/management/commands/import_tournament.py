import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.errors import RuleViolation
from tournaments.services import tournament_import


def load_json(raw: bytes | str) -> object:
    """Parse a tournament file; a clear pt-BR message with line and column on bad JSON."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CommandError(f"o arquivo não está em UTF-8 (byte {exc.start})") from exc
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CommandError(f"JSON inválido na linha {exc.lineno}, coluna {exc.colno}: {exc.msg}") from exc


class Command(BaseCommand):
    help = "Cria um torneio a partir de um arquivo de torneio (JSON); FILE '-' lê da entrada padrão."

    def add_arguments(self, parser):
        parser.add_argument("file", help="caminho do arquivo JSON, ou - para a entrada padrão")

    def handle(self, *args, **options):
        path = options["file"]
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            try:
                with open(path, "rb") as fh:
                    raw = fh.read()
            except OSError as exc:
                raise CommandError(f"não foi possível ler {path}: {exc.strerror}") from exc
        data = load_json(raw)
        try:
            tournament = tournament_import(data=data)
        except RuleViolation as exc:
            # one line per problem, each with its place; nothing was written (one transaction)
            for error in exc.errors:
                self.stderr.write(str(error))
            raise SystemExit(1) from exc
        self.stdout.write(tournament.slug)
