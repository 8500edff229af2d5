"""A game's ruleset as a form, made from the game's settings (``Game.settings()``).

Each **setting** carries a JSON Schema fragment of its allowed values; this module turns each kind
of fragment into inputs a director can use without JavaScript:

- ``integer`` (with ``minimum``, ``maximum``, ``multipleOf``): a number input; ``["integer",
  "null"]``: one that may be left empty (no limit);
- ``boolean``: a tick box; ``string`` with ``enum``: a choice; ``string``: a text input;
- ``object`` of integers (Kalooki's card values): one number input per property, named
  ``card_values.joker``, as the game names a problem with one of them;
- ``array`` of choices (tie-breaks): one choice per place, in order, each may be left empty;
- ``array`` of integers (match points): one number input per place;
- ``array`` of objects (Kalooki's schedule of games): **rows**, one per item, a column per
  property; a property called ``number`` is the row's place (1, 2, ...) and is not typed. Rows are
  shown with blank rows to add and a box to remove each; a little JavaScript adds and removes rows.

The form checks types only (the bounds are the browser's hints). The game checks values
(``Game.ruleset``) and its problems are shown on the field they name (``show_problems``).
``changes()`` gives the settings the director changed from the values shown, so that a request
stays "a preset and only the settings that differ".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.base import Game, Problem, Setting

BLANK_ROWS = 2  # rows offered for more games, without JavaScript
ON_PAGE = "rules-on-page"  # a hidden input: the post carries every setting
ORDINALS = (
    gettext_lazy("1st"), gettext_lazy("2nd"), gettext_lazy("3rd"), gettext_lazy("4th"),
    gettext_lazy("5th"), gettext_lazy("6th"), gettext_lazy("7th"), gettext_lazy("8th"),
    gettext_lazy("9th"), gettext_lazy("10th"),
)  # fmt: skip


def _types(schema: Mapping[str, Any]) -> set[str]:
    kind = schema.get("type", "")
    return set(kind) if isinstance(kind, list) else {kind}


def _items(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    return schema.get("items", {})


def _choices_of(schema: Mapping[str, Any]) -> list[Any]:
    return list(schema.get("enum", ()))


def _integer(schema: Mapping[str, Any], **kwargs: Any) -> forms.IntegerField:
    """A whole number. The bounds are the browser's hint only: the game checks the value and
    says why in its own words (and checks the settings together, which no field can)."""
    bounds = {"minimum": "min", "maximum": "max", "multipleOf": "step"}
    attrs = {attr: schema[key] for key, attr in bounds.items() if key in schema}
    return forms.IntegerField(widget=forms.NumberInput(attrs=attrs), **kwargs)


def _words(value: str) -> str:
    return str(value).replace("_", " ").capitalize()


# --- lists of scalars: one input per place -------------------------------------------------------


class PlacesWidget(forms.MultiWidget):
    """One input per place of a list, each with its own accessible name."""

    def __init__(self, widgets: Sequence[forms.Widget], label: str) -> None:
        for place, widget in enumerate(widgets):
            widget.attrs["aria-label"] = f"{label}, {ORDINALS[place]}"
        super().__init__(widgets)

    def decompress(self, value: Any) -> list[Any]:
        return list(value or [])


class PlacesField(forms.MultiValueField):
    """A list of up to ``places`` values; empty places are left out (the list closes up)."""

    def __init__(self, fields: Sequence[forms.Field], label: str, least: int, **kwargs: Any):
        widget = PlacesWidget([field.widget for field in fields], label)
        super().__init__(fields, widget=widget, require_all_fields=False, required=False,
                         label=label, **kwargs)  # fmt: skip
        self.least = least

    def compress(self, data_list: list[Any]) -> list[Any]:
        values = [value for value in data_list or [] if value not in (None, "")]
        if len(values) < self.least:
            raise forms.ValidationError(_("Fill in at least {least}.").format(least=self.least))
        return values

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.clean(data) != list(initial or [])
        except forms.ValidationError:
            return True


def _places(setting: Setting) -> PlacesField:
    schema, items = setting.schema, _items(setting.schema)
    places = int(schema.get("maxItems") or len(_choices_of(items)) or 3)
    if _choices_of(items):
        choices = [("", "(none)"), *[(value, _words(value)) for value in _choices_of(items)]]
        fields = [forms.ChoiceField(choices=choices, required=False) for _ in range(places)]
    else:
        fields = [_integer(items, required=False) for _ in range(places)]
    return PlacesField(fields, setting.label, int(schema.get("minItems", 0)))


# --- lists of objects: rows ----------------------------------------------------------------------


class RowsWidget(forms.Widget):
    """Reads rows named ``<name>-<i>-<property>`` (and ``<name>-<i>-remove``); the template
    draws them (``RulesetForm.rows``)."""

    def __init__(self, columns: Sequence[str], most: int) -> None:
        super().__init__()
        self.columns, self.most = tuple(columns), most

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[dict[str, str]]:
        try:
            count = min(int(data.get(f"{name}-rows", 0)), self.most + BLANK_ROWS)
        except (TypeError, ValueError):
            count = 0
        rows = []
        for place in range(max(count, 0)):
            row = {column: str(data.get(f"{name}-{place}-{column}", "")).strip()
                   for column in self.columns}  # fmt: skip
            if data.get(f"{name}-{place}-remove") or not any(row.values()):
                continue  # removed, or a blank row left blank
            rows.append(row)
        return rows


class RowsField(forms.Field):
    """A list of objects, one per row; a ``number`` property is the row's place."""

    def __init__(self, setting: Setting, **kwargs: Any) -> None:
        self.properties: dict[str, Mapping[str, Any]] = dict(_items(setting.schema)["properties"])
        self.numbered = "number" in self.properties
        self.most = int(setting.schema.get("maxItems", 20))
        super().__init__(widget=RowsWidget(self.columns, self.most), label=setting.label, **kwargs)

    @property
    def columns(self) -> list[str]:
        return [name for name in self.properties if not (self.numbered and name == "number")]

    def to_python(self, value: Any) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            return list(value or [])
        return [self._row(place, row) for place, row in enumerate(value, start=1)]

    def _row(self, place: int, row: Mapping[str, Any]) -> dict[str, Any]:
        read: dict[str, Any] = {"number": place} if self.numbered else {}
        for column in self.columns:
            read[column] = self._value(place, column, row.get(column, ""))
        return read

    def _value(self, place: int, column: str, text: Any) -> Any:
        if "integer" not in _types(self.properties[column]) or isinstance(text, int):
            return text
        try:
            return int(text)
        except (TypeError, ValueError):
            raise forms.ValidationError(
                _("Row {place}: {column} is a whole number, not {text}.").format(
                    place=place, column=_words(column).lower(), text=repr(str(text)[:20])
                )
            ) from None

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.to_python(data) != list(initial or [])
        except forms.ValidationError:
            return True


