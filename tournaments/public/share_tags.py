"""The share tags (template library ``share``, registered in ``config/settings.py``), read from the page's own context:

- ``{% share_head %}`` (base.html's head): the meta description, Open Graph and Twitter tags of a public page, its
  card (``tournaments.public.share``) linked with the version it shows; nothing on the desk's or a dupla's private
  pages;
- ``{% share_whatsapp %}``: a "Compartilhar no WhatsApp" link (wa.me) with a short text and the page's address;
- ``{% embed_box %}``: the "Incorporar" box of an event or a circuit: the code of each embed, to copy.

Each page's words come from what its view already gave the template (the event's head and state, the circuit's
ranking, the atleta's history): no query here, and the pages stay cached per version as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.public import share

register = template.Library()

PRIVATE = ("desk", "referee", "printing", "admin", "privatelink", "api", "embed")  # no share tags there


@dataclass(frozen=True, slots=True)
class ShareHead:
    title: str
    description: str
    url: str
    image: str
    image_alt: str
    kind: str = "website"


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def _event_share(context: Any, name: str, path: str) -> ShareHead:
    event = context["event"]
    state = context.get("state")
    page = context.get("page")
    labels = {
        "standings": _("Classificação"),
        "bracket": _("Chave"),
        "jogos": _("Jogos e placares"),
        "duplas": _("Duplas"),
        "dupla": _("Dupla"),
        "sumula": _("Súmula"),
        "tv": _("TV"),
    }
    title = f"{labels[name]} · {event.name}" if name in labels else event.name
    where = ", ".join(p for p in (event.venue, event.city) if p)
    facts = " · ".join(p for p in (event.date, where, event.status.label) if p)
    words = {
        "standings": _("Tabelas dos grupos com os desempates e a classificação geral."),
        "bracket": _("A chave do mata-mata com os placares ao vivo."),
        "jogos": _("Jogos e placares por rodada e por mesa, ao vivo."),
        "duplas": _("As duplas inscritas e seus jogadores."),
        "dupla": _("Os jogos de uma dupla, sua mesa e seu caminho na chave."),
        "sumula": _("A súmula de um jogo, mão a mão."),
    }.get(name, _("Classificação, chave e placares ao vivo."))
    podium = getattr(page, "podium", None) if name == "detail" else None
    if podium:
        words = _("Pódio: %(names)s.") % {"names": "; ".join(f"{r.place_label} {r.dupla.name}" for r in podium)}
    description = _("Torneio de truco em dupla · %(facts)s. %(words)s") % {"facts": facts, "words": words}
    if name == "bracket":
        card = "tournaments:bracket_card"
    elif name == "detail" and podium:
        card = "tournaments:podium_card"
    else:
        card = "tournaments:card"
    image = absolute(reverse(card, args=[event.slug]))
    if state is not None:
        image += "?v=" + share.event_version(state.tournament)
    return ShareHead(title=title, description=description, url=absolute(path), image=image, image_alt=title)


def share_of(context: Any) -> ShareHead | None:
    """What a page says when shared, from its context; None for a page that is not public."""
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    if request is None or match is None or match.namespace in PRIVATE:
        return None
    name = match.url_name or ""
    path = request.path
    site_image = absolute(reverse("site_card"))
    if match.namespace == "tournaments" and "event" in context:
        return _event_share(context, name, path)
    if match.namespace == "tournaments" and "tournament" in context:  # the sign-up pages
        t = context["tournament"]
        title = _("Inscrição · %(name)s") % {"name": t.name}
        return ShareHead(
            title=title,
            description=_("Inscreva-se em %(name)s, torneio de truco em dupla.") % {"name": t.name},
            url=absolute(path),
            image=absolute(reverse("tournaments:card", args=[t.slug])),
            image_alt=title,
        )
    if name == "circuit" and "s" in context:
        s = context["s"]
        counted, total = len(s.counted), len(s.etapas)
        title = _("Ranking · %(name)s") % {"name": s.circuit_name}
        description = ngettext(
            "Ranking do circuito %(name)s: %(n)s atleta, %(counted)s de %(total)s etapas contadas.",
            "Ranking do circuito %(name)s: %(n)s atletas, %(counted)s de %(total)s etapas contadas.",
            s.total,
        ) % {"name": s.circuit_name, "n": s.total, "counted": counted, "total": total}
        image = absolute(reverse("circuit_card", args=[s.circuit_slug])) + f"?v=v{s.version}"
        return ShareHead(title=title, description=description, url=absolute(path), image=image, image_alt=title)
    if name == "atleta" and "h" in context:
        h = context["h"]
        level = h.level + (f" ({h.score})" if h.score is not None else "")
        description = _("%(name)s no Zap: Nível %(level)s, %(events)s, %(won)s.") % {
            "name": h.atleta.name,
            "level": level,
            "events": ngettext("%(n)s torneio", "%(n)s torneios", len(h.events)) % {"n": len(h.events)},
            "won": ngettext("%(n)s vitória", "%(n)s vitórias", h.won) % {"n": h.won},
        }
        image = absolute(reverse("atleta_card", args=[h.atleta.key])) + "?v=" + share.atleta_version(h)
        return ShareHead(
            title=h.atleta.name, description=description, url=absolute(path), image=image, image_alt=h.atleta.name
        )
    if match.namespace == "help" and "doc" in context:
        title = _("%(title)s · Ajuda do Zap") % {"title": context["doc"].title}
        description = _("%(title)s: como organizar, jogar e acompanhar torneios de truco em dupla no Zap.") % {
            "title": context["doc"].title
        }
        return ShareHead(title=title, description=description, url=absolute(path), image=site_image, image_alt=title)
    general = {
        "list": (_("Torneios"), _("Torneios de truco em dupla no Zap: ao vivo agora, próximos e encerrados.")),
        "ranking": (_("Ranking de Nível"), _("O ranking de Nível dos atletas de truco do Zap, jogo a jogo.")),
        "circuits": (_("Circuitos"), _("Circuitos de truco: temporadas de etapas com ranking de atletas e equipes.")),
    }
    site = _(
        "Zap: torneios de truco em dupla — inscrições, sorteios, súmulas, classificação, chave e placares ao vivo."
    )
    title, description = general.get(name, (_("Zap · Truco"), site))
    return ShareHead(title=title, description=description, url=absolute(path), image=site_image, image_alt=title)


@register.inclusion_tag("embed/_meta.html", takes_context=True)
def share_head(context: Any) -> dict[str, Any]:
    return {"share": share_of(context)}


def whatsapp_url(text: str) -> str:
    """wa.me with ``text`` (WhatsApp opens with it typed, the person picks the chat)."""
    return "https://wa.me/?text=" + quote(text, safe="")


@register.inclusion_tag("embed/_whatsapp.html", takes_context=True)
def share_whatsapp(context: Any) -> dict[str, Any]:
    head = share_of(context)
    if head is None:
        return {"url": ""}
    return {"url": whatsapp_url(f"{head.title} — {_('no Zap')}: {head.url}")}


@dataclass(frozen=True, slots=True)
class EmbedCode:
    key: str
    label: str
    url: str
    code: str


def embed_code(url: str, title: str) -> str:
    """The HTML a site pastes: the iframe, and a few lines that set its height from the embed's message."""
    origin = settings.SITE_URL
    return (
        f'<iframe src="{url}" title="{title}" width="100%" height="600" loading="lazy" '
        'style="border:0;width:100%"></iframe>\n'
        '<script>addEventListener("message",function(e){'
        f'if(e.origin!=="{origin}"||!e.data||e.data.type!=="zap:altura")return;'
        'document.querySelectorAll("iframe").forEach(function(f){'
        "if(f.contentWindow===e.source)f.height=e.data.height;});});</script>"
    )


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


@register.inclusion_tag("embed/_incorporar.html", takes_context=True)
def embed_box(context: Any) -> dict[str, Any]:
    """The embeds of this event (its head in ``event``) or circuit (``s``), each with its code."""
    items: list[tuple[str, str, str]] = []
    if "event" in context:
        event = context["event"]
        name = event.name
        items = [
            ("classificacao", _("Classificação"), reverse("embed:standings", args=[event.slug])),
            ("chave", _("Chave"), reverse("embed:bracket", args=[event.slug])),
            ("proximos", _("Próximos jogos"), reverse("embed:next", args=[event.slug])),
            ("ao-vivo", _("Placares ao vivo"), reverse("embed:live", args=[event.slug])),
        ]
    elif "s" in context:
        name = context["s"].circuit_name
        items = [("ranking", _("Ranking"), reverse("embed:circuit", args=[context["s"].circuit_slug]))]
    codes = [
        EmbedCode(
            key=key, label=label, url=absolute(path), code=embed_code(absolute(path), _escaped(f"{label} · {name}"))
        )
        for key, label, path in items
    ]
    return {"codes": codes}
