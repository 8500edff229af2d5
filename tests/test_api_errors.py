"""An address that no route matches: under /api/ the API's JSON error shape, elsewhere the HTML
page a person expects (config/api.py's `page_not_found`)."""

from django.test import Client


def test_an_unknown_api_address_answers_a_json_404(client: Client) -> None:
    response = client.get("/api/does-not-exist")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    [error] = response.json()["errors"]
    assert error["rule"] is None
    assert error["field"] is None
    assert "/api/docs/" in error["message"]


def test_an_unknown_api_address_answers_json_to_any_method(client: Client) -> None:
    response = client.post("/api/tournaments/open/nothing-here", {}, "application/json")
    assert response.status_code == 404
    assert response.json()["errors"]


def test_an_unknown_page_still_answers_the_html_404(client: Client) -> None:
    response = client.get("/does-not-exist")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_an_api_address_without_its_slash_is_still_redirected(client: Client) -> None:
    """Django's APPEND_SLASH still runs first: the JSON 404 is only for addresses with no route."""
    response = client.get("/api/schema")
    assert response.status_code == 301
    assert response["Location"] == "/api/schema/"
