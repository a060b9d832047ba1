"""Every URL of the site, filled in with real arguments, and the role each one needs.

``site_urls`` walks Django's resolver (every pattern of ``config.urls``: public pages, the desk, the referee's
screens, printing, the API, private links, accounts, help, the admin) and fills each argument from the World.
``needed`` says who may use a URL: everyone, any signed-in account, the event's referee (or organizer), the
event's organizer, or a superuser (the admin).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

PUBLIC, SIGNED_IN, REFEREE, ORGANIZER, ADMIN = "public", "signed_in", "referee", "organizer", "admin"
# what each account is on the probe's events (the main one and the signup one); the superuser organizes all
ROLE = {
    "anonymous": None,
    "stranger": None,
    "other_organizer": None,
    "referee": REFEREE,
    "organizer": ORGANIZER,
    "superuser": ADMIN,
}
RANK = {None: 0, SIGNED_IN: 1, REFEREE: 2, ORGANIZER: 3, ADMIN: 4}

# API writes the contract lets a dupla make with its PIN (anyone holding it), and the private link's answer and
# appeal: the link is their credential (no CSRF token: tournaments/dupla/views.py says why)
PIN_WRITES = {"api:confirmacao", "privatelink:answer", "privatelink:appeal"}
API_STAFF_WRITES = {"api:maos", "api:mao", "api:resultado", "api:homologacao", "api:correcao", "api:penalidade"}


@dataclass(frozen=True)
class SiteUrl:
    name: str  # namespace:name
    route: str  # the pattern, for the report
    url: str
    params: tuple  # argument names
    slug: str | None  # the probe event the URL belongs to, if any


def _walk(resolver, prefix="", namespace=""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry, prefix + str(entry.pattern), ns)
        elif isinstance(entry, URLPattern) and entry.name:
            name = f"{namespace}:{entry.name}" if namespace else entry.name
            yield name, prefix + str(entry.pattern), tuple(entry.pattern.regex.groupindex)


def needed(name: str, method: str) -> str:
    """The least role that may use URL ``name`` with ``method``, as the contract says it (INTERCHANGE, "Súmula
    API"): the referee's screens (``/organizar/<slug>/arbitragem/``) and the blank súmulas
    (``imprimir/sumulas.pdf``) are the referee's; every other desk page is organizer-only.
    """
    ns = name.split(":", 1)[0] if ":" in name else ""
    if ns == "admin":
        return PUBLIC if name in ("admin:login", "admin:logout", "admin:jsi18n") else ADMIN
    if ns == "desk":
        # the circuit list answers every account (its page says who may create one); a circuit's desk and the
        # atletas' desk are its organizer's (the probe's circuit is the organizer's)
        return SIGNED_IN if name in ("desk:home", "desk:new", "desk:upload", "desk:circuits") else ORGANIZER
    if ns == "referee" or name == "printing:sumulas":
        return REFEREE
    if ns == "printing":
        return ORGANIZER
    if ns == "api":
        return REFEREE if name in API_STAFF_WRITES and method != "GET" else PUBLIC
    if name in ("accounts:logout", "accounts:password_change", "accounts:password_change_done"):
        return SIGNED_IN
    return PUBLIC  # the public pages, sign-up, private links (the link is the credential), help, login


def may(account: str, name: str, method: str, slug: str | None) -> bool:
    need = needed(name, method)
    if need == PUBLIC:
        return True
    if account == "anonymous":
        return False
    if need == SIGNED_IN:
        return True
    if account == "superuser":
        return True
    if need == ADMIN:
        return False
    role = ROLE.get(account) if slug is not None else None
    return RANK[role] >= RANK[need]


def private(name: str) -> bool:
    """A page whose GET must not answer 200 to an account without the role."""
    return needed(name, "GET") in (REFEREE, ORGANIZER, ADMIN)


def _admin_values(name: str) -> dict:
    """object_id for the admin's change/delete/history pages: the first row of that model."""
    action = name.split(":", 1)[1]
    for model in apps.get_models():
        prefix = f"{model._meta.app_label}_{model._meta.model_name}_"
        if action.startswith(prefix):
            row = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
            return {"object_id": str(row) if row is not None else "1"}
    return {}


ATLETAS_DESK = ("desk:atletas", "desk:atletas_join", "desk:atletas_distinct", "desk:atleta")


def _circuit_url(name: str) -> bool:
    """A circuit's page (public or its desk), not the list of circuits."""
    own = name.split(":", 1)[-1]
    return own.startswith("circuit") and own != "circuits"


def _candidates(world, name: str, param: str, quick: bool, params: tuple = ()) -> list:
    jogos = world.jogos
    if param == "slug" and _circuit_url(name):
        return [world.circuit]
    if param == "etapa_id":
        return world.etapa_ids[:1]
    if param == "key" and (name in ATLETAS_DESK or "atleta" in name or name == "desk:circuit_include"):
        return world.atletas[:1]
    if param == "slug":
        if name.startswith("help:"):
            return world.doc_slugs[:1] if quick else world.doc_slugs
        if "registration" in name or name.startswith("tournaments:signup") or name == "desk:registrations_upload":
            return [world.signup_event]
        if set(params) & {"key", "dupla", "jogo", "mao", "token"}:
            return [world.event]
        return [world.event] if quick else [world.event, world.signup_event]
    if param == "key":
        if name == "tournaments:dupla":
            return world.duplas[:1]
        if name == "privatelink:answer":
            return [world.token_jogo]
        statuses = (
            ("awaiting_confirmation",)
            if quick
            else (
                "scheduled",
                "in_progress",
                "awaiting_confirmation",
                "confirmed",
                "contested",
                "homologated",
                "corrected",
            )
        )
        return [jogos[s] for s in statuses if s in jogos]
    if param == "pk":
        return world.registration_ids[:1] or [1]
    if param == "dupla":
        return world.dupla_ids[:1]
    if param == "jogo":
        return world.jogo_ids[-1:]
    if param == "mao":
        return [world.mao or "x"]
    if param == "token":
        return [world.token] if name.startswith("privatelink") else ["sonda-token"]
    if param == "code":
        return ["en"]
    if param == "name":
        return world.doc_images or ["x.png"]
    if param == "uidb64":
        return ["MQ"]
    if param == "app_label":
        return ["tournaments"]
    if param == "object_id":
        return [_admin_values(name).get("object_id", "1")]
    return ["1", "sonda"]  # an argument the probe does not know: a number, else a word (whichever the URL takes)


def site_urls(world, *, quick: bool = False) -> list[SiteUrl]:
    """Every named URL pattern of the site with real arguments (each combination of the candidates)."""
    import itertools

    out: list[SiteUrl] = []
    seen: set = set()
    for name, route, params in _walk(get_resolver()):
        params = tuple(params)
        if name in ("admin:view_on_site",) or "url" in params:
            continue
        if (
            quick
            and name.startswith("admin:")
            and not name.startswith(("admin:tournaments_jogo", "admin:index", "admin:auth_user"))
        ):
            continue
        choices = [_candidates(world, name, p, quick, params) for p in params]
        if any(not c for c in choices):
            continue
        for combo in itertools.product(*choices) if params else [()]:
            kwargs = dict(zip(params, combo, strict=False))
            try:
                url = reverse(name, kwargs=kwargs)
            except NoReverseMatch:
                continue
            if url in seen:
                continue
            seen.add(url)
            slug = kwargs.get("slug") if not name.startswith("help:") else None
            if name.startswith(("privatelink:", "tournaments:")):
                slug = world.event
            if name in ATLETAS_DESK:
                slug = world.circuit  # the atletas of the organizer's circuit
            out.append(SiteUrl(name=name, route=route, url=url, params=params, slug=slug))
    return out
