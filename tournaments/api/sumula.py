"""The súmula API (docs/contrato.md, "Súmula API", ``/api/v1/``): JSON in and out, errors in Portuguese.

Staff authenticate with their session and send the CSRF token in
``X-CSRFToken``; duplas authenticate with their PIN in the body (no CSRF
token needed). Anonymous staff writes → 403; no role on this tournament →
404. Every write is idempotent (the client-made ``id``), so an offline
phone's queue can be sent again safely.
"""

from __future__ import annotations

from functools import wraps

from django.http import HttpResponseNotAllowed, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tournaments.api import parse
from tournaments.api.body import json_body_read
from tournaments.api.serialize import jogo_row, jogos_json, sumula_json
from tournaments.caching import tournament_key
from tournaments.models import Dupla, Jogo, Tournament
from tournaments.permissions import may_referee, may_see_desk, may_view_event, tournament_with_role
from tournaments.refusals import Refused
from tournaments.selectors import tournament_by_slug, tournament_live_get, tournament_live_version
from tournaments.sumula import services
from tournaments.sumula.pins import pin_verify
from tournaments.sumula.selectors import jogo_for_sumula, sumula_get
from tournaments.sumula.services import Actor
from tournaments.web import (
    errors_json,
    etag_make,
    not_modified,
    pin_source,
    refusal_json,
    request_device,
    staff_only,
    staff_only_headers,
)


