"""/healthz reports every dependency to staff, only the overall state to anyone else, and stays
200 while the database answers."""

import pytest
from django.test import Client, override_settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client: Client) -> Client:
    """A member of staff: the details are for them."""
    client.force_login(UserFactory(username="ops", is_staff=True))
    return client


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_anyone_else_sees_only_the_overall_state_and_no_internal_text() -> None:
    for caller in (Client(), _signed_in(is_staff=False)):
        response = caller.get("/healthz")
        assert response.status_code == 200
        assert response.json() == {"status": "ok"}
        assert (
            "6379" not in response.content.decode() and "127.0.0.1" not in response.content.decode()
        )


def _signed_in(**fields: object) -> Client:
    caller = Client()
    caller.force_login(UserFactory(username="someone", **fields))
    return caller


def test_it_reports_each_dependency(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "disk", "cache", "broker", "workers"}
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
    assert checks["cache"]["backend"] == "BreakerRedisCache"


def test_a_full_disk_is_a_503_for_everyone(client: Client, monkeypatch) -> None:
    """No result could be saved: the load balancer and the director are told so."""
    import shutil

    from config import health

    nearly_full = shutil._ntuple_diskusage(100 * 2**30, 100 * 2**30 - 2**20, 2**20)
    monkeypatch.setattr(health.shutil, "disk_usage", lambda path: nearly_full)
    anonymous = Client().get("/healthz")
    assert (anonymous.status_code, anonymous.json()) == (503, {"status": "error"})
    staff = client.get("/healthz")
    assert staff.status_code == 503
    disk = staff.json()["checks"]["disk"]
    assert (disk["status"], disk["free_mb"], disk["error"]) == ("error", 1, "the disk is full")
