"""The result form of one deal, built from the game's fields: the table's page (`/t/<token>/`)
and the director's paper entry use it alike.

Terms
- fields: what the game asks for deal n (``Rules.fields``): per deal (Kalooki: down and out,
  void), per side (Kalooki: cards, points, calls...; Hand and Foot: books) or per member (Hand
  and Foot: each partner's cards left). Each becomes one input, its kind deciding which (a flag
  a checkbox, a count or points a number, cards a text, a choice a select).
- went-out choice: the game's **exclusive** flag (at most one side or member sets it: who went
  out), shown as one radio per row, its value the row's entry id.
- row: one side's inputs (prefix ``p<seat>`` for a side of one player, ``s<n>`` for a team) and,
  in it, one member row per partner (prefix ``p<seat>``). Rows belong to seats, so a row can only
  ever hold a result for someone seated at this table.
- label: a side's name as the service gives it to the game (`scoring.services`), so that a
  problem naming a player finds its row; a problem's ``side``, ``member`` and ``field`` say
  where it is shown, else it shows with the deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.base import (
    DealEntry,
    DealScore,
    Evaluation,
    Field,
    FieldKind,
    Problem,
    Rules,
    Scope,
    SideEntry,
    SideScore,
)
from scoring.matches import deal_title, sides_of
from scoring.phrases import say, translated
from scoring.services import ResultRefused, SideInput, WarningsNotConfirmed
from tables.selectors import SeatLine

MAX_CARD_TEXT = 400  # more than any hand: a game's own check says what is too many
MAX_NUMBER = 100_000  # a sanity bound only: the game's checks say what is allowed (and why)
NAME_PROMPT = gettext_lazy("— choose your name —")


def side_labels(rules: Rules[Any], seats: Sequence[SeatLine]) -> list[str]:
    """Each side's label, as `scoring.services` names sides for the game."""
    sides = sides_of(rules, list(seats))
    names = [side[0].team or " & ".join(seat.name for seat in side) for side in sides]
    return [
        name if names.count(name) == 1 else f"{name} (seat {side[0].position})"
        for side, name in zip(sides, names, strict=True)
    ]


class NameField(forms.TypedChoiceField):
    """Pick your name among the players seated at the table."""

    def __init__(self, seats: Sequence[SeatLine], **kwargs: Any) -> None:
        choices = [("", NAME_PROMPT), *[(seat.entry_id, seat.name) for seat in seats]]
        super().__init__(choices=choices, coerce=int, **kwargs)


