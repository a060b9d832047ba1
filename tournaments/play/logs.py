"""``/jogar/mesas/<id>/partidas/<n>/registro.json``: a finished partida's game log (INTERCHANGE.md "The game
log"), public once the partida ends (a tournament jogo's once its result counts, as its replay). A partida being played, or one that does not exist, is a 404 (JSON)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _

from ..models import OnlineTable
from ..online import selectors
from ..online.replay import replay_public
from ..web import errors_json, read_only


@read_only
def registro(request: HttpRequest, table_id: int, n: int) -> HttpResponseBase:
    data = selectors.partida_log(table_id=table_id, n=n)
    table = OnlineTable.objects.filter(pk=table_id).first() if data is not None else None
    if data is not None and table is not None and not replay_public(table):
        # a tournament jogo's log is public with its replay: once the jogo's result counts (DOMAIN §9.7)
        data = None
    if data is None:
        return errors_json(404, _("Não há registro desta partida: ela não existe ou ainda não terminou."))
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'inline; filename="mesa-{table_id}-partida-{n}.json"'
    response["Cache-Control"] = "public, max-age=3600"  # a finished partida's log never changes
    return response
