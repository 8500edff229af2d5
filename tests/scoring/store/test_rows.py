"""Each store stores what Django's `save()` stores, and reads it back as a prefetch does."""

import datetime

import pytest
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import CharField, DecimalField
from django.forms.models import model_to_dict

from scoring.models import Deal, DealResult, IdempotencyRecord, ResultRevision
from tests.factories import EntryFactory, TableFactory

pytestmark = pytest.mark.django_db

ODD_TEXT = 'Ann\'s "deal" %s %(x)s ; -- \x01 é'


def stored(model, pk):
    return model_to_dict(model.objects.get(pk=pk))


def test_a_record_is_stored_as_save_stores_it(store):
    table = TableFactory()
    answer = {"scores": [{"player": ODD_TEXT, "points": 25}], "none": None, "list": [1, 2.5]}
    ours = IdempotencyRecord(
        table=table, key="k1", fingerprint="f", status_code=201, response=answer
    )
    store.insert_row(ours)
    django = IdempotencyRecord.objects.create(
        table=table, key="k2", fingerprint="f", status_code=201, response=answer
    )
    mine = IdempotencyRecord.objects.get(key="k1")
    assert stored(IdempotencyRecord, mine.pk) | {"id": 0, "key": ""} == stored(
        IdempotencyRecord, django.pk
    ) | {"id": 0, "key": ""}
    assert mine.created_at is not None and mine.created_at == ours.created_at


