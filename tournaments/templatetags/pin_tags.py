"""``{% pin_unlock_button jogo dupla_key %}``: the "unlock this dupla's PIN" button, shown only when locked."""

from django import template

from ..models import Dupla, Jogo
from ..sumula.pins import pin_locked

register = template.Library()


@register.inclusion_tag("sumula/_pin_unlock.html")
def pin_unlock_button(jogo: Jogo, dupla_key: str, back: str = "") -> dict[str, object]:
    dupla = (
        Dupla.objects.filter(tournament_id=jogo.tournament_id, key=dupla_key)
        .select_related("tournament", "player1", "player2")
        .first()
    )
    locked = dupla is not None and pin_locked(dupla=dupla)
    return {
        "locked": locked,
        "dupla": dupla,
        "slug": dupla.tournament.slug if dupla else "",
        "jogo_key": jogo.key,
        "back": back,
    }
