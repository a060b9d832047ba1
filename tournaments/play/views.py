"""The pages of online play (DOMAIN §9.4; INTERCHANGE.md "Online play", URLs): the lobby (``/jogar/``), "jogar
agora" (``POST /jogar/agora/``), a sala (``/jogar/<sala>/``) and a table (``/jogar/mesas/<id>/``) with its seat
forms (sit, leave, move, remove, robots, confirm, start: POSTs to ``/jogar/mesas/<id>/<acao>/``).

The views are thin: they read a form, find who is asking (``identity.profile_from_session``: an account's
profile, or a guest's kept in the session) and call the services of ``tournaments.online``; a refusal comes
back as the page's messages with its status (``web.refusal_status``). The game itself runs over the live
connection (``tournaments.play.consumers``); the table page only draws its frame and hands ``static/js/mesa.js``
its configuration (``mesa-config``: the table, the socket's path, the viewer's seat, the cards and the texts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.ranking import UNRANKED_LEVEL

from ..models import OnlineProfile, OnlineTable, Sala
from ..online import chat, conduct, people, selectors, services
from ..permissions import may_moderate_online
from ..refusals import Refused
from ..web import refusal_messages, refusal_status, refusal_to_form
from . import forms
from .identity import GUEST_SESSION_KEY, profile_from_session

SEATS = 4
DEFAULT_AVATAR = people.AVATARS[0]


class _SeeOther(HttpResponseRedirect):
    """303: after a POST, the browser GETs the page it is sent to."""

    status_code = 303


def _see_other(url: str) -> HttpResponse:
    return _SeeOther(url)


# --- who is asking ------------------------------------------------------------------------------------------


def _profile(request: HttpRequest) -> OnlineProfile | None:
    """The profile of the visitor: an account's (made on its first visit), a guest's kept in the session, or
    None for a guest who has not given a name yet."""
    return profile_from_session(request.session, request.user)


def _guest_profile(request: HttpRequest, *, name: str, avatar: str | None = None) -> OnlineProfile:
    """The guest's profile under ``name`` (and ``avatar``, else the one it had, else the first of the set), its
    key kept in the session. Refused (in Portuguese) for a name the rules do not take."""
    current = _profile(request)
    if avatar is None:
        avatar = current.avatar if current is not None and current.avatar in people.AVATARS else DEFAULT_AVATAR
    profile = people.profile_for_guest(
        guest_key=request.session.get(GUEST_SESSION_KEY), display_name=name, avatar=avatar
    )
    request.session[GUEST_SESSION_KEY] = profile.guest_key
    return profile


def _is_account(request: HttpRequest) -> bool:
    return bool(request.user.is_authenticated)


def _name_required(request: HttpRequest, profile: OnlineProfile | None) -> bool:
    """A guest without a profile gives a name before sitting or creating a table."""
    return profile is None and not _is_account(request)


# --- what the pages show ------------------------------------------------------------------------------------


def _avatar_url(key: str | None) -> str:
    return static(f"img/online/avatars/{key or DEFAULT_AVATAR}.svg")


@dataclass(frozen=True, slots=True)
class AvatarChoice:
    key: str
    url: str
    checked: bool


def _avatar_choices(selected: str | None) -> list[AvatarChoice]:
    chosen = selected if selected in people.AVATARS else DEFAULT_AVATAR
    return [AvatarChoice(key=a, url=_avatar_url(a), checked=a == chosen) for a in people.AVATARS]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One of a table's four seats as the page draws it."""

    seat: int
    number: int  # 1..4, as people count
    dupla: int  # 0 or 1
    name: str
    label: str  # with the level: "Ana (Marreco)"; a robot's "robô básico"
    avatar_url: str
    taken: bool
    robot: bool
    present: bool
    host: bool
    me: bool