def test_a_duplicate_key_is_refused_by_the_constraint_and_nothing_is_kept(store):
    table = TableFactory()
    store.insert_row(
        IdempotencyRecord(table=table, key="k", fingerprint="f", status_code=201, response={})
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        store.insert_row(
            IdempotencyRecord(table=table, key="k", fingerprint="g", status_code=200, response={})
        )
    assert IdempotencyRecord.objects.filter(table=table).count() == 1


def test_a_deal_its_results_and_revision_are_stored_as_one_and_read_back(store):
    table = TableFactory()
    entries = [EntryFactory(tournament=table.round.tournament) for _ in range(2)]
    deal = Deal(table=table, number=1, attempt=1, detail={"down_and_out": False, "note": ODD_TEXT})
    results = [
        DealResult(
            entry=entry, side=side, points=10 * side, entered={"values": {"cards": ODD_TEXT}}
        )
        for side, entry in enumerate(entries)
    ]
    revision = ResultRevision(
        deal=deal, version=1, entry={"sides": []}, scores={}, warnings=[], entered_via=ODD_TEXT
    )
    store.insert_deal(deal, results, revision)
    assert deal.pk == Deal.objects.get(table=table).pk
    [read] = store.table_deals(table.pk)
    assert read.detail == deal.detail
    assert [(r.entry_id, r.side, r.points, r.entered) for r in read.results.all()] == [
        (r.entry_id, r.side, r.points, r.entered) for r in results
    ]
    assert ResultRevision.objects.get(deal=read).entered_via == ODD_TEXT
    assert revision.deal_id == deal.pk and all(r.deal_id == deal.pk for r in results)


@pytest.mark.parametrize(
    "values",
    [
        {"reason": "", "entered_via": "", "review_reason": ""},  # the empties
        {"reason": ODD_TEXT, "entered_via": "''", "review_reason": "NULL"},  # texts, not SQL
        {
            "reason": '\u00e9\u2603 \U0001f0a1 \\u0041 "]}',
            "entered_via": "[{",
            "review_reason": " ",
        },
    ],
    ids=["empty", "texts", "json-like"],
)
def test_a_revisions_columns_are_stored_as_save_stores_them(store, values):
    """The rows go to the database as JSON (#18): what is stored is what Django's `save()`
    stores, NULLs and empty texts included, and a text that reads like SQL or JSON stays a
    text."""
    table = TableFactory()
    stored_revisions = []
    for number, save in enumerate((lambda rev: rev.save(force_insert=True), None), start=1):
        deal = Deal.objects.create(table=table, number=number, attempt=1)
        revision = ResultRevision(deal=deal, version=1, entry={}, scores={}, **values)
        if save:
            save(revision)
        else:
            store.insert_row(revision)
        stored_revisions.append(
            stored(ResultRevision, ResultRevision.objects.get(deal=deal).pk)
            | {"id": 0, "deal": 0, "entered_at": None}
        )
    assert stored_revisions[0] == stored_revisions[1]
    assert stored_revisions[1]["review_reason"] == values["review_reason"]


def test_a_moment_is_stored_to_the_microsecond_whatever_its_zone(store):
    """A moment goes as its ISO text with its offset; the database stores the same instant."""
    table = TableFactory()
    kingston = datetime.timezone(datetime.timedelta(hours=-5))
    moment = datetime.datetime(2026, 11, 24, 23, 59, 59, 999999, tzinfo=kingston)
    deal = Deal.objects.create(table=table, number=1, attempt=1)
    store.insert_row(ResultRevision(deal=deal, version=1, entry={}, scores={}, confirmed_at=moment))
    assert ResultRevision.objects.get(deal=deal).confirmed_at == moment


def test_a_day_in_a_moments_column_and_a_moment_in_a_days_are_stored_as_save_stores_them(store):
    """Django reads them in the project's zone (America/Jamaica by default): a day in a
    moment's column is midnight there, a moment in a day's column is its day there."""
    from tournament.models import Tournament

    late = datetime.datetime(2026, 11, 25, 2, 0, tzinfo=datetime.UTC)  # the 24th in Kingston
    stored_tournaments, stored_revisions = [], []
    for name, save in (
        ("saved", lambda obj: obj.save(force_insert=True)),
        ("ours", store.insert_row),
    ):
        tournament = Tournament(name=name, slug=name, starts_on=late, ends_on=late)
        save(tournament)
        stored_tournaments.append(Tournament.objects.values("starts_on").get(slug=name))
        deal = Deal.objects.create(table=TableFactory(), number=1, attempt=1)
        revision = ResultRevision(
            deal=deal, version=1, entry={}, scores={}, confirmed_at=datetime.date(2026, 11, 24)
        )
        with pytest.warns(RuntimeWarning, match="naive datetime"):
            save(revision)
        stored_revisions.append(ResultRevision.objects.values("confirmed_at").get(deal=deal))
    assert (
        stored_tournaments[0] == stored_tournaments[1] == {"starts_on": datetime.date(2026, 11, 24)}
    )
    assert stored_revisions[0] == stored_revisions[1]


@pytest.mark.parametrize(
    "values",
    [{"version": 2**31}, {"entered_via": "a\x00b"}, {"entry": {"text": "a\x00b"}}],
    ids=["integer-out-of-range", "text-with-nul", "json-with-nul"],
)
@pytest.mark.postgres
def test_a_value_the_database_cannot_store_is_refused_and_nothing_is_kept(store, values):
    """As Django's `save()` refuses it: a database error, and the transaction undone."""
    table = TableFactory()
    deal = Deal.objects.create(table=table, number=1, attempt=1)
    revision = ResultRevision(deal=deal, version=1, entry={}, scores={})
    for name, value in values.items():
        setattr(revision, name, value)
    with pytest.raises(DatabaseError), transaction.atomic():
        store.insert_row(revision)
    assert not ResultRevision.objects.filter(deal=deal).exists()


def test_a_column_of_a_kind_without_a_json_form_is_refused_at_once():
    """A field added to a stored row of a kind the JSON of the rows has no form for fails
    when its INSERT is first written, not with a wrong value."""
    from scoring.store.batch import _json_form

    with pytest.raises(TypeError, match="no JSON form for a DecimalField"):
        _json_form(Deal, DecimalField(name="odds", max_digits=4, decimal_places=2))

    class Shouted(CharField):  # a text of our own: it may prepare a value its own way
        def get_prep_value(self, value):
            return super().get_prep_value(value).upper()

    with pytest.raises(TypeError, match="no JSON form for a CharField"):
        _json_form(Deal, Shouted(name="call", max_length=9))


@pytest.mark.parametrize("sides", [5, 6])
@pytest.mark.postgres
def test_a_results_message_is_within_psycopgs_parsed_message_cache(sides):
    """A result's message (a deal, its sides, a revision, the idempotency record) is sent with
    one parameter per table, the rows' JSON, and the same text at every write: psycopg parses
    it once per process (its limits are its own, not raised)."""
    from psycopg import _queries

    from scoring.store.batch import _insert

    table = TableFactory()
    deal = Deal(table=table, number=1, attempt=1, warnings=[], detail={"down_and_out": False})
    results = [
        DealResult(entry_id=side + 1, side=side, points=side, entered={}, detail={})
        for side in range(sides)
    ]
    revision = ResultRevision(deal=deal, version=1, entry={}, scores={}, entered_via="t")
    record = IdempotencyRecord(table=table, key="k" * 36, fingerprint="f" * 64, response={})
    parts = [
        _insert(Deal, [deal]),
        _insert(DealResult, results, of_new_deal=True),
        _insert(ResultRevision, [revision], of_new_deal=True),
        _insert(IdempotencyRecord, [record]),
    ]
    assert [len(params) for _sql, params in parts] == [1, 1, 1, 1]
    assert _queries.MAX_CACHED_STATEMENT_PARAMS == 50
    text = sum(len(sql) + 2 for sql, _params in parts) + len(' RETURNING "id"')
    assert text <= _queries.MAX_CACHED_STATEMENT_LENGTH


def test_a_tables_deals_read_as_djangos_prefetch_reads_them(store):
    """Every column of every deal and result, as Django reads them (types, time zones), in
    order; a void attempt without results; another table's deals left out."""
    table = TableFactory()
    entries = [EntryFactory(tournament=table.round.tournament) for _ in range(3)]
    void = Deal.objects.create(table=table, number=1, attempt=1, is_void=True, version=2)
    scored = Deal.objects.create(
        table=table, number=1, attempt=2, is_flagged=True,
        warnings=[{"message": ODD_TEXT}], detail={"down_and_out": True, "n": [1, 2.5, None]},
    )  # fmt: skip
    later = Deal.objects.create(table=table, number=2, attempt=1, status="pending")
    for deal in (scored, later):
        for side, entry in reversed(list(enumerate(entries))):  # stored out of side order
            DealResult.objects.create(
                deal=deal, entry=entry, side=side, points=side * deal.number - 1,
                went_out=side == 0, entered={"values": {"cards": ODD_TEXT}}, detail={"x": side},
            )  # fmt: skip
    Deal.objects.create(table=TableFactory(), number=1, attempt=1)  # another table's

    ours = store.table_deals(table.pk)
    django = list(
        Deal.objects.filter(table=table).order_by("number", "attempt").prefetch_related("results")
    )
    assert [d.pk for d in ours] == [void.pk, scored.pk, later.pk]
    for mine, theirs in zip(ours, django, strict=True):
        assert _columns_of(mine) == _columns_of(theirs)
        assert mine.entered_at.tzinfo is theirs.entered_at.tzinfo
        mine_results = list(mine.results.all())
        assert [_columns_of(r) for r in mine_results] == [
            _columns_of(r) for r in theirs.results.order_by("side")
        ]
        assert all(r.deal is mine and not r._state.adding for r in mine_results)
    assert ours[0].results.all()._result_cache == []


def _columns_of(obj) -> list[tuple[str, type, object]]:
    return [
        (field.attname, type(getattr(obj, field.attname)), getattr(obj, field.attname))
        for field in type(obj)._meta.concrete_fields
    ]


def test_a_column_of_a_kind_it_cannot_read_from_json_is_refused_at_once():
    """A field added to a deal or result of a kind `table_deals` has no reading for (a date,
    here a tournament's slug or dates) fails on import, not with a wrong value."""
    from scoring.store.batch import _readers
    from tournament.models import Tournament

    with pytest.raises(TypeError, match="no JSON reading for a"):
        _readers(Tournament)


def test_a_read_deals_results_answer_all_from_memory_and_a_filter_from_the_database(
    store,
    django_assert_num_queries,
):
    """`deal.results.all()` is what was read (no query); a filter chained onto it is the
    deal's own results filtered, as on a related manager, with the deal known to each."""
    table = TableFactory()
    entries = [EntryFactory(tournament=table.round.tournament) for _ in range(3)]
    for number in (1, 2):
        deal = Deal.objects.create(table=table, number=number, attempt=1)
        for side, entry in enumerate(entries):
            DealResult.objects.create(deal=deal, entry=entry, side=side, points=number * side)
    first, second = store.table_deals(table.pk)
    with django_assert_num_queries(0):
        assert [r.points for r in second.results.all()] == [0, 2, 4]
    with django_assert_num_queries(1):
        [found] = second.results.filter(side=2)
    assert (found.points, found.deal_id) == (4, second.pk)
    with django_assert_num_queries(0):
        assert found.deal is second
    assert first.results.count() == 3 and first.results.exclude(side=0).count() == 2


@pytest.mark.parametrize("broken", ["results", "revision"])
def test_a_refusal_by_a_later_statement_of_the_message_undoes_the_whole_result(store, broken):
    """The deal's INSERT answers its id first; a constraint that refuses the sides' rows (two
    went out) or the revision (reviewed without a reason) after it is still raised, and the
    deal goes with the transaction."""
    from django.utils import timezone

    table = TableFactory()
    entries = [EntryFactory(tournament=table.round.tournament) for _ in range(2)]
    deal = Deal(table=table, number=1, attempt=1)
    results = [
        DealResult(entry=entry, side=side, points=0, went_out=side == 0 or broken == "results")
        for side, entry in enumerate(entries)
    ]
    revision = ResultRevision(deal=deal, version=1, entry={}, scores={})
    if broken == "revision":
        revision.reviewed_at = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        store.insert_deal(deal, results, revision)
    assert not Deal.objects.filter(table=table).exists()
    assert not DealResult.objects.filter(entry__in=entries).exists()
