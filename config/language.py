"""The site's language: Portuguese (pt-BR) unless the visitor chose English with the switch in the footer.

The browser's Accept-Language is not followed: our users are Brazilian, and a
phone set to English would otherwise get English pages with no way back. The
choice is kept in Django's language cookie; pages cached for everyone are
cached per language (``caching.page_key``), so the cookie is all that varies.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_safe

LANGUAGES = dict(settings.LANGUAGES)


def chosen_language(request: HttpRequest) -> str:
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return code if code in LANGUAGES else settings.LANGUAGE_CODE


class LanguageMiddleware:
    """Activates the chosen language (default ``LANGUAGE_CODE``) for the request; says it in Content-Language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        code = chosen_language(request)
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        patch_vary_headers(response, ["Cookie"])
        response.headers.setdefault("Content-Language", "en" if code == "en" else "pt-BR")
        return response


@require_safe
def language_set(request: HttpRequest, code: str) -> HttpResponseRedirect:
    """/idioma/<code>/?next=/torneios/…: keeps the choice in the language cookie (a year) and goes back.

    A GET, so the links work on pages cached for everyone (no CSRF token there); choosing a language
    changes nothing but how this browser's pages are worded.
    """
    target = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    if code in LANGUAGES:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=False,
        )
    return response
