"""Fuzzing the API with schemathesis against its own OpenAPI schema (`/api/schema/`).

Every operation the schema lists gets a bounded, reproducible run (hypothesis, derandomized, no
deadline, no shrinking), in-process through the WSGI application, against a database holding a
real tournament (two published tables, three games played at table 1, a ruling) so that the
generated requests get past the permission checks into the services:

- **as its caller**: the director's API token for the director's API, table 1's link for the
  table API, nobody for the rules API; the real slug, round, game, table, entry and ruling in the
  path; the body and the query generated, valid (positive) and invalid (negative).
- **as anyone**: anonymous, a forged token, the director or the link, the path generated too.
- **written out**: a valid request with the real path, by each of those callers; then, as the
  operation's caller and anonymously, a NUL byte in each string and 10**30 in each integer of the
  body and the query, one field at a time so that the others stay valid; 99999999999999999999 in
  every integer of the path (`/api/tables/99999999999999999999`) and a NUL byte in every string
  of the path; and the schema's own request examples.

Each answer must not be a 5xx, must have a documented status code and must match the documented
response schema; a schema-valid request must not be refused with a 400 (`KNOWN_GAPS` lists the
operations that refuse some for a reason the schema cannot say) and an invalid one must not be
accepted (schemathesis' conformance checks). A run collects every failure and reports each with
a curl line to reproduce it.
"""

import copy
import json
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from django.core.signals import got_request_exception
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import AcceptedNegativeData, FailureGroup
from schemathesis.core.transport import Response
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from scoring.rulings import ruling_record
from tests.scoring.playing import director_of, play, published_round, tables_of, tournament_with

pytestmark = pytest.mark.django_db(transaction=True)

SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", application)
OPERATIONS: dict[str, APIOperation] = {
    result.ok().definition.raw["operationId"]: result.ok() for result in SCHEMA.get_all_operations()
}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
]
VALID_EXAMPLES = 10  # per operation, as its caller
INVALID_EXAMPLES = 5  # as its caller, when it has a body or a query to make invalid
ANYONE_EXAMPLES = 5
FUZZ = settings(
    deadline=None,
    derandomize=True,  # the same examples on every run, so that a failure reproduces
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: every failure is kept and reported
    suppress_health_check=list(HealthCheck),  # slow or filtered generation is not under test
)
HUGE_ID = 99999999999999999999
HUGE = 10**30
NUL = "Ann\x00Clarke"

TOTALS: Counter[str] = Counter()

# Operations that refuse some schema-valid requests (a 400), each for a reason the schema cannot
# say; schemathesis' positive-data check counts them without failing the run. Everything else a
# conformance check finds fails it: an undocumented status, an answer not of its documented
# shape, a 5xx, a schema-valid request refused, an invalid one accepted.
ROW_IDS = "a body names rows by id (an entry, a table) that this tournament may not have"
LATE = "once round 1 is seated, a newcomer must be marked late (`late`): the tournament's state"
NOTATION = "cards are written in the games' notation (R11), games within the ruleset's set (R4)"
FORMS = "a form-encoded body cannot carry a list (hands, partners) nor a null"
KNOWN_GAPS = {
    "auth_token_create": "wrong credentials are a 400 (DRF's token endpoint, which clients use)",
    "check_in_window_close": "only an open check-in window can be closed: the tournament's state",
    "entries_refuse_pairing": "only a team's pairing is refused (HF1.2); an entry id is either",
    "pins_set": ROW_IDS,
    "players_add": LATE,
    "players_import": LATE,
    "rounds_move": ROW_IDS,
    "rounds_seat_change": ROW_IDS,
    "rounds_seat": FORMS,
    "rounds_swap": ROW_IDS,
    "rulings_record": ROW_IDS + "; a ruling names a player, a table or a game",
    "rules_contract": NOTATION,
    "rules_game": NOTATION + "; " + FORMS,
    "rules_meld": NOTATION,
    "stages_cut": "a `seed` of null (the draw's own) is a JSON null: " + FORMS,
    "stages_set": "stage 1 is the qualifying stage, with no cut: a rule across stages; " + FORMS,
    "tables_reseat": "the seats are the table's own players re-ordered, the games its deals by "
    "number: the table's rows; " + FORMS,
    "rules_tack_on": NOTATION,
    "tables_result": "every seat needs a result, by `hands` or by `sides` (one of two shapes)",
    "tables_result_games": "the old path of `tables_result`: the same gap",
    "tables_sign_off": "a set is signed off once its games are played (R4.1): the table's state",
    "teams_add": "a team is two partners (HF1.2); " + FORMS,
    "teams_update": "a team is two partners (HF1.2); " + FORMS,
    "tournaments_create": "a ruleset names a preset, then its settings: " + FORMS,
    "tournaments_update": "a tournament ends on or after the day it starts",
}
# Invalid requests accepted, in form-encoded bodies only (the API's clients send JSON): not mended.
FORM_GAPS = {
    "check_in_window_open": "a form field with no name is dropped by Django's form parser, unseen",
    "tournaments_create": "a blank `game` is read as no game (DRF's reading of HTML forms)",
    "tournaments_update": "a field it does not know, in a form-encoded PATCH, is not refused",
}


