"""The entry form drawn for one thumb (templates/scorekeeper/_entry_form.html): one compact line per
seat, whatever the game.

Terms
- main inputs: what a line shows beside the went-out choice, each in a box with its visible
  label: the row's fields that the game gives a `short` word (Hand and Foot: a team's books and
  points laid down; a partner's points in hand, foot played, points in foot), else the points
  (with the card keypad's button beside them) where the game takes cards or points, else the
  game's first everyday fields; at most three, they fit a 360 px line.
- more: the line's other fields (the game's advanced ones, and calls, typed cards...), behind a
  small "more" of their own, opened by itself when one of them holds a value or a problem.
- stacked: a line of three boxes (a Hand and Foot team's, a partner's with went out and more)
  puts the name on a row of its own above them, so that a name is never cut.
- note: one reserved line for each seat's tally and its problems (a stacked line's is beside its
  name), so that a message never pushes the next field down under a finger.
- problem: an input the game found wrong is marked `aria-invalid` and drawn with a mark, its
  message named as its description.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms

from games.base import Field, FieldKind, Problem
from scoring.phrases import say
from scoring.result_forms import EntryFeedback, FieldsForm, ResultForm

MAIN_FIELDS = 3  # a 360 px line holds a name, the went-out choice and three short numbers


@dataclass
class Input:
    """One input of a line: its bound field, the game's field and what the game said of it."""

    bound: forms.BoundField
    spec: Field
    problems: list[Problem] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return str(self.spec.kind)

    @property
    def is_flag(self) -> bool:
        return self.spec.kind == FieldKind.FLAG

    @property
    def widget(self) -> str:
        """The input, marked when the game found it wrong; an empty count shows its default."""
        attrs: dict[str, str] = {}
        if not self.is_flag and self.spec.default is not None:
            attrs["placeholder"] = str(self.spec.default)
        if self.problems:
            attrs["aria-invalid"] = "true"
            attrs["aria-describedby"] = f"note-{self.bound.form.prefix}"
        return self.bound.as_widget(attrs=attrs)

    @property
    def label(self) -> str:
        """The field's label in the reader's language (the games write it as a phrase)."""
        return say(self.spec.label)

    @property
    def box_label(self) -> str:
        """The word shown on the input's box (its `short`, else its label), in the reader's
        language."""
        return say(self.spec.short) if self.spec.short else self.label

    @property
    def has_value(self) -> bool:
        value = self.bound.value()
        return value not in (None, "", False, 0, "0")


@dataclass
class Line:
    """One seat's line (a side, or one partner of a team): its inputs split main and more."""

    prefix: str
    name: str
    position: int
    entry_id: int
    label: str  # the side's label, as the game names it in problems
    main: list[Input]
    more: list[Input]
    keypad: Input | None  # the cards the keypad writes, shown as a button in the main line
    problems: list[Problem]  # the line's problems that belong to no one input
    score: int | None = None
    reasons: tuple[str, ...] = ()
    went_out: bool = False
    member: bool = False
    out_key: int = 0  # what its "went out" radio sends (ResultForm.out_key)
    has_out: bool = False  # the line has its own went-out choice

    @property
    def keypad_in_main(self) -> bool:
        """The keypad's button sits in the line while it fits (beside one or two boxes); a line
        of three boxes keeps it behind "more"."""
        return self.keypad is not None and len(self.main) < MAIN_FIELDS

    @property
    def stacked(self) -> bool:
        """Three boxes leave a name too little room beside them: it goes above them."""
        return len(self.main) >= MAIN_FIELDS

    @property
    def open_more(self) -> bool:
        # the keypad's cards show on their button: typed cards alone do not open "more"
        return any((i.has_value and i is not self.keypad) or i.problems for i in self.more)

    @property
    def all_problems(self) -> list[Problem]:
        inputs = [*self.main, *self.more, *([self.keypad] if self.keypad else [])]
        return [p for i in inputs for p in i.problems] + self.problems


def lines(form: ResultForm, feedback: EntryFeedback) -> list[Line]:
    """The form's lines in seat order: a side's line, then its partners' lines."""
    exclusive = form.exclusive
    scope = str(exclusive.scope) if exclusive and "went_out" in form.fields else ""
    out: list[Line] = []
    for row in feedback.rows:
        score = row.score.points if row.score else None
        reasons = tuple(row.score.reasons) if row.score else ()
        if row.form.specs or not any(m.form for m in row.members):
            out.append(_line(row.form, row.name, row.seat, row.label, row.problems, score, reasons))
            out[-1].went_out, out[-1].out_key = row.went_out, form.out_key(row.seat)
            out[-1].has_out = scope == "side"
        for member in row.members:
            if member.form is None:
                continue
            line = _line(
                member.form, member.seat.name, member.seat, row.label, member.problems, None, ()
            )
            line.went_out, line.member = member.went_out, True
            line.out_key, line.has_out = form.out_key(member.seat), scope == "member"
            if not row.form.specs and member is row.members[0]:
                line.score, line.reasons = score, reasons
            out.append(line)
    return out


def _line(
    sub: FieldsForm,
    name: str,
    seat: object,
    label: str,
    problems: dict[str, list[Problem]],
    score: int | None,
    reasons: tuple[str, ...],
) -> Line:
    inputs = [Input(sub[s.name], s, problems.get(s.name, [])) for s in sub.specs]
    keypad, main, more = _split(inputs)
    names = {s.name for s in sub.specs}
    loose = [p for key, found in problems.items() if key not in names for p in found]
    return Line(
        prefix=sub.prefix,
        name=name,
        position=seat.position,  # type: ignore[attr-defined]
        entry_id=seat.entry_id,  # type: ignore[attr-defined]
        label=label,
        main=main,
        more=more,
        keypad=keypad,
        problems=loose,
        score=score,
        reasons=reasons,
    )


def _split(inputs: list[Input]) -> tuple[Input | None, list[Input], list[Input]]:
    """The keypad's cards, the main inputs and the rest, in the game's order."""
    keypad = next((i for i in inputs if i.spec.kind == FieldKind.CARDS and i.spec.keypad), None)
    points = keypad and next((i for i in inputs if i.spec.alternative_to == keypad.spec.name), None)
    named = [i for i in inputs if i.spec.short and not i.spec.advanced]
    if named:
        main = named[:MAIN_FIELDS]
    elif keypad is not None and points is not None:
        main = [points]
    else:
        everyday = [i for i in inputs if not i.spec.advanced and not i.is_flag and i is not keypad]
        main = everyday[:MAIN_FIELDS]
    more = [i for i in inputs if i not in main]
    return keypad, main, more
