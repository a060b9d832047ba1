"""The WSGI application: what a production server (gunicorn) runs, and what runserver serves.

It refuses to start without a SECRET_KEY when DEBUG is off (see SECRET_KEY_MISSING in config/settings.py), and
in production loads the URLconf, templates and catalogues before the first request (config/warmup.py); under
gunicorn, whose master imports this module before forking, the states of the events under way are built and
stored here once, and each worker reads them again as it starts, as its own (config/gunicorn.py, ``post_fork``).
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
    states_warm()  # built and stored once here (then frozen for the collector): each worker reads them again
