"""Temporary: a desk page that a later step of the build fills in. Removed when every area has landed."""

from django.http import HttpResponse

from .access import desk_view


@desk_view()
def soon(request, tournament, *args, **kwargs):
    return HttpResponse("em construção", content_type="text/plain; charset=utf-8")
