"""python manage.py import_registrations SLUG FILE: the desk's CSV upload from the command line (docs/contrato.md)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import ngettext

from tournaments.models import Tournament
from tournaments.refusals import Refused
from tournaments.registrations.csv_reader import MAX_BYTES
from tournaments.registrations.services import registrations_import_csv


class Command(BaseCommand):
    help = (
        "Adiciona as inscrições de um arquivo CSV (colunas nome, nascimento, email, telefone, parceiro, "
        "parceiro_nascimento, parceiro_email, parceiro_telefone, equipe, parceiro_equipe) ao torneio SLUG; "
        "com qualquer problema, "
        "nada é gravado."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="endereço (slug) do torneio")
        parser.add_argument("file", help="arquivo CSV (separador , ou ;; UTF-8 ou Windows-1252); - lê da entrada")

    def handle(self, *args: Any, slug: str, file: str, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"torneio não encontrado: {slug!r} (veja os endereços em /torneios/)")
        content = self._read(file)
        try:
            result = registrations_import_csv(tournament=tournament, content=content)
        except Refused as exc:
            for message in exc.messages:
                self.stderr.write(message)
            n = len(exc.messages)
            problems = ngettext("%(n)d problema no arquivo", "%(n)d problemas no arquivo", n) % {"n": n}
            raise CommandError(f"{problems}; nada foi gravado", returncode=1) from None
        for notice in result.notices:
            self.stdout.write(f"aviso: {notice}")
        n, accepted = len(result.registrations), result.accepted
        added = ngettext("%(n)d inscrição adicionada", "%(n)d inscrições adicionadas", n) % {"n": n}
        accepted_words = ngettext("%(n)d aceita", "%(n)d aceitas", accepted) % {"n": accepted}
        self.stdout.write(f"{added} a {tournament.slug}: {accepted_words}, {result.waiting} na lista de espera")

    def _read(self, file: str) -> bytes:
        import sys

        try:
            if file == "-":
                return sys.stdin.buffer.read(MAX_BYTES + 1)
            with open(file, "rb") as handle:
                return handle.read(MAX_BYTES + 1)  # beyond the limit the reader says so
        except OSError as exc:
            raise CommandError(f"não foi possível ler {file}: {exc.strerror or exc}") from None