# --- the tournament the requests are made against -------------------------------------------------


@dataclass
class World:
    headers: dict[str, dict[str, str]]
    slug: str
    table_id: int
    entries: list[int]  # table 1's players
    ruling_id: int

    def caller(self, operation: APIOperation) -> str:
        if operation.path.startswith("/api/tables/"):
            return "table link"
        if operation.path.startswith("/api/tournaments"):
            return "director"
        return "anonymous"

    def path(self, operation: APIOperation) -> dict[str, Any]:
        """Real values for the operation's path, so that its requests reach the services."""
        on_table = operation.path.startswith("/api/tables/")
        values = {
            "slug": self.slug,
            "number": 4 if on_table else 1,  # table 1's next game; round 1
            "id": self.table_id if on_table else self.ruling_id,
            "entry_id": self.entries[0],
            "table": 1,
        }
        names = [p.name for p in operation.iter_parameters() if p.location == "path"]
        return {name: values.get(name, self.slug if "slug" in name else 1) for name in names}

    def hint(self, name: str) -> Any:
        """A real value for a body field that names a row, or None."""
        return {"entry": self.entries[0], "swap_with": self.entries[1], "table": 2}.get(name)


@pytest.fixture
def world() -> World:
    """The Fuzz Open: ten players at two published tables, three games played at table 1, a
    ruling; Dana directs it with an API token."""
    tournament = tournament_with(10, name="Fuzz Open", slug="fuzz-open", is_published=True)
    one, _ = tables_of(published_round(tournament))
    for number in (1, 2, 3):
        play(one, number)
    dana = director_of(tournament, "dana")
    entries = list(one.seats.order_by("position").values_list("entry_id", flat=True))
    ruling = ruling_record(
        tournament=tournament,
        by=dana,
        kind="penalty_points",
        entry=tournament.entries.get(pk=entries[0]),
        points=25,
        decision="25 penalty points for showing cards.",
    )
    headers = {
        "director": {"Authorization": f"Token {Token.objects.create(user=dana).key}"},
        "table link": {"Authorization": f"Table {one.access_token}"},
        "anonymous": {},
        "forged token": {"Authorization": "Token 0000000000000000000000000000000000000000"},
    }
    return World(headers, tournament.slug, one.pk, entries, ruling.pk)


# --- requests written out from the schema's own description of each input -------------------


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = SCHEMA.raw_schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    for combined in ("allOf", "oneOf", "anyOf"):
        if combined in node:
            return resolve(node[combined][0])
    return node


def valid_value(node: dict[str, Any], world: World, name: str = "") -> Any:
    """A value the schema accepts, real ids where a field names a row."""
    node = resolve(node)
    if world.hint(name) is not None:
        return world.hint(name)
    if "enum" in node:
        return next(value for value in node["enum"] if value is not None)
    kind = node.get("type", "object" if "properties" in node else "string")
    if kind == "object":
        return {key: valid_value(child, world, key) for key, child in node["properties"].items()}
    if kind == "array":
        if name == "entries":
            return world.entries[:2]
        return [valid_value(node.get("items", {}), world)] * max(node.get("minItems", 1), 1)
    if kind in ("integer", "number"):
        return max(node.get("minimum", 1), 1)
    if kind == "boolean":
        return False
    return {"date": "2026-11-21", "email": "ann@example.com"}.get(node.get("format", ""), "Ann")


