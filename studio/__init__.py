"""The Django app. `web/` runs in the web process (Daphne), `worker/` in the Celery worker that
hosts the engine; models, services, selectors and the Celery app are shared by both."""

# Load the Celery app with Django, so tasks are sent (and `shared_task`s bound) through it.
from studio.celery import app as celery_app

__all__ = ["celery_app"]