class NameForm(forms.Form):
    """Who is acting: confirming a deal, or signing off the match."""

    def __init__(self, *args: Any, seats: Sequence[SeatLine], label: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["who"] = NameField(seats, label=label)


class ConfirmGameForm(NameForm):
    # The version the person looked at: a correction saved meanwhile must be seen first.
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


def form_field(spec: Field) -> forms.Field:
    """The input for one of the game's fields; the game checks the values, this only reads."""
    label = say(spec.label)
    if spec.alternative_to:
        label = gettext("or {field}").format(field=label.lower())
    common = {"label": label, "required": False, "help_text": say(spec.help)}
    if spec.kind == FieldKind.FLAG:
        return forms.BooleanField(**common)
    if spec.kind in (FieldKind.COUNT, FieldKind.POINTS):
        number = forms.NumberInput(attrs={"inputmode": "numeric"})
        return forms.IntegerField(
            min_value=-MAX_NUMBER, max_value=MAX_NUMBER, widget=number, **common
        )
    if spec.kind == FieldKind.CHOICE:
        choices = [(value, say(label)) for value, label in spec.choices]
        return forms.TypedChoiceField(choices=choices, empty_value=None, **common)
    return forms.CharField(max_length=MAX_CARD_TEXT, strip=True, widget=_CARDS, **common)


_CARDS = forms.TextInput(
    attrs={
        "autocomplete": "off",
        "autocapitalize": "characters",
        "spellcheck": "false",
        "placeholder": gettext_lazy("e.g. JK AS 10H 7C"),
    }
)


class FieldsForm(forms.Form):
    """The inputs of one row (a side or a member) for the game's fields of its scope."""

    def __init__(self, data: Any, *, specs: Sequence[Field], prefix: str, initial: Any) -> None:
        super().__init__(data, prefix=prefix, initial=initial, label_suffix="")
        self.specs = list(specs)
        for spec in self.specs:
            self.fields[spec.name] = form_field(spec)

    def values(self, went_out: bool | None, exclusive: str | None) -> dict[str, Any]:
        """The values as the game reads them: what was entered, and nothing that was not
        (an empty input is no value), the went-out choice as the exclusive flag, and what going
        out implies (`Field.implied_by`: the foot was played, HF5.3) whether ticked or not."""
        data = self.cleaned_data
        values = {
            spec.name: data[spec.name]
            for spec in self.specs
            if data.get(spec.name) not in (None, "") or spec.kind == FieldKind.FLAG
        }
        if exclusive is not None:
            values[exclusive] = bool(went_out)
            values |= {s.name: True for s in self.specs if went_out and s.implied_by == exclusive}
        return values


@dataclass
class MemberRow:
    seat: SeatLine
    form: FieldsForm
    went_out: bool = False
    problems: dict[str, list[Problem]] = field(default_factory=dict)


@dataclass
class SideRow:
    """One side's row: its seats, its inputs, its members' inputs, what the game said of it."""

    index: int
    seats: tuple[SeatLine, ...]
    label: str
    form: FieldsForm
    members: list[MemberRow]
    went_out: bool = False
    problems: dict[str, list[Problem]] = field(default_factory=dict)  # by field; "" the row's
    score: SideScore | None = None

    @property
    def seat(self) -> SeatLine:
        return self.seats[0]

    @property
    def name(self) -> str:
        return self.seats[0].team or " & ".join(seat.name for seat in self.seats)

    @property
    def cards(self) -> list[forms.BoundField]:
        return [self.form[s.name] for s in self.form.specs if s.kind == FieldKind.CARDS]

    @property
    def numbers(self) -> list[tuple[forms.BoundField, list[Problem]]]:
        """The number and choice inputs, each with its problems."""
        kinds = (FieldKind.COUNT, FieldKind.POINTS, FieldKind.CHOICE)
        return [
            (self.form[s.name], self.problems.get(s.name, []))
            for s in self.form.specs
            if s.kind in kinds
        ]

    @property
    def flags(self) -> list[forms.BoundField]:
        return [self.form[s.name] for s in self.form.specs if s.kind == FieldKind.FLAG]

    @property
    def other_problems(self) -> list[Problem]:
        """Everything but the cards' problems, shown under the number inputs."""
        cards = {s.name for s in self.form.specs if s.kind == FieldKind.CARDS}
        return [p for name, found in self.problems.items() if name not in cards for p in found]


class ResultForm(forms.Form):
    """One deal's result at the table, its inputs the game's fields for the deal (`rows`: one
    `SideRow` per side, in side order). `played` are the table's deals as the game scored them
    (`TablePage.played`): the game checks deal n against those before it, as the result service
    does, so a preview names the same problems as a refusal (never "deal 1 comes first" for a
    deal that is next)."""

    game = forms.IntegerField(widget=forms.HiddenInput, min_value=1)  # the deal's number
    # The attempt the form was opened for (Kalooki R9.2): a void recorded meanwhile changes it.
    attempt = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    base_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    confirm_warnings = forms.BooleanField(
        label=gettext_lazy(
            "Confirm anyway: these values are right (the result is flagged for the director)"
        ),
        required=False,
    )
    reason = forms.CharField(
        label=gettext_lazy("Why is it corrected?"), max_length=300, required=False
    )

    def __init__(
        self,
        data: Any = None,
        *,
        rules: Rules[Any],
        seats: Sequence[SeatLine],
        number: int,
        played: Sequence[DealScore],
        correcting: bool = False,
        initial: dict[str, Any] | None = None,
        side_initial: Mapping[int, dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(data, initial=initial, label_suffix="")
        self.rules, self.seats, self.number = rules, list(seats), number
        self.played = [deal for deal in played if deal.number < number]
        self.correcting = correcting
        self.specs = rules.fields(number)
        self.fields["who"] = NameField(seats, label=gettext("Who is entering?"))
        self._deal_fields()
        if correcting:
            self.fields["reason"].required = True
            self.fields["base_version"].required = True
            self.fields["game"].required = False
        self.order_fields(["who"])
        self.rows = self._rows(data, side_initial or {})
        stored_out = self._stored_out(side_initial or {})
        if stored_out is not None and self.initial.get("went_out") is None:
            self.initial["went_out"] = stored_out

    @property
    def title(self) -> str:
        """ "Game 3", "Hand 2", "Deal 4"."""
        return deal_title(self.rules, self.number)

    # --- building ---------------------------------------------------------------------------

    @property
    def exclusive(self) -> Field | None:
        """The game's "who went out" flag, shown as one radio per row."""
        return next((s for s in self.specs if s.exclusive and s.kind == FieldKind.FLAG), None)

    def _scoped(self, scope: Scope) -> list[Field]:
        exclusive = self.exclusive
        return [s for s in self.specs if s.scope == scope and s is not exclusive]

    def _deal_fields(self) -> None:
        void_rule = self.rules.cites("void")
        for spec in self._scoped(Scope.DEAL):
            if self.correcting and void_rule and spec.rule == void_rule:
                continue  # a scored deal is made void only by a director's ruling
            self.fields[spec.name] = form_field(spec)
        exclusive = self.exclusive
        if exclusive is not None:
            self.fields["went_out"] = forms.TypedChoiceField(
                label=say(exclusive.label),
                coerce=int,
                required=False,
                empty_value=None,
                widget=forms.RadioSelect,
                choices=[(self.out_key(seat), seat.name) for seat in self.seats],
            )

    def out_key(self, seat: SeatLine) -> int:
        """What the "went out" radio of a seat sends: the side's entry id, or where a member
        goes out (HF5.2) the member's seat, since partners share their team's entry (HF1.2)."""
        exclusive = self.exclusive
        return seat.position if exclusive and exclusive.scope == Scope.MEMBER else seat.entry_id

    def _stored_out(self, initial: Mapping[int, dict[str, Any]]) -> int | None:
        """The row a stored result marks with the game's one-of-the-table flag (went out, took
        the J♥), by the flag's own name and scope: a correction opens with it marked."""
        exclusive = self.exclusive
        if exclusive is None:
            return None
        for seats in sides_of(self.rules, self.seats):
            given = initial.get(seats[0].entry_id, {})
            if exclusive.scope != Scope.MEMBER:
                if (given.get("values") or {}).get(exclusive.name) is True:
                    return self.out_key(seats[0])
                continue
            for seat, member in zip(seats, given.get("members") or [], strict=False):
                if (member or {}).get(exclusive.name) is True:
                    return self.out_key(seat)
        return None

    @property
    def deal_fields(self) -> list[forms.BoundField]:
        return [self[s.name] for s in self._scoped(Scope.DEAL) if s.name in self.fields]

    def _rows(self, data: Any, initial: Mapping[int, dict[str, Any]]) -> list[SideRow]:
        sides = sides_of(self.rules, self.seats)
        labels = side_labels(self.rules, self.seats)
        team = self.rules.shape().members > 1
        rows = []
        for index, (seats, label) in enumerate(zip(sides, labels, strict=True)):
            given = initial.get(seats[0].entry_id, {})
            prefix = f"s{index + 1}" if team else f"p{seats[0].position}"
            side_form = FieldsForm(
                data, specs=self._scoped(Scope.SIDE), prefix=prefix, initial=given.get("values")
            )
            members = [
                MemberRow(seat, self._member_form(data, seat, given, m) if team else None)
                for m, seat in enumerate(seats)
            ]
            rows.append(SideRow(index, seats, label, side_form, members))
        return rows

    def _member_form(
        self, data: Any, seat: SeatLine, given: dict[str, Any], member: int
    ) -> FieldsForm:
        members = given.get("members") or []
        initial = members[member] if member < len(members) else None
        specs = self._scoped(Scope.MEMBER)
        return FieldsForm(data, specs=specs, prefix=f"p{seat.position}", initial=initial)

    # --- reading ----------------------------------------------------------------------------

    def _member_forms(self) -> list[FieldsForm]:
        return [m.form for row in self.rows for m in row.members if m.form is not None]

    def is_valid(self) -> bool:
        # Every row, so each shows its errors.
        rows = [form.is_valid() for form in [*(r.form for r in self.rows), *self._member_forms()]]
        return super().is_valid() and all(rows)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.correcting:
            data["game"] = self.number
        return data

    def went_out_id(self) -> int | None:
        return self.cleaned_data.get("went_out")

    def deal_values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            s.name: data[s.name]
            for s in self._scoped(Scope.DEAL)
            if s.name in self.fields and (data.get(s.name) not in (None, ""))
        }

    def sides(self) -> list[SideInput]:
        """Each side's values and its members', as the service takes them."""
        out, exclusive = self.went_out_id(), self.exclusive
        side_flag = exclusive.name if exclusive and exclusive.scope == Scope.SIDE else None
        member_flag = exclusive.name if exclusive and exclusive.scope == Scope.MEMBER else None
        inputs = []
        for row in self.rows:
            went_out = any(self.out_key(seat) == out for seat in row.seats)
            values = row.form.values(went_out if side_flag else None, side_flag)
            members = tuple(
                m.form.values(self.out_key(m.seat) == out if member_flag else None, member_flag)
                for m in row.members
                if m.form is not None
            )
            inputs.append(SideInput(row.seat.entry_id, values, members))
        return inputs

    def entry(self) -> DealEntry:
        """The result as the game's entry, sides labelled as the service labels them."""
        sides = tuple(
            SideEntry(row.label, dict(side.values), side.members, tuple(s.name for s in row.seats))
            for row, side in zip(self.rows, self.sides(), strict=True)
        )
        return DealEntry(self.cleaned_data["game"], sides, self.deal_values())

    def evaluation(self) -> Evaluation:
        """The entry checked and scored by the game after the deals played before it."""
        return self.rules.evaluate(self.entry(), self.played)


def same_result(record: dict[str, Any], form: ResultForm) -> bool:
    """Whether a stored entry (a `ResultRevision.entry`) is what `form` submits: the same phone
    sending its result twice (a double tap, or a retry after the connection dropped). Compared
    as the game reads both (`Rules.evaluate`'s canonical entry)."""
    sent = form.evaluation().entry.to_dict()
    keys = ("values", "members")
    stored_sides = [{k: side.get(k) for k in keys} for side in record.get("sides", [])]
    sent_sides = [{k: side.get(k) for k in keys} for side in sent["sides"]]
    return record.get("values") == sent["values"] and stored_sides == sent_sides


def correction_initial(record: dict[str, Any]) -> tuple[dict[str, Any], dict[int, Any]]:
    """A stored entry (a `ResultRevision.entry`) as the result form's deal and row initials."""
    initial: dict[str, Any] = dict(record.get("values", {}))
    rows: dict[int, Any] = {}
    for side in record.get("sides", []):
        rows[side.get("entry")] = {"values": side.get("values"), "members": side.get("members")}
    return initial, rows


# --- showing the game's answer next to the inputs -----------------------------------------------


@dataclass
class EntryFeedback:
    """The form's rows and the problems that belong to the deal as a whole."""

    rows: list[SideRow]
    game_problems: list[Problem]  # errors without a side: Kalooki's R10.1, deck limits, ...
    warnings: list[Problem]
    errors: list[Problem]
    scored: bool  # the game scored the entry: every row has its score


def entry_feedback(
    form: ResultForm,
    errors: Sequence[Problem] = (),
    warnings: Sequence[Problem] = (),
    scores: Sequence[SideScore] = (),
) -> EntryFeedback:
    out = _posted_went_out(form)
    errors = [translated(problem) for problem in errors]
    warnings = [translated(problem) for problem in warnings]
    rows = form.rows
    for row in rows:
        row.went_out = any(form.out_key(seat) == out for seat in row.seats)
        row.problems = {}
        for member in row.members:
            member.went_out = form.out_key(member.seat) == out
            member.problems = {}
    by_label = {row.label: row for row in rows}
    game_problems = []
    for problem in [*errors, *warnings]:
        row = _row_of(problem, rows, by_label)
        if row is None:
            if problem in errors:
                game_problems.append(problem)
            continue
        _place(problem, row)
    for row, score in zip(rows, scores, strict=False):
        row.score = score
    return EntryFeedback(rows, game_problems, list(warnings), list(errors), bool(scores))


def _row_of(problem: Problem, rows: list[SideRow], by_label: dict[str, SideRow]) -> SideRow | None:
    if problem.side is not None and 0 <= problem.side < len(rows):
        return rows[problem.side]
    return by_label.get(problem.player or "")


def _place(problem: Problem, row: SideRow) -> None:
    name = problem.field or ""
    if problem.member is not None and 0 <= problem.member < len(row.members):
        row.members[problem.member].problems.setdefault(name, []).append(problem)
        return
    row.problems.setdefault(name, []).append(problem)


def _posted_went_out(form: ResultForm) -> int | None:
    if "went_out" not in form.fields:
        return None
    value = form["went_out"].value()
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def preview_feedback(form: ResultForm) -> EntryFeedback:
    """The form's entry checked and scored by the game, shown next to the inputs, not saved."""
    evaluation = form.evaluation()
    scores = evaluation.score.sides if evaluation.score else ()
    return entry_feedback(form, evaluation.errors, evaluation.warnings, scores)


def refusal_feedback(form: ResultForm, refused: ResultRefused) -> EntryFeedback:
    """The service's problems next to their fields, with the game's scores when it has some."""
    evaluation = form.evaluation()
    errors = () if isinstance(refused, WarningsNotConfirmed) else refused.problems
    warnings = refused.warnings or evaluation.warnings
    score = evaluation.score
    return entry_feedback(form, errors, warnings, score.sides if score and not errors else ())