def leaves(value: Any, at: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every string and integer inside `value`, with the keys that lead to it."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from leaves(child, (*at, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from leaves(child, (*at, index))
    elif isinstance(value, str | int) and not isinstance(value, bool):
        yield at, value


def poison(value: Any, at: tuple, leaf: Any) -> Any:
    """`value` with the leaf at `at` poisoned: a NUL byte in a string, 10**30 for an integer."""
    poisoned = copy.deepcopy(value)
    *parents, last = at
    target = poisoned
    for key in parents:
        target = target[key]
    target[last] = f"{leaf}\x00" if isinstance(leaf, str) else HUGE
    return poisoned


def written_out(operation: APIOperation, world: World) -> Iterator[Case]:
    """A valid request with the real path, then the same poisoned: each string of the body and
    the query in turn with a NUL byte, each integer 10**30; the path's integers huge and its
    strings with a NUL byte; then the schema's own examples."""
    path = world.path(operation)
    content = operation.definition.raw.get("requestBody", {}).get("content", {})
    body = content.get("application/json")
    query = {
        p.name: valid_value(p.definition.get("schema", {}), world)
        for p in operation.iter_parameters()
        if p.location == "query"
    }

    def case(path_parameters: dict = path, **kwargs: Any) -> Case:
        if body is not None:
            kwargs.setdefault("body", base)
            kwargs["media_type"] = "application/json"
        return operation.Case(
            path_parameters=path_parameters, query=kwargs.pop("query", query), **kwargs
        )

    examples = [example["value"] for example in (body or {}).get("examples", {}).values()]
    base = examples[0] if examples else valid_value(body["schema"], world) if body else None
    yield case()
    for at, leaf in leaves(base):
        yield case(body=poison(base, at, leaf))
    for at, leaf in leaves(query):
        yield case(query=poison(query, at, leaf))
    if path:
        yield case({k: HUGE_ID if isinstance(v, int) else f"{v}\x00" for k, v in path.items()})
    for example in examples:
        yield case(body=example)


# --- a run over one operation ---------------------------------------------------------------------


@dataclass
class Run:
    operation: APIOperation
    world: World
    examples: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    gaps: int = 0  # schema-valid requests refused, as KNOWN_GAPS says they are

    @property
    def gap(self) -> str | None:
        return KNOWN_GAPS.get(self.operation.definition.raw["operationId"])

    @property
    def form_gap(self) -> str | None:
        return FORM_GAPS.get(self.operation.definition.raw["operationId"])

    def send(self, lane: str, persona: str, case: Case) -> None:
        headers = self.world.headers[persona]
        crashes: list[str] = []

        def crashed(**kwargs: Any) -> None:  # Django's signal, sent while handling the error
            crashes.append(traceback.format_exc(limit=-4))

        got_request_exception.connect(crashed, weak=False)
        try:
            response = case.call(headers=headers)
        finally:
            got_request_exception.disconnect(crashed)
        self.examples[lane] += 1
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except FailureGroup as group:
            for failure in group.exceptions:
                if isinstance(failure, RejectedPositiveData) and self.gap:
                    self.gaps += 1  # a known refusal the schema cannot yet describe
                    continue
                if isinstance(failure, AcceptedNegativeData) and self.form_gap:
                    self.gaps += 1  # a known leniency of form-encoded bodies, not yet mended
                    continue
                self.failures.append(report(persona, case, headers, response, failure, crashes))

    def lane(self, name: str, cases: st.SearchStrategy[Case], personas: list[str], n: int) -> None:
        @settings(FUZZ, max_examples=n)
        @given(persona=st.sampled_from(personas), case=cases)
        def examples(persona: str, case: Case) -> None:
            self.send(name, persona, case)

        examples()


def report(
    persona: str,
    case: Case,
    headers: dict,
    response: Response,
    failure: Exception,
    crashes: list[str],
) -> str:
    """The failure, a curl line that repeats the request, and the answer (or the traceback)."""
    answer = "".join(crashes) or response.content.decode(errors="replace")[:800]
    curl = case.as_curl_command(headers=headers)
    return f"[{persona}] {failure!r}\n  {curl}\n  -> {response.status_code} {answer}"


def constrained(parameter: dict[str, Any]) -> bool:
    """Whether a header's schema refuses any value (a plain string takes them all)."""
    schema = parameter.get("schema", {})
    return bool(set(schema) - {"type", "description"}) or schema.get("type", "string") != "string"


def negatable(operation: APIOperation) -> bool:
    """Whether anything is left to make invalid once the path is given: a body, a query, a
    header other than the credentials (which the schema lists as parameters too)."""
    inputs = [
        p
        for p in operation.iter_parameters()
        if p.location == "query"
        or (p.location == "header" and p.name != "Authorization" and constrained(p.definition))
    ]
    return bool(inputs) or bool(list(operation.body))


def fuzz(operation: APIOperation, world: World) -> Run:
    run = Run(operation, world)
    caller, path = world.caller(operation), world.path(operation)
    valid = operation.as_strategy(GenerationMode.POSITIVE, path_parameters=path)
    invalid = operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=path)
    anything = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )
    if negatable(operation):
        run.lane("as its caller", valid, [caller], VALID_EXAMPLES)
        run.lane("as its caller", invalid, [caller], INVALID_EXAMPLES)
    else:  # with the path given, nothing is left to make invalid
        run.lane("as its caller", valid, [caller], VALID_EXAMPLES + INVALID_EXAMPLES)
    run.lane("as anyone", anything, list(world.headers), ANYONE_EXAMPLES)
    base, *poisoned = written_out(operation, world)
    for persona in world.headers:
        run.send("written out", persona, base)
    for case in poisoned:
        run.send("written out", caller, case)
        run.send("written out", "anonymous", case)
    return run