# --- the form ------------------------------------------------------------------------------------


def setting_fields(setting: Setting) -> dict[str, forms.Field]:
    """The form fields of one setting, by their names (the names the game's problems use)."""
    schema, kinds, help = setting.schema, _types(setting.schema), _help(setting)
    if "object" in kinds:
        return {
            f"{setting.name}.{name}": _integer(prop, label=_words(name), help_text="")
            for name, prop in schema.get("properties", {}).items()
        }
    if "array" in kinds:
        field = RowsField(setting) if "object" in _types(_items(schema)) else _places(setting)
        field.help_text = help
        return {setting.name: field}
    return {setting.name: _scalar(setting, kinds, help)}


def _scalar(setting: Setting, kinds: set[str], help: str) -> forms.Field:
    schema, label = setting.schema, setting.label
    if "boolean" in kinds:
        return forms.BooleanField(required=False, label=label, help_text=help)
    if "integer" in kinds:
        optional = "null" in kinds
        text = _("{help} Leave empty for no limit.").format(help=help) if optional else help
        return _integer(schema, required=not optional, label=label, help_text=text)
    if _choices_of(schema):
        choices = [(value, _words(value)) for value in _choices_of(schema)]
        return forms.ChoiceField(choices=choices, label=label, help_text=help)
    return forms.CharField(
        min_length=schema.get("minLength"), max_length=schema.get("maxLength"), label=label,
        help_text=help,
    )  # fmt: skip


def _help(setting: Setting) -> str:
    return f"{setting.help} ({setting.rule})" if setting.rule else setting.help


