"""The ASGI application: the pages (Django) and the live connections of online play (Channels, ``/ws/``).

``manage.py runserver`` (daphne's, ``make run``) serves both from one process; in production an ASGI server
serves ``/ws/`` (README, "Jogar online"). A websocket is accepted only from the site's own origin
(``ALLOWED_HOSTS``) and knows who it is from the session cookie, as a page does.

It refuses to start without a SECRET_KEY when DEBUG is off (see SECRET_KEY_MISSING in config/settings.py).
"""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

if settings.SECRET_KEY_MISSING:
    raise ImproperlyConfigured(settings.SECRET_KEY_MISSING_MESSAGE)

django_application = get_asgi_application()  # first: it sets Django up before the consumers' imports

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tournaments.play.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
