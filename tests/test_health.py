"""/healthz reports every dependency and stays 200 while the database answers."""

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_it_reports_each_dependency(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "cache", "broker", "workers"}
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["cache"]["status"] == "ok"


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_it_stays_200_and_says_so_when_redis_is_down(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    checks = response.json()["checks"]
    assert checks["broker"]["status"] == "error"
    assert "Connection" in checks["broker"]["error"]
    assert checks["workers"]["status"] == "unknown"
    assert checks["broker"]["ms"] < 2000


@pytest.mark.redis
def test_it_sees_the_real_redis_broker(client: Client) -> None:
    checks = client.get("/healthz").json()["checks"]
    assert checks["broker"]["status"] == "ok"
    assert checks["cache"]["backend"] == "RedisCache"
