"""The WSGI application: what a production server (gunicorn) runs, and what runserver serves.

It refuses to start without a SECRET_KEY when DEBUG is off (see SECRET_KEY_MISSING in config/settings.py), and
in production loads the URLconf, templates, catalogues and the states of the events under way before the first
request (config/warmup.py).
"""

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

if settings.SECRET_KEY_MISSING:
    raise ImproperlyConfigured(settings.SECRET_KEY_MISSING_MESSAGE)

application = get_wsgi_application()

if not settings.DEBUG:  # production: every process starts with the site's code and templates loaded
    from config.warmup import server_warm, states_warm

    server_warm()
    states_warm()  # and the events under way
