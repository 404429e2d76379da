"""Settings, chosen by environment variables (see docs/deployment.md).

Without any variable set, the site runs on SQLite with the in-memory channel layer
and in-process AI: one process, no extra services.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from quarto_site.config import (
    check_heartbeat,
    database_config,
    env_bool,
    env_float,
    redis_caches,
    secret_key,
    site_url,
)
from quarto_site.observability import init_sentry

# Lets admin and form classes take type arguments at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = secret_key(BASE_DIR)
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",  # {% partialdef %}: one template per page, "page.html#board" renders a part
    "csp",
    "ninja",  # serves the API docs page from its own static files, not a CDN
    "games",
    # Accounts (an option, never a wall): allauth's sign-up, log-in and email pages, our
    # profile, settings and personal API tokens.
    "allauth",
    "allauth.account",
    "accounts",
    "ratings",  # Glicko-2 per game and speed, for rated games between accounts
    "lobby",  # open seeks and quick pairing: strangers meet
    "tournaments",  # arenas and Swiss events
    "study",  # the analysis board's analysis, the explorer, puzzles
    "learn",  # the rules pages and Quarto's guided first game
    "monitoring",  # /metrics for Prometheus
]

MIDDLEWARE = [
    "monitoring.middleware.RequestMetricsMiddleware",  # first: times the whole chain
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the language cookie (the footer's switcher), then Accept-Language;
    # an account's own setting wins (accounts.middleware, after the user is known).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # The database down while serving a page: a 503 to retry, not the 500 page. Stays
    # last and synchronous: the whole chain then runs in one thread under ASGI.
    "quarto_site.unavailable.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "quarto_site.urls"
ASGI_APPLICATION = "quarto_site.asgi.application"
# Threads running the API's and /healthz's requests (quarto_site/lean.py); an analysis holds one.
LEAN_THREADS = max(1, int(os.environ.get("LEAN_THREADS", "16")))

# A game is one package (games/kinds/<kind>/), holding its own partials and static files.
GAME_PACKAGES = sorted(p.parent for p in (BASE_DIR / "games" / "kinds").glob("*/__init__.py"))
GAME_TEMPLATES = [p / "templates" for p in GAME_PACKAGES if (p / "templates").is_dir()]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [
            BASE_DIR / "templates",
            *(p / "templates" for p in GAME_PACKAGES if (p / "templates").is_dir()),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.preferences",
            ],
        },
    },
]

# Databases: DATABASE_URL (postgres://... or sqlite:///...) or the embedded SQLite file
# (quarto_site/config.py: database_config).
default_db = database_config(
    os.environ.get("DATABASE_URL"), os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
)
DATABASES = {"default": default_db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer: Redis when REDIS_URL is set (several processes), else in-memory.
# CHANNEL_LAYER picks how Redis carries group messages (games/live/layers.py).
REDIS_LAYERS = {
    "lists": "games.live.layers.PatientRedisChannelLayer",
    "pubsub": "games.live.layers.PatientRedisPubSubChannelLayer",
}
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in REDIS_LAYERS:
    raise ImproperlyConfigured("CHANNEL_LAYER must be 'lists' or 'pubsub'")
if redis_url := os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": REDIS_LAYERS[CHANNEL_LAYER],
            "CONFIG": {"hosts": [redis_url], "prefix": os.environ.get("CHANNEL_PREFIX", "quarto")},
        }
    }
else:
    # Channels' in-memory layer, cleaning up expired entries once a second (see there).
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.live.layers.ThriftyInMemoryChannelLayer"}}

# Caches: "default" (rate-limit counters, stored reviews) and "live" (the live layer's
# renderings per game, ply and audience, who holds which seat, open sockets per audience).
# In memory per process by default; in Redis when REDIS_URL is set, shared by every process.


CACHES: dict[str, dict[str, Any]]
if redis_url:
    CACHES = redis_caches(redis_url, os.environ.get("CHANNEL_PREFIX", "quarto") + "-cache")
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "default"},
        "live": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "live",
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        },
    }

# The computer player.
# AI_DELAY: seconds the computer "thinks" before each turn (a give that follows
# its own placement waits half as long). AI_BUDGET: seconds of search per action.
# AI_RUNNER: "inline" runs AI moves inside the web process; "queue" sends them to
# Celery workers (`manage.py ai_worker`) over the broker; "worker", the retired
# polling mode, is read as "queue". AI_PROCESSES: search processes per web process
# or per worker (0 = threads).
AI_DELAY = env_float("AI_DELAY", 1.0)
AI_BUDGET = env_float("AI_BUDGET", 1.0)
AI_RUNNER = os.environ.get("AI_RUNNER", "inline")
if AI_RUNNER == "worker":
    AI_RUNNER = "queue"
if AI_RUNNER not in ("inline", "queue"):
    raise ImproperlyConfigured("AI_RUNNER must be 'inline' or 'queue'")
# The queue: a claimed turn is leased for AI_LEASE seconds, renewed every third of it
# while the worker thinks; every AI_SWEEP seconds each worker re-enqueues the turns
# whose lease lapsed (a dead worker) or that nobody took (a lost message).
AI_LEASE = env_float("AI_LEASE", 3.0)
AI_SWEEP = env_float("AI_SWEEP", 1.0)
AI_QUEUE = os.environ.get("AI_QUEUE", "quarto-ai")
# Celery (quarto_site/celery.py) reads the CELERY_* settings: the broker is the
# Redis of the channel layer unless CELERY_BROKER_URL names another.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL", "")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Acknowledged on receipt, one message at a time: recovery is the game row's lease
# and the sweeper, not the broker's redelivery (an hour away on Redis).
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
AI_PROCESSES = int(os.environ.get("AI_PROCESSES", "1"))
AI_WARM_UP = env_bool("AI_WARM_UP", True)
HINT_BUDGET = env_float("HINT_BUDGET", 1.0)  # seconds of analysis for a hint
REVIEW_BUDGET = env_float("REVIEW_BUDGET", 0.5)  # seconds of analysis per position of a review

# Analysis (API analysis, hints, reviews) runs in its own pool, never in the one that
# plays the computer's moves. ANALYSIS_WORKERS: its processes (threads when
# AI_PROCESSES is 0); ANALYSIS_MAX_PENDING: analyses running or queued in a process
# before more are refused as busy; ANALYSIS_PER_CLIENT: of those, per client address.
ANALYSIS_WORKERS = int(os.environ.get("ANALYSIS_WORKERS", "1"))
ANALYSIS_MAX_PENDING = int(os.environ.get("ANALYSIS_MAX_PENDING", "4"))
ANALYSIS_PER_CLIENT = int(os.environ.get("ANALYSIS_PER_CLIENT", "1"))

# Who a client is: the connecting address, or the address a trusted proxy forwards in
# X-Forwarded-For. TRUSTED_PROXIES: comma-separated addresses or networks (CIDR) of
# the proxies in front of the site; none by default, so the header is ignored.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]

# The JSON API: requests per client address per window, e.g. "120/minute";
# body size limits in bytes for ordinary requests and for imported records.
API_RATE_LIMIT = os.environ.get("API_RATE_LIMIT", "120/minute")
# The pages, per client address: games created, moves, hints; WebSockets open at
# once; and at most one resync per socket per WS_RESYNC_INTERVAL seconds.
RATE_LIMIT_CREATE = os.environ.get("RATE_LIMIT_CREATE", "30/minute")
RATE_LIMIT_MOVE = os.environ.get("RATE_LIMIT_MOVE", "120/minute")
RATE_LIMIT_HINT = os.environ.get("RATE_LIMIT_HINT", "20/minute")
# Chat lines per player (its seat, not its address: players behind one address keep their share).
RATE_LIMIT_CHAT = os.environ.get("RATE_LIMIT_CHAT", "5/10 seconds")
CHAT_MAX_LENGTH = 300
WS_MAX_PER_CLIENT = int(os.environ.get("WS_MAX_PER_CLIENT", "50"))
WS_RESYNC_INTERVAL = env_float("WS_RESYNC_INTERVAL", 1.0)
# With the channel layer unreachable, a socket tries to rejoin its game this often.
WS_LAYER_RETRY = env_float("WS_LAYER_RETRY", 3.0)
# With REDIS_URL, each web process looks this often whether Redis is down (its pages are
# told live updates are paused) or came back empty (its sockets are counted again).
WS_REDIS_CHECK = env_float("WS_REDIS_CHECK", 1.0)
# A socket's arrival or departure is told to the game's pages (who is connected) once
# per game per this many seconds.
WS_PRESENCE_DELAY = env_float("WS_PRESENCE_DELAY", 0.5)
# Abandonment: a player whose pages have all been closed this many seconds (and who has
# not moved since) may be claimed against by the others (a win or a draw); a game left
# unclaimed that long is closed as "abandoned". The web process looks every
# ABANDON_SWEEP seconds.
ABANDON_AFTER = env_float("ABANDON_AFTER", 60.0)
ABANDON_CLOSE_AFTER = env_float("ABANDON_CLOSE_AFTER", 600.0)
ABANDON_SWEEP = env_float("ABANDON_SWEEP", 10.0)
# A server that dies without closing its sockets (killed, crashed) never says that their
# players left. So every SEAT_HEARTBEAT seconds each web process stores, in one
# statement, that it still holds pages of the seats it holds (Seat.seen_at), and the
# sweep takes a seat that no server has seen for SEAT_LOST_AFTER seconds as gone since
# it was last seen. SEAT_LOST_AFTER must leave room for two heartbeats; 0 turns both off.
SEAT_HEARTBEAT = env_float("SEAT_HEARTBEAT", 10.0)
SEAT_LOST_AFTER = env_float("SEAT_LOST_AFTER", 30.0)


check_heartbeat(SEAT_HEARTBEAT, SEAT_LOST_AFTER)

# Clocks (docs/architecture.md, "Clocks"). Every CLOCK_SWEEP seconds each web process ends the games whose
# player to move has run out (on time) or made no first move in time (aborted): a
# real-time seat has CLOCK_FIRST_MOVE seconds for its first move, a correspondence seat
# its days.
CLOCK_SWEEP = env_float("CLOCK_SWEEP", 1.0)

# Tournaments (docs/architecture.md, "Tournaments"): every TOURNAMENT_TICK seconds each web
# process starts, pairs and finishes the tournaments that are due (0 turns the timer off);
# an account may have TOURNAMENTS_PER_ACCOUNT tournaments to come or running at once.
TOURNAMENT_TICK = env_float("TOURNAMENT_TICK", 1.0)
TOURNAMENTS_PER_ACCOUNT = int(os.environ.get("TOURNAMENTS_PER_ACCOUNT", "3"))
CLOCK_FIRST_MOVE = env_float("CLOCK_FIRST_MOVE", 30.0)

# The lobby (docs/architecture.md, "The lobby"). A real-time seek lives while its page (or its API client)
# asks for it at least every SEEK_ALIVE seconds, and a pool entry while its player waits;
# a correspondence seek lapses SEEK_CORRESPONDENCE_DAYS after it was made; one player has
# at most LOBBY_MAX_SEEKS open seeks and one client address LOBBY_MAX_SEEKS_PER_ADDRESS
# (several players may share one); POST /api/v1/pairing waits at most PAIRING_WAIT
# seconds before answering 204 (ask again).
SEEK_ALIVE = env_float("SEEK_ALIVE", 10.0)
SEEK_CORRESPONDENCE_DAYS = env_float("SEEK_CORRESPONDENCE_DAYS", 7.0)
LOBBY_MAX_SEEKS = int(env_float("LOBBY_MAX_SEEKS", 3))
LOBBY_MAX_SEEKS_PER_ADDRESS = int(env_float("LOBBY_MAX_SEEKS_PER_ADDRESS", 10))
PAIRING_WAIT = env_float("PAIRING_WAIT", 10.0)
API_MAX_BODY = 4 * 1024
API_MAX_RECORD = 64 * 1024

# Headers. A strict Content-Security-Policy: scripts and styles from this site's own
# files only (no inline script, style or eval), sockets back to this site only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# HTTPS, for a site served over TLS (see deploy/production.env): HSTS for that many
# seconds, plain HTTP redirected. Behind a proxy that terminates TLS, set
# SECURE_PROXY_SSL_HEADER=HTTP_X_FORWARDED_PROTO (and only then).
SECURE_HSTS_SECONDS = int(env_float("SECURE_HSTS_SECONDS", 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]  # probes and Prometheus come over plain HTTP
if proxy_header := os.environ.get("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = (proxy_header, "https")

# Accounts (django-allauth, at /accounts/). Log in by username; email optional and
# confirmed by a link when given (ACCOUNT_EMAIL_VERIFICATION=mandatory to require it).
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
if ACCOUNT_EMAIL_VERIFICATION not in ("none", "optional", "mandatory"):
    raise ImproperlyConfigured("ACCOUNT_EMAIL_VERIFICATION must be 'none', 'optional' or 'mandatory'")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 1  # our rule (accounts/usernames.py) says 3-20, in its words
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if env_bool("SECURE_COOKIES", False) else "http"
# Wrong passwords: this many per client address and per username, then "too many attempts".
ACCOUNT_RATE_LIMITS = {
    "login_failed": os.environ.get("RATE_LIMIT_LOGIN_FAILED", "10/m/ip,5/5m/key"),
    "signup": os.environ.get("RATE_LIMIT_SIGNUP", "20/m/ip"),
}
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "/accounts/login/"
# Email: printed on the console unless EMAIL_HOST names an SMTP server (docs/deployment.md).
if email_host := os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = email_host
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Quarto Site <noreply@localhost>")


SITE_URL = site_url(os.environ.get("SITE_URL", ""), ALLOWED_HOSTS, env_bool("SECURE_COOKIES", False))

SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
# Database sessions that tell the live layer's identity cache when one ends.
SESSION_ENGINE = "games.services.sessions"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

LANGUAGE_CODE = "en"
# The languages the site speaks (docs/translating.md); French first, the game's own.
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static", *(p / "static" for p in GAME_PACKAGES if (p / "static").is_dir())]
WHITENOISE_USE_FINDERS = True
# collectstatic keeps the hashed names only (pages link nothing else), so it compresses half.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "quarto_site.staticstorage.StaticStorage"},
}

LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain")
if LOG_FORMAT not in ("plain", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "quarto_site.observability.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}

# Seconds a server told to stop (SIGTERM) waits for its requests in flight (quarto_site/draining.py).
DRAIN_TIMEOUT = env_float("DRAIN_TIMEOUT", 10.0)

# /metrics answers only these addresses or networks (the client's, through TRUSTED_PROXIES).
METRICS_ALLOWED = [
    a.strip() for a in os.environ.get("METRICS_ALLOWED", "127.0.0.1,::1").split(",") if a.strip()
]

# Errors to Sentry when SENTRY_DSN is set (docs/deployment.md).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    init_sentry(
        SENTRY_DSN,
        os.environ.get("SENTRY_ENVIRONMENT", "production"),
        env_float("SENTRY_TRACES_SAMPLE_RATE", 0.0),
    )
