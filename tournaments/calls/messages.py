"""The words of a call (pt-BR), the same in the WhatsApp message and the e-mail: the event, the mesa, the jogo
(its round, as the pages name it) and its time, the opponents, and the dupla's private link (absolute: ``SITE_URL``)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Dupla, Jogo
from ..online.event import jogo_is_online
from ..presenters.jogo import jogo_label
from ..round_times import round_time_of
from ..selectors import tournament_state_get
from ..staff.selectors import private_link


def _when(jogo: Jogo, at: dt.datetime) -> str:
    """The round's time when the organizer gave one, else the time of the call ("agora, 14:05")."""
    given = round_time_of(jogo.stage, jogo.round)
    if given:
        return given
    return _("agora (%(time)s)") % {"time": timezone.localtime(at).strftime("%H:%M")}


def call_text(*, jogo: Jogo, dupla: Dupla, at: dt.datetime) -> str:
    """The message to ``dupla``, one of ``jogo``'s."""
    opponent = jogo.dupla_b if dupla.pk == jogo.dupla_a_id else jogo.dupla_a
    # the jogo as the pages name it ("Quartas de final · jogo 2", "Grupo A · Rodada 2"), never its key
    title = jogo_label(tournament_state_get(tournament=jogo.tournament))(jogo)
    if jogo_is_online(jogo=jogo, tournament=jogo.tournament):  # the table is online: sit through the link
        return "\n".join(
            [
                _("%(event)s: sua vez!") % {"event": jogo.tournament.name},
                _("Dupla %(dupla)s, o seu jogo é numa mesa online.") % {"dupla": dupla.display_name},
                _("Contra: %(opponent)s.") % {"opponent": opponent.display_name},
                _("%(jogo)s, horário: %(when)s.") % {"jogo": title, "when": _when(jogo, at)},
                _("Para sentar à mesa, cada jogador abre no próprio celular: %(link)s")
                % {"link": private_link(dupla=dupla) + "#mesa-online"},
                _("A mesa do jogo: %(url)s")
                % {"url": f"{settings.SITE_URL}/torneios/{jogo.tournament.slug}/jogos/{jogo.key}/mesa/"},
            ]
        )
    lines = [
        _("%(event)s: sua vez!") % {"event": jogo.tournament.name},
        _("Dupla %(dupla)s, vá à mesa %(mesa)s.") % {"dupla": dupla.display_name, "mesa": jogo.mesa},
        _("Contra: %(opponent)s.") % {"opponent": opponent.display_name},
        _("%(jogo)s, horário: %(when)s.") % {"jogo": title, "when": _when(jogo, at)},
        _("Página da sua dupla (súmulas, confirmações): %(link)s") % {"link": private_link(dupla=dupla)},
    ]
    return "\n".join(lines)


def call_subject(*, jogo: Jogo) -> str:
    """The site's words first, the event's name last, on one line (a header holds no line break)."""
    event = " ".join(jogo.tournament.name.split())
    if hasattr(jogo, "online") and jogo_is_online(jogo=jogo, tournament=jogo.tournament):  # a jogo, not its words
        return _("Sua vez: mesa online · %(event)s") % {"event": event}
    return _("Sua vez: mesa %(mesa)s · %(event)s") % {"mesa": jogo.mesa, "event": event}
