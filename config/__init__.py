"""Project configuration: settings, URLs, WSGI/ASGI, the Celery app, and `caches`: every cache
between the stored standings and the screen, named in one place."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