def _seat_rows(table: OnlineTable, *, viewer: OnlineProfile | None) -> list[SeatRow]:
    rows = []
    for n, info in enumerate(selectors.seats_info(table=table)):
        if info is None:
            rows.append(
                SeatRow(
                    seat=n,
                    number=n + 1,
                    dupla=n % 2,
                    name="",
                    label=_("livre"),
                    avatar_url="",
                    taken=False,
                    robot=False,
                    present=False,
                    host=False,
                    me=False,
                )
            )
            continue
        robot = bool(info.robot)
        rows.append(
            SeatRow(
                seat=n,
                number=n + 1,
                dupla=n % 2,
                name=info.name,
                label=(
                    _("%(name)s (robô %(level)s)") % {"name": info.name, "level": _robot_level(info.robot)}
                    if robot
                    else _("%(name)s (%(level)s)") % {"name": info.name, "level": _level(info)}
                ),
                avatar_url="" if robot else _avatar_url(info.avatar),
                taken=True,
                robot=robot,
                present=info.present or robot,
                host=info.host,
                me=viewer is not None and info.profile_id == viewer.pk,
            )
        )
    return rows


def _robot_level(level: str) -> str:
    return str(dict(forms.ROBOT_LEVELS).get(level, level)).lower()


def _level(info: selectors.SeatInfo) -> str:
    """The level a seat is shown with: guests are Marreco (004); accounts too until part 3 ranks them."""
    return UNRANKED_LEVEL


def _status_label(table: OnlineTable) -> str:
    return str(dict(OnlineTable.STATUS_CHOICES).get(table.status, table.status))


def _is_host(table: OnlineTable, profile: OnlineProfile | None, request: HttpRequest) -> bool:
    """The host's powers: the table's creator, or the site's staff (DOMAIN §9.6)."""
    if profile is not None and table.host_id == profile.pk:
        return True
    return may_moderate_online(user=request.user)


def _table_for(request: HttpRequest, table_id: int, profile: OnlineProfile | None) -> OnlineTable:
    """The table ``table_id`` as this visitor may see it: 404 when there is none, when it closed, or while it is
    being created (only its host sees it before confirming)."""
    table = selectors.table_get(table_id=table_id)
    if table is None or table.status == OnlineTable.CLOSED:
        raise Http404(_("Mesa não encontrada."))
    if table.status == OnlineTable.DRAFT and not (profile is not None and table.host_id == profile.pk):
        raise Http404(_("Mesa não encontrada."))
    return table


# --- the lobby ------------------------------------------------------------------------------------------------


def _lobby_context(
    request: HttpRequest,
    *,
    profile: OnlineProfile | None,
    quick_form: forms.QuickPlayForm | None = None,
    create_form: forms.TableCreateForm | None = None,
    profile_form: forms.ProfileForm | None = None,
) -> dict[str, Any]:
    name_required = _name_required(request, profile)
    if quick_form is None:
        quick_form = forms.QuickPlayForm(
            name_required=name_required, initial={"nome": profile.display_name if profile else ""}
        )
    if create_form is None:
        create_form = forms.TableCreateForm(name_required=name_required)
    if profile_form is None:
        profile_form = forms.ProfileForm(
            avatars=people.AVATARS,
            name_required=not _is_account(request),
            initial={"nome": profile.display_name if profile else "", "avatar": profile.avatar if profile else None},
        )
    selected_avatar = profile_form["avatar"].value() if profile_form.is_bound else (profile.avatar if profile else None)
    return {
        "profile": profile,
        "notices": conduct.conduct_notices(profile=profile) if profile else [],
        "profile_label": people.profile_label(profile) if profile else "",
        "profile_avatar": _avatar_url(profile.avatar) if profile else "",
        "is_account": _is_account(request),
        "name_required": name_required,
        "salas": selectors.lobby(),
        "quick_form": quick_form,
        "create_form": create_form,
        "profile_form": profile_form,
        "avatars": _avatar_choices(selected_avatar),
        "appearances": _choices(create_form, "aparencia", forms.APPEARANCES, lambda key: ""),
        "faces": _choices(create_form, "cartas", forms.FACES, lambda key: static(f"img/online/cards/{key}/Ap.svg")),
        "backs": _choices(create_form, "verso", forms.BACKS, lambda key: static(f"img/online/backs/{key}.svg")),
    }


@dataclass(frozen=True, slots=True)
class LookChoice:
    key: str
    label: str
    image: str
    checked: bool


def _choices(form: forms.TableCreateForm, field: str, options: Any, image: Any) -> list[LookChoice]:
    value = form[field].value()
    return [
        LookChoice(key=str(key), label=str(label), image=image(key), checked=key == value) for key, label in options
    ]


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """``/jogar/``: the salas with their free seats, "jogar agora", a new table, the visitor's name and avatar."""
    profile = _profile(request)
    return render(request, "play/lobby.html", _lobby_context(request, profile=profile))


