"""Zap settings: everything that differs between machines comes from the environment."""

import os
import secrets
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: esperado um número inteiro") from None


DEBUG = env_bool("DEBUG", False)
# ZAP_DEV=1: a development or test run on this machine (make demo, make bench, pytest through pytest.ini).
# Only then, or with DEBUG on, may the committed development key stand in for SECRET_KEY.
DEV = env_bool("ZAP_DEV", False)
DEV_SECRET_KEY = "django-insecure-zap-development-key"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
# Or from a file (a container secret, or the one `make serve` writes on first run), when SECRET_KEY is not set.
SECRET_KEY_FILE = os.environ.get("SECRET_KEY_FILE", "").strip()
if not SECRET_KEY and SECRET_KEY_FILE:
    try:
        SECRET_KEY = Path(SECRET_KEY_FILE).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ImproperlyConfigured(
            f"SECRET_KEY_FILE={SECRET_KEY_FILE!r}: não foi possível ler ({exc.strerror})"
        ) from None
# Fail closed: a server never runs with a key everybody can read in the repository. Without SECRET_KEY
# (and with DEBUG off, no ZAP_DEV), config/wsgi.py and config/asgi.py refuse to start; the management
# commands (import_tournament, export_tournament, migrate…) still run, with a throwaway random key,
# since nothing they write is signed with it.
SECRET_KEY_MISSING = not DEBUG and not DEV and SECRET_KEY in ("", DEV_SECRET_KEY)
SECRET_KEY_MISSING_MESSAGE = (
    "SECRET_KEY não definida: em produção (DEBUG desligado) defina a variável de ambiente SECRET_KEY "
    "com uma chave secreta longa e aleatória (por exemplo: python -c 'import secrets; "
    "print(secrets.token_urlsafe(50))'). Para desenvolvimento local use DEBUG=1 ou ZAP_DEV=1."
)
if SECRET_KEY_MISSING:
    SECRET_KEY = secrets.token_urlsafe(50)
SECRET_KEY = SECRET_KEY or DEV_SECRET_KEY
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

# Absolute links (QR codes, e-mails) start with this (docs/contrato.md); no trailing slash. Unset on a
# development server (DEBUG), it follows the address each request came to (config/devsite.py).
SITE_URL_SET = bool(os.environ.get("SITE_URL", "").strip())
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").strip().rstrip("/")
_site = urlsplit(SITE_URL)
if _site.scheme not in ("http", "https") or not _site.netloc:
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r}: esperado um endereço como https://truco.example.org")
SITE_HTTPS = _site.scheme == "https"

# HTTPS. The defaults suit a plain-HTTP local run; a site served over HTTPS (SITE_URL https://…)
# gets secure cookies by default. Behind a TLS proxy set SECURE_PROXY_SSL_HEADER (and only then:
# the proxy must overwrite that header on every request).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^saude/$"]  # the load balancer's health check may speak plain HTTP
# HSTS only where the site is HTTPS: a year by default, so browsers never try plain HTTP again.
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if SITE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", SITE_HTTPS)
SESSION_COOKIE_HTTPONLY = True
SESSION_ENGINE = "config.sessions"  # Django's database sessions, read with one plain query (config/sessions.py)
SESSION_COOKIE_SAMESITE = "Lax"
# Other headers (Django's defaults, written out so they are visibly chosen): no MIME sniffing, no framing,
# the path and query of our pages stay on our site, a window of ours shares nothing with others.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", SITE_HTTPS)
_proxy_header = env_list("SECURE_PROXY_SSL_HEADER")
if _proxy_header:
    if len(_proxy_header) != 2 or not _proxy_header[0].startswith("HTTP_"):
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER: esperado NOME,VALOR como HTTP_X_FORWARDED_PROTO,https "
            f"(recebido {os.environ['SECURE_PROXY_SSL_HEADER']!r})"
        )
    SECURE_PROXY_SSL_HEADER = (_proxy_header[0], _proxy_header[1])
