"""The Django app: projects and generations, the studio's WebSocket, views and Celery tasks."""

# Load the Celery app with Django, so `shared_task`s enqueue through its broker settings.
from studio.celery import app as celery_app

__all__ = ["celery_app"]