@require_POST
def quick(request: HttpRequest) -> HttpResponse:
    """``POST /jogar/agora/`` (field ``nome``): a seat at the first casual table with room, 303 to the table."""
    profile = _profile(request)
    name_required = _name_required(request, profile)
    form = forms.QuickPlayForm(request.POST, name_required=name_required)
    if not form.is_valid():
        context = _lobby_context(request, profile=profile, quick_form=form)
        return render(request, "play/lobby.html", context, status=400)
    try:
        name = form.cleaned_data.get("nome") or ""
        if not _is_account(request) and (profile is None or (name and name != profile.display_name)):
            profile = _guest_profile(request, name=name)
        assert profile is not None
        table = services.quick_seat(profile=profile)
    except Refused as refused:
        refusal_to_form(form, _placed(refused))
        context = _lobby_context(request, profile=_profile(request), quick_form=form)
        return render(request, "play/lobby.html", context, status=refusal_status(refused))
    return _see_other(reverse("play:table", args=[table.pk]))


def _placed(refused: Refused) -> Refused:
    """People's refusals name ``display_name``; the forms call it ``nome``."""
    for problem in refused.problems:
        if getattr(problem, "place", None) == people.NAME_FIELD:
            return Refused(
                refused.kind,
                *refused.messages,
                problems=[
                    _Problem("nome" if p.place == people.NAME_FIELD else p.place, p.message) for p in refused.problems
                ],
            )
    return refused


@dataclass(frozen=True, slots=True)
class _Problem:
    place: str
    message: str


@require_POST
def profile_save(request: HttpRequest) -> HttpResponse:
    """``POST /jogar/perfil/``: the visitor's name and avatar (an account changes only its avatar... and name)."""
    profile = _profile(request)
    form = forms.ProfileForm(request.POST, avatars=people.AVATARS, name_required=not _is_account(request))
    if not form.is_valid():
        context = _lobby_context(request, profile=profile, profile_form=form)
        return render(request, "play/lobby.html", context, status=400)
    avatar = form.cleaned_data["avatar"]
    try:
        if _is_account(request):
            assert profile is not None
            people.profile_update(profile=profile, display_name=profile.display_name, avatar=avatar)
        else:
            _guest_profile(request, name=form.cleaned_data["nome"], avatar=avatar)
    except Refused as refused:
        refusal_to_form(form, _placed(refused))
        context = _lobby_context(request, profile=profile, profile_form=form)
        return render(request, "play/lobby.html", context, status=refusal_status(refused))
    messages.success(request, _("Pronto: é assim que você aparece nas mesas."))
    return _see_other(_next_or(request, reverse("play:lobby")))


def _next_or(request: HttpRequest, default: str) -> str:
    """A ``next`` path of this site (never another host), else ``default``."""
    target = request.POST.get("next", "")
    if target.startswith("/jogar/") and "//" not in target and "\\" not in target:
        return target
    return default