# Origins (scheme://host[:port]) trusted for POSTs besides the request's own host; SITE_URL's is always one.
CSRF_TRUSTED_ORIGINS = list(dict.fromkeys([f"{_site.scheme}://{_site.netloc}", *env_list("CSRF_TRUSTED_ORIGINS")]))
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS: {_origin!r} precisa do esquema (https://{_origin})")

INSTALLED_APPS = [
    # daphne first: manage.py runserver (make run) serves the pages and the live connection (/ws/) from one process
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "channels",
    "tournaments",
]

MIDDLEWARE = [
    # Server-Timing: app;dur=<ms> on every response, around everything below (config/timing.py)
    "config.timing.ServerTimingMiddleware",
    # then: /saude/ for the load balancer, the request id and the request's log line (config/observability.py)
    "config.observability.RequestMiddleware",
    # 414 for an address longer than any the site makes, 503 when the database does not answer (config/errors.py)
    "config.errors.ErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # a visitor's public page kept for everyone, from one shared-cache round trip (tournaments/public/fastpages.py)
    "tournaments.public.fastpages.FastPagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.language.LanguageMiddleware",  # pt-BR unless the visitor chose English (not the browser's setting)
    "config.errors.NullCharacterMiddleware",  # 400 for a NUL (%00) in the query string or a form field
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # last: turns a locked-out login into the lockout page (config.security.login_lockout_response)
    "axes.middleware.AxesMiddleware",
]
if DEBUG and not SITE_URL_SET:
    MIDDLEWARE.insert(MIDDLEWARE.index("config.errors.ErrorsMiddleware") + 1, "config.devsite.DevSiteUrlMiddleware")

# Login throttling (django-axes), for every login through Django's auth (the admin's, /entrar/):
# after AXES_FAILURE_LIMIT wrong passwords for one username from one IP, that username is locked
# out from that IP for AXES_COOLOFF_MINUTES, even with the right password; after
# AXES_ACCOUNT_FAILURE_LIMIT wrong passwords for one username from any addresses, the account is locked
# out from everywhere for as long (config.security.LoginAttemptsHandler counts both).
AUTHENTICATION_BACKENDS = [
    "config.security.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_ACCOUNT_FAILURE_LIMIT = env_int("AXES_ACCOUNT_FAILURE_LIMIT", 20)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username"]
AXES_HANDLER = "config.security.LoginAttemptsHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.security.login_lockout_response"
AXES_COOLOFF_MESSAGE = _("Muitas tentativas de entrar com senha errada. Tente de novo mais tarde.")
# Behind reverse proxies every request comes from the proxy's address: TRUSTED_PROXY_COUNT says how
# many proxies in front append to X-Forwarded-For, so the client's address is read from there, but only
# when the request comes from one of TRUSTED_PROXIES (addresses or networks; default the loopback
# addresses when TRUSTED_PROXY_COUNT > 0): a client that reaches the app's port directly cannot forge it.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES") or (["127.0.0.1", "::1"] if TRUSTED_PROXY_COUNT > 0 else [])
for _proxy in TRUSTED_PROXIES:
    try:
        ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} não é um endereço IP nem uma rede (ex.: 127.0.0.1,10.0.0.0/8)"
        ) from None
AXES_CLIENT_IP_CALLABLE = "tournaments.web.client_ip"
# Who may create events (tournaments.permissions.tournament_creation_refusal): "staff" (default) = only
# accounts the site's admins mark as staff (is_staff) and superusers; "anyone" = every account (an open
# sign-up for organizers), each up to ZAP_EVENTS_PER_ACCOUNT events (staff accounts have no limit).
ZAP_EVENT_CREATORS = os.environ.get("ZAP_EVENT_CREATORS", "staff").strip().lower() or "staff"
if ZAP_EVENT_CREATORS not in ("staff", "anyone"):
    raise ImproperlyConfigured(f"ZAP_EVENT_CREATORS={ZAP_EVENT_CREATORS!r}: use staff ou anyone")
ZAP_EVENTS_PER_ACCOUNT = env_int("ZAP_EVENTS_PER_ACCOUNT", 5)
# With ZAP_EVENT_CREATORS=anyone, /conta/nova/ lets anyone make an organizer's account: at most this many an
# hour from one address.
ZAP_SIGNUPS_PER_HOUR = env_int("ZAP_SIGNUPS_PER_HOUR", 5)
# An invitation to a tournament's staff (its e-mailed link /convites/<token>/) is valid for this many days.
ZAP_INVITATION_DAYS = env_int("ZAP_INVITATION_DAYS", 7)
# The e-mail the site sends for its users, per hour (tournaments/mailquota.py; beyond it the page says how many
# and until when, nothing is sent): invitations to a tournament's staff per account and per event; the calls'
# e-mails ("Sua vez") per account, and per event this many for each player of its duplas.
ZAP_INVITATIONS_PER_ACCOUNT_HOUR = env_int("ZAP_INVITATIONS_PER_ACCOUNT_HOUR", 20)
ZAP_INVITATIONS_PER_EVENT_HOUR = env_int("ZAP_INVITATIONS_PER_EVENT_HOUR", 30)
ZAP_CALL_EMAILS_PER_ACCOUNT_HOUR = env_int("ZAP_CALL_EMAILS_PER_ACCOUNT_HOUR", 500)
ZAP_CALL_EMAILS_PER_PLAYER_HOUR = env_int("ZAP_CALL_EMAILS_PER_PLAYER_HOUR", 4)
# Password reset (/conta/senha/esqueci/): at most this many requests an hour per address and per e-mail;
# beyond it the same "se houver uma conta…" page answers and nothing is sent.
ZAP_PASSWORD_RESETS_PER_HOUR = env_int("ZAP_PASSWORD_RESETS_PER_HOUR", 5)

