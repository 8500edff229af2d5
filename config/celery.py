"""The Celery app. Its settings are the CELERY_* names in config/settings.py.

Without REDIS_URL tasks run eagerly in the calling process, so a newcomer needs no broker.

A worker that loses its broker (Redis killed, restarted, frozen) comes back by itself and
catches up. Left to kombu, it would restore its unacknowledged messages through a client already
gone (`'NoneType' object has no attribute 'hostname'`) and exit; our consumer leaves them in
Redis's unacked set (handed back after its visibility timeout; the reconcile redoes what a Redis
restarted empty lost), reconnects every `RECONNECT_MAX_SECONDS` at most, for ever, and asks for a
standings reconcile at each connection. In the worker, publishing retries a little (the web's
fails at once: config/breaker.py). Should a worker die all the same, bin/supervise.py restarts it.
"""

import functools
import os
from typing import Any

from celery import Celery, bootsteps
from celery.signals import celeryd_init
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 2.0

app = Celery("kalooki")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Consumer(CeleryConsumer):
    """Celery's consumer, surviving a lost broker and reconnecting within
    `RECONNECT_MAX_SECONDS`."""

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        leave_unacked_to_the_broker(self.connection)
        super().on_connection_error_after_connected(exc)

    def ensure_connected(self, conn: Any) -> Any:
        conn.ensure_connection = functools.partial(
            conn.ensure_connection,
            interval_start=RECONNECT_FIRST_SECONDS,
            interval_step=RECONNECT_FIRST_SECONDS,
            interval_max=RECONNECT_MAX_SECONDS,
        )
        return super().ensure_connected(conn)


def leave_unacked_to_the_broker(connection: Any) -> None:
    """Mark each channel's unacknowledged messages as restored, so closing the dead connection
    does not ask the broker for them (see the module's docstring)."""
    transport = getattr(connection, "transport", None)
    for channel in list(getattr(transport, "channels", None) or []):
        qos = getattr(channel, "_qos", None)
        if qos is not None:
            qos._delivered.clear()
            qos._delivered.restored = True


class ReconcileOnConnect(bootsteps.StartStopStep):
    """Each time the consumer (re)connects, queue a standings reconcile: whatever was changed
    while the broker was away is caught up now, not at beat's next tick."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        parent.app.send_task("scoring.tasks.reconcile_standings")


app.steps["consumer"].add(ReconcileOnConnect)


@celeryd_init.connect
def _worker_publishes_with_retries(**kwargs: Any) -> None:
    """The web fails a publish at once (max_retries 0); a worker may wait a moment for Redis."""
    options = dict(app.conf.broker_transport_options or {})
    options.update(max_retries=3, interval_start=0.5, interval_step=0.5, interval_max=1)
    app.conf.broker_transport_options = options
