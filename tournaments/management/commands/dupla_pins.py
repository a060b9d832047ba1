"""python manage.py dupla_pins SLUG --reset [--pdf FILE] (docs/contrato.md, "People, roles and the organizer's desk").

Addition: ``--dupla KEY`` makes a new PIN and private link for that dupla only (a lost card).
New PINs always come with new private links; the old links answer that they were replaced.

Prints ``dupla_key,pin`` lines, one per dupla in the duplas' order, on stdout
(and nothing else there); messages go to stderr.
"""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Dupla, Tournament
from tournaments.printing.cards import cards_pdf
from tournaments.staff.pins import pin_reset, pins_reset
from tournaments.staff.selectors import dupla_cards


class Command(BaseCommand):
    help = (
        "Faz PINs novos (6 dígitos) para todas as duplas do torneio SLUG e mostra as linhas dupla_key,pin; "
        "com --pdf, grava também os cartões das duplas (PIN, link privado, QR code). Só o hash de cada PIN "
        "fica guardado: os PINs aparecem só quando são feitos, e os anteriores deixam de valer (os links privados "
        "também são refeitos). Com --dupla CHAVE, refaz só o PIN e o link dessa dupla (cartão perdido)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="endereço (slug) do torneio")
        parser.add_argument(
            "--reset", action="store_true", help="faz PINs novos (obrigatório: os atuais deixam de valer)"
        )
        parser.add_argument("--pdf", metavar="FILE", help="grava os cartões das duplas neste arquivo PDF")
        parser.add_argument(
            "--dupla",
            metavar="KEY",
            help="refaz o PIN e o link privado só desta dupla (cartão perdido); as outras não mudam",
        )

    def handle(
        self, *args: Any, slug: str, reset: bool, pdf: str | None, dupla: str | None = None, **options: Any
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"torneio {slug!r} não encontrado")
        if not reset:
            raise CommandError(
                "os PINs só são mostrados quando são feitos: o Zap guarda apenas o hash de cada um e não consegue "
                "mostrá-los de novo. Use --reset para fazer PINs novos (os atuais deixam de valer)."
            )
        if not tournament.duplas.exists():
            raise CommandError(
                f"o torneio {slug!r} ainda não tem duplas: os PINs são feitos depois da formação das duplas"
            )
        if pdf:
            folder = Path(pdf).expanduser().resolve().parent
            if not folder.is_dir():
                raise CommandError(f"--pdf {pdf}: a pasta {folder} não existe; nenhum PIN foi alterado")
        if dupla is not None:
            one = Dupla.objects.filter(tournament=tournament, key=dupla).first()
            if one is None:
                raise CommandError(f"--dupla {dupla}: o torneio {slug!r} não tem essa dupla; nenhum PIN foi alterado")
            pins = {one.key: pin_reset(tournament=tournament, dupla=one)}
        else:
            pins = pins_reset(tournament=tournament)
        for key, pin in pins.items():
            self.stdout.write(f"{key},{pin}")
        if pdf:
            cards = dupla_cards(tournament=tournament, pins=pins)
            data = cards_pdf(tournament_name=tournament.name, cards=cards)
            try:
                Path(pdf).expanduser().write_bytes(data)
            except OSError as exc:
                raise CommandError(
                    f"não foi possível gravar {pdf}: {exc.strerror} (os PINs novos estão acima: "
                    "anote-os ou rode de novo)"
                ) from exc
            self.stderr.write(f"{len(cards)} cartões gravados em {pdf}")