@require_http_methods(["GET", "HEAD", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """``/jogar/mesas/nova/``: GET the form alone; POST a new table, hidden until its host confirms it."""
    profile = _profile(request)
    name_required = _name_required(request, profile)
    if request.method != "POST":
        return render(request, "play/table_new.html", _lobby_context(request, profile=profile))
    form = forms.TableCreateForm(request.POST, name_required=name_required)
    if not form.is_valid():
        context = _lobby_context(request, profile=profile, create_form=form)
        return render(request, "play/table_new.html", context, status=400)
    data = form.cleaned_data
    try:
        if profile is None:
            profile = _guest_profile(request, name=data["nome"])
        table = services.table_create(
            host=profile, appearance=data["aparencia"], face=data["cartas"], back=data["verso"], password=data["senha"]
        )
    except Refused as refused:
        refusal_to_form(form, _placed(refused))
        context = _lobby_context(request, profile=_profile(request), create_form=form)
        return render(request, "play/table_new.html", context, status=refusal_status(refused))
    messages.info(request, _("Mesa criada. Ela só aparece no salão depois que você a confirmar."))
    return _see_other(reverse("play:table", args=[table.pk]))


# --- a sala ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableCard:
    """A table as the sala lists it."""

    id: int
    number: int
    status: str
    status_label: str
    locked: bool
    seats: list[SeatRow]
    free: int
    url: str


def _sala_or_404(slug: str) -> Sala:
    sala = selectors.sala_get(slug=slug)
    if sala is None:
        raise Http404(_("Salão não encontrado."))
    return sala


def _sala_context(request: HttpRequest, sala: Sala, *, chat_form: forms.ChatForm | None = None) -> dict[str, Any]:
    profile = _profile(request)
    cards = []
    for table in selectors.sala_tables(sala=sala):
        rows = _seat_rows(table, viewer=profile)
        cards.append(
            TableCard(
                id=table.pk,
                number=table.number,
                status=table.status,
                status_label=_status_label(table),
                locked=bool(table.password_hash),
                seats=rows,
                free=sum(1 for r in rows if not r.taken),
                url=reverse("play:table", args=[table.pk]),
            )
        )
    return {
        "sala": sala,
        "tables": cards,
        "profile": profile,
        "name_required": _name_required(request, profile),
        "chat_lines": chat.chat_history(sala=sala, limit=50),
        "chat_form": chat_form or forms.ChatForm(),
        "chat_max": forms.CHAT_MAX,
        "avatar_base": static("img/online/avatars/"),
    }


@require_safe
def sala(request: HttpRequest, slug: str) -> HttpResponse:
    """``/jogar/<sala>/``: its tables (up to 60) with seats, players and state; its chat. ``?parte=mesas`` or
    ``?parte=chat``: that part alone (``static/js/sala.js`` refreshes them)."""
    found = _sala_or_404(slug)
    context = _sala_context(request, found)
    part = request.GET.get("parte")
    if part in ("mesas", "chat"):
        response = render(request, f"play/sala.html#{part}", context)
        response["Cache-Control"] = "no-store"
        return response
    return render(request, "play/sala.html", context)


@require_POST
def sala_chat(request: HttpRequest, slug: str) -> HttpResponse:
    """``POST /jogar/<sala>/chat/`` (field ``texto``): a message in the sala's chat."""
    found = _sala_or_404(slug)
    profile = _profile(request)
    form = forms.ChatForm(request.POST)
    status = 303
    if profile is None:
        form.is_valid()
        form.add_error(None, _("Escolha um nome no salão principal antes de escrever no chat."))
        status = 403
    elif form.is_valid():
        try:
            chat.chat_post(profile=profile, text=form.cleaned_data["texto"], sala=found, now=timezone.now())
        except Refused as refused:
            refusal_to_form(form, refused)
            status = refusal_status(refused)
    else:
        status = 400
    wants_part = request.headers.get("X-Requested-With") == "fetch"
    if status == 303:
        if wants_part:
            return render(request, "play/sala.html#chat", _sala_context(request, found))
        return _see_other(reverse("play:sala", args=[found.slug]) + "#chat")
    context = _sala_context(request, found, chat_form=form)
    if wants_part:
        return render(request, "play/sala.html#chat", context, status=status)
    return render(request, "play/sala.html", context, status=status)


# --- a table --------------------------------------------------------------------------------------------------


def _mesa_strings() -> dict[str, Any]:
    """The texts the table's script shows and says (aria-live), in the visitor's language."""
    return {
        "levels": {"3": _("truco"), "6": _("seis"), "9": _("nove"), "12": _("doze")},
        "bet_button": {"3": _("Truco!"), "6": _("Seis!"), "9": _("Nove!"), "12": _("Doze!")},
        "ranks": {
            "4": "4",
            "5": "5",
            "6": "6",
            "7": "7",
            "Q": _("dama"),
            "J": _("valete"),
            "K": _("rei"),
            "A": _("ás"),
            "2": "2",
            "3": "3",
        },
        "suits": {"p": _("paus"), "c": _("copas"), "e": _("espadas"), "o": _("ouros")},
        "card": _("%(rank)s de %(suit)s"),
        "card_closed": _("carta fechada"),
        "card_hidden": _("carta virada %(n)s"),
        "us": _("vocês"),
        "them": _("eles"),
        "pair": _("%(a)s e %(b)s"),
        "ev_play": _("%(name)s jogou %(card)s"),
        "ev_play_closed": _("%(name)s jogou uma carta fechada"),
        "ev_bet": _("%(name)s pediu %(level)s"),
        "ev_accept": _("%(name)s aceitou: a mão vale %(value)s"),
        "ev_run": _("%(name)s correu: +%(points)s para %(who)s"),
        "ev_raise": _("%(name)s aumentou: pediu %(level)s"),
        "ev_onze_play": _("%(name)s topou a mão de onze: vale 3"),
        "ev_onze_run": _("%(name)s correu da mão de onze: +1 para %(who)s"),
        "ev_vote_yes": _("%(name)s votou por mais tempo"),
        "ev_vote_no": _("%(name)s votou contra mais tempo"),
        "ev_vote_extend": _("A mesa deu mais 35 segundos para %(name)s"),
        "ev_vote_abandon": _("%(name)s abandonou a partida: vitória de %(who)s"),
        "ev_expiry_turn": _("O tempo de %(name)s acabou: votação para dar mais tempo"),
        "ev_expiry_answer": _("%(name)s não respondeu a tempo: correu, +%(points)s para %(who)s"),
        "ev_expiry_onze": _("Acabou o tempo da decisão: a mão de onze será jogada, valendo 3"),
        "ev_expiry_vote": _("Acabou o tempo da votação"),
        "ev_absent": _("%(name)s está ausente"),
        "ev_back": _("%(name)s voltou"),
        "ev_suspend": _("Mesa suspensa: os relógios pararam"),
        "ev_resume": _("Mesa retomada"),
        "mao_won": _("Mão para %(who)s: +%(points)s. Placar %(us)s × %(them)s"),
        "mao_tied": _("Mão empatada: ninguém pontua"),
        "mao_new": _("Mão %(n)s: %(name)s começa"),
        "mao_onze": _("Mão de onze: sem truco, vale 3"),
        "mao_ferro": _("Mão de ferro: ninguém vê as próprias cartas"),
        "rodada_won": _("Rodada para %(who)s"),
        "rodada_tied": _("Rodada empatada (cangou)"),
        "your_turn": _("Sua vez"),
        "your_answer": _("Responda: %(name)s pediu %(level)s"),
        "turn_of": _("Vez de %(name)s"),
        "answer_of": _("%(name)s responde"),
        "won": _("Vocês venceram a partida!"),
        "lost": _("Eles venceram a partida."),
        "won_by": _("Vitória de %(who)s"),
        "abandon_by": _("Partida terminada por abandono de %(name)s"),
        "end_title": _("Fim da partida"),
        "log_link": _("Registro da partida (JSON)"),
        "waiting": _("Aguardando jogadores: %(n)s de 4 sentados"),
        "waiting_start": _("Mesa completa: o anfitrião começa a partida"),
        "value": _("Vale %(n)s"),
        "mao_n": _("Mão %(n)s"),
        "vira": _("Vira"),
        "manilha": _("manilha: %(rank)s"),
        "seconds": _("%(n)s s"),
        "you": _("Você"),
        "absent": _("ausente"),
        "robot": _("robô"),
        "host": _("anfitrião"),
        "free": _("livre"),
        "hand": _("Suas cartas"),
        "hand_play": _("Jogue uma carta: 1, 2 ou 3"),
        "partner_cards": _("Cartas do seu parceiro"),
        "closed_toggle": _("Jogar fechada"),
        "accept": _("Aceitar"),
        "run": _("Correr"),
        "onze_question": _("Mão de onze: vocês têm 11. Jogam a mão (vale 3) ou correm (+1 para eles)?"),
        "onze_wait": _("A dupla com 11 pontos decide se joga a mão de onze"),
        "onze_play": _("Jogar a mão"),
        "onze_run": _("Correr"),
        "vote_question": _("O tempo de %(name)s acabou. Dar mais 35 segundos?"),
        "vote_yes": _("Sim, mais tempo"),
        "vote_no": _("Não"),
        "vote_wait": _("Votação: mais 35 segundos para %(name)s? %(yes)s sim, %(no)s não"),
        "vote_you": _("Seu tempo acabou: os outros votam se você ganha mais 35 segundos"),
        "sound_on": _("Som ligado"),
        "sound_off": _("Som desligado"),
        "connecting": _("Conectando…"),
        "connected": _("Conectado"),
        "reconnecting": _("Sem conexão: tentando de novo em %(n)s s…"),
        "closed_abuse": _("Conexão encerrada: mensagens demais. Reconectando em instantes."),
        "closed_forbidden": _("Esta mesa não aceita a sua conexão. Volte ao salão."),
        "table_closed": _("Esta mesa foi fechada."),
        "refused": _("Não deu: %(reason)s"),
        "offline": _("Sem conexão com a mesa: espere reconectar."),
        "reaction_sent": _("%(name)s: %(label)s"),
        "chat_from": _("%(name)s: %(text)s"),
        "report": _("denunciar"),
        "report_title": _("Denunciar esta mensagem"),
        "suspended": _("Mesa suspensa"),
        "first": _("mão"),
        "partida_new": _("Partida %(n)s começou: %(name)s abre a primeira mão"),
        "status": {key: str(label) for key, label in OnlineTable.STATUS_CHOICES},
    }


def _mesa_config(
    table: OnlineTable, *, seat: int | None, host: bool, rows: list[SeatRow], request: HttpRequest
) -> dict[str, Any]:
    return {
        "table": table.pk,
        "ws": f"/ws/mesas/{table.pk}/",
        "seat": seat,
        "host": host,
        "status": table.status,
        "face": table.face or "classico",
        "back": table.back or "azul",
        "appearance": table.appearance or "verde",
        "sounds": True,
        "partida_n": table.partida_n,
        "seats": [
            (
                {
                    "seat": r.seat,
                    "name": r.name,
                    "avatar": r.avatar_url,
                    "robot": r.robot,
                    "present": r.present,
                    "host": r.host,
                }
                if r.taken
                else None
            )
            for r in rows
        ],
        "static": {
            "cards": static("img/online/cards/"),
            "backs": static("img/online/backs/"),
            "avatars": static("img/online/avatars/"),
            "sounds": static("sounds/online/"),
        },
        "part": reverse("play:table", args=[table.pk]) + "?parte=assentos",
        "log": reverse("play:table", args=[table.pk]) + "partidas/__N__/registro.json",
        "lobby": reverse("play:lobby"),
        "report": reverse("play:conduct:report"),
        "t": _mesa_strings(),
    }


def _table_context(request: HttpRequest, table: OnlineTable, profile: OnlineProfile | None) -> dict[str, Any]:
    rows = _seat_rows(table, viewer=profile)
    mine = next((r.seat for r in rows if r.me), None)
    torneio = table.kind == OnlineTable.TORNEIO  # a tournament jogo: no host, seats by the duplas' links
    host = _is_host(table, profile, request) and not torneio
    seated = sum(1 for r in rows if r.taken)
    chat_lines = chat.chat_history(table=table, limit=50) if mine is not None else []
    return {
        "table": table,
        "sala": table.sala,
        "rows": rows,
        "around": [{"pos": pos, "row": rows[((mine or 0) + pos) % SEATS]} for pos in range(SEATS)],
        "my_seat": mine,
        "is_host": host,
        "profile": profile,
        "name_required": _name_required(request, profile),
        "status_label": _status_label(table),
        "seated": seated,
        "full": seated == SEATS,
        "locked": bool(table.password_hash),
        "open": table.status == OnlineTable.OPEN,
        "draft": table.status == OnlineTable.DRAFT,
        "playing": table.status == OnlineTable.PLAYING,
        "finished": table.status == OnlineTable.FINISHED,
        "can_seat": table.status in (OnlineTable.OPEN, OnlineTable.DRAFT, OnlineTable.FINISHED) and not torneio,
        "seat_choices": [(r.seat, r.number) for r in rows],
        "robot_levels": forms.ROBOT_LEVELS,
        "chat_lines": chat_lines,
        "chat_max": forms.CHAT_MAX,
        "reactions": [
            {"name": n, "label": str(chat.REACTION_LABELS[n]), "symbol": chat.REACTION_SYMBOLS[n]}
            for n in chat.REACTIONS
        ],
        "mesa": _mesa_config(table, seat=mine, host=host, rows=rows, request=request),
        "log_url": (
            reverse("play:table", args=[table.pk]) + f"partidas/{table.partida_n}/registro.json"
            if table.status == OnlineTable.FINISHED and table.partida_n
            else ""
        ),
    }


@require_safe
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """``/jogar/mesas/<id>/``: the table screen (``?parte=assentos``: the seats panel alone, for mesa.js)."""
    profile = _profile(request)
    found = _table_for(request, table_id, profile)
    if found.jogo_id is not None and request.GET.get("parte") != "assentos":  # a tournament jogo's own address
        jogo = found.jogo
        assert jogo is not None
        return HttpResponseRedirect(reverse("jogo_table", kwargs={"slug": jogo.tournament.slug, "key": jogo.key}))
    context = _table_context(request, found, profile)
    if request.GET.get("parte") == "assentos":
        response = render(request, "play/table.html#assentos", context)
        response["Cache-Control"] = "no-store"
        return response
    response = render(request, "play/table.html", context)
    response["Cache-Control"] = "no-store"
    return response


ACTIONS = ("confirmar", "sentar", "sair", "mover", "remover", "robos", "iniciar")


@require_POST
def table_action(request: HttpRequest, table_id: int, acao: str) -> HttpResponse:
    """``POST /jogar/mesas/<id>/<acao>/``: confirm the table, sit, leave, move, remove, robots, start.

    Success: 303 to the table (to the lobby after leaving). A refusal: the table page with the message and the
    refusal's status (403 for a host power asked by someone else, 409 for a seat taken meanwhile, …)."""
    if acao not in ACTIONS:
        raise Http404(_("Ação desconhecida."))
    profile = _profile(request)
    found = _table_for(request, table_id, profile)
    back = reverse("play:table", args=[found.pk])
    try:
        if profile is None:
            if acao != "sentar":
                raise Refused.forbidden(_("Escolha um nome e sente-se à mesa primeiro."))
            name = forms.DisplayNameField(required=True).clean(request.POST.get("nome", ""))
            profile = _guest_profile(request, name=name)
        done = _act(request, found, profile, acao)
    except forms.forms.ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return _table_page_after_refusal(request, found, status=400)
    except Refused as refused:
        refusal_messages(request, refused)
        return _table_page_after_refusal(request, found, status=refusal_status(refused))
    if done:
        messages.success(request, done)
    if acao == "sair":
        return _see_other(reverse("play:sala", args=[found.sala.slug]) if found.sala else reverse("play:lobby"))
    return _see_other(back)


def _act(request: HttpRequest, table: OnlineTable, profile: OnlineProfile, acao: str) -> str:
    """Run one seat form; the message to show, or a ``ValidationError`` / ``Refused``."""
    post = request.POST
    if acao == "confirmar":
        services.table_confirm(table=table, by=profile)
        return _("Mesa confirmada: ela já aparece no salão.")
    if acao == "sentar":
        form = forms.SitForm(post)
        if not form.is_valid():
            raise forms.forms.ValidationError([e for errors in form.errors.values() for e in errors])
        services.seat_take(
            table=table, profile=profile, seat=form.cleaned_data["assento"], password=form.cleaned_data["senha"]
        )
        return _("Você sentou à mesa.")
    if acao == "sair":
        services.seat_leave(table=table, profile=profile)
        return _("Você saiu da mesa.")
    if acao == "mover":
        move = forms.MoveForm(post)
        if not move.is_valid():
            raise forms.forms.ValidationError([e for errors in move.errors.values() for e in errors])
        services.seat_move(
            table=table, by=profile, from_seat=move.cleaned_data["de"], to_seat=move.cleaned_data["para"]
        )
        return _("Jogador mudado de assento.")
    if acao == "remover":
        seat_form = forms.SeatOnlyForm(post)
        if not seat_form.is_valid():
            raise forms.forms.ValidationError([e for errors in seat_form.errors.values() for e in errors])
        services.seat_remove(table=table, by=profile, seat=seat_form.cleaned_data["assento"])
        return _("Jogador removido da mesa.")
    if acao == "robos":
        robots = forms.RobotsForm(post)
        if not robots.is_valid():
            raise forms.forms.ValidationError([e for errors in robots.errors.values() for e in errors])
        services.robots_fill(table=table, by=profile, level=robots.cleaned_data["nivel"] or "basico")
        return _("Robôs sentados nos lugares vazios.")
    services.table_start(table=table, by=profile)
    return ""


def _table_page_after_refusal(request: HttpRequest, table: OnlineTable, *, status: int) -> HttpResponse:
    profile = _profile(request)
    refreshed = selectors.table_get(table_id=table.pk) or table
    response = render(request, "play/table.html", _table_context(request, refreshed, profile), status=status)
    response["Cache-Control"] = "no-store"
    return response
