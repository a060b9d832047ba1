"""The ASGI application: what a production server (gunicorn) runs, and what runserver serves.

It refuses to start without a SECRET_KEY when DEBUG is off (see SECRET_KEY_MISSING in config/settings.py).
"""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

if settings.SECRET_KEY_MISSING:
    raise ImproperlyConfigured(settings.SECRET_KEY_MISSING_MESSAGE)

application = get_asgi_application()