def form_values(game: Game[Any], stored: Mapping[str, Any]) -> dict[str, Any]:
    """A stored ruleset (``Game.dump``) as the form's values, by field name."""
    values: dict[str, Any] = {}
    for setting in game.settings():
        value = stored.get(setting.name)
        if isinstance(value, Mapping) and "object" in _types(setting.schema):
            values |= {f"{setting.name}.{key}": item for key, item in value.items()}
        else:
            values[setting.name] = list(value) if isinstance(value, list | tuple) else value
    return values


class RulesetForm(forms.Form):
    """Every setting of ``game``, starting from ``stored`` (a whole ruleset, ``Game.dump``)."""

    prefix = "rules"

    def __init__(
        self, data: Any = None, *, game: Game[Any], stored: Mapping[str, Any], **kwargs: Any
    ) -> None:
        # Bound only to a post that carries the settings (the page marks them as there).
        data = data if data is not None and ON_PAGE in data else None
        super().__init__(data, initial=form_values(game, stored), label_suffix="", **kwargs)
        self.game = game
        self.groups: list[tuple[Setting, list[str]]] = []
        for setting in game.settings():
            made = setting_fields(setting)
            self.fields.update(made)
            self.groups.append((setting, list(made)))

    def ready(self) -> bool:
        """Valid, or not sent at all (a post without the settings changes none of them)."""
        return not self.is_bound or self.is_valid()

    def changes(self) -> dict[str, Any]:
        """The settings the director changed from those shown: an object setting (card values)
        only with the values changed."""
        if not self.is_bound:
            return {}
        changed: dict[str, Any] = {}
        for name in self.changed_data:
            setting, _, key = name.partition(".")
            if key:
                changed.setdefault(setting, {})[key] = self.cleaned_data[name]
            else:
                changed[name] = self.cleaned_data[name]
        return changed

    def show_problems(self, problems: Sequence[Problem]) -> None:
        """The game's refusals, each on the field it names (above the form otherwise)."""
        for problem in problems:
            field = problem.field if problem.field in self.fields else None
            if field and field in self.errors:
                self.errors[field].append(problem.message)
            else:
                self.add_error(field, problem.message)

    def sections(self) -> list[dict[str, Any]]:
        """The settings in the game's order, each with its bound fields, for the template."""
        return [
            {
                "setting": setting,
                "fields": [self[name] for name in names],
                "rows": self.rows(names[0])
                if isinstance(self.fields[names[0]], RowsField)
                else None,
                "grouped": len(names) > 1 or isinstance(self.fields[names[0]], PlacesField),
                "places": isinstance(self.fields[names[0]], PlacesField),
            }
            for setting, names in self.groups
        ]

    def rows(self, name: str) -> dict[str, Any]:
        """A rows setting for the template: each row's cells (html name, value, label), and
        blank rows after them."""
        field: RowsField = self.fields[name]  # type: ignore[assignment]
        html = self.add_prefix(name)
        shown = self._rows_shown(name, field)
        offered = shown + [{}] * min(BLANK_ROWS, max(field.most - len(shown), 0))
        return {
            "html_name": html,
            "count": len(offered),
            "columns": [(column, _words(column)) for column in field.columns],
            "rows": [
                self._row(html, field, place, row, place >= len(shown))
                for place, row in enumerate(offered)
            ],
            "errors": self.errors.get(name, []),
            "help": field.help_text,
        }

    def _rows_shown(self, name: str, field: RowsField) -> list[Mapping[str, Any]]:
        if self.is_bound:
            return field.widget.value_from_datadict(self.data, None, self.add_prefix(name))
        return list(self.initial.get(name) or [])

    @staticmethod
    def _row(
        html: str, field: RowsField, place: int, row: Mapping[str, Any], blank: bool
    ) -> dict[str, Any]:
        cells = []
        for column in field.columns:
            schema = field.properties[column]
            cells.append({
                "name": f"{html}-{place}-{column}",
                "value": row.get(column, ""),
                "label": _("{column}, row {row}").format(column=_words(column), row=place + 1),
                "number": "integer" in _types(schema),
                "min": schema.get("minimum"),
                "max": schema.get("maximum"),
                "pattern": schema.get("pattern", "").strip("^$"),
            })  # fmt: skip
        return {
            "place": place + 1,
            "cells": cells,
            "blank": blank,
            "remove": f"{html}-{place}-remove",
        }
