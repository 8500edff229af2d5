"""Every stored Kalooki result moved into the game's own data (issue #12).

Until now a hand result had Kalooki's columns (cards, card count, card points, doubled, calls,
failed come-downs, overcall, penalties, total) and a game had ``down_and_out``. Each row now holds
what every game has (the side, signed points, went out) and the game's data, in exactly the shape
the Kalooki game produces for the same entry (``games.kalooki``, ``KalookiRules.evaluate``):

- a deal's ``detail``: ``{"down_and_out": bool}``;
- a result's ``entered``: ``{"values": {went_out, cards, points, calls, failed_come_downs,
  overcall_penalty[, challenge]}, "members": []}``, cards in their one canonical spelling (R11.5);
- a result's ``detail``: ``{"card_points", "doubled", "doubled_points", "penalties"}``;
- a revision's ``entry``: the protocol's deal entry (``number``, deal ``values``, ``sides``), each
  side keyed by its ``entry`` id; its ``scores``: the protocol's deal score.

Nothing is rescored: the numbers are the stored ones (a result entered under one ruleset is never
rescored by a change of code). What the hand results do not hold (which value was entered as
points rather than cards) comes from the revision of the same version, which holds the entry as
it was submitted. Results that no seat places get the sides after the seated ones.
"""

from typing import Any

from django.db import migrations

from games.cards import CardParseError
from games.kalooki.cards import format_cards, parse_cards

SIDE_VALUES = ("went_out", "cards", "points", "calls", "failed_come_downs", "overcall_penalty")


def canonical_cards(cards: str | None) -> str | None:
    """Cards in the one spelling the game stores (R11.5); text that cannot be read is kept."""
    if cards is None:
        return None
    try:
        return format_cards(parse_cards(cards))
    except (CardParseError, ValueError):
        return cards


def side_values(hand: dict[str, Any], challenge: bool) -> dict[str, Any]:
    """A hand of an old revision's entry as the game's side values."""
    values = {
        "went_out": bool(hand.get("went_out")),
        "cards": canonical_cards(hand.get("cards")),
        "points": hand.get("points"),
        "calls": hand.get("calls"),
        "failed_come_downs": hand.get("failed_come_downs") or 0,
        "overcall_penalty": bool(hand.get("overcall_penalty")),
    }
    if challenge:
        values["challenge"] = hand.get("challenge") or None
    return values


def values_from_columns(row: Any, challenge: bool) -> dict[str, Any]:
    """A result's side values from its old columns, where no revision holds the entry."""
    entered_cards = row.card_count is not None
    hand = {
        "went_out": row.went_out,
        "cards": row.cards if entered_cards else None,
        "points": None if entered_cards or row.went_out else row.card_points,
        "calls": row.calls,
        "failed_come_downs": row.failed_come_downs,
        "overcall_penalty": row.overcall_penalty,
    }
    return side_values(hand, challenge)


def score_detail(row: Any) -> dict[str, Any]:
    doubled_points = row.card_points * 2 if row.doubled else row.card_points
    return {
        "card_points": row.card_points,
        "doubled": row.doubled,
        "doubled_points": doubled_points,
        "penalties": row.penalty_points,
    }


def revision_entry(old: dict[str, Any], challenge: bool) -> dict[str, Any]:
    """An old revision's entry (``game``, ``down_and_out``, ``void``, ``hands``) as a deal entry."""
    if "sides" in old:
        return old  # already in the new shape
    sides = [
        {
            "entry": hand.get("entry"),
            "label": hand.get("player", ""),
            "values": side_values(hand, challenge),
            "members": [],
        }
        for hand in old.get("hands", [])
    ]
    values = {"down_and_out": bool(old.get("down_and_out")), "void": bool(old.get("void"))}
    return {"number": old.get("game"), "values": values, "sides": sides}


def revision_scores(old: Any, number: int, void: bool, down_and_out: bool) -> dict[str, Any]:
    """An old revision's scores (a list of Kalooki player scores) as a deal score."""
    if isinstance(old, dict):
        return old  # already in the new shape
    sides = [
        {
            "points": score.get("total", 0),
            "went_out": bool(score.get("went_out")),
            "reasons": list(score.get("reasons", [])),
            "detail": {
                "card_points": score.get("card_points", 0),
                "doubled": bool(score.get("doubled")),
                "doubled_points": score.get("doubled_points", score.get("card_points", 0)),
                "penalties": score.get("penalties", 0),
            },
        }
        for score in old or []
    ]
    detail = {"down_and_out": down_and_out and not void}
    return {"number": number, "void": void, "detail": detail, "sides": sides}


def _has_challenge(deal: Any) -> bool:
    ruleset = deal.table.round.tournament.ruleset or {}
    return bool(ruleset.get("card_challenge"))


def _sides(deal: Any, seats: dict[int, list[int]]) -> dict[int, int]:
    """Each entry's side at the deal's table: its index in seat order."""
    order = seats.get(deal.table_id, [])
    return {entry_id: index for index, entry_id in enumerate(order)}


def forwards(apps, schema_editor) -> None:
    Deal = apps.get_model("scoring", "Deal")
    DealResult = apps.get_model("scoring", "DealResult")
    Revision = apps.get_model("scoring", "ResultRevision")
    Seat = apps.get_model("tables", "Seat")
    seats: dict[int, list[int]] = {}
    for table_id, entry_id in Seat.objects.order_by("table_id", "position").values_list(
        "table_id", "entry_id"
    ):
        seats.setdefault(table_id, []).append(entry_id)
    deals = Deal.objects.select_related("table__round__tournament").order_by("pk")
    for deal in deals.iterator(chunk_size=500):
        _move_deal(deal, DealResult, Revision, seats)


def _move_deal(deal: Any, DealResult: Any, Revision: Any, seats: dict[int, list[int]]) -> None:
    challenge = _has_challenge(deal)
    deal.detail = {"down_and_out": bool(deal.down_and_out) and not deal.is_void}
    deal.save(update_fields=["detail"])
    revisions = list(Revision.objects.filter(deal=deal).order_by("version"))
    current = next((r for r in revisions if r.version == deal.version), None)
    entered = {}
    if current is not None and isinstance(current.entry, dict):
        entered = {h.get("entry"): h for h in current.entry.get("hands", [])}
    sides = _sides(deal, seats)
    rows = list(DealResult.objects.filter(deal=deal).order_by("entry_id"))
    spare = iter(range(len(sides), len(sides) + len(rows)))
    for row in rows:
        hand = entered.get(row.entry_id)
        values = side_values(hand, challenge) if hand else values_from_columns(row, challenge)
        row.side = sides[row.entry_id] if row.entry_id in sides else next(spare)
        row.points = row.total
        row.entered = {"values": values, "members": []}
        row.detail = score_detail(row)
        row.save(update_fields=["side", "points", "entered", "detail"])
    for revision in revisions:
        revision.entry = revision_entry(revision.entry, challenge)
        revision.scores = revision_scores(
            revision.scores, deal.number, deal.is_void, bool(deal.down_and_out)
        )
        revision.save(update_fields=["entry", "scores"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_games_become_deals")]

    # Forwards only: the old columns cannot be rebuilt from a game's data in general.
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False)]
