"""Settings for the Kalooki tournament manager, driven by environment variables.

Unset variables give the embedded default a newcomer needs: a SQLite file in the project, Celery
running tasks eagerly in the web process, and an in-process cache. Production differs only by
environment: DATABASE_URL (PostgreSQL), REDIS_URL (broker and cache), SECRET_KEY, DEBUG=0,
ALLOWED_HOSTS. A bad value stops start-up with a message naming the variable (see config/env.py).
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # runtime files: the SQLite database, collected static files
VAR_DIR.mkdir(exist_ok=True)

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is off. Set SECRET_KEY to a long random string "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
            "or DEBUG=1 for development."
        )
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Unset, the print pages' table links follow the address the director's browser is using.
SITE_URL_SET = bool(env_str("SITE_URL"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "clubs",
    "tournament",
    "tables",
    "scoring",
    "seasons",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Refuses what no view should read (NUL paths, oversized or unreadable bodies) and answers a
    # dropped database connection with a 503 to retry (config/guard.py).
    "config.guard.RequestGuard",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The Content-Security-Policy on every answer, the hall's shortcut's included (below).
    "csp.middleware.CSPMiddleware",
    # The language: the one chosen on the page (a cookie), else the browser's (Accept-Language);
    # before the hall's shortcut, whose pages speak it too (it reads no session).
    "django.middleware.locale.LocaleMiddleware",
    # Answers anonymous leaderboard requests from the cached snapshot, like WhiteNoise does
    # static files, before the session and auth middleware; everyone else goes the whole way.
    "hall.middleware.LeaderboardShortcut",
    # A club's season, rating and member pages, as each web process last drew them for visitors
    # without a session, until the club's data changes (hall/club_cache.py).
    "hall.club_cache.ClubPagesShortcut",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

# Sign-in attempts are limited (django-axes, config/signin.py): after 5 failures of one username
# from one address, signing in pauses for 30 s, doubling each time within a day, at most 10
# minutes; someone sharing the director's address can delay them, never lock them out, and never
# pauses a browser the director signed in with before.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's password check, counting a device's own wrong passwords (config/signin.py).
    "config.signin.DeviceBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = "config.signin.cool_off"
SIGNIN_PAUSE_FIRST = timedelta(seconds=env_int("SIGNIN_PAUSE_FIRST_SECONDS", 30))
SIGNIN_PAUSE_MAX = timedelta(seconds=env_int("SIGNIN_PAUSE_MAX_SECONDS", 600))
SIGNIN_PAUSE_MEMORY = timedelta(hours=24)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # guessing on never lengthens a pause
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # the failures the growing pause is counted from
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client's address: REMOTE_ADDR, or, behind these reverse proxies (comma-separated
# addresses), the last X-Forwarded-For address that is not one of them.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
AXES_CLIENT_IP_CALLABLE = "config.signin.client_address"
# A browser that signed in as the username before (its device cookie) is not paused by the
# failures of others sharing its address (config/signin.py).
AXES_WHITELIST_CALLABLE = "config.signin.trusted_device"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
            ],
            # The table pages' words for the games' nouns (entry is no installed app).
            "libraries": {"table_words": "scorekeeper.templatetags.table_words"},
        },
    },
]

# Database: PostgreSQL from DATABASE_URL in production, a SQLite file otherwise.
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
# SQLite serves venue mode's several processes at once. A transaction takes the write lock when
# it begins (IMMEDIATE): one that read first and wanted to write after was refused at once with
# "database is locked" when another process wrote meanwhile, whatever the timeout, since SQLite
# cannot let a reader wait to become a writer. A writer waits for the one before it for up to
# `timeout` seconds (a burst of 50 tables takes about one), and readers never block it (WAL).
SQLITE_OPTIONS = {
    "timeout": env_int("SQLITE_BUSY_SECONDS", 20),
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL",
}
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))
    if DATABASE_URL
    else {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": VAR_DIR / "db.sqlite3",
        # Tests on a file too: the browser tests' live server then has a connection of its own
        # that waits for a lock, where a shared in-memory database fails with "table is locked".
        "TEST": {"NAME": VAR_DIR / "test.sqlite3"},
    }
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A dropped connection (database restart) is replaced on the next request instead of failing it.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = 5
    # Django's backend, reading timestamps with psycopg's compiled parser (config/postgresql).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: broker and cache when REDIS_URL is set. Without it, venue mode (several processes on one
# machine) sets SHARED_DIR: the cache is files there (Django's file cache) and the tasks queue
# there too (kombu's filesystem transport) for a Celery worker of its own, so every process sees
# the same standings and no web request recomputes them. With neither (`make run`, the tests),
# Celery runs tasks eagerly in the one process and the cache is that process's memory.
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
SHARED_DIR = "" if REDIS_URL else env_str("SHARED_DIR")
# Short socket timeouts: a score entry must never hang because Redis is unreachable.
REDIS_TIMEOUT_SECONDS = 0.5
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis cache behind the circuit breaker shared with the broker publish.
            "BACKEND": "config.cache.BreakerRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "kalooki",
            "OPTIONS": {
                "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
            },
        }
    }
elif SHARED_DIR:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(Path(SHARED_DIR) / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or ("filesystem://" if SHARED_DIR else "memory://")
CELERY_TASK_ALWAYS_EAGER = not (REDIS_URL or SHARED_DIR)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A refresh queued for the end of its window (scoring/standings_queue.py) runs within a tenth of a
# second of it, not within Celery's default second.
CELERY_WORKER_TIMER_PRECISION = 0.1
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT_SECONDS
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
    "socket_timeout": REDIS_TIMEOUT_SECONDS,
    "max_retries": 0,
}
if SHARED_DIR:
    QUEUE_DIR = Path(SHARED_DIR) / "queue"
    for folder in ("messages", "control"):
        (QUEUE_DIR / folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(QUEUE_DIR / "messages"),
        "data_folder_out": str(QUEUE_DIR / "messages"),
        "control_folder": str(QUEUE_DIR / "control"),
        "polling_interval": 0.1,  # a saved result reaches the worker within a tenth of a second
    }
CELERY_TASK_PUBLISH_RETRY = False
# A worker reconnects to a lost broker for ever, every 2 s at most (config/celery.py), and
# tasks cut off by the loss are delivered again instead of acknowledged on a dead connection.
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A lost standings refresh (a killed worker, Redis away) is repaired within 30 s, and at once
# when a worker (re)connects.
CELERY_BEAT_SCHEDULE = {
    "reconcile-standings": {"task": "scoring.tasks.reconcile_standings", "schedule": 30.0},
    "reconcile-seasons": {"task": "seasons.tasks.reconcile_seasons", "schedule": 300.0},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Checks nothing: a password saved revokes the user's API token and sessions (config/auth.py).
    {"NAME": "config.auth.RevokedWithPassword"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "director:home"
LOGOUT_REDIRECT_URL = "hall:index"

LANGUAGE_CODE = "en-gb"
# The players' pages (self check-in, "my page") speak these; the rest of the site is English.
LANGUAGES = [("en-gb", "English"), ("es", "Español"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "America/Jamaica")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# collectstatic writes a gzip copy of each file beside it, which WhiteNoise serves to a browser
# that accepts it: compressed once, not on every request.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.static_storage.TrimmedCompressedStaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.auth.ExpiringTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",  # DRF's, refusing deep nesting with a 400
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
# /healthz answers 503 when the disk of var/ (SQLite, the shared files, the front's buffers) has
# less room than this: no result could be saved (config/health.py).
DISK_MIN_FREE_MB = env_int("DISK_MIN_FREE_MB", 50)
# A tournament backup (scoring/backup.py) larger than this is refused before it is read.
BACKUP_MAX_BYTES = env_int("BACKUP_MAX_BYTES", 50_000_000)
# An API token lasts a tournament weekend by default; DELETE /api/auth/token revokes it sooner.
API_TOKEN_TTL = timedelta(hours=env_int("API_TOKEN_HOURS", 72))
SPECTACULAR_SETTINGS = {
    "TITLE": "Card-game tournament manager API",
    "DESCRIPTION": (
        "Tournaments of Kalooki, Hand and Foot and Parcellus: set-up under each game's rulesets, "
        "seating, score entry at the tables, rulings, standings, and the games' rules checks."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from this site (drf-spectacular-sidecar), never a CDN: a venue has no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two fields are called "kind": a meld's (three or four) and a stage's; each its own name.
    "ENUM_NAME_OVERRIDES": {
        "MeldKindEnum": "director.rules_serializers.KINDS",
        "StageKindEnum": "tournament.stages.STAGE_KINDS",
    },
    # Requests described apart from answers: a text field that refuses blank says minLength 1.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.close_request_bodies",
    ],
}

# Production hardening: on whenever DEBUG is off; each can be relaxed by its variable.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy on every response (django-csp): scripts, styles and images from this
# site only, no inline script or handler (JavaScript lives in static/js/), no framing, no
# plugins. The API docs page alone also loads Swagger UI's files (config/urls.py); the table's
# phone page alone has its styles inline, under a nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        # A nonce only where a page reads `request.csp_nonce`: the table's phone page inlines
        # its styles (scorekeeper/assets.py), drawn without waiting for a stylesheet's round trip.
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
