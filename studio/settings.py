"""Django settings for Macaron; everything that differs between hosts comes from the environment."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url

from inference.paths import REPO_ROOT, data_home
from studio.embedded_redis import default_redis_url

BASE_DIR = REPO_ROOT
DATA_HOME = data_home()
DATA_HOME.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    if key := os.environ.get("MACARON_SECRET_KEY"):
        return key
    path = DATA_HOME / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("MACARON_DEBUG", "") == "1"
ALLOWED_HOSTS = os.environ.get("MACARON_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")


def deploy_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """Settings for serving behind a TLS-terminating proxy (docs/DEPLOY.md), all off unless the
    environment turns them on: MACARON_BEHIND_TLS_PROXY=1 trusts the proxy's X-Forwarded-Proto
    (so view_url comes out https://), marks cookies Secure and sends HSTS;
    MACARON_PUBLIC_ORIGIN (https://studio.example.com) is the origin browsers use, trusted for
    CSRF and the WebSocket and added to ALLOWED_HOSTS."""
    behind_tls = environ.get("MACARON_BEHIND_TLS_PROXY", "") == "1"
    public = [o.strip() for o in environ.get("MACARON_PUBLIC_ORIGIN", "").split(",") if o.strip()]
    hsts_default = str(365 * 24 * 3600) if behind_tls else "0"
    return {
        # Only a proxy that overwrites the client's X-Forwarded-Proto may be trusted with it.
        "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https") if behind_tls else None,
        "SESSION_COOKIE_SECURE": behind_tls,
        "CSRF_COOKIE_SECURE": behind_tls,
        "SECURE_HSTS_SECONDS": int(environ.get("MACARON_HSTS_SECONDS", hsts_default)),
        "CSRF_TRUSTED_ORIGINS": public,
        "PUBLIC_HOSTS": [urlsplit(origin).hostname or "" for origin in public],
    }


_deploy = deploy_settings(os.environ)
SECURE_PROXY_SSL_HEADER = _deploy["SECURE_PROXY_SSL_HEADER"]
SESSION_COOKIE_SECURE = _deploy["SESSION_COOKIE_SECURE"]
CSRF_COOKIE_SECURE = _deploy["CSRF_COOKIE_SECURE"]
SECURE_HSTS_SECONDS = _deploy["SECURE_HSTS_SECONDS"]
CSRF_TRUSTED_ORIGINS = _deploy["CSRF_TRUSTED_ORIGINS"]
ALLOWED_HOSTS += [host for host in _deploy["PUBLIC_HOSTS"] if host not in ALLOWED_HOSTS]

INSTALLED_APPS = [
    # The admin is where operators register and retire adapters (studio/admin.py).
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.contenttypes",
    "django.contrib.humanize",  # "3 minutes ago" on the projects page
    "django.contrib.staticfiles",
    "channels",
    "studio",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "studio.web.api.middleware.OpenAIErrorsMiddleware",
    "studio.web.static_files.AsyncWhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "studio.web.security.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "studio.web.urls"
ASGI_APPLICATION = "studio.web.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,  # the admin's templates
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{DATA_HOME / 'macaron.sqlite3'}")
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The worker's threads and Daphne write concurrently: WAL plus immediate transactions
    # turn lock errors into short waits.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Tests on a file, not Django's shared-cache memory database: there a reader and a writer
    # on two threads fail at once with "table is locked" instead of waiting out the timeout.
    # One per test process, so two checkouts' suites sharing a data folder never meet.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"macaron-test-{os.getpid()}.sqlite3")
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL") or default_redis_url(DATA_HOME / "redis")


def channel_layer_config(redis_url: str) -> dict[str, object]:
    """channels-redis blocks 5 s per receive; redis-py 8 also times sockets out after 5 s by
    default, which kills idle consumers. A longer socket timeout keeps them alive."""
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": redis_url, "socket_timeout": 30}]},
    }


CHANNEL_LAYERS = {"default": channel_layer_config(REDIS_URL)}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
if CELERY_BROKER_URL.partition("://")[0] in ("redis", "rediss"):
    # kombu's Redis transport, whose QoS lets a worker live through a Redis restart.
    CELERY_BROKER_TRANSPORT = "studio.worker.broker_transport:Transport"
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("MACARON_PROFILE", "macaron-tiny")
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task is acknowledged when its run ends, not when it starts: a worker killed holding one
# (prefetched or running) hands it back, and the copy is a no-op if its row ended meanwhile
# (a generation is claimed only while queued). The broker's visibility timeout is sized to the
# generation time limit below.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

STATIC_URL = "/static/"
NODE_MODULES = Path(os.environ.get("MACARON_NODE_MODULES") or BASE_DIR / "node_modules")
# The studio page's ES modules import Preact and htm from the npm install, under vendor/ (only
# their dist folders: the rest of node_modules is not served).
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/preact", NODE_MODULES / "preact" / "dist"),
    ("vendor/preact-hooks", NODE_MODULES / "preact" / "hooks" / "dist"),
    ("vendor/htm", NODE_MODULES / "htm" / "dist"),
]
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
USE_TZ = True
TIME_ZONE = "UTC"

# Product limits: what a single request may ask of the engine.
MACARON_PROMPT_MAX_CHARS = int(os.environ.get("MACARON_PROMPT_MAX_CHARS", "2000"))
MACARON_MESSAGE_MAX_BYTES = int(os.environ.get("MACARON_MESSAGE_MAX_BYTES", "65536"))
# A ui spec's limit covers the longest spec the ui data teaches, in the default model's tokens
# (1,001; tests/inference/test_ui_data_fits_the_limit.py): at 700, 279 of the 10,137 training
# specs, wizards of many steps and long forms, were cut off before their end.
MACARON_UI_MAX_TOKENS = int(os.environ.get("MACARON_UI_MAX_TOKENS", "1024"))
# Drafts the engine writes of a studio ui turn the designer asks the best of ("Best of 3 drafts"),
# the streamed one included, of which the one that shows most of the request is kept
# (studio/worker/candidates.py). Other turns write the streamed one alone: three drafts share
# the engine's batches, and one designer waits 2.6 to 2.7 times as long for the finished screen.
MACARON_UI_CANDIDATES = int(os.environ.get("MACARON_UI_CANDIDATES", "3"))
MACARON_TEXT_MAX_TOKENS = int(os.environ.get("MACARON_TEXT_MAX_TOKENS", "300"))
MACARON_BATCH_SECONDS = float(os.environ.get("MACARON_BATCH_SECONDS", "0.1"))
# The worker aborts a generation past this; Celery's own time limits do nothing in `-P threads`.
MACARON_GENERATION_TIME_LIMIT_SECONDS = float(
    os.environ.get("MACARON_GENERATION_TIME_LIMIT_SECONDS", "600")
)
# ... and fails one whose engine sent nothing for this long (a hung request, a lost engine).
MACARON_GENERATION_STALL_SECONDS = float(os.environ.get("MACARON_GENERATION_STALL_SECONDS", "120"))
# Every worker sweeps for generations nobody will finish this often (studio/worker/lifecycle.py);
# a row queued this long may have lost its task, and is sent again (studio/worker/queued.py).
MACARON_SWEEP_SECONDS = float(os.environ.get("MACARON_SWEEP_SECONDS", "60"))
MACARON_GENERATION_REQUEUE_SECONDS = float(
    os.environ.get("MACARON_GENERATION_REQUEUE_SECONDS", "120")
)
# An unacknowledged task (acks_late: one still running) goes back to the queue after this; longer
# than any run may take, or a live worker's task would be handed out again (the copy would be a
# no-op, but a wasted one). Redis's default is one hour.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(MACARON_GENERATION_TIME_LIMIT_SECONDS) + 120
}
# The studio, per user: generations started a minute, and queued or running at once.
MACARON_STUDIO_RATE_PER_MINUTE = int(os.environ.get("MACARON_STUDIO_RATE_PER_MINUTE", "10"))
MACARON_STUDIO_MAX_CONCURRENT = int(os.environ.get("MACARON_STUDIO_MAX_CONCURRENT", "2"))
# A refinement shows the model the spec it revises: at most this many characters of it, so the
# prompt and the answer still fit the model's context (4096 tokens by default).
MACARON_REFINE_SPEC_MAX_CHARS = int(os.environ.get("MACARON_REFINE_SPEC_MAX_CHARS", "5000"))

# Datasets a designer uploads or pastes into a project (studio/services/datasets/limits.py).
MACARON_DATASET_MAX_BYTES = int(os.environ.get("MACARON_DATASET_MAX_BYTES", str(20 * 1024 * 1024)))
MACARON_DATASET_MAX_ROWS = int(os.environ.get("MACARON_DATASET_MAX_ROWS", "100000"))
MACARON_DATASET_MAX_COLUMNS = int(os.environ.get("MACARON_DATASET_MAX_COLUMNS", "100"))
MACARON_DATASET_MAX_CELLS = int(os.environ.get("MACARON_DATASET_MAX_CELLS", "2000000"))
MACARON_DATASET_MAX_CELL_CHARS = int(os.environ.get("MACARON_DATASET_MAX_CELL_CHARS", "10000"))
MACARON_DATASETS_PER_PROJECT = int(os.environ.get("MACARON_DATASETS_PER_PROJECT", "50"))

# The HTTP API (/v1/): which profiles have workers here, and what one key may ask for.
MACARON_SERVED_PROFILES = os.environ.get(
    "MACARON_SERVED_PROFILES", CELERY_TASK_DEFAULT_QUEUE
).split(",")
MACARON_API_MAX_BODY_BYTES = int(os.environ.get("MACARON_API_MAX_BODY_BYTES", "65536"))
MACARON_API_MAX_INPUT_CHARS = int(os.environ.get("MACARON_API_MAX_INPUT_CHARS", "8000"))
MACARON_API_MAX_TOKENS = int(os.environ.get("MACARON_API_MAX_TOKENS", "2048"))
MACARON_API_RATE_PER_MINUTE = int(os.environ.get("MACARON_API_RATE_PER_MINUTE", "60"))
MACARON_API_MAX_CONCURRENT = int(os.environ.get("MACARON_API_MAX_CONCURRENT", "4"))
MACARON_API_TIMEOUT_SECONDS = float(os.environ.get("MACARON_API_TIMEOUT_SECONDS", "600"))
# The tool loop (`repl` with a python tool): at most this many model replies per request.
MACARON_TOOL_LOOP_MAX_STEPS = int(os.environ.get("MACARON_TOOL_LOOP_MAX_STEPS", "6"))
# How long a `view_url` works after it is handed out (7 days); fetching the completion again
# (GET /v1/chat/completions/<id>) hands out a fresh one.
MACARON_API_VIEW_MAX_AGE_SECONDS = int(
    os.environ.get("MACARON_API_VIEW_MAX_AGE_SECONDS", str(7 * 24 * 3600))
)

# REPL sessions (/v1/repl/sessions): sandboxed Jupyter kernels, one folder each under
# MACARON_REPL_HOME (studio/repl/). A session idle this long is stopped by the next sweep.
MACARON_REPL_HOME = Path(os.environ.get("MACARON_REPL_HOME") or DATA_HOME / "repl")
MACARON_REPL_IDLE_SECONDS = float(os.environ.get("MACARON_REPL_IDLE_SECONDS", "1800"))
MACARON_REPL_MAX_SESSIONS = int(os.environ.get("MACARON_REPL_MAX_SESSIONS", "4"))  # per owner
MACARON_REPL_CODE_MAX_BYTES = int(os.environ.get("MACARON_REPL_CODE_MAX_BYTES", "32768"))
MACARON_REPL_CELL_SECONDS = float(os.environ.get("MACARON_REPL_CELL_SECONDS", "30"))
MACARON_REPL_OUTPUT_BYTES = int(os.environ.get("MACARON_REPL_OUTPUT_BYTES", str(256 * 1024)))
# Per sandboxed process: CPU seconds (over the kernel's life), address space, processes and
# threads (all of the sandbox's together), open files, file size; and the /tmp tmpfs.
MACARON_REPL_CPU_SECONDS = int(os.environ.get("MACARON_REPL_CPU_SECONDS", "600"))
MACARON_REPL_MEMORY_BYTES = int(os.environ.get("MACARON_REPL_MEMORY_BYTES", str(1 << 30)))
MACARON_REPL_PROCESSES = int(os.environ.get("MACARON_REPL_PROCESSES", "64"))
MACARON_REPL_OPEN_FILES = int(os.environ.get("MACARON_REPL_OPEN_FILES", "256"))
MACARON_REPL_FILE_BYTES = int(os.environ.get("MACARON_REPL_FILE_BYTES", str(64 << 20)))
MACARON_REPL_TMP_BYTES = int(os.environ.get("MACARON_REPL_TMP_BYTES", str(64 << 20)))
# The host user sandboxes run as when the server runs as root (nobody, by default).
MACARON_REPL_UID = int(os.environ.get("MACARON_REPL_UID", "65534"))
MACARON_REPL_GID = int(os.environ.get("MACARON_REPL_GID", "65534"))
# Global tools (/v1/tools): functions promoted from sessions, importable from `macaron_tools`
# in every new session and listed to the model, so their number is bounded.
MACARON_TOOLS_MAX_ACTIVE = int(os.environ.get("MACARON_TOOLS_MAX_ACTIVE", "100"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("MACARON_LOG_LEVEL", "INFO")},
}

# Accounts: the studio wants a signed-in user; `make run` prints a one-time sign-in link.
LOGIN_URL = "/signin/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/signin/"
MACARON_SIGNIN_LINK_SECONDS = int(os.environ.get("MACARON_SIGNIN_LINK_SECONDS", str(24 * 3600)))