# Content Security Policy (Django's own middleware): every script, style, image and font comes from this
# site; no inline script or style (htmx is a file of ours, its inline indicator style is turned off in base.html),
# no plugin, no framing, forms post here only. Public pages are cached whole, so no nonce.
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
# The embeds (/embed/…, tournaments/public/embed.py) are the only pages another site may frame: these ancestors
# (CSP sources, comma-separated: "https://federacao.org.br,https://*.clube.com.br"; default any site).
ZAP_EMBED_ANCESTORS = env_list("ZAP_EMBED_ANCESTORS", "*")

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.desk.context.desk",
            ],
            # the share tags (Open Graph, meta description, WhatsApp link, "incorporar"): base.html loads them
            "libraries": {"share": "tournaments.public.share_tags"},
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# Each thread keeps its connection for its whole life, checked before reuse only after it sat idle (config/dbconn.py).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=None, conn_health_checks=True
    )
}
# PostgreSQL: a query this connection has run ZAP_DB_PREPARE_AFTER times (default 5) becomes a prepared statement
# (server-side parameters, psycopg's prepare_threshold), so it is no longer parsed and planned on every request.
# Measured on a mão POST at 1,024 duplas: PostgreSQL's CPU 3.0 -> 1.6 ms. 0 switches it off (client-side
# parameters, Django's default), as a pooler in transaction mode (PgBouncer before 1.21) needs.
ZAP_DB_PREPARE_AFTER = env_int("ZAP_DB_PREPARE_AFTER", 5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and ZAP_DB_PREPARE_AFTER > 0:
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": ZAP_DB_PREPARE_AFTER}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers (two imports at once, two workers) wait for each other instead of failing
    # with "database is locked": every transaction takes the write lock when it begins (IMMEDIATE),
    # a waiting writer waits up to 20 s, and WAL lets readers go on while one writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# Caches (tournaments/caching.py). "default" is shared by every process: Redis when REDIS_URL is set
# (redis://[:password@]host:6379/0; several servers point at one), else this process's memory. Pages are
# keyed by the tournament's versions, so the timeout only lets old versions go; "states" keeps each
# process's derived tournament states as Python objects (ZAP_STATES_PER_PROCESS of them).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHE_TIMEOUT = env_int("CACHE_TIMEOUT", 24 * 3600)
if REDIS_URL:
    if urlsplit(REDIS_URL).scheme not in ("redis", "rediss", "unix"):
        raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r}: esperado um endereço como redis://127.0.0.1:6379/0")
    _shared_cache = {
        "BACKEND": "tournaments.caching.SharedRedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
    }
else:
    _shared_cache = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "zap",
        "OPTIONS": {"MAX_ENTRIES": 1000},
    }