def _json(data: dict, status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def _body(request) -> dict:
    """The request's JSON object, read once (``tournaments.api.body``: size, type, depth, keys, texts)."""
    data = getattr(request, "_json_body", None)
    if data is None:
        data = json_body_read(request=request)
        request._json_body = data
    return data


def _tournament(slug: str, request=None) -> Tournament:
    """The tournament at ``slug`` (404 without); with ``request``, its user's role on it read in the same query
    (a staff write asks ``_staff`` next)."""
    if request is not None:
        tournament = tournament_with_role(user=request.user, slug=slug)
    else:
        tournament = tournament_by_slug(slug=slug)  # a dupla's confirmation, a public read: one plain query
    if tournament is None:
        raise Refused.not_found(_("torneio %(slug)s não encontrado") % {"slug": slug})
    return tournament


def _dupla_find(tournament: Tournament, key: str) -> Dupla | None:
    """The tournament's dupla ``key``, its tournament the row already read (the PIN check's write locks it)."""
    dupla = next(iter(Dupla.objects.filter(tournament=tournament, key=key).order_by()[:1]), None)  # key is unique
    if dupla is not None:
        dupla.tournament = tournament
    return dupla


def _public_tournament(request, slug: str) -> Tournament:
    """The tournament at ``slug`` for a read or a dupla's answer: 404 for a draft, unless ``request``'s user is on
    its staff (``permissions.may_view_event``)."""
    tournament = _tournament(slug)
    if not tournament.published:
        if not may_view_event(user=request.user, tournament=tournament):
            raise Refused.not_found(_("torneio %(slug)s não encontrado") % {"slug": slug})
        staff_only(request)  # a draft's súmulas, read by its staff: no shared cache keeps them
    return tournament


def _staff(request, tournament: Tournament) -> Actor:
    """The referee or organizer behind a staff write; refuses anyone else (403 / 404) and a missing CSRF token."""
    user = request.user
    if not user.is_authenticated:
        raise Refused.forbidden(_("entre com a conta de árbitro ou da organização (/entrar/)"))
    if not may_see_desk(user=user, tournament=tournament):
        raise Refused.not_found(_("torneio %(slug)s não encontrado") % {"slug": tournament.slug})
    if not may_referee(user=user, tournament=tournament):
        raise Refused.forbidden(_("só o árbitro ou a organização anotam a súmula"))
    if request.method == "POST":  # the JSON body, read before the CSRF check parses it as a form
        _body(request)
    if CsrfViewMiddleware(lambda r: None).process_view(request, lambda r: None, (), {}) is not None:
        raise Refused.forbidden(_("token CSRF ausente ou inválido: envie-o no cabeçalho X-CSRFToken"))
    return Actor(user=user, method="session", device=request_device(request))


def _answer(tournament: Tournament, key: str, status: int = 200, via: int | None = None, written=None) -> JsonResponse:
    if written is not None and written.record is not None:  # the súmula as just written: no need to read it again
        return _json(
            sumula_json(sumula_get(tournament=tournament, jogo=written.jogo, record=written.record)), status=status
        )
    jogo = jogo_for_sumula(tournament=tournament, key=key)
    if jogo is None:
        return refusal_json(Refused.not_found(_("jogo %(key)s não encontrado neste torneio") % {"key": key}))
    data = sumula_get(tournament=tournament, jogo=jogo, via=via)
    if data is None:
        return refusal_json(
            Refused.not_found(_("a súmula do jogo %(key)s não tem a via %(via)s") % {"key": key, "via": via})
        )
    return _json(sumula_json(data), status=status)


def _api(view):
    """Refusals become ``{"errors": [...]}`` with their status; the view itself stays about the súmula."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            response = view(request, *args, **kwargs)
        except Refused as refused:
            return staff_only_headers(request, refusal_json(refused))
        if isinstance(response, HttpResponseNotAllowed):  # errors are always {"errors": [...]}
            allowed = response["Allow"]
            response = errors_json(
                405,
                _("método %(method)s não aceito aqui: use %(allowed)s")
                % {"method": request.method, "allowed": allowed},
            )
            response["Allow"] = allowed
        return staff_only_headers(request, response)

    return csrf_exempt(wrapper)


# --- reads -----------------------------------------------------------------------------------------------


@_api
@require_http_methods(["GET", "HEAD"])
def jogos_list(request, slug: str):
    """Every jogo with its status, partidas won and the points of the partida being played."""
    tournament = _public_tournament(request, slug)
    live_version = tournament_live_version(tournament=tournament)
    etag = etag_make(tournament_key(tournament, live=live_version), "jogos")
    unchanged = not_modified(request, etag=etag)
    if unchanged is not None:
        unchanged["Cache-Control"] = "no-cache"
        return unchanged
    state = tournament_live_get(tournament=tournament, live=live_version)
    key_of = state.dupla_key_by_id()
    stage_key = {s.id: k for k, s in state.stage_models.items()}
    group_key = {gid: g for (_, g), gid in state.group_names.items()}
    jogos = []
    for j in state.jogo_rows:
        result = state.results.get(j.id)
        current = None
        if result is not None and not result.finished and result.partidas and not result.partidas[-1].finished:
            current = result.partidas[-1].score
        jogos.append(
            jogo_row(
                jogo=j,
                stage=stage_key[j.stage_id],
                group=group_key.get(j.group_id),
                duplas=(key_of[j.dupla_a_id], key_of[j.dupla_b_id]),
                score=result.partidas_won if result is not None and result.started else (0, 0),
                current=current,
            )
        )
    response = _json(jogos_json(rows=jogos, live_version=live_version))
    response["ETag"], response["Cache-Control"] = etag, "no-cache"  # kept, but asked again each time: 304
    return response


@_api
@require_http_methods(["GET", "HEAD"])
def jogo_detail(request, slug: str, key: str):
    """One súmula; ``?via=N`` an earlier via of a corrected súmula."""
    tournament = _public_tournament(request, slug)
    return _answer(tournament, key, via=parse.via_query_parse(request.GET))


# --- writes ----------------------------------------------------------------------------------------------


def _staff_write(request, slug: str, key: str, write, read):
    """A staff write whose body is the service's ``data`` (a whole result, a correction, a penalty), as ``read``
    types it."""
    tournament = _tournament(slug, request)
    actor = _staff(request, tournament)
    write(tournament=tournament, key=key, data=read(_body(request)), actor=actor)
    return _answer(tournament, key)


@_api
@require_http_methods(["POST"])
def mao_add(request, slug: str, key: str):
    tournament = _tournament(slug, request)
    actor = _staff(request, tournament)
    written = services.sumula_mao_add(tournament=tournament, key=key, mao=parse.mao_parse(_body(request)), actor=actor)
    return _answer(tournament, key, status=201 if written.created else 200, written=written)


@_api
@require_http_methods(["DELETE"])
def mao_undo(request, slug: str, key: str, mao: str):
    tournament = _tournament(slug, request)
    actor = _staff(request, tournament)
    services.sumula_mao_undo(tournament=tournament, key=key, mao=mao, actor=actor)
    return _answer(tournament, key)


@_api
@require_http_methods(["POST"])
def result_set(request, slug: str, key: str):
    return _staff_write(request, slug, key, services.sumula_result_set, parse.result_parse)


@_api
@require_http_methods(["POST"])
def confirmation(request, slug: str, key: str):
    """A dupla confirms or contests, with its PIN (no account, no CSRF token: the PIN authenticates)."""
    tournament = _public_tournament(request, slug)
    # before the PIN: a malformed body costs no PIN try
    answer = parse.confirmation_parse(_body(request), dupla_find=lambda k: _dupla_find(tournament, k))
    if not Jogo.objects.filter(tournament=tournament, key=key).exists():
        raise Refused.not_found(_("jogo %(key)s não encontrado neste torneio") % {"key": key})
    pin_verify(dupla=answer.dupla, pin=answer.pin, **pin_source(request))
    user = request.user if request.user.is_authenticated else None
    written = services.sumula_answer(
        tournament=tournament,
        key=key,
        dupla=answer.dupla,
        via=answer.via,
        accept=answer.accept,
        reason=answer.reason,
        actor=Actor(user=user, dupla=answer.dupla, method="pin", device=request_device(request)),
    )
    return _answer(tournament, key, written=written)


@_api
@require_http_methods(["POST"])
def homologation(request, slug: str, key: str):
    """The referee signs the via it saw (``{"via": N}``; with a contest or a missing confirmation, a reason)."""
    tournament = _tournament(slug, request)
    actor = _staff(request, tournament)
    signature = parse.signature_parse(_body(request))
    services.sumula_sign(tournament=tournament, key=key, via=signature.via, reason=signature.reason, actor=actor)
    return _answer(tournament, key)


@_api
@require_http_methods(["POST"])
def correction(request, slug: str, key: str):
    return _staff_write(request, slug, key, services.sumula_correct, parse.correction_parse)


@_api
@require_http_methods(["POST"])
def penalty(request, slug: str, key: str):
    """Perda da partida or perda do jogo, with its reason (an addition to the contract's API)."""
    return _staff_write(request, slug, key, services.sumula_penalty, parse.penalty_parse)
