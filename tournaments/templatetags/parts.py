"""``{% partcache part "name" %}…{% endpartcache %}``: a fragment rendered once per version of the part of the
results it shows (a group's table), kept in the shared cache.

``part`` is what the presenter gives (``presenters.standings.part_ref``): the tournament, the part's key
and its version (``engine``: the write that last changed it), or None to render without caching. The key
also carries the release and the language, so a fragment never outlives the code or the words that made it.
A cache server that does not answer costs the rendering, never the page (``caching.page_get``).
"""

from __future__ import annotations

from django import template
from django.utils import translation
from django.utils.safestring import mark_safe

from ..caching import fragment_key, page_get, page_put

register = template.Library()


@register.tag
def partcache(parser, token):
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError("partcache: use {% partcache part \"name\" %}…{% endpartcache %}")
    nodelist = parser.parse(("endpartcache",))
    parser.delete_first_token()
    return PartCacheNode(nodelist, parser.compile_filter(bits[1]), parser.compile_filter(bits[2]))


class PartCacheNode(template.Node):
    def __init__(self, nodelist, part, name):
        self.nodelist, self.part, self.name = nodelist, part, name

    def render(self, context):
        part = self.part.resolve(context)
        if not part or part.get("version") is None:
            return self.nodelist.render(context)
        key = fragment_key(tournament=part["tournament"], part=part["key"], version=part["version"],
                           name=str(self.name.resolve(context)), language=translation.get_language() or "")
        cached = page_get(key)
        if cached is not None:
            return mark_safe(cached.decode())
        body = self.nodelist.render(context)
        page_put(key, body.encode())
        return body