# After the shared cache fails (down, or hung past the 0.25 s timeouts), a process serves without it for
# this many seconds, then tries it again (tournaments/caching.py).
CACHE_RETRY_SECONDS = env_int("CACHE_RETRY_SECONDS", 30)
# Public pages kept for everyone are served before sessions and views while their tournament's stamp stands
# (tournaments/public/fastpages.py): only with a shared cache, whose stamps every process's writes bump.
ZAP_FAST_PAGES = env_bool("ZAP_FAST_PAGES", bool(REDIS_URL))
# Derived tournament states go to the shared cache too, so a process reads one instead of building it.
ZAP_SHARE_STATES = env_bool("ZAP_SHARE_STATES", bool(REDIS_URL))
# ... and to the database (tournaments/snapshots.py), so a process that starts with nothing cached anywhere
# reads the newest one and replays the engine's log since, instead of building it from the tables.
ZAP_STORE_STATES = env_bool("ZAP_STORE_STATES", True)
# The atletas' Nível a write touched is recomputed once it commits (tournaments/atletas/services.py): by default in
# a background thread once the response has gone, so the dupla's confirmation never waits for it; off, in the
# request itself. Measured with make bench-engine at 1,024 duplas (15 confirmations each, on a machine where a
# confirmation took 88 ms): the confirmation 63 ms with the thread, 88 without; the first visit after it on the
# other server 57 ms with, 55 without (the thread's CPU beside it). A worker that leaves (recycled, a deploy)
# finishes it first (config/gunicorn.py, worker_exit); manage.py nivel_rebuild recomputes every atleta.
ZAP_NIVEL_BACKGROUND = env_bool("ZAP_NIVEL_BACKGROUND", True)
# A server process loads the derived states of this many events under way before its first request.
ZAP_WARM_STATES = env_int("ZAP_WARM_STATES", 4)
# The code's version in every cache key (tournaments.caching.release): set it at deploy (e.g. the commit);
# empty, a digest of the code, templates and catalogues is used.
ZAP_RELEASE = os.environ.get("ZAP_RELEASE", "")
# The live pages (event, dupla, jogos, chave, TV) show the súmulas' scores as of at most this many seconds ago:
# during a busy round they are rendered once a second, not once per mão. Results that count are never
# delayed (they give a new results_version, in every key). 0: every mão shows at once (the tests).
ZAP_LIVE_COALESCE_SECONDS = float(os.environ.get("ZAP_LIVE_COALESCE_SECONDS", "1"))
CACHES = {
    "default": {**_shared_cache, "KEY_PREFIX": "zap", "TIMEOUT": CACHE_TIMEOUT},
    "states": {
        "BACKEND": "tournaments.caching.ObjectCache",
        "LOCATION": "states",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": env_int("ZAP_STATES_PER_PROCESS", 16)},
    },
}

# Online play's live connection (tournaments/play/consumers.py, config/asgi.py): the tables' groups go through
# Redis when REDIS_URL is set (a table's four players may be on different servers), else this process's memory
# (make run: one process, nothing to install).
ASGI_APPLICATION = "config.asgi.application"
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Each ASGI process runs the tables' clock (tournaments/play/clockloop.py) every 200 ms; off, nothing expires by
# itself (the tests call table_tick with the time they choose).
ZAP_ONLINE_CLOCK = env_bool("ZAP_ONLINE_CLOCK", True)
# A robot at a casual table acts this long after the step that gave it its turn.
ZAP_ROBOT_DELAY_MS = env_int("ZAP_ROBOT_DELAY_MS", 900)

# ZAP_FAST_PASSWORDS=1 (the tests set it in pytest.ini; honoured only with DEBUG or ZAP_DEV): new accounts'
# passwords are hashed with MD5 instead of PBKDF2's 1.5 million rounds, 0.5 s of CPU each, of which the suite
# would spend minutes. Django's own hashers stay in the list, so every stored hash still checks (the PINs keep
# their own hasher, tournaments/staff/pins.py); a test that needs the deployed hashing sets PASSWORD_HASHERS itself.
if (DEBUG or DEV) and env_bool("ZAP_FAST_PASSWORDS", False):
    from django.conf import global_settings

    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", _("Português (Brasil)")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "America/Sao_Paulo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
# Production serves collected files with hashed names (cached for a year) and gzip/brotli copies made by
# collectstatic (make serve runs it); development and the tests read the files where they are.
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", not (DEBUG or DEV))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "whitenoise.storage.CompressedStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Logs on stderr, one JSON object per line (LOG_FORMAT=text for plain lines), each with the request's id;
# zap.requests writes one line per request at INFO (REQUEST_LOG_LEVEL=WARNING silences it).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json").strip().lower()
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: use json ou text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.observability.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "config.observability.JsonLinesFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "zap.requests": {
            "level": os.environ.get("REQUEST_LOG_LEVEL", "INFO"),
            "handlers": ["console"],
            "propagate": False,
        },
    },
}

# Accounts (/entrar/, /sair/, password change and reset).
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "desk:home"
LOGOUT_REDIRECT_URL = "tournaments:list"
# E-mail: SMTP when EMAIL_HOST is set (configured from the environment). Without it nothing is sent and
# nothing secret is logged (config.mail.UnsentMailBackend): the log gets one line per mail (subject and
# number of recipients, never the body, where one-time links go); with ZAP_MAIL_DIR set, each mail is also
# written whole to a file of its own there, readable by the server's user only (mode 600, directory 700).
if os.environ.get("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": env_int("EMAIL_PORT", 587),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": os.environ.get("EMAIL_USE_TLS", "1") not in ("0", "false", ""),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "config.mail.UnsentMailBackend"}}
ZAP_MAIL_DIR = os.environ.get("ZAP_MAIL_DIR", "").strip()
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Zap <nao-responda@zap.local>")
# Uploads at the desk (registration CSV, tournament file) are read in memory up to this size.
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # JSON under /api/v1/, Django's page elsewhere
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
