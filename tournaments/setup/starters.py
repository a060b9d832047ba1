"""The starting points of a new tournament at the desk: so the common case is three fields."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

# The AABB-SP 2024 regulation's own articles (Regulamento Específico Truco, Olimpíada Recreativa da AABB-SP),
# as the event's regulation text; Art. 9º (the rules of truco paulista) is cited, not copied.
AABB_REGULATION = """Regulamento Específico Truco — Olimpíada Recreativa da AABB-SP

Art. 1º: O Truco será realizado em 1 categoria mista: a partir de 18 anos.
Art. 2º: A categoria terá um limite de 16 duplas.
Art. 3º: Das Inscrições: as inscrições poderão ser individuais ou em duplas. No caso de inscrição individual as \
duplas serão formadas através de sorteio.
Art. 4º: Forma de Disputa
- O sistema de disputa da modalidade Truco será o de eliminatória simples.
- Os jogos serão decididos por sorteio, após a confirmação das duplas.
- Os jogos serão disputados em melhor de 5 confrontos na primeira fase e em melhor de 3 confrontos nas demais fases.
Art. 5º: Regras: serão observadas as regras do regulamento da Federação Paulista de Truco.
Art. 6º: Recursos ou Detalhes Técnicos: qualquer reclamação será decidida pelo árbitro; se não houver acordo, \
caberá recurso e será decidido pela Comissão Organizadora.
Art. 7º: Serão premiados com medalhas os atletas das três primeiras colocações, de acordo com o regulamento geral.
Art. 8º: Os casos omissos serão resolvidos pela comissão organizadora do evento.
Art. 9º: Regras do Truco Paulista (Federação Paulista de Truco)."""


@dataclass(frozen=True)
class Starter:
    key: str
    label: Any
    description: Any
    fields: dict[str, Any] = field(default_factory=dict)  # Tournament fields
    format: dict[str, Any] = field(default_factory=dict)  # Tournament.format


STARTERS: dict[str, Starter] = {
    s.key: s
    for s in (
        Starter(
            key="aabb",
            label=_("Olimpíada AABB: 16 duplas, mata-mata, melhor de 5 e depois de 3"),
            description=_(
                "Regulamento AABB-SP 2024: mista, a partir de 18 anos, inscrição individual ou em dupla, "
                "duplas sorteadas, mata-mata com disputa de 3º lugar."
            ),
            fields={
                "preset": "aabb",
                "category": "Mista, a partir de 18 anos",
                "min_age": 18,
                "max_duplas": 16,
                "public_signup": True,
                "settings": {},
                # what the regulation says besides the date and the venue (which the organizer types)
                "start_time": dt.time(14, 0),
                "city": "São Paulo/SP",
                "regulation": AABB_REGULATION,
            },
            format={"kind": "knockout", "best_of_knockout": 3, "best_of_rounds": {"1": 5}, "bracket_method": "random"},
        ),
        Starter(
            key="fenacef",
            label=_("FENACEF: grupos e mata-mata"),
            description=_(
                "Regulamento FENACEF 2023: grupos de 4 em melhor de 3, os 2 primeiros de cada grupo no "
                "mata-mata em melhor de 5; 3º lugar pela média."
            ),
            fields={"preset": "fenacef", "public_signup": False, "settings": {}},
            format={
                "kind": "groups_knockout",
                "group_size": 4,
                "per_group": 2,
                "best_others": 0,
                "best_of_groups": 3,
                "best_of_knockout": 5,
                "best_of_rounds": {},
                "bracket_method": "seeded",
            },
        ),
        Starter(
            key="blank",
            label=_("Em branco"),
            description=_("Só o nome e a data; o resto você escolhe depois."),
            fields={"preset": "fenacef", "settings": {}},
            format={},
        ),
    )
}


def starter_choices() -> list[tuple[str, Any]]:
    return [(s.key, s.label) for s in STARTERS.values()]
