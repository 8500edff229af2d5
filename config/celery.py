"""The Celery app. Its settings are the CELERY_* names in config/settings.py.

Without REDIS_URL tasks run eagerly in the calling process, so a newcomer needs no broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kalooki")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
