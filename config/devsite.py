"""In development, absolute links follow the address the site is served at.

``SITE_URL`` starts every absolute link (QR codes on the súmulas and PIN cards, private links, invitation
e-mails). In production it is set (README, "Deployment"). On a development server (DEBUG on) with no
``SITE_URL`` in the environment, it follows the address of the request: ``make run PORT=8001``, or a laptop
at the club served at its network address (``HOST=0.0.0.0``, the address in ``ALLOWED_HOSTS``), prints QR codes that the phones at the tables
can open. Installed only then (config/settings.py), never in production.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class DevSiteUrlMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        settings.SITE_URL = f"{request.scheme}://{request.get_host()}"
        return self.get_response(request)
