"""``manage.py calls_send [--torneio SLUG]``: send the calls' e-mails still queued, those that failed (up to
``calls.mail.ATTEMPTS_MAX`` tries) and those a stopped process left "enviando" (run it from cron)."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.calls.mail import calls_mail_send
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Envia os e-mails das chamadas (“Sua vez”) na fila ou que falharam."

    def add_arguments(self, parser):
        parser.add_argument("--torneio", help="só os deste torneio (endereço)")

    def handle(self, *args, **options):
        tournament = None
        if options.get("torneio"):
            tournament = Tournament.objects.filter(slug=options["torneio"]).first()
            if tournament is None:
                raise CommandError(f"torneio não encontrado: {options['torneio']}")
        done = calls_mail_send(tournament=tournament)
        self.stdout.write(f"e-mails enviados: {done.sent}; falharam: {done.failed}")
