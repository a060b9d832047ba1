"""A dupla's own page, opened by its private link (128-bit token, ``models.new_private_token``).

It shows what the public pages show, for this dupla only: its jogos and the
tables of its groups. The address is the secret: the page is never cached by
shared caches, never indexed, and sends no Referer to the pages it links to.
"""

from django.http import Http404
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from ..staff.selectors import dupla_by_token, dupla_page


def _private(response):
    patch_cache_control(response, private=True, no_cache=True, max_age=0)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_safe
def dupla_page_view(request, token: str):
    dupla = dupla_by_token(token=token)
    if dupla is None:
        raise Http404("link não encontrado")
    page = dupla_page(dupla=dupla)
    # Hook for the súmula confirmation (a later issue): the jogos this dupla must confirm or contest with its
    # PIN go in ``page["to_confirm"]``, and the POST that confirms goes to a view of this package; the
    # template's section "confirmar" shows them.
    page["to_confirm"] = []
    return _private(render(request, "privatelink/dupla.html", {"page": page, "event": page["event"]}))
