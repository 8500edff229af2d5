"""Forms of the table's private page (`/t/<token>/`): one game's result as the table enters it.

Terms
- result form: one game's entry: who is entering, who went out (R8.1), down and out (R8.3), void
  (R9.2), "confirm anyway" for warnings (R10.6, R10.7) and, for a correction, the version it
  corrects and why.
- hand row: one seated player's line of the result: the cards left in hand (R11) or a point total,
  calls (R6), failed come-downs (R5.4) and the overcall penalty (R6.3). Rows belong to seats, so a
  row can only ever hold a result for a player seated at this table.
- label: a player's name as the rules engine sees it, with the seat added when two players at the
  table share a name. Problems name players by label, which is how they find their row.
- field of a problem: the input a problem is shown next to, chosen by its rule (`FIELD_BY_RULE`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms

from games.kalooki import GameEntry, HandEntry, PlayerScore, Problem
from scoring.serializers import MAX_CARD_TEXT, MAX_COUNT
from scoring.services import HandInput
from tables.selectors import SeatLine

# The input each rule's problems are shown next to; the rest show with the row or the game.
FIELD_BY_RULE = {
    "R11": "cards",
    "R10.3": "cards",
    "R10.2": "cards",
    "R8.2": "cards",
    "R10.6": "cards",
    "R9.2": "cards",
    "R10.4": "points",
    "R6.2": "calls",
    "R10.7": "calls",
    "R10.5": "overcall_penalty",
    "R5.4": "failed_come_downs",
}
NAME_PROMPT = "— choose your name —"


def player_labels(seats: Sequence[SeatLine]) -> dict[int, str]:
    """Each seat's entry id and engine label: its name, with the seat when a name repeats
    (the same labels as `scoring.services`, so the service's problems find their rows)."""
    names = [seat.name for seat in seats]
    return {
        seat.entry_id: seat.name
        if names.count(seat.name) == 1
        else f"{seat.name} (seat {seat.position})"
        for seat in seats
    }


class NameField(forms.TypedChoiceField):
    """Pick your name among the players seated at the table."""

    def __init__(self, seats: Sequence[SeatLine], **kwargs: Any) -> None:
        choices = [("", NAME_PROMPT), *[(seat.entry_id, seat.name) for seat in seats]]
        super().__init__(choices=choices, coerce=int, **kwargs)


class NameForm(forms.Form):
    """Who is acting: confirming a game, or signing off the set."""

    def __init__(self, *args: Any, seats: Sequence[SeatLine], label: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["who"] = NameField(seats, label=label)


class ConfirmGameForm(NameForm):
    # The version the person looked at: a correction saved meanwhile must be seen first.
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class HandRowForm(forms.Form):
    cards = forms.CharField(
        label="Cards left in hand",
        max_length=MAX_CARD_TEXT,
        required=False,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": "e.g. JK AS 10H 7C",
            }
        ),
    )
    points = forms.IntegerField(
        label="or points",
        required=False,
        min_value=0,
        max_value=100_000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    calls = forms.IntegerField(
        label="Calls",
        required=False,
        min_value=0,
        max_value=MAX_COUNT,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    failed_come_downs = forms.IntegerField(
        label="Failed come-downs",
        required=False,
        min_value=0,
        max_value=MAX_COUNT,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    overcall_penalty = forms.BooleanField(label="Overcall penalty", required=False)

    def to_input(self, entry_id: int, went_out: bool) -> HandInput:
        data = self.cleaned_data
        cards = data["cards"]
        return HandInput(
            entry_id=entry_id,
            went_out=went_out,
            # The one who went out holds nothing (R10.2); any cards typed for them are still
            # passed on, so the engine can say why they do not fit.
            cards=cards if cards or went_out else None,
            points=data["points"],
            calls=data["calls"],
            failed_come_downs=data["failed_come_downs"] or 0,
            overcall_penalty=data["overcall_penalty"],
        )


class ResultForm(forms.Form):
    """One game's result at the table; `rows` holds a `HandRowForm` per seat, in seat order."""

    game = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # The attempt the form was opened for (R9.2): a void recorded meanwhile changes it.
    attempt = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    base_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    went_out = forms.TypedChoiceField(
        label="Who went out",
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    down_and_out = forms.BooleanField(
        label="Down and out: went out on the turn they came down, card points doubled (R8.3)",
        required=False,
    )
    void = forms.BooleanField(
        label="Void game: the stock ran out twice; nobody scores, the same dealer redeals (R9.2)",
        required=False,
    )
    confirm_warnings = forms.BooleanField(
        label="Confirm anyway: these cards and calls are right (the game is flagged for the "
        "director)",
        required=False,
    )
    reason = forms.CharField(label="Why is it corrected?", max_length=300, required=False)

    def __init__(
        self,
        data: Any = None,
        *,
        seats: Sequence[SeatLine],
        correcting: bool = False,
        number: int | None = None,
        initial: dict[str, Any] | None = None,
        row_initial: dict[int, dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(data, initial=initial, label_suffix="")
        self.seats = list(seats)
        self.correcting = correcting
        self.number = number  # a correction's game comes from its URL, not from the form
        self.fields["who"] = NameField(seats, label="Who is entering?")
        self.fields["went_out"].choices = [(seat.entry_id, seat.name) for seat in seats]
        if correcting:
            # A scored game is made void only by a director's ruling (R9.2, R12.4).
            del self.fields["void"]
            self.fields["reason"].required = True
            self.fields["base_version"].required = True
            self.fields["game"].required = False
        self.order_fields(["who"])
        row_initial = row_initial or {}
        self.rows = [
            HandRowForm(
                data,
                prefix=f"p{seat.position}",
                initial=row_initial.get(seat.entry_id),
                label_suffix="",
            )
            for seat in seats
        ]

    def is_valid(self) -> bool:
        rows = [row.is_valid() for row in self.rows]  # every row, so each shows its errors
        return super().is_valid() and all(rows)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.number is not None:
            data["game"] = self.number
        data.setdefault("void", False)
        return data

    def went_out_id(self) -> int | None:
        return self.cleaned_data.get("went_out")

    def hands(self) -> list[HandInput]:
        out = self.went_out_id()
        return [
            row.to_input(seat.entry_id, seat.entry_id == out)
            for seat, row in zip(self.seats, self.rows, strict=True)
        ]

    def entry(self) -> GameEntry:
        """The result as the rules engine's entry, hands labelled as the service labels them."""
        labels = player_labels(self.seats)
        hands = tuple(
            HandEntry(
                player=labels[hand.entry_id],
                went_out=hand.went_out,
                cards=hand.cards,
                points=hand.points,
                calls=hand.calls,
                failed_come_downs=hand.failed_come_downs,
                overcall_penalty=hand.overcall_penalty,
            )
            for hand in self.hands()
        )
        data = self.cleaned_data
        return GameEntry(data["game"], hands, data["down_and_out"], data["void"])


def same_result(record: dict[str, Any], form: ResultForm) -> bool:
    """Whether a stored entry (a `ResultRevision.entry`) is exactly what `form` submits: the
    same phone sending its result twice (a double tap, or a retry after the connection dropped)."""
    data = form.cleaned_data
    if bool(record.get("void")) != data["void"]:
        return False
    if bool(record.get("down_and_out")) != data["down_and_out"]:
        return False
    stored = {_entry_id(hand): _hand_fields(hand) for hand in record.get("hands", [])}
    sent = {hand.entry_id: _hand_fields(vars(hand)) for hand in form.hands()}
    return stored == sent


def _hand_fields(hand: dict[str, Any]) -> tuple[Any, ...]:
    fields = ("went_out", "cards", "points", "calls", "failed_come_downs", "overcall_penalty")
    return tuple(hand.get(name) for name in fields)


def correction_initial(record: dict[str, Any]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """A stored entry (a `ResultRevision.entry`) as the result form's game and row initials."""
    hands = record.get("hands", [])
    game = {
        "down_and_out": record.get("down_and_out", False),
        "void": record.get("void", False),
        "went_out": next((_entry_id(h) for h in hands if h.get("went_out")), None),
    }
    rows = {
        _entry_id(hand): {
            "cards": hand.get("cards") or "",
            "points": hand.get("points"),
            "calls": hand.get("calls"),
            "failed_come_downs": hand.get("failed_come_downs") or 0,
            "overcall_penalty": bool(hand.get("overcall_penalty")),
        }
        for hand in hands
    }
    return game, rows


def _entry_id(hand: dict[str, Any]) -> int | None:
    return hand.get("entry", hand.get("entry_id"))


# --- showing the engine's answer next to the inputs ---------------------------------------------


@dataclass
class EntryRow:
    """One seat's row of the result form, with what the engine said about it."""

    seat: SeatLine
    label: str
    form: HandRowForm
    went_out: bool
    problems: dict[str, list[Problem]] = field(default_factory=dict)  # by field; "" for the row
    score: PlayerScore | None = None

    @property
    def numbers(self) -> list[tuple[forms.BoundField, list[Problem]]]:
        """The number inputs, each with its problems."""
        names = ("points", "calls", "failed_come_downs")
        return [(self.form[name], self.problems.get(name, [])) for name in names]

    @property
    def other_problems(self) -> list[Problem]:
        """Everything but the cards' problems, shown under the number inputs."""
        return [p for name, found in self.problems.items() if name != "cards" for p in found]


@dataclass
class EntryFeedback:
    """The form's rows and the problems that belong to the game as a whole."""

    rows: list[EntryRow]
    game_problems: list[Problem]  # errors without a player: R10.1, R10.3 deck limits, ...
    warnings: list[Problem]
    errors: list[Problem]
    scored: bool  # the engine scored the entry: every row has its score


def entry_feedback(
    form: ResultForm,
    errors: Sequence[Problem] = (),
    warnings: Sequence[Problem] = (),
    scores: Sequence[PlayerScore] = (),
) -> EntryFeedback:
    labels = player_labels(form.seats)
    out = _posted_went_out(form)
    rows = [
        EntryRow(seat=seat, label=labels[seat.entry_id], form=row, went_out=seat.entry_id == out)
        for seat, row in zip(form.seats, form.rows, strict=True)
    ]
    by_label = {row.label: row for row in rows}
    game_problems = []
    for problem in [*errors, *warnings]:
        row = by_label.get(problem.player or "")
        if row is None:
            if problem in errors:
                game_problems.append(problem)
            continue
        row.problems.setdefault(_field_of(problem, row), []).append(problem)
    score_by_label = {score.player: score for score in scores}
    for row in rows:
        row.score = score_by_label.get(row.label)
    return EntryFeedback(rows, game_problems, list(warnings), list(errors), bool(scores))


def _field_of(problem: Problem, row: EntryRow) -> str:
    name = FIELD_BY_RULE.get(problem.rule, "")
    if name == "cards" and problem.rule == "R10.2" and not row.form["cards"].value():
        return "points"  # "went out, so scores 0 card points, not 12"
    return name


def _posted_went_out(form: ResultForm) -> int | None:
    value = form["went_out"].value()
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
