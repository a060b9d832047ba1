"""Fragments rendered once: ``{% partcache part "name" %}…{% endpartcache %}`` per version of the part of the
results it shows (a group's table), kept in the shared cache; ``{% valuecache value %}`` per distinct value, in
this process (below). ``{% partprefetch items "name" %}`` before a loop of ``{% partcache item.part "name" %}``
reads the whole loop's fragments in one round trip to the cache server instead of one per fragment.

``part`` is what the presenter gives (``presenters.standings.part_ref``): the tournament, the part's key
and its version (``engine``: the write that last changed it), or None to render without caching. The key
also carries the release and the language, so a fragment never outlives the code or the words that made it.
A cache server that does not answer costs the rendering, never the page (``caching.page_get``).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from ..caching import fragment_key, page_get, page_put, pages_get_many

register = template.Library()


@register.tag
def partcache(parser: Parser, token: Token) -> PartCacheNode:
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError('partcache: use {% partcache part "name" %}…{% endpartcache %}')
    nodelist = parser.parse(("endpartcache",))
    parser.delete_first_token()
    return PartCacheNode(nodelist, parser.compile_filter(bits[1]), parser.compile_filter(bits[2]))


def _key(part: object, name: str) -> str | None:
    """The fragment's key (None: a part not kept, rendered each time)."""
    version = getattr(part, "version", None)
    if not part or version is None:
        return None
    return fragment_key(
        tournament=part.tournament,  # type: ignore[attr-defined]
        part=part.key,  # type: ignore[attr-defined]
        version=version,
        name=name,
        language=translation.get_language() or "",
    )


_PREFETCHED = "partcache:prefetched"  # in the template's render context: fragment key -> its HTML, or None (absent)


@register.simple_tag(takes_context=True)
def partprefetch(context: Context, items: object, name: str) -> str:
    """Read the fragments ``{% partcache item.part name %}`` will ask for, for each of ``items``, at once (a page
    of 16 group tables: one round trip to the cache server, not 16); the ones absent are known absent."""
    keys = [key for item in items or () if (key := _key(getattr(item, "part", None), str(name))) is not None]  # type: ignore[attr-defined]
    found = pages_get_many(keys)
    store = context.render_context.get(_PREFETCHED)
    if store is None:
        store = context.render_context[_PREFETCHED] = {}
    for key in keys:
        store[key] = found.get(key)
    return ""


class PartCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, part: FilterExpression, name: FilterExpression) -> None:
        self.nodelist, self.part, self.name = nodelist, part, name

    def render(self, context: Context) -> SafeString | str:
        key = _key(self.part.resolve(context), str(self.name.resolve(context)))
        if key is None:
            return self.nodelist.render(context)
        store = context.render_context.get(_PREFETCHED)
        cached = store.pop(key) if store is not None and key in store else page_get(key)
        if cached is not None:
            return mark_safe(cached.decode())
        body = self.nodelist.render(context)
        page_put(key, body.encode())
        return body


# --- {% valuecache value %}…{% endvaluecache %} -------------------------------------------------------------

_VALUES: OrderedDict[tuple, tuple] = OrderedDict()  # (fragment, language, value digest) -> (fragment, HTML)
_VALUES_MAX = 8192
_VALUES_LOCK = threading.Lock()


@register.tag
def valuecache(parser: Parser, token: Token) -> ValueCacheNode:
    """``{% valuecache j %}…{% endvaluecache %}``: a fragment that shows ``j`` and words of the language only
    (a jogo's line on the jogos page), rendered once per distinct ``j`` in this process.

    The key is the fragment (its node in the loaded template), the language and a digest of ``repr(j)``: the
    same value gives the same HTML, so a fragment can never be stale. During a round the jogos page of a large
    event is rendered every second, and of its hundreds of jogos only those that moved need rendering."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("valuecache: use {% valuecache value %}…{% endvaluecache %}")
    nodelist = parser.parse(("endvaluecache",))
    parser.delete_first_token()
    return ValueCacheNode(nodelist, parser.compile_filter(bits[1]))


class ValueCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, value: FilterExpression) -> None:
        self.nodelist, self.value = nodelist, value

    def render(self, context: Context) -> SafeString | str:
        value = self.value.resolve(context)
        # this node (kept alive by its entries, so its id is never another's; a template loaded again, as
        # after an edit in development, is another node), the language, the value
        key = (
            id(self),
            translation.get_language() or "",
            hashlib.blake2b(repr(value).encode(), digest_size=16).digest(),
        )
        with _VALUES_LOCK:
            kept = _VALUES.get(key)
            if kept is not None and kept[0] is self:
                _VALUES.move_to_end(key)
                return kept[1]
        html = self.nodelist.render(context)
        with _VALUES_LOCK:
            _VALUES[key] = (self, html)
            while len(_VALUES) > _VALUES_MAX:
                _VALUES.popitem(last=False)
        return html
