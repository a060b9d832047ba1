"""The time zone of an event: the times the organizer gives (the start, each round's "HH:MM") are the venue's
wall-clock times. Brazil has four zones; the event's city says which (``Campinas/SP``, ``Manaus - AM``: the
state's two letters at its end); without a state, the site's zone (``settings.TIME_ZONE``)."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

from django.conf import settings

# a state (UF) -> its zone in the tz database (the capital's; the few towns of another zone inside a state, such
# as the west of Amazonas, are the exception the organizer can live with)
STATE_ZONES = {
    "AC": "America/Rio_Branco",  # UTC-5
    "AM": "America/Manaus",  # UTC-4
    "RR": "America/Boa_Vista",
    "RO": "America/Porto_Velho",
    "MT": "America/Cuiaba",
    "MS": "America/Campo_Grande",
    "PA": "America/Belem",  # UTC-3 from here on
    "AP": "America/Belem",
    "TO": "America/Araguaina",
    "MA": "America/Fortaleza",
    "PI": "America/Fortaleza",
    "CE": "America/Fortaleza",
    "RN": "America/Fortaleza",
    "PB": "America/Fortaleza",
    "PE": "America/Recife",
    "AL": "America/Maceio",
    "SE": "America/Maceio",
    "BA": "America/Bahia",
    "GO": "America/Sao_Paulo",
    "DF": "America/Sao_Paulo",
    "MG": "America/Sao_Paulo",
    "ES": "America/Sao_Paulo",
    "RJ": "America/Sao_Paulo",
    "SP": "America/Sao_Paulo",
    "PR": "America/Sao_Paulo",
    "SC": "America/Sao_Paulo",
    "RS": "America/Sao_Paulo",
}

_STATE = re.compile(r"(?:^|[\s/,(\-–—])([A-Za-z]{2})\)?\s*$")


def state_of(city: str) -> str:
    """The state (UF) a city is written with ("Campinas/SP", "Manaus - AM", "Rio Branco (AC)"), or ""."""
    match = _STATE.search((city or "").strip())
    if not match:
        return ""
    state = match.group(1).upper()
    return state if state in STATE_ZONES else ""


def event_zone(*, city: str) -> ZoneInfo:
    """The zone the event's times are in: its state's, else the site's."""
    return ZoneInfo(STATE_ZONES.get(state_of(city), settings.TIME_ZONE))