@pytest.fixture(scope="module", autouse=True)
def _say_how_many(request: pytest.FixtureRequest) -> Iterator[None]:
    """One line in the test run's output: how many requests were made, in which way."""
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is None or capture is None or not TOTALS:
        return
    lanes = {key: value for key, value in TOTALS.items() if key not in ("operations", "known_gaps")}
    with capture.global_and_fixture_disabled():
        reporter.write_line(
            f"\nschemathesis: {TOTALS['operations']} operations, "
            f"{sum(lanes.values())} requests {json.dumps(lanes)}; "
            f"{TOTALS['known_gaps']} schema-valid requests refused as KNOWN_GAPS says"
        )


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_every_operation_answers_as_documented(operation_id: str, world: World) -> None:
    run = fuzz(OPERATIONS[operation_id], world)
    TOTALS.update(run.examples + Counter(operations=1, known_gaps=run.gaps))
    assert not run.failures, f"{len(run.failures)} failures:\n\n" + "\n\n".join(run.failures)
    if run.gap or run.form_gap:  # the lists stay honest: an operation mended leaves them
        assert run.gaps, (
            f"{operation_id} accepts every schema-valid request: drop it from KNOWN_GAPS"
        )


def test_the_schema_lists_every_api_route() -> None:
    """The fuzzing is as wide as the schema: every method of every /api/ view must be in it."""
    from django.urls import get_resolver

    def routes(patterns: list, prefix: str = "") -> Iterator[tuple[str, str]]:
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
                continue
            view = getattr(pattern.callback, "cls", None)
            route = prefix + str(pattern.pattern)
            if (
                view is None
                or not route.startswith("api/")
                or route.startswith(("api/schema", "api/docs"))
            ):
                continue
            for method in ("get", "post", "put", "patch", "delete"):
                if hasattr(view, method):
                    yield method, route.count("<")

    served = Counter(routes(get_resolver().url_patterns))
    documented = Counter(
        (operation.method, operation.path.count("{")) for operation in OPERATIONS.values()
    )
    assert served == documented


TABLE = "/api/tables/{table}"
RESULT = TABLE + "/games/4/result"
NAMED_CASES = {
    "huge table id": ("get", "/api/tables/99999999999999999999", None, 404),
    "huge game number": ("put", TABLE + "/games/99999999999999999999/result", {}, 404),
    "NUL in a name": ("put", RESULT, {"entered_by": "Ann\x00", "hands": []}, 400),
    "10**30 as a seat": ("put", RESULT, {"hands": [{"seat": HUGE, "points": 5}]}, 400),
    "10**30 as points": ("put", RESULT, {"hands": [{"seat": 2, "points": HUGE}]}, 400),
    "NUL in cards": ("post", "/api/rules/meld", {"cards": "5H\x00 5C 5D"}, 400),
    "10**30 penalty": (
        "post",
        "/api/tournaments/fuzz-open/rulings",
        {"kind": "penalty_points", "points": HUGE, "decision": "Too many"},
        400,
    ),
    "NUL in a query": ("get", "/api/tournaments/fuzz-open/entries?search=%00", None, 400),
}


@pytest.mark.parametrize("name", NAMED_CASES)
def test_nul_bytes_and_huge_numbers_are_refused_not_crashed(world: World, name: str) -> None:
    method, path, body, status = NAMED_CASES[name]
    caller = "table link" if path.startswith("/api/tables") else "director"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=world.headers[caller]["Authorization"])
    response = getattr(client, method)(path.format(table=world.table_id), body, format="json")
    assert response.status_code == status, response.content
    assert response.json()["errors"]


def test_an_api_path_that_matches_no_route_answers_in_json(world: World) -> None:
    """A slug with a NUL byte matches no route: the 404 is still the API's error shape, as the
    schema documents it, not Django's HTML page."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=world.headers["director"]["Authorization"])
    response = client.get("/api/tournaments/fuzz%00open")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["message"]
