"""A model read from a row is the one Django's constructor makes (#18: `tournament.stored`)."""

import pytest
from django.apps import apps
from django.db.models import Model
from django.db.models.signals import post_init

from scoring.models import Deal
from tables.models import Seat
from tests.factories import DealResultFactory, SeatFactory
from tournament.models import Entry, Tournament
from tournament.stored import StoredModel

pytestmark = pytest.mark.django_db


def _as_django_makes(model, db, names, values):
    return Model.from_db.__func__(model, db, names, values)


def _made(obj):
    state = obj._state
    return type(obj), vars(obj) | {"_state": None}, (state.adding, state.db, state.fields_cache)


def test_every_model_of_ours_is_read_without_the_constructor():
    ours = [
        m
        for m in apps.get_models()
        if m.__module__.split(".")[0] in ("tournament", "tables", "scoring")
    ]
    assert ours and all(issubclass(model, StoredModel) for model in ours)


@pytest.mark.parametrize("model", [Tournament, Entry, Seat, Deal])
def test_a_whole_row_makes_the_model_the_constructor_makes(model):
    DealResultFactory(deal__table=SeatFactory().table)
    row = model.objects.values_list(*[f.attname for f in model._meta.concrete_fields]).first()
    names = [f.attname for f in model._meta.concrete_fields]
    mine = model.from_db("default", names, row)
    assert _made(mine) == _made(_as_django_makes(model, "default", names, row))
    assert not mine._state.adding and mine._state.db == "default"


def test_a_read_model_behaves_as_djangos():
    """Related objects load and cache, a change saves, a fresh read sees it."""
    seat = SeatFactory()
    read = Seat.objects.get(pk=seat.pk)
    assert read.table.pk == seat.table_id and read.table is read.table  # cached once loaded
    read.position = 4
    read.save(update_fields=["position"])
    read.refresh_from_db()
    assert read.position == 4 and Seat.objects.get(pk=seat.pk).position == 4
    assert read == seat and hash(read) == hash(seat)


def test_a_row_with_deferred_columns_is_made_by_the_constructor():
    seat = SeatFactory()
    read = Seat.objects.only("position").get(pk=seat.pk)
    assert read.get_deferred_fields() == {f.attname for f in Seat._meta.concrete_fields} - {
        "id", "position"
    }  # fmt: skip
    assert read.table_id == seat.table_id  # loaded when asked, as Django does


def test_a_model_a_receiver_listens_to_is_made_by_the_constructor():
    seat = SeatFactory()
    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.pk)

    post_init.connect(receiver, sender=Seat)
    try:
        Seat.objects.get(pk=seat.pk)
        Entry.objects.get(pk=seat.entry_id)  # not listened to: made here
    finally:
        post_init.disconnect(receiver, sender=Seat)
    assert heard == [seat.pk]
